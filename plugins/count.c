/* SPDX-License-Identifier: MIT */
/*
 * The call counter (doc/plugins.md): how many times each selected function
 * was called, printed when the process exits, most called first.
 *
 *   calltrace record --plugin=count.so[:out=FILE] PROG
 *
 * out=FILE: write there instead of stderr; "%p" in FILE is the process id
 * (each process that exits prints its own counts: a forked child starts
 * from zero).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

#define SLOTS (1u << 16)

struct slot {
	const void *fn;
	const char *name;
	uint64_t n;
};

static struct slot tab[SLOTS];
static uint64_t lost; /* calls of functions past the table's room */
static char out_path[4096];

/* the function's slot, taken if new (lock-free: a slot's fn is set once) */
static struct slot *find(const void *fn)
{
	size_t i = (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 48);
	for (size_t k = 0; k < SLOTS; k++, i = (i + 1) & (SLOTS - 1)) {
		const void *cur = __atomic_load_n(&tab[i].fn, __ATOMIC_ACQUIRE);
		if (cur == fn)
			return &tab[i];
		if (!cur) {
			const void *expect = NULL;
			if (__atomic_compare_exchange_n(&tab[i].fn, &expect, fn, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
			    expect == fn)
				return &tab[i];
		}
	}
	return NULL;
}

void calltrace_plugin_enter(const struct ct_plugin_call *c)
{
	struct slot *s = find(c->fn);
	if (!s) {
		__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
		return;
	}
	if (!s->name && c->name)
		__atomic_store_n(&s->name, c->name, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->n, 1, __ATOMIC_RELAXED);
}

/* a forked child counts its own calls */
static void child(void)
{
	memset(tab, 0, sizeof(tab));
	lost = 0;
}

int calltrace_plugin_init(const char *args)
{
	if (!strncmp(args, "out=", 4)) {
		if (strlen(args + 4) >= sizeof(out_path) || !args[4])
			return 1;
		strcpy(out_path, args + 4);
	} else if (*args) {
		static const char m[] = "calltrace count plugin: unknown ARGS (out=FILE)\n";
		if (write(2, m, sizeof(m) - 1) < 0)
			return 1;
		return 1;
	}
	pthread_atfork(NULL, NULL, child);
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct slot *x = *(const struct slot *const *)a, *y = *(const struct slot *const *)b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* out_path with %p as the process id */
static FILE *open_out(void)
{
	if (!out_path[0])
		return stderr;
	char path[4200];
	size_t o = 0;
	for (const char *p = out_path; *p && o + 24 < sizeof(path); p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(path + o, sizeof(path) - o, "%d", (int)getpid());
			p++;
		} else {
			path[o++] = *p;
		}
	}
	path[o] = 0;
	return fopen(path, "w");
}

void calltrace_plugin_fini(void)
{
	size_t n = 0;
	uint64_t total = 0;
	struct slot **v = malloc(SLOTS * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < SLOTS; i++)
		if (tab[i].fn && tab[i].n) {
			v[n++] = &tab[i];
			total += tab[i].n;
		}
	qsort(v, n, sizeof(*v), by_count);
	FILE *f = open_out();
	if (!f) {
		free(v);
		return;
	}
	fprintf(f, "# calltrace count: pid %d, %zu functions, %llu calls\n", (int)getpid(), n,
		(unsigned long long)total);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->name)
			fprintf(f, "%12llu  %s\n", (unsigned long long)v[i]->n, v[i]->name);
		else
			fprintf(f, "%12llu  %p\n", (unsigned long long)v[i]->n, v[i]->fn);
	}
	if (lost)
		fprintf(f, "# %llu calls not counted (more than %u functions)\n",
			(unsigned long long)lost, SLOTS);
	if (f == stderr)
		fflush(f);
	else
		fclose(f);
	free(v);
}
