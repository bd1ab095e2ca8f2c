/* SPDX-License-Identifier: MIT */
/*
 * record's library-call options (doc/libcall.md): --libcall, --no-libcall,
 * --libcall=REGEX and --no-libcall=REGEX, checked, and the patterns
 * resolved to names against the modules the program will load (their
 * function symbols), written to DIR/libcall.spec for the runtime
 * (runtime/libcall.c): "allow" or "deny", then one name per line.
 */
#ifndef CT_LIBCALLOPT_H
#define CT_LIBCALLOPT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_error;

struct ct_libcall_opts {
	int set;    /* 0: no option (the environment's CALLTRACE_LIBCALL, else on),
		     * 1: --libcall, -1: --no-libcall */
	char **inc; /* --libcall=REGEX */
	size_t ninc;
	char **exc; /* --no-libcall=REGEX */
	size_t nexc;
	bool nest; /* --nest-libcall: the libraries' own library calls too */
};

#define CT_LC_OPT_ON 0x3100
#define CT_LC_OPT_OFF 0x3101
#define CT_LC_OPT_NEST 0x3102

/* one option (c is CT_LC_OPT_ON, CT_LC_OPT_OFF or CT_LC_OPT_NEST, arg NULL
 * without =):
 * 0, or -1 with err filled (a usage error) */
int ct_libcall_option(struct ct_libcall_opts *o, int c, const char *arg, struct ct_error *err);

/* the value of $CALLTRACE_LIBCALL for the program ("0", "1", or the path of
 * DIR/libcall.spec, written through dfd: DIR open, or -1) into val, or ""
 * when no option said (record then honours $CALLTRACE_LIBCALL=0 alone);
 * libs: the --args-lib modules.  0, or -1 with err (a file that cannot be
 * written, a module named that cannot be read) */
int ct_libcall_prepare(const struct ct_libcall_opts *o, const char *prog, char *const *libs,
		       size_t nlibs, const char *dir, int dfd, char *val, size_t vallen,
		       struct ct_error *err);

/* --nest-libcall with the others: library calls turned on when no option
 * said (as --libcall); 0, or -1 with err (--no-libcall) */
int ct_libcall_check(struct ct_libcall_opts *o, struct ct_error *err);

void ct_libcall_opts_free(struct ct_libcall_opts *o);

/* the --libcall=/--no-libcall= patterns compiled: which library functions
 * the hook takes, by the name a module imports them under */
struct ct_lcsel {
	bool allow; /* some --libcall=REGEX: only what they match */
	regex_t *inc, *exc;
	size_t ninc, nexc;
};
/* false when o has no patterns (every library function is taken) */
bool ct_lcsel_init(struct ct_lcsel *s, const struct ct_libcall_opts *o);
bool ct_lcsel_wants(const struct ct_lcsel *s, const char *name);
void ct_lcsel_free(struct ct_lcsel *s);

/* the dynamic symbols of functions in the ELF file at path: fn(ctx, name,
 * st_value, defined, ifunc) for each; -1 when the file cannot be read (errno) */
int ct_dynsym_funcs(const char *path,
		    void (*fn)(void *ctx, const char *name, uint64_t value, bool defined,
			       bool ifunc),
		    void *ctx);

#endif
