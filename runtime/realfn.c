/* SPDX-License-Identifier: MIT */
/*
 * The real function, wherever it is (runtime/realfn.h).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>

#include "internal.h"
#include "realfn.h"

/*
 * RTLD_NEXT searches the global scope after this library.  libc is there
 * (preloaded, this library brings it; linked, a program lists libc last),
 * so the functions of libc wrapped in this file are always found so.  Not
 * always the C++ runtime's and the unwinder's: a library loaded with
 * RTLD_LOCAL has its dependencies in a scope of its own.  A C++ library
 * that a C program dlopens (or Python through ctypes, or inject.c its
 * thrower) has libstdc++ and libgcc_s there only, yet its calls of
 * _Unwind_RaiseException and __cxa_begin_catch come here, the global
 * definitions, and RTLD_NEXT finds none.  So the definition is looked for,
 * in order: after us in the global scope; in the caller's scope (its
 * module and what that needs, as dlsym on its handle searches: what it
 * would have bound to without us); in every loaded module's.  Never ours,
 * never NULL unless nothing defines it.
 *
 * Found, it is kept until the next dlclose (which may unload it); not
 * found, it is looked for again at the next call.
 */
static unsigned real_gen = 1; /* bumped at each dlclose */
static void *(*real_dlopen)(const char *, int);
static int (*real_dlclose)(void *);

/* the definition in the scope of the module holding addr, or NULL.  Not
 * the program's (its scope is the global one; its name, "" in the link
 * map, would be argv[0] in dladdr's answer) */
static void *in_scope_of(const void *addr, const char *name, const void *self_base)
{
	Dl_info di;
	struct link_map *lm = NULL;
	if (!addr || !dladdr1(addr, &di, (void **)&lm, RTLD_DL_LINKMAP) || !lm || !lm->l_name ||
	    !lm->l_name[0] || di.dli_fbase == self_base)
		return NULL;
	void *h = real_dlopen(lm->l_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	void *f = dlsym(h, name);
	real_dlclose(h);
	/* (a scope that holds this library: a program linked with it) */
	if (f && dladdr(f, &di) && di.dli_fbase == self_base)
		f = NULL;
	return f;
}

#define REAL_MODS 512
struct mods {
	const void *at[REAL_MODS];
	unsigned n;
};

static int mod_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct mods *m = data;
	if (m->n < REAL_MODS)
		m->at[m->n++] = info->dlpi_phdr; /* (mapped within the module) */
	return 0;
}

void *ct_real_find(struct real *r, const void *caller)
{
	unsigned gen = __atomic_load_n(&real_gen, __ATOMIC_ACQUIRE);
	void *f = __atomic_load_n(&r->fn, __ATOMIC_ACQUIRE);
	if (likely(f && __atomic_load_n(&r->gen, __ATOMIC_RELAXED) == gen))
		return f;
	f = dlsym(RTLD_NEXT, r->name);
	if (!f) {
		if (!real_dlopen) {
			real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
			__atomic_store_n(&real_dlopen,
					 (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen"),
					 __ATOMIC_RELEASE);
		}
		Dl_info self;
		if (!real_dlopen || !real_dlclose || !dladdr((void *)ct_real_find, &self))
			return NULL;
		f = in_scope_of(caller, r->name, self.dli_fbase);
		if (!f) {
			struct mods m = {.n = 0};
			/* (dlopen is called outside dl_iterate_phdr's lock) */
			dl_iterate_phdr(mod_cb, &m);
			for (unsigned i = 0; !f && i < m.n; i++)
				f = in_scope_of(m.at[i], r->name, self.dli_fbase);
		}
		if (!f)
			return NULL;
	}
	__atomic_store_n(&r->gen, gen, __ATOMIC_RELAXED);
	__atomic_store_n(&r->fn, f, __ATOMIC_RELEASE);
	return f;
}

/* the real function or, when nothing defines it, NULL after one line */
void *ct_real_or_say(struct real *r, const void *caller)
{
	void *f = ct_real_find(r, caller);
	if (!f && !__atomic_exchange_n(&r->said, true, __ATOMIC_RELAXED))
		ct_log("no definition of %s to call but the runtime's own", r->name);
	return f;
}

/* a module may have been unloaded: every definition is looked for again */
void ct_real_forget(void)
{
	__atomic_add_fetch(&real_gen, 1, __ATOMIC_RELEASE);
}
