/* SPDX-License-Identifier: MIT */
/* The call tree aggregated by call path: calltree.h. */
#include "calltree.h"

#include <stdlib.h>
#include <string.h>

void ct_tree_init(struct ct_tree *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = 256;
	t->n = xmalloc(t->cap * sizeof(*t->n));
	t->len = 1;
	t->n[0] = (struct ct_tnode){.parent = CT_TREE_NONE,
				    .name = CT_TREE_NONE,
				    .first_child = CT_TREE_NONE,
				    .last_child = CT_TREE_NONE,
				    .next_sibling = CT_TREE_NONE};
	ct_u64map_init(&t->map);
}

void ct_tree_free(struct ct_tree *t)
{
	free(t->n);
	free(t->stack);
	ct_u64map_free(&t->map);
	t->n = NULL;
	t->stack = NULL;
}

uint32_t ct_tree_child(struct ct_tree *t, uint32_t parent, uint32_t name)
{
	/* a call most often has the callee of the last call or the first
	 * one made from its parent's path (a loop, a recursion): no look-up */
	uint32_t c = t->n[parent].last_child;
	if (c != CT_TREE_NONE && t->n[c].name == name)
		return c;
	c = t->n[parent].first_child;
	if (c != CT_TREE_NONE && t->n[c].name == name)
		return c;
	bool added;
	uint32_t i = ct_u64map_index(&t->map, (uint64_t)parent << 32 | name, t->len, &added);
	if (!added)
		return i;
	uint32_t depth = t->n[parent].depth + 1;
	*CT_PUSH(t->n, t->len, t->cap) =
		(struct ct_tnode){.parent = parent,
				  .name = name,
				  .first_child = CT_TREE_NONE,
				  .last_child = CT_TREE_NONE,
				  .next_sibling = CT_TREE_NONE,
				  .depth = depth,
				  .top = depth == CT_TREE_TOP  ? i
					 : depth > CT_TREE_TOP ? t->n[parent].top
							       : 0};
	if (t->n[parent].last_child == CT_TREE_NONE)
		t->n[parent].first_child = i;
	else
		t->n[t->n[parent].last_child].next_sibling = i;
	t->n[parent].last_child = i;
	return i;
}

int ct_tree_cmp(const struct ct_tree *t, const char *const *names, uint32_t a, uint32_t b)
{
	const struct ct_tnode *na = &t->n[a], *nb = &t->n[b];
	if (na->total != nb->total)
		return na->total > nb->total ? -1 : 1;
	int c = strcmp(names[na->name], names[nb->name]);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

static const struct ct_tree *sort_t;
static const char *const *sort_names;

static int cmp_kids(const void *a, const void *b)
{
	return ct_tree_cmp(sort_t, sort_names, *(const uint32_t *)a, *(const uint32_t *)b);
}

uint32_t *ct_tree_sorted_children(const struct ct_tree *t, const char *const *names, uint32_t node,
				  size_t *n)
{
	size_t k = 0;
	for (uint32_t c = t->n[node].first_child; c != CT_TREE_NONE; c = t->n[c].next_sibling)
		k++;
	*n = k;
	if (!k)
		return NULL;
	uint32_t *kids = xmalloc(k * sizeof(*kids));
	k = 0;
	for (uint32_t c = t->n[node].first_child; c != CT_TREE_NONE; c = t->n[c].next_sibling)
		kids[k++] = c;
	sort_t = t;
	sort_names = names;
	qsort(kids, k, sizeof(*kids), cmp_kids);
	return kids;
}
