/* SPDX-License-Identifier: MIT */
/*
 * pairs: the calls made along each caller -> callee pair of a calltrace
 * recording, most first; outermost calls have the caller <root>.  An
 * example of the reading library (doc/reader.md):
 *
 *	cc -o pairs pairs.c $(pkg-config --cflags --libs calltrace-reader)
 *	./pairs [calltrace.data]
 *
 * Each thread is walked on its own; an entry's depth says where it is in
 * the thread's stack, so its caller is the function entered last one level
 * up.
 */
#include <calltrace/reader.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT UINT32_MAX

struct pair {
	uint32_t caller, callee; /* name ids */
	uint64_t calls;
};

/* an open-addressing table of pairs */
static struct pair *tab;
static size_t cap, used;

static void die(const char *what)
{
	fprintf(stderr, "pairs: %s\n", what);
	exit(1);
}

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		die("out of memory");
	return p;
}

static size_t slot(uint32_t caller, uint32_t callee)
{
	uint64_t h = ((uint64_t)caller << 32 | callee) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (cap - 1);
	while (tab[i].calls && (tab[i].caller != caller || tab[i].callee != callee))
		i = (i + 1) & (cap - 1);
	return i;
}

static void count(uint32_t caller, uint32_t callee)
{
	if (2 * (used + 1) > cap) {
		struct pair *old = tab;
		size_t oldcap = cap;
		cap = cap ? 2 * cap : 1024;
		tab = calloc(cap, sizeof(*tab));
		if (!tab)
			die("out of memory");
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].calls)
				tab[slot(old[i].caller, old[i].callee)] = old[i];
		free(old);
	}
	struct pair *p = &tab[slot(caller, callee)];
	if (!p->calls)
		used++;
	*p = (struct pair){caller, callee, p->calls + 1};
}

static const ct_reader *rd;

static const char *name(uint32_t id)
{
	return id == ROOT ? "<root>" : ct_reader_name(rd, id);
}

/* most calls first, then by caller and callee name */
static int cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	int c = strcmp(name(x->caller), name(y->caller));
	return c ? c : strcmp(name(x->callee), name(y->callee));
}

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: pairs [DIR]  (default calltrace.data)\n");
		return 2;
	}
	ct_reader *r;
	struct ct_reader_error err;
	if (ct_reader_open(argc == 2 ? argv[1] : "calltrace.data", 0, &r, &err) < 0)
		die(err.message);
	rd = r;
	uint32_t *stack = NULL; /* the name ids of the open calls, by depth */
	size_t depthcap = 0;
	struct ct_reader_rec recs[1024];
	for (size_t t = 0; t < ct_reader_thread_count(r); t++) {
		ct_reader_iter *it;
		if (ct_reader_iter_open(r, t, CT_READER_NO_ARGS, &it, &err) < 0)
			die(err.message);
		int n;
		while ((n = ct_reader_read(it, recs, 1024, &err)) > 0) {
			for (int i = 0; i < n; i++) {
				const struct ct_reader_rec *e = &recs[i];
				if (e->kind != CT_READER_ENTRY)
					continue;
				if (e->depth >= depthcap) {
					depthcap = 2 * (size_t)e->depth + 64;
					stack = grow(stack, depthcap, sizeof(*stack));
				}
				stack[e->depth] = e->name;
				count(e->depth ? stack[e->depth - 1] : ROOT, e->name);
			}
		}
		ct_reader_iter_close(it);
		if (n < 0)
			die(err.message);
	}
	struct pair *rows = grow(NULL, used ? used : 1, sizeof(*rows));
	size_t k = 0;
	for (size_t i = 0; i < cap; i++)
		if (tab[i].calls)
			rows[k++] = tab[i];
	qsort(rows, k, sizeof(*rows), cmp);
	for (size_t i = 0; i < k; i++)
		printf("%10llu  %s -> %s\n", (unsigned long long)rows[i].calls,
		       name(rows[i].caller), name(rows[i].callee));
	for (size_t i = 0; i < ct_reader_warning_count(r); i++)
		fprintf(stderr, "pairs: warning: %s\n", ct_reader_warning(r, i));
	free(rows);
	free(tab);
	free(stack);
	ct_reader_close(r);
	return 0;
}
