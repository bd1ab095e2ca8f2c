/* SPDX-License-Identifier: MIT */
/*
 * Overhead calibration (doc/overhead.md): what the hooks cost on this
 * machine, measured once per process image at start-up, in the traced
 * process, with the real hooks, and written to the .proc file as
 *
 *   overhead CALLS INNER OUTER        -finstrument-functions hooks
 *   overhead-hook CALLS INNER OUTER   hooked entries (hook.c: __fentry__ and
 *                                     the return trampoline)
 *
 * INNER: clock ticks between the entry and the exit timestamp of an empty
 * function, summed over CALLS calls (the hook work after the entry's clock
 * read plus the work before the exit's): what every call shows on top of its
 * own time.  OUTER: ticks that CALLS calls of an empty traced function take
 * more than CALLS calls of the same function untraced (the whole hook pair,
 * their calls and arguments): what each call adds to the time of its
 * callers.
 *
 * Each round times a batch of CAL_CALLS calls of an empty function untraced
 * and then traced.  The hooked front ends' calls are made from ct_cal_mix's
 * 16 call sites in an order no predictor learns (the same in both batches),
 * as a program's calls return to many places, through the return
 * trampoline's jump; -finstrument-functions' calls return by `ret`, which
 * the return stack predicts from any site, and are made from one site
 * (ct_cal_loop): the mix's own mispredicted jumps would overlap the hooks'
 * work and hide up to half of it (doc/overhead.md).  The figures are the
 * medians over the rounds (calfig.c):
 * the typical cost, not the best case, and an interrupt or a preemption in
 * one batch does not count.  The traced functions are compiled as the
 * front ends compile them (arch/x86_64/cal.S): ct_cal_cyg calls the hooks
 * through the PLT, ct_cal_hooked calls __fentry__ through the GOT and
 * returns through the return trampoline.
 *
 * The hooks write into a 256 KB mapping of the calibration's own, each
 * batch on from the last (as a thread writes its 256 KB buffers, beyond the
 * L1 cache), and a scratch shadow stack, while the thread's state is set
 * aside, with signals blocked, so nothing of this reaches the trace.  No
 * allocation, no locks: about a millisecond of work and a few system calls.
 *
 * The figures hold for the CPU they were measured on: on this project's
 * machines one CPU's hooks cost a fifth more than another's, and a thread
 * the scheduler moves pays the other one's (doc/overhead.md).  So each
 * thread, at its buffer switches, asks which CPU it runs on; on one whose
 * figures its stream does not carry yet, it writes them in a CT_EXT_CALIB
 * record, measuring them first if nobody in the process has (once per CPU
 * and process, one thread at a time: the scratch state is the process's),
 * with the measurement's own time in the record for the reader to owe.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "calfig.h"
#include "internal.h"

void ct_cal_hooked(void) CT_HIDDEN; /* arch/x86_64/cal.S */
void ct_cal_plain(void) CT_HIDDEN;
void ct_cal_cyg(void) CT_HIDDEN;
void ct_cal_mix(void (*fn)(void), unsigned long n, uint64_t seed) CT_HIDDEN;
void ct_cal_loop(void (*fn)(void), unsigned long n) CT_HIDDEN;

#define CAL_CALLS 128  /* calls per batch */
#define CAL_BATCHES 24 /* measured batches of each kind, after a warm-up */
_Static_assert(CAL_BATCHES <= CT_CAL_MAX_ROUNDS, "rounds");

/* the longest a call can write: ENTER, EXIT and a TIME and HI record each */
#define CAL_MAX_PER_CALL 44
#define CAL_BATCH_BYTES (CAL_CALLS * CAL_MAX_PER_CALL + 256)
/* the trace area: each batch writes where the last one stopped, as a
 * thread writes its buffers, through an area larger than the L1 cache (a
 * mapping made for the calibration), or the small static one if the
 * mapping cannot be had */
#define CAL_AREA (256 * 1024)
static uint64_t scratch[CAL_BATCH_BYTES / 8];
static struct ct_frame scratch_stk[8];

struct figures {
	uint64_t calls, inner, outer;
};

static struct {
	bool done;
	int cpu; /* where the figures were measured; -1: not known */
	struct figures cyg, hook;
} cal;

/* the figures measured again, by CPU (ct_recalibrate) */
#define CAL_CPUS 256
#define CAL_AGAIN_MAX 32 /* measurements after the first, per process */
enum { CPU_NONE, CPU_DONE, CPU_FAILED };
static struct cpu_figures {
	uint32_t state; /* CPU_*: DONE published with release */
	struct figures cyg, hook;
} cal_cpu[CAL_CPUS];
static uint32_t cal_lock;  /* the scratch state's: one measurement at a time */
static uint32_t cal_again; /* measurements made by ct_recalibrate */
static int recal_off = -1; /* CALLTRACE_RECAL=0; -1: not read yet */

static struct {
	unsigned char *base;
	size_t size, at;
} area;

/* an empty function, untraced; as -finstrument-functions compiles it,
 * ct_cal_cyg (arch/x86_64/cal.S) */
static __attribute__((noinline)) void cal_plain(void)
{
	__asm__ volatile("");
}

static void (*volatile plain_p)(void) = cal_plain;
static void (*volatile traced_p)(void) = ct_cal_cyg;
static void (*volatile asm_plain_p)(void) = ct_cal_plain;
static void (*volatile asm_hooked_p)(void) = ct_cal_hooked;

/* CAL_CALLS calls of fn: hooked, from ct_cal_mix's 16 call sites in the
 * order that seed gives (the same for the plain and the traced batch);
 * else from one site */
static inline void calls(void (*fn)(void), bool hooked, uint64_t seed)
{
	if (hooked)
		ct_cal_mix(fn, CAL_CALLS, seed);
	else
		ct_cal_loop(fn, CAL_CALLS);
}

/* a batch of plain calls, as the hooked (or -finstrument-functions) batch
 * that follows makes them */
static uint64_t batch_plain(void (*volatile *fp)(void), bool hooked, uint64_t seed)
{
	uint64_t t0 = ct_clock();
	calls(*fp, hooked, seed);
	return ct_clock() - t0;
}

/* where the next batch's records go: on from the last batch's */
static unsigned char *batch_buffer(void)
{
	if (area.at + CAL_BATCH_BYTES > area.size)
		area.at = 0;
	return area.base + area.at;
}

/* one batch of traced calls on the scratch state; *inner gets the sum of
 * the exit deltas, UINT64_MAX when some record other than a plain ENTER,
 * EXIT or CALLSITE (a delta too long: the batch was interrupted) was written.
 * hooked: ct_cal_hooked, whose entry's fast path needs a frame below it on
 * the shadow stack (a thread's first one takes the slow path): a base frame
 * at the top of the address space, not hooked, that nothing returns to */
static uint64_t batch_traced(struct ct_tstate *t, bool hooked, uint64_t seed, uint64_t *inner)
{
	unsigned char *buf = batch_buffer();
	t->cur = (uintptr_t)buf;
	/* a record never ends past the limit: no buffer switch (and with no
	 * ring, ct_buffer_full would return at once anyway) */
	t->limit = (uintptr_t)buf + CAL_BATCH_BYTES;
	t->depth = 0;
	if (hooked) {
		memset(&t->stk[0], 0, sizeof(t->stk[0]));
		t->stk[0].cfa = UINTPTR_MAX;
		t->depth = 1;
	}
	void (*volatile * fp)(void) = hooked ? &asm_hooked_p : &traced_p;
	t->last = ct_clock();
	uint64_t t0 = ct_clock();
	calls(*fp, hooked, seed);
	uint64_t el = ct_clock() - t0;
	area.at = t->cur - (uintptr_t)area.base;
	area.at = (area.at + 63) & ~(size_t)63;
	if (t->depth != (hooked ? 1u : 0u)) {
		*inner = UINT64_MAX;
		return el;
	}

	uint64_t sum = 0, exits = 0;
	const unsigned char *p = buf;
	const unsigned char *end = (const unsigned char *)t->cur;
	while (p < end) {
		uint32_t w;
		memcpy(&w, p, 4);
		if ((w & 3) == CT_REC_ENTER) {
			p += 8;
		} else if ((w & 3) == CT_REC_EXIT) {
			sum += w >> 2;
			exits++;
			p += 4;
		} else if ((w & 3) == CT_REC_EXT && CT_EXT_TYPE(w) == CT_EXT_CALLSITE) {
			/* record --callsite writes one after each ENTER: the
			 * figures are then those of the callsite paths */
			p += 4 + 4 * (size_t)CT_EXT_LEN(w);
		} else {
			*inner = UINT64_MAX;
			return el;
		}
	}
	*inner = exits == CAL_CALLS ? sum : UINT64_MAX;
	return el;
}

/* the figures from the rounds' paired batches (calfig.c) */
static void derive(struct figures *f, const uint64_t *plain, const uint64_t *traced,
		   const uint64_t *inner, int n)
{
	uint64_t in, out;
	if (!ct_cal_figures(plain, traced, inner, n, &in, &out))
		return;
	f->calls = CAL_CALLS;
	f->inner = in;
	f->outer = out;
}

/* measure both front ends' figures into *cyg and *hook (left as they are
 * where they cannot be had); the scratch state is the caller's to hold */
static void measure(struct figures *cyg, struct figures *hook)
{
	struct ct_tstate *t = &ct_self;
	struct ct_tstate saved;
	sigset_t all, old;

	/* the area, its pages touched before anything is timed */
	void *m = mmap(NULL, CAL_AREA, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (m != MAP_FAILED) {
		area.base = m;
		area.size = CAL_AREA;
		memset(m, 0, CAL_AREA);
	} else {
		area.base = (unsigned char *)scratch;
		area.size = sizeof(scratch);
	}
	area.at = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	memcpy(&saved, t, sizeof(saved));
	memset(t, 0, sizeof(*t));
	t->stk = scratch_stk;
	t->cap = sizeof(scratch_stk) / sizeof(scratch_stk[0]);
	t->hi = (uintptr_t)ct_cal_cyg >> CT_ADDR_LOW_BITS;
	/* hook.c's own area set aside: its orphans and nested frames stay
	 * untouched (the hooked calls only take the fast paths, which do not
	 * read it; the real thread's hooked frames are in `saved`) */
	t->hook = ct_hook_scratch_area();

	uint64_t plain[2][CAL_BATCHES], traced[2][CAL_BATCHES], inner[2][CAL_BATCHES];
	bool hi_ok = CT_ARCH_CAL_HOOKED && ((uintptr_t)ct_cal_hooked >> CT_ADDR_LOW_BITS) == t->hi;
	for (int b = 0; b <= CAL_BATCHES; b++) {
		for (int k = 0; k < 2; k++) {
			if (k == 1 && !hi_ok)
				break; /* cannot happen in one library; no figures then */
			uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(b + 1);
			uint64_t in, p = batch_plain(k ? &asm_plain_p : &plain_p, k == 1, seed);
			uint64_t tr = batch_traced(t, k == 1, seed, &in);
			if (b == 0)
				continue; /* warm-up: caches, branch predictors */
			plain[k][b - 1] = p;
			traced[k][b - 1] = tr;
			inner[k][b - 1] = in;
		}
	}

	memcpy(t, &saved, sizeof(*t));
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (m != MAP_FAILED)
		munmap(m, CAL_AREA);

	derive(cyg, plain[0], traced[0], inner[0], CAL_BATCHES);
	if (hi_ok)
		derive(hook, plain[1], traced[1], inner[1], CAL_BATCHES);
}

/* is t the calibration's scratch thread state (its calls are not the
 * program's)? */
bool ct_calibrating(const struct ct_tstate *t)
{
	return t->stk == scratch_stk;
}

void ct_calibrate_note(void)
{
	cal_lock = 0; /* a forked child: one thread, none measuring */
	if (!cal.done) {
		cal.done = true; /* once per image; a forked child inherits it */
		int cpu = sched_getcpu();
		measure(&cal.cyg, &cal.hook);
		cal.cpu = cpu == sched_getcpu() ? cpu : -1;
	}
	if (cal.cyg.calls)
		ct_proc_printf("overhead %lu %lu %lu", (unsigned long)cal.cyg.calls,
			       (unsigned long)cal.cyg.inner, (unsigned long)cal.cyg.outer);
	if (cal.hook.calls)
		ct_proc_printf("overhead-hook %lu %lu %lu", (unsigned long)cal.hook.calls,
			       (unsigned long)cal.hook.inner, (unsigned long)cal.hook.outer);
}

/* the figures of the CPU numbered cpu, measured here if nobody has yet (the
 * time it took in *t0..*t1, else both 0); false when there are none */
static bool cpu_figures(int cpu, struct figures *cyg, struct figures *hook, uint64_t *t0,
			uint64_t *t1)
{
	struct cpu_figures *f = &cal_cpu[cpu];
	*t0 = *t1 = 0;
	uint32_t st = __atomic_load_n(&f->state, __ATOMIC_ACQUIRE);
	if (st == CPU_NONE) {
		/* one measurement at a time; the others go on with the
		 * figures they have and ask again at their next switch */
		if (__atomic_exchange_n(&cal_lock, 1, __ATOMIC_ACQUIRE))
			return false;
		st = __atomic_load_n(&f->state, __ATOMIC_RELAXED);
		if (st == CPU_NONE && cal_again < CAL_AGAIN_MAX) {
			struct figures c = {0, 0, 0}, h = {0, 0, 0};
			cal_again++;
			*t0 = ct_clock();
			measure(&c, &h);
			*t1 = ct_clock();
			/* figures of another CPU than asked (moved meanwhile)
			 * are nobody's: asked again later */
			if (sched_getcpu() == cpu) {
				f->cyg = c;
				f->hook = h;
				st = c.calls || h.calls ? CPU_DONE : CPU_FAILED;
				__atomic_store_n(&f->state, st, __ATOMIC_RELEASE);
			}
		}
		__atomic_store_n(&cal_lock, 0, __ATOMIC_RELEASE);
	}
	if (st != CPU_DONE)
		return false;
	*cyg = f->cyg;
	*hook = f->hook;
	return true;
}

static uint32_t u32_of(uint64_t v)
{
	return v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
}

void ct_recalibrate(struct ct_tstate *t, bool restate)
{
	if (__builtin_expect(recal_off < 0, 0)) {
		const char *e = ct_getenv(CT_ENV_RECAL);
		recal_off = e && !strcmp(e, "0");
	}
	/* one hook of the thread's own (not a signal handler's, whose hook
	 * interrupted another), and a start-up calibration to go on from */
	/* record --plugin and --inject: the calibration's calls would reach
	 * the plugin's callbacks and the rules (which see the program's
	 * calls only): the start-up figures stay */
	if (recal_off || t->busy != 1 || t->off || !cal.done || ct_calibrating(t) || ct_plug_on ||
	    ct_inj_on)
		return;
	int cpu = sched_getcpu();
	if (cpu < 0 || cpu >= CAL_CPUS)
		return;
	uint32_t want = (uint32_t)cpu + 1;
	if (!t->cal_cpu && cpu == cal.cpu)
		t->cal_cpu = want; /* the process's figures are this CPU's */
	if (t->cal_cpu == want && !(restate && cpu != cal.cpu))
		return;
	struct figures c, h;
	uint64_t t0, t1;
	bool figs = cpu_figures(cpu, &c, &h, &t0, &t1);
	if (!figs && !t0)
		return;
	uint32_t w[1 + CT_CALIB_WORDS] = {
		ct_ext_word(CT_EXT_CALIB, CT_CALIB_WORDS, figs ? CT_CALIB_FIGS : 0),
		(uint32_t)t0,
		(uint32_t)(t0 >> 32),
		(uint32_t)t1,
		(uint32_t)(t1 >> 32),
		(uint32_t)cpu,
		CAL_CALLS,
		figs ? u32_of(c.inner) : 0,
		figs ? u32_of(c.outer) : 0,
		figs ? u32_of(h.inner) : 0,
		figs ? u32_of(h.outer) : 0,
	};
	ct_put_words(t, w, 1 + CT_CALIB_WORDS);
	if (figs)
		t->cal_cpu = want;
}
