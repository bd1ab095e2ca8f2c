/* SPDX-License-Identifier: MIT */
/*
 * The reader's private parts, shared by its files and by no view:
 * session.c (opening: info, .proc, the clock), stream.c (the .ev decoder),
 * merge.c (the merge of threads), modules.c (the module map, symbols).
 */
#ifndef CT_SESSION_PRIV_H
#define CT_SESSION_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "util.h"

#define STREAM_BUF (1u << 20)

/* ---- private parts of the public structures ----------------------------- */

struct symcache {
	char *key;
	struct ct_symtab *tab; /* NULL when no symbols could be had */
	struct symcache *next;
};

struct session_priv {
	struct ct_session pub;
	struct ct_msgs warnings; /* (ct_session_warnings) */
	struct ct_u64map warned; /* hash of each warning text: said once */
	/* clock -> ns: ns = d * ns_int + round(d * ns_frac / 2^64) */
	uint64_t ns_int, ns_frac;
	bool exact_ns;             /* clock_hz == 1e9 */
	struct ct_u64map symtabs;  /* hash of key -> struct symcache list */
	struct ct_u64map procmap;  /* pid << 32 | gen -> struct ct_proc * */
	void *srcline;             /* lib/read/srcline.c's cache, or NULL */
	bool skimming;             /* stream.c's proc_end is reading threads through */
	struct ct_u64map offcpu;   /* record --sched: tid -> struct ct_offcpu_thr * */
	struct withsyms *withsyms; /* --with-syms DIR's files (withsyms.c), or NULL */
};

struct proc_priv {
	struct ct_proc pub;
	struct ct_u64map cache; /* addr -> struct ct_sym_info * */
	size_t capargv, capmod;
	uint32_t *same_base;     /* by module: index + 1 of the one before it
				 * with the same base, 0 for none */
	struct ct_u64map bybase; /* base -> index + 1 of the latest module */
	/* the modules by lo (ties in file order), and the largest hi of
	 * those up to each position: made at the first look-up */
	uint32_t *bylo;
	uint64_t *maxhi;
	size_t nindexed; /* nmodules when they were made */
	/* some address range held two modules at different times: the
	 * decoder tags event addresses with their module (session.h); -1 not
	 * looked at yet */
	int overlaps;
	bool warned_args, warned_mods;
	struct ct_u64map tnames;  /* tid -> its last recorded name (char *) */
	struct ct_u64map lcnames; /* library calls: target -> the name the
				   * program called it by (char *), the first;
				   * an alias's jump -> its name */
	struct ct_u64map lcalias; /* an alias's jump -> its target (uint64_t
				   * in the pointer): where its library is */
	/* the recorded time of the process's last event, its other threads'
	 * read through once when a stream of it ends with calls open
	 * (stream.c's proc_end) */
	uint64_t end_ns;
	bool end_known;
	/* the bytes of the .proc read (its whole lines), and how many times
	 * ct_session_proc_update added lines: a fed stream redoes what it
	 * took from them */
	uint64_t parsed;
	unsigned lines;
};

static inline struct session_priv *priv(const struct ct_session *s)
{
	return (struct session_priv *)(void *)s;
}

/* modules.c: does some range of p's address space hold two modules
 * (at different times)?  And the tag of addr for an event at time ns */
bool ct_proc_overlaps(struct ct_proc *p);
uint64_t ct_proc_tag(struct ct_session *s, struct ct_proc *p, uint64_t addr, uint64_t ns);

/* err->msg from a format, made safe for the terminal; err may be NULL
 * (session.c) */

/* the lines added to p's .proc since it was read (a process being
 * recorded: lib/record/follow.c), applied to p as if read with the rest:
 * 1 when there were some, else 0 */
int ct_session_proc_update(struct ct_session *s, struct ct_proc *p);

/* ---- the clock ----------------------------------------------------------- */

/* d ticks -> ns with the fixed-point rate of setup_clock (1 GHz is ns_int 1,
 * ns_frac 0: d itself) */
static inline uint64_t fixed_ns(uint64_t d, uint64_t ns_int, uint64_t ns_frac)
{
	unsigned __int128 r = (unsigned __int128)d * ns_int +
			      (((unsigned __int128)d * ns_frac + (1ULL << 63)) >> 64);
	return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

/* clock -> ns; inline so that the stream decoder pays no call per event */
static inline uint64_t clock_ns(const struct ct_session *s, uint64_t clock)
{
	if (clock <= s->start_clock)
		return 0;
	uint64_t d = clock - s->start_clock;
	const struct session_priv *sp = priv(s);
	if (sp->exact_ns)
		return d;
	if (!sp->ns_int && !sp->ns_frac) /* session built by hand */
		return (uint64_t)((long double)d * 1e9L / (long double)s->clock_hz);
	return fixed_ns(d, sp->ns_int, sp->ns_frac);
}

/* ---- the stream decoder (stream.c) --------------------------------------- */

/* ct_stream_open with a read buffer of bufsize bytes (the merge keeps the
 * total near 64 MiB) */
int ct_stream_open_buf(struct ct_session *s, struct ct_thread *t, size_t bufsize,
		       struct ct_stream **out, struct ct_error *err);

/* a stream with no file: its bytes (those of a .ev file after its header,
 * whose clock base is start_clock) are given by ct_stream_feed as they come
 * (lib/record/follow.c); when it has run out of them, ct_stream_read gives 0
 * without ending it, until ct_stream_feed_end says no more will come */
struct ct_stream *ct_stream_open_feed(struct ct_session *s, struct ct_thread *t,
				      uint64_t start_clock);
void ct_stream_feed(struct ct_stream *st, const void *data, size_t n);
void ct_stream_feed_end(struct ct_stream *st);
/* no more events: it ended (a fed one only after ct_stream_feed_end) */
bool ct_stream_ended(const struct ct_stream *st);
/* the calls open now, and the time of the latest event given (ns) */
size_t ct_stream_depth(const struct ct_stream *st);
uint64_t ct_stream_last_time(const struct ct_stream *st);

/* ---- the module map (modules.c) ------------------------------------------ */

/* a module line of the .proc: added to p's map */
void ct_proc_add_module(struct ct_proc *p, const struct ct_module *m);
/* "unmodule CLOCK BASE PATH": the latest module still mapped at base with
 * that path was unmapped at clk */
void ct_proc_unmodule(struct ct_proc *p, uint64_t clk, uint64_t base, const char *path);
/* the module map, its indexes and the resolved names of p */
void ct_proc_free_modules(struct ct_proc *p);
/* the session's symbol tables */
void ct_session_free_symtabs(struct ct_session *s);
void ct_withsyms_free(struct ct_session *s);

#endif
