/* SPDX-License-Identifier: MIT */
/*
 * The latency histogram (doc/plugins.md): per selected function, how long
 * its calls took, in log2 buckets of nanoseconds; printed when the process
 * exits and whenever it gets a signal (SIGUSR2 by default).
 *
 *   calltrace record --plugin=latency.so[:ARG,ARG...] PROG
 *
 *   out=FILE     write there instead of stderr (opened at start, appended
 *                to by every process the program forks)
 *   signal=N     print on signal N instead of SIGUSR2 (0: on none).  The
 *                program must not install a handler of its own for it.
 *
 * The printing is async-signal-safe: no malloc, no stdio; functions are
 * listed by name (an insertion sort into a static array).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

#define SLOTS 4096u
#define NB 64 /* bucket k: [2^(k-1), 2^k) ns; bucket 0: 0 ns */

struct slot {
	const void *fn;
	const char *name;
	uint64_t n, total;
	uint64_t b[NB];
};

static struct slot tab[SLOTS];
static uint64_t lost;
static int out_fd = 2;
static int busy; /* a print in progress (another thread's signal) */

static struct slot *find(const void *fn)
{
	size_t i = (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 52);
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

void calltrace_plugin_exit(const struct ct_plugin_call *c)
{
	struct slot *s = find(c->fn);
	if (!s) {
		__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
		return;
	}
	if (!s->name && c->name)
		__atomic_store_n(&s->name, c->name, __ATOMIC_RELAXED);
	uint64_t d = c->duration_ns;
	unsigned k = d ? 64u - (unsigned)__builtin_clzll(d) : 0;
	if (k >= NB)
		k = NB - 1;
	__atomic_fetch_add(&s->b[k], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->total, d, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->n, 1, __ATOMIC_RELAXED);
}

/* ---- printing (async-signal-safe) ------------------------------------------ */

static void put_line(struct ct_plugin_line *l)
{
	size_t off = 0;
	while (off < l->len) {
		ssize_t w = write(out_fd, l->buf + off, l->len - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	l->len = 0;
}

static void put_hex(struct ct_plugin_line *l, uintptr_t v)
{
	char t[19];
	int n = 0;
	do {
		t[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	ct_plugin_puts(l, "0x");
	while (n > 0) {
		char c[2] = {t[--n], 0};
		ct_plugin_puts(l, c);
	}
}

static int name_cmp(const struct slot *a, const struct slot *b)
{
	if (a->name && b->name)
		return strcmp(a->name, b->name);
	if (a->name || b->name)
		return a->name ? -1 : 1;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

static void print(const char *when)
{
	static uint32_t order[SLOTS];
	if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return;
	uint32_t n = 0;
	for (uint32_t i = 0; i < SLOTS; i++) {
		if (!tab[i].fn || !__atomic_load_n(&tab[i].n, __ATOMIC_RELAXED))
			continue;
		uint32_t j = n++;
		while (j > 0 && name_cmp(&tab[order[j - 1]], &tab[i]) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	char buf[512];
	struct ct_plugin_line l = {buf, 0, sizeof(buf)};
	ct_plugin_puts(&l, "# calltrace latency histogram: pid ");
	ct_plugin_putu(&l, (uint64_t)getpid());
	ct_plugin_puts(&l, ", ");
	ct_plugin_puts(&l, when);
	ct_plugin_puts(&l, "\n");
	put_line(&l);
	for (uint32_t o = 0; o < n; o++) {
		const struct slot *s = &tab[order[o]];
		uint64_t b[NB], calls = 0;
		for (int k = 0; k < NB; k++)
			calls += b[k] = __atomic_load_n(&s->b[k], __ATOMIC_RELAXED);
		ct_plugin_puts(&l, "function ");
		if (s->name)
			ct_plugin_puts(&l, s->name);
		else
			put_hex(&l, (uintptr_t)s->fn);
		ct_plugin_puts(&l, ": ");
		ct_plugin_putu(&l, calls);
		ct_plugin_puts(&l, " calls, average ");
		ct_plugin_putu(&l,
			       calls ? __atomic_load_n(&s->total, __ATOMIC_RELAXED) / calls : 0);
		ct_plugin_puts(&l, " ns\n");
		put_line(&l);
		for (int k = 0; k < NB; k++) {
			if (!b[k])
				continue;
			ct_plugin_puts(&l, "  [");
			ct_plugin_putu(&l, k ? 1ull << (k - 1) : 0);
			ct_plugin_puts(&l, ", ");
			ct_plugin_putu(&l, k ? (k < 64 ? 1ull << k : UINT64_MAX) : 1);
			ct_plugin_puts(&l, ") ns: ");
			ct_plugin_putu(&l, b[k]);
			ct_plugin_puts(&l, "\n");
			put_line(&l);
		}
	}
	uint64_t x = __atomic_load_n(&lost, __ATOMIC_RELAXED);
	if (x) {
		ct_plugin_puts(&l, "# ");
		ct_plugin_putu(&l, x);
		ct_plugin_puts(&l, " calls not counted (more functions than the table holds)\n");
		put_line(&l);
	}
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

static void on_signal(int sig)
{
	int e = errno;
	(void)sig;
	print("on signal");
	errno = e;
}

/* a word of ARGS it does not know (init then refuses) */
static int bad(const char *w)
{
	struct ct_plugin_line l;
	char buf[256];
	l.buf = buf;
	l.len = 0;
	l.cap = sizeof(buf) - 1;
	ct_plugin_puts(&l, "calltrace latency plugin: bad ARGS word '");
	ct_plugin_puts(&l, w);
	ct_plugin_puts(&l, "' (doc/plugins.md)");
	buf[l.len++] = '\n';
	if (write(2, buf, l.len) < 0)
		return 1;
	return 1;
}

int calltrace_plugin_init(const char *args)
{
	int sig = SIGUSR2;
	char a[4096];
	if (strlen(args) >= sizeof(a))
		return 1;
	strcpy(a, args);
	for (char *save = NULL, *w = strtok_r(a, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strncmp(w, "out=", 4) && w[4]) {
			out_fd = open(w + 4, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
				      0644);
			if (out_fd < 0)
				return bad(w);
		} else if (!strncmp(w, "signal=", 7)) {
			char *end;
			long v = strtol(w + 7, &end, 10);
			if (*end || end == w + 7 || v < 0 || v >= NSIG)
				return bad(w);
			sig = (int)v;
		} else {
			return bad(w);
		}
	}
	if (sig) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL) < 0)
			return 3;
	}
	return 0;
}

void calltrace_plugin_fini(void)
{
	print("at exit");
}
