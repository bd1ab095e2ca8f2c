/* SPDX-License-Identifier: MIT */
/*
 * `record --inject 'REGEX@ACTION[,SELECTOR...]'`, `--inject-file FILE` and
 * `--seed S` (doc/inject.md): the rules, parsed and checked before anything
 * starts; then matched against every module's function names, what a
 * module's front end cannot do refused, and DIR/inject.spec written for the
 * runtime (runtime/inject.c has the format).
 */
#ifndef CT_INJECTOPT_H
#define CT_INJECTOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_error;

#define CT_INJ_MAX_RULES 32

enum ct_inj_count { CT_INJ_EVERY_CALL, CT_INJ_NTH, CT_INJ_EVERY, CT_INJ_AFTER };
enum ct_inj_cop { CT_INJ_EQ, CT_INJ_NE, CT_INJ_LT, CT_INJ_GT };

struct ct_injrule {
	char *text;     /* as given */
	char *regex;    /* the part before the last '@' */
	char *where;    /* "--inject" or "--inject-file FILE:LINE" */
	unsigned acts;  /* CT_INJ_A_* (calltrace/format.h) */
	uint64_t value; /* return=/retval= (two's complement) */
	int err, sig;   /* errno=, signal= (0: none) */
	char *msg;      /* throw=std::runtime_error(MSG): MSG */
	enum ct_inj_count cnt;
	uint64_t n;    /* nth=/every=/after= */
	bool has_prob; /* prob= */
	uint64_t prob; /* its threshold out of 2^32 */
	unsigned carg; /* if=argK...: K (1..6), 0 none */
	enum ct_inj_cop cop;
	uint64_t cval;
};

struct ct_injopt {
	struct ct_injrule *rules;
	size_t nrules;
	uint64_t seed;
	bool has_seed;
};

enum {
	CT_INJ_OPT = 0x2900, /* --inject=RULE */
	CT_INJ_FILE_OPT,     /* --inject-file=FILE */
	CT_INJ_SEED,         /* --seed=S */
};

/* parse one rule's text into r (its text and regex allocated): 0, or -1
 * with why (what is wrong with it, without the option's name) */
int ct_injrule_parse(const char *text, struct ct_injrule *r, char *why, size_t whylen);
void ct_injrule_free(struct ct_injrule *r);

/* one of the options with its argument: a bad one is a usage error (-1
 * with err filled) */
int ct_injopt_option(struct ct_injopt *o, int opt, const char *arg, struct ct_error *err);
/* after all options (a usage error: -1 with err filled) */
int ct_injopt_check(const struct ct_injopt *o, struct ct_error *err);
/* match the rules against the modules of prog (and libs; a library's
 * functions when libcalls are on, those the --libcall=/--no-libcall=
 * patterns of lco take: NULL, every one), what a front end cannot do
 * refused, before anything is made: the text of DIR/inject.spec
 * (malloc'd) into *text and *len.  0 (a rule that selects nothing: a
 * warning into warn); -1 with err; 2 with err when a front end cannot do
 * what a rule asks (a usage error) */
struct ct_libcall_opts;
struct ct_msgs;
int ct_injopt_resolve(const struct ct_injopt *o, const char *prog, char *const *libs, size_t nlibs,
		      bool libcalls, const struct ct_libcall_opts *lco, char **text, size_t *len,
		      struct ct_msgs *warn, struct ct_error *err);
/* ... written to DIR/inject.spec (dfd: DIR open, or -1; its path into
 * path): 0, or -1 with err */
int ct_injopt_write(const char *text, size_t len, const char *dir, int dfd, char *path,
		    size_t pathlen, struct ct_error *err);
/* does a rule throw (throw=: the runtime then needs libcalltrace-throw.so,
 * whose path, ct_injopt_thrower, prepare writes into the file) */
bool ct_injopt_throws(const struct ct_injopt *o);
extern const char *ct_injopt_thrower;
void ct_injopt_free(struct ct_injopt *o);

#endif
