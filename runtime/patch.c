/* SPDX-License-Identifier: MIT */
/*
 * -fpatchable-function-entry=N[,M]: the compiler leaves N bytes of nops at
 * each function (M of them before its entry) and records where they begin
 * in the section __patchable_function_entries.  Untraced, the program runs
 * its nops.  Traced, this file finds the section of each module (its ELF
 * file, read with libc alone) and writes over the nops at the entry a
 * 5-byte `call` to ct_patch_tramp (through a 14-byte jump stub mapped
 * within ±2 GiB of the module, since a call reaches only that far).
 *
 * Supported: at least 5 bytes of nops at the function's entry (after its
 * endbr64, if any), that is N - M >= 5.  aarch64 patches two nops its own
 * way (arch/aarch64/patchsite.h: `mov x9, x30; bl`, within ±128 MiB).  With M > 0 the entry is found with
 * the module's symbol table.  A site that does not fit is left alone, and
 * the module gets one message.  See doc/frontends.md.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "insn.h"
#include "internal.h"
#if __has_include("patchsite.h")
#include "patchsite.h" /* an architecture's own patch (aarch64) */
#endif
#ifndef CT_ARCH_PATCH
#define CT_ARCH_PATCH CT_ARCH_HOOKED_FRONTENDS
#endif

void ct_patch_tramp(void) CT_HIDDEN;

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* ---- jump stubs near the modules -------------------------------------- */

#define MAX_STUBS 64
static uintptr_t stubs[MAX_STUBS];
static int nstubs;

#ifndef CT_PS_REACH
#define CT_PS_REACH ((1l << 31) - 4096) /* call rel32 */
#endif

static bool reaches(uintptr_t from, uintptr_t to)
{
	intptr_t d = (intptr_t)(to - from);
	return d > -CT_PS_REACH && d < CT_PS_REACH;
}

/* an address `call` at site can reach that ends up in ct_patch_tramp */
static uintptr_t target_for(uintptr_t site)
{
	uintptr_t tramp = (uintptr_t)ct_patch_tramp;
	if (reaches(site, tramp))
		return tramp;
	for (int i = 0; i < nstubs; i++)
		if (reaches(site, stubs[i]))
			return stubs[i];
	if (nstubs == MAX_STUBS)
		return 0;
	/* look for a free page below, then above the site, in 1 MiB steps */
	for (long k = 1; k < 2000; k++) {
		uintptr_t hint = ((site & ~(uintptr_t)0xfffff) +
				  (uintptr_t)((k & 1 ? -1 : 1) * (k / 2 + 1)) * 0x100000);
		void *p = mmap((void *)hint, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (!reaches(site, (uintptr_t)p)) {
			munmap(p, 4096);
			continue;
		}
		uint8_t *s = p;
#ifdef CT_PS_OWN
		ct_ps_veneer(s, tramp);
#else
		/* jmp *0(%rip); .quad ct_patch_tramp */
		s[0] = 0xff;
		s[1] = 0x25;
		memset(s + 2, 0, 4);
		memcpy(s + 6, &tramp, 8);
#endif
		mprotect(p, 4096, PROT_READ | PROT_EXEC);
		__builtin___clear_cache((char *)p, (char *)p + 16);
		stubs[nstubs++] = (uintptr_t)p;
		return (uintptr_t)p;
	}
	return 0;
}

/* ---- the module's ELF file ------------------------------------------- */

static int cmp_addr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return x < y ? -1 : x > y;
}

struct file_map {
	const uint8_t *p;
	size_t len;
};

static bool sec_ok(const struct file_map *f, const Elf64_Shdr *s)
{
	return s->sh_type != SHT_NOBITS && s->sh_offset <= f->len &&
	       s->sh_size <= f->len - s->sh_offset;
}

/* the function entries of the module's symbol table, at run-time addresses,
 * sorted (NULL when there is none) */
static uintptr_t *func_symbols(const struct file_map *f, const Elf64_Ehdr *eh, uintptr_t bias,
			       size_t *count, size_t *maplen)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f->p + eh->e_shoff);
	const Elf64_Shdr *sym = NULL;
	for (int pass = 0; pass < 2 && !sym; pass++)
		for (unsigned i = 0; i < eh->e_shnum; i++)
			if (sh[i].sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB) &&
			    sec_ok(f, &sh[i]) && sh[i].sh_entsize == sizeof(Elf64_Sym)) {
				sym = &sh[i];
				break;
			}
	*count = 0;
	if (!sym)
		return NULL;
	size_t n = sym->sh_size / sizeof(Elf64_Sym);
	*maplen = (n + 1) * sizeof(uintptr_t);
	uintptr_t *v =
		mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		return NULL;
	const Elf64_Sym *s = (const Elf64_Sym *)(f->p + sym->sh_offset);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (ELF64_ST_TYPE(s[i].st_info) == STT_FUNC && s[i].st_shndx != SHN_UNDEF &&
		    s[i].st_value)
			v[k++] = s[i].st_value + bias;
	qsort(v, k, sizeof(*v), cmp_addr);
	*count = k;
	return v;
}

/* the first function entry at or after a (or 0) */
static uintptr_t entry_at_or_after(const uintptr_t *v, size_t n, uintptr_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? v[lo] : 0;
}

/* ---- functions that have a hook of their own ----------------------------- */

/* A function with __attribute__((patchable_function_entry)) in a module
 * built with -pg, -pg -mfentry or -finstrument-functions has its nops and
 * a call to mcount, __fentry__ or __cyg_profile_func_enter: both would
 * enter it, and a hook called after the nops would name it by the wrong
 * address (a+0x5).  Such a call goes through the module's GOT: `call
 * *slot(%rip)` (-fno-plt), or `call` a PLT stub that jumps through the
 * slot; the slots are those the module's relocations fill with the hooks'
 * addresses.  A call of mcount or __fentry__ becomes a nop of its length
 * and the entry is patched (one hook, at the right address); a function
 * with __cyg_profile_func_enter (which it also calls at every return) is
 * left to it and not patched. */
#define MAX_HOOK_SLOTS 16
struct hook_slots {
	uintptr_t slot[MAX_HOOK_SLOTS];
	bool cyg[MAX_HOOK_SLOTS];
	unsigned n;
};

/* a call of a hook found in a function's code */
struct hook_call {
	uintptr_t at;
	unsigned len; /* 5 or 6 bytes */
	bool cyg;     /* __cyg_profile_func_enter */
};

static bool is_hook_name(const char *n)
{
	return !strcmp(n, "mcount") || !strcmp(n, "_mcount") || !strcmp(n, "__fentry__") ||
	       !strcmp(n, "__cyg_profile_func_enter");
}

static void find_hook_slots(const struct file_map *f, const Elf64_Ehdr *eh, uintptr_t bias,
			    struct hook_slots *hs)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f->p + eh->e_shoff);
	hs->n = 0;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_RELA || !sec_ok(f, &sh[i]) ||
		    sh[i].sh_entsize != sizeof(Elf64_Rela) || sh[i].sh_link >= eh->e_shnum)
			continue;
		const Elf64_Shdr *sym = &sh[sh[i].sh_link];
		if ((sym->sh_type != SHT_DYNSYM && sym->sh_type != SHT_SYMTAB) || !sec_ok(f, sym) ||
		    sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_link >= eh->e_shnum ||
		    !sec_ok(f, &sh[sym->sh_link]))
			continue;
		const Elf64_Shdr *str = &sh[sym->sh_link];
		const Elf64_Rela *r = (const Elf64_Rela *)(f->p + sh[i].sh_offset);
		const Elf64_Sym *s = (const Elf64_Sym *)(f->p + sym->sh_offset);
		size_t nr = sh[i].sh_size / sizeof(*r), ns = sym->sh_size / sizeof(*s);
		for (size_t k = 0; k < nr && hs->n < MAX_HOOK_SLOTS; k++) {
			uint32_t t = ELF64_R_TYPE(r[k].r_info), si = ELF64_R_SYM(r[k].r_info);
			if ((t != R_X86_64_JUMP_SLOT && t != R_X86_64_GLOB_DAT) || !si ||
			    si >= ns || s[si].st_name >= str->sh_size)
				continue;
			const char *n = (const char *)f->p + str->sh_offset + s[si].st_name;
			if (memchr(n, 0, str->sh_size - s[si].st_name) && is_hook_name(n)) {
				hs->cyg[hs->n] = n[0] == '_' && n[1] == '_' && n[2] == 'c';
				hs->slot[hs->n++] = bias + r[k].r_offset;
			}
		}
	}
}

/* the index of a hook's slot, or -1 */
static int hook_slot(const struct hook_slots *hs, uintptr_t slot)
{
	for (unsigned i = 0; i < hs->n; i++)
		if (hs->slot[i] == slot)
			return (int)i;
	return -1;
}

/* does the code [from, to) call a hook?  A byte scan: a call's 4-byte
 * displacement that lands exactly on a hook's slot or stub does not
 * happen by chance.  The first such call goes to *hc. */
static bool calls_hook(const struct hook_slots *hs, uintptr_t from, uintptr_t to, uintptr_t lo,
		       uintptr_t hi, struct hook_call *hc)
{
	for (uintptr_t p = from; p + 6 <= to; p++) {
		int k = -1;
		unsigned len = 0;
		uintptr_t at;
		unsigned kind = ct_insn_call_at(p, &at, &len);
		if (kind == CT_INSN_CALL_SLOT) {
			k = hook_slot(hs, at);
		} else if (kind == CT_INSN_CALL_REL) {
			uintptr_t slot = ct_insn_plt_slot(at, lo, hi);
			k = slot ? hook_slot(hs, slot) : -1;
		}
		if (k >= 0) {
			hc->at = p;
			hc->len = len;
			hc->cyg = hs->cyg[k];
			return true;
		}
	}
	return false;
}

/* modules done already (a fork child scans its modules again) */
#define MAX_DONE 1024
static struct {
	uintptr_t base;
	char name[64];
} done[MAX_DONE];
static int ndone;

static bool seen_before(uintptr_t base, const char *name)
{
	for (int i = 0; i < ndone; i++)
		if (done[i].base == base && !strncmp(done[i].name, name, 63))
			return true;
	if (ndone < MAX_DONE) {
		done[ndone].base = base;
		strncpy(done[ndone].name, name, 63);
		ndone++;
	}
	return false;
}

/* a module was unloaded: should another be loaded at its place, it is new */
void ct_patch_forget(uintptr_t base)
{
	for (int i = 0; i < ndone; i++) {
		if (done[i].base == base) {
			done[i] = done[--ndone];
			i--;
		}
	}
}

static int prot_of(uint32_t pf)
{
	return (pf & PF_R ? PROT_READ : 0) | (pf & PF_W ? PROT_WRITE : 0) |
	       (pf & PF_X ? PROT_EXEC : 0);
}

/* patch the recorded sites of one loaded module */
/* a call of len bytes at at becomes a nop (0f 1f 44 00 00, 66-prefixed
 * for 6); the first byte last, so that a thread running through it sees
 * the call or the nop, never half of each */
static void nop_call(uintptr_t at, unsigned len)
{
	static const uint8_t nop6[6] = {0x66, 0x0f, 0x1f, 0x44, 0, 0};
	const uint8_t *nop = len == 6 ? nop6 : nop6 + 1;
	volatile uint8_t *c = (volatile uint8_t *)at;
	for (unsigned x = len; x-- > 1;)
		c[x] = nop[x];
	__asm__ volatile("" ::: "memory");
	c[0] = nop[0];
}

/* record-time filters: the functions of which nothing is ever recorded
 * (--hide alone) have their mcount/__fentry__ call made a nop, so they run
 * at the speed of an untraced build.  -finstrument-functions calls are
 * left to ct_patch_cyg_call (below), which knows which function a call was
 * made for only when it is made.  Returns how many were. */
static unsigned nop_filtered(const struct hook_slots *hs, const uintptr_t *syms, size_t nsyms,
			     const ElfW(Phdr) * ph, int phnum, uintptr_t bias)
{
	unsigned n = 0;
	for (int k = 0; k < phnum; k++) {
		if (ph[k].p_type != PT_LOAD || !(ph[k].p_flags & PF_X))
			continue;
		uintptr_t lo = bias + ph[k].p_vaddr, hi = lo + ph[k].p_memsz;
		uintptr_t plo = lo & ~(uintptr_t)4095, phi = (hi + 4095) & ~(uintptr_t)4095;
		bool open_ = false;
		for (size_t i = 0; i < nsyms; i++) {
			uintptr_t a = syms[i];
			if (a < lo || a >= hi || !ct_filt_unhooked(a))
				continue;
			uintptr_t site = a;
			if (site + 4 <= hi && !memcmp((const void *)site, "\xf3\x0f\x1e\xfa", 4))
				site += 4;
			/* the hook call comes first (__fentry__) or after the
			 * frame set-up (mcount): within 32 bytes, before the
			 * next function */
			uintptr_t end = entry_at_or_after(syms, nsyms, a + 1);
			if (!end || end > site + 32 || end > hi)
				end = site + 32 < hi ? site + 32 : hi;
			struct hook_call hc = {0, 0, false};
			if (!calls_hook(hs, site, end, lo, hi, &hc) || hc.cyg)
				continue;
			if (!open_) {
				if (mprotect((void *)plo, phi - plo,
					     PROT_READ | PROT_WRITE | PROT_EXEC))
					break;
				open_ = true;
			}
			nop_call(hc.at, hc.len);
			n++;
		}
		if (open_) {
			mprotect((void *)plo, phi - plo, prot_of(ph[k].p_flags));
			__builtin___clear_cache((char *)plo, (char *)phi);
		}
	}
	return n;
}

bool ct_patch_module(const char *path, const char *name, uintptr_t bias, const void *phdr,
		     int phnum)
{
	const ElfW(Phdr) *ph = phdr;
	bool sites = false;
	if (!CT_ARCH_PATCH)
		return false; /* no trampoline for this architecture yet */
	if (seen_before(bias, name))
		return false;
	/* our own library has no such section, but do not even look */
	uintptr_t self = (uintptr_t)ct_patch_module;
	for (int i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_LOAD && self >= bias + ph[i].p_vaddr &&
		    self < bias + ph[i].p_vaddr + ph[i].p_memsz)
			return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	struct file_map f = {NULL, 0};
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			f.p = m;
			f.len = (size_t)st.st_size;
		}
	}
	close(fd);
	if (!f.p)
		return false;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f.p;
	uintptr_t *syms = NULL;
	size_t nsyms = 0, symlen = 0;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > f.len ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > f.len - eh->e_shoff ||
	    eh->e_shstrndx >= eh->e_shnum)
		goto out;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f.p + eh->e_shoff);
	const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
	if (!sec_ok(&f, strs))
		goto out;
	sites = false;
	unsigned patched = 0, bad = 0, failed = 0, hooked = 0, unhooked = 0, filtered = 0;
	bool have_syms = false;
	struct hook_slots hs;
	find_hook_slots(&f, eh, bias, &hs);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		static const char want[] = "__patchable_function_entries";
		if (sh[i].sh_name >= strs->sh_size ||
		    strs->sh_size - sh[i].sh_name < sizeof(want) ||
		    memcmp(f.p + strs->sh_offset + sh[i].sh_name, want, sizeof(want)) ||
		    !(sh[i].sh_flags & SHF_ALLOC) || sh[i].sh_size < 8)
			continue;
		sites = true;
		if (!have_syms) {
			syms = func_symbols(&f, eh, bias, &nsyms, &symlen);
			have_syms = true;
		}
		/* the entries as relocated in memory */
		const uintptr_t *e = (const uintptr_t *)(bias + sh[i].sh_addr);
		size_t n = sh[i].sh_size / 8;
		for (int k = 0; k < phnum; k++) {
			if (ph[k].p_type != PT_LOAD || !(ph[k].p_flags & PF_X))
				continue;
			uintptr_t lo = bias + ph[k].p_vaddr, hi = lo + ph[k].p_memsz;
			uintptr_t plo = lo & ~(uintptr_t)4095, phi = (hi + 4095) & ~(uintptr_t)4095;
			bool open_ = false;
			for (size_t j = 0; j < n; j++) {
				uintptr_t a = e[j];
				if (a < lo || a >= hi)
					continue;
				uintptr_t entry = a;
				if (nsyms) {
					uintptr_t s = entry_at_or_after(syms, nsyms, a);
					if (s && s != a && s - a <= 64 &&
					    ct_insn_nops_exactly(a, s))
						entry = s;
				}
#ifdef CT_PS_OWN
				/* aarch64 (patchsite.h) */
				uintptr_t site;
				int room = ct_ps_site(entry, hi, &site);
				if (room < 0)
					bad++;
				if (room <= 0)
					continue;
				unsigned cover = 8;
				struct hook_call hc = {0, 0, false};
#else
				uintptr_t site = entry;
				if (site + 9 <= hi &&
				    !memcmp((const void *)site, "\xf3\x0f\x1e\xfa", 4))
					site += 4;
				if (site + 16 > hi) {
					bad++;
					continue;
				}
				const uint8_t *b = (const uint8_t *)site;
				unsigned cover = ct_insn_nops_cover5(b);
				if (!cover) {
					if (b[0] != 0xe8) /* patched before (a fork) */
						bad++;
					continue;
				}
				struct hook_call hc = {0, 0, false};
#endif
				if (hs.n) {
					/* its body, up to the next function (at most
					 * 512 bytes: hooks come first) */
					uintptr_t end =
						nsyms ? entry_at_or_after(syms, nsyms, site + 1)
						      : 0;
					if (!end || end > site + 512 || end > hi)
						end = site + 512 < hi ? site + 512 : hi;
					if (calls_hook(&hs, site + cover, end, lo, hi, &hc) &&
					    hc.cyg) {
						hooked++;
						continue;
					}
				}
				if (ct_filt_unhooked(entry)) {
					/* record-time filters: nothing of it would
					 * be recorded (--hide): it stays a nop */
					filtered++;
					continue;
				}
				uintptr_t to = target_for(site);
				if (!to) {
					failed++;
					continue;
				}
				if (!open_) {
					if (mprotect((void *)plo, phi - plo,
						     PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
						failed += 1;
						break;
					}
					open_ = true;
				}
#ifdef CT_PS_OWN
				ct_ps_write(site, to);
#else
				uint8_t code[16];
				int32_t rel = (int32_t)(to - (site + 5));
				code[0] = 0xe8;
				memcpy(code + 1, &rel, 4);
				for (unsigned x = 5; x < cover; x++)
					code[x] = 0x90;
				/* the opcode last: a thread running through the
				 * nops sees them or the whole call */
				volatile uint8_t *w = (volatile uint8_t *)site;
				for (unsigned x = cover; x-- > 1;)
					w[x] = code[x];
				__asm__ volatile("" ::: "memory");
				w[0] = code[0];
#endif
				patched++;
				if (hc.len) {
					/* the function's own mcount/__fentry__ call */
					nop_call(hc.at, hc.len);
					unhooked++;
				}
			}
			if (open_) {
				mprotect((void *)plo, phi - plo, prot_of(ph[k].p_flags));
				__builtin___clear_cache((char *)plo, (char *)phi);
			}
		}
#ifdef CT_PS_OWN
		/* aarch64 --count --sample: where each function's code ends
		 * (fnextent.c), for a sample in one without a frame */
		if (ct_count_stack && patched) {
			uintptr_t xlo = UINTPTR_MAX, xhi = 0;
			for (int k = 0; k < phnum; k++)
				if (ph[k].p_type == PT_LOAD && (ph[k].p_flags & PF_X)) {
					uintptr_t lo = bias + ph[k].p_vaddr;
					xlo = lo < xlo ? lo : xlo;
					xhi = lo + ph[k].p_memsz > xhi ? lo + ph[k].p_memsz : xhi;
				}
			ct_fnextent_add(xlo, xhi, e, n, syms, nsyms);
		}
#endif
	}
	if (ct_filt_on && hs.n) {
		if (!have_syms)
			syms = func_symbols(&f, eh, bias, &nsyms, &symlen);
		filtered += nop_filtered(&hs, syms, nsyms, ph, phnum, bias);
	}
#ifndef CT_PS_NOPS
#define CT_PS_NOPS "5 bytes of nops"
#define CT_PS_FLAG "N-M >= 5"
#define CT_PS_FAR "2 GiB"
#endif
	if (bad)
		ct_log("%s: %u patchable function entries have fewer than " CT_PS_NOPS " at the "
		       "entry (-fpatchable-function-entry=N,M needs " CT_PS_FLAG "): left untraced",
		       path, bad);
	if (failed)
		ct_log("%s: %u patchable function entries could not be patched (no memory "
		       "within " CT_PS_FAR ", or the code cannot be made writable): left untraced",
		       path, failed);
	char head[64];
	if (patched) {
		ct_fmt(head, sizeof(head), "patched %u", patched);
		ct_proc_path_line(head, path);
	}
	if (filtered) {
		ct_fmt(head, sizeof(head), "patch-filtered %u", filtered);
		ct_proc_path_line(head, path);
	}
	if (hooked || unhooked) {
		ct_fmt(head, sizeof(head), "patch-hooked %u %u", hooked, unhooked);
		ct_proc_path_line(head, path);
	}
out:
	if (syms)
		munmap(syms, symlen);
	munmap((void *)f.p, f.len);
	return sites;
}

/* record-time filters, -finstrument-functions: a hook was called, from the
 * call that ends at ret, for a function of which nothing is ever recorded
 * (--hide alone): that call jumps over itself from now on.  The call's
 * first two bytes become a short jump over the rest in one aligned-enough
 * store (within a cache line), so that a thread running the code meanwhile
 * decodes the old call or the jump, never a mix; it may still make the call
 * once, which the hooks take for what it is.  Only calls the hooks were
 * made from are touched: the argument register said which function they
 * were for, so a function inlined into a hidden one keeps its calls. */
void ct_patch_cyg_call(uintptr_t ret)
{
	static uint32_t lock;
	const uint8_t *b = (const uint8_t *)ret;
	unsigned len;
	if (!CT_ARCH_HOOKED_FRONTENDS)
		return; /* (the calls are decoded as x86-64's) */
	int32_t rel;
	uintptr_t target;
	memcpy(&rel, b - 4, 4);
	if (b[-5] == 0xe8) {
		/* call rel32: the hook, or a PLT stub that jumps to it */
		len = 5;
		target = ret + (intptr_t)rel;
		if (target != (uintptr_t)__cyg_profile_func_enter &&
		    target != (uintptr_t)__cyg_profile_func_exit) {
			uintptr_t slot = ct_insn_plt_slot(target, target, target + 16);
			target = slot ? *(const uintptr_t *)slot : 0;
		}
	} else if (b[-6] == 0xff && b[-5] == 0x15) {
		len = 6; /* call *GOT(%rip): -fno-plt */
		target = *(const uintptr_t *)(ret + (intptr_t)rel);
	} else {
		return;
	}
	/* not a call of the hook (a jmp to the exit hook as a tail call: ret
	 * is then its caller's, after a call of the function itself) */
	if (target != (uintptr_t)__cyg_profile_func_enter &&
	    target != (uintptr_t)__cyg_profile_func_exit)
		return;
	uintptr_t at = ret - len;
	if ((at & 63) == 63)
		return; /* the two bytes would straddle a cache line */
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		;
	uintptr_t plo = at & ~(uintptr_t)4095, phi = (ret + 4095) & ~(uintptr_t)4095;
	if (*(const uint8_t *)at != 0xeb &&
	    mprotect((void *)plo, phi - plo, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
		uint16_t jmp = (uint16_t)(0xeb | (len - 2) << 8);
		__atomic_store_n((uint16_t *)at, jmp, __ATOMIC_RELEASE);
		mprotect((void *)plo, phi - plo, PROT_READ | PROT_EXEC);
		__builtin___clear_cache((char *)at, (char *)ret);
	}
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}
