/* SPDX-License-Identifier: MIT */
/*
 * Opening a calltrace.data directory (see doc/format.md and session.h): its
 * info, the processes' .proc files, the threads' .ev files found, the clock,
 * and the warnings collected for the user.  The reader's other parts: the
 * stream decoder (stream.c), the merge of threads (merge.c), the module map
 * and symbols (modules.c).
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argspec.h"
#include "calltrace/format.h"
#include "output.h"
#include "offcpu.h"
#include "session_priv.h"
#include "srcline.h"
#include "util.h"

void ct_session_warn(struct ct_session *s, const char *fmt, ...)
{
	struct session_priv *sp = priv(s);
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	void **slot = ct_u64map_slot(&sp->warned, ct_hash_str(msg));
	if (!*slot) {
		*slot = (void *)1;
		ct_msg_add(&sp->warnings, CT_MSG_WARN_PLAIN, "%s", msg);
	}
	free(msg);
}

struct ct_msgs *ct_session_warnings(struct ct_session *s)
{
	return &priv(s)->warnings;
}

/* ---- text files ------------------------------------------------------ */

/* the most the reader takes of each text file (doc/format.md, "What the
 * reader accepts"): far more than any recording has, and a bound on what a
 * hostile one can make it allocate */
#define MAX_INFO_BYTES (16u << 20)
#define MAX_PROC_BYTES (64u << 20)
#define MAX_PROC_ARGS (1u << 20)    /* "arg" lines of a process */
#define MAX_PROC_MODULES (1u << 16) /* "module" lines of a process */

/* info's command line (escaped arguments separated by one space each) as
 * a shell user would type it: arguments with blanks or quotes in single
 * quotes, an empty one as '' (two spaces in a row, or one at the end) */
static char *command_for_display(const char *val)
{
	if (!*val)
		return xstrdup("");
	size_t cap = strlen(val) * 4 + 16, n = 0;
	char *out = xmalloc(cap), *copy = xstrdup(val), *next = copy;
	while (next) {
		char *a = next, *sp = strchr(a, ' ');
		if (sp)
			*sp = 0;
		next = sp ? sp + 1 : NULL;
		char *arg = ct_unescape(a);
		bool quote = !*arg || strpbrk(arg, " \t\n'\"\\$`*?;&|<>()") != NULL;
		if (n)
			out[n++] = ' ';
		if (quote)
			out[n++] = '\'';
		for (char *c = arg; *c; c++) {
			if (*c == '\'' && quote) {
				memcpy(out + n, "'\\''", 4);
				n += 4;
			} else {
				out[n++] = *c;
			}
		}
		if (quote)
			out[n++] = '\'';
		free(arg);
	}
	out[n] = 0;
	free(copy);
	return out;
}

static bool parse_u64(const char *s, int base, uint64_t *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || end == s || (*end && *end != ' '))
		return false;
	*out = v;
	return true;
}

static int parse_info(struct ct_session *s, const char *path, struct ct_error *err)
{
	size_t len;
	struct ct_error e;
	char *text = ct_read_file(path, true, MAX_INFO_BYTES, &len, &e);
	if (!text) {
		if (errno == ENOENT)
			ct_set_err(err, "%s: not a calltrace data directory (no info file)",
				   s->dir);
		else
			ct_set_err(err, "%s", e.msg);
		return -1;
	}
	if (memchr(text, 0, len)) {
		ct_set_err(err, "%s: not a calltrace info file (binary data)", path);
		free(text);
		return -1;
	}
	bool have_version = false;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		const char *key = line, *val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		if (!strcmp(key, "calltrace-data")) {
			uint64_t v;
			if (!parse_u64(val, 10, &v) || v != CT_FORMAT_VERSION) {
				ct_set_err(err,
					   "%s: unsupported calltrace data version '%s' (this "
					   "reader knows %d)",
					   path, val, CT_FORMAT_VERSION);
				free(text);
				return -1;
			}
			have_version = true;
		} else if (!strcmp(key, "command")) {
			free(s->command);
			s->command = command_for_display(val);
		} else if (!strcmp(key, "start_time")) {
			free(s->start_time);
			s->start_time = xstrdup(val);
		} else if (!strcmp(key, "clock")) {
			free(s->clock_name);
			s->clock_name = xstrdup(val);
		} else if (!strcmp(key, "clock_hz")) {
			s->clock_hz = strtod(val, NULL);
		} else if (!strcmp(key, "start_clock")) {
			parse_u64(val, 10, &s->start_clock);
		} else if (!strcmp(key, "end_clock")) {
			parse_u64(val, 10, &s->end_clock);
		} else if (!strcmp(key, "flight")) {
			s->flight = true;
		} else if (!strcmp(key, "exit_status")) {
			free(s->exit_status);
			s->exit_status = xstrdup(val);
		} else if (!strcmp(key, "lost")) {
			parse_u64(val, 10, &s->lost);
		} else if (!strcmp(key, "unmatched")) {
			parse_u64(val, 10, &s->unmatched);
		} else if (!strcmp(key, "waits")) {
			parse_u64(val, 10, &s->waits);
		} else if (!strcmp(key, "write_errors")) {
			parse_u64(val, 10, &s->write_errors);
		} else if (!strcmp(key, "unwritten_events")) {
			parse_u64(val, 10, &s->unwritten_events);
		} else if (!strcmp(key, "unwritten_bytes")) {
			parse_u64(val, 10, &s->unwritten_bytes);
		} else if (!strcmp(key, "events")) {
			parse_u64(val, 10, &s->events);
		} else if (!strcmp(key, "complete")) {
			s->complete = !strcmp(val, "1");
		}
	}
	free(text);
	if (!have_version) {
		ct_set_err(err, "%s: not a calltrace info file (no 'calltrace-data' line)", path);
		return -1;
	}
	return 0;
}

/* ---- processes ----------------------------------------------------- */

static struct ct_proc *new_proc(struct ct_session *s, int pid, int gen)
{
	struct proc_priv *pp = xcalloc(1, sizeof(*pp));
	ct_u64map_init(&pp->cache);
	ct_u64map_init(&pp->bybase);
	ct_u64map_init(&pp->tnames);
	ct_u64map_init(&pp->lcnames);
	ct_u64map_init(&pp->lcalias);
	pp->overlaps = -1;
	struct ct_proc *p = &pp->pub;
	p->pid = pid;
	p->gen = gen;
	p->ppid = -1;
	p->argv = xcalloc(1, sizeof(char *));
	s->procs = xrealloc(s->procs, (s->nprocs + 1) * sizeof(*s->procs));
	s->procs[s->nprocs++] = p;
	*ct_u64map_slot(&priv(s)->procmap, (uint64_t)(uint32_t)pid << 32 | (uint32_t)gen) = p;
	return p;
}

static void add_module(struct ct_session *s, const char *file, struct ct_proc *p, char *rest,
		       uint64_t clock)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	if (p->nmodules >= MAX_PROC_MODULES) {
		if (!pp->warned_mods)
			ct_session_warn(s, "%s: more than %u modules; the rest are ignored", file,
					MAX_PROC_MODULES);
		pp->warned_mods = true;
		return;
	}
	/* BASE LO HI BUILDID PATH */
	char *f[4];
	for (int i = 0; i < 4; i++) {
		f[i] = rest;
		char *sp = strchr(rest, ' ');
		if (!sp)
			return;
		*sp = 0;
		rest = sp + 1;
	}
	struct ct_module m = {0};
	if (!parse_u64(f[0], 16, &m.base) || !parse_u64(f[1], 16, &m.lo) ||
	    !parse_u64(f[2], 16, &m.hi))
		return;
	m.load_clock = clock;
	m.unload_clock = UINT64_MAX;
	m.buildid = strcmp(f[3], "-") && *f[3] ? xstrdup(f[3]) : NULL;
	m.path = ct_unescape(rest);
	ct_proc_add_module(p, &m);
}

/* the whole lines of a .proc's text (changed in place), applied to p in
 * order */
static void parse_lines(struct ct_session *s, const char *path, struct ct_proc *p, char *text)
{
	int pid = p->pid;
	char *line = text;
	while (*line) {
		char *nl = strchr(line, '\n');
		*nl = 0;
		char *next = nl + 1;
		char *sp = strchr(line, ' ');
		char *val = sp ? sp + 1 : nl;
		if (sp)
			*sp = 0;
		uint64_t v;
		if (!strcmp(line, "pid")) {
			if (parse_u64(val, 10, &v) && (int)v != pid)
				ct_session_warn(s, "%s: pid %s does not match the file name", path,
						val);
		} else if (!strcmp(line, "ppid")) {
			if (parse_u64(val, 10, &v))
				p->ppid = (int)v;
		} else if (!strcmp(line, "thread-left-out")) {
			/* ADDR: at most one line per function (the runtime
			 * notes 16 at most) */
			if (parse_u64(val, 16, &v) && p->nleft_out < 64) {
				p->left_out = xrealloc(p->left_out,
						       (p->nleft_out + 1) * sizeof(*p->left_out));
				p->left_out[p->nleft_out++] = v;
			}
		} else if (!strcmp(line, "fork")) {
			p->forked = true;
		} else if (!strcmp(line, "exe")) {
			free(p->exe);
			p->exe = ct_unescape(val);
		} else if (!strcmp(line, "arg")) {
			struct proc_priv *pp = (struct proc_priv *)(void *)p;
			if ((size_t)p->argc >= MAX_PROC_ARGS) {
				if (!pp->warned_args)
					ct_session_warn(s,
							"%s: more than %u arguments; the rest are "
							"ignored",
							path, MAX_PROC_ARGS);
				pp->warned_args = true;
			} else {
				if ((size_t)p->argc + 2 > pp->capargv) {
					pp->capargv = 2 * ((size_t)p->argc + 2);
					p->argv = xrealloc(p->argv, pp->capargv * sizeof(char *));
				}
				p->argv[p->argc++] = ct_unescape(val);
				p->argv[p->argc] = NULL;
			}
		} else if (!strcmp(line, "thread-name")) {
			/* CLOCK TID NAME: a thread's name (the last one wins) */
			struct proc_priv *pp = (struct proc_priv *)(void *)p;
			unsigned long long clk;
			int tid, off = 0;
			if (sscanf(val, "%llu %d %n", &clk, &tid, &off) == 2 && off && tid > 0 &&
			    val[off] && strlen(val + off) <= 64) {
				void **slot = ct_u64map_slot(&pp->tnames, (uint64_t)tid);
				free(*slot);
				*slot = ct_unescape(val + off);
			}
		} else if (!strcmp(line, "clock")) {
			/* CLOCK MONO REALTIME: the trace clock and the system's
			 * clocks read at the same moment */
			unsigned long long c, mo, re;
			int end = 0;
			if (sscanf(val, "%llu %llu %llu%n", &c, &mo, &re, &end) == 3 && !val[end]) {
				p->start_clock = c;
				p->start_mono = mo;
				p->start_real = re;
				p->clock_ref = true;
			} else if (parse_u64(val, 10, &v)) {
				p->start_clock = v;
			}
		} else if (!strcmp(line, "overhead")) {
			/* CALLS INNER OUTER (doc/overhead.md) */
			unsigned long long c, in, out;
			if (sscanf(val, "%llu %llu %llu", &c, &in, &out) == 3 && c) {
				p->ovh_calls = c;
				p->ovh_inner = in;
				p->ovh_outer = out;
			}
		} else if (!strcmp(line, "overhead-hook")) {
			unsigned long long c, in, out;
			if (sscanf(val, "%llu %llu %llu", &c, &in, &out) == 3 && c) {
				p->ovh_hook_calls = c;
				p->ovh_hook_inner = in;
				p->ovh_hook_outer = out;
			}
		} else if (!strcmp(line, "sample")) {
			/* PERIOD_NS SIGNAL perf|timer: record --sample
			 * (runtime/sample.c) */
			unsigned long long ns;
			int sig, end = 0;
			char how[8];
			if (sscanf(val, "%llu %d %7[a-z]%n", &ns, &sig, how, &end) == 3 && end &&
			    !val[end] && ns && ns < (1ull << 40)) {
				p->sample_ns = ns;
				p->sample_sig = sig;
				p->sample_perf = !strcmp(how, "perf");
			}
		} else if (!strcmp(line, "frontend")) {
			if (!strcmp(val, "cyg"))
				p->frontends |= CT_PROC_FE_CYG;
			else if (!strcmp(val, "hook"))
				p->frontends |= CT_PROC_FE_HOOK;
		} else if (!strcmp(line, "module")) {
			char *sp2 = strchr(val, ' ');
			if (sp2) {
				*sp2 = 0;
				if (parse_u64(val, 10, &v))
					add_module(s, path, p, sp2 + 1, v);
			}
		} else if (!strcmp(line, "libcall")) {
			/* ADDR NAME: a library function the program calls
			 * (runtime/libcall.c), by the name it calls it */
			struct proc_priv *pp = (struct proc_priv *)(void *)p;
			char *a = strchr(val, ' ');
			if (a && a[1] && strlen(a + 1) <= 1024 && !strpbrk(a + 1, " \t")) {
				*a = 0;
				if (parse_u64(val, 16, &v) && v) {
					p->libcalls = true;
					void **slot = ct_u64map_slot(&pp->lcnames, v);
					if (!*slot)
						*slot = xstrdup(a + 1);
				}
			}
		} else if (!strcmp(line, "libcall-alias")) {
			/* JUMP TARGET NAME: a library call by a name whose
			 * implementation another name has, recorded as its jump
			 * to it (runtime/libcall.c) */
			struct proc_priv *pp = (struct proc_priv *)(void *)p;
			char *a = strchr(val, ' ');
			char *b = a ? strchr(a + 1, ' ') : NULL;
			uint64_t t;
			if (b && b[1] && strlen(b + 1) <= 1024 && !strpbrk(b + 1, " \t")) {
				*a = 0;
				*b = 0;
				if (parse_u64(val, 16, &v) && v && parse_u64(a + 1, 16, &t) && t) {
					p->libcalls = true;
					void **slot = ct_u64map_slot(&pp->lcnames, v);
					if (!*slot) {
						*slot = xstrdup(b + 1);
						*ct_u64map_slot(&pp->lcalias, v) =
							(void *)(uintptr_t)t;
					}
				}
			}
		} else if (!strcmp(line, "unmodule")) {
			/* CLOCK BASE PATH */
			char *a = strchr(val, ' ');
			char *b = a ? strchr(a + 1, ' ') : NULL;
			uint64_t clk, base;
			if (b) {
				*a = 0;
				*b = 0;
				if (parse_u64(val, 10, &clk) && parse_u64(a + 1, 16, &base)) {
					char *mp = ct_unescape(b + 1);
					ct_proc_unmodule(p, clk, base, mp);
					free(mp);
				}
			}
		}
		line = next;
	}
}

/* the bytes of text up to the end of its last whole line (a last line
 * without '\n' is being written, or was cut short by a crash), ended there */
static size_t whole_lines(char *text)
{
	char *lastnl = strrchr(text, '\n');
	size_t n = lastnl ? (size_t)(lastnl - text) + 1 : 0;
	text[n] = 0;
	return n;
}

static int parse_proc(struct ct_session *s, const char *path, int pid, int gen,
		      struct ct_error *err)
{
	size_t len;
	struct ct_error e;
	char *text = ct_read_file(path, true, MAX_PROC_BYTES, &len, &e);
	if (!text) {
		ct_set_err(err, "%s", e.msg);
		return -1;
	}
	if (strncmp(text, "calltrace-proc ", 15)) {
		ct_set_err(err, "%s: not a calltrace process file (bad magic)", path);
		free(text);
		return -1;
	}
	if (atoi(text + 15) != CT_FORMAT_VERSION) {
		ct_set_err(err, "%s: unsupported process file version", path);
		free(text);
		return -1;
	}
	struct ct_proc *p = new_proc(s, pid, gen);
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	pp->parsed = whole_lines(text);
	parse_lines(s, path, p, text);
	free(text);
	return 0;
}

int ct_session_proc_update(struct ct_session *s, struct ct_proc *p)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	if (!pp->parsed)
		return 0; /* no .proc read (made for a thread without one) */
	char *path = xasprintf("%s/%d-%d.proc", s->dir, p->pid, p->gen);
	struct stat st;
	size_t len;
	struct ct_error e;
	char *text = NULL;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > pp->parsed)
		text = ct_read_file(path, true, MAX_PROC_BYTES, &len, &e);
	size_t n = text && len > pp->parsed ? whole_lines(text + pp->parsed) : 0;
	if (!n) {
		free(text);
		free(path);
		return 0;
	}
	parse_lines(s, path, p, text + pp->parsed);
	pp->parsed += n;
	pp->lines++;
	pp->overlaps = -1; /* (modules may have come) */
	/* a new thread-name line freed the name it replaced */
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i]->proc == p)
			s->threads[i]->name =
				ct_u64map_get(&pp->tnames, (uint64_t)s->threads[i]->tid);
	free(text);
	free(path);
	return 1;
}

static struct ct_proc *find_proc(struct ct_session *s, int pid, int gen)
{
	/* a map, not a scan: a directory of many processes and threads must
	 * not make opening it quadratic */
	return ct_u64map_get(&priv(s)->procmap, (uint64_t)(uint32_t)pid << 32 | (uint32_t)gen);
}

static int cmp_proc(const void *a, const void *b)
{
	const struct ct_proc *x = *(struct ct_proc *const *)a, *y = *(struct ct_proc *const *)b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->gen < y->gen ? -1 : x->gen > y->gen;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct ct_thread *x = *(struct ct_thread *const *)a,
			       *y = *(struct ct_thread *const *)b;
	int c = cmp_proc(&x->proc, &y->proc);
	if (c)
		return c;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void ct_thread_label(const struct ct_thread *t, char *buf, size_t len)
{
	int pid = t->proc ? t->proc->pid : 0;
	if (t->name) {
		char esc[4 * 64 + 1];
		size_t n = strlen(t->name);
		if (n > 64)
			n = 64;
		esc[ct_text_escape(esc, t->name, n)] = 0;
		snprintf(buf, len, "%s (%d)", esc, t->tid);
	} else if (t->tid == pid) {
		snprintf(buf, len, "main (%d)", t->tid);
	} else {
		snprintf(buf, len, "thread %d", t->tid);
	}
}

static void free_proc(struct ct_proc *p)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	for (size_t k = 0; k < pp->tnames.cap; k++)
		if (pp->tnames.used[k])
			free(pp->tnames.vals[k]);
	ct_u64map_free(&pp->tnames);
	for (size_t k = 0; k < pp->lcnames.cap; k++)
		if (pp->lcnames.used[k])
			free(pp->lcnames.vals[k]);
	ct_u64map_free(&pp->lcnames);
	ct_u64map_free(&pp->lcalias);
	ct_proc_free_modules(p);
	free(p->left_out);
	free(p->exe);
	for (int i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	free(pp);
}

/* "<int>-<int>.proc" or "<int>-<int>-<int>.ev" */
static int parse_name(const char *name, const char *suffix, int *v, int n)
{
	const char *p = name;
	for (int i = 0; i < n; i++) {
		if (*p < '0' || *p > '9')
			return 0;
		long x = 0;
		while (*p >= '0' && *p <= '9') {
			x = x * 10 + (*p - '0');
			if (x > INT_MAX)
				return 0;
			p++;
		}
		v[i] = (int)x;
		if (i + 1 < n) {
			if (*p != '-')
				return 0;
			p++;
		}
	}
	return !strcmp(p, suffix);
}

/* a rate v > 0 as m * 2^e exactly, m odd (frexp and ldexp are exact) */
static void rate_parts(double v, uint64_t *m, int *e)
{
	int x;
	*m = (uint64_t)ldexp(frexp(v, &x), 53);
	*e = x - 53;
	while (*m && !(*m & 1)) {
		*m >>= 1;
		++*e;
	}
}

static void setup_clock(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	if (!(s->clock_hz > 0) || s->clock_hz > 1e15) {
		if (s->clock_name && strcmp(s->clock_name, "mono"))
			ct_session_warn(s, "%s/info: no clock rate recorded; assuming 1 GHz",
					s->dir);
		s->clock_hz = 1e9;
	}
	sp->exact_ns = s->clock_hz == 1e9;
	/* 1e9 * 2^64 / hz rounded down, = 1e9 * 2^(64 - e) / m: exact in
	 * 128 bits (1e9 < 2^30) for every rate but a fine fraction below
	 * 2^20 Hz, so the same bits in every build.  In long double they were
	 * not: the x87's 64-bit mantissa on x86-64, 113 bits on aarch64, whose
	 * roundings gave another ns_frac for a quarter of the rates (the
	 * rest, below) */
	uint64_t m;
	int e;
	rate_parts(s->clock_hz, &m, &e);
	if (m && e <= 64 && 64 - e <= 97) {
		unsigned __int128 q = ((unsigned __int128)1000000000 << (64 - e)) / m;
		sp->ns_int = (uint64_t)(q >> 64);
		sp->ns_frac = (uint64_t)q;
		return;
	}
	long double r = 1e9L / (long double)s->clock_hz;
	sp->ns_int = (uint64_t)r;
	sp->ns_frac = (uint64_t)((r - (long double)sp->ns_int) * 18446744073709551616.0L);
}

uint64_t ct_session_ns(const struct ct_session *s, uint64_t clock)
{
	return clock_ns(s, clock);
}

const char *ct_thread_name(const struct ct_thread *t)
{
	if (t->name)
		return t->name;
	const struct ct_proc *p = t->proc;
	const char *n = p && p->argc > 0 && p->argv && p->argv[0] ? p->argv[0]
			: p && p->exe                             ? p->exe
								  : "";
	const char *slash = strrchr(n, '/');
	return slash && slash[1] ? slash + 1 : n;
}

uint64_t ct_session_mono_start(const struct ct_session *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *p = s->procs[i];
		if (!p->clock_ref)
			continue;
		uint64_t since = clock_ns(s, p->start_clock);
		return p->start_mono > since ? p->start_mono - since : 0;
	}
	return 0;
}

int ct_session_open(struct ct_session **out, const char *dir, struct ct_error *err)
{
	*out = NULL;
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT)
			ct_set_err(err, "%s: no such directory (no recording here?)", dir);
		else
			ct_set_err(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ct_set_err(err, "%s: not a calltrace data directory (not a directory)", dir);
		return -1;
	}
	struct session_priv *sp = xcalloc(1, sizeof(*sp));
	struct ct_session *s = &sp->pub;
	ct_u64map_init(&sp->warned);
	ct_u64map_init(&sp->symtabs);
	ct_u64map_init(&sp->procmap);
	ct_u64map_init(&sp->offcpu);
	s->demangle = CT_DEMANGLE_FULL;
	s->dir = xstrdup(dir);
	size_t dl = strlen(s->dir);
	while (dl > 1 && s->dir[dl - 1] == '/')
		s->dir[--dl] = 0;

	char *path = xasprintf("%s/info", s->dir);
	int rc = parse_info(s, path, err);
	free(path);
	if (rc < 0)
		goto fail;
	if (!s->complete)
		ct_session_warn(s,
				"%s: the recording is incomplete (calltrace record did not "
				"finish); "
				"reading what was saved",
				s->dir);
	if (s->write_errors || s->unwritten_bytes)
		ct_session_warn(s,
				"%s: calltrace record could not write all of it: %" PRIu64
				" events (%" PRIu64 " bytes) lost",
				s->dir, s->unwritten_events, s->unwritten_bytes);

	DIR *d = opendir(s->dir);
	if (!d) {
		ct_set_err(err, "%s: %s", s->dir, strerror(errno));
		goto fail;
	}
	struct dirent *de;
	char **evnames = NULL;
	size_t nev = 0;
	while ((de = readdir(d))) {
		int v[3];
		bool is_proc = parse_name(de->d_name, ".proc", v, 2);
		if (!is_proc && !parse_name(de->d_name, ".ev", v, 3))
			continue;
		/* a data file is a regular file, never a link, a FIFO or a
		 * device (doc/format.md): say so now, before anything
		 * could block or read without end */
		struct stat fst;
		if (fstatat(dirfd(d), de->d_name, &fst, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(fst.st_mode)) {
			ct_set_err(err, "%s/%s: %s", s->dir, de->d_name,
				   S_ISLNK(fst.st_mode)
					   ? "a symbolic link (the files of a recording never are)"
				   : S_ISFIFO(fst.st_mode) ? "not a regular file (a FIFO)"
				   : S_ISDIR(fst.st_mode)  ? "not a regular file (a directory)"
							   : "not a regular file");
			closedir(d);
			for (size_t i = 0; i < nev; i++)
				free(evnames[i]);
			free(evnames);
			goto fail;
		}
		if (is_proc) {
			path = xasprintf("%s/%s", s->dir, de->d_name);
			rc = parse_proc(s, path, v[0], v[1], err);
			free(path);
			if (rc < 0) {
				closedir(d);
				for (size_t i = 0; i < nev; i++)
					free(evnames[i]);
				free(evnames);
				goto fail;
			}
		} else if (parse_name(de->d_name, ".ev", v, 3)) {
			evnames = xrealloc(evnames, (nev + 1) * sizeof(char *));
			evnames[nev++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	for (size_t i = 0; i < nev; i++) {
		int v[3];
		parse_name(evnames[i], ".ev", v, 3);
		struct ct_proc *p = find_proc(s, v[0], v[1]);
		if (!p) {
			ct_session_warn(s,
					"%s/%d-%d.proc: missing; the threads of process %d have no "
					"module map",
					s->dir, v[0], v[1], v[0]);
			p = new_proc(s, v[0], v[1]);
		}
		struct ct_thread *t = xcalloc(1, sizeof(*t));
		t->proc = p;
		t->tid = v[2];
		t->name = ct_u64map_get(&((struct proc_priv *)(void *)p)->tnames, (uint64_t)v[2]);
		t->path = xasprintf("%s/%s", s->dir, evnames[i]);
		if (lstat(t->path, &st) == 0 && S_ISREG(st.st_mode))
			t->bytes = (uint64_t)st.st_size;
		s->ev_bytes += t->bytes;
		s->threads = xrealloc(s->threads, (s->nthreads + 1) * sizeof(*s->threads));
		s->threads[s->nthreads++] = t;
		free(evnames[i]);
	}
	free(evnames);
	if (s->nprocs)
		ct_qsort(s->procs, s->nprocs, sizeof(*s->procs), cmp_proc);
	if (s->nthreads)
		ct_qsort(s->threads, s->nthreads, sizeof(*s->threads), cmp_thread);
	for (size_t i = 0; i < s->nthreads; i++)
		s->threads[i]->index = (int)i;
	setup_clock(s);
	path = xasprintf("%s/%s", s->dir, CT_ARGS_FILE);
	if (lstat(path, &st) == 0) {
		struct ct_error e;
		s->argtab = xmalloc(sizeof(*s->argtab));
		if (ct_argtab_load(s->argtab, path, &e) < 0) {
			ct_session_warn(s, "%s; arguments are not shown", e.msg);
			free(s->argtab);
			s->argtab = NULL;
		}
	}
	free(path);
	struct ct_error oe;
	if (ct_offcpu_load(s, &oe) < 0)
		ct_session_warn(s, "%s; off-CPU times are not shown", oe.msg);
	*out = s;
	return 0;
fail:
	ct_session_close(s);
	return -1;
}

void ct_session_close(struct ct_session *s)
{
	if (!s)
		return;
	struct session_priv *sp = priv(s);
	ct_msgs_free(&sp->warnings);
	ct_u64map_free(&sp->warned);
	ct_srcline_free(s);
	ct_session_free_symtabs(s);
	ct_u64map_free(&sp->procmap);
	ct_offcpu_free(s);
	for (size_t i = 0; i < s->nthreads; i++) {
		free(s->threads[i]->path);
		free(s->threads[i]);
	}
	free(s->threads);
	for (size_t i = 0; i < s->nprocs; i++)
		free_proc(s->procs[i]);
	free(s->procs);
	free(s->dir);
	free(s->command);
	free(s->start_time);
	free(s->clock_name);
	free(s->exit_status);
	if (s->argtab)
		ct_argtab_free(s->argtab);
	free(s->argtab);
	free(sp);
}
