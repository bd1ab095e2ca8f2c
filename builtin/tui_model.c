/* SPDX-License-Identifier: MIT */
/*
 * calltrace tui's model (builtin/tui.h): one pass over the recording
 * gathers graph's call tree and report's rows with their own code
 * (lib/view/calltree.h, flat.h); the graph view's visible rows, the
 * report view's order and the callers view's edges are made when shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/tui.h"
#include "overhead.h"

/* ---- reading ------------------------------------------------------------ */

static uint32_t intern(struct tui *u, const struct ct_func *fn, struct ct_proc *p)
{
	uint32_t id = ct_names_intern(&u->names, fn->name);
	if (u->names.n > u->capstats) {
		size_t old = u->capstats, cap = u->names.cap;
		u->stats = ct_grow_zeroed(u->stats, old, cap, sizeof(*u->stats));
		u->active = ct_grow_zeroed(u->active, old, cap, sizeof(*u->active));
		u->procs = ct_grow_zeroed(u->procs, old, cap, sizeof(*u->procs));
		u->addrs = ct_grow_zeroed(u->addrs, old, cap, sizeof(*u->addrs));
		u->capstats = cap;
	}
	if (!u->procs[id]) {
		u->procs[id] = p;
		u->addrs[id] = fn->addr;
	}
	return id;
}

static inline void on_call(struct tui *u, struct ct_func *fn, const struct ct_event *ev)
{
	if (fn->user < 0)
		fn->user = intern(u, fn, ev->thread->proc);
	uint32_t id = (uint32_t)fn->user;
	*CT_PUSH(u->stack, u->depth, u->capstack) = (struct ct_fframe){.id = id};
	u->active[id]++;
	ct_tree_enter(&u->tree, id);
}

/* an exit: report's (any event but an entry) and graph's (an exit) */
static inline void on_leave(struct tui *u, const struct ct_event *ev)
{
	if (u->depth) {
		struct ct_fframe f = u->stack[--u->depth];
		ct_fstat_exit(&u->stats[f.id], &u->active[f.id], &f,
			      u->depth ? &u->stack[u->depth - 1] : NULL, ev);
	}
	if (ev->kind == CT_EXIT)
		ct_tree_exit(&u->tree, ev);
}

void tui_unfiltered(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n)
{
	struct tui *u = ctx;
	for (int i = 0; i < n; i++) {
		if (evs[i].kind == CT_ENTER)
			on_call(u, ct_filter_func(u->filt, t->proc, evs[i].addr), &evs[i]);
		else
			on_leave(u, &evs[i]);
	}
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct tui *u = ctx;
	if (fe->ev.kind == CT_ENTER)
		on_call(u, fe->fn, &fe->ev);
	else if (fe->ev.kind != CT_MARK)
		on_leave(u, &fe->ev);
}

int tui_read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct tui *u = ctx;
	ct_tree_thread_reset(&u->tree);
	int rc = ct_view_read_thread(v, t, NULL, emit, u);
	ct_tree_thread_reset(&u->tree);
	/* what is left open (only after an error) */
	while (u->depth) {
		struct ct_fframe f = u->stack[--u->depth];
		if (u->active[f.id])
			u->active[f.id]--;
	}
	return rc;
}

/* ---- the graph view ------------------------------------------------------ */

const char *tui_name_of(const struct tui *u, uint32_t id)
{
	return id == ROOT ? "<root>" : u->names.v[id];
}

/* node's children sorted as graph shows them (made once) */
static void sort_kids(struct tui *u, uint32_t node)
{
	if (u->kids[node] || u->tree.n[node].first_child == CT_TREE_NONE)
		return;
	size_t n;
	u->kids[node] = ct_tree_sorted_children(&u->tree, u->names.v, node, &n);
	u->nkids[node] = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		u->last[u->kids[node][i]] = i == n - 1;
}

/* the rows shown under node (its open descendants', depth-first, in the
 * order graph prints them) appended to out */
static void shown_under(struct tui *u, uint32_t node, uint32_t **out, size_t *n, size_t *cap)
{
	uint32_t *todo = NULL;
	size_t ntodo = 0, captodo = 0;
	*CT_PUSH(todo, ntodo, captodo) = node;
	bool first = true;
	while (ntodo) {
		uint32_t x = todo[--ntodo];
		if (!first)
			*CT_PUSH(*out, *n, *cap) = x;
		first = false;
		if (x && !u->open[x]) /* the root is always open */
			continue;
		sort_kids(u, x);
		for (uint32_t k = u->nkids[x]; k-- > 0;)
			*CT_PUSH(todo, ntodo, captodo) = u->kids[x][k];
	}
	free(todo);
}

/* how many rows are shown under node */
static size_t count_shown(struct tui *u, uint32_t node)
{
	uint32_t *rows = NULL;
	size_t n = 0, cap = 0;
	shown_under(u, node, &rows, &n, &cap);
	free(rows);
	return n;
}

/* the graph view's rows made again from the root */
void tui_rebuild_vis(struct tui *u)
{
	u->nvis = 0;
	shown_under(u, 0, &u->vis, &u->nvis, &u->capvis);
}

/* open or close the node of row r, the rows under it put in or taken out */
void tui_set_open(struct tui *u, size_t r, bool open)
{
	uint32_t node = u->vis[r];
	if (u->open[node] == open || u->tree.n[node].first_child == CT_TREE_NONE)
		return;
	if (!open) {
		size_t n = count_shown(u, node);
		u->open[node] = false;
		memmove(u->vis + r + 1, u->vis + r + 1 + n,
			(u->nvis - r - 1 - n) * sizeof(*u->vis));
		u->nvis -= n;
		return;
	}
	u->open[node] = true;
	uint32_t *rows = NULL;
	size_t n = 0, cap = 0;
	shown_under(u, node, &rows, &n, &cap);
	while (u->nvis + n > u->capvis) {
		u->capvis = u->capvis ? 2 * u->capvis : 256;
		u->vis = xrealloc(u->vis, u->capvis * sizeof(*u->vis));
	}
	memmove(u->vis + r + 1 + n, u->vis + r + 1, (u->nvis - r - 1) * sizeof(*u->vis));
	memcpy(u->vis + r + 1, rows, n * sizeof(*rows));
	u->nvis += n;
	free(rows);
}

/* every node open or closed; the selection kept on its node, or on the
 * nearest shown ancestor */
void tui_set_all(struct tui *u, bool open)
{
	uint32_t node = u->nvis ? u->vis[u->sel[V_GRAPH]] : 0;
	for (size_t i = 1; i < u->tree.len; i++)
		u->open[i] = open;
	tui_rebuild_vis(u);
	while (node && u->tree.n[node].depth > 1 && !open)
		node = u->tree.n[node].parent;
	for (size_t r = 0; r < u->nvis; r++)
		if (u->vis[r] == node)
			u->sel[V_GRAPH] = r;
}

/* make node shown (its ancestors opened) and select it */
void tui_reveal(struct tui *u, uint32_t node)
{
	for (uint32_t p = u->tree.n[node].parent; p; p = u->tree.n[p].parent)
		u->open[p] = true;
	tui_rebuild_vis(u);
	for (size_t r = 0; r < u->nvis; r++)
		if (u->vis[r] == node)
			u->sel[V_GRAPH] = r;
}

/* the node after node in the shown order of the whole tree (every node
 * open), 0 after the last */
uint32_t tui_next_node(struct tui *u, uint32_t node)
{
	sort_kids(u, node);
	if (u->nkids[node])
		return u->kids[node][0];
	while (node) {
		uint32_t p = u->tree.n[node].parent;
		sort_kids(u, p);
		for (uint32_t k = 0; k < u->nkids[p]; k++)
			if (u->kids[p][k] == node && k + 1 < u->nkids[p])
				return u->kids[p][k + 1];
		node = p;
	}
	return 0;
}

/* ---- the report view ----------------------------------------------------- */

static const struct tui *sort_u;

static uint64_t colval(const struct ct_fstat *st, enum col c)
{
	switch (c) {
	case C_TOTAL:
		return st->total;
	case C_SELF:
		return st->self;
	case C_CALLS:
		return st->calls;
	case C_AVG:
		return ct_fstat_avg(st);
	case C_MIN:
		return st->min;
	case C_MAX:
		return st->max;
	default:
		return 0;
	}
}

/* as report -s COL sorts: descending, names ascending; ties by name */
static int cmp_rows(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct tui *u = sort_u;
	if (u->col != C_NAME) {
		uint64_t va = colval(&u->stats[ia], u->col), vb = colval(&u->stats[ib], u->col);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	int c = strcmp(u->names.v[ia], u->names.v[ib]);
	return c ? c : (ia < ib ? -1 : ia > ib);
}

void tui_sort_rows(struct tui *u)
{
	uint32_t id = u->nrows ? u->rows[u->sel[V_REPORT]] : 0;
	sort_u = u;
	ct_qsort(u->rows, u->nrows, sizeof(*u->rows), cmp_rows);
	for (size_t r = 0; r < u->nrows; r++)
		if (u->rows[r] == id)
			u->sel[V_REPORT] = r;
}

/* ---- the callers view ---------------------------------------------------- */

/* the edges between functions, from the tree: calls summed, time counted
 * for the outermost activation of each edge on a path, as callers counts
 * them while reading */
static void make_edges(struct tui *u)
{
	const struct ct_tree *t = &u->tree;
	ct_u64map_init(&u->byedge);
	/* depth-first; an entry with the top bit set leaves the node */
	uint32_t *todo = NULL;
	size_t ntodo = 0, captodo = 0;
	for (uint32_t c = t->n[0].first_child; c != CT_TREE_NONE; c = t->n[c].next_sibling)
		*CT_PUSH(todo, ntodo, captodo) = c;
	uint32_t *edge_of = xmalloc(t->len * sizeof(*edge_of));
	while (ntodo) {
		uint32_t x = todo[--ntodo];
		if (x & 0x80000000u) {
			u->edges[edge_of[x & 0x7fffffffu]].active--;
			continue;
		}
		const struct ct_tnode *n = &t->n[x];
		uint32_t caller = n->parent ? t->n[n->parent].name : ROOT;
		bool added;
		uint32_t e = ct_u64map_index(&u->byedge, (uint64_t)caller << 32 | n->name,
					     u->nedges, &added);
		if (added)
			*CT_PUSH(u->edges, u->nedges, u->capedges) =
				(struct edge){.caller = caller, .callee = n->name};
		struct edge *ed = &u->edges[e];
		ed->calls += n->calls;
		if (!ed->active)
			ed->time += n->total;
		ed->active++;
		edge_of[x] = e;
		*CT_PUSH(todo, ntodo, captodo) = x | 0x80000000u;
		for (uint32_t c = n->first_child; c != CT_TREE_NONE; c = t->n[c].next_sibling)
			*CT_PUSH(todo, ntodo, captodo) = c;
	}
	free(todo);
	free(edge_of);
	u->have_edges = true;
}

static bool sort_callers;

/* as callers sorts a block's edges: time, then the other end's name */
static int cmp_crows(const void *a, const void *b)
{
	const struct tui *u = sort_u;
	const struct edge *ea = &u->edges[((const struct crow *)a)->edge];
	const struct edge *eb = &u->edges[((const struct crow *)b)->edge];
	if (ea->time != eb->time)
		return ea->time > eb->time ? -1 : 1;
	return strcmp(tui_name_of(u, sort_callers ? ea->caller : ea->callee),
		      tui_name_of(u, sort_callers ? eb->caller : eb->callee));
}

/* the callers view of function f */
void tui_show_callers(struct tui *u, uint32_t f, bool remember)
{
	if (!u->have_edges)
		make_edges(u);
	if (remember && u->view == V_CALLERS && u->ncrows)
		*CT_PUSH(u->history, u->nhistory, u->caphistory) = u->func;
	u->func = f;
	u->ncrows = 0;
	sort_u = u;
	for (int side = 0; side < 2; side++) {
		size_t from = u->ncrows;
		for (size_t e = 0; e < u->nedges; e++)
			if (side ? u->edges[e].caller == f : u->edges[e].callee == f)
				*CT_PUSH(u->crows, u->ncrows, u->capcrows) =
					(struct crow){side ? 1 : -1,
						      side ? u->edges[e].callee
							   : u->edges[e].caller,
						      (uint32_t)e};
		sort_callers = !side;
		ct_qsort(u->crows + from, u->ncrows - from, sizeof(*u->crows), cmp_crows);
		if (!side) {
			*CT_PUSH(u->crows, u->ncrows, u->capcrows) = (struct crow){0, f, 0};
			u->sel[V_CALLERS] = u->ncrows - 1;
		}
	}
	u->top[V_CALLERS] = 0;
	u->view = V_CALLERS;
}
