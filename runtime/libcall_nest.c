/* SPDX-License-Identifier: MIT */
/*
 * record --nest-libcall's parts of the library calls (split from
 * libcall.c, which hooks the slots): the untraced modules whose slots are
 * left alone (the dynamic loader, the vDSO, the runtime's own modules),
 * the calls into the dynamic loader left out of libc's, and the looser
 * rule for an untraced module's slots (ct_lc_nest_loose).  See
 * doc/libcall.md.
 */
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

#include "internal.h"
#include "libcall_priv.h"

/* --nest-libcall, an untraced module's slots: one called through is hooked
 * even where the module loads it as well (libc's malloc and free, called
 * through their slots and loaded as obstack's allocators), and so is one of
 * a function the module defines itself (libc's calls of its own malloc go
 * through its slot, so that the program may interpose it) */
bool ct_lc_nest_loose;

/* is a in the dynamic loader (--nest-libcall leaves libc's calls of it
 * out: __tunable_get_val, __tls_get_addr, _dl_*: the loader's machinery) */
bool ct_lc_in_ldso(uintptr_t a)
{
	static uintptr_t lo, hi;
	if (!hi && !ct_elf_extent((const void *)getauxval(AT_BASE), false, &lo, &hi))
		return false;
	return a >= lo && a < hi;
}

/* an untraced module whose slots --nest-libcall leaves alone: the dynamic
 * loader (its calls are its own machinery: binding, TLS, dlopen itself),
 * the vDSO, and the runtime's own modules (libcalltrace-throw.so, which
 * record --inject's throw= runs: the runtime's calls, not the program's) */
bool ct_lc_nest_skip(uintptr_t bias, const ElfW(Phdr) * phdr, int phnum)
{
	if (bias == getauxval(AT_BASE) || bias == getauxval(AT_SYSINFO_EHDR))
		return true;
	struct dyn d;
	memset(&d, 0, sizeof(d));
	d.bias = bias;
	d.phdr = phdr;
	d.phnum = phnum;
	if (!ct_lc_read_dynamic(&d))
		return true;
	const ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < phnum; i++)
		if (phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(bias + phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == DT_SONAME && dyn->d_un.d_val < d.strsz &&
		    !strncmp(d.str + dyn->d_un.d_val, "ld-linux", 8))
			return true;
	return ct_lc_gnu_lookup(&d, "calltrace_inject_throw", STT_FUNC) != NULL;
}
