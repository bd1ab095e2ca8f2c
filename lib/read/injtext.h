/* SPDX-License-Identifier: MIT */
/* The text of an injected fault (record --inject, doc/inject.md): what a
 * CT_EXT_INJECT record says, for replay and record's summary. */
#ifndef CT_INJTEXT_H
#define CT_INJTEXT_H

#include <stddef.h>
#include <stdint.h>

/* the text of an action's value as the trace shows it ("return -1",
 * "errno ENOMEM", "throw std::bad_alloc", ...) into buf */
void ct_inj_describe(unsigned acts, uint64_t value, int err, int sig, char *buf, size_t len);

/* a CT_EXT_INJECT record's text ("injected: return -1"): arg its small
 * argument, p its CT_INJ_PAYLOAD words */
void ct_inj_text(unsigned arg, const unsigned char *p, char *buf, size_t len);

#endif
