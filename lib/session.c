/* SPDX-License-Identifier: MIT */
/*
 * Reading a calltrace.data directory (see doc/format.md and session.h).
 *
 * The stream decoder reads each .ev file through a fixed-size buffer and
 * keeps only the open call stack, so memory is bounded by the stack depth,
 * never by the length of the trace.
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argspec.h"
#include "calltrace/format.h"
#include "symtab.h"
#include "output.h"
#include "util.h"

#define STREAM_BUF (1u << 20)
#define MAX_RECORD (4u + 4u * 255u)
/* the deepest nesting a stream may have (doc/format.md): a bound on the
 * memory a hostile stream can make the decoder and the views take (32 bytes
 * per open call here, as much again in a view), 64 << 18 so that the
 * stack's capacity, doubled from 64, reaches it exactly */
#define MAX_DEPTH (1u << 24)

/* ---- private parts of the public structures ----------------------------- */

struct symcache {
	char *key;
	struct ct_symtab *tab; /* NULL when no symbols could be had */
	struct symcache *next;
};

struct session_priv {
	struct ct_session pub;
	char **warnings;
	size_t nwarnings;
	struct ct_u64map warned; /* hash of each warning text: printed once */
	/* clock -> ns: ns = d * ns_int + round(d * ns_frac / 2^64) */
	uint64_t ns_int, ns_frac;
	bool exact_ns;           /* clock_hz == 1e9 */
	struct ct_u64map symtabs; /* hash of key -> struct symcache list */
	struct ct_u64map procmap; /* pid << 32 | gen -> struct ct_proc * */
};

struct proc_priv {
	struct ct_proc pub;
	struct ct_u64map cache; /* addr -> struct ct_sym_info * */
	size_t capargv, capmod;
	uint32_t *same_base;    /* by module: index + 1 of the one before it
				 * with the same base, 0 for none */
	struct ct_u64map bybase; /* base -> index + 1 of the latest module */
	/* the modules by lo (ties in file order), and the largest hi of
	 * those up to each position: made at the first look-up */
	uint32_t *bylo;
	uint64_t *maxhi;
	size_t nindexed; /* nmodules when they were made */
	bool warned_args, warned_mods;
};

static struct session_priv *priv(const struct ct_session *s)
{
	return (struct session_priv *)(void *)s;
}

static void set_err(struct ct_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct ct_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	ct_text_fix(err->msg, sizeof(err->msg));
}

void ct_session_warn(struct ct_session *s, const char *fmt, ...)
{
	struct session_priv *sp = priv(s);
	va_list ap;
	char *msg = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "calltrace: out of memory\n");
		exit(1);
	}
	void **slot = ct_u64map_slot(&sp->warned, ct_hash_str(msg));
	if (*slot) {
		free(msg);
		return;
	}
	*slot = (void *)1;
	sp->warnings = xrealloc(sp->warnings, (sp->nwarnings + 1) * sizeof(char *));
	sp->warnings[sp->nwarnings++] = msg;
}

/* ---- text files ------------------------------------------------------ */

/* the most the reader takes of each text file (doc/format.md, "What the
 * reader accepts"): far more than any recording has, and a bound on what a
 * hostile one can make it allocate */
#define MAX_INFO_BYTES (16u << 20)
#define MAX_PROC_BYTES (64u << 20)
#define MAX_PROC_ARGS (1u << 20)    /* "arg" lines of a process */
#define MAX_PROC_MODULES (1u << 16) /* "module" lines of a process */
#define UNMODULE_WALK 256           /* modules at the same base looked at */

/* undo the escaping of doc/format.md: \\ \n \xHH */
static char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	while (*s) {
		if (*s == '\\' && s[1]) {
			if (s[1] == '\\') {
				*o++ = '\\';
				s += 2;
				continue;
			}
			if (s[1] == 'n') {
				*o++ = '\n';
				s += 2;
				continue;
			}
			if (s[1] == 'x' && s[2] && s[3]) {
				char hex[3] = {s[2], s[3], 0};
				char *end;
				unsigned long v = strtoul(hex, &end, 16);
				if (!*end) {
					*o++ = (char)v;
					s += 4;
					continue;
				}
			}
		}
		*o++ = *s++;
	}
	*o = 0;
	return out;
}

/* info's command line (escaped arguments separated by spaces) as a shell
 * user would type it: arguments with blanks or quotes in single quotes */
static char *command_for_display(const char *val)
{
	size_t cap = strlen(val) * 4 + 16, n = 0;
	char *out = xmalloc(cap), *copy = xstrdup(val), *save = NULL;
	for (char *a = strtok_r(copy, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
		char *arg = unescape(a);
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
	char *text = ct_read_file(path, true, MAX_INFO_BYTES, &len, e.msg, sizeof(e.msg));
	if (!text) {
		if (errno == ENOENT)
			set_err(err, "%s: not a calltrace data directory (no info file)", s->dir);
		else
			set_err(err, "%s", e.msg);
		return -1;
	}
	if (memchr(text, 0, len)) {
		set_err(err, "%s: not a calltrace info file (binary data)", path);
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
				set_err(err, "%s: unsupported calltrace data version '%s' (this reader knows %d)",
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
		set_err(err, "%s: not a calltrace info file (no 'calltrace-data' line)", path);
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
	m.path = xstrdup(rest);
	if (p->nmodules == pp->capmod) {
		pp->capmod = pp->capmod ? 2 * pp->capmod : 16;
		p->modules = xrealloc(p->modules, pp->capmod * sizeof(*p->modules));
		pp->same_base = xrealloc(pp->same_base, pp->capmod * sizeof(*pp->same_base));
	}
	void **slot = ct_u64map_slot(&pp->bybase, m.base);
	pp->same_base[p->nmodules] = (uint32_t)(uintptr_t)*slot;
	p->modules[p->nmodules++] = m;
	*slot = (void *)(uintptr_t)p->nmodules;
}

/* "unmodule CLOCK BASE PATH": the latest module still mapped at base with
 * that path was unmapped (the last UNMODULE_WALK at that base are looked at,
 * so that a hostile file cannot make this quadratic) */
static void unmodule(struct ct_proc *p, uint64_t clk, uint64_t base, const char *path)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	uint32_t i = (uint32_t)(uintptr_t)ct_u64map_get(&pp->bybase, base);
	for (unsigned k = 0; i && k < UNMODULE_WALK; k++, i = pp->same_base[i - 1]) {
		struct ct_module *m = &p->modules[i - 1];
		if (m->unload_clock == UINT64_MAX && !strcmp(m->path, path)) {
			m->unload_clock = clk;
			return;
		}
	}
}

static int parse_proc(struct ct_session *s, const char *path, int pid, int gen,
		      struct ct_error *err)
{
	size_t len;
	struct ct_error e;
	char *text = ct_read_file(path, true, MAX_PROC_BYTES, &len, e.msg, sizeof(e.msg));
	if (!text) {
		set_err(err, "%s", e.msg);
		return -1;
	}
	if (strncmp(text, "calltrace-proc ", 15)) {
		set_err(err, "%s: not a calltrace process file (bad magic)", path);
		free(text);
		return -1;
	}
	if (atoi(text + 15) != CT_FORMAT_VERSION) {
		set_err(err, "%s: unsupported process file version", path);
		free(text);
		return -1;
	}
	/* a last line without '\n' was cut short by a crash: ignore it */
	char *lastnl = strrchr(text, '\n');
	if (lastnl)
		lastnl[1] = 0;
	else
		text[0] = 0;
	struct ct_proc *p = new_proc(s, pid, gen);
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
				ct_session_warn(s, "%s: pid %s does not match the file name", path, val);
		} else if (!strcmp(line, "ppid")) {
			if (parse_u64(val, 10, &v))
				p->ppid = (int)v;
		} else if (!strcmp(line, "exe")) {
			free(p->exe);
			p->exe = xstrdup(val);
		} else if (!strcmp(line, "arg")) {
			struct proc_priv *pp = (struct proc_priv *)(void *)p;
			if ((size_t)p->argc >= MAX_PROC_ARGS) {
				if (!pp->warned_args)
					ct_session_warn(s, "%s: more than %u arguments; the rest are ignored",
							path, MAX_PROC_ARGS);
				pp->warned_args = true;
			} else {
				if ((size_t)p->argc + 2 > pp->capargv) {
					pp->capargv = 2 * ((size_t)p->argc + 2);
					p->argv = xrealloc(p->argv, pp->capargv * sizeof(char *));
				}
				p->argv[p->argc++] = unescape(val);
				p->argv[p->argc] = NULL;
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
		} else if (!strcmp(line, "unmodule")) {
			/* CLOCK BASE PATH */
			char *a = strchr(val, ' ');
			char *b = a ? strchr(a + 1, ' ') : NULL;
			uint64_t clk, base;
			if (b) {
				*a = 0;
				*b = 0;
				if (parse_u64(val, 10, &clk) && parse_u64(a + 1, 16, &base))
					unmodule(p, clk, base, b + 1);
			}
		}
		line = next;
	}
	free(text);
	return 0;
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

static void free_proc(struct ct_proc *p)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	for (size_t i = 0; i < pp->cache.cap; i++) {
		if (pp->cache.used[i]) {
			struct ct_sym_info *si = pp->cache.vals[i];
			free((char *)si->name);
			free(si);
		}
	}
	ct_u64map_free(&pp->cache);
	ct_u64map_free(&pp->bybase);
	free(pp->same_base);
	free(pp->bylo);
	free(pp->maxhi);
	free(p->exe);
	for (int i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	for (size_t i = 0; i < p->nmodules; i++) {
		free(p->modules[i].path);
		free(p->modules[i].buildid);
	}
	free(p->modules);
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

static void setup_clock(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	if (!(s->clock_hz > 0) || s->clock_hz > 1e15) {
		if (s->clock_name && strcmp(s->clock_name, "mono"))
			ct_session_warn(s, "%s/info: no clock rate recorded; assuming 1 GHz", s->dir);
		s->clock_hz = 1e9;
	}
	sp->exact_ns = s->clock_hz == 1e9;
	long double r = 1e9L / (long double)s->clock_hz;
	sp->ns_int = (uint64_t)r;
	sp->ns_frac = (uint64_t)((r - (long double)sp->ns_int) * 18446744073709551616.0L);
}

/* d ticks -> ns with the fixed-point rate of setup_clock (1 GHz is ns_int 1,
 * ns_frac 0: d itself) */
static inline uint64_t fixed_ns(uint64_t d, uint64_t ns_int, uint64_t ns_frac)
{
	unsigned __int128 r = (unsigned __int128)d * ns_int +
			      (((unsigned __int128)d * ns_frac + (1ULL << 63)) >> 64);
	return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

/* clock -> ns; inline so that the stream decoder pays no call per event */
static inline uint64_t clock_ns(const struct ct_session *s, uint64_t clock)
{
	if (clock <= s->start_clock)
		return 0;
	uint64_t d = clock - s->start_clock;
	const struct session_priv *sp = priv(s);
	if (sp->exact_ns)
		return d;
	if (!sp->ns_int && !sp->ns_frac) /* session built by hand */
		return (uint64_t)((long double)d * 1e9L / (long double)s->clock_hz);
	return fixed_ns(d, sp->ns_int, sp->ns_frac);
}

uint64_t ct_session_ns(const struct ct_session *s, uint64_t clock)
{
	return clock_ns(s, clock);
}

int ct_session_open(struct ct_session **out, const char *dir, struct ct_error *err)
{
	*out = NULL;
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT)
			set_err(err, "%s: no such directory (no recording here?)", dir);
		else
			set_err(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, "%s: not a calltrace data directory (not a directory)", dir);
		return -1;
	}
	struct session_priv *sp = xcalloc(1, sizeof(*sp));
	struct ct_session *s = &sp->pub;
	ct_u64map_init(&sp->warned);
	ct_u64map_init(&sp->symtabs);
	ct_u64map_init(&sp->procmap);
	s->demangle = true;
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
		ct_session_warn(s, "%s: the recording is incomplete (calltrace record did not finish); "
				   "reading what was saved",
				s->dir);
	if (s->write_errors || s->unwritten_bytes)
		ct_session_warn(s, "%s: calltrace record could not write all of it: %" PRIu64
				   " events (%" PRIu64 " bytes) lost",
				s->dir, s->unwritten_events, s->unwritten_bytes);

	DIR *d = opendir(s->dir);
	if (!d) {
		set_err(err, "%s: %s", s->dir, strerror(errno));
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
			set_err(err, "%s/%s: %s", s->dir, de->d_name,
				S_ISLNK(fst.st_mode)
					? "a symbolic link (the files of a recording never are)"
				: S_ISFIFO(fst.st_mode) ? "not a regular file (a FIFO)"
				: S_ISDIR(fst.st_mode)	? "not a regular file (a directory)"
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
			ct_session_warn(s, "%s/%d-%d.proc: missing; the threads of process %d have no module map",
					s->dir, v[0], v[1], v[0]);
			p = new_proc(s, v[0], v[1]);
		}
		struct ct_thread *t = xcalloc(1, sizeof(*t));
		t->proc = p;
		t->tid = v[2];
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
		char e[600];
		s->argtab = xmalloc(sizeof(*s->argtab));
		if (ct_argtab_load(s->argtab, path, e, sizeof(e)) < 0) {
			ct_session_warn(s, "%s; arguments are not shown", e);
			free(s->argtab);
			s->argtab = NULL;
		}
	}
	free(path);
	*out = s;
	return 0;
fail:
	s->quiet = true;
	ct_session_close(s);
	return -1;
}

void ct_session_close(struct ct_session *s)
{
	if (!s)
		return;
	struct session_priv *sp = priv(s);
	for (size_t i = 0; i < sp->nwarnings; i++) {
		if (!s->quiet)
			fprintf(stderr, "calltrace: warning: %s\n", ct_tx(sp->warnings[i]));
		free(sp->warnings[i]);
	}
	free(sp->warnings);
	ct_u64map_free(&sp->warned);
	for (size_t i = 0; i < sp->symtabs.cap; i++) {
		if (!sp->symtabs.used[i])
			continue;
		for (struct symcache *c = sp->symtabs.vals[i], *n; c; c = n) {
			n = c->next;
			ct_symtab_free(c->tab);
			free(c->key);
			free(c);
		}
	}
	ct_u64map_free(&sp->symtabs);
	ct_u64map_free(&sp->procmap);
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

/* ---- the stream decoder -------------------------------------------------- */

struct frame {
	uint64_t addr;
	uint64_t start; /* ns */
	uint64_t mark;  /* the stream's entry count just after this entry */
	struct ct_callargs *ca; /* captured arguments/return value, or NULL */
};

struct ct_stream {
	struct ct_session *s;
	struct ct_thread *t;
	int fd;
	unsigned char *buf;
	size_t bufsize, len, pos;
	uint64_t buf_off; /* file offset of buf[0] */
	uint64_t size;    /* the file's size when opened: nothing after it is read */
	bool eof;         /* read() returned 0 */
	bool ended;       /* no more records */

	uint64_t base;    /* delta base (clock) */
	uint64_t hi;      /* address bits 40..63 */
	uint64_t last_time; /* ns of the last event given out */

	struct frame *stack;
	size_t depth, cap;
	uint64_t nenter;  /* entries so far: an exit's below = nenter - mark */

	/* exits owed before the next record is decoded */
	size_t pend_n;
	unsigned pend_flags;
	uint64_t pend_time;
	bool pend_final;        /* then one more exit with final_flags */
	unsigned final_flags;

	uint64_t lost, unmatched, unknown;
	bool warned_bad;
	struct ct_error ioerr;
	bool failed;
	/* an error met by ct_stream_read after some events: reported by the
	 * next call, once those events are consumed */
	bool has_err;
	struct ct_error err;

	struct ct_args_pool args; /* decoded arguments, see argspec.h */
	uint64_t nev_last;        /* events given by the last read */
};

/* make n bytes available at buf[pos]; false at end of file (or error) */
static bool ensure(struct ct_stream *st, size_t n)
{
	if (st->len - st->pos >= n)
		return true;
	if (st->eof || st->failed)
		return false;
	if (st->pos) {
		memmove(st->buf, st->buf + st->pos, st->len - st->pos);
		st->buf_off += st->pos;
		st->len -= st->pos;
		st->pos = 0;
	}
	while (st->len < n) {
		uint64_t at = st->buf_off + st->len;
		size_t want = st->bufsize - st->len;
		if (at >= st->size) {
			st->eof = true;
			return false;
		}
		if (want > st->size - at)
			want = (size_t)(st->size - at);
		ssize_t r = read(st->fd, st->buf + st->len, want);
		if (r > 0)
			st->s->bytes_read += (uint64_t)r;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			set_err(&st->ioerr, "%s: offset %" PRIu64 ": %s", st->t->path,
				st->buf_off + st->len, strerror(errno));
			st->failed = true;
			return false;
		}
		if (r == 0) {
			st->eof = true;
			return false;
		}
		st->len += (size_t)r;
	}
	return true;
}

static inline uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static int stream_open(struct ct_session *s, struct ct_thread *t, size_t bufsize,
		       struct ct_stream **out, struct ct_error *err)
{
	*out = NULL;
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(t->path, true, &size, &why);
	if (fd < 0) {
		set_err(err, "%s: %s", t->path, why);
		return -1;
	}
	struct ct_stream *st = xcalloc(1, sizeof(*st));
	st->s = s;
	st->t = t;
	st->fd = fd;
	st->size = size;
	/* no bigger than the file (the fuzzer opens many small ones) */
	if (bufsize > size + 64)
		bufsize = (size_t)size + 64;
	st->bufsize = bufsize < MAX_RECORD + 64 ? MAX_RECORD + 64 : bufsize;
	st->buf = xmalloc(st->bufsize);
	st->cap = 64;
	st->stack = xmalloc(st->cap * sizeof(*st->stack));
	struct ct_ev_file_header h;
	if (!ensure(st, sizeof(h))) {
		if (st->failed) {
			*err = st->ioerr;
			ct_stream_close(st);
			return -1;
		}
		/* a thread killed before its header was whole: no events */
		size_t n = st->len < 8 ? st->len : 8;
		if (memcmp(st->buf, CT_EV_MAGIC, n)) {
			set_err(err, "%s: not a calltrace event stream (bad magic)", t->path);
			ct_stream_close(st);
			return -1;
		}
		ct_session_warn(s, "%s: %s; no events", t->path,
				st->len ? "header cut short" : "empty file");
		st->ended = true;
		*out = st;
		return 0;
	}
	const unsigned char *p = st->buf;
	if (memcmp(p, CT_EV_MAGIC, 8)) {
		set_err(err, "%s: not a calltrace event stream (bad magic)", t->path);
		ct_stream_close(st);
		return -1;
	}
	uint32_t version = rd32(p + 8);
	if (version != CT_FORMAT_VERSION) {
		set_err(err, "%s: unsupported event stream version %u (this reader knows %d)",
			t->path, version, CT_FORMAT_VERSION);
		ct_stream_close(st);
		return -1;
	}
	uint32_t pid = rd32(p + 12), tid = rd32(p + 16), gen = rd32(p + 20);
	if ((int)pid != t->proc->pid || (int)tid != t->tid || (int)gen != t->proc->gen)
		ct_session_warn(s, "%s: header says pid %u tid %u gen %u, unlike its name",
				t->path, pid, tid, gen);
	st->base = rd64(p + 24);
	st->pos = sizeof(h);
	*out = st;
	return 0;
}

int ct_stream_open(struct ct_session *s, struct ct_thread *t, struct ct_stream **out,
		   struct ct_error *err)
{
	return stream_open(s, t, STREAM_BUF, out, err);
}

uint64_t ct_stream_lost(const struct ct_stream *st)
{
	return st->lost;
}

uint64_t ct_stream_unmatched(const struct ct_stream *st)
{
	return st->unmatched;
}

uint64_t ct_stream_unknown(const struct ct_stream *st)
{
	return st->unknown;
}

uint64_t ct_stream_offset(const struct ct_stream *st)
{
	return st->buf_off + st->pos;
}

void ct_stream_close(struct ct_stream *st)
{
	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	if (st->args.bad)
		ct_session_warn(st->s,
				"%s: %" PRIu64 " argument or return-value records matched no call "
				"or not their spec; those values are not shown",
				st->t->path, st->args.bad);
	free(st->buf);
	for (size_t i = 0; i < st->depth; i++)
		ct_args_release(st->stack[i].ca);
	ct_args_pool_free(&st->args);
	free(st->stack);
	free(st);
}

static inline uint64_t clamp_time(struct ct_stream *st, uint64_t t)
{
	if (t < st->last_time)
		t = st->last_time;
	st->last_time = t;
	return t;
}

static void push(struct ct_stream *st, struct ct_event *ev, uint64_t addr, uint64_t time,
		 unsigned flags)
{
	if (st->depth == st->cap) {
		st->cap *= 2;
		st->stack = xrealloc(st->stack, st->cap * sizeof(*st->stack));
	}
	time = clamp_time(st, time);
	st->stack[st->depth] = (struct frame){addr, time, ++st->nenter, NULL};
	ev->below = 0;
	ev->args = NULL;
	ev->kind = CT_ENTER;
	ev->flags = flags;
	ev->addr = addr;
	ev->time = time;
	ev->start = time;
	ev->depth = (uint32_t)st->depth;
	ev->thread = st->t;
	st->depth++;
}

static void pop(struct ct_stream *st, struct ct_event *ev, uint64_t time, unsigned flags)
{
	struct frame *f = &st->stack[--st->depth];
	ev->kind = CT_EXIT;
	ev->flags = flags;
	ev->addr = f->addr;
	ev->time = clamp_time(st, time);
	ev->start = f->start;
	ev->depth = (uint32_t)st->depth;
	ev->thread = st->t;
	ev->below = st->nenter - f->mark;
	ev->args = f->ca;
	if (f->ca) {
		ct_args_retire(&st->args, f->ca);
		f->ca = NULL;
	}
}

/* an ARGS record right after the ENTER just decoded: attach it */
static void take_args(struct ct_stream *st, struct ct_event *ev)
{
	if (!st->s->argtab || !ensure(st, 4))
		return; /* without specs, ARGS records are skipped as they come */
	uint32_t w = rd32(st->buf + st->pos);
	if ((w & 3) != CT_REC_EXT || CT_EXT_TYPE(w) != CT_EXT_ARGS)
		return;
	size_t size = 4 + 4 * (size_t)CT_EXT_LEN(w);
	if (!ensure(st, size))
		return; /* cut short: the end of the stream handles it */
	const uint32_t *p = (const uint32_t *)(const void *)(st->buf + st->pos + 4);
	st->pos += size;
	uint32_t n = CT_EXT_LEN(w);
	if (!ct_args_payload_ok(st->s->argtab, CT_EXT_ARG(w), false, p, n)) {
		st->args.bad++;
		return;
	}
	struct frame *f = &st->stack[st->depth - 1];
	f->ca = ct_args_new(CT_EXT_ARG(w), p, n);
	ev->args = f->ca;
}

/* data no writer of this version produces: stop with the file and offset */
static int corrupt(struct ct_stream *st, struct ct_error *err, uint64_t off, const char *what)
{
	st->ended = true;
	st->pend_n = 0;
	st->pend_final = false;
	if (err)
		snprintf(err->msg, sizeof(err->msg), "%s: offset %" PRIu64 ": %s: the file is corrupt",
			 st->t->path, off, what);
	return -1;
}

/* the time of the next delta-coded record, if it is already at hand */
static uint64_t peek_time(struct ct_stream *st)
{
	if (!ensure(st, 4))
		return st->base;
	uint32_t w = rd32(st->buf + st->pos);
	if ((w & 3) == CT_REC_EXIT)
		return st->base + (w >> 2);
	if ((w & 3) == CT_REC_ENTER && ensure(st, 8))
		return st->base + ((rd64(st->buf + st->pos) >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1));
	return st->base;
}

/* decode up to the next event, any record kind, refilling the buffer as
 * needed: the general (and slow) path of ct_stream_read */
static int stream_next_slow(struct ct_stream *st, struct ct_event *ev, struct ct_error *err)
{
	struct ct_session *s = st->s;
	for (;;) {
		if (st->pend_n) {
			st->pend_n--;
			pop(st, ev, st->pend_time, st->pend_flags);
			return 1;
		}
		if (st->pend_final) {
			st->pend_final = false;
			pop(st, ev, st->pend_time, st->final_flags);
			return 1;
		}
		if (st->ended)
			return 0;
		if (!ensure(st, 4)) {
			if (st->failed) {
				if (err)
					*err = st->ioerr;
				st->ended = true;
				return -1;
			}
			goto end;
		}
		uint64_t off = st->buf_off + st->pos;
		const unsigned char *p = st->buf + st->pos;
		uint32_t w = rd32(p);
		switch (w & 3) {
		case CT_REC_PAD:
			st->pos += 4;
			continue;
		case CT_REC_EXIT:
			st->pos += 4;
			st->base += w >> 2;
			if (!st->depth)
				return corrupt(st, err, off, "a return with no call open");
			pop(st, ev, clock_ns(s, st->base), 0);
			return 1;
		case CT_REC_ENTER: {
			if (!ensure(st, 8))
				goto end;
			if (st->depth >= MAX_DEPTH)
				return corrupt(st, err, off, "calls nested deeper than 16777216");
			uint64_t q = rd64(st->buf + st->pos);
			st->pos += 8;
			st->base += (q >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1);
			uint64_t addr = (q >> 24) | st->hi;
			push(st, ev, addr, clock_ns(s, st->base), 0);
			take_args(st, ev);
			return 1;
		}
		default: /* EXT */
			break;
		}
		unsigned type = CT_EXT_TYPE(w), len = CT_EXT_LEN(w);
		size_t size = 4 + 4 * (size_t)len;
		if (!ensure(st, size))
			goto end; /* cut short: the stream ends here */
		p = st->buf + st->pos + 4;
		st->pos += size;
		switch (type) {
		case CT_EXT_TIME:
			if (len < 2) {
				return corrupt(st, err, off, "TIME record too short");
			}
			st->base = rd64(p);
			continue;
		case CT_EXT_HI:
			if (len < 1) {
				return corrupt(st, err, off, "HI record too short");
			}
			st->hi = (uint64_t)(rd32(p) & 0xffffff) << CT_ADDR_LOW_BITS;
			continue;
		case CT_EXT_UNWIND: {
			if (len < 1) {
				return corrupt(st, err, off, "UNWIND record too short");
			}
			uint32_t n = rd32(p);
			if (n > st->depth)
				return corrupt(st, err, off, "UNWIND of more calls than are open");
			st->pend_n = n;
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, peek_time(st));
			continue;
		}
		case CT_EXT_UNWIND_TO: {
			/* the open frames above the outermost `depth` ended (a
			 * longjmp out of a handler that interrupted a hook) */
			if (len < 1) {
				return corrupt(st, err, off, "UNWIND_TO record too short");
			}
			uint32_t keep = rd32(p);
			st->pend_n = st->depth > keep ? st->depth - keep : 0;
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, peek_time(st));
			continue;
		}
		case CT_EXT_NENTER: {
			if (len < 4) {
				return corrupt(st, err, off, "NENTER record too short");
			}
			uint64_t clk = rd64(p), addr = rd64(p + 8);
			if (st->depth >= MAX_DEPTH)
				return corrupt(st, err, off, "calls nested deeper than 16777216");
			push(st, ev, addr, clock_ns(s, clk), CT_EVF_SIGNAL);
			return 1;
		}
		case CT_EXT_NEXIT: {
			if (len < 4) {
				return corrupt(st, err, off, "NEXIT record too short");
			}
			uint64_t clk = rd64(p), addr = rd64(p + 8);
			size_t i = st->depth;
			while (i > 0 && st->stack[i - 1].addr != addr)
				i--;
			if (!i) {
				st->unmatched++;
				continue;
			}
			st->pend_n = st->depth - i; /* frames above the match */
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, clk);
			st->pend_final = true;
			st->final_flags = CT_EVF_SIGNAL;
			continue;
		}
		case CT_EXT_LOST:
			if (len < 2) {
				return corrupt(st, err, off, "LOST record too short");
			}
			st->lost += rd64(p);
			continue;
		case CT_EXT_ARGS: /* not after its ENTER (a signal came between) */
			st->args.bad += s->argtab != NULL; /* without specs: said once */
			continue;
		case CT_EXT_RETVAL: {
			const uint32_t *pw = (const uint32_t *)(const void *)p;
			if (!s->argtab)
				continue;
			if (!st->depth || !ct_args_payload_ok(s->argtab, CT_EXT_ARG(w), true, pw, len)) {
				st->args.bad++;
				continue;
			}
			struct frame *f = &st->stack[st->depth - 1];
			if (!f->ca)
				f->ca = ct_args_new(CT_EXT_ARG(w), NULL, 0);
			if (f->ca->spec == CT_EXT_ARG(w))
				ct_args_set_ret(f->ca, pw, len);
			else
				st->args.bad++;
			continue;
		}
		default:
			return corrupt(st, err, off, "unknown record type");
		}
	end:
		st->ended = true;
		st->pend_n = st->depth;
		st->pend_flags = CT_EVF_UNFINISHED;
		st->pend_time = st->last_time;
	}
}

/*
 * The fast path: plain ENTER and EXIT records, with nothing pending, while at
 * least 8 bytes (the longest of the two) are buffered.  It does exactly what
 * stream_next_slow does for these two records, with the stream's state in
 * locals; anything else (EXT records, a growing stack, a corrupt EXIT, the
 * end of the buffer) is left to stream_next_slow.  Returns the number of
 * events decoded into ev[0..max).
 */
static size_t stream_fast(struct ct_stream *st, struct ct_event *ev, size_t max)
{
	const struct session_priv *sp = priv(st->s);
	if (st->pend_n || st->pend_final || st->ended || st->len - st->pos < 8 ||
	    (!sp->ns_int && !sp->ns_frac))
		return 0;
	/* clock_ns, with the rate in registers */
	const uint64_t start = sp->pub.start_clock, ns_int = sp->ns_int, ns_frac = sp->ns_frac;
	const unsigned char *p = st->buf + st->pos, *last = st->buf + st->len - 8;
	struct frame *stack = st->stack;
	size_t depth = st->depth, cap = st->cap, n = 0;
	uint64_t base = st->base, last_time = st->last_time;
	uint64_t hi = st->hi, nenter = st->nenter;
	struct ct_thread *t = st->t;
	/* with argument records, an ENTER followed by one (or whose next
	 * record is not buffered yet) goes the slow way */
	const bool has_args = sp->pub.argtab != NULL;

	while (n < max && p <= last) {
		uint32_t w = rd32(p);
		struct ct_event *e = &ev[n];
		uint64_t time;
		if ((w & 3) == CT_REC_EXIT) {
			if (!depth)
				break;
			base += w >> 2;
			time = fixed_ns(base > start ? base - start : 0, ns_int, ns_frac);
			if (time < last_time)
				time = last_time;
			last_time = time;
			const struct frame *f = &stack[--depth];
			*e = (struct ct_event){.kind = CT_EXIT, .addr = f->addr, .time = time,
					       .start = f->start, .depth = (uint32_t)depth,
					       .thread = t, .below = nenter - f->mark,
					       .args = f->ca};
			if (__builtin_expect(f->ca != NULL, 0)) {
				ct_args_retire(&st->args, f->ca);
				stack[depth].ca = NULL;
			}
			p += 4;
		} else if ((w & 3) == CT_REC_ENTER) {
			if (depth == cap)
				break;
			if (has_args && ((size_t)(p - st->buf) + 12 > st->len ||
					 ((rd32(p + 8) & 3) == CT_REC_EXT &&
					  CT_EXT_TYPE(rd32(p + 8)) == CT_EXT_ARGS)))
				break;
			uint64_t q = rd64(p);
			base += (q >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1);
			uint64_t addr = (q >> 24) | hi;
			time = fixed_ns(base > start ? base - start : 0, ns_int, ns_frac);
			if (time < last_time)
				time = last_time;
			last_time = time;
			stack[depth] = (struct frame){addr, time, ++nenter, NULL};
			*e = (struct ct_event){.kind = CT_ENTER, .addr = addr, .time = time,
					       .start = time, .depth = (uint32_t)depth, .thread = t};
			depth++;
			p += 8;
		} else {
			break;
		}
		n++;
	}
	st->pos = (size_t)(p - st->buf);
	st->depth = depth;
	st->base = base;
	st->last_time = last_time;
	st->nenter = nenter;
	return n;
}

int ct_stream_read(struct ct_stream *st, struct ct_event *ev, size_t max, struct ct_error *err)
{
	if (st->has_err) {
		st->has_err = false;
		if (err)
			*err = st->err;
		return -1;
	}
	size_t n = 0;
	ct_args_tick(&st->args, st->nev_last);
	st->nev_last = 0;
	while (n < max) {
		n += stream_fast(st, ev + n, max - n);
		if (n == max)
			break;
		struct ct_error e;
		int r = stream_next_slow(st, ev + n, &e);
		if (r > 0) {
			n++;
			continue;
		}
		if (r < 0) {
			if (!n) {
				if (err)
					*err = e;
				return -1;
			}
			st->has_err = true;
			st->err = e;
		}
		break;
	}
	st->nev_last = n;
	return (int)n;
}

int ct_stream_next(struct ct_stream *st, struct ct_event *ev, struct ct_error *err)
{
	return ct_stream_read(st, ev, 1, err);
}

/* ---- merge ----------------------------------------------------------- */

/*
 * Each source holds a batch of its thread's events, buf[pos..n).  Its last
 * buffered event is given out only once the batch after it has been read:
 * a read error then stops the merge before that event, as it always has
 * (one event of lookahead per thread).
 */
#define MERGE_BATCH 256

struct merge_src {
	struct ct_stream *st;
	struct ct_event *buf;
	size_t pos, n;
	bool eof;         /* the stream has no more events */
};

struct ct_merge {
	struct merge_src *src;
	size_t n;
	size_t *heap; /* indices into src */
	size_t nheap;
	struct ct_event *out; /* what ct_merge_read gives out, several threads */
	const struct ct_event *cur; /* ct_merge_next: the batch being given out */
	size_t ncur;
	bool has_err;     /* an error after events given out: the next call's */
	struct ct_error err;
};

/* read the source's next batch behind its unread events (at most one) */
static int src_fill(struct merge_src *src, struct ct_error *err)
{
	size_t left = src->n - src->pos;
	memmove(src->buf, src->buf + src->pos, left * sizeof(*src->buf));
	src->pos = 0;
	src->n = left;
	int r = ct_stream_read(src->st, src->buf + left, MERGE_BATCH - left, err);
	if (r < 0)
		return -1;
	if (r == 0)
		src->eof = true;
	src->n += (size_t)r;
	return 0;
}

static bool src_less(const struct ct_merge *m, size_t a, size_t b)
{
	const struct merge_src *sa = &m->src[a], *sb = &m->src[b];
	const struct ct_event *x = &sa->buf[sa->pos], *y = &sb->buf[sb->pos];
	if (x->time != y->time)
		return x->time < y->time;
	return x->thread->index < y->thread->index;
}

static void sift_down(struct ct_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < m->nheap && src_less(m, m->heap[l], m->heap[best]))
			best = l;
		if (r < m->nheap && src_less(m, m->heap[r], m->heap[best]))
			best = r;
		if (best == i)
			return;
		size_t t = m->heap[i];
		m->heap[i] = m->heap[best];
		m->heap[best] = t;
		i = best;
	}
}

static void raise_fd_limit(size_t want)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < want + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int ct_merge_open(struct ct_session *s, const bool *want, struct ct_merge **out,
		  struct ct_error *err)
{
	*out = NULL;
	struct ct_merge *m = xcalloc(1, sizeof(*m));
	size_t n = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (!want || want[i])
			n++;
	raise_fd_limit(n);
	/* keep the total buffer memory near 64 MiB however many threads */
	size_t bufsize = n ? (64u << 20) / n : STREAM_BUF;
	if (bufsize > STREAM_BUF)
		bufsize = STREAM_BUF;
	if (bufsize < (64u << 10))
		bufsize = 64u << 10;
	m->src = xcalloc(n ? n : 1, sizeof(*m->src));
	m->heap = xcalloc(n ? n : 1, sizeof(*m->heap));
	m->out = xmalloc(MERGE_BATCH * sizeof(*m->out));
	for (size_t i = 0; i < s->nthreads; i++) {
		if (want && !want[i])
			continue;
		struct merge_src *src = &m->src[m->n];
		if (stream_open(s, s->threads[i], bufsize, &src->st, err) < 0) {
			ct_merge_close(m);
			return -1;
		}
		src->buf = xmalloc(MERGE_BATCH * sizeof(*src->buf));
		m->n++;
		if (src_fill(src, err) < 0) {
			ct_merge_close(m);
			return -1;
		}
		if (src->n)
			m->heap[m->nheap++] = m->n - 1;
	}
	for (size_t i = m->nheap / 2; i-- > 0;)
		sift_down(m, i);
	*out = m;
	return 0;
}

/* one source left: its buffered events go out as they are */
static int merge_one(struct ct_merge *m, const struct ct_event **evs, struct ct_error *err)
{
	struct merge_src *src = &m->src[m->heap[0]];
	if (src->n - src->pos <= 1 && !src->eof && src_fill(src, err) < 0)
		return -1;
	size_t k = src->n - src->pos;
	if (!src->eof)
		k--; /* the lookahead */
	*evs = src->buf + src->pos;
	src->pos += k;
	if (src->pos == src->n)
		m->nheap = 0;
	return (int)k;
}

int ct_merge_read(struct ct_merge *m, const struct ct_event **evs, struct ct_error *err)
{
	if (m->ncur) { /* left over by ct_merge_next */
		*evs = m->cur;
		size_t k = m->ncur;
		m->ncur = 0;
		return (int)k;
	}
	if (m->has_err) {
		m->has_err = false;
		if (err)
			*err = m->err;
		return -1;
	}
	if (m->nheap == 1)
		return merge_one(m, evs, err);
	size_t k = 0;
	while (k < MERGE_BATCH && m->nheap) {
		struct merge_src *src = &m->src[m->heap[0]];
		if (src->n - src->pos == 1 && !src->eof) {
			struct ct_error e;
			if (src_fill(src, &e) < 0) {
				if (!k) {
					if (err)
						*err = e;
					return -1;
				}
				m->has_err = true;
				m->err = e;
				break;
			}
		}
		m->out[k++] = src->buf[src->pos++];
		if (src->pos == src->n)
			m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			sift_down(m, 0);
	}
	*evs = m->out;
	return (int)k;
}

int ct_merge_next(struct ct_merge *m, struct ct_event *ev, struct ct_error *err)
{
	if (!m->ncur) {
		const struct ct_event *evs;
		int r = ct_merge_read(m, &evs, err);
		if (r <= 0)
			return r;
		m->cur = evs;
		m->ncur = (size_t)r;
	}
	*ev = *m->cur++;
	m->ncur--;
	return 1;
}

void ct_merge_close(struct ct_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		ct_stream_close(m->src[i].st);
		free(m->src[i].buf);
	}
	free(m->src);
	free(m->heap);
	free(m->out);
	free(m);
}

/* ---- symbols ------------------------------------------------------------ */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static struct ct_symtab *module_symtab(struct ct_session *s, struct ct_module *mod)
{
	struct session_priv *sp = priv(s);
	char key[256];
	ct_symtab_key(mod->buildid, mod->path, key, sizeof(key));
	void **slot = ct_u64map_slot(&sp->symtabs, ct_hash_str(key));
	for (struct symcache *c = *slot; c; c = c->next)
		if (!strcmp(c->key, key))
			return c->tab;
	struct symcache *c = xcalloc(1, sizeof(*c));
	c->key = xstrdup(key);
	c->next = *slot;
	*slot = c;

	struct ct_error e;
	c->tab = ct_symtab_load_saved(s->dir, key, &e);
	if (!c->tab && e.msg[0])
		ct_session_warn(s, "%s", e.msg);
	if (c->tab) {
		if (mod->buildid && access(mod->path, F_OK) == 0) {
			char *bid = ct_elf_buildid(mod->path);
			if (bid && strcmp(bid, mod->buildid))
				ct_session_warn(s, "%s: changed since the recording (build-id %s, recorded %s); "
						   "using the saved symbols",
						mod->path, bid, mod->buildid);
			free(bid);
		}
		return c->tab;
	}
	const char *name = base_name(mod->path);
	if (!*mod->path || mod->path[0] == '[' || !strncmp(name, "linux-vdso", 10) ||
	    !strncmp(name, "linux-gate", 10))
		return NULL;
	if (access(mod->path, R_OK) < 0) {
		ct_session_warn(s, "%s: %s, and no saved symbols; names not resolved", mod->path,
				strerror(errno));
		return NULL;
	}
	char *bid = ct_elf_buildid(mod->path);
	if (mod->buildid && (!bid || strcmp(bid, mod->buildid))) {
		ct_session_warn(s, "%s: build-id mismatch (recorded %s, file has %s); names not resolved",
				mod->path, mod->buildid, bid ? bid : "none");
		free(bid);
		return NULL;
	}
	free(bid);
	c->tab = ct_symtab_from_elf(mod->path, &e);
	if (!c->tab)
		ct_session_warn(s, "%s; names not resolved", e.msg);
	return c->tab;
}

static const struct ct_module *sort_mods; /* for cmp_bylo */

static int cmp_bylo(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (sort_mods[x].lo != sort_mods[y].lo)
		return sort_mods[x].lo < sort_mods[y].lo ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* among the modules containing addr, the one that wins: one still mapped
 * over one unloaded, then the latest loaded, then the later line */
static bool better_module(const struct ct_module *m, size_t i, const struct ct_module *best,
			  size_t bi)
{
	bool mm = m->unload_clock == UINT64_MAX, bm = best->unload_clock == UINT64_MAX;
	if (mm != bm)
		return mm;
	if (m->load_clock != best->load_clock)
		return m->load_clock > best->load_clock;
	return i > bi;
}

/* at most this many modules that start at or below an address are looked
 * at for it: a normal map has one or two, and a hostile .proc of
 * overlapping modules costs no more than this per address */
#define MODULE_WALK 64

/* the module containing addr, or NULL */
static struct ct_module *find_module(struct proc_priv *pp, uint64_t addr)
{
	struct ct_proc *p = &pp->pub;
	size_t n = p->nmodules;
	if (!n)
		return NULL;
	if (!pp->bylo || pp->nindexed != n) { /* a session built by hand may add some */
		pp->bylo = xrealloc(pp->bylo, n * sizeof(*pp->bylo));
		pp->maxhi = xrealloc(pp->maxhi, n * sizeof(*pp->maxhi));
		pp->nindexed = n;
		for (size_t i = 0; i < n; i++)
			pp->bylo[i] = (uint32_t)i;
		sort_mods = p->modules;
		ct_qsort(pp->bylo, n, sizeof(*pp->bylo), cmp_bylo);
		for (size_t i = 0; i < n; i++) {
			uint64_t hi = p->modules[pp->bylo[i]].hi;
			pp->maxhi[i] = i && pp->maxhi[i - 1] > hi ? pp->maxhi[i - 1] : hi;
		}
	}
	/* the first position whose module starts above addr */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->modules[pp->bylo[mid]].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct ct_module *best = NULL;
	size_t bi = 0;
	for (size_t j = lo, k = 0; j-- > 0 && pp->maxhi[j] > addr && k < MODULE_WALK; k++) {
		size_t i = pp->bylo[j];
		struct ct_module *m = &p->modules[i];
		if (addr < m->hi && (!best || better_module(m, i, best, bi))) {
			best = m;
			bi = i;
		}
	}
	return best;
}

const struct ct_sym_info *ct_session_resolve(struct ct_session *s, struct ct_proc *p,
					     uint64_t addr)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	void **slot = ct_u64map_slot(&pp->cache, addr);
	if (*slot)
		return *slot;
	struct ct_sym_info *si = xcalloc(1, sizeof(*si));
	*slot = si;

	struct ct_module *mod = find_module(pp, addr);
	if (!mod) {
		si->name = xasprintf("0x%" PRIx64, addr);
		return si;
	}
	si->module = base_name(mod->path);
	uint64_t off = addr - mod->base;
	struct ct_symtab *tab = module_symtab(s, mod);
	const struct ct_symbol *sym = tab ? ct_symtab_lookup(tab, off) : NULL;
	if (!sym) {
		si->name = xasprintf("%s+0x%" PRIx64, si->module, off);
		return si;
	}
	char *dm = s->demangle ? ct_demangle(sym->name) : NULL;
	const char *nm = dm ? dm : sym->name;
	if (off != sym->value)
		si->name = xasprintf("%s+0x%" PRIx64, nm, off - sym->value);
	else
		si->name = xstrdup(nm);
	free(dm);
	si->file = sym->file;
	si->line = sym->line;
	return si;
}

const char *ct_session_func_at(struct ct_session *s, struct ct_proc *p, uint64_t addr)
{
	const struct ct_sym_info *si = ct_session_resolve(s, p, addr);
	if (!si->module)
		return NULL;
	/* "name+0x1f" or "module+0x1f": not the start of a function */
	const char *plus = strrchr(si->name, '+');
	if (plus && plus[1] == '0' && plus[2] == 'x' && plus[3] &&
	    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
		return NULL;
	return si->name;
}
