/* SPDX-License-Identifier: MIT */
/* Symbols: read a freshly built ELF file, save/load round trip, demangling,
 * ct_save_symbols over a hand-made .proc file, the per-user cache. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "session.h"
#include "symtab.h"
#include "util.h"

static char dir[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static const struct ct_symbol *by_name(const struct ct_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->nsyms; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	return NULL;
}

static void test_demangle(void)
{
	char *d = ct_demangle("_ZN3foo3barEi");
	CHECK(d && !strcmp(d, "foo::bar(int)"), "demangle: %s", d ? d : "(null)");
	free(d);
	CHECK(ct_demangle("main") == NULL, "plain C name");
	CHECK(ct_demangle("_Zgarbage!") == NULL, "bad mangled name");
	CHECK(ct_demangle(NULL) == NULL, "NULL");
	char key[64];
	ct_symtab_key("abc123", "/x", key, sizeof(key));
	CHECK(!strcmp(key, "abc123"), "key %s", key);
	ct_symtab_key(NULL, "/x", key, sizeof(key));
	CHECK(!strncmp(key, "path-", 5) && strlen(key) == 21, "path key %s", key);
	char key2[64];
	ct_symtab_key("-", "/x", key2, sizeof(key2));
	CHECK(!strcmp(key, key2), "'-' is no build-id");
}

static char *slurp(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (cap - len < 4096)
			buf = xrealloc(buf, cap = cap * 2 + 4096);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	*lenp = len;
	return buf;
}

static int same_file(const char *a, const char *b)
{
	size_t la = 0, lb = 0;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	int same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

/* a recording directory with one .proc naming bin (build-id bid) at path,
 * plus the runtime library, which is not saved */
static char *make_data(const char *name, const char *bid, const char *path)
{
	char *data = xasprintf("%s/%s", dir, name);
	mkdir(data, 0777);
	char *proc = xasprintf("%s/1-0.proc", data);
	char *text = xasprintf("calltrace-proc 1\npid 1\n"
			       "module 5 0 1000 2000 %s %s\n"
			       "module 5 0 3000 4000 abcdef /opt/x/libcalltrace.so\n",
			       bid, path);
	write_file(proc, text);
	free(text);
	free(proc);
	return data;
}

/* the per-user cache of .sym files ($XDG_CACHE_HOME/calltrace/sym3) */
static void test_cache(const char *bin, const char *bid)
{
	struct ct_error err;
	char *cdir = xasprintf("%s/cache/calltrace/sym3", dir);
	char *cfile = xasprintf("%s/%s.sym", cdir, bid);

	/* first save: built from the ELF file, stored in the cache */
	char *d1 = make_data("c1", bid, bin);
	int rc = ct_save_symbols(d1, NULL, NULL, &err);
	CHECK(rc == 0, "cache: first save: %d warnings", rc);
	char *s1 = xasprintf("%s/sym/%s.sym", d1, bid);
	CHECK(access(s1, R_OK) == 0, "%s written", s1);
	CHECK(access(cfile, R_OK) == 0, "%s stored in the cache", cfile);
	CHECK(same_file(s1, cfile), "cache copy is identical");
	char *rt = xasprintf("%s/sym/abcdef.sym", d1);
	CHECK(access(rt, F_OK) != 0, "libcalltrace.so not saved");
	free(rt);

	/* second save: from the cache, even with the ELF file gone */
	char *moved = xasprintf("%s.moved", bin);
	CHECK(rename(bin, moved) == 0, "move the binary away");
	char *d2 = make_data("c2", bid, bin);
	rc = ct_save_symbols(d2, NULL, NULL, &err);
	CHECK(rc == 0, "cache: second save: %d warnings (binary gone, cache used)", rc);
	char *s2 = xasprintf("%s/sym/%s.sym", d2, bid);
	CHECK(same_file(s1, s2), "second save identical to the first");
	struct ct_symtab *u = ct_symtab_load(s2, &err);
	CHECK(u && by_name(u, "main") && by_name(u, "main")->line == 5, "symbols from the cache");
	ct_symtab_free(u);

	/* the module at another path: same table, path line rewritten */
	char *other = xasprintf("%s/other dir/t", dir);
	char *d3 = make_data("c3", bid, other);
	rc = ct_save_symbols(d3, NULL, NULL, &err);
	CHECK(rc == 0, "cache: other path: %d warnings", rc);
	char *s3 = xasprintf("%s/sym/%s.sym", d3, bid);
	u = ct_symtab_load(s3, &err);
	CHECK(u && !strcmp(u->path, other), "path %s", u ? u->path : "(null)");
	CHECK(u && by_name(u, "main"), "other path: symbols");
	ct_symtab_free(u);
	CHECK(same_file(s1, cfile), "cache entry unchanged");

	/* a corrupted cache entry (wrong build-id line) is ignored and replaced */
	CHECK(rename(moved, bin) == 0, "move the binary back");
	/* (replaced, not written in place: recordings may share its inode) */
	char *ctmp = xasprintf("%s.t", cfile);
	write_file(ctmp, "calltrace-sym 1\nbuildid 0000\npath /x\n10 5 bogus\n");
	CHECK(rename(ctmp, cfile) == 0, "corrupt the cache entry");
	char *d4 = make_data("c4", bid, bin);
	rc = ct_save_symbols(d4, NULL, NULL, &err);
	CHECK(rc == 0, "cache: corrupt entry: %d warnings", rc);
	char *s4 = xasprintf("%s/sym/%s.sym", d4, bid);
	CHECK(same_file(s1, s4), "rebuilt from the ELF file");
	CHECK(same_file(s1, cfile), "corrupt cache entry replaced");
	/* cut short (no final newline): ignored too */
	write_file(ctmp, "calltrace-sym 1\nbuildid ");
	FILE *f = fopen(ctmp, "a");
	fprintf(f, "%s\npath %s\n10 5 bog", bid, bin);
	fclose(f);
	CHECK(rename(ctmp, cfile) == 0, "truncate the cache entry");
	char *d5 = make_data("c5", bid, bin);
	ct_save_symbols(d5, NULL, NULL, &err);
	char *s5 = xasprintf("%s/sym/%s.sym", d5, bid);
	CHECK(same_file(s1, s5), "truncated cache entry ignored");

	/* CALLTRACE_NO_CACHE=1: neither read nor written */
	unlink(cfile);
	setenv("CALLTRACE_NO_CACHE", "1", 1);
	char *d6 = make_data("c6", bid, bin);
	ct_save_symbols(d6, NULL, NULL, &err);
	char *s6 = xasprintf("%s/sym/%s.sym", d6, bid);
	CHECK(same_file(s1, s6), "no cache: saved");
	CHECK(access(cfile, F_OK) != 0, "no cache: not stored");
	unsetenv("CALLTRACE_NO_CACHE");

	/* a cache that cannot be created does not fail the save */
	char *blocker = xasprintf("%s/notadir", dir);
	write_file(blocker, "x");
	setenv("XDG_CACHE_HOME", blocker, 1);
	char *d7 = make_data("c7", bid, bin);
	rc = ct_save_symbols(d7, NULL, NULL, &err);
	char *s7 = xasprintf("%s/sym/%s.sym", d7, bid);
	CHECK(rc == 0 && same_file(s1, s7), "unusable cache dir: saved anyway (%d)", rc);
	char *cache = xasprintf("%s/cache", dir);
	setenv("XDG_CACHE_HOME", cache, 1);
	free(cache);

	free(ctmp);
	free(blocker);
	free(s7);
	free(d7);
	free(s6);
	free(d6);
	free(s5);
	free(d5);
	free(s4);
	free(d4);
	free(s3);
	free(d3);
	free(other);
	free(s2);
	free(d2);
	free(moved);
	free(s1);
	free(d1);
	free(cfile);
	free(cdir);
}

static void test_elf(void)
{
	char *src = xasprintf("%s/t.c", dir);
	write_file(src, "int helper(int x) { return x + 1; }\n"
			"static int local_fn(int x) { return helper(x) * 2; }\n"
			"int alias_target(void) { return 3; }\n"
			"int alias_name(void) __attribute__((alias(\"alias_target\")));\n"
			"int main(void) {\n"
			"  return local_fn(1) + alias_name();\n"
			"}\n");
	char *bin = xasprintf("%s/t", dir);
	char *cmd = xasprintf("cc -g -O0 -Wl,--build-id -o '%s' '%s'", bin, src);
	int rc = system(cmd);
	CHECK(rc == 0, "cc failed: %s", cmd);
	free(cmd);
	if (rc) {
		free(src);
		free(bin);
		return;
	}
	char *bid = ct_elf_buildid(bin);
	CHECK(bid && strlen(bid) >= 16, "build-id %s", bid ? bid : "(null)");
	CHECK(ct_elf_buildid(src) == NULL, "no build-id in a C file");

	struct ct_error err;
	struct ct_symtab *t = ct_symtab_from_elf(bin, &err);
	CHECK(t != NULL, "from_elf: %s", err.msg);
	if (!t)
		goto out;
	CHECK(t->buildid && bid && !strcmp(t->buildid, bid), "symtab build-id");
	const struct ct_symbol *m = by_name(t, "main"), *h = by_name(t, "helper"),
			       *l = by_name(t, "local_fn");
	CHECK(m && h && l, "main/helper/local_fn present");
	if (m) {
		CHECK(m->file && strstr(m->file, "t.c") && m->line == 5, "main at %s:%d",
		      m->file ? m->file : "-", m->line);
		CHECK(ct_symtab_lookup(t, m->value) == m, "lookup main");
		CHECK(m->size > 1 && ct_symtab_lookup(t, m->value + 1) == m, "lookup inside main");
	}
	if (h)
		CHECK(h->line == 1, "helper line %d", h->line);
	if (l)
		CHECK(l->line == 2, "local_fn line %d", l->line);
	CHECK(by_name(t, "alias_target") == NULL || by_name(t, "alias_name") == NULL,
	      "aliases deduplicated");
	int sorted = 1, undef = 0;
	for (size_t i = 0; i < t->nsyms; i++) {
		if (i && t->syms[i - 1].value >= t->syms[i].value)
			sorted = 0;
		if (!t->syms[i].value)
			undef++;
	}
	CHECK(sorted, "sorted, unique values");
	CHECK(!undef && !by_name(t, "printf") && !by_name(t, "__libc_start_main"),
	      "no undefined symbols");
	CHECK(ct_symtab_lookup(t, 0) == NULL, "lookup 0");

	/* round trip, with awkward names and files */
	free(t->path);
	t->path = xstrdup("/dir with space/t");
	if (t->nsyms >= 2) {
		free(t->syms[0].name);
		t->syms[0].name = xstrdup("weird name%20with:colon");
		free(t->syms[1].file);
		t->syms[1].file = xstrdup("/a b/c:d%.c");
		t->syms[1].line = 77;
	}
	char *symf = xasprintf("%s/x.sym", dir);
	CHECK(ct_symtab_save(t, symf, &err) == 0, "save: %s", err.msg);
	struct ct_symtab *u = ct_symtab_load(symf, &err);
	CHECK(u != NULL, "load: %s", err.msg);
	if (u) {
		CHECK(u->nsyms == t->nsyms, "nsyms %zu vs %zu", u->nsyms, t->nsyms);
		CHECK(!strcmp(u->path, t->path), "path %s", u->path);
		CHECK((!u->buildid && !t->buildid) ||
			      (u->buildid && t->buildid && !strcmp(u->buildid, t->buildid)),
		      "buildid");
		int same = u->nsyms == t->nsyms;
		for (size_t i = 0; same && i < u->nsyms; i++) {
			const struct ct_symbol *a = &t->syms[i], *b = &u->syms[i];
			if (a->value != b->value || a->size != b->size ||
			    strcmp(a->name, b->name) || !a->file != !b->file ||
			    (a->file && strcmp(a->file, b->file)) ||
			    (a->file && a->line != b->line)) {
				printf("  differs at %zu: %s / %s\n", i, a->name, b->name);
				same = 0;
			}
		}
		CHECK(same, "round trip");
		ct_symtab_free(u);
	}
	write_file(symf, "something else\n");
	CHECK(ct_symtab_load(symf, &err) == NULL && strstr(err.msg, "x.sym"), "bad sym file: %s",
	      err.msg);
	write_file(symf, "calltrace-sym 1\nbuildid -\npath /x\nzz 10 foo\n");
	CHECK(ct_symtab_load(symf, &err) == NULL && strstr(err.msg, "line 4"), "bad line: %s",
	      err.msg);
	free(symf);
	ct_symtab_free(t);
	CHECK(ct_symtab_from_elf(src, &err) == NULL && strstr(err.msg, "not an ELF"), "not ELF: %s",
	      err.msg);
	CHECK(ct_symtab_from_elf("/nonexistent/x", &err) == NULL &&
		      strstr(err.msg, "/nonexistent/x"),
	      "missing: %s", err.msg);

	/* ct_save_symbols over a data directory */
	char *data = xasprintf("%s/data", dir);
	mkdir(data, 0777);
	char *proc = xasprintf("%s/1-0.proc", data);
	char *text = xasprintf("calltrace-proc 1\npid 1\n"
			       "module 5 0 1000 2000 %s %s\n"
			       "module 5 0 1000 2000 %s %s\n"
			       "module 5 0 3000 4000 - [vdso]\n"
			       "module 5 0 3000 4000 - linux-vdso.so.1\n"
			       "module 5 0 5000 6000 0123456789 %s\n"
			       "module 5 0 5000 6000 - /nonexistent/lib.so\n",
			       bid, bin, bid, bin, bin);
	write_file(proc, text);
	struct ct_msgs warn = {0};
	rc = ct_save_symbols(data, NULL, &warn, &err);
	CHECK(rc == 2, "save_symbols: %d warnings (want 2: mismatch, missing)", rc);
	/* handed back, not printed: the recording's kind */
	CHECK(warn.n == 2 && warn.v[0].kind == CT_MSG_WARN_PLAIN &&
		      warn.v[1].kind == CT_MSG_WARN_PLAIN,
	      "the warnings handed back: %zu", warn.n);
	CHECK(warn.n == 2 && strstr(warn.v[0].text, "build-id mismatch (recorded 0123456789") &&
		      strstr(warn.v[1].text, "/nonexistent/lib.so: "),
	      "their texts: %s | %s", warn.n ? warn.v[0].text : "",
	      warn.n > 1 ? warn.v[1].text : "");
	ct_msgs_free(&warn);
	char *want = xasprintf("%s/sym/%s.sym", data, bid);
	CHECK(access(want, R_OK) == 0, "%s written", want);
	u = ct_symtab_load(want, &err);
	CHECK(u && by_name(u, "main") && by_name(u, "main")->line == 5, "saved symbols");
	ct_symtab_free(u);
	/* the mismatch one was not written */
	char *nowant = xasprintf("%s/sym/0123456789.sym", data);
	CHECK(access(nowant, F_OK) != 0, "mismatch not saved");
	rc = ct_save_symbols(data, NULL, NULL, &err);
	CHECK(rc == 2, "second run: %d", rc);
	free(nowant);
	free(want);
	free(text);
	free(proc);
	free(data);
	test_cache(bin, bid);
out:
	free(bid);
	free(src);
	free(bin);
}

static void test_source_path(void)
{
	static const char *const cases[][3] = {
		{"/a/b.c", "/x", "/a/b.c"},
		{"b.c", "/x/y", "/x/y/b.c"},
		{"./src/b.c", "/x/y/", "/x/y/src/b.c"},
		{"../src/b.c", "/x/y", "/x/src/b.c"},
		{"/a/./b/../c//d.c", NULL, "/a/c/d.c"},
		{"/../../a.c", NULL, "/a.c"},
		{"../../a.c", NULL, "../../a.c"},
		{"a/../../b.c", "", "../b.c"},
		{"b.c", NULL, "b.c"},
		{"./", NULL, "."},
		{"/", NULL, "/"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = ct_source_path(cases[i][0], cases[i][1]);
		CHECK(!strcmp(p, cases[i][2]), "'%s' in '%s': '%s', want '%s'", cases[i][0],
		      cases[i][1] ? cases[i][1] : "(null)", p, cases[i][2]);
		free(p);
	}
}

int main(void)
{
	test_source_path();
	snprintf(dir, sizeof(dir), "/tmp/ct-test-symtab-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* never touch the user's own cache */
	char *cache = xasprintf("%s/cache", dir);
	setenv("XDG_CACHE_HOME", cache, 1);
	free(cache);
	unsetenv("CALLTRACE_NO_CACHE");
	test_demangle();
	test_elf();
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	free(cmd);
	return check_done();
}
