/* SPDX-License-Identifier: MIT */
/*
 * Argument specs: the table of specs (one per distinct spec, each
 * module's functions pointing into it) and the DIR/args.spec file that
 * record writes for the runtime and the reader loads (see argspec.h and
 * doc/format.md); parsing -A/-R is argspec.c's.
 */
#include "argspec.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argspec_priv.h"
#include "calltrace/format.h"
#include "output.h"
#include "util.h"

/* ---- the table ----------------------------------------------------------- */

void ct_argtab_init(struct ct_argtab *t)
{
	memset(t, 0, sizeof(*t));
	t->strmax = CT_ARGS_STRMAX_DEFAULT;
}

static void item_free(struct ct_aitem *it)
{
	free(it->name);
	free(it->desc);
}

void ct_aspec_free(struct ct_aspec *s)
{
	for (size_t i = 0; i < s->nargs; i++)
		item_free(&s->args[i]);
	for (size_t i = 0; i < s->nret; i++)
		item_free(&s->ret[i]);
	free(s->args);
	free(s->ret);
	free(s->fmt);
	memset(s, 0, sizeof(*s));
}

void ct_argtab_free(struct ct_argtab *t)
{
	for (size_t i = 0; i < t->nspecs; i++)
		ct_aspec_free(&t->specs[i]);
	free(t->specs);
	for (size_t i = 0; i < t->nenums; i++) {
		for (size_t j = 0; j < t->enums[i].n; j++)
			free(t->enums[i].v[j].name);
		free(t->enums[i].v);
	}
	free(t->enums);
	for (size_t i = 0; i < t->nstructs; i++) {
		for (size_t j = 0; j < t->structs[i].n; j++)
			item_free(&t->structs[i].m[j].it);
		free(t->structs[i].m);
		free(t->structs[i].name);
	}
	free(t->structs);
	for (size_t i = 0; i < t->nmods; i++) {
		free(t->mods[i].buildid);
		free(t->mods[i].path);
		free(t->mods[i].f);
	}
	free(t->mods);
	memset(t, 0, sizeof(*t));
}

void ct_aitem_copy(struct ct_aitem *dst, const struct ct_aitem *src)
{
	*dst = *src;
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->desc = src->desc ? xstrdup(src->desc) : NULL;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool item_eq(const struct ct_aitem *a, const struct ct_aitem *b)
{
	return a->fmt == b->fmt && a->bits == b->bits && a->nloc == b->nloc &&
	       !memcmp(a->loc, b->loc, sizeof(a->loc[0]) * a->nloc) && a->table == b->table &&
	       str_eq(a->name, b->name) && str_eq(a->desc, b->desc);
}

static bool spec_eq(const struct ct_aspec *a, const struct ct_aspec *b)
{
	if (a->nargs != b->nargs || a->nret != b->nret || a->variadic != b->variadic ||
	    !str_eq(a->fmt, b->fmt))
		return false;
	for (size_t i = 0; i < a->nargs; i++)
		if (!item_eq(&a->args[i], &b->args[i]))
			return false;
	for (size_t i = 0; i < a->nret; i++)
		if (!item_eq(&a->ret[i], &b->ret[i]))
			return false;
	return true;
}

uint32_t ct_argtab_intern(struct ct_argtab *t, const struct ct_aspec *s)
{
	for (size_t i = 0; i < t->nspecs; i++)
		if (spec_eq(&t->specs[i], s))
			return (uint32_t)i;
	t->specs = xrealloc(t->specs, (t->nspecs + 1) * sizeof(*t->specs));
	struct ct_aspec *d = &t->specs[t->nspecs];
	memset(d, 0, sizeof(*d));
	d->nargs = s->nargs;
	d->nret = s->nret;
	d->variadic = s->variadic;
	d->fmt = s->fmt ? xstrdup(s->fmt) : NULL;
	d->args = xcalloc(s->nargs ? s->nargs : 1, sizeof(*d->args));
	d->ret = xcalloc(s->nret ? s->nret : 1, sizeof(*d->ret));
	for (size_t i = 0; i < s->nargs; i++)
		ct_aitem_copy(&d->args[i], &s->args[i]);
	for (size_t i = 0; i < s->nret; i++)
		ct_aitem_copy(&d->ret[i], &s->ret[i]);
	return (uint32_t)t->nspecs++;
}

struct ct_amodule *ct_argtab_module(struct ct_argtab *t, const char *buildid, const char *path)
{
	for (size_t i = 0; i < t->nmods; i++)
		if (str_eq(t->mods[i].buildid, buildid) && !strcmp(t->mods[i].path, path))
			return &t->mods[i];
	t->mods = xrealloc(t->mods, (t->nmods + 1) * sizeof(*t->mods));
	struct ct_amodule *m = &t->mods[t->nmods++];
	memset(m, 0, sizeof(*m));
	m->buildid = buildid ? xstrdup(buildid) : NULL;
	m->path = xstrdup(path);
	return m;
}

void ct_amodule_add(struct ct_amodule *m, uint64_t off, uint32_t spec)
{
	if (m->nf == m->capf) {
		m->capf = m->capf ? 2 * m->capf : 64;
		m->f = xrealloc(m->f, m->capf * sizeof(*m->f));
	}
	m->f[m->nf++] = (struct ct_afunc){off, spec};
}

bool ct_aitem_narrow(const struct ct_aitem *it)
{
	return ct_sf_narrow(it->fmt, it->bits, it->nloc, &it->loc[0]);
}

static unsigned item_words(const struct ct_aitem *it, unsigned strmax)
{
	return ct_sf_item_words(it->fmt, it->bits, it->nloc, it->loc, strmax);
}

unsigned ct_aspec_words(const struct ct_aspec *s, bool ret, unsigned strmax)
{
	const struct ct_aitem *v = ret ? s->ret : s->args;
	size_t n = ret ? s->nret : s->nargs;
	unsigned w = 0;
	for (size_t i = 0; i < n; i++)
		w += item_words(&v[i], strmax);
	return w;
}

int ct_aspec_check(const struct ct_aspec *s, unsigned strmax, struct ct_error *err)
{
	for (int r = 0; r < 2; r++) {
		unsigned w = ct_aspec_words(s, r, strmax);
		if (w > CT_ARGS_MAX_WORDS) {
			ct_set_err(err,
				   "%s take %u bytes, more than one record holds (%u); capture "
				   "fewer "
				   "or shorter strings (--str-max)",
				   r ? "the return value would" : "the arguments would", 4 * w,
				   4 * CT_ARGS_MAX_WORDS);
			return -1;
		}
	}
	return 0;
}

/* ---- the file ------------------------------------------------------------- */

/* write a field with space, control bytes, DEL and % as %XX; "-" when empty */
static void put_field(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p == 0x7f || *p == '%' ||
		    (p == (const unsigned char *)s && *p == '-'))
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

static void put_loc(FILE *f, const struct ct_aloc *l)
{
	switch (l->kind) {
	case CT_AL_GP:
		/* 0..5 by their x86-64 names (aarch64's x0..x5), the others
		 * aarch64's */
		if (l->reg < 6)
			fputs(ct_sf_gp_names[l->reg], f);
		else
			fprintf(f, "x%u", l->reg);
		break;
	case CT_AL_XMM:
		if (l->reg < 8)
			fprintf(f, "xmm%u", l->reg);
		else
			fprintf(f, "d%u", l->reg);
		break;
	case CT_AL_STACK:
		fprintf(f, "sp+%u:%u", l->off, l->size);
		break;
	case CT_AL_CFA:
		fprintf(f, "cfa%c%u:%u", (int32_t)l->off < 0 ? '-' : '+',
			(unsigned)((int32_t)l->off < 0 ? -(int64_t)(int32_t)l->off
						       : (int64_t)(int32_t)l->off),
			l->size);
		break;
	default:
		fputs(ct_sf_ret_names[l->reg], f);
	}
}

static void put_fmt(FILE *f, const struct ct_aitem *it)
{
	switch (it->fmt) {
	case CT_AF_INT:
		fprintf(f, "d%u", it->bits);
		break;
	case CT_AF_UINT:
		fprintf(f, "u%u", it->bits);
		break;
	case CT_AF_HEX:
		fprintf(f, "x%u", it->bits);
		break;
	case CT_AF_CHAR:
		fputs("c", f);
		break;
	case CT_AF_BOOL:
		fprintf(f, "b%u", it->bits);
		break;
	case CT_AF_PTR:
		fputs("p", f);
		break;
	case CT_AF_STR:
		fputs("s", f);
		break;
	case CT_AF_STDSTR:
		fputs("t", f);
		break;
	case CT_AF_FLOAT:
		fprintf(f, "f%u", it->bits);
		break;
	case CT_AF_ENUM:
		fprintf(f, "e%u:%d", it->bits, it->table);
		break;
	case CT_AF_CONST:
		fprintf(f, "k%u:%d", it->bits, it->table);
		break;
	case CT_AF_STRUCT:
		fprintf(f, "S:%d", it->table);
		break;
	default:
		fputs("?", f);
	}
}

static void put_item(FILE *f, char kind, const struct ct_aitem *it)
{
	fprintf(f, "%c ", kind);
	if (!it->nloc)
		fputc('-', f);
	for (unsigned i = 0; i < it->nloc; i++) {
		if (i)
			fputc(',', f);
		put_loc(f, &it->loc[i]);
	}
	fputc(' ', f);
	put_fmt(f, it);
	fputc(' ', f);
	put_field(f, it->name);
	fputc(' ', f);
	put_field(f, it->desc);
	fputc('\n', f);
}

int ct_argtab_write(const struct ct_argtab *t, FILE *f)
{
	fprintf(f, "%s %d\nstrmax %u\n", CT_ARGS_MAGIC, CT_ARGS_VERSION, t->strmax);
	for (size_t i = 0; i < t->nenums; i++) {
		fprintf(f, "enum %zu\n", i);
		for (size_t j = 0; j < t->enums[i].n; j++) {
			fprintf(f, "v %" PRId64 " ", t->enums[i].v[j].value);
			put_field(f, t->enums[i].v[j].name);
			fputc('\n', f);
		}
		fputs("end\n", f);
	}
	for (size_t i = 0; i < t->nstructs; i++) {
		fprintf(f, "struct %zu %u ", i, t->structs[i].size);
		put_field(f, t->structs[i].name);
		fputc('\n', f);
		for (size_t j = 0; j < t->structs[i].n; j++) {
			const struct ct_amember *m = &t->structs[i].m[j];
			fprintf(f, "m %u ", m->off);
			put_fmt(f, &m->it);
			fputc(' ', f);
			put_field(f, m->it.name);
			fputc(' ', f);
			put_field(f, m->it.desc);
			fputc('\n', f);
		}
		fputs("end\n", f);
	}
	for (size_t i = 0; i < t->nspecs; i++) {
		const struct ct_aspec *s = &t->specs[i];
		fprintf(f, "spec %zu\n", i);
		for (size_t j = 0; j < s->nargs; j++)
			put_item(f, 'a', &s->args[j]);
		for (size_t j = 0; j < s->nret; j++)
			put_item(f, 'r', &s->ret[j]);
		if (s->fmt) {
			fputs("fmt ", f);
			put_field(f, s->fmt);
			fputc('\n', f);
		}
		if (s->variadic)
			fputs("variadic\n", f);
		fputs("end\n", f);
	}
	for (size_t i = 0; i < t->nmods; i++) {
		const struct ct_amodule *m = &t->mods[i];
		fputs("module ", f);
		put_field(f, m->buildid);
		fputc(' ', f);
		put_field(f, m->path);
		fputc('\n', f);
		for (size_t j = 0; j < m->nf; j++)
			fprintf(f, "f %" PRIx64 " %u\n", m->f[j].off, m->f[j].spec);
	}
	return ferror(f) ? -1 : 0;
}

/* a text field of the file, decoded, malloc'd; NULL for "-" */
static char *get_field(struct ct_sf_field f)
{
	char *o = xmalloc(f.n + 1);
	if (ct_sf_text(f, o, f.n + 1) < 0) {
		free(o);
		return NULL;
	}
	return o;
}

static void item_of_line(struct ct_aitem *it, const struct ct_sf_line *l)
{
	memset(it, 0, sizeof(*it));
	it->fmt = l->fmt;
	it->bits = l->bits;
	it->table = l->table;
	it->nloc = l->nloc;
	memcpy(it->loc, l->loc, sizeof(it->loc));
	it->name = get_field(l->f[0]);
	it->desc = get_field(l->f[1]);
}


/* the most of args.spec that is read (doc/format.md) */
#define MAX_SPEC_BYTES (64u << 20)

int ct_argtab_load(struct ct_argtab *t, const char *path, struct ct_error *err)
{
	ct_argtab_init(t);
	size_t len;
	char *text = ct_read_file(path, true, MAX_SPEC_BYTES, &len, err);
	if (!text)
		return -1;
	struct ct_sf sf;
	struct ct_sf_line l;
	struct ct_amodule *mod = NULL;
	const char *why = NULL;
	int rc;
	ct_sf_start(&sf, text, len);
	while ((rc = ct_sf_next(&sf, &l)) > 0) {
		struct ct_aitem it;
		switch (l.kind) {
		case CT_SF_STRMAX:
			t->strmax = (unsigned)l.n;
			break;
		case CT_SF_ENUM:
			t->enums = xrealloc(t->enums, (t->nenums + 1) * sizeof(*t->enums));
			memset(&t->enums[t->nenums++], 0, sizeof(*t->enums));
			break;
		case CT_SF_VALUE: {
			struct ct_aenum *e = &t->enums[t->nenums - 1];
			e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
			e->v[e->n++] = (struct ct_aenum_val){l.v, get_field(l.f[0])};
			break;
		}
		case CT_SF_STRUCT: {
			t->structs = xrealloc(t->structs, (t->nstructs + 1) * sizeof(*t->structs));
			struct ct_astruct *st = &t->structs[t->nstructs++];
			memset(st, 0, sizeof(*st));
			st->size = (uint32_t)l.n2;
			st->name = get_field(l.f[0]);
			break;
		}
		case CT_SF_MEMBER: {
			struct ct_astruct *st = &t->structs[t->nstructs - 1];
			st->m = xrealloc(st->m, (st->n + 1) * sizeof(*st->m));
			st->m[st->n].off = (uint32_t)l.n;
			item_of_line(&st->m[st->n].it, &l);
			st->n++;
			break;
		}
		case CT_SF_SPEC:
			t->specs = xrealloc(t->specs, (t->nspecs + 1) * sizeof(*t->specs));
			memset(&t->specs[t->nspecs++], 0, sizeof(*t->specs));
			break;
		case CT_SF_ARG:
		case CT_SF_RET: {
			struct ct_aspec *s = &t->specs[t->nspecs - 1];
			item_of_line(&it, &l);
			if (l.kind == CT_SF_RET)
				ct_aspec_push_item(&s->ret, &s->nret, &it);
			else
				ct_aspec_push_item(&s->args, &s->nargs, &it);
			break;
		}
		case CT_SF_FORM: {
			struct ct_aspec *s = &t->specs[t->nspecs - 1];
			free(s->fmt);
			s->fmt = get_field(l.f[0]);
			break;
		}
		case CT_SF_VARIADIC:
			t->specs[t->nspecs - 1].variadic = true;
			break;
		case CT_SF_END:
			break;
		case CT_SF_MODULE: {
			char *bid = get_field(l.f[0]), *pth = get_field(l.f[1]);
			mod = ct_argtab_module(t, bid, pth ? pth : "");
			free(bid);
			free(pth);
			break;
		}
		case CT_SF_FUNC:
			ct_amodule_add(mod, l.n, (uint32_t)l.n2);
			break;
		}
	}
	if (rc < 0) {
		/* the reasons this reader has always given; the others are
		 * a "bad line" (the runtime's message says more) */
		static const char *const kept[] = {"not an argument spec file",
						   "unsupported version", "cut short",
						   "a function names a spec that does not exist",
						   "a spec names a table that does not exist"};
		why = "bad line";
		for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
			if (!strcmp(sf.why, kept[i]))
				why = sf.why;
		goto bad;
	}
	/* references between the tables (the grammar has checked the rest) */
	for (size_t i = 0; i < t->nspecs; i++) {
		const struct ct_aspec *s = &t->specs[i];
		for (size_t j = 0; j < s->nargs + s->nret; j++) {
			const struct ct_aitem *it =
				j < s->nargs ? &s->args[j] : &s->ret[j - s->nargs];
			if ((it->fmt == CT_AF_ENUM && (size_t)it->table >= t->nenums) ||
			    (it->fmt == CT_AF_STRUCT && (size_t)it->table >= t->nstructs)) {
				why = "a spec names a table that does not exist";
				goto bad;
			}
		}
		if (ct_aspec_words(s, false, t->strmax) > CT_ARGS_MAX_WORDS ||
		    ct_aspec_words(s, true, t->strmax) > CT_ARGS_MAX_WORDS) {
			why = "a spec too large for one record";
			goto bad;
		}
	}
	for (size_t i = 0; i < t->nstructs; i++)
		for (size_t j = 0; j < t->structs[i].n; j++) {
			const struct ct_aitem *it = &t->structs[i].m[j].it;
			if ((it->fmt == CT_AF_ENUM && (size_t)it->table >= t->nenums) ||
			    (it->fmt == CT_AF_STRUCT && (size_t)it->table >= t->nstructs)) {
				why = "a struct member names a table that does not exist";
				goto bad;
			}
		}
	free(text);
	return 0;
bad:
	if (rc < 0)
		ct_set_err(err, "%s: line %u: %s", path, sf.lineno, why);
	else
		ct_set_err(err, "%s: %s", path, why);
	free(text);
	ct_argtab_free(t);
	ct_argtab_init(t);
	return -1;
}
