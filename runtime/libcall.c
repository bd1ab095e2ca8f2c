/* SPDX-License-Identifier: MIT */
/*
 * Library calls: the calls a traced module makes through its PLT (or, built
 * with -fno-plt, through its GOT) into other shared objects.  Each GOT slot
 * of an imported function gets a 16-byte stub of its own (arch/<arch>/
 * lcstub.h), on x86-64
 *
 *     push TARGET(%rip)      ; the real function
 *     jmp *TRAMP(%rip)       ; ct_libcall_tramp (arch/x86_64/tramp.S)
 *
 * on aarch64 `ldr x16, TARGET; ldr x17, TRAMP; br x17` (arch/aarch64/
 * libcall.S), and the slot is pointed at the stub.  On x86-64
 * ct_libcall_tramp is the __fentry__ trampoline with the pushed target as
 * "the function" (kind 3); on aarch64 its own, x30 the return address
 * (kept in a slot of its frame while ct_hook_enter runs).  It writes
 * the ENTER record, puts the caller's return address on the shadow stack
 * and the return trampoline in its place, and jumps to the target.  The
 * return, longjmp, exceptions and threads are then the hooked front ends'
 * (runtime/hook.c).  See doc/libcall.md.
 *
 * Lazy slots (still pointing into the module's own PLT) are resolved here,
 * once, with dlvsym/dlsym of the symbol's version from the global scope;
 * a slot that does not resolve so is left alone.  Slots resolved already
 * (-z now, a call made before) keep their target.  GOT slots of functions
 * (R_X86_64_GLOB_DAT, R_AARCH64_GLOB_DAT: -fno-plt) are hooked only when the module's code
 * calls or jumps through them and never loads them (a function's address
 * taken must stay the function's).  Full RELRO: the page is made writable
 * only while the slot is written.
 *
 * Never hooked: a module that is not traced (no hook of any front end in
 * it), the runtime itself (calls from it), calls that resolve into the
 * calling module, and the functions whose behaviour depends on their
 * return address or on the stack they return on (dlsym, dlopen, vfork,
 * setjmp, __tls_get_addr, ...).  A slot bound to one of the runtime's
 * interposers (pthread_create, the exec family, dlopen, vfork, ...: see
 * interposed_shown) is hooked with a jump of its own to the interposer,
 * named as the libc function the interposer calls ("libcall-alias JUMP
 * LIBC NAME"), so the call shows as NAME@libc.so.6 and the interposer
 * still runs (dlopen's and vfork's interposers do not depend on their
 * return address: they call or make the real thing themselves).
 *
 * Each hooked slot's target gets a "libcall ADDR NAME" line in the .proc
 * file: the reader names ADDR as NAME@module (an IFUNC's implementation is
 * named for the function the program called).  A call is named by its
 * slot's symbol, not by its target: where two names the program calls have
 * one implementation (memcpy and memmove, strtol and strtoimax), the first
 * one seen keeps the target as its address and each other one gets a jump
 * of its own to it (`jmp *TARGET(%rip)`, after the stubs) that its stubs
 * push instead, as "the function": a "libcall-alias JUMP TARGET NAME"
 * line names it, and the runtime's address tables (filters, arguments,
 * plugins, injection) give it the target's entries.
 *
 * $CALLTRACE_LIBCALL: unset or "1": on; "0": off; else a file that `record`
 * wrote (its --libcall=/--no-libcall= patterns resolved to names): a line
 * "allow" or "deny", then one name per line.
 *
 * record --nest-libcall's choices (which untraced modules are left alone,
 * and the calls into the dynamic loader) are in libcall_nest.c;
 * libcall_priv.h holds what the two files share.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "addrtab.h"
#include "args.h"
#include "internal.h"
#include "libcall_priv.h"

void ct_libcall_tramp(void) CT_HIDDEN;

/* ---- the configuration -------------------------------------------------- */

static bool lc_off;
static bool lc_nest;          /* record --nest-libcall: the untraced modules' slots too */
static bool lc_allow;         /* the names are the only ones hooked (else: never) */
static const char **lc_names; /* sorted */
static size_t lc_nnames;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void load_names(const char *path)
{
	size_t len = 0;
	char *buf = ct_spec_load(path, "the library-call file", "no library call is recorded",
				 64u << 20, &len);
	if (!buf) {
		lc_off = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	lc_names = mmap(NULL, (n + 1) * sizeof(char *), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (lc_names == MAP_FAILED) {
		lc_names = NULL;
		lc_off = true;
		return;
	}
	char *line = buf;
	bool first = true;
	while (*line) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (first) {
			lc_allow = !strcmp(line, "allow");
			first = false;
		} else if (*line) {
			lc_names[lc_nnames++] = line;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	qsort(lc_names, lc_nnames, sizeof(*lc_names), cmp_name);
}

void ct_libcall_init(void)
{
	const char *v = ct_getenv(CT_ENV_LIBCALL);
	const char *count = ct_getenv(CT_ENV_COUNT);
	if (!CT_ARCH_LIBCALL) {
		lc_off = true; /* no trampoline for this architecture yet */
		return;
	}
	if (count && !strcmp(count, "1")) {
		lc_off = true; /* record --count counts the program's own calls only */
		return;
	}
	const char *nest = ct_getenv(CT_ENV_NEST_LIBCALL);
	lc_nest = nest && !strcmp(nest, "1");
	if (!v || !*v || !strcmp(v, "1"))
		return;
	if (!strcmp(v, "0")) {
		lc_off = true;
		return;
	}
	load_names(v);
}

/* never hooked, whatever the patterns say: what reads its return address
 * (dlsym's and dlopen's caller), returns twice or on another stack, runs
 * before or around everything, or is the TLS machinery */
static bool never(const char *n)
{
	static const char *const names[] = {
		"__libc_start_main",
		"__tls_get_addr",
		"dlsym",
		"dlvsym",
		"dlopen",
		"dlmopen",
		"dlclose",
		"dladdr",
		"dladdr1",
		"dlinfo",
		"vfork",
		"__vfork",
		"setjmp",
		"_setjmp",
		"__sigsetjmp",
		"sigsetjmp",
		"getcontext",
		"savectx",
		"swapcontext",
		"setcontext",
		"makecontext",
		"longjmp",
		"_longjmp",
		"siglongjmp",
		"__longjmp_chk",
		"pthread_exit",
		"__cxa_finalize",
		"clone",
		"clone3",
		"_Unwind_Resume",
		"__gmon_start__",
		"mcount",
		"_mcount",
		"__fentry__",
		"__monstartup",
		"monstartup",
		"_mcleanup",
		"moncontrol",
	};
	if (!strncmp(n, "_dl_", 4) || !strncmp(n, "__cyg_profile_", 14) ||
	    !strncmp(n, "_ITM_", 5) || !strncmp(n, "_Unwind_", 8) || !strncmp(n, "__calltrace", 11))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

/* the runtime's interposers (wrap.c, arch/<arch>/vfork.S) that a library
 * call may enter: a slot bound to one of them is hooked with the
 * interposer as the function called and libc's definition as the name's
 * (a "libcall-alias" line: named NAME@libc.so.6, the record-time
 * decisions libc's), so that the call shows as it would untraced while
 * the interposer still does its work.  Not those that return twice or
 * elsewhere (setjmp, longjmp, swapcontext, setcontext), read return
 * addresses (backtrace, the unwinder's), or may stop the thread's tracing
 * under its own frame (prctl, seccomp, syscall) */
static bool interposed_shown(const char *n)
{
	static const char *const names[] = {
		"pthread_create", "pthread_exit", "pthread_setname_np",
		"clone",          "vfork",        "execve",
		"execv",          "execvp",       "execvpe",
		"execl",          "execlp",       "execle",
		"fexecve",        "execveat",     "posix_spawn",
		"posix_spawnp",   "dlopen",       "dlclose",
		"munmap",         "mprotect",     "mremap",
		"sigaction",      "signal", /* (record --sample's, sample.c) */
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

static bool wanted(const char *n)
{
	if (never(n) && !interposed_shown(n))
		return false;
	if (!lc_names)
		return true;
	bool in = bsearch(&n, lc_names, lc_nnames, sizeof(*lc_names), cmp_name) != NULL;
	return in == lc_allow;
}

/* ---- modules waiting to be patched --------------------------------------- */

/* module_cb (modules.c) runs inside dl_iterate_phdr, which holds the loader's
 * lock: looking symbols up there could deadlock against a dlopen in
 * another thread, so the modules wait for ct_libcall_flush */
#define MAX_PENDING 512
static struct {
	uintptr_t bias;
	const ElfW(Phdr) * phdr;
	int phnum;
	bool traced; /* -fpatchable-function-entry sites were patched */
} pending[MAX_PENDING];
static int npending;

/* modules done (a rescan, a fork child, sees them again) */
#define MAX_DONE 1024
static uintptr_t done[MAX_DONE];
static int ndone;

/* the stub blocks, to know a slot hooked already */
#define MAX_BLOCKS 1024
static struct {
	uintptr_t lo, hi;
	const uintptr_t *targets;
	const uintptr_t *fns; /* what each stub pushes: its target, or an alias's jump */
	const char *names;    /* a copy: "name\0" each */
	size_t n, nameslen;
} blocks[MAX_BLOCKS];
static int nblocks;

/* the traced modules' ranges: a call into one of them is recorded by its
 * own hooks, never as a library call */
#define MAX_TRACED 1024
static struct {
	uintptr_t bias, lo, hi;
} traced_mods[MAX_TRACED];
static int ntraced;

void ct_libcall_note(uintptr_t bias, const void *phdr, int phnum, bool traced)
{
	if (lc_off || npending == MAX_PENDING)
		return;
	for (int i = 0; i < ndone; i++)
		if (done[i] == bias)
			return;
	pending[npending].bias = bias;
	pending[npending].phdr = phdr;
	pending[npending].phnum = phnum;
	pending[npending].traced = traced;
	npending++;
}

static void ifunc_forget(uintptr_t base);

void ct_libcall_forget(uintptr_t base)
{
	ifunc_forget(base);
	for (int i = 0; i < ndone; i++)
		if (done[i] == base)
			done[i--] = done[--ndone];
	for (int i = 0; i < ntraced; i++)
		if (traced_mods[i].bias == base)
			traced_mods[i--] = traced_mods[--ntraced];
}

/* ---- names: the function of each (target, name) ------------------------------ */

/* every (target, name) hooked, in a hash by target: the first name of a
 * target has the target as its function, the others their jumps */
struct lcname {
	uintptr_t target, fn;
	const char *name; /* in a block's copy of the names */
	uint32_t next;    /* 1 + the next entry of the same hash bucket, 0: none */
};
static struct lcname *lcn;
static uint32_t *lcn_head; /* 1 + the bucket's first entry */
static uint32_t nlcn, lcn_cap;

static uint32_t lcn_bucket(uintptr_t target)
{
	return (uint32_t)((target * 0x9e3779b97f4a7c15ull) >> 40) & (lcn_cap - 1);
}

/* the first n entries only, their chains made again */
static void lcn_truncate(uint32_t n)
{
	nlcn = n;
	memset(lcn_head, 0, lcn_cap * sizeof(*lcn_head));
	for (uint32_t i = 0; i < nlcn; i++) {
		uint32_t b = lcn_bucket(lcn[i].target);
		lcn[i].next = lcn_head[b];
		lcn_head[b] = i + 1;
	}
}

static bool lcn_grow(void)
{
	uint32_t cap = lcn_cap ? lcn_cap * 2 : 1024;
	struct lcname *e = ct_map_anon(cap * sizeof(*e));
	uint32_t *h = ct_map_anon(cap * sizeof(*h));
	if (!e || !h) {
		if (e)
			munmap(e, cap * sizeof(*e));
		if (h)
			munmap(h, cap * sizeof(*h));
		return false;
	}
	if (lcn) {
		memcpy(e, lcn, nlcn * sizeof(*e));
		munmap(lcn, lcn_cap * sizeof(*lcn));
		munmap(lcn_head, lcn_cap * sizeof(*lcn_head));
	}
	lcn = e;
	lcn_head = h;
	lcn_cap = cap;
	lcn_truncate(nlcn);
	return true;
}

/* the function a stub of name's slot pushes: the target, or name's jump
 * (thunk, made by the caller when this returns it) if another name has the
 * target or the call needs a jump of its own (jump: to an interposer, or
 * a name record decides apart from the target's other names); *known when
 * the pair was seen before (its lines written) */
static uintptr_t lcn_fn(uintptr_t target, const char *name, uintptr_t thunk, bool jump, bool *known)
{
	*known = false;
	bool other = false;
	if (lcn_cap) {
		for (uint32_t i = lcn_head[lcn_bucket(target)]; i; i = lcn[i - 1].next) {
			const struct lcname *e = &lcn[i - 1];
			if (e->target != target)
				continue;
			if (!strcmp(e->name, name)) {
				*known = true;
				return e->fn;
			}
			other = true;
		}
	}
	if (nlcn == lcn_cap && !lcn_grow())
		return jump ? thunk : target; /* (no room: named as the target's first name) */
	uintptr_t fn = other || jump ? thunk : target;
	uint32_t b = lcn_bucket(target);
	lcn[nlcn] = (struct lcname){target, fn, name, lcn_head[b]};
	lcn_head[b] = ++nlcn;
	return fn;
}

/* the line that names a hooked slot's function */
static void lc_line(uintptr_t fn, uintptr_t target, const char *name)
{
	if (fn == target)
		ct_proc_printf("libcall %lx %s", (unsigned long)target, name);
	else
		ct_proc_printf("libcall-alias %lx %lx %s", (unsigned long)fn, (unsigned long)target,
			       name);
}

/* ---- one module ------------------------------------------------------------- */

static uintptr_t dptr(const struct dyn *d, uintptr_t p)
{
	/* glibc relocates these in the dynamic section; the vDSO's are not */
	return p < d->bias ? p + d->bias : p;
}

bool ct_lc_read_dynamic(struct dyn *d)
{
	const ElfW(Dyn) *dyn = NULL;
	d->lo = UINTPTR_MAX;
	d->hi = 0;
	for (int i = 0; i < d->phnum; i++) {
		const ElfW(Phdr) *ph = &d->phdr[i];
		uintptr_t a = d->bias + ph->p_vaddr;
		if (ph->p_type == PT_LOAD) {
			if (a < d->lo)
				d->lo = a;
			if (a + ph->p_memsz > d->hi)
				d->hi = a + ph->p_memsz;
		} else if (ph->p_type == PT_DYNAMIC) {
			dyn = (const ElfW(Dyn) *)a;
		} else if (ph->p_type == PT_GNU_RELRO) {
			/* as the loader protects it: whole pages, the last
			 * partial one left writable */
			d->relro_lo = a & ~(uintptr_t)4095;
			d->relro_hi = (a + ph->p_memsz) & ~(uintptr_t)4095;
		}
	}
	if (!dyn)
		return false;
	size_t jmpsz = 0, relasz = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t v = dyn->d_un.d_ptr;
		switch (dyn->d_tag) {
		case DT_SYMTAB:
			d->sym = (const ElfW(Sym) *)dptr(d, v);
			break;
		case DT_STRTAB:
			d->str = (const char *)dptr(d, v);
			break;
		case DT_STRSZ:
			d->strsz = v;
			break;
		case DT_JMPREL:
			d->jmprel = (const ElfW(Rela) *)dptr(d, v);
			break;
		case DT_PLTRELSZ:
			jmpsz = v;
			break;
		case DT_PLTREL:
			if (v != DT_RELA)
				return false;
			break;
		case DT_RELA:
			d->rela = (const ElfW(Rela) *)dptr(d, v);
			break;
		case DT_RELASZ:
			relasz = v;
			break;
		case DT_VERSYM:
			d->versym = (const ElfW(Half) *)dptr(d, v);
			break;
		case DT_VERNEED:
			d->verneed = (const ElfW(Verneed) *)dptr(d, v);
			break;
		case DT_VERNEEDNUM:
			d->nverneed = v;
			break;
		case DT_GNU_HASH:
			d->gnuhash = (const uint32_t *)dptr(d, v);
			break;
		}
	}
	d->njmprel = d->jmprel ? jmpsz / sizeof(ElfW(Rela)) : 0;
	d->nrela = d->rela ? relasz / sizeof(ElfW(Rela)) : 0;
	return d->sym && d->str && d->strsz;
}

static const char *sym_name(const struct dyn *d, uint32_t si)
{
	uint32_t off = d->sym[si].st_name;
	if (off >= d->strsz || !memchr(d->str + off, 0, d->strsz - off))
		return NULL;
	return d->str + off;
}

/* the module's first defined symbol of that name and type (STT_*; one
 * name may have several versions: memcpy@GLIBC_2.2.5 a function,
 * memcpy@@GLIBC_2.14 an IFUNC), through its GNU hash table, or NULL */
const ElfW(Sym) * ct_lc_gnu_lookup(const struct dyn *d, const char *name, unsigned type)
{
	const uint32_t *h = d->gnuhash;
	if (!h || !h[0])
		return NULL;
	uint32_t nb = h[0], off = h[1], nbloom = h[2];
	const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(h + 4) + nbloom);
	const uint32_t *chain = buckets + nb;
	uint32_t hash = 5381;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		hash = hash * 33 + *p;
	uint32_t i = buckets[hash % nb];
	if (i < off)
		return NULL;
	for (;; i++) {
		uint32_t ch = chain[i - off];
		if ((ch | 1) == (hash | 1)) {
			const char *n = sym_name(d, i);
			const ElfW(Sym) *sy = &d->sym[i];
			if (n && !strcmp(n, name) && ELF64_ST_TYPE(sy->st_info) == type &&
			    sy->st_shndx != SHN_UNDEF)
				return sy;
		}
		if (ch & 1)
			return NULL;
	}
}

/* the version a symbol of the module needs (e.g. "GLIBC_2.2.5"), or NULL */
static const char *sym_version(const struct dyn *d, uint32_t si)
{
	if (!d->versym || !d->verneed)
		return NULL;
	ElfW(Half) want = d->versym[si] & 0x7fff;
	if (want < 2)
		return NULL;
	const ElfW(Verneed) *vn = d->verneed;
	for (size_t i = 0; i < d->nverneed; i++) {
		const ElfW(Vernaux) *va = (const ElfW(Vernaux) *)((const char *)vn + vn->vn_aux);
		for (unsigned k = 0; k < vn->vn_cnt; k++) {
			if (va->vna_other == want)
				return va->vna_name < d->strsz ? d->str + va->vna_name : NULL;
			if (!va->vna_next)
				break;
			va = (const ElfW(Vernaux) *)((const char *)va + va->vna_next);
		}
		if (!vn->vn_next)
			break;
		vn = (const ElfW(Verneed) *)((const char *)vn + vn->vn_next);
	}
	return NULL;
}

static bool is_hook_name(const char *n)
{
	return !strcmp(n, "__cyg_profile_func_enter") || !strcmp(n, "__fentry__") ||
	       !strcmp(n, "mcount") || !strcmp(n, "_mcount");
}

static bool in_runtime(uintptr_t a)
{
	static uintptr_t lo, hi;
	if (!hi) {
		Dl_info di;
		if (!dladdr((void *)ct_libcall_init, &di) ||
		    !ct_elf_extent(di.dli_fbase, false, &lo, &hi))
			return false;
	}
	return a >= lo && a < hi;
}

static bool in_stubs(uintptr_t a)
{
	for (int i = 0; i < nblocks; i++)
		if (a >= blocks[i].lo && a < blocks[i].hi)
			return true;
	return false;
}

#include "lcstub.h"

static void scan_got_uses(const struct dyn *d, struct gotuse *g, size_t n)
{
	qsort(g, n, sizeof(*g), cmp_gotuse);
	for (int i = 0; i < d->phnum; i++) {
		const ElfW(Phdr) *ph = &d->phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || ph->p_memsz < 8)
			continue;
		const uint8_t *lo = (const uint8_t *)(d->bias + ph->p_vaddr);
		ct_lc_scan_code(lo, lo + ph->p_filesz, g, n);
	}
}

struct cand {
	uintptr_t slot, target;
	uintptr_t dest; /* what the call runs: target, or the runtime's interposer */
	const char *name;
	bool apart;    /* record decides this name apart from the target's other
			* names (ct_filt_named): a jump of its own, ... */
	uint32_t fval; /* ... with these flags */
};

static void write_slot(const struct dyn *d, uintptr_t slot, uintptr_t v)
{
	bool ro = slot >= d->relro_lo && slot < d->relro_hi;
	uintptr_t page = slot & ~(uintptr_t)4095;
	if (ro && mprotect((void *)page, 4096, PROT_READ | PROT_WRITE) != 0)
		return;
	__atomic_store_n((uintptr_t *)slot, v, __ATOMIC_RELEASE);
	if (ro)
		mprotect((void *)page, 4096, PROT_READ);
}

static bool in_traced(uintptr_t a)
{
	for (int i = 0; i < ntraced; i++)
		if (a >= traced_mods[i].lo && a < traced_mods[i].hi)
			return true;
	return false;
}

/* does the module import a hook of a front end? */
static bool imports_hook(const struct dyn *d)
{
	for (size_t k = 0; k < d->njmprel + d->nrela; k++) {
		const ElfW(Rela) *r = k < d->njmprel ? &d->jmprel[k] : &d->rela[k - d->njmprel];
		uint32_t type = ELF64_R_TYPE(r->r_info), si = ELF64_R_SYM(r->r_info);
		if ((type != CT_LC_R_JUMP_SLOT && type != CT_LC_R_GLOB_DAT) || !si)
			continue;
		const char *n = sym_name(d, si);
		if (n && is_hook_name(n))
			return true;
	}
	return false;
}

static bool load_module(struct dyn *d, uintptr_t bias, const ElfW(Phdr) * phdr, int phnum)
{
	memset(d, 0, sizeof(*d));
	d->bias = bias;
	d->phdr = phdr;
	d->phnum = phnum;
	return ct_lc_read_dynamic(d) && !in_runtime(d->lo);
}

/* an IFUNC's slot holds the implementation its resolver chose (strlen ->
 * __strlen_avx2), while record's decisions (filters, -A, plugins,
 * --inject) are at the symbol's own address: that address when name is an
 * IFUNC of the module that holds target, else 0.  The module last looked
 * at is kept (a program's library calls go mostly to one libc), until
 * ct_libcall_forget drops it. */
static struct dyn ifunc_mod;
static bool ifunc_mod_ok;

static void ifunc_forget(uintptr_t base)
{
	if (ifunc_mod_ok && ifunc_mod.bias == base)
		ifunc_mod_ok = false;
}

static uintptr_t ifunc_symbol(uintptr_t target, const char *name)
{
	Dl_info info;
	if (!dladdr((void *)target, &info) || !info.dli_fbase)
		return 0;
	if (!ifunc_mod_ok || ifunc_mod.bias != (uintptr_t)info.dli_fbase) {
		const ElfW(Ehdr) *eh = info.dli_fbase;
		if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_type != ET_DYN)
			return 0;
		ifunc_mod_ok = load_module(&ifunc_mod, (uintptr_t)info.dli_fbase,
					   (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff),
					   eh->e_phnum);
		if (!ifunc_mod_ok)
			return 0;
	}
	const ElfW(Sym) *s = ct_lc_gnu_lookup(&ifunc_mod, name, STT_GNU_IFUNC);
	return s ? ifunc_mod.bias + s->st_value : 0;
}

static void patch_module(uintptr_t bias, const ElfW(Phdr) * phdr, int phnum)
{
	struct dyn d;
	if (!load_module(&d, bias, phdr, phnum))
		return;
	size_t nrel = d.njmprel + d.nrela;
	if (!nrel)
		return;
	struct cand *c = mmap(NULL, nrel * (sizeof(struct cand) + sizeof(struct gotuse)),
			      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return;
	struct gotuse *g = (struct gotuse *)(c + nrel);
	size_t nc = 0, ng = 0;
	for (size_t k = 0; k < nrel; k++) {
		const ElfW(Rela) *r = k < d.njmprel ? &d.jmprel[k] : &d.rela[k - d.njmprel];
		uint32_t type = ELF64_R_TYPE(r->r_info), si = ELF64_R_SYM(r->r_info);
		if ((type != CT_LC_R_JUMP_SLOT && type != CT_LC_R_GLOB_DAT) || !si)
			continue;
		const char *n = sym_name(&d, si);
		if (!n || !*n)
			continue;
		const ElfW(Sym) *s = &d.sym[si];
		unsigned st = ELF64_ST_TYPE(s->st_info);
		if ((s->st_shndx != SHN_UNDEF && !ct_lc_nest_loose) ||
		    (st != STT_FUNC && st != STT_GNU_IFUNC &&
		     (st != STT_NOTYPE || type != CT_LC_R_JUMP_SLOT)))
			continue;
		if (!wanted(n))
			continue;
		uintptr_t slot = bias + r->r_offset;
		if (slot < d.lo || slot + 8 > d.hi)
			continue;
		if (type == CT_LC_R_GLOB_DAT)
			g[ng++] = (struct gotuse){slot, 0};
		c[nc].slot = slot;
		c[nc].name = n;
		/* the version, through the target field until resolved */
		c[nc].target = (uintptr_t)sym_version(&d, si);
		nc++;
	}
	if (!nc)
		goto out;
	if (ng)
		scan_got_uses(&d, g, ng);
	size_t nh = 0;
	for (size_t i = 0; i < nc; i++) {
		uintptr_t v = __atomic_load_n((uintptr_t *)c[i].slot, __ATOMIC_ACQUIRE);
		const char *ver = (const char *)c[i].target;
		c[i].target = 0;
		if (ng) {
			struct gotuse key = {c[i].slot, 0},
				      *e = bsearch(&key, g, ng, sizeof(*g), cmp_gotuse);
			if (e && e->use != 1 && !(ct_lc_nest_loose && (e->use & 1)))
				continue; /* -fno-plt's slot: only when only called */
		}
		if (v >= d.lo && v < d.hi) {
			/* a lazy slot, into the module's own PLT: resolve it as
			 * the loader would, from the global scope */
			void *p = dlsym(RTLD_DEFAULT, c[i].name);
			/* the runtime's interposers come first and have no
			 * version, which any version accepts: the loader would
			 * bind the slot to them (see below) */
			if (ver && !in_runtime((uintptr_t)p)) {
				void *pv = dlvsym(RTLD_DEFAULT, c[i].name, ver);
				if (pv)
					p = pv;
			}
			v = (uintptr_t)p;
			if (v >= d.lo && v < d.hi && !ct_lc_nest_loose)
				continue; /* into the module itself */
		}
		if (!v || in_stubs(v) || in_traced(v))
			continue; /* a traced module's */
		if (ct_lc_nest_loose && ct_lc_in_ldso(v))
			continue; /* libc's calls of the loader's machinery */
		c[i].dest = v;
		if (in_runtime(v)) {
			/* an interposer: shown as libc's function (what the
			 * runtime's one calls) where it returns as the
			 * function would, else left alone */
			if (!interposed_shown(c[i].name))
				continue;
			v = (uintptr_t)dlsym(RTLD_NEXT, c[i].name);
			if (!v || in_runtime(v) || in_stubs(v) || in_traced(v))
				continue;
		} else if (never(c[i].name)) {
			continue; /* (dlopen, vfork, ... bound elsewhere) */
		}
		c[i].target = v;
		c[nh++] = c[i];
	}
	if (!nh || nblocks == MAX_BLOCKS)
		goto out;
	/* the stubs reach their words within CT_LC_BLOCK_MAX: the slots
	 * past that many are left alone */
	if (nh > (CT_LC_BLOCK_MAX - 8192) / 48)
		nh = (CT_LC_BLOCK_MAX - 8192) / 48;
	/* the stubs (16 bytes each: arch/<arch>/lcstub.h), the aliases'
	 * jumps (8), what the stubs give as the function, the targets, where the jumps go (the target,
	 * or an interposer), then the trampoline's address */
	size_t len = (nh * 48 + 8 + 4095) & ~(size_t)4095;
	uint8_t *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		goto out;
	size_t nlen = 0;
	for (size_t i = 0; i < nh; i++)
		nlen += strlen(c[i].name) + 1;
	char *names = mmap(NULL, nlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (names == MAP_FAILED) {
		munmap(b, len);
		goto out;
	}
	uint8_t *th = b + nh * 16;
	uintptr_t *fns = (uintptr_t *)(th + nh * 8);
	uintptr_t *tg = fns + nh;
	uintptr_t *dst = tg + nh;
	uintptr_t *tp = dst + nh;
	*tp = (uintptr_t)ct_libcall_tramp;
	char *nm = names;
	uint32_t nlcn0 = nlcn;
	/* (a bit per slot: its pair seen before, its lines written already) */
	for (size_t i = 0; i < nh; i++) {
		size_t l = strlen(c[i].name) + 1;
		memcpy(nm, c[i].name, l);
		c[i].name = nm;
		nm += l;
		uint8_t *s = b + i * 16, *j = th + i * 8;
		bool known;
		tg[i] = c[i].target;
		dst[i] = c[i].dest;
		/* a function record decides apart by name (strtol, strtoimax):
		 * each name's calls at a jump of its own */
		c[i].apart = ct_filt_named(c[i].target, c[i].name, &c[i].fval);
		fns[i] = lcn_fn(c[i].target, c[i].name, (uintptr_t)j,
				c[i].apart || c[i].dest != c[i].target, &known);
		c[i].slot |= known ? 0 : (uintptr_t)1 << 63;
		ct_lc_stub(s, &fns[i], tp);
		ct_lc_jump(j, &dst[i]); /* an alias's jump to its target (or interposer) */
	}
	if (mprotect(b, len, PROT_READ | PROT_EXEC) != 0) {
		if (lcn_cap)
			lcn_truncate(nlcn0); /* (they name the jumps and names unmapped here) */
		munmap(b, len);
		munmap(names, nlen);
		goto out;
	}
	__builtin___clear_cache((char *)b, (char *)b + len); /* (nothing on x86-64) */
	blocks[nblocks].lo = (uintptr_t)b;
	blocks[nblocks].hi = (uintptr_t)b + len;
	blocks[nblocks].targets = tg;
	blocks[nblocks].fns = fns;
	blocks[nblocks].names = names;
	blocks[nblocks].n = nh;
	blocks[nblocks].nameslen = nlen;
	nblocks++;
	for (size_t i = 0; i < nh; i++) {
		bool first = c[i].slot >> 63;
		c[i].slot &= ~((uintptr_t)1 << 63);
		/* the entries in the address tables of the name's own IFUNC
		 * symbol, else an alias's target's */
		uintptr_t from = first ? ifunc_symbol(tg[i], c[i].name) : 0;
		if (first && !from && fns[i] != tg[i])
			from = tg[i];
		bool apart = first && c[i].apart;
		if (apart && fns[i] != tg[i])
			ct_filt_set(fns[i], c[i].fval);
		if (from && from != fns[i]) {
			if (!apart)
				ct_filt_alias(fns[i], from);
			ct_args_alias(fns[i], from);
			ct_inj_alias(fns[i], from);
			if (ct_sel_bloom[ct_sel_bloom_of(from)])
				ct_sel_mark(fns[i]);
		}
		if (first) {
			ct_plug_libcall(fns[i], tg[i], c[i].name);
			lc_line(fns[i], tg[i], c[i].name);
		}
		write_slot(&d, c[i].slot, (uintptr_t)(b + i * 16));
	}
out:
	munmap(c, nrel * (sizeof(struct cand) + sizeof(struct gotuse)));
}

/* ---- record --nest-libcall ---------------------------------------------------- */

/* with --nest-libcall: every module's slots, the traced modules' and the
 * libraries' alike.  What libc and the loader do for the runtime while it
 * hooks them (dlsym's error text, qsort's buffer: malloc through libc's
 * own slot, hooked a moment before) is not the program's: the thread
 * holds busy with plug_in set meanwhile, so that such calls take the
 * hook's untraced path, as a plugin's calls do (hook.c, nested.c) */
static void nest_flush(void)
{
	struct ct_tstate *t = &ct_self;
	uint32_t plug_in = t->plug_in;
	t->busy++;
	t->plug_in = 1;
	__asm__ volatile("" ::: "memory");
	for (int i = 0; i < npending; i++) {
		if (!pending[i].traced &&
		    ct_lc_nest_skip(pending[i].bias, pending[i].phdr, pending[i].phnum))
			continue;
		ct_lc_nest_loose = !pending[i].traced;
		patch_module(pending[i].bias, pending[i].phdr, pending[i].phnum);
		ct_lc_nest_loose = false;
	}
	npending = 0;
	__asm__ volatile("" ::: "memory");
	t->plug_in = plug_in;
	t->busy--;
}

/* after dl_iterate_phdr, with modules.c's module lock held */
void ct_libcall_flush(void)
{
	/* which modules are traced, first: calls into them are not library
	 * calls, whatever the order the modules come in */
	for (int i = 0; i < npending; i++) {
		struct dyn d;
		if (ndone < MAX_DONE)
			done[ndone++] = pending[i].bias;
		bool tr = load_module(&d, pending[i].bias, pending[i].phdr, pending[i].phnum) &&
			  (pending[i].traced || imports_hook(&d));
		pending[i].traced = tr;
		if (tr && ntraced < MAX_TRACED) {
			traced_mods[ntraced].bias = pending[i].bias;
			traced_mods[ntraced].lo = d.lo;
			traced_mods[ntraced].hi = d.hi;
			ntraced++;
		}
	}
	if (lc_nest) {
		nest_flush();
		return;
	}
	for (int i = 0; i < npending; i++)
		if (pending[i].traced)
			patch_module(pending[i].bias, pending[i].phdr, pending[i].phnum);
	npending = 0;
}

/* a new .proc file (a fork child): the slots hooked before, said again */
void ct_libcall_lines(void)
{
	for (int k = 0; k < nblocks; k++) {
		const char *n = blocks[k].names;
		for (size_t i = 0; i < blocks[k].n; i++) {
			lc_line(blocks[k].fns[i], blocks[k].targets[i], n);
			n += strlen(n) + 1;
		}
	}
}
