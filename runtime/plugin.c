/* SPDX-License-Identifier: MIT */
/*
 * record --plugin (doc/plugins.md): a user's shared object whose callbacks
 * (include/calltrace/plugin.h) run on the calls of selected functions.
 *
 * `record` matches --plugin-filter against every module's function names
 * before the run (lib/record/plugopt.c) and writes DIR/plugin.spec: the plugin,
 * its ARGS, the clock's rate, and per module each function's offset,
 * whether it is selected and its name.  Here the runtime loads the file at
 * start-up, puts each module's functions into an address hash when the
 * module is mapped (start-up, dlopen; out again at dlclose), and dlopens
 * the plugin from its constructor.  No regex and no ELF on the hot path:
 * one hash look-up per call, on the C paths, and nothing at all without a
 * plugin.  A plugin sets its functions' bytes of ct_sel_bloom (internal.h;
 * every byte when it takes every function), which the fast paths test: the
 * calls of other functions stay on them, and so do the returns when the
 * plugin has no exit callback.
 *
 * A selected call's entry time is kept per thread beside the shadow stack
 * (struct ct_plug_frame, by depth), with the frame's function and CFA to
 * know it again at the exit.  During a callback the thread's `busy` is
 * held and plug_in set: the hooks of calls the plugin makes take the
 * nested path, which drops them uncounted (nested.c ct_nested, hook.c).
 *
 * The file:
 *   calltrace-plugin 1
 *   plugin PATH             (text fields: bytes <= ' ', DEL and '%' as %XX)
 *   args TEXT               (none: no ARGS)
 *   clock HZ                (the recording clock's ticks per second)
 *   all 0|1                 (1: no --plugin-filter, every function)
 *   module BUILDID PATH
 *   f OFFSET SEL NAME       (hex offset; SEL 1 selected, 0 a name only)
 *
 * The dispatch (ct_plug_enter, ct_plug_exit) is written for more than one
 * consumer: a fault-injection rule is one more callback on the functions
 * this hash selects.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CALLTRACE_PLUGIN_RUNTIME
#include "calltrace/plugin.h"
#include "addrtab.h"
#include "internal.h"
#include "regs.h"

bool ct_plug_on;
void (*ct_plug_fn_cb)(const void *); /* internal.h */
_Static_assert(offsetof(struct ct_tstate, plug_in) == CT_T_PLUG_IN, "plug_in");
bool ct_plug_fast;  /* internal.h */
bool ct_enter_more; /* internal.h */
_Static_assert(sizeof(ct_plug_fast) == 1 && sizeof(ct_enter_more) == 1,
	       "ct_plug_fast and ct_enter_more are tested as bytes (tramp.S)");

/* a selected call open on the thread, at the depth of its frame */
struct ct_plug_frame {
	uintptr_t fn, cfa;
	uint64_t t0;
};

/* a function's value in the hash: 1 + its index, and SEL_BIT if selected */
#define SEL_BIT (1u << 31)

static struct {
	char path[PATH_MAX];
	char args[4096];
	bool has_args, all, loaded, done;
	uint64_t hz;
	/* ticks -> ns: ns = mono0 + (ticks - tick0) * mult >> 32 */
	uint64_t tick0, mono0, mult;
	/* each module's functions: address -> 1 + index | SEL_BIT in h */
	struct ct_atab tab;
	struct ct_filt_hash h;
	uint32_t *fname; /* by index: its name's offset in names */
	char *names;
	size_t names_len, names_cap;
	int (*init)(const char *);
	void (*enter)(const struct ct_plugin_call *);
	void (*exit)(const struct ct_plugin_call *);
	void (*enter_fn)(const void *);
	void (*fini)(void);
} P = {.tab = {.h = &P.h}};


/* ---- the address hash ----------------------------------------------------- */

static inline uint32_t lookup(uintptr_t fn)
{
	return ct_hash_lookup(&P.h, fn);
}

void ct_plug_module(uintptr_t base, const char *path, const char *buildid, bool added)
{
	ct_atab_module(&P.tab, base, path, buildid, added);
	if (!added || P.all || !P.h.keys)
		return; /* (a module's bytes stay set when it goes: a look-up says no) */
	/* limited by --plugin-filter: its functions' bytes of ct_sel_bloom,
	 * so that only their calls leave the fast paths */
	ct_atab_select(&P.tab, base, SEL_BIT);
}

/* a library call (libcall.c) is named as replay names it, NAME@LIBRARY:
 * record wrote so the library functions the program imports; here the
 * others, an IFUNC's implementation (memcpy's __memmove_avx_unaligned)
 * and an alias's jump (memmove where memcpy has the same implementation),
 * get an entry of their own: the target's selection, and the name the
 * program called with the target's library */
#define ALIAS_MAX 1024
#define ALIAS_NAMES (ALIAS_MAX * 64)
static uint32_t naliases;

void ct_plug_libcall(uintptr_t fn, uintptr_t target, const char *name)
{
	if (!P.h.keys)
		return;
	uint32_t v = lookup(target);
	const char *lib = NULL;
	Dl_info di;
	if (v) {
		const char *tn = P.names + P.fname[(v & ~SEL_BIT) - 1];
		lib = strrchr(tn, '@');
		/* record's entry, by this name (demangled: a C++ name is
		 * taken as it is) */
		if (fn == target && lib &&
		    (!strncmp(name, "_Z", 2) ||
		     ((size_t)(lib - tn) == strlen(name) && !memcmp(tn, name, (size_t)(lib - tn)))))
			return;
		lib = lib ? lib + 1 : NULL;
	}
	if (!lib && dladdr((void *)target, &di) && di.dli_fname) {
		const char *sl = strrchr(di.dli_fname, '/');
		lib = sl ? sl + 1 : di.dli_fname;
	}
	size_t nl = strlen(name), ll = lib ? strlen(lib) : 0;
	uint32_t k = P.tab.nfuncs + naliases;
	if (naliases == ALIAS_MAX || P.names_len + nl + ll + 2 > P.names_cap) {
		ct_atab_put(&P.tab, fn, v); /* (no room: the target's own) */
		return;
	}
	P.fname[k] = (uint32_t)P.names_len;
	memcpy(P.names + P.names_len, name, nl);
	P.names_len += nl;
	if (lib) {
		P.names[P.names_len++] = '@';
		memcpy(P.names + P.names_len, lib, ll);
		P.names_len += ll;
	}
	P.names[P.names_len++] = 0;
	naliases++;
	ct_atab_put(&P.tab, fn, (k + 1) | (v ? v & SEL_BIT : P.all ? SEL_BIT : 0));
}

/* ---- the file --------------------------------------------------------------- */

/* a line of the file (ct_spec_lines); c: the counts of "f" and "module"
 * lines, which the tables were made for */
static bool line_of(void *c, uint32_t line, const char **p, const char *le)
{
	const uint32_t nf = ((const uint32_t *)c)[0], nm = ((const uint32_t *)c)[1];
	uint64_t a, b;
	if (line == 1) {
		if (!ct_spec_keyword(p, le, "calltrace-plugin") || !ct_spec_number(p, le, 10, &a) ||
		    a != 1)
			return false;
	} else if (ct_spec_keyword(p, le, "plugin")) {
		if (!ct_spec_text(p, le, P.path, sizeof(P.path)))
			return false;
	} else if (ct_spec_keyword(p, le, "args")) {
		if (!ct_spec_text(p, le, P.args, sizeof(P.args)))
			return false;
		P.has_args = true;
	} else if (ct_spec_keyword(p, le, "clock")) {
		if (!ct_spec_number(p, le, 10, &a) || !a)
			return false;
		P.hz = a;
	} else if (ct_spec_keyword(p, le, "all")) {
		if (!ct_spec_number(p, le, 10, &a) || a > 1)
			return false;
		P.all = a != 0;
	} else if (ct_spec_keyword(p, le, "module")) {
		struct ct_atab_mod *m = &P.tab.mods[P.tab.nmods];
		if (P.tab.nmods == nm || !ct_spec_text(p, le, m->buildid, sizeof(m->buildid)) ||
		    !ct_spec_text(p, le, m->path, sizeof(m->path)))
			return false;
		if (!strcmp(m->buildid, "-"))
			m->buildid[0] = 0;
		m->f0 = P.tab.nfuncs;
		m->nf = 0;
		P.tab.nmods++;
	} else if (ct_spec_keyword(p, le, "f")) {
		if (!P.tab.nmods || P.tab.nfuncs == nf || !ct_spec_number(p, le, 16, &a) ||
		    !ct_spec_number(p, le, 10, &b) || b > 1)
			return false;
		struct ct_atab_func *f = &P.tab.funcs[P.tab.nfuncs];
		f->off = a;
		f->val = (P.tab.nfuncs + 1) | (b ? SEL_BIT : 0);
		P.fname[P.tab.nfuncs] = (uint32_t)P.names_len;
		if (!ct_spec_text(p, le, P.names + P.names_len, P.names_cap - P.names_len))
			return false;
		P.names_len += strlen(P.names + P.names_len) + 1;
		P.tab.nfuncs++;
		P.tab.mods[P.tab.nmods - 1].nf++;
	} else {
		const char *w;
		size_t n;
		if (ct_spec_word(p, le, &w, &n))
			return false; /* an unknown line: not ours */
	}
	return true;
}

static bool parse(const char *buf, size_t len, uint32_t *bad_line)
{
	uint32_t n[2];
	ct_spec_count(buf, len, &n[0], &n[1]);
	/* (and room for library calls' aliases, ct_plug_alias) */
	P.fname = ct_map_anon((n[0] + ALIAS_MAX) * sizeof(*P.fname));
	P.names = ct_map_anon(len + 1 + ALIAS_NAMES);
	P.names_cap = len + 1 + ALIAS_NAMES;
	if (!ct_atab_alloc(&P.tab, n[0], n[1]) || !P.fname || !P.names)
		return false;
	P.names_len = 1; /* offset 0: no name */
	return ct_spec_lines(buf, len, line_of, n, bad_line) && P.path[0] && P.hz;
}

void ct_plug_init(void)
{
	const char *path = ct_getenv(CT_ENV_PLUGIN);
	if (!path || !*path)
		return;
	size_t len = 0;
	char *buf = ct_spec_load(path, "the plugin file", "no plugin in this process", CT_SPEC_MAX,
				 &len);
	if (!buf)
		return;
	uint32_t bad = 0;
	bool ok = parse(buf, len, &bad);
	ct_spec_free(buf, len);
	if (!ok) {
		ct_log("%s: line %u: not a plugin file of this version; no plugin in this process",
		       path, bad);
		P.path[0] = 0;
		return;
	}
	/* room for every function of every module twice (a module mapped
	 * twice), at most 3/4 full */
	uint64_t cap = 1024;
	while (cap < (uint64_t)P.tab.nfuncs * 3)
		cap <<= 1;
	if (!ct_atab_hash(&P.tab, cap))
		P.path[0] = 0;
}

/* ---- loading the plugin ------------------------------------------------------ */

static void fini(void)
{
	struct ct_tstate *t = &ct_self;
	if (!P.loaded || P.done)
		return;
	P.done = true; /* no callback from now on */
	__atomic_store_n(&ct_plug_fn_cb, NULL, __ATOMIC_RELEASE);
	if (P.fini) {
		t->busy++;
		t->plug_in = 1;
		P.fini();
		t->plug_in = 0;
		t->busy--;
	}
}

/* the process's constructor (start.c): dlopen the plugin and call its init,
 * its own calls untraced; then the calls of its functions take the C paths */
void ct_plug_load(void)
{
	if (!P.path[0] || P.loaded || ct_cfg.state != CT_RT_ACTIVE)
		return;
	struct ct_tstate *t = &ct_self;
	t->busy++;
	t->plug_in = 1;
	const char *why = NULL;
	void *h = dlopen(P.path, RTLD_NOW | RTLD_LOCAL);
	const unsigned *abi = h ? dlsym(h, "calltrace_plugin_abi") : NULL;
	if (!h)
		why = dlerror();
	else if (!abi)
		why = "no calltrace_plugin_abi (CALLTRACE_PLUGIN_DEFINE_ABI)";
	else if (*abi != CALLTRACE_PLUGIN_ABI)
		why = "built for another plugin ABI (include/calltrace/plugin.h)";
	if (!why) {
		P.init = (int (*)(const char *))dlsym(h, "calltrace_plugin_init");
		P.enter =
			(void (*)(const struct ct_plugin_call *))dlsym(h, "calltrace_plugin_enter");
		P.exit = (void (*)(const struct ct_plugin_call *))dlsym(h, "calltrace_plugin_exit");
		P.enter_fn = (void (*)(const void *))dlsym(h, "calltrace_plugin_enter_fn");
		P.fini = (void (*)(void))dlsym(h, "calltrace_plugin_fini");
		if (P.enter)
			P.enter_fn = NULL; /* (the struct's callback wins) */
		if (!P.enter && !P.exit && !P.enter_fn)
			why = "none of calltrace_plugin_enter, calltrace_plugin_exit and "
			      "calltrace_plugin_enter_fn";
	}
	/* the clock's rate, from record; a point of it against
	 * CLOCK_MONOTONIC now.  ns per tick in 32.32 (the clock is ns itself
	 * without the TSC) */
	P.tick0 = ct_clock();
	P.mono0 = ct_clock_mono();
	P.mult = ct_cfg.use_tsc || ct_cfg.tsc_synth
			 ? (uint64_t)(((unsigned __int128)1000000000u << 32) / P.hz)
			 : 1ull << 32;
	int rc = 0;
	if (!why && P.init && (rc = P.init(P.has_args ? P.args : "")) != 0)
		why = "its calltrace_plugin_init refused";
	t->plug_in = 0;
	t->busy--;
	if (why) {
		if (rc)
			ct_log("plugin %s: %s (returned %d); not used in this process", P.path, why,
			       rc);
		else
			ct_log("plugin %s: %s; not used in this process", P.path, why);
		return;
	}
	P.loaded = true;
	atexit(fini);
	/* every function: every byte of ct_sel_bloom (a limited plugin set
	 * its functions' bytes as their modules were mapped) */
	if (P.all)
		for (size_t i = 0; i < CT_SEL_BLOOM; i++)
			__atomic_store_n(&ct_sel_bloom[i], 1, __ATOMIC_RELAXED);
	if (P.exit)
		__atomic_store_n(&ct_sel_exits, true, __ATOMIC_RELEASE);
	/* every function, and only the function wanted: the trampolines call
	 * it themselves (no look-up, no frame kept) */
	if (P.all && P.enter_fn && !P.exit)
		__atomic_store_n(&ct_plug_fn_cb, P.enter_fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ct_sel_on, true, __ATOMIC_RELEASE);
	__atomic_store_n(&ct_plug_on, true, __ATOMIC_RELEASE);
	ct_hook_modes();
}

/* ---- the calls ----------------------------------------------------------------- */

/* the name of a hash value, or NULL */
static const char *name_of(uint32_t v)
{
	if (!v)
		return NULL;
	const char *s = P.names + P.fname[(v & ~SEL_BIT) - 1];
	return *s ? s : NULL;
}

static inline uint64_t to_ns(uint64_t ticks)
{
	int64_t d = (int64_t)(ticks - P.tick0);
	__int128 x = (__int128)d * (__int128)P.mult;
	return P.mono0 + (uint64_t)(int64_t)(x >> 32);
}

static inline uint64_t dur_ns(uint64_t ticks)
{
	return (uint64_t)((unsigned __int128)ticks * P.mult >> 32);
}

static struct ct_plug_frame *plug_frame(struct ct_tstate *t, uint32_t d)
{
	if (d < t->plug_cap)
		return &t->plug_fr[d];
	size_t old = (size_t)t->plug_cap * sizeof(struct ct_plug_frame);
	uint32_t ncap = t->plug_cap ? t->plug_cap : 256;
	while (ncap <= d)
		ncap *= 2;
	size_t len = (size_t)ncap * sizeof(struct ct_plug_frame);
	void *p = old ? mremap(t->plug_fr, old, len, MREMAP_MAYMOVE)
		      : mmap(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	t->plug_fr = p;
	t->plug_cap = ncap;
	return &t->plug_fr[d];
}

static void call(struct ct_tstate *t, void (*cb)(const struct ct_plugin_call *),
		 const struct ct_plugin_call *c)
{
	t->plug_in = 1;
	__asm__ volatile("" ::: "memory");
	cb(c);
	__asm__ volatile("" ::: "memory");
	t->plug_in = 0;
}

/* n words from the registers the trampolines just stored, a word at a
 * time: a memcpy's 16-byte loads would each span two of their 8-byte
 * stores, which the processor cannot forward (a stall of some 10 cycles
 * each, the most of what a callback's dispatch cost) */
static inline void copy_words(void *to, const void *from, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t v;
		memcpy(&v, (const char *)from + 8 * i, 8);
		__asm__("" : "+r"(v)); /* (kept a word: not merged into vectors) */
		memcpy((char *)to + 8 * i, &v, 8);
	}
}

/* the call of fn whose frame is stk[d] was entered at now (its ENTER
 * written; busy held); r: its registers, or NULL */
bool ct_plug_enter(struct ct_tstate *t, uint32_t d, uintptr_t fn, uint64_t now,
		   const struct ct_arch_regs *r)
{
	if (P.done || t->plug_in)
		return false;
	uint32_t v = lookup(fn);
	if (!(v & SEL_BIT) && !(P.all && !v))
		return false; /* not selected (P.all: every function, named or not) */
	bool want_exit = false;
	if (P.exit) {
		struct ct_plug_frame *pf = plug_frame(t, d);
		if (!pf)
			return false;
		pf->fn = fn;
		pf->cfa = t->stk[d].cfa;
		pf->t0 = now;
		want_exit = true;
	}
	if (!P.enter) {
		if (P.enter_fn)
			ct_plug_call_fn(t, P.enter_fn, fn);
		return want_exit;
	}
	/* (not cleared as a whole: the fields the flags do not name are
	 * left as they are, which saves a third of the callback's cost) */
	struct ct_plugin_call c;
	c.size = sizeof(c);
	c.flags = 0;
	c.fn = (const void *)fn;
	c.name = name_of(v);
	c.tid = t->tid;
	c.depth = d;
	c.enter_ns = to_ns(now);
	c.exit_ns = c.duration_ns = 0;
	if (r) {
		c.flags |= CT_PLUGIN_ARGS;
		copy_words(c.args, r->gp, 6);
		copy_words(c.fargs, r->fp, 8);
	}
	call(t, P.enter, &c);
	return want_exit;
}

unsigned ct_plug_tramp_enter(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_regs *r)
{
	uint32_t d = t->depth - 1;
	/* (t->last: the ENTER's time, which a buffer switch keeps) */
	if (ct_plug_enter(t, d, fn, t->last, r))
		t->stk[d].flags |= CT_FR_ATRET;
	return 0;
}

/* the call whose frame is stk[d] (fn) returns at now (busy held, before
 * its EXIT record); r: its return registers, or NULL */
void ct_plug_exit(struct ct_tstate *t, uint32_t d, uintptr_t fn, uint64_t now,
		  const struct ct_arch_retregs *r)
{
	if (!P.exit || P.done || t->plug_in || d >= t->plug_cap)
		return;
	struct ct_plug_frame *pf = &t->plug_fr[d];
	if (pf->fn != fn || pf->cfa != t->stk[d].cfa)
		return; /* not a selected call's frame */
	pf->fn = 0;
	uint32_t v = lookup(fn);
	struct ct_plugin_call c;
	c.size = sizeof(c);
	c.flags = CT_PLUGIN_EXIT;
	c.fn = (const void *)fn;
	c.name = name_of(v);
	c.tid = t->tid;
	c.depth = d;
	c.enter_ns = to_ns(pf->t0);
	c.exit_ns = to_ns(now);
	c.duration_ns = now > pf->t0 ? dur_ns(now - pf->t0) : 0;
	if (r) {
		c.flags |= CT_PLUGIN_RETVAL;
		c.ret = r->ret;
		c.ret2 = r->ret2;
		memcpy(&c.fret, &r->fret, sizeof(c.fret));
	}
	call(t, P.exit, &c);
}

void ct_plug_release(struct ct_tstate *t)
{
	if (t->plug_fr)
		munmap(t->plug_fr, (size_t)t->plug_cap * sizeof(struct ct_plug_frame));
	t->plug_fr = NULL;
	t->plug_cap = 0;
}

/* ---- what a plugin may ask (include/calltrace/plugin.h) -------------------- */

CT_EXPORT unsigned calltrace_plugin_stack(const void **fns, unsigned max)
{
	struct ct_tstate *t = &ct_self;
	unsigned n = 0;
	if (!t->stk)
		return 0;
	for (uint32_t i = t->depth; i > 0 && n < max; i--)
		fns[n++] = (const void *)t->stk[i - 1].fn;
	return n;
}

CT_EXPORT const char *calltrace_plugin_name(const void *fn)
{
	return name_of(lookup((uintptr_t)fn));
}
