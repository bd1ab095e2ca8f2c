/* SPDX-License-Identifier: MIT */
/*
 * The modules a program will trace, found before it runs, as the dynamic
 * loader would find them: the executable (as execvp finds it), the
 * libraries it needs (DT_NEEDED, searched through DT_RPATH/DT_RUNPATH with
 * $ORIGIN, LD_LIBRARY_PATH and the system directories, breadth first), and
 * modules named on the command line (a library the program dlopen()s).
 * `record` resolves its -A/-R/-a specs and its filters against them.
 */
#ifndef CT_MODFIND_H
#define CT_MODFIND_H

#include <stdbool.h>
#include <stddef.h>

struct ct_error;

struct ct_modfound {
	const char *path;  /* real path */
	bool explicit_;    /* named on the command line */
	bool instrumented; /* calls a hook, or has patchable entries */
	bool regs;         /* by a front end that sees registers */
	bool main_;        /* the executable */
	unsigned fe;       /* its front ends: CT_MOD_FE_* */
	const char *name;  /* its file name as the loader names it: as needed
			    * ("libstdc++.so.6", not the file's real name) */
};
#define CT_MOD_FE_CYG 1u    /* calls __cyg_profile_func_enter */
#define CT_MOD_FE_MCOUNT 2u /* calls mcount (-pg) */
#define CT_MOD_FE_FENTRY 4u /* calls __fentry__ (-pg -mfentry) */
#define CT_MOD_FE_PATCH 8u  /* has patchable entries */

/* an emulated program's library root (qemu-user's -L, lib/record/
 * emulate.h): the libraries it needs are looked for under it, not in this
 * machine's directories; NULL or "": this machine's */
void ct_modules_root(const char *root);

/* the file execvp would run for name (malloc'd real path), or NULL */
char *ct_find_program(const char *name);

/* would the loader run the executable at path in secure-execution mode
 * (AT_SECURE), where it ignores LD_PRELOAD, when this process execs it?
 * It does for an ELF file that is setuid to another user than our real
 * one, setgid to another group than our real one, or (unless our real uid
 * is 0) has file capabilities (the security.capability attribute), unless
 * its file system is mounted nosuid or we run with no_new_privs.  true
 * with the reason ("setuid root", "setgid to group 5 (tty)", "has file
 * capabilities") in why */
bool ct_program_secure(const char *path, char *why, size_t len);

/* is the ELF file at path built for a front end: does it call a hook
 * (-finstrument-functions, mcount, __fentry__) or have patchable entries?
 * 1 yes, 0 no, -1 not an ELF file we can read */
int ct_module_instrumented(const char *path);

/* its front ends (CT_MOD_FE_*), -1 if it is not an ELF file we can read */
int ct_module_frontends(const char *path);

/* call fn for the executable prog and for each module it and the explicit
 * ones need, each once; fn returns <0 to stop (that is returned).
 * Explicit modules that do not exist or are not ELF files are errors
 * (in err, returns -1); needed ones that cannot be found are skipped.
 * A program that cannot be found: returns 0 without calling fn.  A
 * program that is a script (#!): it has no modules to walk (what it runs
 * is not known before the run), and the explicit ones are walked alone. */
int ct_modules_walk(const char *prog, char *const *libs, size_t nlibs, const char *libopt,
		    int (*fn)(void *ctx, const struct ct_modfound *m), void *ctx,
		    struct ct_error *err);

#endif
