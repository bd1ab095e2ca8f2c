/* SPDX-License-Identifier: MIT */
/*
 * The symbol tables a recording keeps (DIR/sym/<key>.sym), saved by
 * `record` at the end of a run from each module's ELF file, and the
 * per-user cache of those tables keyed by build-id
 * ($XDG_CACHE_HOME/calltrace/symN) that spares reading a large library
 * again.  Reading tables and the .sym format are symtab.c's.
 */
#include "symtab.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "symtab_priv.h"
#include "util.h"

/* ---- the per-user cache of .sym files -------------------------------------- */

/* $XDG_CACHE_HOME/calltrace/symN (default ~/.cache/calltrace/symN), created
 * if needed (malloc'd); NULL when CALLTRACE_NO_CACHE is set (and not "0")
 * or the directory cannot be made.  N counts the changes to what a table
 * holds (CT_SYM_CACHE_GEN): tables an older calltrace made (without
 * file:line for split functions, say) are not reused. */
#define CT_SYM_CACHE_GEN "3"
static char *cache_dir(void)
{
	const char *no = getenv("CALLTRACE_NO_CACHE");
	if (no && *no && strcmp(no, "0"))
		return NULL;
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *dir;
	if (xdg && xdg[0] == '/') { /* the spec ignores a relative one */
		dir = xasprintf("%s/calltrace/sym" CT_SYM_CACHE_GEN, xdg);
	} else {
		const char *home = getenv("HOME");
		if (!home || home[0] != '/')
			return NULL;
		dir = xasprintf("%s/.cache/calltrace/sym" CT_SYM_CACHE_GEN, home);
	}
	/* mkdir -p; the levels we create are private to the user */
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = 0;
		int r = mkdir(dir, 0700);
		*p = c;
		if (r < 0 && errno != EEXIST)
			break;
		if (!c)
			break;
	}
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* copy src to dst through a temporary name in dst's directory and rename;
 * with newpath, the "path" line (the third) is replaced by one for newpath */
static int copy_sym(const char *src, const char *dst, const char *newpath)
{
	FILE *in = fopen(src, "re");
	if (!in)
		return -1;
	char *tmp = xasprintf("%s.tmp%d", dst, (int)getpid());
	FILE *out = ct_sym_fopen_private(tmp);
	if (!out) {
		fclose(in);
		free(tmp);
		return -1;
	}
	bool bad = false;
	if (newpath) {
		char *line = NULL;
		size_t cap = 0;
		for (int i = 0; i < 3; i++) {
			if (getline(&line, &cap, in) < 0) {
				bad = true;
				break;
			}
			if (i < 2) {
				fputs(line, out);
			} else {
				fputs("path ", out);
				ct_sym_put_enc(out, newpath);
				putc('\n', out);
			}
		}
		free(line);
	}
	char buf[65536];
	size_t n;
	while (!bad && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			bad = true;
	if (ferror(in))
		bad = true;
	fclose(in);
	if (ferror(out))
		bad = true;
	if (fclose(out) != 0)
		bad = true;
	if (bad || rename(tmp, dst) < 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* whether a cached file is a usable table for buildid: the header and
 * build-id lines are right, it ends with a newline (was written whole), and
 * it is newer than the separate debug file (a -dbg package installed after
 * it was made would give more symbols and file:line).  *pathp gets the
 * decoded "path" value (malloc'd). */
static bool cache_valid(const char *file, const char *buildid, char **pathp)
{
	*pathp = NULL;
	FILE *f = fopen(file, "re");
	if (!f)
		return false;
	bool ok = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct stat st, dst;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	if (getline(&line, &cap, f) < 0 || strcmp(line, "calltrace-sym 1\n"))
		goto out;
	if ((len = getline(&line, &cap, f)) < 9 || strncmp(line, "buildid ", 8) ||
	    line[len - 1] != '\n' || (size_t)len - 9 != strlen(buildid) ||
	    strncmp(line + 8, buildid, (size_t)len - 9))
		goto out;
	if ((len = getline(&line, &cap, f)) < 6 || strncmp(line, "path ", 5) ||
	    line[len - 1] != '\n')
		goto out;
	if (fseek(f, -1, SEEK_END) != 0 || getc(f) != '\n')
		goto out;
	char *dpath = ct_debug_file_path(buildid);
	if (dpath && stat(dpath, &dst) == 0 &&
	    (dst.st_mtime >= st.st_mtime || dst.st_ctime >= st.st_mtime)) {
		free(dpath);
		goto out;
	}
	free(dpath);
	*pathp = ct_sym_dec(line + 5, (size_t)len - 6);
	ok = true;
out:
	free(line);
	fclose(f);
	return ok;
}

/* put the cached table of buildid into out (link, else a copy; the path
 * line rewritten if the module is elsewhere now); false if there is none */
static bool from_cache(const char *cdir, const char *buildid, const char *path, const char *out)
{
	char *cfile = xasprintf("%s/%s.sym", cdir, buildid);
	char *cpath;
	bool ok = false;
	if (cache_valid(cfile, buildid, &cpath)) {
		/* a link only to a private cache file (older ones may not be) */
		struct stat st;
		if (!strcmp(cpath, path) && lstat(cfile, &st) == 0 && !(st.st_mode & 077))
			ok = link(cfile, out) == 0 || errno == EEXIST ||
			     copy_sym(cfile, out, NULL) == 0;
		else if (!strcmp(cpath, path))
			ok = copy_sym(cfile, out, NULL) == 0;
		else
			ok = copy_sym(cfile, out, path) == 0;
		free(cpath);
	}
	free(cfile);
	return ok;
}

/* store DIR/sym/<buildid>.sym (file) in the cache; failures are ignored */
static void to_cache(const char *cdir, const char *buildid, const char *file)
{
	char *cfile = xasprintf("%s/%s.sym", cdir, buildid);
	char *tmp = xasprintf("%s.tmp%d", cfile, (int)getpid());
	unlink(tmp);
	if (link(file, tmp) == 0) {
		if (rename(tmp, cfile) < 0)
			unlink(tmp);
	} else {
		copy_sym(file, cfile, NULL);
	}
	free(tmp);
	free(cfile);
}

/* ---- saving the symbols of a recording ------------------------------------- */

/* modules with no code of interest: the kernel's vdso and the runtime */
static bool skip_module(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !*path || path[0] == '[' || !strncmp(base, "linux-vdso", 10) ||
	       !strncmp(base, "linux-gate", 10) || !strcmp(base, "libcalltrace.so");
}

/* write out (DIR/sym/<key>.sym) for the module at path recorded with
 * build-id recbid (or NULL); cdir is the cache or NULL.  Returns the number
 * of warnings added to warn (0 or 1). */
static int save_module_at(const char *out, const char *recbid, const char *path, const char *cdir,
			  int *unsaved, struct ct_msgs *warn)
{
	if (recbid && cdir && from_cache(cdir, recbid, path, out))
		return 0;
	char *fbid = ct_elf_buildid(path);
	if (recbid && (!fbid || strcmp(fbid, recbid))) {
		if (access(path, F_OK) < 0)
			ct_msg_add(warn, CT_MSG_WARN_PLAIN, "%s: %s; its symbols were not saved",
				   path, strerror(errno));
		else
			ct_msg_add(warn, CT_MSG_WARN_PLAIN,
				   "%s: build-id mismatch (recorded %s, file has %s); "
				   "its symbols were not saved",
				   path, recbid, fbid ? fbid : "none");
		free(fbid);
		return 1;
	}
	free(fbid);
	struct ct_error e;
	struct ct_symtab *t = ct_symtab_from_elf(path, &e);
	if (!t) {
		ct_msg_add(warn, CT_MSG_WARN_PLAIN, "%s; its symbols were not saved", e.msg);
		return 1;
	}
	int warnings = 0;
	if (ct_symtab_save(t, out, &e) < 0) {
		ct_msg_add(warn, CT_MSG_WARN_PLAIN, "cannot write %s; its symbols were not saved",
			   e.msg);
		warnings++;
		(*unsaved)++;
	} else if (recbid && cdir && t->buildid && !strcmp(t->buildid, recbid)) {
		to_cache(cdir, recbid, out);
	}
	ct_symtab_free(t);
	return warnings;
}

static const char *module_root;

void ct_save_symbols_root(const char *root)
{
	module_root = root && *root ? root : NULL;
}

/* save_module_at, or at the module's path under module_root */
static int save_module(const char *out, const char *recbid, const char *path, const char *cdir,
		       int *unsaved, struct ct_msgs *warn)
{
	char *alt = NULL;
	if (module_root && recbid && path[0] == '/') {
		/* not there as the program saw it: under the emulator's root? */
		char *fbid = ct_elf_buildid(path);
		if (!fbid || strcmp(fbid, recbid)) {
			alt = xasprintf("%s%s", module_root, path);
			char *abid = ct_elf_buildid(alt);
			if (abid && !strcmp(abid, recbid))
				path = alt;
			free(abid);
		}
		free(fbid);
	}
	int w = save_module_at(out, recbid, path, cdir, unsaved, warn);
	free(alt);
	return w;
}

int ct_save_symbols(const char *dir, int *unsaved, struct ct_msgs *warn, struct ct_error *err)
{
	int unsaved_ = 0;
	if (!unsaved)
		unsaved = &unsaved_;
	*unsaved = 0;
	char *symdir = xasprintf("%s/sym", dir);
	if (mkdir(symdir, 0700) < 0 && errno != EEXIST) {
		ct_set_err(err, "%s: %s", symdir, strerror(errno));
		free(symdir);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		ct_set_err(err, "%s: %s", dir, strerror(errno));
		free(symdir);
		return -1;
	}
	int warnings = 0;
	char *cdir = NULL;
	bool cdir_tried = false;
	struct ct_u64map done;
	ct_u64map_init(&done);
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl < 6 || strcmp(de->d_name + nl - 5, ".proc"))
			continue;
		char *ppath = xasprintf("%s/%s", dir, de->d_name);
		FILE *f = fopen(ppath, "re");
		free(ppath);
		if (!f)
			continue;
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		while ((len = getline(&line, &cap, f)) >= 0) {
			if (len == 0 || line[len - 1] != '\n')
				break; /* cut short */
			line[--len] = 0;
			if (strncmp(line, "module ", 7))
				continue;
			/* module CLOCK BASE LO HI BUILDID PATH */
			char *fld[5], *p = line + 7;
			int i;
			for (i = 0; i < 5; i++) {
				char *sp = strchr(p, ' ');
				if (!sp)
					break;
				*sp = 0;
				fld[i] = p;
				p = sp + 1;
			}
			if (i < 5)
				continue;
			const char *bid = fld[4];
			char *path = ct_unescape(p); /* (escaped: doc/format.md) */
			if (skip_module(path)) {
				free(path);
				continue;
			}
			const char *recbid = strcmp(bid, "-") ? bid : NULL;
			/* a build-id names a file in the cache: hex only */
			bool cacheable = recbid && *recbid && strlen(recbid) <= 200 &&
					 strspn(recbid, "0123456789abcdef") == strlen(recbid);
			char key[256];
			ct_symtab_key(recbid, path, key, sizeof(key));
			void **slot = ct_u64map_slot(&done, ct_hash_str(key));
			if (*slot) {
				free(path);
				continue;
			}
			*slot = (void *)1;
			char *out = xasprintf("%s/%s.sym", symdir, key);
			if (access(out, F_OK) != 0) {
				if (cacheable && !cdir_tried) {
					cdir = cache_dir();
					cdir_tried = true;
				}
				warnings += save_module(out, recbid, path, cacheable ? cdir : NULL,
							unsaved, warn);
			}
			free(out);
			free(path);
		}
		free(line);
		fclose(f);
	}
	closedir(d);
	ct_u64map_free(&done);
	free(cdir);
	free(symdir);
	return warnings;
}
