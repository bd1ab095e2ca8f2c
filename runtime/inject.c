/* SPDX-License-Identifier: MIT */
/*
 * record --inject (doc/inject.md): fault injection, a built-in consumer of
 * the per-function address tables that plugins use (plugin.c, addrtab.c).
 *
 * `record` parses the rules, matches their regexes against every module's
 * function names before the run, refuses what a module's front end cannot
 * do (lib/record/injectopt.c), and writes DIR/inject.spec.  Here the runtime
 * loads it at start-up and puts each module's selected functions into an
 * address hash when the module is mapped (out again at dlclose), their
 * value the mask of the rules that select them.  Every selected function
 * also sets a byte of a 4096-byte table (ct_sel_bloom, indexed by a hash of
 * the address): the trampolines' fast paths test that byte, and only a
 * function whose byte is set goes the general way (ct_hook_enter), where
 * the hash decides.  A function no rule selects pays one load and compare.
 *
 * At a selected call's entry (its ENTER written, busy held) the rules of
 * its mask are tried in order: each counts the calls it sees (atomics, all
 * threads) and its selectors decide; the first that fires acts, and its
 * CT_EXT_INJECT record follows the ENTER.
 *   return=V  the entry trampoline returns to the caller with V in %rax
 *             (ct_hook_enter returns 1; tramp.S skips the body), in x0 on
 *             aarch64 (patch.S, libcall.S).  Only where the trampoline
 *             runs before the prologue: __fentry__, patched entries,
 *             library calls (kind 0, 2, 3).
 *   retval=V  the frame is marked CT_FR_ATRET, which sends its return to the
 *             C path (hook.c return_slow): %rax (x0) is replaced there.
 *   errno=E   set at the return (hooked) or in the exit hook
 *             (-finstrument-functions), after the body.
 *   signal=S  raised at the entry, once the hook is done (busy let go).
 *   throw=E   the body skipped as for return=, the trampoline jumping to
 *             calltrace_inject_throw in libcalltrace-throw.so (C++, loaded
 *             from the constructor only when a rule throws) instead.
 *             On aarch64 patch.S and libcall.S jump there, x0 and x1 the
 *             arguments.
 * What fired at a call is kept per thread by depth (struct injf) for its
 * return.
 *
 * The file:
 *   calltrace-inject 1
 *   seed S
 *   thrower PATH            (with a throw= rule: libcalltrace-throw.so)
 *   rule ACTS VALUE ERRNO SIG CNT N PROB CARG COP CVAL   (one per rule, in
 *        order: ACTS CT_INJ_A_* mask; VALUE, CVAL hex; CNT 0 none, 1 nth,
 *        2 every, 3 after; PROB 0 none, else 1 + P * 2^32 (<= 2^32 + 1);
 *        CARG 0 none or 1..6; COP 0 ==, 1 !=, 2 <, 3 > (signed))
 *   message INDEX TEXT      (throw=std::runtime_error(TEXT) of rule INDEX)
 *   module BUILDID PATH
 *   f OFFSET MASK           (hex offset; the mask of the rules, hex)
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "addrtab.h"
#include "internal.h"
#include "regs.h"

#define MAX_RULES 32

bool ct_inj_on;
void (*ct_inj_thrower)(long kind, const char *msg);

/* where return=V puts V for the entry trampoline to return with */
#if defined(__aarch64__)
/* aarch64: x0 is both the first argument and the return value; patch.S
 * and libcall.S reload it from the struct (CT_REGS_GP) before they return
 * to the caller in place of the body */
_Static_assert(__builtin_offsetof(struct ct_arch_regs, gp) == CT_REGS_GP, "x0 at CT_REGS_GP");
#define RETURN_VALUE(regs) ((regs)->gp[0])
#else
/* x86-64: the trampoline's saved %rax follows struct ct_arch_regs
 * (tramp.S E_RAX) */
_Static_assert(sizeof(struct ct_arch_regs) == CT_REGS_SIZE, "saved %rax after the regs");
#define RETURN_VALUE(regs) (((uint64_t *)((regs) + 1))[0])
#endif

struct rule {
	uint32_t acts;
	uint64_t value;
	int err, sig;
	uint32_t cnt;
	uint64_t n;
	uint64_t prob; /* 0: none, else 1 + the threshold (of 2^32) */
	uint32_t carg, cop;
	uint64_t cval;
	uint64_t seen; /* calls that met its condition (atomic) */
	char msg[256]; /* throw=std::runtime_error(MSG) */
};

static struct {
	struct rule r[MAX_RULES];
	uint32_t nr;
	uint64_t seed;
	struct ct_atab tab;
	struct ct_filt_hash h;
	uint32_t threads;       /* PRNG streams handed out */
	char thrower[PATH_MAX]; /* libcalltrace-throw.so, for throw= */
} I = {.tab = {.h = &I.h}};

/* what fired at a call, by depth */
struct injf {
	uintptr_t fn, cfa;
	uint32_t rule;
};

static __thread struct injf *fr __attribute__((tls_model("initial-exec")));
static __thread uint32_t fr_cap __attribute__((tls_model("initial-exec")));
static __thread uint64_t rng __attribute__((tls_model("initial-exec")));
static __thread int pend_errno __attribute__((tls_model("initial-exec")));

static inline uint32_t lookup(uintptr_t fn)
{
	return ct_hash_lookup(&I.h, fn);
}

void ct_inj_module(uintptr_t base, const char *path, const char *buildid, bool added)
{
	if (!I.h.keys)
		return;
	ct_atab_module(&I.tab, base, path, buildid, added);
	if (!added)
		return;                           /* (its bytes stay set: a look-up then says no) */
	ct_atab_select(&I.tab, base, UINT32_MAX); /* (every function in it a rule selects) */
}

void ct_inj_alias(uintptr_t alias, uintptr_t fn)
{
	if (I.h.keys)
		ct_atab_put(&I.tab, alias, lookup(fn));
}

/* ---- the file --------------------------------------------------------------- */

static bool rule_line(const char **p, const char *le)
{
	struct rule *r = &I.r[I.nr];
	uint64_t a[10];
	static const unsigned base[10] = {10, 16, 10, 10, 10, 10, 10, 10, 10, 16};
	if (I.nr == MAX_RULES)
		return false;
	for (int i = 0; i < 10; i++)
		if (!ct_spec_number(p, le, base[i], &a[i]))
			return false;
	if (!a[0] || a[0] > 31 || a[2] > 4095 || a[3] > 64 || a[4] > 3 || a[6] > (1ull << 32) + 1 ||
	    a[7] > 6 || a[8] > 3 || (a[4] && !a[5]))
		return false;
	r->acts = (uint32_t)a[0];
	r->value = a[1];
	r->err = (int)a[2];
	r->sig = (int)a[3];
	r->cnt = (uint32_t)a[4];
	r->n = a[5];
	r->prob = a[6];
	r->carg = (uint32_t)a[7];
	r->cop = (uint32_t)a[8];
	r->cval = a[9];
	I.nr++;
	return true;
}

/* a line of the file (ct_spec_lines); c: the counts of "f" and "module"
 * lines, which the tables were made for */
static bool line_of(void *c, uint32_t line, const char **p, const char *le)
{
	const uint32_t nf = ((const uint32_t *)c)[0], nm = ((const uint32_t *)c)[1];
	uint64_t a, b;
	if (line == 1) {
		if (!ct_spec_keyword(p, le, "calltrace-inject") || !ct_spec_number(p, le, 10, &a) ||
		    a != 1)
			return false;
	} else if (ct_spec_keyword(p, le, "seed")) {
		if (!ct_spec_number(p, le, 10, &I.seed))
			return false;
	} else if (ct_spec_keyword(p, le, "rule")) {
		if (!rule_line(p, le))
			return false;
	} else if (ct_spec_keyword(p, le, "thrower")) {
		if (!ct_spec_text(p, le, I.thrower, sizeof(I.thrower)))
			return false;
	} else if (ct_spec_keyword(p, le, "message")) {
		if (!ct_spec_number(p, le, 10, &a) || a >= I.nr ||
		    !ct_spec_text(p, le, I.r[a].msg, sizeof(I.r[a].msg)))
			return false;
		if (!strcmp(I.r[a].msg, "-"))
			I.r[a].msg[0] = 0;
	} else if (ct_spec_keyword(p, le, "module")) {
		struct ct_atab_mod *m = &I.tab.mods[I.tab.nmods];
		if (I.tab.nmods == nm || !ct_spec_text(p, le, m->buildid, sizeof(m->buildid)) ||
		    !ct_spec_text(p, le, m->path, sizeof(m->path)))
			return false;
		if (!strcmp(m->buildid, "-"))
			m->buildid[0] = 0;
		m->f0 = I.tab.nfuncs;
		m->nf = 0;
		I.tab.nmods++;
	} else if (ct_spec_keyword(p, le, "f")) {
		if (!I.tab.nmods || I.tab.nfuncs == nf || !ct_spec_number(p, le, 16, &a) ||
		    !ct_spec_number(p, le, 16, &b) || !b || b >> I.nr)
			return false;
		struct ct_atab_func *f = &I.tab.funcs[I.tab.nfuncs];
		f->off = a;
		f->val = (uint32_t)b;
		I.tab.nfuncs++;
		I.tab.mods[I.tab.nmods - 1].nf++;
	} else {
		return false;
	}
	return true;
}

static bool parse(const char *buf, size_t len, uint32_t *bad_line)
{
	uint32_t n[2];
	ct_spec_count(buf, len, &n[0], &n[1]);
	if (!ct_atab_alloc(&I.tab, n[0], n[1]))
		return false;
	return ct_spec_lines(buf, len, line_of, n, bad_line) && I.nr > 0;
}

void ct_inj_init(void)
{
	const char *path = ct_getenv(CT_ENV_INJECT);
	if (!path || !*path)
		return;
	size_t len = 0;
	char *buf = ct_spec_load(path, "the injection rules", "no injection in this process",
				 CT_SPEC_MAX, &len);
	if (!buf)
		return;
	uint32_t bad = 0;
	bool ok = parse(buf, len, &bad);
	ct_spec_free(buf, len);
	uint64_t cap = 1024;
	while (cap < (uint64_t)I.tab.nfuncs * 3)
		cap <<= 1;
	if (!ok || !ct_atab_hash(&I.tab, cap)) {
		ct_log("%s: line %u: not an injection file of this version; no injection in this "
		       "process",
		       path, bad);
		I.h.keys = NULL;
		return;
	}
	__atomic_store_n(&ct_inj_on, true, __ATOMIC_RELEASE);
	__atomic_store_n(&ct_sel_exits, true, __ATOMIC_RELEASE);
	__atomic_store_n(&ct_sel_on, true, __ATOMIC_RELEASE);
}

/* ---- the calls ----------------------------------------------------------------- */

static inline uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* the thread's next 32 random bits (xorshift64*, seeded from --seed and
 * the order in which threads first ask) */
static uint32_t next_random(void)
{
	if (!rng) {
		uint32_t k = __atomic_fetch_add(&I.threads, 1, __ATOMIC_RELAXED);
		rng = splitmix(I.seed ^ splitmix(k)) | 1;
	}
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

static struct injf *frame_at(uint32_t d)
{
	if (d < fr_cap)
		return &fr[d];
	size_t old = (size_t)fr_cap * sizeof(struct injf);
	uint32_t ncap = fr_cap ? fr_cap : 256;
	while (ncap <= d)
		ncap *= 2;
	size_t len = (size_t)ncap * sizeof(struct injf);
	void *p = old ? mremap(fr, old, len, MREMAP_MAYMOVE)
		      : mmap(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	fr = p;
	fr_cap = ncap;
	return &fr[d];
}

static bool cond_holds(const struct rule *r, const struct ct_arch_regs *regs)
{
	if (!r->carg)
		return true;
	if (!regs)
		return false;
	uint64_t v = regs->gp[r->carg - 1];
	switch (r->cop) {
	case 0:
		return v == r->cval;
	case 1:
		return v != r->cval;
	case 2:
		return (int64_t)v < (int64_t)r->cval;
	default:
		return (int64_t)v > (int64_t)r->cval;
	}
}

static bool fires(struct rule *r)
{
	uint64_t c = __atomic_add_fetch(&r->seen, 1, __ATOMIC_RELAXED);
	switch (r->cnt) {
	case 1:
		if (c != r->n)
			return false;
		break;
	case 2:
		if (c % r->n)
			return false;
		break;
	case 3:
		if (c <= r->n)
			return false;
		break;
	}
	return !r->prob || next_random() < r->prob - 1;
}

/* kind: the hooked front end (0 fentry, 1 mcount, 2 patched, 3 library
 * call) or -1 (-finstrument-functions); regs NULL where the registers are
 * not the arguments (-finstrument-functions, aarch64's _mcount: hook.c
 * ARG_REGS; record refuses if= there first).  The rule that fires, or -1 */
static int choose(uint32_t mask, int kind, const struct ct_arch_regs *regs)
{
	for (uint32_t i = 0; i < I.nr; i++) {
		if (!(mask >> i & 1))
			continue;
		struct rule *r = &I.r[i];
		/* what this front end cannot do (record refuses it first) */
		if ((r->acts & CT_INJ_A_RETURN) && (kind == 1 || kind < 0))
			continue;
		if ((r->acts & CT_INJ_A_RETVAL) && kind < 0)
			continue;
		if ((r->acts & CT_INJ_A_THROW) && (kind == 1 || kind < 0 || !ct_inj_thrower))
			continue;
		if (!cond_holds(r, regs))
			continue;
		if (fires(r))
			return (int)i;
	}
	return -1;
}

static void put_record(struct ct_tstate *t, uint32_t i)
{
	const struct rule *r = &I.r[i];
	if (!t->ring || !t->cap)
		return;
	uint32_t w[1 + CT_INJ_PAYLOAD];
	w[0] = ct_ext_word(CT_EXT_INJECT, CT_INJ_PAYLOAD, r->acts);
	w[1] = (uint32_t)r->value;
	w[2] = (uint32_t)(r->value >> 32);
	w[3] = (uint32_t)r->err;
	w[4] = (uint32_t)r->sig;
	w[5] = i;
	t->fl_epoch++; /* -t never takes it back */
	/* (a thread that dies after it, the throw= nothing catches, leaves
	 * it last in its buffer: record finds the end of that buffer by the
	 * records' lengths, so the first rule's index, 0, stays) */
	ct_put_words(t, w, 1 + CT_INJ_PAYLOAD);
}

/* a fired rule's work at the return: kept by depth */
static void keep(struct ct_tstate *t, uint32_t d, uintptr_t fn, uint32_t i)
{
	struct injf *f = frame_at(d);
	if (!f)
		return;
	f->fn = fn;
	f->cfa = t->stk[d].cfa;
	f->rule = i;
}

static const struct rule *kept(struct ct_tstate *t, uint32_t d, uintptr_t fn)
{
	if (d >= fr_cap || fr[d].fn != fn || fr[d].cfa != t->stk[d].cfa)
		return NULL;
	fr[d].fn = 0;
	return &I.r[fr[d].rule];
}

int ct_inj_enter(struct ct_tstate *t, uint32_t d, uintptr_t fn, struct ct_arch_regs *regs, int kind)
{
	uint32_t mask = lookup(fn);
	if (!mask)
		return 0;
	if (d < fr_cap && fr[d].fn == fn)
		fr[d].fn = 0; /* a call of it that never returned */
	int i = choose(mask, kind, regs);
	if (i < 0)
		return 0;
	const struct rule *r = &I.r[i];
	put_record(t, (uint32_t)i);
	int out = r->sig << 8;
	if (r->acts & (CT_INJ_A_RETVAL | CT_INJ_A_ERRNO | CT_INJ_A_RETURN)) {
		keep(t, d, fn, (uint32_t)i);
		if (kind >= 0)
			t->stk[d].flags |= CT_FR_ATRET; /* its return: the C path */
	}
	if (r->acts & CT_INJ_A_RETURN) {
		/* the trampoline gives the caller this %rax (x0), skipping the
		 * body */
		RETURN_VALUE(regs) = r->value;
		out |= 1;
	} else if (r->acts & CT_INJ_A_THROW) {
		/* ... or jumps to ct_inj_thrower(kind, message) instead */
		regs->gp[0] = r->value;
		regs->gp[1] = (uint64_t)(uintptr_t)r->msg;
		out |= 2;
	}
	return out;
}

void ct_inj_exit(struct ct_tstate *t, uint32_t d, uintptr_t fn, const struct ct_arch_retregs *r)
{
	const struct rule *ru = kept(t, d, fn);
	if (!ru)
		return;
	if ((ru->acts & CT_INJ_A_RETVAL) && r) /* (the trampoline reloads %rax, x0, from it) */
		((struct ct_arch_retregs *)(uintptr_t)r)->ret = ru->value;
	if (ru->acts & CT_INJ_A_ERRNO)
		pend_errno = ru->err;
}

void ct_inj_errno_now(void)
{
	if (pend_errno) {
		errno = pend_errno;
		pend_errno = 0;
	}
}

void ct_inj_raise(int sig)
{
	raise(sig);
}

/* -finstrument-functions: the entry was recorded (busy let go) */
void ct_inj_cyg_enter(struct ct_tstate *t, uintptr_t fn)
{
	if (!ct_sel_bloom[ct_sel_bloom_of(fn)] || t->busy || !t->depth ||
	    t->stk[t->depth - 1].fn != fn)
		return;
	t->busy = 1;
	__asm__ volatile("" ::: "memory");
	int out = ct_inj_enter(t, t->depth - 1, fn, NULL, -1);
	__asm__ volatile("" ::: "memory");
	t->busy = 0;
	if (out >> 8)
		ct_inj_raise(out >> 8);
}

/* ... and its exit hook, before the EXIT (the body has run) */
void ct_inj_cyg_exit(struct ct_tstate *t, uintptr_t fn)
{
	if (!ct_sel_bloom[ct_sel_bloom_of(fn)] || t->busy || !t->depth)
		return;
	ct_inj_exit(t, t->depth - 1, fn, NULL);
	ct_inj_errno_now();
}

/* the process's constructor (start.c): with a throw= rule, dlopen the C++
 * half (runtime/cxx/throw.cc), its own calls untraced */
void ct_inj_load(void)
{
	if (!I.thrower[0] || ct_inj_thrower || ct_cfg.state != CT_RT_ACTIVE)
		return;
	struct ct_tstate *t = &ct_self;
	t->busy++;
	void *h = dlopen(I.thrower, RTLD_NOW | RTLD_LOCAL);
	void *f = h ? dlsym(h, "calltrace_inject_throw") : NULL;
	t->busy--;
	if (!f) {
		ct_log("%s: cannot load it; throw= rules do nothing in this process", I.thrower);
		return;
	}
	__atomic_store_n(&ct_inj_thrower, (void (*)(long, const char *))f, __ATOMIC_RELEASE);
}

void ct_inj_release(void)
{
	if (fr)
		munmap(fr, (size_t)fr_cap * sizeof(struct injf));
	fr = NULL;
	fr_cap = 0;
}
