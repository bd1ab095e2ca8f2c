/* SPDX-License-Identifier: MIT */
/*
 * export --format=folded: folded stacks for flamegraph.pl / speedscope, one
 * line per distinct stack "main;outer;middle VALUE", the value being the
 * self time in ns or the number of calls.  Stacks are nodes of a tree held
 * in a hash map keyed by (parent node, function name), so memory is bounded
 * by the number of distinct stacks.  builtin/export.c reads the calls and
 * hands each enter and exit here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/export.h"
#include "output.h"
#include "session.h"
#include "util.h"

static uint32_t node_of(struct exporter *x, uint32_t parent, uint32_t name)
{
	bool added;
	uint32_t id = ct_u64map_index(&x->bykey, (uint64_t)parent << 32 | name, x->nnodes, &added);
	if (!added)
		return id;
	struct node *n = CT_PUSH(x->nodes, x->nnodes, x->capnodes);
	const struct node *up = parent ? &x->nodes[parent - 1] : NULL;
	*n = (struct node){.parent = parent, .name = name, .depth = up ? up->depth + 1 : 0};
	if (x->outer && n->depth + 1 == x->outer)
		n->top = id + 1;
	else if (x->outer && n->depth + 1 > x->outer)
		n->top = up->top;
	return id;
}

/* ---- folded ---------------------------------------------------------- */

void ct_folded_enter(struct exporter *x, struct ct_func *fn)
{
	if (fn->user < 0)
		fn->user = ct_names_intern(&x->names, fn->name);
	uint32_t parent = x->depth ? x->stack[x->depth - 1].node + 1 : 0;
	uint32_t id = node_of(x, parent, (uint32_t)fn->user);
	*CT_PUSH(x->stack, x->depth, x->capstack) = (struct frame){.node = id};
}

void ct_folded_exit(struct exporter *x, const struct ct_event *ev)
{
	struct frame f = x->stack[--x->depth];
	uint64_t incl = ct_export_incl(x, ev);
	struct node *n = &x->nodes[f.node];
	if (ct_export_in_range(x, ev) && ct_call_counted(ev))
		n->calls++;
	/* the self times of a stack and its callees add up to its total */
	n->self += ct_call_self(incl, f.child);
	/* record --sample: the samples the same way (the callees' shown) */
	n->samples += ev->samples - (f.schild < ev->samples ? f.schild : ev->samples);
	if (x->depth) {
		x->stack[x->depth - 1].child += incl;
		x->stack[x->depth - 1].schild += ev->samples;
	}
}

struct fline {
	char *stack;
	uint64_t value;
};

static int cmp_fline(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->stack, ((const struct fline *)b)->stack);
}

/* append the frames from node k (id + 1) up n levels, outermost first, at
 * buf + pos; the new position */
static size_t put_frames(const struct exporter *x, char **tx, uint32_t k, uint32_t n, char *buf,
			 size_t pos)
{
	size_t len = 0;
	uint32_t j = k;
	for (uint32_t i = 0; i < n; i++, j = x->nodes[j - 1].parent)
		len += strlen(tx[x->nodes[j - 1].name]) + 1;
	size_t end = pos + len;
	j = k;
	for (uint32_t i = 0; i < n; i++, j = x->nodes[j - 1].parent) {
		const char *name = tx[x->nodes[j - 1].name];
		size_t l = strlen(name);
		end -= l + 1;
		memcpy(buf + end, name, l);
		buf[end + l] = ';';
	}
	return pos + len;
}

void ct_folded_print(struct exporter *x)
{
	/* the names as text (output.h), ';' (the frame separator) as ':' */
	char **tx = xmalloc((x->names.n ? x->names.n : 1) * sizeof(*tx));
	size_t longest = 16;
	for (size_t i = 0; i < x->names.n; i++) {
		tx[i] = ct_text_dup(x->names.v[i]);
		for (char *c = tx[i]; *c; c++)
			if (*c == ';')
				*c = ':';
		size_t l = strlen(tx[i]);
		if (l > longest)
			longest = l;
	}
	struct fline *lines = xmalloc((x->nnodes ? x->nnodes : 1) * sizeof(*lines));
	size_t n = 0;
	size_t cap = 256;
	char *buf = xmalloc(cap);
	for (size_t i = 0; i < x->nnodes; i++) {
		const struct node *nd = &x->nodes[i];
		if (x->value_samples ? !nd->samples
		    : x->value_calls ? !nd->calls
				     : !nd->calls && !nd->self)
			continue;
		uint32_t frames = nd->depth + 1;
		bool cut = x->outer && frames > x->outer + x->inner + 1;
		size_t room = (size_t)(cut ? x->outer + x->inner + 1 : frames) * (longest + 1) + 64;
		if (room > cap) {
			cap = 2 * room;
			buf = xrealloc(buf, cap);
		}
		size_t pos;
		if (!cut) {
			pos = put_frames(x, tx, (uint32_t)i + 1, frames, buf, 0);
		} else {
			pos = put_frames(x, tx, nd->top, x->outer, buf, 0);
			pos += (size_t)snprintf(buf + pos, cap - pos, "[\u2026 %u frames];",
						frames - x->outer - x->inner);
			pos = put_frames(x, tx, (uint32_t)i + 1, x->inner, buf, pos);
		}
		buf[pos - 1] = 0; /* the last ';' */
		lines[n++] = (struct fline){xstrdup(buf), x->value_samples ? nd->samples
							  : x->value_calls ? nd->calls
									   : nd->self};
	}
	free(buf);
	ct_qsort(lines, n, sizeof(*lines), cmp_fline);
	for (size_t i = 0; i < n; i++) {
		/* cut stacks that differ only in frames left out are one */
		uint64_t v = lines[i].value;
		while (i + 1 < n && !strcmp(lines[i].stack, lines[i + 1].stack)) {
			free(lines[i].stack);
			v += lines[++i].value;
		}
		fputs_unlocked(lines[i].stack, x->out);
		fprintf(x->out, " %llu\n", (unsigned long long)v);
		free(lines[i].stack);
	}
	free(lines);
	for (size_t i = 0; i < x->names.n; i++)
		free(tx[i]);
	free(tx);
}
