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
#include <sys/mman.h>
#include <unistd.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

#define SLOTS (1u << 16)

struct slot {
	const void *fn;
	const char *name;
	uint64_t n;
};

/* each thread counts into a table of its own (no atomic increment: that
 * alone cost 7.5 ns per call on fib); the tables are summed at the end.
 * A callback never interrupts another of the same thread, so a thread's
 * table needs no lock */
struct table {
	struct table *next;
	uint64_t lost; /* calls of functions past the table's room */
	struct slot s[SLOTS];
};

static struct table *tables; /* every thread's, pushed with a CAS */
static __thread struct table *mine __attribute__((tls_model("initial-exec")));
static uint64_t lost; /* threads that got no table */
static char out_path[4096];

static struct table *new_table(void)
{
	struct table *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (t == MAP_FAILED)
		return NULL;
	t->next = __atomic_load_n(&tables, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&tables, &t->next, t, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	return t;
}

/* fn's slot in s (taken if new), or NULL when full */
static struct slot *find(struct slot *s, const void *fn)
{
	size_t i = (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 48);
	for (size_t k = 0; k < SLOTS; k++, i = (i + 1) & (SLOTS - 1)) {
		if (s[i].fn == fn)
			return &s[i];
		if (!s[i].fn) {
			s[i].fn = fn;
			return &s[i];
		}
	}
	return NULL;
}

/* the rare cases, out of line, so that the common one saves no register */
static __attribute__((noinline)) void first_in_thread(const void *fn);
static __attribute__((noinline)) void first_call(struct slot *s, const void *fn)
{
	if (calltrace_plugin_name)
		s->name = calltrace_plugin_name(fn);
}

/* the cheapest callback (include/calltrace/plugin.h): only the function,
 * which is all a counter needs; its name is asked once, at its first call
 * in the thread (a module dlclosed later takes its names with it) */
void calltrace_plugin_enter_fn(const void *fn)
{
	struct table *t = mine;
	if (__builtin_expect(!t, 0)) {
		first_in_thread(fn);
		return;
	}
	struct slot *s = find(t->s, fn);
	if (__builtin_expect(!s, 0)) {
		t->lost++;
		return;
	}
	if (__builtin_expect(!s->n++, 0))
		first_call(s, fn);
}

static void first_in_thread(const void *fn)
{
	if (!(mine = new_table())) {
		__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
		return;
	}
	calltrace_plugin_enter_fn(fn);
}

/* a forked child counts its own calls */
static void child(void)
{
	tables = NULL; /* (the parent's are left as copies) */
	mine = NULL;
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
	/* the threads' tables summed into one */
	struct slot *sum = calloc(SLOTS, sizeof(*sum));
	struct slot **v = malloc(SLOTS * sizeof(*v));
	if (!sum || !v) {
		free(sum);
		free(v);
		return;
	}
	uint64_t nlost = lost;
	for (struct table *t = __atomic_load_n(&tables, __ATOMIC_ACQUIRE); t; t = t->next) {
		nlost += t->lost;
		for (size_t i = 0; i < SLOTS; i++) {
			if (!t->s[i].fn || !t->s[i].n)
				continue;
			struct slot *m = find(sum, t->s[i].fn);
			if (!m) {
				nlost += t->s[i].n;
				continue;
			}
			if (!m->name)
				m->name = t->s[i].name;
			m->n += t->s[i].n;
		}
	}
	size_t n = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < SLOTS; i++)
		if (sum[i].fn) {
			v[n++] = &sum[i];
			total += sum[i].n;
		}
	qsort(v, n, sizeof(*v), by_count);
	FILE *f = open_out();
	if (f) {
		fprintf(f, "# calltrace count: pid %d, %zu functions, %llu calls\n", (int)getpid(),
			n, (unsigned long long)total);
		for (size_t i = 0; i < n; i++) {
			if (v[i]->name)
				fprintf(f, "%12llu  %s\n", (unsigned long long)v[i]->n, v[i]->name);
			else
				fprintf(f, "%12llu  %p\n", (unsigned long long)v[i]->n, v[i]->fn);
		}
		if (nlost)
			fprintf(f, "# %llu calls not counted (more than %u functions)\n",
				(unsigned long long)nlost, SLOTS);
		if (f == stderr)
			fflush(f);
		else
			fclose(f);
	}
	free(sum);
	free(v);
}
