/* SPDX-License-Identifier: MIT */
/*
 * Threads that a record-time -N left without a call (doc/record.md, "A
 * filter that swallows a thread").  record warns before the run about the
 * functions where threads are known to start (main, std::thread's
 * _M_run); a pthread_create start routine is known only when the program
 * calls it.  The runtime then notes each start routine that -N leaves out
 * in the process's .proc file ("thread-left-out ADDR", once per function
 * and process); here, at the end of the recording, each is named from the
 * module the same .proc file says is mapped there.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "leftout.h"
#include "symtab.h"
#include "util.h"

#define MAX_NAMES 16  /* functions named at most (the rest are counted) */
#define MAX_MODS 1024 /* module lines of one .proc file looked at */

struct mod {
	uint64_t base, lo, hi;
	char *path;
};

struct found {
	char *name;
	size_t procs; /* processes whose threads started there */
};

struct leftout {
	struct found f[MAX_NAMES];
	size_t n, more;
};

static void add_name(struct leftout *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->f[i].name, name)) {
			l->f[i].procs++;
			return;
		}
	if (l->n == MAX_NAMES) {
		l->more++;
		return;
	}
	l->f[l->n].name = xstrdup(name);
	l->f[l->n++].procs = 1;
}

/* the function at addr, as the views print it (qualified, with its
 * parameters, never the return type), or its address in its module */
static char *name_of(const struct mod *m, uint64_t addr)
{
	struct ct_error err;
	const char *sl = strrchr(m->path, '/');
	char *name = NULL;
	struct ct_symtab *st = ct_symtab_names_from_elf(m->path, &err);
	const struct ct_symbol *sym = st ? ct_symtab_lookup(st, addr - m->base) : NULL;
	if (sym && sym->name) {
		char *dm = ct_demangle(sym->name);
		struct ct_match_names mn;
		ct_match_names_init(&mn, dm ? dm : sym->name);
		name = xstrdup(mn.v[0]);
		ct_match_names_free(&mn);
		free(dm);
	} else {
		name = xasprintf("%s+0x%" PRIx64, sl ? sl + 1 : m->path, addr - m->base);
	}
	ct_symtab_free(st);
	return name;
}

/* one .proc file's lines: its modules, then the start routines it noted */
static void one_proc(struct leftout *l, const char *path)
{
	size_t len;
	struct ct_error err;
	char *buf = ct_read_file(path, true, 64u << 20, &len, &err);
	if (!buf)
		return;
	struct mod *m = malloc(MAX_MODS * sizeof(*m));
	size_t nm = 0;
	uint64_t addrs[MAX_NAMES];
	size_t na = 0;
	for (char *line = buf, *next; m && line < buf + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));
		next = nl ? nl + 1 : buf + len;
		if (nl)
			*nl = 0;
		unsigned long long clk, base, lo, hi, a;
		int off = 0;
		if (!strncmp(line, "module ", 7) && nm < MAX_MODS &&
		    sscanf(line + 7, "%llu %llx %llx %llx %*s %n", &clk, &base, &lo, &hi, &off) ==
			    4 &&
		    off) {
			m[nm].base = base;
			m[nm].lo = lo;
			m[nm].hi = hi;
			m[nm++].path = ct_unescape(line + 7 + off);
		} else if (!strncmp(line, "thread-left-out ", 16) && na < MAX_NAMES &&
			   sscanf(line + 16, "%llx", &a) == 1) {
			addrs[na++] = a;
		}
	}
	for (size_t i = 0; i < na; i++) {
		const struct mod *at = NULL;
		for (size_t k = 0; k < nm && !at; k++)
			if (addrs[i] >= m[k].lo && addrs[i] < m[k].hi)
				at = &m[k];
		char *name = at ? name_of(at, addrs[i]) : xasprintf("0x%" PRIx64, addrs[i]);
		add_name(l, name);
		free(name);
	}
	for (size_t k = 0; k < nm; k++)
		free(m[k].path);
	free(m);
	free(buf);
}

void ct_leftout_warn(const char *dir, struct ct_msgs *warn)
{
	struct leftout l = {0};
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 5 && !strcmp(e->d_name + n - 5, ".proc")) {
			char *p = xasprintf("%s/%s", dir, e->d_name);
			one_proc(&l, p);
			free(p);
		}
	}
	closedir(d);
	for (size_t i = 0; i < l.n; i++) {
		ct_msg_add(warn, CT_MSG_WARN,
			   "-N leaves out %s, where threads started (in %zu process%s): they "
			   "recorded nothing (--hide leaves out the function's own frame)",
			   l.f[i].name, l.f[i].procs, l.f[i].procs == 1 ? "" : "es");
		free(l.f[i].name);
	}
	if (l.more)
		ct_msg_add(warn, CT_MSG_WARN,
			   "-N leaves out %zu more functions where threads started", l.more);
}
