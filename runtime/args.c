/* SPDX-License-Identifier: MIT */
/*
 * Argument and return-value capture (runtime/args.h, doc/args.md).
 *
 * At start-up the spec file named by $CALLTRACE_ARGS (written by `record`
 * from -A/-R/-a) is loaded: the capture operations of each spec, and per
 * module (build-id, path) the functions' offsets and spec indexes.  When a
 * module appears (start-up, dlopen) its functions go into a hash from
 * runtime address to spec index, sized once for every function of the file
 * so it never grows: lookups run lock-free while dlopen inserts.
 *
 * The hot path is a hash lookup, register copies into a record on the
 * stack, and one ct_put_words.  Strings (and stack structs beyond the
 * caller's frame) are copied directly when the memory is known to be
 * readable (see "reading the program's memory" below), else with
 * process_vm_readv on the own process: a bad pointer makes the system call
 * fail with EFAULT, never the program fault, and both are
 * async-signal-safe.
 */
#include <fcntl.h>
#include <elf.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "args.h"
#include "calltrace/specfile.h"
#include "internal.h"

bool ct_args_enabled;
struct ct_args_fast *ct_args_fastv;
uint64_t *ct_args_keys;
uint32_t *ct_args_vals;
uint64_t ct_args_mask;
/* bumped (by 1 << 48, above every user-space address) whenever a module's
 * functions enter or leave the hash: the remembered look-ups (the
 * trampolines' args_fn, last_entry below) are keyed by address | this */
uint64_t ct_args_gen_key;

enum { OP_GP, OP_XMM, OP_STACK, OP_RET, OP_CFA };
enum { OP_STR_C = 1, OP_STR_STD = 2 }; /* struct op's str */

struct op {
	uint8_t kind;
	uint8_t reg;
	uint8_t str;    /* OP_STR_C: the value points to a C string; OP_STR_STD:
			 * to a libstdc++ std::string (pointer, length) */
	uint8_t narrow; /* one payload word (a value of at most 32 bits) */
	uint8_t slot;   /* registers: index of the u64 in struct ct_arch_regs
			 * (reg_slot) or ct_arch_retregs */
	uint8_t pad[3];
	uint16_t size;  /* OP_STACK, OP_CFA: bytes */
	uint16_t words; /* OP_STACK, OP_CFA: payload words (size rounded up to 8 bytes) */
	uint32_t off;   /* OP_STACK: from the entry sp; OP_CFA: an int32_t
			 * from the CFA (aarch64 -pg: the frame's parameters) */
};

/* the slot (u64 index) in struct ct_arch_regs of a spec file's register
 * (calltrace/specfile.h), -1 when this architecture has no such one:
 * x86-64's rdi..r9 and xmm0..7; aarch64's x0..x7, v0..v7 and the
 * callee-saved x19..x28 and d8..d15 (-pg's parameters, DWARF's) */
static int reg_slot(unsigned kind, unsigned reg)
{
	const struct ct_arch_regs *z = NULL;
	if (kind == CT_AL_GP && reg < sizeof(z->gp) / 8)
		return (int)(offsetof(struct ct_arch_regs, gp) / 8 + reg);
	if (kind == CT_AL_XMM && reg < sizeof(z->fp) / 8)
		return (int)(offsetof(struct ct_arch_regs, fp) / 8 + reg);
#ifdef CT_REGS_CS
	if (kind == CT_AL_GP && reg >= CT_SF_GP_CS_LO && reg <= CT_SF_GP_CS_HI)
		return (int)(offsetof(struct ct_arch_regs, cs) / 8 + reg - CT_SF_GP_CS_LO);
	if (kind == CT_AL_XMM && reg >= 8 && reg < 8 + sizeof(z->fcs) / 8)
		return (int)(offsetof(struct ct_arch_regs, fcs) / 8 + reg - 8);
#endif
	return -1;
}

struct spec {
	uint32_t op0, nentry; /* ops[op0 .. op0 + nentry) */
	uint32_t rop0, nret;
	uint32_t wentry, wret; /* payload words when fixed (registers only), else 0 */
#ifdef CT_REGS_CFA
	uint32_t unplaced; /* aarch64 -pg: parameters without a place at
			    * _mcount ("a -" lines), shown as unknown: an
			    * empty ARGS record says so when none has one */
#endif
};

struct func {
	uint64_t off;
	uint32_t spec;
};

struct module {
	char *buildid; /* NULL when "-" */
	char *path;
	uint32_t f0, nf; /* funcs[f0 .. f0 + nf) */
};

#define MAX_ATTACHED 1024
struct attached {
	uintptr_t base;
	uint32_t mod;
};

static struct {
	char *text; /* the file, NUL-terminated */
	size_t text_len;
	struct op *ops;
	uint32_t nops;
	struct spec *specs;
	uint32_t nspecs;
	struct func *funcs;
	uint32_t nfuncs;
	struct module *mods;
	uint32_t nmods;
	unsigned strmax;
	/* address -> spec index + 1 (0: empty); key 1 is a deleted slot */
	uint64_t *keys;
	uint32_t *vals;
	uint64_t mask;
	struct attached att[MAX_ATTACHED];
	uint32_t natt;
} A;

#define TOMB 1u

static inline uint64_t hash(uint64_t a)
{
	return (a * 0x9e3779b97f4a7c15ull) >> 20;
}

static inline int64_t lookup(uintptr_t fn)
{
	uint64_t i = hash(fn) & A.mask;
	for (;;) {
		uint64_t k = __atomic_load_n(&A.keys[i], __ATOMIC_ACQUIRE);
		if (likely(k == fn))
			return (int64_t)A.vals[i];
		if (k == 0)
			return -1;
		i = (i + 1) & A.mask;
	}
}

static void insert(uint64_t a, uint32_t spec)
{
	uint64_t i = hash(a) & A.mask;
	for (;;) {
		uint64_t k = A.keys[i];
		if (k == a) {
			A.vals[i] = spec;
			return;
		}
		if (k == 0 || k == TOMB) {
			A.vals[i] = spec;
			__atomic_store_n(&A.keys[i], a, __ATOMIC_RELEASE);
			return;
		}
		i = (i + 1) & A.mask;
	}
}

static void erase(uint64_t a)
{
	uint64_t i = hash(a) & A.mask;
	for (;;) {
		uint64_t k = A.keys[i];
		if (k == a) {
			__atomic_store_n(&A.keys[i], TOMB, __ATOMIC_RELEASE);
			return;
		}
		if (k == 0)
			return;
		i = (i + 1) & A.mask;
	}
}

void ct_args_alias(uintptr_t alias, uintptr_t fn)
{
	int64_t i = ct_args_enabled && A.keys ? lookup(fn) : -1;
	if (i >= 0) {
		insert(alias, (uint32_t)i);
		__atomic_add_fetch(&ct_args_gen_key, 1ull << 48, __ATOMIC_RELEASE);
	}
}

/* ---- reading the program's memory ------------------------------------ */

/*
 * A string argument is a pointer the program hands a function: it may be
 * NULL, dangling, unmapped, PROT_NONE.  Reading it must never make the
 * program fault, and must not install signal handlers (the program's are
 * its own).  A system call per value (process_vm_readv, which fails with
 * EFAULT) is safe but costs a microsecond or more; so memory the runtime
 * knows to be readable is read directly, and only the rest goes through
 * the system call.  Known readable, without a system call:
 *
 *  - the brk heap, [its start, glibc's current break): malloc's main arena.
 *    The break is glibc's own variable (__curbrk), which sbrk/brk keep,
 *    also when malloc trims the heap;
 *  - the main thread's stack: the [stack] mapping as it was at start-up
 *    (a stack mapping only grows);
 *  - the PT_LOAD segments of every loaded module (string literals, globals):
 *    added when the module map sees a module, removed when it is gone; a
 *    dlclose in progress turns them off until the map is read again.
 *
 * What could take a page of those away behind the runtime's back is the
 * program's own munmap, mprotect (without PROT_READ) or mremap on them:
 * those are interposed (wrap.c), and such a call turns the direct reads
 * off for good (ct_args_unmap), as does any such call made before
 * start-up, when the ranges were not known yet.  Thread stacks, other arenas and mmap'd
 * memory are not tracked: the system call reads them.
 */
extern void *__curbrk __attribute__((weak)); /* glibc: the current break */

#define MAX_SEGS 2048
struct seg {
	uintptr_t lo, hi; /* hi 0: a free slot */
	uintptr_t base;   /* the module's load address */
};
static struct {
	uintptr_t heap_lo; /* 0: not known */
	uintptr_t stack_lo, stack_hi;
	uint32_t off;     /* direct reads turned off for good */
	uint32_t early;   /* memory taken away before ct_args_init */
	bool ready;       /* ct_args_init has run */
	uint32_t closing; /* dlclose calls in progress */
	uint32_t gen;     /* odd while segs change (seqlock) */
	uint32_t nsegs;   /* slots in use or freed, at most MAX_SEGS */
	struct seg segs[MAX_SEGS];
} R;

/* the end of the range known readable that holds p, or 0 */
static uintptr_t known_end(uintptr_t p)
{
	if (unlikely(__atomic_load_n(&R.off, __ATOMIC_RELAXED)))
		return 0;
	if (p >= R.heap_lo && R.heap_lo && &__curbrk) {
		uintptr_t brk = (uintptr_t)__atomic_load_n(&__curbrk, __ATOMIC_RELAXED);
		if (p < brk)
			return brk;
	}
	if (p >= R.stack_lo && p < R.stack_hi)
		return R.stack_hi;
	uint32_t g = __atomic_load_n(&R.gen, __ATOMIC_ACQUIRE);
	if ((g & 1) || __atomic_load_n(&R.closing, __ATOMIC_ACQUIRE))
		return 0;
	uintptr_t end = 0;
	uint32_t n = __atomic_load_n(&R.nsegs, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < n; i++) {
		uintptr_t hi = __atomic_load_n(&R.segs[i].hi, __ATOMIC_ACQUIRE);
		if (p < hi && p >= __atomic_load_n(&R.segs[i].lo, __ATOMIC_RELAXED)) {
			end = hi;
			break;
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&R.gen, __ATOMIC_RELAXED) != g)
		return 0;
	return end;
}

/* copy n bytes at src; returns how many could be read (from the start) */
static size_t read_mem(void *dst, uintptr_t src, size_t n)
{
	uintptr_t end = known_end(src);
	if (likely(end && end - src >= n)) {
		memcpy(dst, (const void *)src, n);
		return n;
	}
	struct iovec l = {dst, n}, r = {(void *)src, n};
	ssize_t got = process_vm_readv(ct_cfg.pid, &l, 1, &r, 1, 0);
	return got > 0 ? (size_t)got : 0;
}

/* the C string at p, at most max bytes, into dst; returns its length;
 * *flags CT_ARGS_STR_BAD when nothing could be read, CT_ARGS_STR_TRUNC
 * when no NUL was found (at the bound, or before memory that cannot be
 * read) */
static size_t read_str(char *dst, uintptr_t p, size_t max, uint32_t *flags)
{
	size_t done = 0;
	uintptr_t end = known_end(p);
	if (likely(end)) {
		size_t k = end - p < max ? (size_t)(end - p) : max;
		/* strnlen reads aligned words: never past the page of p + k - 1,
		 * which is mapped */
		size_t len = strnlen((const char *)p, k);
		memcpy(dst, (const void *)p, len);
		if (len < k)
			return len;
		if (k == max) {
			*flags = CT_ARGS_STR_TRUNC;
			return len;
		}
		done = k; /* the range ends before the string or the bound */
	}
	/* the system call, page by page: a string that ends before an
	 * unmapped page is still read */
	uintptr_t q = p + done;
	size_t rest = max - done;
	struct iovec local = {dst + done, rest}, remote[2];
	size_t first = 4096 - (q & 4095);
	int n = 1;
	remote[0].iov_base = (void *)q;
	if (first >= rest) {
		remote[0].iov_len = rest;
	} else {
		remote[0].iov_len = first;
		remote[1].iov_base = (void *)(q + first);
		remote[1].iov_len = rest - first;
		n = 2;
	}
	ssize_t r = process_vm_readv(ct_cfg.pid, &local, 1, remote, (unsigned long)n, 0);
	if (r <= 0) {
		*flags = done ? CT_ARGS_STR_TRUNC : CT_ARGS_STR_BAD;
		return done;
	}
	const char *z = memchr(dst + done, 0, (size_t)r);
	if (z)
		return (size_t)(z - dst);
	*flags = CT_ARGS_STR_TRUNC;
	return done + (size_t)r;
}

void ct_args_segments(uintptr_t base, const void *phdr, unsigned phnum, bool added)
{
	if (!ct_args_enabled)
		return;
	/* writers hold the module map's lock: one at a time */
	__atomic_add_fetch(&R.gen, 1, __ATOMIC_ACQ_REL);
	if (!added) {
		for (uint32_t i = 0; i < R.nsegs; i++)
			if (R.segs[i].hi && R.segs[i].base == base)
				__atomic_store_n(&R.segs[i].hi, 0, __ATOMIC_RELEASE);
	} else {
		const ElfW(Phdr) *ph = phdr;
		uint32_t slot = 0;
		for (unsigned k = 0; k < phnum; k++) {
			if (ph[k].p_type != PT_LOAD || !(ph[k].p_flags & PF_R) || !ph[k].p_memsz)
				continue;
			uintptr_t lo = (base + ph[k].p_vaddr) & ~(uintptr_t)4095;
			uintptr_t hi = base + ph[k].p_vaddr + ph[k].p_memsz;
			bool known = false; /* a forked child reads its map again */
			for (uint32_t i = 0; i < R.nsegs && !known; i++)
				known = R.segs[i].hi == hi && R.segs[i].lo == lo;
			if (known)
				continue;
			while (slot < R.nsegs && R.segs[slot].hi)
				slot++;
			if (slot == MAX_SEGS)
				break;
			struct seg *sg = &R.segs[slot];
			sg->base = base;
			sg->lo = lo;
			__atomic_store_n(&sg->hi, hi, __ATOMIC_RELEASE);
			if (slot == R.nsegs)
				__atomic_store_n(&R.nsegs, slot + 1, __ATOMIC_RELEASE);
		}
	}
	__atomic_add_fetch(&R.gen, 1, __ATOMIC_ACQ_REL);
}

void ct_args_dlclose(bool begin)
{
	__atomic_add_fetch(&R.closing, begin ? 1u : -1u, __ATOMIC_ACQ_REL);
}

void ct_args_unmap(uintptr_t a, size_t len)
{
	if (!ct_args_enabled) {
		/* before start-up no range is known yet: whatever it was, the
		 * direct reads will not be trusted */
		if (!R.ready && len)
			__atomic_store_n(&R.early, 1, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_load_n(&R.off, __ATOMIC_RELAXED) || !len)
		return;
	uintptr_t b = a + len;
	bool hit = false;
	if (R.heap_lo && &__curbrk && a < (uintptr_t)__atomic_load_n(&__curbrk, __ATOMIC_RELAXED) &&
	    b > R.heap_lo)
		hit = true;
	if (a < R.stack_hi && b > R.stack_lo)
		hit = true;
	uint32_t n = __atomic_load_n(&R.nsegs, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < n && !hit; i++) {
		uintptr_t hi = __atomic_load_n(&R.segs[i].hi, __ATOMIC_ACQUIRE);
		if (hi && a < hi && b > R.segs[i].lo)
			hit = true;
	}
	if (hit)
		__atomic_store_n(&R.off, 1, __ATOMIC_RELEASE);
}

/* the brk heap's start and the main thread's stack, from /proc/self/maps
 * (start-up: not on a hot path) */
static void find_ranges(void)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[8192];
	size_t have = 0;
	bool heap_bad = false;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			char *end;
			uintptr_t lo = strtoul(line, &end, 16), hi = 0;
			if (*end == '-')
				hi = strtoul(end + 1, &end, 16);
			size_t ll = (size_t)(nl - line);
			bool readable = hi > lo && end[0] == ' ' && end[1] == 'r';
			if (readable && ll >= 8 && !strcmp(nl - 8, " [stack]")) {
				R.stack_lo = lo;
				R.stack_hi = hi;
			} else if (ll >= 7 && !strcmp(nl - 7, " [heap]")) {
				/* a part of it not readable (the program's own
				 * mprotect): only what grows from now on */
				if (!readable)
					heap_bad = true;
				else if (!R.heap_lo)
					R.heap_lo = lo;
			}
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0; /* a line this long is none we look for */
	}
	close(fd);
	if (heap_bad)
		R.heap_lo = 0;
	if (!R.heap_lo && &__curbrk) {
		/* no heap yet: it starts at the break */
		void *b = sbrk(0);
		if (b != (void *)-1)
			R.heap_lo = (uintptr_t)b;
	}
}

/* ---- capture ---------------------------------------------------------- */

/* copy the string at p into out (at most A.strmax bytes, then the length
 * word before it); returns the payload words used after the pointer */
static unsigned copy_str(uint32_t *w, uint64_t p)
{
	unsigned max = A.strmax;
	char *dst = (char *)(w + 1);
	size_t got = 0;
	uint32_t flags = 0;
	if (p && max)
		got = read_str(dst, p, max, &flags);
	/* zero the padding: the reader shows bytes up to the length only, but
	 * nothing of the stack should leak into the trace */
	for (size_t i = got; i & 3; i++)
		dst[i] = 0;
	w[0] = (uint32_t)got | flags;
	return 1 + (unsigned)((got + 3) / 4);
}

/* the text of the libstdc++ std::string at p (its data pointer, then its
 * length): at most A.strmax bytes, as copy_str writes them */
static unsigned copy_stdstr(uint32_t *w, uint64_t p)
{
	unsigned max = A.strmax;
	char *dst = (char *)(w + 1);
	uint64_t rep[2];
	size_t got = 0;
	uint32_t flags = 0;
	if (!p) {
		/* nothing: printed as NULL */
	} else if (read_mem(rep, p, sizeof(rep)) != sizeof(rep)) {
		flags = CT_ARGS_STR_BAD;
	} else {
		size_t want = rep[1] < max ? (size_t)rep[1] : max;
		if (rep[1] > max)
			flags = CT_ARGS_STR_TRUNC;
		if (want && read_mem(dst, rep[0], want) != want)
			flags = CT_ARGS_STR_BAD, want = 0;
		got = want;
	}
	for (size_t i = got; i & 3; i++)
		dst[i] = 0;
	w[0] = (uint32_t)got | flags;
	return 1 + (unsigned)((got + 3) / 4);
}

static unsigned copy_text(uint32_t *w, const struct op *o, uint64_t p)
{
	return o->str == OP_STR_STD ? copy_stdstr(w, p) : copy_str(w, p);
}

static unsigned copy_stack(uint32_t *w, const struct op *o, uint64_t sp)
{
	const char *src = (const char *)(uintptr_t)(sp + o->off);
	char *dst = (char *)w;
	size_t n = o->size;
	/* the padding to eight bytes: the last eightbyte zeroed first (one
	 * store), the value over it */
	if (o->words)
		__builtin_memset(dst + (size_t)o->words * 4 - 8, 0, 8);
	if (o->off + n <= 4096) {
		/* the caller's frame: mapped.  Mostly one eightbyte (an
		 * argument after the sixth): no call for it */
		if (n == 8)
			__builtin_memcpy(dst, src, 8);
		else
			memcpy(dst, src, n);
	} else if (read_mem(dst, (uintptr_t)src, n) != n) {
		memset(dst, 0, n);
	}
	return o->words;
}

#ifdef CT_REGS_CFA
/* aarch64 -pg: a parameter in the traced function's frame, below its CFA
 * (DW_OP_fbreg): the frame is live, mapped and the thread's own */
static unsigned copy_frame(uint32_t *w, const struct op *o, uint64_t cfa)
{
	uintptr_t src = (uintptr_t)(cfa + (uint64_t)(int64_t)(int32_t)o->off);
	char *dst = (char *)w;
	if (o->words)
		__builtin_memset(dst + (size_t)o->words * 4 - 8, 0, 8);
	if (read_mem(dst, src, o->size) != o->size)
		memset(dst, 0, o->size);
	return o->words;
}
#endif

static void capture(struct ct_tstate *t, unsigned type, uint32_t idx, const struct op *o,
		    uint32_t n, const struct ct_arch_regs *r, const struct ct_arch_retregs *rr)
{
	uint32_t w[1 + CT_ARGS_MAX_WORDS + 4];
	unsigned k = 1;
	for (uint32_t i = 0; i < n; i++, o++) {
		uint64_t v;
		switch (o->kind) {
#ifndef CT_REGS_CFA
		case OP_GP:
			v = r->gp[o->reg];
			break;
		case OP_XMM:
			v = r->fp[o->reg];
			break;
#endif
		case OP_RET:
			v = o->reg == 0   ? rr->ret
			    : o->reg == 1 ? rr->ret2
			    : o->reg == 2 ? rr->fret
					  : rr->fret2;
			break;
#ifdef CT_REGS_CFA
		case OP_CFA: {
			unsigned m = copy_frame(w + k, o, r->cfa);
			if (o->str)
				v = (uint64_t)w[k] | (uint64_t)w[k + 1] << 32;
			k += m;
			if (o->str)
				k += copy_text(w + k, o, v);
			continue;
		}
		case OP_GP:
		case OP_XMM:
			/* aarch64: the callee-saved registers too */
			v = ((const uint64_t *)r)[o->slot];
			break;
#endif
		default: {
			unsigned m = copy_stack(w + k, o, r->sp);
			if (o->str)
				v = (uint64_t)w[k] | (uint64_t)w[k + 1] << 32;
			k += m;
			if (o->str)
				k += copy_text(w + k, o, v);
			continue;
		}
		}
		w[k++] = (uint32_t)v;
		if (!o->narrow)
			w[k++] = (uint32_t)(v >> 32);
		if (o->str)
			k += copy_text(w + k, o, v);
	}
	w[0] = ct_ext_word(type, k - 1, idx);
	ct_put_words(t, w, k);
}

/* the common case: register values only, so the record's size is known;
 * written straight into the buffer (reserved first, header last, as
 * ct_put_words does) */
static inline void capture_regs(struct ct_tstate *t, unsigned type, uint32_t idx,
				const struct op *o, uint32_t n, uint32_t words, const uint64_t *src)
{
	uintptr_t p = ct_arch_reserve(&t->cur, (words + 1) * 4u);
	ct_wr_begin(t, p, (words + 1) * 4u);
	volatile uint32_t *w = (volatile uint32_t *)p;
	unsigned k = 1;
	for (uint32_t i = 0; i < n; i++, o++) {
		uint64_t v = src[o->slot];
		w[k++] = (uint32_t)v;
		if (!o->narrow)
			w[k++] = (uint32_t)(v >> 32);
	}
	__asm__ volatile("" ::: "memory");
	w[0] = ct_ext_word(type, words, idx);
	ct_wr_end(t);
	if (unlikely(p + (words + 1) * 4u > t->limit))
		ct_buffer_full(t);
}

/* the function whose entry was seen last on this thread: its return is
 * often the next one (a leaf), and needs no second lookup */
static __thread struct {
	uintptr_t key; /* fn | ct_args_gen_key */
	int64_t idx;
} last_entry __attribute__((tls_model("initial-exec")));

unsigned ct_args_entry(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_regs *r)
{
	uintptr_t key = fn | __atomic_load_n(&ct_args_gen_key, __ATOMIC_RELAXED);
	int64_t i;
	if (t->args_fn == key) {
		/* the entry trampoline has just looked fn up (tramp.S
		 * ARGS_LOOKUP): its recipe is the spec's */
		if (!t->args_af)
			return 0;
		i = (const struct ct_args_fast *)t->args_af - ct_args_fastv;
	} else {
		i = lookup(fn);
		if (i < 0)
			return 0;
	}
	last_entry.key = key;
	last_entry.idx = i;
	const struct spec *s = &A.specs[i];
	if (likely(s->wentry))
		capture_regs(t, CT_EXT_ARGS, (uint32_t)i, A.ops + s->op0, s->nentry, s->wentry,
			     (const uint64_t *)r);
	else if (s->nentry)
		capture(t, CT_EXT_ARGS, (uint32_t)i, A.ops + s->op0, s->nentry, r, NULL);
#ifdef CT_REGS_CFA
	else if (s->unplaced)
		capture(t, CT_EXT_ARGS, (uint32_t)i, A.ops, 0, r, NULL);
#endif
	return s->nret ? CT_ARGS_WANT_RET : 0;
}

void ct_args_exit(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_retregs *rr)
{
	uintptr_t key = fn | __atomic_load_n(&ct_args_gen_key, __ATOMIC_RELAXED);
	int64_t i = likely(last_entry.key == key) ? last_entry.idx : lookup(fn);
	if (i < 0)
		return;
	const struct spec *s = &A.specs[i];
	if (likely(s->wret))
		capture_regs(t, CT_EXT_RETVAL, (uint32_t)i, A.ops + s->rop0, s->nret, s->wret,
			     (const uint64_t *)rr);
	else if (s->nret)
		capture(t, CT_EXT_RETVAL, (uint32_t)i, A.ops + s->rop0, s->nret, NULL, rr);
}

/* ---- modules ---------------------------------------------------------- */

static bool same_path(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	char ra[PATH_MAX];
	return realpath(b, ra) && !strcmp(a, ra);
}

void ct_args_module(uintptr_t base, const char *path, const char *buildid, bool added)
{
	if (!ct_args_enabled)
		return;
	if (!added) {
		for (uint32_t i = 0; i < A.natt; i++) {
			if (A.att[i].base != base)
				continue;
			const struct module *m = &A.mods[A.att[i].mod];
			for (uint32_t j = 0; j < m->nf; j++)
				erase(base + A.funcs[m->f0 + j].off);
			A.att[i] = A.att[--A.natt];
			__atomic_add_fetch(&ct_args_gen_key, 1ull << 48, __ATOMIC_RELEASE);
			return;
		}
		return;
	}
	bool has_bid = buildid && strcmp(buildid, "-");
	for (uint32_t i = 0; i < A.nmods; i++) {
		const struct module *m = &A.mods[i];
		if (has_bid && m->buildid ? strcmp(m->buildid, buildid) != 0
					  : !same_path(m->path, path))
			continue;
		if (A.natt == MAX_ATTACHED)
			return;
		A.att[A.natt++] = (struct attached){base, i};
		for (uint32_t j = 0; j < m->nf; j++)
			insert(base + A.funcs[m->f0 + j].off, A.funcs[m->f0 + j].spec);
		__atomic_add_fetch(&ct_args_gen_key, 1ull << 48, __ATOMIC_RELEASE);
		return;
	}
}

/* ---- loading the spec file ------------------------------------------------ */

static void *alloc(size_t n)
{
	void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* the capture operations of one "a"/"r" line */
static int ops_of_line(const struct ct_sf_line *l, bool ret, struct op *out, uint32_t *n)
{
	for (unsigned i = 0; i < l->nloc; i++) {
		const struct ct_aloc *c = &l->loc[i];
		struct op o;
		memset(&o, 0, sizeof(o));
		switch (c->kind) {
		case CT_AL_GP:
		case CT_AL_RET:
			if (!ret && c->kind == CT_AL_GP && reg_slot(CT_AL_GP, c->reg) < 0)
				return -1; /* not this architecture's */
			o.kind = ret ? OP_RET : OP_GP;
			o.reg = c->reg;
			o.slot = (uint8_t)(ret ? c->reg : reg_slot(CT_AL_GP, c->reg));
			break;
		case CT_AL_XMM:
			if (reg_slot(CT_AL_XMM, c->reg) < 0)
				return -1;
			o.kind = OP_XMM;
			o.reg = c->reg;
			o.slot = (uint8_t)reg_slot(CT_AL_XMM, c->reg);
			break;
#ifdef CT_REGS_CFA
		case CT_AL_CFA:
			o.kind = OP_CFA;
			o.off = c->off;
			o.size = c->size;
			o.words = (uint16_t)((c->size + 7u) / 8u * 2u);
			break;
#endif
		case CT_AL_STACK:
			o.kind = OP_STACK;
			o.off = c->off;
			o.size = c->size;
			o.words = (uint16_t)((c->size + 7u) / 8u * 2u);
			break;
		default:
			return -1;
		}
		out[(*n)++] = o;
	}
	if (ct_sf_has_text(l->fmt) && *n)
		out[*n - 1].str = l->fmt == CT_AF_STDSTR ? OP_STR_STD : OP_STR_C;
	if (ct_sf_narrow(l->fmt, l->bits, l->nloc, &l->loc[0]))
		out[0].narrow = 1;
	return 0;
}

static int load(const char *path)
{
	size_t got = 0;
	A.text = ct_spec_load(path, "the argument spec file", "no arguments are recorded", 1u << 30,
			      &got);
	if (!A.text)
		return -1;
	A.text_len = got + 1;
	if (ct_cfg.linked) {
		/* no `record` to keep the specs with the recording: a copy in the
		 * data directory, for the reader (the first process writes it) */
		char copy[4200];
		ct_fmt(copy, sizeof(copy), "%s/%s", ct_cfg.dir, CT_ARGS_FILE);
		mkdir(ct_cfg.dir, 0700);
		int cfd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (cfd >= 0) {
			ssize_t w = write(cfd, A.text, got);
			(void)w;
			close(cfd);
		}
	}

	/* upper bounds from the number of lines */
	size_t lines = 1;
	for (size_t i = 0; i < got; i++)
		lines += A.text[i] == '\n';
	A.ops = alloc(lines * 2 * sizeof(*A.ops));
	A.specs = alloc(lines * sizeof(*A.specs));
	A.funcs = alloc(lines * sizeof(*A.funcs));
	A.mods = alloc(lines * sizeof(*A.mods));
	if (!A.ops || !A.specs || !A.funcs || !A.mods)
		return -1;
	A.strmax = 64;

	struct ct_sf sf;
	struct ct_sf_line l;
	struct spec *cur = NULL;
	int rc;
	ct_sf_start(&sf, A.text, got);
	while ((rc = ct_sf_next(&sf, &l)) > 0) {
		switch (l.kind) {
		case CT_SF_STRMAX:
			A.strmax = (unsigned)l.n;
			break;
		case CT_SF_SPEC:
			cur = &A.specs[A.nspecs++];
			break;
		case CT_SF_END:
			cur = NULL;
			break;
		case CT_SF_ARG:
		case CT_SF_RET: {
			/* a spec's ops are consecutive: entry ops come before ret ops */
			bool r = l.kind == CT_SF_RET;
			uint32_t n = 0;
			if (!cur || ops_of_line(&l, r, A.ops + A.nops, &n) < 0)
				goto bad;
			if (r) {
				if (!cur->nret)
					cur->rop0 = A.nops;
				cur->nret += n;
			} else {
#ifdef CT_REGS_CFA
				cur->unplaced += !n;
#endif
				if (!cur->nentry)
					cur->op0 = A.nops;
				cur->nentry += n;
			}
			A.nops += n;
			break;
		}
		case CT_SF_MODULE: {
			/* decoded in place: never longer than the text */
			struct module *m = &A.mods[A.nmods++];
			char *b = (char *)l.f[0].s, *pth = (char *)l.f[1].s;
			m->buildid = ct_sf_text(l.f[0], b, l.f[0].n + 1) < 0 ? NULL : b;
			m->path = ct_sf_text(l.f[1], pth, l.f[1].n + 1) < 0 ? NULL : pth;
			if (!m->path)
				goto bad;
			m->f0 = A.nfuncs;
			m->nf = 0;
			break;
		}
		case CT_SF_FUNC:
			A.funcs[A.nfuncs++] = (struct func){l.n, (uint32_t)l.n2};
			A.mods[A.nmods - 1].nf++;
			break;
		default:
			/* enum and struct tables, forms: the reader's */
			break;
		}
	}
	if (rc < 0)
		goto bad;
	if (!A.nfuncs)
		return -1;
	/* records of a fixed size: registers only; and none may outgrow one
	 * record (the file is checked by record, but a bad one must not
	 * overrun the stack of the traced program) */
	for (uint32_t i = 0; i < A.nspecs; i++) {
		struct spec *s = &A.specs[i];
		for (int r = 0; r < 2; r++) {
			const struct op *o = A.ops + (r ? s->rop0 : s->op0);
			uint32_t n = r ? s->nret : s->nentry, w = 0, max = 0;
			for (uint32_t k = 0; k < n; k++)
				max += (o[k].kind == OP_STACK || o[k].kind == OP_CFA ? o[k].words
					: o[k].narrow                                ? 1u
										     : 2u) +
				       (o[k].str ? 1 + (A.strmax + 3) / 4 : 0);
			if (max > CT_ARGS_MAX_WORDS) {
				sf.why = "a spec too large for one record";
				goto bad;
			}
			for (uint32_t k = 0; k < n && w != UINT32_MAX; k++)
				w = o[k].kind == OP_STACK || o[k].kind == OP_CFA || o[k].str
					    ? UINT32_MAX
					    : w + (o[k].narrow ? 1 : 2);
			if (w == UINT32_MAX || w > CT_ARGS_MAX_WORDS)
				w = 0;
			if (r)
				s->wret = w;
			else
				s->wentry = w;
		}
	}
	uint64_t cap = 16;
	while (cap < 2ull * A.nfuncs)
		cap *= 2;
	A.keys = alloc(cap * sizeof(*A.keys));
	A.vals = alloc(cap * sizeof(*A.vals));
	if (!A.keys || !A.vals)
		return -1;
	A.mask = cap - 1;
	/* the trampolines' recipes (args.h) */
	ct_args_fastv = alloc(A.nspecs * sizeof(*ct_args_fastv));
	if (!ct_args_fastv)
		return -1;
	for (uint32_t i = 0; i < A.nspecs; i++) {
		const struct spec *s = &A.specs[i];
		struct ct_args_fast *f = &ct_args_fastv[i];
		memset(f, 0xff, sizeof(*f));
		f->ent_hdr = f->ret_hdr = 0;
		f->flags = s->nret ? CT_AF_WANT_RET : 0;
		f->pad = 0;
		if (s->nentry && s->wentry && s->nentry <= sizeof(f->ent) && i <= 0xffff) {
			f->ent_hdr = ct_ext_word(CT_EXT_ARGS, s->wentry, i);
			for (uint32_t k = 0; k < s->nentry; k++) {
				const struct op *o = &A.ops[s->op0 + k];
				f->ent[k] = (uint8_t)(o->slot | (o->narrow ? 0x80 : 0));
				if (o->kind == OP_XMM)
					f->flags |= CT_AF_ENT_XMM;
			}
		} else if (s->nentry) {
			f->flags |= CT_AF_ENT_C;
		}
		if (s->nret && s->wret && s->nret <= sizeof(f->ret) && i <= 0xffff) {
			f->ret_hdr = ct_ext_word(CT_EXT_RETVAL, s->wret, i);
			for (uint32_t k = 0; k < s->nret; k++) {
				const struct op *o = &A.ops[s->rop0 + k];
				f->ret[k] = (uint8_t)(o->slot | (o->narrow ? 0x80 : 0));
			}
		} else if (s->nret) {
			f->flags |= CT_AF_RET_C;
		}
	}
	ct_args_keys = A.keys;
	ct_args_vals = A.vals;
	ct_args_mask = A.mask;
	return 0;
bad:
	ct_log("%s: line %u: %s; no arguments are recorded", path, sf.lineno,
	       sf.why ? sf.why : "not an argument spec this runtime reads");
	return -1;
}

void ct_args_init(void)
{
	const char *path = ct_getenv(CT_ENV_ARGS);
	if (ct_args_enabled || !path || !*path)
		return;
	R.ready = true;
	if (load(path) == 0) {
		find_ranges();
		if (__atomic_load_n(&R.early, __ATOMIC_RELAXED))
			R.off = 1;
		ct_args_enabled = true;
	}
}
