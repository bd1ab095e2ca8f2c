/* SPDX-License-Identifier: MIT */
/*
 * The slow-call logger (doc/plugins.md): when a selected call lasts longer
 * than a threshold, its name, duration, thread and call stack are written
 * at once, while the program runs.
 *
 *   calltrace record --plugin=slowlog.so[:ARG,ARG...] PROG
 *
 *   threshold=TIME  calls at least this long (default 1ms; ns, us, ms, s)
 *   out=FILE        write there instead of stderr (appended to by every
 *                   process the program forks)
 *   frames=N        print at most N callers (default 32)
 *
 * Everything it does at a call is async-signal-safe (write(2) of a line
 * built on the stack).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

#define MAX_FRAMES 256

static uint64_t threshold = 1000000; /* ns */
static unsigned frames = 32;
static int out_fd = 2;

static void put_name(struct ct_plugin_line *l, const void *fn, const char *name)
{
	if (!name && calltrace_plugin_name)
		name = calltrace_plugin_name(fn);
	if (name) {
		ct_plugin_puts(l, name);
		return;
	}
	char t[20];
	int n = 0;
	uintptr_t v = (uintptr_t)fn;
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

/* ns as milliseconds with three decimals */
static void put_ms(struct ct_plugin_line *l, uint64_t ns)
{
	uint64_t us = ns / 1000;
	char t[4] = {(char)('0' + us % 1000 / 100), (char)('0' + us % 100 / 10),
		     (char)('0' + us % 10), 0};
	ct_plugin_putu(l, us / 1000);
	ct_plugin_puts(l, ".");
	ct_plugin_puts(l, t);
}

void calltrace_plugin_exit(const struct ct_plugin_call *c)
{
	if (c->duration_ns < threshold)
		return;
	char buf[8192];
	struct ct_plugin_line l = {buf, 0, sizeof(buf) - 1};
	ct_plugin_puts(&l, "slow call: ");
	put_name(&l, c->fn, c->name);
	ct_plugin_puts(&l, " took ");
	put_ms(&l, c->duration_ns);
	ct_plugin_puts(&l, " ms (pid ");
	ct_plugin_putu(&l, (uint64_t)getpid());
	ct_plugin_puts(&l, ", thread ");
	ct_plugin_putu(&l, (uint64_t)c->tid);
	ct_plugin_puts(&l, ")\n");
	/* the stack, innermost first: the call itself is the first frame */
	const void *fns[MAX_FRAMES];
	unsigned n = calltrace_plugin_stack ? calltrace_plugin_stack(fns, MAX_FRAMES) : 0;
	for (unsigned i = 1; i < n && i <= frames; i++) {
		ct_plugin_puts(&l, "    called from ");
		put_name(&l, fns[i], NULL);
		ct_plugin_puts(&l, "\n");
	}
	if (n > frames + 1)
		ct_plugin_puts(&l, "    ...\n");
	if (l.len == l.cap)
		buf[l.len++] = '\n';
	size_t off = 0;
	while (off < l.len) {
		ssize_t w = write(out_fd, buf + off, l.len - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
}

/* TIME: a number and ns, us, ms or s (no unit: ns) */
static bool parse_time(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return false;
	uint64_t m = 1;
	if (!strcmp(end, "s"))
		m = 1000000000;
	else if (!strcmp(end, "ms"))
		m = 1000000;
	else if (!strcmp(end, "us"))
		m = 1000;
	else if (*end && strcmp(end, "ns"))
		return false;
	*out = v * m;
	return true;
}

/* a word of ARGS it does not know (init then refuses) */
static int bad(const char *w)
{
	struct ct_plugin_line l;
	char buf[256];
	l.buf = buf;
	l.len = 0;
	l.cap = sizeof(buf) - 1;
	ct_plugin_puts(&l, "calltrace slowlog plugin: bad ARGS word '");
	ct_plugin_puts(&l, w);
	ct_plugin_puts(&l, "' (doc/plugins.md)");
	buf[l.len++] = '\n';
	if (write(2, buf, l.len) < 0)
		return 1;
	return 1;
}

int calltrace_plugin_init(const char *args)
{
	char a[4096];
	if (strlen(args) >= sizeof(a))
		return 1;
	strcpy(a, args);
	for (char *save = NULL, *w = strtok_r(a, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strncmp(w, "threshold=", 10)) {
			if (!parse_time(w + 10, &threshold))
				return bad(w);
		} else if (!strncmp(w, "frames=", 7)) {
			char *end;
			long v = strtol(w + 7, &end, 10);
			if (*end || end == w + 7 || v < 0 || v >= MAX_FRAMES)
				return bad(w);
			frames = (unsigned)v;
		} else if (!strncmp(w, "out=", 4) && w[4]) {
			out_fd = open(w + 4, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
				      0644);
			if (out_fd < 0)
				return bad(w);
		} else {
			return bad(w);
		}
	}
	return 0;
}
