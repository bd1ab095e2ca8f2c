/* SPDX-License-Identifier: MIT */
/* calltrace export --format=perfetto: Perfetto's protobuf trace format
 * (TrackEvent slices), written as the events stream by.  See
 * builtin/export_perfetto.c and doc/export.md. */
#ifndef CT_EXPORT_PERFETTO_H
#define CT_EXPORT_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "filter.h"
#include "session.h"

struct ct_perfetto;

/* write the track descriptors of the processes and threads of s (those
 * with want[index], all when want is NULL) to out, and a track named
 * "calltrace: " + note (which times the trace holds); the calls exported
 * will be those overlapping [lo, hi) (0 and UINT64_MAX when open), their
 * times clipped to it */
struct ct_perfetto *ct_perfetto_start(FILE *out, struct ct_session *s, const bool *want,
				      uint64_t lo, uint64_t hi, const char *note);
/* one event that passed the filter; the events of a thread come together,
 * in the thread's order */
/* an event; an exit's time and self time as report counts them */
void ct_perfetto_event(struct ct_perfetto *pf, const struct ct_fevent *fe, uint64_t time,
		       uint64_t self);
/* end the slices still open (only after a read error) and free pf */
void ct_perfetto_finish(struct ct_perfetto *pf);

#endif
