/* SPDX-License-Identifier: MIT */
/*
 * Following a recording while it is made (calltrace live, calltrace top):
 * the events of every thread decoded as `record`'s drainer takes them, in
 * record's own process, never in the program's.
 *
 * record (builtin/record.c, ct_record_run) calls the hooks of struct
 * ct_record_follow: start once the drainer is set up, round after each of
 * its rounds and once more, final, when it has drained everything.  The
 * follower takes each buffer the drainer copies (lib/record/drain.h's observer)
 * and, every so often, peeks at the buffers the threads are writing, so
 * that a thread that makes few calls is seen within the delay too; it feeds
 * the bytes to one stream decoder per thread (lib/read/stream.c, fed mode) and
 * hands the events on: as they are decoded (top), or held and given in time
 * order across threads (live), once every thread's decoded position has
 * passed them or they are older than the delay.
 */
#ifndef CT_FOLLOW_H
#define CT_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct ct_drainer;
struct ct_error;
struct ct_msgs;

/* record's side: what it calls */
struct ct_record_follow {
	/* the drainer is ready (dir: the data directory, absolute; peek:
	 * the threads' current buffers may be read, no record is taken
	 * back); -1 with err filled stops record */
	int (*start)(void *ctx, struct ct_drainer *d, const char *dir, bool peek,
		     struct ct_error *err);
	/* after each round of the drain loop; final: all is drained */
	void (*round)(void *ctx, bool final);
	void *ctx;
};

struct ct_follow_opts {
	/* the events of one thread (ordered: one at a time, in time order
	 * across threads); s is the session their thread belongs to.  An
	 * event's args are not given (NULL). */
	void (*events)(void *ctx, struct ct_session *s, const struct ct_event *ev, size_t n);
	/* after each round of the follower, every peek_every at least (now:
	 * ns since the start of the recording); final: the last */
	void (*tick)(void *ctx, uint64_t now, bool final);
	/* the warnings of a round (a thread that cannot be read on, the
	 * view falling behind), before its tick: the view's to print
	 * (message.h's ct_msgs_flush); NULL: not said */
	void (*say)(void *ctx, struct ct_msgs *m);
	void *ctx;
	bool ordered;                   /* hold events and give them in time order */
	uint64_t delay;                 /* ordered: ns an event is held at most */
	size_t queue_max;               /* ordered: events held at most; more are skipped */
	uint64_t peek_every;            /* ns between peeks at the threads' buffers, and
				* between the follower's rounds */
	uint64_t lag_warn;              /* ns behind that is said (say; 0: never) */
	enum ct_demangle_mode demangle; /* of the names (session.h) */
	const char *with_syms;          /* --with-syms DIR (session.h), or NULL */
	bool verbose;                   /* -v (session.h) */
};

struct ct_follow;

struct ct_follow *ct_follow_new(const struct ct_follow_opts *o);
/* the hooks to give ct_record_run */
const struct ct_record_follow *ct_follow_hooks(struct ct_follow *f);
/* events not given because the view could not keep up */
uint64_t ct_follow_skipped(const struct ct_follow *f);
/* the data directory (once started), or NULL */
const char *ct_follow_dir(const struct ct_follow *f);
void ct_follow_free(struct ct_follow *f);

#endif
