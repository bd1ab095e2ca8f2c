/* SPDX-License-Identifier: MIT */
/*
 * --with-syms DIR (uftrace's option, session.h): the views take a
 * module's symbols from an ELF file of DIR rather than from the tables
 * saved in the recording or the file at the module's path.  DIR holds
 * binaries (stripped or not), separate debug files (objcopy
 * --only-keep-debug, *.debug) or a .build-id/xx/yyyy.debug tree as
 * /usr/lib/debug has.  A module is matched by its build-id
 * (DIR/.build-id/xx/yyyy.debug), then by its file name (DIR/NAME,
 * DIR/NAME.debug, with the module's build-id), then by any file of DIR
 * with its build-id (DIR read once, only then); a file whose build-id is
 * not the module's is never used (with -v, said once).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "session.h"
#include "session_priv.h"
#include "symtab.h"
#include "util.h"

/* the files of DIR looked at, at most: a directory of a million files
 * costs no more than this many build-id reads */
#define WITHSYMS_MAX_FILES 20000

struct wsfile {
	char *path;       /* DIR/NAME */
	const char *name; /* NAME, in path */
	char *buildid;    /* hex, or NULL (not ELF, or none) */
};

struct withsyms {
	bool scanned; /* files read */
	struct wsfile *files;
	size_t nfiles;
	struct ct_u64map found; /* hash of the module's key -> char * path, or
				 * (void *)1 for none */
};

int ct_withsyms_check(const char *dir, struct ct_error *err)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		ct_set_err(err, "--with-syms %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ct_set_err(err, "--with-syms %s: not a directory", dir);
		return -1;
	}
	return 0;
}

static struct withsyms *get(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	if (!sp->withsyms)
		sp->withsyms = xcalloc(1, sizeof(*sp->withsyms));
	return sp->withsyms;
}

/* DIR's files with their build-ids, read once */
static struct withsyms *scan(struct ct_session *s)
{
	struct withsyms *w = get(s);
	if (w->scanned)
		return w;
	w->scanned = true;
	DIR *d = opendir(s->with_syms);
	if (!d) {
		ct_session_warn(s, "--with-syms %s: %s", s->with_syms, strerror(errno));
		return w;
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (w->nfiles == WITHSYMS_MAX_FILES) {
			ct_session_warn(s,
					"--with-syms %s: more than %d files; the rest are not "
					"looked at",
					s->with_syms, WITHSYMS_MAX_FILES);
			break;
		}
		char *path = xasprintf("%s/%s", s->with_syms, de->d_name);
		struct stat st;
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (w->nfiles == cap) {
			cap = cap ? 2 * cap : 16;
			w->files = xrealloc(w->files, cap * sizeof(*w->files));
		}
		struct wsfile *f = &w->files[w->nfiles++];
		f->path = path;
		f->name = path + strlen(s->with_syms) + 1;
		f->buildid = ct_elf_buildid(path);
	}
	closedir(d);
	return w;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* the file's build-id is the module's (or the module has none) */
static bool fits(struct ct_session *s, const struct ct_module *m, const char *path, const char *bid)
{
	if (!m->buildid)
		return true;
	if (bid && !strcmp(bid, m->buildid))
		return true;
	if (s->verbose)
		ct_session_warn(s, "--with-syms: %s has build-id %s, not %s's %s: not used", path,
				bid ? bid : "none", m->path, m->buildid);
	return false;
}

/* path, a regular file whose build-id is the module's: path (malloc'd),
 * else NULL (freed) */
static char *try_file(struct ct_session *s, const struct ct_module *m, char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		char *bid = ct_elf_buildid(path);
		bool ok = fits(s, m, path, bid);
		free(bid);
		if (ok)
			return path;
	}
	free(path);
	return NULL;
}

/* by build-id, then by name; DIR's other files are read (their build-ids)
 * only when neither DIR/.build-id/ nor a file of the module's name has it:
 * a name matched with the module's build-id is the same file a scan would
 * find first */
static char *find(struct ct_session *s, const struct ct_module *m)
{
	bool hex = m->buildid && strlen(m->buildid) > 2 &&
		   strspn(m->buildid, "0123456789abcdef") == strlen(m->buildid);
	char *p = NULL;
	if (hex && (p = try_file(s, m,
				 xasprintf("%s/.build-id/%.2s/%s.debug", s->with_syms, m->buildid,
					   m->buildid + 2))))
		return p;
	const char *name = base_name(m->path);
	if (*name && ((p = try_file(s, m, xasprintf("%s/%s", s->with_syms, name))) ||
		      (p = try_file(s, m, xasprintf("%s/%s.debug", s->with_syms, name)))))
		return p;
	if (hex) {
		struct withsyms *w = scan(s);
		for (size_t i = 0; i < w->nfiles; i++)
			if (w->files[i].buildid && !strcmp(w->files[i].buildid, m->buildid))
				return xstrdup(w->files[i].path);
	}
	return NULL;
}

const char *ct_withsyms_file(struct ct_session *s, const struct ct_module *m)
{
	if (!s->with_syms || !m->path || !*m->path || m->path[0] == '[')
		return NULL;
	struct withsyms *w = get(s);
	char key[256];
	ct_symtab_key(m->buildid, m->path, key, sizeof(key));
	void **slot = ct_u64map_slot(&w->found, ct_hash_str(key));
	if (!*slot) {
		char *p = find(s, m);
		*slot = p ? (void *)p : (void *)1;
		if (p && s->verbose)
			ct_session_warn(s, "--with-syms: %s: symbols from %s", m->path, p);
	}
	return *slot == (void *)1 ? NULL : *slot;
}

void ct_withsyms_free(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	struct withsyms *w = sp->withsyms;
	if (!w)
		return;
	for (size_t i = 0; i < w->nfiles; i++) {
		free(w->files[i].path);
		free(w->files[i].buildid);
	}
	free(w->files);
	for (size_t i = 0; i < w->found.cap; i++)
		if (w->found.used[i] && w->found.vals[i] != (void *)1)
			free(w->found.vals[i]);
	ct_u64map_free(&w->found);
	free(w);
	sp->withsyms = NULL;
}
