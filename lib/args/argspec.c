/* SPDX-License-Identifier: MIT */
/*
 * Argument specs: the -A/-R spec language parsed (see argspec.h and
 * doc/args.md).  The table of specs and the DIR/args.spec file are
 * argtab.c's; printing the captured values is argfmt.c's.
 */
#include "argspec.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argregs.h"
#include "argspec_priv.h"
#include "calltrace/format.h"
#include "output.h"
#include "util.h"

/* ---- the command line ---------------------------------------------------- */

/* the C library's constants (CT_AF_CONST), by the name -A gives them */
static const struct {
	const char *name;
	uint8_t kind, bits;
} const_fmts[] = {
	{"oflags", CT_AK_OFLAGS, 32}, {"mode", CT_AK_MODE, 32},
	{"prot", CT_AK_PROT, 32},     {"mapflags", CT_AK_MAPFLAGS, 32},
	{"signal", CT_AK_SIGNAL, 32}, {"sighandler", CT_AK_SIGHANDLER, 64},
	{"dirfd", CT_AK_DIRFD, 32},
};

/* "d32", "u", "x64", "c", "b", "p", "s", "f", "f32", "oflags", ... */
static int parse_fmt(const char *s, size_t n, struct ct_aitem *it)
{
	if (!n)
		return -1;
	for (size_t i = 0; i < sizeof(const_fmts) / sizeof(const_fmts[0]); i++)
		if (strlen(const_fmts[i].name) == n && !memcmp(const_fmts[i].name, s, n)) {
			it->fmt = CT_AF_CONST;
			it->bits = const_fmts[i].bits;
			it->table = const_fmts[i].kind;
			return 0;
		}
	char c = s[0];
	unsigned bits = 0;
	for (size_t i = 1; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		bits = bits * 10 + (unsigned)(s[i] - '0');
		if (bits > 64)
			return -1;
	}
	switch (c) {
	case 'd':
	case 'i':
		it->fmt = CT_AF_INT;
		break;
	case 'u':
		it->fmt = CT_AF_UINT;
		break;
	case 'x':
		it->fmt = CT_AF_HEX;
		break;
	case 'f':
		it->fmt = CT_AF_FLOAT;
		if (n == 1)
			bits = 64;
		if (bits != 32 && bits != 64)
			return -1;
		it->bits = (uint8_t)bits;
		return 0;
	case 'c':
	case 'b':
	case 'p':
	case 's':
	case 't':
		if (n != 1)
			return -1;
		it->fmt = c == 'c'   ? CT_AF_CHAR
			  : c == 'b' ? CT_AF_BOOL
			  : c == 'p' ? CT_AF_PTR
			  : c == 's' ? CT_AF_STR
				     : CT_AF_STDSTR;
		it->bits = c == 'c' || c == 'b' ? 8 : 64;
		return 0;
	default:
		return -1;
	}
	if (n == 1)
		bits = 32;
	if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
		return -1;
	it->bits = (uint8_t)bits;
	return 0;
}

/* the traced program's architecture: which register table (argregs.h) */
static bool machine_a64;

void ct_aspec_set_machine(int em)
{
	machine_a64 = em == 183; /* EM_AARCH64 */
}

/* the n-th (0-based) integer-class argument: a register or the stack
 * (aarch64: x0..x7; int_slot_ok says whether there is such an argument) */
static bool int_slot_ok(unsigned k)
{
	return !machine_a64 || k < CT_ARGREGS_GP_A64;
}

static void int_slot(struct ct_aitem *it, unsigned k)
{
	it->nloc = 1;
	if (machine_a64 ? k < CT_ARGREGS_GP_A64 : k < CT_ARGREGS_GP) {
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_GP, .reg = (uint8_t)k};
	} else {
		it->loc[0] =
			(struct ct_aloc){.kind = CT_AL_STACK, .size = 8, .off = 8 + 8 * (k - 6)};
	}
}

/* fpargN/32, /64, /80 (the reference tool's spelling of a float, a double
 * and a long double): true when s[0..n) is one */
static bool fp_size(const char *s, size_t n, struct ct_aitem *it)
{
	if (n != 2 || !(!memcmp(s, "32", 2) || !memcmp(s, "64", 2) || !memcmp(s, "80", 2)))
		return false;
	it->fmt = CT_AF_FLOAT;
	it->bits = (uint8_t)((s[0] - '0') * 10 + (s[1] - '0'));
	return true;
}

/* %LOCATION of an item (s[0..n), after the '%'): a register of this
 * x86-64 table (argregs.h), or stack+N / stackN, the
 * N-th slot above the return address; for a return value one of the
 * return registers */
static int parse_loc(const char *opt, const char *s, size_t n, bool ret, struct ct_aitem *it,
		     struct ct_error *err)
{
	const struct ct_argreg *tab = machine_a64 ? (ret ? ct_retregs_a64 : ct_argregs_a64)
						  : (ret ? ct_retregs : ct_argregs);
	size_t ntab = machine_a64 ? (ret ? sizeof(ct_retregs_a64) / sizeof(ct_retregs_a64[0])
					 : sizeof(ct_argregs_a64) / sizeof(ct_argregs_a64[0]))
		      : ret       ? sizeof(ct_retregs) / sizeof(ct_retregs[0])
				  : sizeof(ct_argregs) / sizeof(ct_argregs[0]);
	const char *retnames = machine_a64 ? CT_RETREGS_NAMES_A64 : CT_RETREGS_NAMES;
	const char *argnames = machine_a64 ? CT_ARGREGS_NAMES_A64 : CT_ARGREGS_NAMES;
	for (size_t i = 0; i < ntab; i++)
		if (strlen(tab[i].name) == n && !memcmp(tab[i].name, s, n)) {
			it->nloc = 1;
			it->loc[0] = (struct ct_aloc){.kind = tab[i].kind, .reg = tab[i].reg};
			return 0;
		}
	if (n >= 5 && !memcmp(s, "stack", 5)) {
		if (ret) {
			ct_set_err(err,
				   "'%s': a return value is in a register (%s), not on the stack",
				   opt, retnames);
			return -1;
		}
		if (machine_a64) {
			ct_set_err(err, "'%s': %%stack is not available for an aarch64 program",
				   opt);
			return -1;
		}
		size_t k = 5 + (n > 5 && s[5] == '+');
		unsigned long slot = 0;
		bool ok = k < n;
		for (size_t i = k; i < n && ok; i++) {
			ok = isdigit((unsigned char)s[i]) && slot < 100000;
			slot = slot * 10 + (unsigned long)(s[i] - '0');
		}
		uint64_t off = CT_ARGREGS_STACK_BASE + (uint64_t)CT_ARGREGS_SLOT * (slot - 1);
		if (!ok || slot < 1 || off >= CT_SF_STACK_OFF_MAX) {
			ct_set_err(err,
				   "'%s': bad stack slot '%%%.*s': %%stack+N is the N-th slot "
				   "above the return address, N from 1",
				   opt, (int)n, s);
			return -1;
		}
		it->nloc = 1;
		it->loc[0] =
			(struct ct_aloc){.kind = CT_AL_STACK,
					 .size = it->fmt == CT_AF_FLOAT && it->bits == 80 ? 16 : 8,
					 .off = (uint32_t)off};
		return 0;
	}
	if (ret)
		ct_set_err(err, "'%s': unknown register '%%%.*s' (a return value is in %s)", opt,
			   (int)n, s, retnames);
	else
		ct_set_err(err,
			   "'%s': unknown register '%%%.*s' (%s, or stack+N for the N-th stack "
			   "slot)",
			   opt, (int)n, s, argnames);
	return -1;
}

void ct_aspec_push_item(struct ct_aitem **v, size_t *n, const struct ct_aitem *it)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = *it;
}

size_t ct_aconv_parse(const char *s, struct ct_aconv *cv)
{
	const char *p = s + 1;
	size_t nf = 0;
	memset(cv, 0, sizeof(*cv));
	cv->width = cv->prec = -1;
	while (*p && strchr("-+ #0", *p) && nf < sizeof(cv->flags) - 1)
		cv->flags[nf++] = *p++;
	if (isdigit((unsigned char)*p)) {
		cv->width = 0;
		while (isdigit((unsigned char)*p) && cv->width < 1000)
			cv->width = cv->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		cv->prec = 0;
		while (isdigit((unsigned char)*p) && cv->prec < 1000)
			cv->prec = cv->prec * 10 + (*p++ - '0');
	}
	size_t nl = 0;
	while (*p && strchr("hlzjtL", *p) && nl < 2)
		cv->len[nl++] = *p++;
	if (!*p || !strchr("diuoxXcspfFeEgGaA%", *p))
		return 0;
	cv->c = *p++;
	return (size_t)(p - s);
}

static int parse_printf_form(const char *f, bool ret, struct ct_aspec *spec, struct ct_error *err)
{
	unsigned ni = 0, nf = 0;
	for (const char *p = f; *p; p++) {
		if (*p != '%')
			continue;
		struct ct_aconv cv;
		size_t n = ct_aconv_parse(p, &cv);
		if (!n) {
			ct_set_err(err, "fmt: unsupported conversion at '%.8s'", p);
			return -1;
		}
		p += n - 1;
		if (cv.c == '%')
			continue;
		struct ct_aitem it;
		memset(&it, 0, sizeof(it));
		bool l = cv.len[0] == 'l' || cv.len[0] == 'z' || cv.len[0] == 'j' ||
			 cv.len[0] == 't';
		switch (cv.c) {
		case 'd':
		case 'i':
			it.fmt = CT_AF_INT;
			break;
		case 'u':
		case 'o':
			it.fmt = CT_AF_UINT;
			break;
		case 'x':
		case 'X':
			it.fmt = CT_AF_HEX;
			break;
		case 'c':
			it.fmt = CT_AF_CHAR;
			break;
		case 's':
			it.fmt = CT_AF_STR;
			break;
		case 'p':
			it.fmt = CT_AF_PTR;
			break;
		default:
			it.fmt = CT_AF_FLOAT;
		}
		if (it.fmt == CT_AF_FLOAT) {
			it.bits = cv.len[0] == 'h' ? 32 : 64;
			if (ret) {
				it.nloc = 1;
				it.loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 2};
			} else {
				if (nf >= 8) {
					ct_set_err(err, "fmt: more than 8 floating-point arguments "
							"(the rest "
							"are on the stack: use -a)");
					return -1;
				}
				it.nloc = 1;
				it.loc[0] =
					(struct ct_aloc){.kind = CT_AL_XMM, .reg = (uint8_t)nf++};
			}
		} else {
			it.bits = it.fmt == CT_AF_CHAR                         ? 8
				  : it.fmt == CT_AF_STR || it.fmt == CT_AF_PTR ? 64
				  : l                                          ? 64
				  : cv.len[0] == 'h' && cv.len[1] == 'h'       ? 8
				  : cv.len[0] == 'h'                           ? 16
									       : 32;
			if (ret) {
				if (ni >= 1) {
					ct_set_err(err, "fmt: a return value has one integer");
					return -1;
				}
				ni++;
				it.nloc = 1;
				it.loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
			} else {
				if (!int_slot_ok(ni)) {
					ct_set_err(err, "fmt: more than 8 integer arguments (the "
							"rest are on the stack: use -a)");
					return -1;
				}
				int_slot(&it, ni++);
			}
		}
		if (ret)
			ct_aspec_push_item(&spec->ret, &spec->nret, &it);
		else
			ct_aspec_push_item(&spec->args, &spec->nargs, &it);
		if (ret && spec->nret > 1) {
			ct_set_err(err, "fmt: a return value has one conversion");
			return -1;
		}
	}
	return 0;
}

int ct_aspec_from_opt(const char *opt, bool ret, char **re, struct ct_aspec *spec,
		      struct ct_error *err)
{
	const char *at = strrchr(opt, '@');
	/* the items never contain '@' but a fmt string may: take the first
	 * '@' that is followed by an item */
	const char *fm = strstr(opt, "@fmt=");
	if (fm)
		at = fm;
	*re = NULL;
	if (!at || at == opt) {
		ct_set_err(err, "'%s': expected FUNC_REGEX@ITEM[,ITEM...]", opt);
		return -1;
	}
	*re = xasprintf("%.*s", (int)(at - opt), opt);
	const char *p = at + 1;
	if (!*p) {
		ct_set_err(err, "'%s': nothing to capture after '@'", opt);
		goto fail;
	}
	while (*p) {
		if (!strncmp(p, "fmt=", 4)) {
			p += 4;
			char q = *p;
			const char *end;
			char *f;
			if (q == '"' || q == '\'') {
				end = strchr(p + 1, q);
				if (!end) {
					ct_set_err(err, "'%s': unterminated fmt string", opt);
					goto fail;
				}
				f = xasprintf("%.*s", (int)(end - p - 1), p + 1);
				end++;
			} else {
				end = p + strlen(p);
				f = xstrdup(p);
			}
			if (ret ? spec->nret : (spec->nargs || spec->fmt)) {
				free(f);
				ct_set_err(err, "'%s': fmt= cannot be mixed with other items", opt);
				goto fail;
			}
			struct ct_error e2;
			if (parse_printf_form(f, ret, spec, &e2) < 0) {
				free(f);
				ct_set_err(err, "'%s': %s", opt, e2.msg);
				goto fail;
			}
			if (ret) {
				/* keep the form on the item: its desc */
				if (spec->nret)
					spec->ret[0].desc = f;
				else
					free(f);
			} else {
				spec->fmt = f;
			}
			p = end;
			if (*p && *p != ',') {
				ct_set_err(err, "'%s': text after the fmt string", opt);
				goto fail;
			}
			if (*p)
				p++;
			continue;
		}
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		/* ITEM[/FMT][%LOCATION] */
		const char *pct = memchr(p, '%', (size_t)(end - p));
		const char *iend = pct ? pct : end;
		const char *slash = memchr(p, '/', (size_t)(iend - p));
		const char *nend = slash ? slash : iend;
		struct ct_aitem it;
		memset(&it, 0, sizeof(it));
		bool fp = false;
		unsigned long n = 0;
		char *e;
		if (!ret && nend - p > 3 && !strncmp(p, "arg", 3) && isdigit((unsigned char)p[3])) {
			n = strtoul(p + 3, &e, 10);
			if (e != nend || n < 1 || n > 64)
				goto bad_item;
			if (!int_slot_ok((unsigned)n - 1)) {
				ct_set_err(err,
					   "'%s': arg%lu: an aarch64 program's arguments after "
					   "the eighth are on the stack, which -A does not read "
					   "there",
					   opt, n);
				goto fail;
			}
			int_slot(&it, (unsigned)n - 1);
		} else if (!ret && nend - p > 5 && !strncmp(p, "fparg", 5) &&
			   isdigit((unsigned char)p[5])) {
			n = strtoul(p + 5, &e, 10);
			if (e != nend || n < 1 || n > 8)
				goto bad_item;
			fp = true;
			it.nloc = 1;
			it.loc[0] = (struct ct_aloc){.kind = CT_AL_XMM, .reg = (uint8_t)(n - 1)};
		} else if (ret && nend - p == 6 && !strncmp(p, "retval", 6)) {
			it.nloc = 1;
			it.loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
		} else {
			goto bad_item;
		}
		if (slash && fp && fp_size(slash + 1, (size_t)(iend - slash - 1), &it)) {
			/* fpargN/32, /64, /80: the reference tool's sizes */
		} else if (slash) {
			if (parse_fmt(slash + 1, (size_t)(iend - slash - 1), &it) < 0) {
				ct_set_err(err,
					   "'%s': unknown format '%.*s' (d u x c b p s t f, "
					   "with a size: d8 d16 d32 d64, f32 f64; oflags "
					   "mode prot mapflags signal sighandler dirfd)",
					   opt, (int)(iend - slash - 1), slash + 1);
				goto fail;
			}
		} else {
			it.fmt = fp ? CT_AF_FLOAT : CT_AF_INT;
			it.bits = fp ? 64 : 32;
		}
		if (fp && it.fmt != CT_AF_FLOAT) {
			ct_set_err(err,
				   "'%s': fparg is a floating-point value: f, f32 or f64 (or 32, "
				   "64, 80)",
				   opt);
			goto fail;
		}
		if (!fp && !ret && it.fmt == CT_AF_FLOAT) {
			ct_set_err(err,
				   "'%s': floating-point arguments are in xmm registers: use "
				   "fpargN/f "
				   "(numbered among the floating-point arguments)",
				   opt);
			goto fail;
		}
		if (ret && it.fmt == CT_AF_FLOAT)
			it.loc[0].reg = 2; /* xmm0 */
		if (pct && parse_loc(opt, pct + 1, (size_t)(end - pct - 1), ret, &it, err) < 0)
			goto fail;
		if (it.fmt == CT_AF_FLOAT && it.bits == 80 && it.loc[0].kind != CT_AL_STACK) {
			ct_set_err(err,
				   "'%s': a long double (/80) is passed on the stack: give its "
				   "slot, %%stack+N",
				   opt);
			goto fail;
		}
		if (ret) {
			if (spec->nret) {
				ct_set_err(err, "'%s': one return value per function", opt);
				goto fail;
			}
			ct_aspec_push_item(&spec->ret, &spec->nret, &it);
		} else {
			if (spec->fmt) {
				ct_set_err(err, "'%s': fmt= cannot be mixed with other items", opt);
				goto fail;
			}
			ct_aspec_push_item(&spec->args, &spec->nargs, &it);
		}
		p = *end ? end + 1 : end;
		continue;
	bad_item:
		ct_set_err(err, "'%s': unknown item '%.*s' (%s)", opt, (int)(end - p), p,
			   ret ? "retval[/FMT][%REG] or fmt=\"...\""
			       : "argN[/FMT][%LOC], fpargN[/f][%LOC] or fmt=\"...\"");
		goto fail;
	}
	return 0;
fail:
	free(*re);
	*re = NULL;
	return -1;
}
