/* SPDX-License-Identifier: MIT */
/*
 * Programs of another architecture (doc/runtime.md, "AArch64"): record
 * runs an aarch64 program on an x86-64 machine under qemu-user, with the
 * aarch64 runtime preloaded into the emulated process.  This finds what
 * that takes before anything is started: the program's ELF machine, the
 * emulator, the runtime built for it, the emulator's library root.
 */
#ifndef CT_EMULATE_H
#define CT_EMULATE_H

#include <limits.h>
#include <stdbool.h>

#include "error.h"

struct ct_emu {
	bool on;                /* the program runs under the emulator */
	const char *arch;       /* its architecture ("aarch64") */
	char qemu[PATH_MAX];    /* the emulator's path */
	char runtime[PATH_MAX]; /* the runtime built for the program */
	char sysroot[PATH_MAX]; /* the emulator's -L (its libraries), or "" */
};

/* the ELF machine (EM_*) of the file at path, -1 if it is no ELF file */
int ct_elf_machine(const char *path);

/* the architecture's name of an ELF machine ("x86-64", "aarch64", or
 * "machine N" in buf) */
const char *ct_elf_machine_name(int machine, char *buf, size_t len);

/* What running the program file exe (its real path; name: as the command
 * line gave it, for the messages) takes here.  The same
 * architecture as record's: e->on false, 0.  An aarch64 program on
 * another machine: e filled, 0; without the emulator or the runtime built
 * for it: 2 with err.  Any other architecture: 2 with err.  libopt: --lib
 * or $CALLTRACE_LIB (then it must be built for the program), else the
 * runtime is looked for beside record (bindir: the directory of record's
 * own file) as aarch64/libcalltrace.so, ../build-aarch64/libcalltrace.so,
 * ../lib/calltrace/aarch64/libcalltrace.so.  $CALLTRACE_QEMU names the
 * emulator (default qemu-aarch64 through PATH), $CALLTRACE_QEMU_LD_PREFIX
 * its library root (default /usr/aarch64-linux-gnu when it exists). */
int ct_emu_prepare(const char *name, const char *exe, const char *libopt, const char *bindir,
		   struct ct_emu *e, struct ct_error *err);

#endif
