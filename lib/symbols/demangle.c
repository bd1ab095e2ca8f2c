/* SPDX-License-Identifier: MIT */
/* How C++ names are shown (--demangle): see demangle.h. */
#include "demangle.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "util.h"

int ct_demangle_mode_of(const char *arg)
{
	if (!strcmp(arg, "full"))
		return CT_DEMANGLE_FULL;
	if (!strcmp(arg, "simple"))
		return CT_DEMANGLE_SIMPLE;
	if (!strcmp(arg, "no"))
		return CT_DEMANGLE_NO;
	return -1;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* the index just after the bracket that closes the one at s[i] (open,
 * close: its pair), nested pairs of any kind counted; strlen(s) when it is
 * not closed */
static size_t skip_balanced(const char *s, size_t i)
{
	int depth = 0;
	for (; s[i]; i++) {
		char c = s[i];
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == '>' || c == ')' || c == ']' || c == '}')
			depth--;
		if (depth == 0)
			return i + 1;
	}
	return i;
}

/* the length of the operator's symbol at s ("<<=", "()", "->*"), 0 when
 * there is none: the longest that matches */
static size_t op_len(const char *s)
{
	static const char *const ops[] = {
		"<=>", "<<=", ">>=", "->*", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
		"&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<",
		">",   "+",   "-",   "*",   "/",  "%",  "^",  "&",  "|",  "~",  "!",  "=",  ",",
	};
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (!strncmp(s, ops[k], strlen(ops[k])))
			return strlen(ops[k]);
	return 0;
}

char *ct_demangle_simplify(const char *full)
{
	static const char anon[] = "(anonymous namespace)";
	size_t len = strlen(full), n = 0, i = 0;
	char *out = xmalloc(len + 1);
	bool conversion = false; /* in "operator TYPE": its spaces are kept */

	while (i < len) {
		char c = full[i];
		if (!strncmp(full + i, "operator", 8) && (i == 0 || !ident_char(full[i - 1])) &&
		    !ident_char(full[i + 8])) {
			memcpy(out + n, "operator", 8);
			n += 8;
			i += 8;
			size_t op = op_len(full + i);
			if (op) {
				/* operator<, operator<<=, operator[], ...; what
				 * follows is the template's arguments, if any:
				 * "operator==<T>", "operator< <T>" */
				memcpy(out + n, full + i, op);
				n += op;
				i += op;
				if (full[i] == ' ' && full[i + 1] == '<')
					i++;
			} else if (full[i] == ' ') {
				/* operator new, operator delete[], operator int */
				conversion = true;
			}
			continue;
		}
		if (c == '<') {
			/* template arguments */
			i = skip_balanced(full, i);
			continue;
		}
		if (c == '[' && !strncmp(full + i, "[abi:", 5)) {
			i = skip_balanced(full, i);
			continue;
		}
		if (c == '{') {
			/* {lambda(int)#1}, {unnamed type#1}: as it is */
			size_t e = skip_balanced(full, i);
			memcpy(out + n, full + i, e - i);
			n += e - i;
			i = e;
			continue;
		}
		if (c == '(') {
			if (!strncmp(full + i, anon, sizeof(anon) - 1)) {
				memcpy(out + n, anon, sizeof(anon) - 1);
				n += sizeof(anon) - 1;
				i += sizeof(anon) - 1;
				continue;
			}
			/* a function's parameter list: a local entity's scope
			 * when "::" follows it (and its qualifiers), as in
			 * "get(int)::State::match(char) const": the scope is
			 * kept without its parameters, "get::State::match" */
			size_t e = skip_balanced(full, i);
			while (full[e] == ' ') {
				size_t k = e + 1;
				while (ident_char(full[k]) || full[k] == '&')
					k++;
				if (k == e + 1)
					break;
				e = k;
			}
			if (n && full[e] == ':' && full[e + 1] == ':') {
				i = e;
				continue;
			}
			/* the parameter list and what follows it ("const",
			 * "[clone .cold]"); n == 0 here is a return type of its
			 * own, "void (*f(int))(char)", and the name is left full */
			break;
		}
		if (c == ' ' && !conversion) {
			/* what came before is the return type */
			n = 0;
			i++;
			continue;
		}
		out[n++] = c;
		i++;
	}
	out[n] = 0;
	if (n == 0 || (n >= 2 && !strcmp(out + n - 2, "::"))) {
		/* not understood: the full name rather than nothing */
		free(out);
		return xstrdup(full);
	}
	return out;
}

char *ct_demangle_as(const char *name, enum ct_demangle_mode mode)
{
	if (mode == CT_DEMANGLE_NO)
		return NULL;
	char *full = ct_demangle(name);
	if (!full || mode == CT_DEMANGLE_FULL)
		return full;
	char *simple = ct_demangle_simplify(full);
	free(full);
	return simple;
}

/* where the qualified name begins in name (after its return type) and
 * where its parameter list does (-1: none found); false when the name is
 * not understood ("void (*f(int))(char)") */
static bool name_parts(const char *s, size_t len, size_t *start, long *params)
{
	static const char anon[] = "(anonymous namespace)";
	size_t i = 0;
	*start = 0;
	*params = -1;
	while (i < len) {
		char c = s[i];
		if (!strncmp(s + i, "operator", 8) && (i == 0 || !ident_char(s[i - 1])) &&
		    !ident_char(s[i + 8])) {
			i += 8;
			size_t op = op_len(s + i);
			if (op) {
				i += op;
				if (s[i] == ' ' && s[i + 1] == '<')
					i++;
			} else {
				/* operator new, operator int: up to its '(' */
				while (i < len && s[i] != '(') {
					if (s[i] == '<')
						i = skip_balanced(s, i);
					else
						i++;
				}
			}
			continue;
		}
		if (c == '<' || c == '[' || c == '{') {
			i = skip_balanced(s, i);
			continue;
		}
		if (c == '(') {
			if (!strncmp(s + i, anon, sizeof(anon) - 1)) {
				i += sizeof(anon) - 1;
				continue;
			}
			if (i == *start)
				return false; /* a return type of its own */
			/* a local entity's scope when "::" follows, as for
			 * ct_demangle_simplify */
			size_t e = skip_balanced(s, i);
			while (s[e] == ' ') {
				size_t k = e + 1;
				while (ident_char(s[k]) || s[k] == '&')
					k++;
				if (k == e + 1)
					break;
				e = k;
			}
			if (s[e] == ':' && s[e + 1] == ':') {
				i = e;
				continue;
			}
			*params = (long)i;
			return true;
		}
		if (c == ' ')
			*start = i + 1; /* what came before is the return type */
		i++;
	}
	return true;
}

/* one more name to match, malloc'd (kept in m->buf) */
static void match_add(struct ct_match_names *m, char *s)
{
	m->buf[m->nbuf++] = s;
	m->v[m->n++] = s;
}

void ct_match_names_init(struct ct_match_names *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	/* a library call's "@module" (after its parameters, if any) */
	const char *at = strrchr(name, '@');
	const char *rp = strrchr(name, ')');
	size_t len = at && (!rp || rp < at) ? (size_t)(at - name) : strlen(name);
	const char *suffix = name + len;
	size_t start;
	long params;
	if (!name_parts(name, len, &start, &params) || start >= len) {
		m->v[m->n++] = name;
	} else {
		match_add(m, xasprintf("%s", name + start));
		if (params > (long)start) {
			match_add(m, xasprintf("%.*s%s", (int)((size_t)params - start),
					       name + start, suffix));
			char *base = xasprintf("%.*s", (int)(len - start), name + start);
			char *simple = ct_demangle_simplify(base);
			free(base);
			char *t = xasprintf("%s%s", simple, suffix);
			free(simple);
			if (strcmp(t, m->v[1]))
				match_add(m, t);
			else
				free(t);
		}
	}
	/* a library call matches with its "@module" and without it */
	size_t sl = strlen(suffix), n0 = m->n;
	for (size_t i = 0; sl && i < n0; i++)
		match_add(m, xasprintf("%.*s", (int)(strlen(m->v[i]) - sl), m->v[i]));
}

bool ct_match_names_regex(const struct ct_match_names *m, const regex_t *re)
{
	for (size_t i = 0; i < m->n; i++)
		if (!regexec(re, m->v[i], 0, NULL, 0))
			return true;
	return false;
}

void ct_match_names_free(struct ct_match_names *m)
{
	for (size_t i = 0; i < m->nbuf; i++)
		free(m->buf[i]);
	memset(m, 0, sizeof(*m));
}
