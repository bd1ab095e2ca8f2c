/* SPDX-License-Identifier: MIT */
/*
 * Captured argument and return values as text: checking a record's payload
 * against its spec, and printing it by the spec's items and printf-style
 * form (see argspec.h and doc/args.md).
 */
#include "argspec.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/format.h"
#include "output.h"
#include "util.h"

/* ---- decoding ------------------------------------------------------------ */

/* walk the payload along the items: the words of item i start at *pos */
static bool item_span(const struct ct_aitem *it, const uint32_t *w, uint32_t n, uint32_t *pos)
{
	uint32_t p = *pos;
	if (ct_aitem_narrow(it)) {
		if (n - p < 1)
			return false;
		*pos = p + 1;
		return true;
	}
	for (unsigned i = 0; i < it->nloc; i++) {
		uint32_t k = ct_sf_in_memory(&it->loc[i]) ? ((it->loc[i].size + 7u) / 8u) * 2u : 2u;
		if (n - p < k)
			return false;
		p += k;
	}
	if (ct_sf_has_text(it->fmt) && it->nloc) {
		if (n - p < 1)
			return false;
		uint32_t len = w[p] & 0xffff;
		p++;
		if (n - p < (len + 3) / 4)
			return false;
		p += (len + 3) / 4;
	}
	*pos = p;
	return true;
}

bool ct_args_payload_ok(const struct ct_argtab *t, uint32_t spec, bool ret, const uint32_t *w,
			uint32_t n)
{
	if (!t || spec >= t->nspecs)
		return false;
	const struct ct_aspec *s = &t->specs[spec];
	const struct ct_aitem *v = ret ? s->ret : s->args;
	size_t ni = ret ? s->nret : s->nargs;
	uint32_t pos = 0;
	for (size_t i = 0; i < ni; i++)
		if (!item_span(&v[i], w, n, &pos))
			return false;
	return pos == n;
}

/* output buffer */
struct ob {
	char *b;
	size_t len, n;
};

static void oput(struct ob *o, const char *s, size_t n)
{
	/* names and literal text from args.spec or the symbols may hold
	 * control characters: the values are text (output.h) */
	if (!ct_text_clean(s, n)) {
		char *e = xmalloc(4 * n);
		size_t k = ct_text_escape(e, s, n);
		for (size_t i = 0; i < k && o->n + 1 < o->len; i++)
			o->b[o->n++] = e[i];
		free(e);
		if (o->len)
			o->b[o->n < o->len ? o->n : o->len - 1] = 0;
		return;
	}
	for (size_t i = 0; i < n && o->n + 1 < o->len; i++)
		o->b[o->n++] = s[i];
	if (o->len)
		o->b[o->n < o->len ? o->n : o->len - 1] = 0;
}

static void oputs(struct ob *o, const char *s)
{
	oput(o, s, strlen(s));
}

static void oprintf(struct ob *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void oprintf(struct ob *o, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		oput(o, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

static uint64_t rd64w(const uint32_t *w)
{
	return (uint64_t)w[0] | (uint64_t)w[1] << 32;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (bits - 1);
	v &= (1ull << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

static uint64_t zext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static void put_char_esc(struct ob *o, unsigned char c, char quote)
{
	switch (c) {
	case '\n':
		oputs(o, "\\n");
		return;
	case '\t':
		oputs(o, "\\t");
		return;
	case '\r':
		oputs(o, "\\r");
		return;
	case '\\':
		oputs(o, "\\\\");
		return;
	case 0:
		oputs(o, "\\0");
		return;
	}
	if (c == (unsigned char)quote) {
		char b[2] = {'\\', (char)c};
		oput(o, b, 2);
	} else if (c < 0x20 || c >= 0x7f) {
		oprintf(o, "\\x%02x", c);
	} else {
		oput(o, (const char *)&c, 1);
	}
}

static void put_float(struct ob *o, double d, bool single)
{
	char b[64];
	if (isnan(d) || isinf(d)) {
		oprintf(o, "%g", d);
		return;
	}
	/* the shortest text that reads back as the same value */
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*g", prec, d);
		if (single ? (float)strtod(b, NULL) == (float)d : strtod(b, NULL) == d)
			break;
	}
	oputs(o, b);
	if (!strpbrk(b, ".en"))
		oputs(o, ".0");
}

struct fctx {
	const struct ct_argtab *t;
	ct_args_sym_fn sym;
	void *symctx;
};

static void put_scalar(struct ob *o, const struct fctx *c, const struct ct_aitem *it, uint64_t v,
		       int depth);

/* a value from bytes (a struct member): little-endian, size by the format */
static uint64_t bytes_value(const unsigned char *p, unsigned size)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < size && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static unsigned fmt_size(const struct fctx *c, const struct ct_aitem *it)
{
	switch (it->fmt) {
	case CT_AF_PTR:
	case CT_AF_STR:
	case CT_AF_STDSTR:
		return 8;
	case CT_AF_CHAR:
		return 1;
	case CT_AF_STRUCT:
		return (size_t)it->table < c->t->nstructs ? c->t->structs[it->table].size : 0;
	case CT_AF_NONE:
		return 0;
	default:
		return it->bits / 8;
	}
}

static void put_struct(struct ob *o, const struct fctx *c, int table, const unsigned char *p,
		       size_t n, int depth)
{
	const struct ct_astruct *st = &c->t->structs[table];
	if (depth > 4 || st->n == 0) {
		oprintf(o, "<%s %uB>", st->name ? st->name : "struct", st->size);
		return;
	}
	oputs(o, "{");
	for (size_t i = 0; i < st->n; i++) {
		const struct ct_amember *m = &st->m[i];
		if (i)
			oputs(o, ", ");
		if (m->it.name) {
			oputs(o, m->it.name);
			oputs(o, "=");
		}
		unsigned sz = fmt_size(c, &m->it);
		if (m->it.fmt == CT_AF_NONE || m->off + sz > n || !sz) {
			oputs(o, m->it.desc ? m->it.desc : "?");
		} else if (m->it.fmt == CT_AF_STRUCT) {
			put_struct(o, c, m->it.table, p + m->off, sz, depth + 1);
		} else {
			put_scalar(o, c, &m->it, bytes_value(p + m->off, sz), depth);
		}
	}
	oputs(o, "}");
}

/* ---- the C library's constants (CT_AF_CONST) ------------------------------ */

/* The values are Linux x86-64's (the ABI of the recording, whatever system
 * reads it), as the kernel and glibc define them. */
struct flagname {
	uint32_t mask; /* all of these bits */
	const char *name;
};

static const struct flagname oflag_names[] = {
	{0100, "O_CREAT"},        {0200, "O_EXCL"},         {0400, "O_NOCTTY"},
	{01000, "O_TRUNC"},       {02000, "O_APPEND"},      {04000, "O_NONBLOCK"},
	{04010000, "O_SYNC"},     {010000, "O_DSYNC"},      {020000, "O_ASYNC"},
	{040000, "O_DIRECT"},     {0100000, "O_LARGEFILE"}, {020200000, "O_TMPFILE"},
	{0200000, "O_DIRECTORY"}, {0400000, "O_NOFOLLOW"},  {01000000, "O_NOATIME"},
	{02000000, "O_CLOEXEC"},  {010000000, "O_PATH"},
};
#define CT_O_CREAT 0100u
#define CT_O_TMPFILE 020000000u /* __O_TMPFILE: O_TMPFILE without O_DIRECTORY */

static const struct flagname prot_names[] = {
	{0x1, "PROT_READ"},
	{0x2, "PROT_WRITE"},
	{0x4, "PROT_EXEC"},
	{0x8, "PROT_SEM"},
	{0x01000000, "PROT_GROWSDOWN"},
	{0x02000000, "PROT_GROWSUP"},
};

static const struct flagname map_names[] = {
	{0x10, "MAP_FIXED"},      {0x20, "MAP_ANONYMOUS"},
	{0x40, "MAP_32BIT"},      {0x100, "MAP_GROWSDOWN"},
	{0x800, "MAP_DENYWRITE"}, {0x1000, "MAP_EXECUTABLE"},
	{0x2000, "MAP_LOCKED"},   {0x4000, "MAP_NORESERVE"},
	{0x8000, "MAP_POPULATE"}, {0x10000, "MAP_NONBLOCK"},
	{0x20000, "MAP_STACK"},   {0x40000, "MAP_HUGETLB"},
	{0x80000, "MAP_SYNC"},    {0x100000, "MAP_FIXED_NOREPLACE"},
};

static const char *const signal_names[32] = {
	NULL,        "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",   "SIGTRAP", "SIGABRT", "SIGBUS",
	"SIGFPE",    "SIGKILL", "SIGUSR1",   "SIGSEGV", "SIGUSR2",  "SIGPIPE", "SIGALRM", "SIGTERM",
	"SIGSTKFLT", "SIGCHLD", "SIGCONT",   "SIGSTOP", "SIGTSTP",  "SIGTTIN", "SIGTTOU", "SIGURG",
	"SIGXCPU",   "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO",   "SIGPWR",  "SIGSYS",
};
#define CT_SIGRTMIN 34 /* glibc's: the kernel's 32 and 33 are its own */
#define CT_SIGRTMAX 64

/* "first|second|0x40000000": the names of the bits set in v, then what no
 * name covers in hex; `first` (or NULL) is already the start */
static void put_flags(struct ob *o, const char *first, uint32_t v, const struct flagname *t,
		      size_t n)
{
	bool any = first != NULL;
	if (first)
		oputs(o, first);
	for (size_t i = 0; i < n; i++)
		if ((v & t[i].mask) == t[i].mask) {
			if (any)
				oputs(o, "|");
			oputs(o, t[i].name);
			v &= ~t[i].mask;
			any = true;
		}
	if (v || !any)
		oprintf(o, any ? "|%#" PRIx32 : "%#" PRIx32, v);
}

static void put_const(struct ob *o, const struct fctx *c, const struct ct_aitem *it, uint64_t v)
{
	uint32_t u = (uint32_t)zext(v, it->bits);
	int64_t x = sext(v, it->bits);
	switch (it->table) {
	case CT_AK_OFLAGS: {
		static const char *const acc[4] = {"O_RDONLY", "O_WRONLY", "O_RDWR", NULL};
		if (!acc[u & 3]) /* no access mode has both bits */
			put_flags(o, NULL, u, oflag_names,
				  sizeof(oflag_names) / sizeof(oflag_names[0]));
		else
			put_flags(o, acc[u & 3], u & ~3u, oflag_names,
				  sizeof(oflag_names) / sizeof(oflag_names[0]));
		return;
	}
	case CT_AK_MODE:
		oprintf(o, "%#" PRIo32, u);
		return;
	case CT_AK_PROT:
		if (!u)
			oputs(o, "PROT_NONE");
		else
			put_flags(o, NULL, u, prot_names,
				  sizeof(prot_names) / sizeof(prot_names[0]));
		return;
	case CT_AK_MAPFLAGS: {
		/* the mapping's type is a number in the low four bits */
		static const char *const type[4] = {NULL, "MAP_SHARED", "MAP_PRIVATE",
						    "MAP_SHARED_VALIDATE"};
		const char *t = (u & 0xf) < 4 ? type[u & 0xf] : NULL;
		put_flags(o, t, t ? u & ~0xfu : u, map_names,
			  sizeof(map_names) / sizeof(map_names[0]));
		return;
	}
	case CT_AK_SIGNAL:
		if (x > 0 && x < 32)
			oputs(o, signal_names[x]);
		else if (x == CT_SIGRTMIN)
			oputs(o, "SIGRTMIN");
		else if (x > CT_SIGRTMIN && x <= CT_SIGRTMAX)
			oprintf(o, "SIGRTMIN+%d", (int)(x - CT_SIGRTMIN));
		else
			oprintf(o, "%" PRId64, x);
		return;
	case CT_AK_SIGHANDLER: {
		if (x == 0 || x == 1 || x == 2 || x == -1) {
			static const char *const h[] = {"SIG_ERR", "SIG_DFL", "SIG_IGN",
							"SIG_HOLD"};
			oputs(o, h[x + 1]);
			return;
		}
		const char *name = c->sym ? c->sym(c->symctx, v) : NULL;
		if (name)
			oputs(o, name);
		else
			oprintf(o, "%#" PRIx64, v);
		return;
	}
	case CT_AK_DIRFD:
		if (x == -100)
			oputs(o, "AT_FDCWD");
		else
			oprintf(o, "%" PRId64, x);
		return;
	default:
		oprintf(o, "%" PRId64, x);
	}
}

static void put_scalar(struct ob *o, const struct fctx *c, const struct ct_aitem *it, uint64_t v,
		       int depth)
{
	(void)depth;
	switch (it->fmt) {
	case CT_AF_INT:
		oprintf(o, "%" PRId64, sext(v, it->bits));
		break;
	case CT_AF_UINT:
		oprintf(o, "%" PRIu64, zext(v, it->bits));
		break;
	case CT_AF_HEX:
		oprintf(o, "%#" PRIx64, zext(v, it->bits));
		break;
	case CT_AF_BOOL:
		oputs(o, zext(v, it->bits) ? "true" : "false");
		break;
	case CT_AF_CHAR:
		oputs(o, "'");
		put_char_esc(o, (unsigned char)v, '\'');
		oputs(o, "'");
		break;
	case CT_AF_PTR: {
		const char *name = v && c->sym ? c->sym(c->symctx, v) : NULL;
		if (name)
			oputs(o, name);
		else if (!v)
			oputs(o, "NULL");
		else
			oprintf(o, "%#" PRIx64, v);
		break;
	}
	case CT_AF_FLOAT:
		if (it->bits == 32) {
			float f;
			uint32_t u = (uint32_t)v;
			memcpy(&f, &u, 4);
			put_float(o, f, true);
		} else {
			double d;
			memcpy(&d, &v, 8);
			put_float(o, d, false);
		}
		break;
	case CT_AF_ENUM: {
		int64_t x = sext(v, it->bits);
		const struct ct_aenum *e = &c->t->enums[it->table];
		for (size_t i = 0; i < e->n; i++)
			if (e->v[i].value == x ||
			    (it->bits < 64 && (uint64_t)e->v[i].value == zext(v, it->bits))) {
				oputs(o, e->v[i].name ? e->v[i].name : "?");
				return;
			}
		oprintf(o, "%" PRId64, x);
		break;
	}
	case CT_AF_CONST:
		put_const(o, c, it, v);
		break;
	default:
		oputs(o, it->desc ? it->desc : "?");
	}
}

/* one item's text; *pos walks the payload */
static void put_item_value(struct ob *o, const struct fctx *c, const struct ct_aitem *it,
			   const uint32_t *w, uint32_t *pos)
{
	if (it->fmt == CT_AF_NONE || !it->nloc) {
		oputs(o, it->desc ? it->desc : "?");
		for (unsigned i = 0; i < it->nloc; i++)
			*pos += ct_sf_in_memory(&it->loc[i]) ? ((it->loc[i].size + 7u) / 8u) * 2u
							     : 2u;
		return;
	}
	if (it->fmt == CT_AF_STRUCT) {
		unsigned char bytes[512];
		size_t n = 0;
		for (unsigned i = 0; i < it->nloc; i++) {
			uint32_t k = ct_sf_in_memory(&it->loc[i])
					     ? ((it->loc[i].size + 7u) / 8u) * 2u
					     : 2u;
			for (uint32_t j = 0; j < k && n + 4 <= sizeof(bytes); j++, n += 4)
				memcpy(bytes + n, &w[*pos + j], 4);
			*pos += k;
		}
		put_struct(o, c, it->table, bytes, n, 0);
		return;
	}
	if (ct_aitem_narrow(it)) {
		put_scalar(o, c, it, w[(*pos)++], 0);
		return;
	}
	if (it->fmt == CT_AF_FLOAT && it->bits == 80) {
		/* a long double from the stack (%stack+N): the x87 extended
		 * format, 64 bits of mantissa with its integer bit, 15 of
		 * exponent and the sign, in 16 bytes */
		uint32_t k = ct_sf_in_memory(&it->loc[0]) ? ((it->loc[0].size + 7u) / 8u) * 2u : 2u;
		uint64_t m = rd64w(w + *pos);
		unsigned se = k >= 4 ? w[*pos + 2] & 0xffff : 0;
		*pos += k;
		int ex = (int)(se & 0x7fff);
		double d = ex == 0x7fff ? (m << 1 ? NAN : INFINITY)
					: ldexp((double)m, (ex ? ex : 1) - 16383 - 63);
		put_float(o, se & 0x8000 ? -d : d, false);
		return;
	}
	uint64_t v = rd64w(w + *pos);
	*pos += 2;
	if (!ct_sf_has_text(it->fmt)) {
		put_scalar(o, c, it, v, 0);
		return;
	}
	uint32_t h = w[(*pos)++];
	uint32_t len = h & 0xffff;
	const unsigned char *s = (const unsigned char *)(w + *pos);
	*pos += (len + 3) / 4;
	if (!v) {
		oputs(o, "NULL");
		return;
	}
	if (h & CT_ARGS_STR_BAD) {
		oprintf(o, "<bad pointer %#" PRIx64 ">", v);
		return;
	}
	oputs(o, "\"");
	for (uint32_t i = 0; i < len; i++)
		put_char_esc(o, s[i], '"');
	oputs(o, h & CT_ARGS_STR_TRUNC ? "\"..." : "\"");
	if (it->fmt == CT_AF_STDSTR)
		oputs(o, "s"); /* as a C++ std::string literal */
}

/* a printf form's conversions are re-made from the user's own (flags,
 * width, precision, conversion), checked by the conversion parser, and given
 * the value of the type they name: a format that is not a literal, on
 * purpose */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* a printf form: the text with each conversion replaced by its item */
static void put_form(struct ob *o, const struct fctx *c, const char *fmt,
		     const struct ct_aitem *items, size_t nitems, const uint32_t *w)
{
	uint32_t pos = 0;
	size_t k = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			oput(o, p, 1);
			continue;
		}
		struct ct_aconv cv;
		size_t n = ct_aconv_parse(p, &cv);
		if (!n || cv.c == '%') {
			oput(o, "%", 1);
			if (n)
				p += n - 1;
			continue;
		}
		p += n - 1;
		if (k >= nitems)
			break;
		const struct ct_aitem *it = &items[k++];
		char spec[48];
		char val[600];
		struct ob vo = {val, sizeof(val), 0};
		val[0] = 0;
		int width = cv.width, prec = cv.prec;
		if (ct_sf_has_text(it->fmt) || it->fmt == CT_AF_PTR || it->fmt == CT_AF_CHAR) {
			/* our own text, padded as asked */
			if (it->fmt == CT_AF_CHAR) {
				uint64_t v;
				if (ct_aitem_narrow(it)) {
					v = w[pos++];
				} else {
					v = rd64w(w + pos);
					pos += 2;
				}
				put_char_esc(&vo, (unsigned char)v, 0);
			} else if (ct_sf_has_text(it->fmt)) {
				uint64_t v = rd64w(w + pos);
				uint32_t h = w[pos + 2], len = h & 0xffff;
				const unsigned char *s = (const unsigned char *)(w + pos + 3);
				pos += 3 + (len + 3) / 4;
				if (!v)
					oputs(&vo, "(null)");
				else if (h & CT_ARGS_STR_BAD)
					oprintf(&vo, "<bad pointer %#" PRIx64 ">", v);
				else
					for (uint32_t i = 0; i < len; i++)
						put_char_esc(&vo, s[i], 0);
			} else {
				put_item_value(&vo, c, it, w, &pos);
			}
			snprintf(spec, sizeof(spec), "%%%s*.*s", strchr(cv.flags, '-') ? "-" : "");
			oprintf(o, spec, width < 0 ? 0 : width, prec < 0 ? (int)sizeof(val) : prec,
				val);
			continue;
		}
		uint64_t v;
		if (ct_aitem_narrow(it)) {
			v = w[pos++];
		} else {
			v = rd64w(w + pos);
			pos += 2;
		}
		/* the conversion must fit the value given to it, whatever the
		 * spec file says (a hostile args.spec: "%s" for an integer
		 * would make printf read a string at that address) */
		if (it->fmt == CT_AF_FLOAT ? !strchr("fFeEgGaA", cv.c) : !strchr("diouxX", cv.c))
			cv.c = it->fmt == CT_AF_FLOAT ? 'g' : it->fmt == CT_AF_INT ? 'd' : 'u';
		if (it->fmt == CT_AF_FLOAT) {
			double d;
			if (it->bits == 32) {
				float f;
				uint32_t u = (uint32_t)v;
				memcpy(&f, &u, 4);
				d = f;
			} else {
				memcpy(&d, &v, 8);
			}
			snprintf(spec, sizeof(spec), "%%%s*.*%c", cv.flags, cv.c);
			oprintf(o, spec, width < 0 ? 0 : width, prec < 0 ? 6 : prec, d);
			continue;
		}
		if (prec >= 0)
			snprintf(spec, sizeof(spec), "%%%s*.*ll%c", cv.flags, cv.c);
		else
			snprintf(spec, sizeof(spec), "%%%s*ll%c", cv.flags, cv.c);
		long long x = it->fmt == CT_AF_INT ? (long long)sext(v, it->bits)
						   : (long long)zext(v, it->bits);
		if (prec >= 0)
			oprintf(o, spec, width < 0 ? 0 : width, prec, x);
		else
			oprintf(o, spec, width < 0 ? 0 : width, x);
	}
}
#pragma GCC diagnostic pop

size_t ct_args_format(const struct ct_argtab *t, const struct ct_callargs *a, bool ret,
		      ct_args_sym_fn sym, void *symctx, char *buf, size_t len)
{
	struct ob o = {buf, len, 0};
	struct fctx c = {t, sym, symctx};
	if (len)
		buf[0] = 0;
	if (!t || !a || a->spec >= t->nspecs)
		return 0;
	const struct ct_aspec *s = &t->specs[a->spec];
	if (ret) {
		if (!a->has_ret || !s->nret)
			return 0;
		uint32_t pos = 0;
		if (s->ret[0].desc && s->ret[0].fmt != CT_AF_NONE && strchr(s->ret[0].desc, '%')) {
			put_form(&o, &c, s->ret[0].desc, s->ret, 1, a->ret);
			return o.n;
		}
		put_item_value(&o, &c, &s->ret[0], a->ret, &pos);
		return o.n;
	}
	if (!a->has_args)
		return 0;
	if (s->fmt) {
		put_form(&o, &c, s->fmt, s->args, s->nargs, a->args);
		return o.n;
	}
	uint32_t pos = 0;
	bool mode_read = true; /* is a mode argument read by the callee? */
	for (size_t i = 0; i < s->nargs; i++) {
		const struct ct_aitem *it = &s->args[i];
		if (it->fmt == CT_AF_CONST && ct_aitem_narrow(it)) {
			/* open(path, flags[, mode]): the mode is read only
			 * with O_CREAT or O_TMPFILE; else its register holds
			 * whatever was there, and it is left out */
			uint32_t v = a->args[pos];
			if (it->table == CT_AK_OFLAGS)
				mode_read = v & (CT_O_CREAT | CT_O_TMPFILE);
			if (it->table == CT_AK_MODE && !mode_read) {
				pos++;
				continue;
			}
		}
		if (i)
			oputs(&o, ", ");
		put_item_value(&o, &c, it, a->args, &pos);
	}
	if (s->variadic)
		oputs(&o, s->nargs ? ", ..." : "...");
	return o.n;
}

size_t ct_args_bare_len(const char *name, size_t len)
{
	const char *close = NULL;
	for (size_t i = len; i-- > 0;)
		if (name[i] == ')') {
			close = name + i;
			break;
		}
	if (!close)
		return len;
	int level = 0;
	for (const char *p = close; p >= name; p--) {
		if (*p == ')')
			level++;
		else if (*p == '(' && --level == 0)
			return (size_t)(p - name);
	}
	return len;
}

size_t ct_args_quals_off(const char *name, size_t len)
{
	for (size_t i = len; i-- > 0;)
		if (name[i] == ')')
			return i + 1;
	return len;
}
