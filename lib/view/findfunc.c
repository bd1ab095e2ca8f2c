/* SPDX-License-Identifier: MIT */
/* The function a user names: see findfunc.h. */
#include "findfunc.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "output.h"
#include "symtab.h"

/* the length of name without its parameter list (and what follows it):
 * up to the '(' that opens it, not one of "operator()" */
static size_t base_len(const char *name)
{
	const char *p = name;
	for (;;) {
		const char *q = strchr(p, '(');
		if (!q)
			return strlen(name);
		if (q - name >= 8 && !strncmp(q - 8, "operator", 8) && q[1] == ')') {
			p = q + 2;
			continue;
		}
		return (size_t)(q - name);
	}
}

/* where the plain name begins in name[0..n): after the last "::" outside
 * template brackets */
static size_t plain_start(const char *name, size_t n)
{
	size_t start = 0;
	int angle = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (name[i] == '<')
			angle++;
		else if (name[i] == '>' && angle > 0)
			angle--;
		else if (!angle && name[i] == ':' && name[i + 1] == ':')
			start = i + 2;
	}
	return start;
}

/* Levenshtein distance of a[0..la) and b[0..lb), capped at cap + 1 */
static size_t distance(const char *a, size_t la, const char *b, size_t lb, size_t cap)
{
	if (la > 64 || lb > 64)
		return cap + 1;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0], best = row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t v = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb];
}

/* the ids of the names that rule r accepts */
enum rule { EXACT, NO_PARAMS, PLAIN, REGEX };

static bool accepts(enum rule r, const char *name, const char *q, size_t ql, const regex_t *re)
{
	size_t n = base_len(name);
	switch (r) {
	case EXACT:
		return !strcmp(name, q);
	case NO_PARAMS:
		return n == ql && !strncmp(name, q, n);
	case PLAIN: {
		/* "method", and "twice" for a template's "twice<int>" */
		size_t s = plain_start(name, n);
		return !strncmp(name + s, q, ql) && (n - s == ql || name[s + ql] == '<');
	}
	case REGEX:
		return re && !regexec(re, name, 0, NULL, 0);
	}
	return false;
}

/* accepts, for the name as shown or its demangled form (a mangled name
 * shown with --demangle=no: `graph ns::f` finds _ZN2ns1fEv) */
static bool accepts2(enum rule r, const char *name, const char *full, const char *q, size_t ql,
		     const regex_t *re)
{
	if (r == REGEX) {
		/* the names the filters' regexes see (demangle.h) */
		if (!re)
			return false;
		struct ct_match_names m;
		ct_match_names_init(&m, full ? full : name);
		bool ok = ct_match_names_regex(&m, re);
		ct_match_names_free(&m);
		return ok;
	}
	return accepts(r, name, q, ql, re) || (full && accepts(r, full, q, ql, re));
}

static int64_t find(const struct ct_names *t, char **full, const char *query,
		    bool (*ok)(void *ctx, uint32_t id), void *ctx, struct ct_error *err);

int64_t ct_find_function(const struct ct_names *t, const char *query,
			 bool (*ok)(void *ctx, uint32_t id), void *ctx, struct ct_error *err)
{
	char **full = xcalloc(t->n ? t->n : 1, sizeof(*full));
	for (size_t i = 0; i < t->n; i++)
		full[i] = ct_demangle(t->v[i]);
	int64_t id = find(t, full, query, ok, ctx, err);
	for (size_t i = 0; i < t->n; i++)
		free(full[i]);
	free(full);
	return id;
}

static int64_t find(const struct ct_names *t, char **full, const char *query,
		    bool (*ok)(void *ctx, uint32_t id), void *ctx, struct ct_error *err)
{
	size_t ql = strlen(query);
	regex_t re;
	bool have_re = regcomp(&re, query, REG_EXTENDED | REG_NOSUB) == 0;
	int64_t found = -1;
	for (enum rule r = EXACT; r <= REGEX && found < 0; r++) {
		size_t n = 0;
		int64_t first = -1;
		for (size_t i = 0; i < t->n; i++) {
			if (!accepts2(r, t->v[i], full[i], query, ql, have_re ? &re : NULL) ||
			    (ok && !ok(ctx, (uint32_t)i)))
				continue;
			if (!n++)
				first = (int64_t)i;
		}
		if (n == 1) {
			found = first;
		} else if (n > 1) {
			/* several: name them */
			char list[400] = "";
			size_t k = 0, shown = 0;
			for (size_t i = 0; i < t->n && shown < 6; i++) {
				if (!accepts2(r, t->v[i], full[i], query, ql,
					      have_re ? &re : NULL) ||
				    (ok && !ok(ctx, (uint32_t)i)))
					continue;
				int w = snprintf(list + k, sizeof(list) - k, "%s%s",
						 shown ? ", " : "", ct_tx(t->v[i]));
				if (w < 0 || (size_t)w >= sizeof(list) - k)
					break;
				k += (size_t)w;
				shown++;
			}
			ct_set_err(err, "'%s' names %zu functions: %s%s; name one of them", query,
				   n, list, n > shown ? ", ..." : "");
			if (have_re)
				regfree(&re);
			return -1;
		}
	}
	if (have_re)
		regfree(&re);
	if (found >= 0)
		return found;
	/* nothing: the closest plain names */
	char list[400] = "";
	size_t k = 0, shown = 0, cap = ql / 3 > 2 ? ql / 3 : 2;
	for (size_t d = 0; d <= cap && shown < 4; d++) {
		for (size_t i = 0; i < t->n && shown < 4; i++) {
			if (ok && !ok(ctx, (uint32_t)i))
				continue;
			const char *name = t->v[i];
			size_t n = base_len(name), s = plain_start(name, n);
			if (distance(name + s, n - s, query, ql, cap) != d)
				continue;
			int w = snprintf(list + k, sizeof(list) - k, "%s%s", shown ? ", " : "",
					 ct_tx(name));
			if (w < 0 || (size_t)w >= sizeof(list) - k)
				break;
			k += (size_t)w;
			shown++;
		}
	}
	if (shown)
		ct_set_err(err, "no calls of '%s' in the trace; did you mean %s?", query, list);
	else
		ct_set_err(err, "no calls of '%s' in the trace", query);
	return -1;
}
