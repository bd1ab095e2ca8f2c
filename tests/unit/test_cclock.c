/* SPDX-License-Identifier: MIT */
/*
 * The corrected clock (lib/read/cclock.h, kept by the decoder
 * lib/read/stream.c; doc/overhead.md) on random recordings: a property
 * test.  Each case is a data directory made up here (info, one or two
 * .proc files with random believable figures, sometimes
 * absurd or none; one to three .ev streams per process, written with the
 * record encoding of doc/format.md): random call trees with clock deltas
 * of 0, a few ticks or many (TIME records past the delta's bits), exits at
 * the same time (tail-call chains), tiny callees in loops, deep recursion,
 * WAIT records, UNWIND and UNWIND_TO, the nested path's NENTER/NEXIT,
 * a flight window's FRAMES at the start, marks, cut at a random byte.
 *
 * Each stream is read in several ways (batches of 1, random batches from a
 * small read buffer, one large batch, fed in random chunks as the live
 * view and top read it, merged with the others, and with --raw), and it is
 * checked that:
 *  - every way gives the same events and the same ct_stream_cost (but a
 *    fed call whose CALLSITE came in a later chunk has no call site);
 *  - the recorded clock and the corrected clock never go back, the
 *    corrected one is never after the recorded one; a call lasts no more
 *    on it than as recorded, and never less than its direct callees
 *    together (so self time is never below 0); calls nest;
 *  - the events are those the format's rules give (a model of the
 *    records written, below: hooked entries and exits by kind, the calls
 *    entered before a window, the unwound and unfinished ones, marks);
 *  - ct_stream_cost's taken + clipped is what the figures say is owed:
 *    each hooked event's share of the calibration figures (inner split at
 *    the clock reads, outer - inner around them), less the share after the
 *    last event's read, plus the waits before the last event, derived from
 *    the model's counts; the corrected clock lags the recorded one by what
 *    was taken; span is the first to the last event;
 *  - with --raw the corrected clock is the recorded one, nothing taken;
 *  - a process without believable figures is shown as recorded (less its
 *    waits) with a warning naming it.
 * Then fixed cases: 1 s per call, times near 2^64, long runs of plain
 * records read in batches larger than the decoder's fast path takes, a
 * stream with a
 * library call fed in chunks of every size, and fed streams whose .proc
 * grows while they are read (as live and top read a running program).
 *
 *   build/tests/test_cclock [CASES [SEED]]     (default 2000 cases, seed 27)
 *
 * A failing case prints its number and seed; run it alone with
 * CT_CCLOCK_CASE=N (same SEED) and CT_CCLOCK_KEEP=1 to keep its directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "figcheck.h"
#include "overhead.h"
#include "session.h"
#include "session_priv.h"
#include "util.h"

/* ---- random numbers (splitmix64: the same cases on every machine) ------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned pct)
{
	return below(100) < pct;
}

/* ---- one case's failures: the first few printed, then one CHECK -------- */

static int case_no, case_bad;
static uint64_t seed;

#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond) && case_bad++ < 6) {                               \
			printf("case %d (seed %" PRIu64 "): ", case_no, seed); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

/* ---- the recording ------------------------------------------------------ */

static char dir[256];

static void write_file(const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	free(path);
}

/* the functions the streams call: 14 with addresses below 2^40, 6 above
 * (an HI record before their ENTER); 10, 11, 16 and 17 are library calls
 * in a process whose .proc says so */
#define NFN 20
static uint64_t fn(unsigned i)
{
	return i < 14 ? 0x401000u + 0x40u * i : 0x7f1234560000ull + 0x40u * (i - 14);
}
static bool fn_is_lib(uint64_t a)
{
	return a == fn(10) || a == fn(11) || a == fn(16) || a == fn(17);
}

struct figs {
	bool present;
	uint64_t calls, inner, outer; /* ticks over calls, as in the .proc */
};

struct pcfg {
	int pid;
	struct figs cyg, hook;
	unsigned fe;   /* CT_PROC_FE_* "frontend" lines */
	bool libcalls; /* "libcall" lines */
	int nthreads;
	/* the figures the reader should use, in ps (derived below) */
	uint64_t pre[2][2], post[2][2]; /* [entry, exit][library call] */
	int fallback;                   /* 0, or 1: none, 2: not believable,
					 * 3: more than its leaf calls last */
};

struct ccase {
	double hz;
	const char *hz_text;
	uint64_t start_clock;
	int nprocs;
	struct pcfg p[2];
	bool marks;
	bool hostile; /* huge jumps and waits: invariants only */
};

/* ---- the model: what a reader must make of the records written ---------- */

enum {
	OP_NONE,
	OP_ENTER,
	OP_EXIT,
	OP_UNWIND,
	OP_UNWIND_TO,
	OP_NENTER,
	OP_NEXIT,
	OP_FRAMES,
	OP_WAIT,
	OP_MARK
};

struct op {
	uint8_t kind;
	uint64_t a, b;
	size_t end; /* in words: the record is whole when the cut is past it */
};

enum { LAST_NONE, LAST_ENTER, LAST_EXIT = LAST_ENTER + 2 }; /* + lib */

struct model {
	uint64_t *stack;
	size_t depth, cap;
	uint64_t skip; /* a window's calls not listed in its FRAMES */
	bool window;
	uint64_t nenter;
	/* the events a reader gives */
	uint64_t ent[2], ext[2]; /* hooked entries and exits, by library call */
	uint64_t before, synth, unfin, marks, events, unmatched;
	uint64_t wait_pending, wait_used; /* ns (ticks while generating) */
	int last;
	/* how the model reads: library calls, marks, the session's clock */
	bool libcalls, show_marks;
	const struct ct_session *s;
	const uint64_t *frames; /* FRAMES' listed addresses */
};

static bool m_lib(const struct model *m, uint64_t a)
{
	return m->libcalls && fn_is_lib(a);
}

static void m_event(struct model *m, int last)
{
	m->events++;
	m->wait_used += m->wait_pending;
	m->wait_pending = 0;
	m->last = last;
}

static void m_push(struct model *m, uint64_t a)
{
	if (m->depth == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->stack = xrealloc(m->stack, m->cap * sizeof(*m->stack));
	}
	m->stack[m->depth++] = a;
	m->nenter++;
}

static void m_synth(struct model *m, uint64_t n)
{
	for (; n; n--) {
		m->depth--;
		m->synth++;
		m_event(m, LAST_NONE);
	}
}

/* one record, by the rules of doc/format.md */
static void m_apply(struct model *m, const struct op *o)
{
	switch (o->kind) {
	case OP_ENTER:
	case OP_NENTER: {
		bool lib = m_lib(m, o->a);
		m_push(m, o->a);
		m->ent[lib]++;
		m_event(m, LAST_ENTER + lib);
		break;
	}
	case OP_EXIT:
		if (m->depth) {
			bool lib = m_lib(m, m->stack[--m->depth]);
			m->ext[lib]++;
			m_event(m, LAST_EXIT + lib);
		} else if (m->skip) {
			m->skip--;
		} else {
			m->unmatched++; /* a window's return of a call not listed */
		}
		break;
	case OP_UNWIND: {
		uint64_t n = o->a;
		if (n > m->depth && m->window) {
			uint64_t more = n - m->depth;
			m->skip -= more < m->skip ? more : m->skip;
			n = m->depth;
		}
		m_synth(m, n);
		break;
	}
	case OP_UNWIND_TO: {
		uint64_t keep = o->a;
		if (m->skip) {
			uint64_t all = m->depth + m->skip, close = all > keep ? all - keep : 0;
			if (close > m->depth)
				m->skip -= close - m->depth;
			keep = close >= m->depth ? 0 : m->depth - close;
		}
		m_synth(m, m->depth > keep ? m->depth - keep : 0);
		break;
	}
	case OP_NEXIT: {
		size_t i = m->depth;
		while (i > 0 && m->stack[i - 1] != o->a)
			i--;
		if (!i) {
			m->unmatched++;
			break;
		}
		m_synth(m, m->depth - i);
		bool lib = m_lib(m, m->stack[--m->depth]);
		m->ext[lib]++;
		m_event(m, LAST_EXIT + lib);
		break;
	}
	case OP_FRAMES:
		if (m->nenter || m->depth || m->window)
			break; /* redundant */
		m->window = true;
		m->skip = o->a - o->b;
		for (uint64_t i = 0; i < o->b; i++) {
			m_push(m, m->frames[i]);
			m->before++;
			m_event(m, LAST_NONE);
		}
		break;
	case OP_WAIT: {
		uint64_t from = m->s ? ct_session_ns(m->s, o->a) : o->a;
		uint64_t to = m->s ? ct_session_ns(m->s, o->b) : o->b;
		if (to > from)
			m->wait_pending += to - from;
		break;
	}
	case OP_MARK:
		if (m->show_marks) {
			m->marks++;
			m_event(m, LAST_NONE);
		}
		break;
	default:
		break;
	}
}

/* the end of the stream: calls still open are unfinished */
static void m_end(struct model *m)
{
	for (; m->depth; m->depth--) {
		m->unfin++;
		m_event(m, LAST_NONE);
	}
}

/* ---- the writer: records in the encoding of doc/format.md --------------- */

struct gen {
	uint32_t *w;
	size_t n, cap;
	struct op *ops;
	size_t nops, capops;
	uint64_t start_tsc, base, hi; /* the writer's clock base and HI */
	uint64_t frames[CT_FRAMES_MAX];
	struct model m; /* the stream so far, to write only what a writer does */
	bool hostile;
};

static void put(struct gen *g, uint32_t w)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->w = xrealloc(g->w, g->cap * sizeof(*g->w));
	}
	g->w[g->n++] = w;
}

static void put64(struct gen *g, uint64_t v)
{
	put(g, (uint32_t)v);
	put(g, (uint32_t)(v >> 32));
}

static void rec(struct gen *g, unsigned kind, uint64_t a, uint64_t b)
{
	if (g->nops == g->capops) {
		g->capops = g->capops ? 2 * g->capops : 256;
		g->ops = xrealloc(g->ops, g->capops * sizeof(*g->ops));
	}
	struct op o = {(uint8_t)kind, a, b, g->n};
	g->ops[g->nops++] = o;
	m_apply(&g->m, &o);
}

static void ext(struct gen *g, unsigned type, unsigned len, unsigned arg)
{
	put(g, ct_ext_word(type, len, arg));
}

static void w_time(struct gen *g, uint64_t clock)
{
	ext(g, CT_EXT_TIME, 2, 0);
	put64(g, clock);
	g->base = clock;
	rec(g, OP_NONE, 0, 0);
}

/* a clock delta: 0, a few ticks, some, many, or past the record's bits */
static uint64_t delta(void)
{
	switch (below(16)) {
	case 0:
	case 1:
		return 0;
	case 2:
	case 3:
	case 4:
		return 1 + below(3);
	case 5:
	case 6:
	case 7:
	case 8:
	case 9:
		return 1 + below(100);
	case 10:
	case 11:
	case 12:
		return 100 + below(10000);
	case 13:
		return below(1u << 22);
	case 14:
		return below(1u << 30);
	default:
		return chance(50) ? (1ull << 22) + below(1ull << 36) : below(1ull << 44);
	}
}

/* advance the writer's clock by d for a record whose delta has bits bits */
static uint32_t advance(struct gen *g, uint64_t d, unsigned bits)
{
	if (d >= (1ull << bits)) {
		w_time(g, g->base + d);
		return 0;
	}
	g->base += d;
	return (uint32_t)d;
}

static void w_enter(struct gen *g, uint64_t d, uint64_t addr)
{
	uint64_t hi = addr >> CT_ADDR_LOW_BITS;
	if (hi != g->hi) {
		ext(g, CT_EXT_HI, 1, 0);
		put(g, (uint32_t)hi);
		g->hi = hi;
		rec(g, OP_NONE, 0, 0);
	}
	uint64_t dd = advance(g, d, CT_ENTER_DELTA_BITS);
	uint64_t low = addr & ((1ull << CT_ADDR_LOW_BITS) - 1);
	put64(g, (uint64_t)CT_REC_ENTER | dd << 2 | low << 24);
	rec(g, OP_ENTER, addr, 0);
	if (chance(5)) { /* record --callsite */
		uint32_t cw[2];
		unsigned k =
			ct_callsite_encode(addr, chance(50) ? addr + 0x20 : 0x400000000ull, cw);
		for (unsigned i = 0; i < k; i++)
			put(g, cw[i]);
		rec(g, OP_NONE, 0, 0);
	}
	if (chance(3)) { /* arguments, with no args.spec: skipped */
		unsigned n = (unsigned)below(4);
		ext(g, CT_EXT_ARGS, n, 0);
		for (unsigned i = 0; i < n; i++)
			put(g, (uint32_t)rnd());
		rec(g, OP_NONE, 0, 0);
	}
}

static void w_exit(struct gen *g, uint64_t d)
{
	put(g, CT_REC_EXIT | advance(g, d, CT_EXIT_DELTA_BITS) << 2);
	rec(g, OP_EXIT, 0, 0);
}

/* can the writer return now (a call open, or one a window did not list)? */
static bool can_exit(const struct gen *g)
{
	return g->m.depth || g->m.skip;
}

/* the thread waited for the writer from a little after the clock base for
 * w ticks; the next delta-coded record usually comes after that */
static uint64_t w_wait(struct gen *g)
{
	uint64_t from = g->base + below(50), w = chance(80) ? below(5000) : below(1u << 20);
	if (g->hostile && chance(20)) {
		from = rnd();
		w = rnd();
	}
	ext(g, CT_EXT_WAIT, 4, 0);
	put64(g, from);
	put64(g, from + w);
	rec(g, OP_WAIT, from, from + w);
	return chance(85) ? from + w - g->base + below(100) : 0;
}

/* a signal handler's calls by the nested path: absolute clocks, the delta
 * base untouched; its return closes what is open above its entry */
static void w_signal(struct gen *g)
{
	uint64_t clk = chance(80) ? g->base + below(200) : g->base - below(200);
	uint64_t a = fn(12 + (unsigned)below(8) % 8), b = fn((unsigned)below(NFN));
	ext(g, CT_EXT_NENTER, 4, 0);
	put64(g, clk);
	put64(g, a);
	rec(g, OP_NENTER, a, 0);
	if (chance(50)) {
		clk += below(30);
		ext(g, CT_EXT_NENTER, 4, 0);
		put64(g, clk);
		put64(g, b);
		rec(g, OP_NENTER, b, 0);
		if (chance(70)) {
			clk += below(30);
			ext(g, CT_EXT_NEXIT, 4, 0);
			put64(g, clk);
			put64(g, b);
			rec(g, OP_NEXIT, b, 0);
		}
	}
	/* its return: usually the handler's own, sometimes one deeper (the
	 * frames above it close unwound), or none open (unmatched) */
	uint64_t r = a;
	if (chance(10) && g->m.depth)
		r = g->m.stack[below(g->m.depth)];
	else if (chance(5))
		r = 0x7000;
	clk += below(50);
	ext(g, CT_EXT_NEXIT, 4, 0);
	put64(g, clk);
	put64(g, r);
	rec(g, OP_NEXIT, r, 0);
}

static void w_mark(struct gen *g)
{
	static const char text[] = "phase 2 of the random program";
	unsigned n = 1 + (unsigned)below(sizeof(text) - 1), words = (n + 3) / 4;
	uint32_t tw[8] = {0};
	memcpy(tw, text, n);
	w_time(g, g->base + below(10));
	ext(g, CT_EXT_MARK, words, n);
	for (unsigned i = 0; i < words; i++)
		put(g, tw[i]);
	rec(g, OP_MARK, 0, 0);
}

/* a flight window's start: the calls open where its buffer began (before
 * any call: elsewhere it is redundant) */
static void w_frames(struct gen *g)
{
	bool at_start = !g->m.nenter && !g->m.depth && !g->m.window;
	uint32_t depth = (uint32_t)(chance(30) ? below(3) : below(300));
	uint32_t n = (uint32_t)below((depth < CT_FRAMES_MAX ? depth : CT_FRAMES_MAX) + 1);
	ext(g, CT_EXT_FRAMES, 1 + 2 * n, 0);
	put(g, depth);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = fn((unsigned)below(NFN));
		if (at_start)
			g->frames[i] = a;
		put64(g, a);
	}
	rec(g, OP_FRAMES, depth, n);
}

/* a new stream whose clock starts at base */
static void gen_reset(struct gen *g, uint64_t base, bool libcalls)
{
	uint64_t *stack = g->m.stack;
	size_t cap = g->m.cap;
	memset(&g->m, 0, sizeof(g->m));
	g->m.stack = stack; /* (its memory kept from stream to stream) */
	g->m.cap = cap;
	g->m.libcalls = libcalls;
	g->m.frames = g->frames;
	g->n = g->nops = 0;
	g->hi = 0;
	g->base = g->start_tsc = base;
}

/* a CALIB record: a thread measured its hooks again (runtime/calibrate.c) */
static void put_calib(struct gen *g, uint64_t from, uint64_t to, bool figs, uint32_t hi,
		      uint32_t ho)
{
	ext(g, CT_EXT_CALIB, CT_CALIB_WORDS, figs ? CT_CALIB_FIGS : 0);
	put64(g, from);
	put64(g, to);
	put(g, 1); /* cpu */
	put(g, 1); /* calls */
	put(g, 0); /* -finstrument-functions: not measured */
	put(g, 0);
	put(g, hi);
	put(g, ho);
	rec(g, OP_NONE, 0, 0);
}

/* one thread's stream */
static void gen_stream(struct gen *g, bool libcalls)
{
	gen_reset(g, g->base, libcalls);
	if (chance(15)) { /* a flight window */
		if (chance(60))
			w_time(g, g->base + below(1000));
		w_frames(g);
	}
	size_t steps = chance(60) ? below(60) : chance(92) ? below(300) : 1500;
	uint64_t next_min = 0; /* the next delta-coded record's least delta */
	for (size_t i = 0; i < steps; i++) {
		uint64_t d = delta();
		if (d < next_min)
			d = next_min;
		next_min = 0;
		unsigned what = (unsigned)below(100);
		size_t depth = g->m.depth;
		if (what < 30 || (!can_exit(g) && what < 60)) {
			w_enter(g, d, fn((unsigned)below(NFN)));
		} else if (what < 60) {
			if (depth > 40 && chance(30)) { /* a tail-call chain returns */
				for (unsigned k = (unsigned)below(8); k && can_exit(g); k--)
					w_exit(g, 0);
			}
			if (can_exit(g))
				w_exit(g, d);
			else if (chance(3) && g->m.window)
				w_exit(g, d); /* unmatched in a window */
		} else if (what < 70) {       /* tiny callees in a loop */
			uint64_t a = fn((unsigned)below(NFN));
			for (unsigned k = 1 + (unsigned)below(20); k; k--) {
				w_enter(g, below(4), a);
				w_exit(g, below(4));
			}
		} else if (what < 72) { /* deep recursion, then back */
			uint64_t a = fn((unsigned)below(NFN));
			unsigned k =
				chance(5) ? 1000 + (unsigned)below(2000) : (unsigned)below(100);
			for (unsigned j = 0; j < k; j++)
				w_enter(g, below(3), a);
			if (chance(80))
				for (unsigned j = 0; j < k; j++)
					w_exit(g, below(3));
		} else if (what < 78) {
			next_min = w_wait(g);
		} else if (what < 81) {
			uint64_t n = depth ? below(depth + 1) : 0;
			if (g->m.window && chance(30))
				n += below(g->m.skip + 2);
			ext(g, CT_EXT_UNWIND, 1, 0);
			put(g, (uint32_t)n);
			rec(g, OP_UNWIND, n, 0);
		} else if (what < 83) {
			uint64_t keep = below(depth + g->m.skip + 3);
			ext(g, CT_EXT_UNWIND_TO, 2, 0);
			put(g, (uint32_t)keep);
			put(g, (uint32_t)below(10));
			rec(g, OP_UNWIND_TO, keep, 0);
		} else if (what < 87) {
			w_signal(g);
		} else if (what < 90) {
			uint64_t to = g->base + d;
			if (g->hostile && chance(40))
				to = chance(50) ? UINT64_MAX - below(1u << 20) : rnd();
			else if (chance(10))
				to = g->base - below(1000); /* back: the reader holds */
			w_time(g, to);
		} else if (what < 92) {
			ext(g, CT_EXT_LOST, 2, 0);
			put64(g, below(1000));
			rec(g, OP_NONE, 0, 0);
		} else if (what < 93) {
			put(g, 0); /* PAD */
			rec(g, OP_NONE, 0, 0);
		} else if (what < 95) {
			w_mark(g);
		} else if (what < 96) {
			w_frames(g); /* mostly redundant, inside a stream */
		} else if (what < 97 && g->hostile && chance(30)) {
			/* figures measured again, any values */
			put_calib(g, rnd(), rnd(), chance(50), (uint32_t)rnd(), (uint32_t)rnd());
		} else if (what < 97 && g->hostile) {
			/* deltas as large as they come */
			w_enter(g, (1u << 22) - 1, fn((unsigned)below(NFN)));
			w_exit(g, (1u << 30) - 1);
		}
	}
	if (chance(70))
		while (can_exit(g))
			w_exit(g, delta() % 1000);
}

/* ---- the case's files ---------------------------------------------------- */

static uint64_t ps_of(const struct ccase *c, uint64_t ticks, uint64_t calls)
{
	long double ps = (long double)ticks * 1e12L / (long double)c->hz / (long double)calls;
	return ps > 0 && ps < 1e15L ? (uint64_t)(ps + 0.5L) : 0;
}

static void random_figs(const struct ccase *c, struct figs *f, bool exact)
{
	f->present = true;
	static const uint64_t calls[] = {1, 2, 3, 10, 100, 128, 1000};
	f->calls = exact ? 1 : calls[below(7)];
	uint64_t in = below(80000), out = chance(85) ? in + below(80000) : below(80000);
	if (chance(3))
		out = chance(50) ? 1000000000000ull : 10000001 + below(1000000); /* > 10 us */
	if (chance(3))
		in = out = 0;
	if (exact) {
		in -= in % 2000;
		out -= out % 2000;
	}
	f->inner = (uint64_t)((long double)in * (long double)f->calls * (long double)c->hz / 1e12L +
			      0.5L);
	f->outer =
		(uint64_t)((long double)out * (long double)f->calls * (long double)c->hz / 1e12L +
			   0.5L);
}

/* the figures a process's times are corrected with, derived from what its
 * .proc says by the table of doc/overhead.md; fallback when none are */
static void derive(const struct ccase *c, struct pcfg *p)
{
	uint64_t ci = 0, co = 0, hi = 0, ho = 0;
	bool hc = p->cyg.present && p->cyg.calls, hh = p->hook.present && p->hook.calls;
	if (hc) {
		ci = ps_of(c, p->cyg.inner, p->cyg.calls);
		co = ps_of(c, p->cyg.outer, p->cyg.calls);
		co = co < ci ? ci : co;
	}
	if (hh) {
		hi = ps_of(c, p->hook.inner, p->hook.calls);
		ho = ps_of(c, p->hook.outer, p->hook.calls);
		ho = ho < hi ? hi : ho;
	}
	uint64_t in = 0, out = 0, lin = 0, lout = 0;
	bool ok;
	if (p->fe == CT_PROC_FE_HOOK) {
		ok = hh;
		in = lin = hi, out = lout = ho;
	} else if (p->fe == (CT_PROC_FE_CYG | CT_PROC_FE_HOOK)) {
		ok = hc && hh;
		if (p->libcalls) {
			in = ci, out = co, lin = hi, lout = ho;
		} else {
			in = lin = ci < hi ? ci : hi;
			out = lout = co < ho ? co : ho;
			out = lout = out < in ? in : out;
		}
	} else {
		/* a -finstrument-functions process's library calls through
		 * the hooked trampolines, said or not yet */
		ok = hc;
		in = lin = ci, out = lout = co;
		if (p->fe == CT_PROC_FE_CYG && p->libcalls && hh)
			lin = hi, lout = ho;
	}
	memset(p->pre, 0, sizeof(p->pre));
	memset(p->post, 0, sizeof(p->post));
	p->fallback = 0;
	if (!ok || (!in && !out)) {
		p->fallback = 1;
		return;
	}
	if (out > 10000000 || lout > 10000000) {
		p->fallback = 2;
		return;
	}
	for (int lib = 0; lib < 2; lib++) {
		uint64_t i = lib ? lin : in, o = lib ? lout : out;
		p->post[0][lib] = i / 2; /* the entry's read, then the rest */
		p->pre[1][lib] = i - i / 2;
		p->pre[0][lib] = (o - i) / 2;
		p->post[1][lib] = o - i - (o - i) / 2;
	}
}

static void write_proc(const struct pcfg *p)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf),
			 "calltrace-proc 1\npid %d\nppid 1\ngen 0\nexe /bin/prog\n", p->pid);
	if (p->cyg.present)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "overhead %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", p->cyg.calls,
			      p->cyg.inner, p->cyg.outer);
	if (p->hook.present)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "overhead-hook %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", p->hook.calls,
			      p->hook.inner, p->hook.outer);
	if (p->fe & CT_PROC_FE_HOOK)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "frontend hook\n");
	if (p->fe & CT_PROC_FE_CYG)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "frontend cyg\n");
	if (p->libcalls)
		for (unsigned i = 0; i < NFN; i++)
			if (fn_is_lib(fn(i)))
				n += snprintf(buf + n, sizeof(buf) - (size_t)n,
					      "libcall %" PRIx64 " lib%u\n", fn(i), i);
	char name[64];
	snprintf(name, sizeof(name), "%d-0.proc", p->pid);
	write_file(name, buf, (size_t)n);
}

/* the streams of a case: [proc][thread] */
struct stream {
	struct gen g;
	size_t cut; /* bytes of the file (header included) */
	unsigned char *file;
	int tid;
};

static struct stream streams[2][3];

static void write_ev(const struct pcfg *p, struct stream *s)
{
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = (uint32_t)p->pid,
				      .tid = (uint32_t)s->tid,
				      .start_tsc = s->g.start_tsc};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	size_t all = sizeof(h) + s->g.n * 4;
	s->file = xrealloc(s->file, all);
	memcpy(s->file, &h, sizeof(h));
	memcpy(s->file + sizeof(h), s->g.w, s->g.n * 4);
	/* cut at a random byte now and then: the stream just stops */
	s->cut = all;
	if (chance(25))
		s->cut = chance(3) ? below(sizeof(h)) : sizeof(h) + below(s->g.n * 4 + 1);
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", p->pid, s->tid);
	write_file(name, s->file, s->cut);
}

static void remove_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

static const struct {
	double hz;
	const char *text, *clock;
} clocks[] = {
	{1e9, "1000000000", "mono"},
	{2.4e9, "2400000000", "tsc"},
	{2893456123.25, "2893456123.25", "tsc"},
	{1e6, "1000000", "tsc"},
};

static void make_case(struct ccase *c)
{
	memset(c->p, 0, sizeof(c->p));
	int k = chance(70) ? 0 : 1 + (int)below(3);
	c->hz = clocks[k].hz;
	c->hz_text = clocks[k].text;
	c->start_clock = 1000 + below(1000000);
	c->marks = chance(30);
	c->hostile = chance(5);
	c->nprocs = chance(75) ? 1 : 2;
	uint64_t end = c->start_clock;
	for (int i = 0; i < c->nprocs; i++) {
		struct pcfg *p = &c->p[i];
		p->pid = 100 + 100 * i;
		/* figures in whole ns halves (exact sums) now and then */
		bool exact = c->hz == 1e9 && chance(30);
		if (chance(90))
			random_figs(c, &p->cyg, exact);
		if (chance(50))
			random_figs(c, &p->hook, exact);
		static const unsigned fes[] = {0, CT_PROC_FE_CYG, CT_PROC_FE_HOOK,
					       CT_PROC_FE_CYG | CT_PROC_FE_HOOK};
		p->fe = fes[below(4)];
		p->libcalls = chance(40);
		p->nthreads = 1 + (int)below(3);
		derive(c, p);
		write_proc(p);
		for (int t = 0; t < p->nthreads; t++) {
			struct stream *s = &streams[i][t];
			s->tid = p->pid + t;
			s->g.hostile = c->hostile;
			s->g.base = c->start_clock + below(10000);
			gen_stream(&s->g, p->libcalls);
			write_ev(p, s);
			end = s->g.base > end ? s->g.base : end;
		}
	}
	char info[512];
	int n = snprintf(info, sizeof(info),
			 "calltrace-data: 1\ncommand: ./prog\nclock: %s\nclock_hz: %s\n"
			 "start_clock: %" PRIu64 "\nend_clock: %" PRIu64 "\ncomplete: 1\n",
			 clocks[k].clock, c->hz_text, c->start_clock, end);
	write_file("info", info, (size_t)n);
}

/* ---- reading ------------------------------------------------------------- */

struct run {
	struct ct_event *ev;
	size_t n, cap;
	struct ct_cost cost;
	uint64_t lost, unmatched;
};

static void run_add(struct run *r, const struct ct_event *e, size_t n)
{
	if (r->n + n > r->cap) {
		while (r->n + n > r->cap)
			r->cap = r->cap ? 2 * r->cap : 1024;
		r->ev = xrealloc(r->ev, r->cap * sizeof(*r->ev));
	}
	memcpy(r->ev + r->n, e, n * sizeof(*e));
	r->n += n;
}

static size_t rnd_batch(void)
{
	static const size_t b[] = {1, 2, 3, 7, 64, 255, 256, 257, 1000, 4096};
	return chance(50) ? b[below(10)] : 1 + below(512);
}

enum { READ_ONE, READ_SMALLBUF, READ_BIG, READ_FEED, READ_HUGE };

/* READ_HUGE's batch: more than the decoder's fast path takes at once
 * (stream.c's FAST_BATCH, 2^16) */
#define HUGE_BATCH (1u << 18)

/* the smallest read buffer a stream takes (stream.c: its longest record
 * and a little) */
#define SMALL_BUF 1088

/* all of t's stream (sm's file), read one of the ways */
static void read_stream(struct ct_session *s, struct ct_thread *t, const struct stream *sm, int how,
			struct run *r)
{
	static struct ct_event evs[4096];
	struct ct_stream *st = NULL;
	struct ct_error err;
	r->n = 0;
	r->cost = (struct ct_cost){0, 0, 0, 0, 0};
	r->lost = r->unmatched = 0;
	int got;
	if (how == READ_FEED) {
		/* as lib/record/follow.c reads it: chunks that end anywhere */
		st = ct_stream_open_feed(s, t, sm->g.start_tsc);
		size_t off = sizeof(struct ct_ev_file_header);
		while (off < sm->cut) {
			size_t k = chance(50) ? 1 + below(16) : 1 + below(2000);
			k = k > sm->cut - off ? sm->cut - off : k;
			ct_stream_feed(st, sm->file + off, k);
			off += k;
			while ((got = ct_stream_read(st, evs, rnd_batch(), &err)) > 0)
				run_add(r, evs, (size_t)got);
			EXPECT(got == 0, "fed stream of %d: %s", t->tid, err.msg);
		}
		ct_stream_feed_end(st);
	} else {
		int rc = how == READ_SMALLBUF
				 ? ct_stream_open_buf(s, t, SMALL_BUF + below(4096), &st, &err)
				 : ct_stream_open(s, t, &st, &err);
		if (rc < 0) {
			EXPECT(0, "open %s: %s", t->path, err.msg);
			return;
		}
	}
	struct ct_event *huge = how == READ_HUGE ? xmalloc(HUGE_BATCH * sizeof(*huge)) : NULL;
	for (;;) {
		size_t b = how == READ_ONE ? 1 : how == READ_BIG ? 4096 : rnd_batch();
		got = huge ? ct_stream_read(st, huge, HUGE_BATCH, &err)
			   : ct_stream_read(st, evs, b, &err);
		if (got <= 0)
			break;
		run_add(r, huge ? huge : evs, (size_t)got);
	}
	free(huge);
	EXPECT(got == 0, "read %s (way %d): %s", t->path, how, err.msg);
	ct_stream_cost(st, &r->cost);
	r->lost = ct_stream_lost(st);
	r->unmatched = ct_stream_unmatched(st);
	ct_stream_close(st);
}

/* b is a's event read another way; fed: as the live view and top read it,
 * where a call whose CALLSITE record came in a later chunk than its ENTER
 * has none (the decoder gives the entry at once; nothing that reads fed
 * streams shows call sites) */
static bool same_event(const struct ct_event *a, const struct ct_event *b, bool fed)
{
	/* the calls still open at a file's end last to their process's last
	 * event (stream.c's proc_end), a fed stream's to its own: no sooner */
	bool end = fed && (a->flags & CT_EVF_UNFINISHED);
	/* (a mark's addr is its text, a pointer of its read) */
	return a->kind == b->kind && a->flags == b->flags &&
	       (a->addr == b->addr || a->kind == CT_MARK) &&
	       (a->time == b->time || (end && b->time <= a->time)) && a->start == b->start &&
	       (a->ctime == b->ctime || (end && b->ctime <= a->ctime)) && a->cstart == b->cstart &&
	       a->depth == b->depth && a->thread == b->thread && a->waited == b->waited &&
	       (a->site == b->site || (fed && !b->site));
}

static void same_runs(const struct run *a, const struct run *b, const char *what, bool fed)
{
	EXPECT(a->n == b->n, "%s: %zu events, %zu at batch 1", what, b->n, a->n);
	for (size_t i = 0; i < a->n && i < b->n; i++)
		if (!same_event(&a->ev[i], &b->ev[i], fed)) {
			EXPECT(0,
			       "%s: event %zu differs: kind %d/%d flags %#x/%#x time %" PRIu64
			       "/%" PRIu64 " ctime %" PRIu64 "/%" PRIu64 " site %#" PRIx64
			       "/%#" PRIx64 " depth %u/%u",
			       what, i, a->ev[i].kind, b->ev[i].kind, a->ev[i].flags,
			       b->ev[i].flags, a->ev[i].time, b->ev[i].time, a->ev[i].ctime,
			       b->ev[i].ctime, a->ev[i].site, b->ev[i].site, a->ev[i].depth,
			       b->ev[i].depth);
			break;
		}
	/* a fed stream's unfinished calls end sooner (above): what is owed
	 * before them is the same, how much of it could be taken out not */
	EXPECT(fed ? a->cost.taken + a->cost.clipped - (b->cost.taken + b->cost.clipped) + 1 <= 2
		   : a->cost.taken == b->cost.taken && a->cost.clipped == b->cost.clipped &&
			       a->cost.span == b->cost.span,
	       "%s: cost %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", at batch 1 %" PRIu64 "/%" PRIu64
	       "/%" PRIu64,
	       what, b->cost.taken, b->cost.clipped, b->cost.span, a->cost.taken, a->cost.clipped,
	       a->cost.span);
	EXPECT(a->lost == b->lost && a->unmatched == b->unmatched, "%s: lost/unmatched", what);
}

/* the clock's invariants over one thread's events */
static void check_clock(const struct run *r, bool raw, const char *what)
{
	struct open {
		uint64_t addr, time, ctime;
		unsigned __int128 kids; /* the direct callees' corrected time */
		unsigned __int128 rkids;
	};
	static struct open *stack;
	static size_t cap;
	size_t depth = 0;
	uint64_t last_t = 0, last_c = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct ct_event *e = &r->ev[i];
		EXPECT(e->time >= last_t, "%s: event %zu: recorded time %" PRIu64 " after %" PRIu64,
		       what, i, e->time, last_t);
		EXPECT(e->ctime >= last_c,
		       "%s: event %zu: corrected time %" PRIu64 " back from %" PRIu64, what, i,
		       e->ctime, last_c);
		EXPECT(e->ctime <= e->time,
		       "%s: event %zu: corrected %" PRIu64 " after recorded %" PRIu64, what, i,
		       e->ctime, e->time);
		if (raw)
			EXPECT(e->ctime == e->time && e->cstart == e->start,
			       "%s: event %zu: --raw corrected %" PRIu64 " recorded %" PRIu64, what,
			       i, e->ctime, e->time);
		last_t = e->time;
		last_c = e->ctime;
		EXPECT(e->depth == depth || e->kind == CT_EXIT, "%s: event %zu: depth %u, %zu open",
		       what, i, e->depth, depth);
		if (e->kind == CT_ENTER) {
			if (depth == cap) {
				cap = cap ? 2 * cap : 256;
				stack = xrealloc(stack, cap * sizeof(*stack));
			}
			EXPECT(e->cstart == e->ctime && e->start == e->time, "%s: entry %zu", what,
			       i);
			stack[depth++] = (struct open){e->addr, e->time, e->ctime, 0, 0};
		} else if (e->kind == CT_EXIT) {
			if (!depth) {
				EXPECT(0, "%s: event %zu: an exit with no call open", what, i);
				continue;
			}
			struct open *o = &stack[--depth];
			EXPECT(e->depth == depth && e->addr == o->addr,
			       "%s: exit %zu: depth %u addr %#" PRIx64 ", open %zu %#" PRIx64, what,
			       i, e->depth, e->addr, depth, o->addr);
			EXPECT(e->start == o->time && e->cstart == o->ctime,
			       "%s: exit %zu: start %" PRIu64 "/%" PRIu64 " cstart %" PRIu64
			       "/%" PRIu64,
			       what, i, e->start, o->time, e->cstart, o->ctime);
			uint64_t dur = ct_event_dur(e), rdur = ct_event_raw_dur(e);
			EXPECT(dur <= rdur,
			       "%s: exit %zu: corrected %" PRIu64 " above recorded %" PRIu64, what,
			       i, dur, rdur);
			EXPECT(dur >= o->kids,
			       "%s: exit %zu: %" PRIu64 " ns, its callees %" PRIu64 " together",
			       what, i, dur, (uint64_t)o->kids);
			EXPECT(rdur >= o->rkids, "%s: exit %zu: recorded below callees", what, i);
			if (dur >= o->kids)
				EXPECT(ct_call_self(dur, (uint64_t)o->kids) ==
					       dur - (uint64_t)o->kids,
				       "%s: exit %zu: self", what, i);
			if (depth) {
				stack[depth - 1].kids += dur;
				stack[depth - 1].rkids += rdur;
			}
		}
	}
	EXPECT(depth == 0, "%s: %zu calls never closed", what, depth);
	if (r->n) {
		EXPECT(r->cost.span == r->ev[r->n - 1].time - r->ev[0].time, "%s: span %" PRIu64,
		       what, r->cost.span);
		/* the corrected clock lags by what was taken out (to the ns
		 * that ct_stream_cost rounds to) */
		uint64_t lag = r->ev[r->n - 1].time - r->ev[r->n - 1].ctime;
		EXPECT(lag >= r->cost.taken && lag <= r->cost.taken + 1,
		       "%s: lag %" PRIu64 ", taken %" PRIu64, what, lag, r->cost.taken);
	}
	if (raw)
		EXPECT(!r->cost.taken && !r->cost.clipped, "%s: --raw took %" PRIu64 "/%" PRIu64,
		       what, r->cost.taken, r->cost.clipped);
}

/* the events are those the model of the records gives, and the cost is
 * what the figures say is owed for them */
static void check_model(const struct ccase *c, const struct ct_session *s, const struct pcfg *p,
			const struct stream *sm, const struct run *r, const char *what)
{
	struct model m = {.libcalls = p->libcalls,
			  .show_marks = c->marks,
			  .s = s,
			  .frames = sm->g.frames};
	size_t words = sm->cut < sizeof(struct ct_ev_file_header)
			       ? 0
			       : (sm->cut - sizeof(struct ct_ev_file_header)) / 4;
	for (size_t i = 0; i < sm->g.nops && sm->g.ops[i].end <= words; i++)
		m_apply(&m, &sm->g.ops[i]);
	m_end(&m);
	free(m.stack);
	uint64_t ent[2] = {0}, ext[2] = {0}, before = 0, synth = 0, unfin = 0, marks = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct ct_event *e = &r->ev[i];
		bool lib = e->flags & CT_EVF_LIBCALL;
		if (e->kind == CT_ENTER && (e->flags & CT_EVF_BEFORE))
			before++;
		else if (e->kind == CT_ENTER)
			ent[lib]++;
		else if (e->kind == CT_MARK)
			marks++;
		else if (e->flags & CT_EVF_UNFINISHED)
			unfin++;
		else if (e->flags & CT_EVF_SYNTHETIC)
			synth++;
		else
			ext[lib]++;
	}
	EXPECT(r->n == m.events && ent[0] == m.ent[0] && ent[1] == m.ent[1] && ext[0] == m.ext[0] &&
		       ext[1] == m.ext[1] && before == m.before && synth == m.synth &&
		       unfin == m.unfin && marks == m.marks,
	       "%s: events %zu (model %" PRIu64 "): entries %" PRIu64 "+%" PRIu64 " (%" PRIu64
	       "+%" PRIu64 "), exits %" PRIu64 "+%" PRIu64 " (%" PRIu64 "+%" PRIu64
	       "), before %" PRIu64 " (%" PRIu64 "), unwound %" PRIu64 " (%" PRIu64
	       "), unfinished %" PRIu64 " (%" PRIu64 "), marks %" PRIu64 " (%" PRIu64 ")",
	       what, r->n, m.events, ent[0], ent[1], m.ent[0], m.ent[1], ext[0], ext[1], m.ext[0],
	       m.ext[1], before, m.before, synth, m.synth, unfin, m.unfin, marks, m.marks);
	EXPECT(r->unmatched == m.unmatched, "%s: unmatched %" PRIu64 ", model %" PRIu64, what,
	       r->unmatched, m.unmatched);
	if (c->hostile)
		return; /* waits beyond what the reader keeps: invariants only */
	/* what is owed: each hooked event's share, less the share after the
	 * last event's read (nothing came after it to take it from), plus
	 * the waits before the last event */
	unsigned __int128 owed = (unsigned __int128)m.wait_used * 1000;
	bool whole = true;
	for (int lib = 0; lib < 2; lib++) {
		owed += (unsigned __int128)m.ent[lib] * (p->pre[0][lib] + p->post[0][lib]);
		owed += (unsigned __int128)m.ext[lib] * (p->pre[1][lib] + p->post[1][lib]);
		for (int k = 0; k < 2; k++)
			whole = whole && p->pre[k][lib] % 1000 == 0 && p->post[k][lib] % 1000 == 0;
	}
	if (m.last >= LAST_EXIT)
		owed -= p->post[1][m.last - LAST_EXIT];
	else if (m.last >= LAST_ENTER)
		owed -= p->post[0][m.last - LAST_ENTER];
	/* ct_stream_cost rounds taken and clipped to ns apart */
	uint64_t want = (uint64_t)((owed + 500) / 1000), got = r->cost.taken + r->cost.clipped;
	EXPECT(whole ? got == want : got + 1 >= want && got <= want + 1,
	       "%s: taken %" PRIu64 " + clipped %" PRIu64 " = %" PRIu64 " ns, owed %" PRIu64
	       " ns (waits %" PRIu64 " ns, fallback %d)",
	       what, r->cost.taken, r->cost.clipped, got, want, m.wait_used, p->fallback);
}

static struct ct_thread *thread_of(struct ct_session *s, int tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i]->tid == tid)
			return s->threads[i];
	return NULL;
}

static bool warned(struct ct_session *s, const char *what, int pid)
{
	char p[32];
	snprintf(p, sizeof(p), "process %d", pid);
	const struct ct_msgs *w = ct_session_warnings(s);
	for (size_t i = 0; i < w->n; i++)
		if (strstr(w->v[i].text, what) && strstr(w->v[i].text, p))
			return true;
	return false;
}

static struct run runs[2][3], other;
static long fallbacks[4]; /* processes by their pcfg.fallback */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* the reader's check of p's figures against its leaf calls (figcheck.c),
 * made again from its first thread's events as read: fallback 3 when the
 * inner figure that corrects a kind of call is above twice the median
 * recorded duration of the first leaf calls of that kind, plus the slack */
static void model_figcheck(const struct run *r, struct pcfg *p)
{
	static uint64_t leaves[2][CT_FIGCHECK_LEAVES];
	unsigned n[2] = {0, 0};
	bool after = false;
	if (p->fallback)
		return;
	for (size_t i = 0; i < r->n && i < CT_FIGCHECK_EVENTS; i++) {
		const struct ct_event *e = &r->ev[i];
		if (e->kind == CT_EXIT && after &&
		    !(e->flags &
		      (CT_EVF_SYNTHETIC | CT_EVF_UNFINISHED | CT_EVF_BEFORE | CT_EVF_SIGNAL))) {
			int k = (e->flags & CT_EVF_LIBCALL) ? 1 : 0;
			if (n[k] < CT_FIGCHECK_LEAVES)
				leaves[k][n[k]++] = e->time - e->start;
		}
		after = e->kind == CT_ENTER;
	}
	for (int k = 0; k < 2; k++) {
		if (n[k] < CT_FIGCHECK_MIN)
			continue;
		qsort(leaves[k], n[k], sizeof(leaves[k][0]), cmp_u64);
		double med = (double)leaves[k][n[k] / 2];
		double in = (double)(p->post[0][k] + p->pre[1][k]) / 1000;
		if (in > 2 * med + CT_FIGCHECK_SLACK_NS) {
			p->fallback = 3;
			memset(p->pre, 0, sizeof(p->pre));
			memset(p->post, 0, sizeof(p->post));
			return;
		}
	}
}

static void run_case(struct ccase *c)
{
	remove_files();
	make_case(c);
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		EXPECT(0, "open: %s", err.msg);
		return;
	}
	s->marks = c->marks;
	char what[64];
	for (int i = 0; i < c->nprocs; i++)
		for (int k = 0; k < c->p[i].nthreads; k++) {
			const struct stream *sm = &streams[i][k];
			struct ct_thread *t = thread_of(s, sm->tid);
			EXPECT(t != NULL, "thread %d not found", sm->tid);
			if (!t)
				continue;
			snprintf(what, sizeof(what), "thread %d", sm->tid);
			struct run *r = &runs[i][k];
			read_stream(s, t, sm, READ_ONE, r);
			if (k == 0) /* the process's first thread */
				model_figcheck(r, &c->p[i]);
			check_clock(r, false, what);
			check_model(c, s, &c->p[i], sm, r, what);
			read_stream(s, t, sm, READ_SMALLBUF, &other);
			same_runs(r, &other, "small buffer, random batches", false);
			read_stream(s, t, sm, READ_BIG, &other);
			same_runs(r, &other, "batches of 4096", false);
			if (sm->cut >= sizeof(struct ct_ev_file_header)) {
				read_stream(s, t, sm, READ_FEED, &other);
				same_runs(r, &other, "fed in random chunks", true);
			}
		}
	/* a process without believable figures: said, and shown as recorded */
	for (int i = 0; i < c->nprocs; i++) {
		const struct pcfg *p = &c->p[i];
		EXPECT(warned(s, "no calibration figures", p->pid) == (p->fallback == 1),
		       "process %d: fallback %d, warning for none %d", p->pid, p->fallback,
		       warned(s, "no calibration figures", p->pid));
		EXPECT(warned(s, "not believable", p->pid) == (p->fallback == 2),
		       "process %d: fallback %d, warning for absurd figures %d", p->pid,
		       p->fallback, warned(s, "not believable", p->pid));
		EXPECT(warned(s, "more than its calls last", p->pid) == (p->fallback == 3),
		       "process %d: fallback %d, warning for figures above its calls %d", p->pid,
		       p->fallback, warned(s, "more than its calls last", p->pid));
	}
	/* the merge of all threads: each thread's events as read alone, in
	 * recorded time order */
	struct ct_merge *mg;
	if (ct_merge_open(s, NULL, &mg, &err) < 0) {
		EXPECT(0, "merge: %s", err.msg);
	} else {
		size_t at[2][3] = {{0}};
		uint64_t last = 0;
		const struct ct_event *evs;
		int got;
		bool order = true, same = true;
		while ((got = ct_merge_read(mg, &evs, &err)) > 0)
			for (int j = 0; j < got; j++) {
				const struct ct_event *e = &evs[j];
				order = order && e->time >= last;
				last = e->time;
				int pi = (e->thread->proc->pid - 100) / 100,
				    ti = e->thread->tid - e->thread->proc->pid;
				if (pi < 0 || pi > 1 || ti < 0 || ti > 2) {
					same = false;
					continue;
				}
				struct run *r = &runs[pi][ti];
				same = same && at[pi][ti] < r->n &&
				       same_event(&r->ev[at[pi][ti]], e, false);
				at[pi][ti]++;
			}
		EXPECT(got == 0, "merge: %s", err.msg);
		EXPECT(order, "merge: recorded times go back");
		for (int i = 0; i < c->nprocs; i++)
			for (int k = 0; k < c->p[i].nthreads; k++)
				same = same && at[i][k] == runs[i][k].n;
		EXPECT(same, "merge: not each thread's events as read alone");
		ct_merge_close(mg);
	}
	/* --raw: the recorded clock; the same events otherwise */
	s->raw = true;
	for (int i = 0; i < c->nprocs; i++)
		for (int k = 0; k < c->p[i].nthreads; k++) {
			const struct stream *sm = &streams[i][k];
			struct ct_thread *t = thread_of(s, sm->tid);
			if (!t)
				continue;
			snprintf(what, sizeof(what), "thread %d --raw", sm->tid);
			read_stream(s, t, sm, READ_SMALLBUF, &other);
			check_clock(&other, true, what);
			const struct run *r = &runs[i][k];
			bool same = r->n == other.n;
			for (size_t j = 0; same && j < r->n; j++)
				same = r->ev[j].kind == other.ev[j].kind &&
				       r->ev[j].time == other.ev[j].time &&
				       (r->ev[j].addr == other.ev[j].addr ||
					r->ev[j].kind == CT_MARK) &&
				       r->ev[j].depth == other.ev[j].depth;
			EXPECT(same, "%s: not the same events as corrected", what);
			/* without figures the waits alone were taken out */
			if (c->p[i].fallback && !r->cost.clipped && !c->hostile)
				for (size_t j = 0; j < r->n && j < other.n; j++)
					if (r->ev[j].ctime + r->ev[j].waited != r->ev[j].time &&
					    r->ev[j].kind == CT_ENTER) {
						EXPECT(0,
						       "%s: fallback, entry %zu corrected %" PRIu64
						       " + waits %" PRIu64 " != recorded %" PRIu64,
						       what, j, r->ev[j].ctime, r->ev[j].waited,
						       r->ev[j].time);
						break;
					}
		}
	ct_session_close(s);
}

/* ---- fixed hostile cases -------------------------------------------------- */

static void simple_info(uint64_t start)
{
	char info[256];
	int n = snprintf(info, sizeof(info),
			 "calltrace-data: 1\ncommand: ./prog\nclock: mono\nclock_hz: 1000000000\n"
			 "start_clock: %" PRIu64 "\nend_clock: %" PRIu64 "\ncomplete: 1\n",
			 start, start + 1000000);
	write_file("info", info, (size_t)n);
}

static void hostile_write(struct stream *sm, int pid)
{
	struct pcfg p = {.pid = pid};
	sm->tid = pid;
	write_ev(&p, sm);
	/* never cut here */
	sm->cut = sizeof(struct ct_ev_file_header) + sm->g.n * 4;
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", pid, pid);
	write_file(name, sm->file, sm->cut);
}

/* 1 s per call (and absurd library-call figures alone): the times as
 * recorded, one warning naming the process */
static void test_absurd(void)
{
	case_no = -1;
	case_bad = 0;
	remove_files();
	simple_info(1000);
	const char *p1 = "calltrace-proc 1\npid 201\nppid 1\ngen 0\nexe /bin/prog\n"
			 "overhead 1 1000000000 1000000000\n";
	write_file("201-0.proc", p1, strlen(p1));
	char p2[512];
	snprintf(p2, sizeof(p2),
		 "calltrace-proc 1\npid 202\nppid 1\ngen 0\nexe /bin/prog\n"
		 "overhead 100 1500 4000\noverhead-hook 10 100000000 200000000\n"
		 "frontend cyg\nfrontend hook\nlibcall %" PRIx64 " memcpy\n",
		 fn(10));
	write_file("202-0.proc", p2, strlen(p2));
	for (int pid = 201; pid <= 202; pid++) {
		struct stream *sm = &streams[pid - 201][0];
		struct gen *g = &sm->g;
		gen_reset(g, 2000, false);
		for (int i = 0; i < 50; i++) {
			w_enter(g, 10, fn(9));
			w_enter(g, 3, fn(10));
			w_exit(g, 2);
			w_exit(g, 7);
		}
		hostile_write(sm, pid);
	}
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		CHECK(0, "open: %s", err.msg);
		return;
	}
	for (int pid = 201; pid <= 202; pid++) {
		struct run *r = &runs[0][0];
		read_stream(s, thread_of(s, pid), &streams[pid - 201][0], READ_SMALLBUF, r);
		check_clock(r, false, "absurd figures");
		bool rec = r->n == 200;
		for (size_t i = 0; i < r->n; i++)
			rec = rec && r->ev[i].ctime == r->ev[i].time &&
			      r->ev[i].cstart == r->ev[i].start;
		CHECK(rec, "process %d, 1 s per call: %zu events, not as recorded", pid, r->n);
		CHECK(!r->cost.taken && !r->cost.clipped, "process %d: cost %" PRIu64 "/%" PRIu64,
		      pid, r->cost.taken, r->cost.clipped);
		CHECK(warned(s, "not believable", pid), "process %d: no warning", pid);
	}
	ct_session_close(s);
	CHECK(!case_bad, "absurd figures");
}

/* an ENTER with nothing after it (w_enter adds call sites and arguments
 * now and then, which end the decoder's fast path) */
static void w_enter_plain(struct gen *g, uint64_t d, uint64_t addr)
{
	uint64_t dd = advance(g, d, CT_ENTER_DELTA_BITS);
	uint64_t low = addr & ((1ull << CT_ADDR_LOW_BITS) - 1);
	put64(g, (uint64_t)CT_REC_ENTER | dd << 2 | low << 24);
	rec(g, OP_ENTER, addr, 0);
}

/* long runs of plain ENTER and EXIT records, library calls among them, on a
 * clock of more than 1 GHz (the fast path's loop with one multiplication),
 * read in batches of 1 and of HUGE_BATCH: the decoder's fast path stops at
 * FAST_BATCH events and adds up what its clock took out and clipped once
 * per batch, from the events' figures by kind; and TIME records whose
 * jump puts a batch's first event just under and just over 2^44 ns after
 * the event before (the gap the fast path takes, checked at a batch's
 * start only) */
static void test_long(void)
{
	case_no = -5;
	case_bad = 0;
	remove_files();
	struct ccase c = {.hz = 2.4e9, .hz_text = "2400000000", .start_clock = 5000, .nprocs = 1};
	struct pcfg *p = &c.p[0];
	p->pid = 501;
	p->nthreads = 1;
	p->libcalls = true;
	p->fe = CT_PROC_FE_CYG;
	/* figures of a few ns, below what the calls last (figcheck) */
	p->cyg = (struct figs){true, 1000, 1000 * 12, 1000 * 40};
	p->hook = (struct figs){true, 1000, 1000 * 19, 1000 * 55};
	derive(&c, p);
	write_proc(p);
	struct stream *sm = &streams[0][0];
	struct gen *g = &sm->g;
	sm->tid = 501;
	g->hostile = false;
	gen_reset(g, c.start_clock, true);
	/* 2^44 ns in ticks at 2.4 GHz, less or more a little */
	const uint64_t t44 = (uint64_t)((long double)(1ull << 44) * 2.4L);
	static const int64_t jumps[] = {-3000, 3000, -1, 1, 0, 1 << 20, -(1 << 20)};
	size_t j = 0;
	for (size_t i = 0; i < 400000; i++) {
		if (i % 50000 == 49999 && j < sizeof(jumps) / sizeof(jumps[0]))
			w_time(g, g->base + t44 + (uint64_t)jumps[j++]);
		uint64_t d = chance(90) ? 100 + below(400) : below(5000);
		if (g->m.depth < 2 || (g->m.depth < 60 && chance(50)))
			w_enter_plain(g, d, fn((unsigned)below(14)));
		else
			w_exit(g, d);
	}
	while (g->m.depth)
		w_exit(g, 200);
	write_ev(p, sm);
	sm->cut = sizeof(struct ct_ev_file_header) + g->n * 4; /* whole */
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", p->pid, sm->tid);
	write_file(name, sm->file, sm->cut);
	char info[512];
	int n = snprintf(info, sizeof(info),
			 "calltrace-data: 1\ncommand: ./prog\nclock: tsc\nclock_hz: %s\n"
			 "start_clock: %" PRIu64 "\nend_clock: %" PRIu64 "\ncomplete: 1\n",
			 c.hz_text, c.start_clock, g->base);
	write_file("info", info, (size_t)n);
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		CHECK(0, "open: %s", err.msg);
		return;
	}
	struct ct_thread *t = thread_of(s, 501);
	CHECK(t != NULL, "long runs: no thread 501");
	if (t) {
		struct run *r = &runs[0][0];
		read_stream(s, t, sm, READ_ONE, r);
		CHECK(r->n == g->nops - j, "long runs: %zu events of %zu records", r->n,
		      g->nops - j);
		check_clock(r, false, "long runs");
		check_model(&c, s, p, sm, r, "long runs");
		CHECK(!p->fallback && r->cost.taken > 0, "long runs: fallback %d, taken %" PRIu64,
		      p->fallback, r->cost.taken);
		read_stream(s, t, sm, READ_HUGE, &other);
		same_runs(r, &other, "long runs, batches of 2^18", false);
		read_stream(s, t, sm, READ_BIG, &other);
		same_runs(r, &other, "long runs, batches of 4096", false);
		read_stream(s, t, sm, READ_SMALLBUF, &other);
		same_runs(r, &other, "long runs, small buffer", false);
	}
	ct_session_close(s);
	CHECK(!case_bad, "long runs");
}

/* times near 2^64 and jumps of more than 2^53 ns: no overflow */
static void test_huge(void)
{
	case_no = -2;
	case_bad = 0;
	remove_files();
	simple_info(1000);
	const char *p = "calltrace-proc 1\npid 301\nppid 1\ngen 0\nexe /bin/prog\n"
			"overhead 1 9000 20000\n";
	write_file("301-0.proc", p, strlen(p));
	struct stream *sm = &streams[0][0];
	struct gen *g = &sm->g;
	gen_reset(g, 2000, false);
	w_enter(g, 5, fn(1));
	w_enter(g, 5, fn(2));
	w_time(g, 1ull << 60); /* a jump of 2^60 ns: past the fast arithmetic */
	w_exit(g, (1u << 30) - 1);
	w_enter(g, (1u << 22) - 1, fn(3));
	ext(g, CT_EXT_WAIT, 4, 0); /* a wait of 2^63 ticks, and one of 2^64 - 1 */
	put64(g, 1);
	put64(g, 1ull << 63);
	ext(g, CT_EXT_WAIT, 4, 0);
	put64(g, 0);
	put64(g, UINT64_MAX);
	w_exit(g, 1);
	w_time(g, UINT64_MAX - 100); /* the last ns there are */
	w_enter(g, 50, fn(4));
	w_enter(g, (1u << 22) - 1, fn(5)); /* the clock wraps: held */
	ext(g, CT_EXT_NENTER, 4, 0);
	put64(g, UINT64_MAX);
	put64(g, fn(6));
	ext(g, CT_EXT_NEXIT, 4, 0);
	put64(g, UINT64_MAX);
	put64(g, fn(6));
	w_exit(g, (1u << 30) - 1);
	w_exit(g, 0);
	w_time(g, 5000); /* back to the start: held */
	w_exit(g, 3);
	hostile_write(sm, 301);
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		CHECK(0, "open: %s", err.msg);
		return;
	}
	for (int raw = 0; raw < 2; raw++) {
		s->raw = raw;
		struct run *r = &runs[0][0];
		read_stream(s, thread_of(s, 301), sm, READ_ONE, r);
		check_clock(r, raw, raw ? "huge times --raw" : "huge times");
		read_stream(s, thread_of(s, 301), sm, READ_BIG, &other);
		same_runs(r, &other, "huge times, batches of 4096", false);
		CHECK(r->n == 12, "huge times: %zu events", r->n);
		CHECK(r->n && r->ev[r->n - 1].time >= UINT64_MAX - 101 - 1000,
		      "huge times: the last at %" PRIu64, r->n ? r->ev[r->n - 1].time : 0);
		/* main spans almost all of 2^64 ns, corrected too */
		CHECK(r->n && ct_event_dur(&r->ev[r->n - 1]) > (UINT64_MAX >> 1),
		      "huge times: main %" PRIu64 " ns", r->n ? ct_event_dur(&r->ev[r->n - 1]) : 0);
	}
	ct_session_close(s);
	CHECK(!case_bad, "huge times");
}

/* test_recal: a CALIB record (a thread measured its hooks again on another CPU,
 * runtime/calibrate.c): what the measuring took is owed like a wait, and
 * the calls after it are corrected with its figures; one without figures
 * owes its time only, one with absurd figures keeps those in force.  The
 * hooked front end's start-up figures 20 ns inner, 40 outer; the record's
 * 10 and 30 (clock_hz 1e9: ticks are ns) */
static void test_recal(void)
{
	case_no = -4;
	case_bad = 0;
	remove_files();
	simple_info(1000);
	const char *p = "calltrace-proc 1\npid 501\nppid 1\ngen 0\nexe /bin/prog\n"
			"overhead-hook 1 20 40\nfrontend hook\n";
	write_file("501-0.proc", p, strlen(p));
	struct stream *sm = &streams[0][0];
	struct gen *g = &sm->g;
	gen_reset(g, 2000, false);
	w_enter(g, 100, fn(1)); /* a at 2100 */
	w_enter(g, 100, fn(2)); /* b 2200..2300 */
	w_exit(g, 100);
	put_calib(g, 2350, 2850, true, 10, 30);
	w_enter(g, 600, fn(3)); /* c 2900..3000 */
	w_exit(g, 100);
	w_exit(g, 100);         /* a ends at 3100 */
	w_enter(g, 100, fn(4)); /* d 3200..3500, 200 of it measuring */
	put_calib(g, 3250, 3450, false, 0, 0);
	w_exit(g, 300);
	put_calib(g, 3500, 3500, true, 20000000, 40000000); /* 20 ms a call: absurd */
	w_enter(g, 100, fn(5));                             /* e 3600..3700 */
	w_exit(g, 100);
	hostile_write(sm, 501);
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		CHECK(0, "open: %s", err.msg);
		return;
	}
	for (int raw = 0; raw < 2; raw++) {
		s->raw = raw;
		struct run *r = &runs[0][0];
		read_stream(s, thread_of(s, 501), sm, READ_ONE, r);
		check_clock(r, raw, raw ? "recalibrated --raw" : "recalibrated");
		read_stream(s, thread_of(s, 501), sm, READ_BIG, &other);
		same_runs(r, &other, "recalibrated, batches of 4096", false);
		/* the exits: b, c, a, d, e */
		uint64_t want[2][5] = {{80, 90, 1000 - 500 - 40 - 30 - 10 - 5, 300 - 200 - 10, 90},
				       {100, 100, 1000, 300, 100}};
		size_t k = 0;
		for (size_t i = 0; i < r->n; i++) {
			if (r->ev[i].kind != CT_EXIT)
				continue;
			CHECK(k < 5 && ct_event_dur(&r->ev[i]) == want[raw][k],
			      "recalibrated%s: exit %zu lasts %" PRIu64 " ns, not %" PRIu64,
			      raw ? " --raw" : "", k, ct_event_dur(&r->ev[i]),
			      k < 5 ? want[raw][k] : 0);
			k++;
		}
		CHECK(k == 5, "recalibrated: %zu exits", k);
		CHECK(r->cost.recal == (raw ? 0u : 1u) && r->cost.recal_ns == (raw ? 0u : 700u),
		      "recalibrated%s: %" PRIu64 " figures taken up, %" PRIu64 " ns measuring",
		      raw ? " --raw" : "", r->cost.recal, r->cost.recal_ns);
	}
	ct_session_close(s);
	CHECK(!case_bad, "recalibrated on another CPU");
}

/* a stream fed as the live view and top read it (ct_stream_open_feed, in
 * chunks that end anywhere) gives what the file gives: main calls the
 * library function fn(10), which a "libcall" line names (so that the
 * library calls' figures correct it, as report has it) */
static void test_feed(void)
{
	case_no = -3;
	case_bad = 0;
	remove_files();
	simple_info(1000);
	char p[512];
	snprintf(p, sizeof(p),
		 "calltrace-proc 1\npid 401\nppid 1\ngen 0\nexe /bin/prog\n"
		 "overhead 1 10 20\noverhead-hook 1 30 60\nfrontend cyg\nfrontend hook\n"
		 "libcall %" PRIx64 " memcpy\n",
		 fn(10));
	write_file("401-0.proc", p, strlen(p));
	struct stream *sm = &streams[0][0];
	struct gen *g = &sm->g;
	gen_reset(g, 2000, true);
	w_enter(g, 100, fn(1));
	w_enter(g, 100, fn(10)); /* memcpy: 30 ns inside, 60 around */
	w_exit(g, 100);
	w_exit(g, 100);
	hostile_write(sm, 401);
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		CHECK(0, "open: %s", err.msg);
		return;
	}
	struct run *r = &runs[0][0];
	read_stream(s, thread_of(s, 401), sm, READ_ONE, r);
	CHECK(r->n == 4 && (r->ev[1].flags & CT_EVF_LIBCALL),
	      "file: %zu events, the library call's flags %#x", r->n,
	      r->n > 1 ? r->ev[1].flags : 0);
	/* fed a word at a time, then in every chunk size up to 12 words */
	for (size_t chunk = 4; chunk <= 48; chunk += 4) {
		struct ct_stream *st = ct_stream_open_feed(s, thread_of(s, 401), sm->g.start_tsc);
		struct ct_event evs[16];
		other.n = 0;
		int got;
		for (size_t off = sizeof(struct ct_ev_file_header); off < sm->cut; off += chunk) {
			size_t n = chunk < sm->cut - off ? chunk : sm->cut - off;
			ct_stream_feed(st, sm->file + off, n);
			while ((got = ct_stream_read(st, evs, 16, &err)) > 0)
				run_add(&other, evs, (size_t)got);
		}
		ct_stream_feed_end(st);
		while ((got = ct_stream_read(st, evs, 16, &err)) > 0)
			run_add(&other, evs, (size_t)got);
		ct_stream_cost(st, &other.cost);
		other.lost = ct_stream_lost(st);
		other.unmatched = ct_stream_unmatched(st);
		ct_stream_close(st);
		char what[64];
		snprintf(what, sizeof(what), "fed in chunks of %zu bytes", chunk);
		same_runs(r, &other, what, true);
	}
	ct_session_close(s);
	CHECK(!case_bad, "a fed stream: library calls as from the file");
}

/* the events of t's stream sm fed to a stream of session s in two parts
 * (the first `part` bytes of events, then the rest), with update() between
 * them: what lib/record/follow.c does while the .proc grows */
static void feed_parts(struct ct_session *s, const struct stream *sm, size_t part,
		       void (*update)(struct ct_session *), struct run *r)
{
	struct ct_thread *t = thread_of(s, 401);
	struct ct_stream *st = ct_stream_open_feed(s, t, sm->g.start_tsc);
	struct ct_event evs[16];
	struct ct_error err;
	int got;
	size_t off = sizeof(struct ct_ev_file_header);
	r->n = 0;
	ct_stream_feed(st, sm->file + off, part);
	while ((got = ct_stream_read(st, evs, 16, &err)) > 0)
		run_add(r, evs, (size_t)got);
	update(s);
	ct_stream_feed(st, sm->file + off + part, sm->cut - off - part);
	ct_stream_feed_end(st);
	while ((got = ct_stream_read(st, evs, 16, &err)) > 0)
		run_add(r, evs, (size_t)got);
	ct_stream_cost(st, &r->cost);
	r->lost = ct_stream_lost(st);
	r->unmatched = ct_stream_unmatched(st);
	ct_stream_close(st);
}

static void no_update(struct ct_session *s)
{
	(void)s;
}

/* what follow.c's feed does: the lines added to the .proc, read */
static void proc_update(struct ct_session *s)
{
	CHECK(ct_session_proc_update(s, thread_of(s, 401)->proc) == 1, "the new .proc lines read");
}

static const char feed_proc[] = "calltrace-proc 1\npid 401\nppid 1\ngen 0\nexe /bin/prog\n"
				"overhead 1 10 20\noverhead-hook 1 30 60\nfrontend cyg\n";

/* a fed stream whose process's .proc grows while it is read (live and top
 * read a program that runs) gives what the whole file gives:
 *  - the "frontend hook" line that a -finstrument-functions program's first
 *    library call writes after its entry, not yet there when that call is
 *    decoded: the library call's figures (30/60 ns) all the same;
 *  - a library call's "libcall" line written after the stream was opened
 *    (a module loaded later: dlopen), taken up before its first call */
static void test_feed_lines(void)
{
	case_no = -4;
	case_bad = 0;
	remove_files();
	simple_info(1000);
	struct stream *sm = &streams[0][0];
	struct gen *g = &sm->g;
	gen_reset(g, 2000, true);
	w_enter(g, 100, fn(1));
	size_t part = g->n * 4;  /* main's entry: fed first */
	w_enter(g, 100, fn(10)); /* a library call: 30 ns inside, 60 around */
	w_exit(g, 100);
	w_enter(g, 100, fn(11));
	w_exit(g, 100);
	w_exit(g, 100);
	hostile_write(sm, 401);
	struct ct_session *early, *whole;
	struct ct_error err;
	char p[1024];
	struct run *r = &runs[0][0];
	for (int k = 0; k < 2; k++) {
		/* the .proc when the view opened the process, then the whole */
		char fn11[64];
		snprintf(fn11, sizeof(fn11), "libcall %" PRIx64 " strtoul\n", fn(11));
		int n = snprintf(p, sizeof(p), "%slibcall %" PRIx64 " memcpy\n%s", feed_proc,
				 fn(10), k ? "frontend hook\n" : fn11);
		write_file("401-0.proc", p, (size_t)n);
		if (ct_session_open(&early, dir, &err) < 0) {
			CHECK(0, "open: %s", err.msg);
			return;
		}
		n += snprintf(p + n, sizeof(p) - (size_t)n, "%s", k ? fn11 : "frontend hook\n");
		write_file("401-0.proc", p, (size_t)n);
		if (ct_session_open(&whole, dir, &err) < 0) {
			CHECK(0, "open: %s", err.msg);
			return;
		}
		read_stream(whole, thread_of(whole, 401), sm, READ_ONE, r);
		CHECK(r->n == 6 && (r->ev[1].flags & CT_EVF_LIBCALL) &&
			      (r->ev[3].flags & CT_EVF_LIBCALL),
		      "file: %zu events", r->n);
		feed_parts(early, sm, part, k ? proc_update : no_update, &other);
		for (size_t i = 0; i < other.n; i++)
			other.ev[i].thread = thread_of(whole, 401);
		same_runs(r, &other,
			  k ? "fed, a libcall line read after the stream was opened"
			    : "fed, the frontend hook line not yet read",
			  true);
		ct_session_close(early);
		ct_session_close(whole);
	}
	CHECK(!case_bad, "a fed stream: the .proc's later lines as from the file");
}

int main(int argc, char **argv)
{
	long ncases = argc > 1 ? atol(argv[1]) : 2000;
	uint64_t seed0 = argc > 2 ? strtoull(argv[2], NULL, 0) : 27;
	const char *only = getenv("CT_CCLOCK_CASE");
	snprintf(dir, sizeof(dir), "%s/ct-test-cclock-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	int bad = 0;
	for (long i = 0; i < ncases; i++) {
		if (only && atol(only) != i)
			continue;
		case_no = (int)i;
		seed = seed0;
		rng = seed0 * 0x100000001b3ull + (uint64_t)i;
		case_bad = 0;
		struct ccase c;
		run_case(&c);
		for (int k = 0; k < c.nprocs; k++)
			fallbacks[c.p[k].fallback]++;
		CHECK(!case_bad, "case %ld", i);
		bad += case_bad != 0;
		if (bad >= 10) {
			printf("stopping after 10 failed cases\n");
			break;
		}
	}
	/* every kind of fallback was met (not with one case asked for) */
	if (!only && ncases >= 2000)
		for (int k = 1; k < 4; k++)
			CHECK(fallbacks[k] > 0, "no process of fallback %d in %ld cases", k,
			      ncases);
	rng = seed0;
	test_absurd();
	test_huge();
	test_long();
	test_feed();
	test_recal();
	test_feed_lines();
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 3; k++) {
			free(streams[i][k].g.w);
			free(streams[i][k].g.ops);
			free(streams[i][k].g.m.stack);
			free(streams[i][k].file);
			free(runs[i][k].ev);
		}
	free(other.ev);
	if (getenv("CT_CCLOCK_KEEP")) {
		printf("kept %s\n", dir);
	} else {
		remove_files();
		rmdir(dir);
	}
	return check_done();
}
