/* SPDX-License-Identifier: MIT */
/* lib/core/output.c: text for a terminal, JSON and CSV strings from names a
 * recording may hold (control characters, C1, bytes that are not UTF-8);
 * the files a view writes, private and never through another's link. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "output.h"

/* what fn writes for s, as a malloc'd string */
static char *captured(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_text(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"main", "main"},
		{"ns::f(int, char const*)", "ns::f(int, char const*)"},
		{"a\x1b[31mred\x07", "a\\x1b[31mred\\x07"},      /* ESC, BEL */
		{"tab\there\nnl\r", "tab\\x09here\\x0anl\\x0d"}, /* C0, tab and newline too */
		{"del\x7f", "del\\x7f"},
		{"back\\slash", "back\\slash"},   /* kept */
		{"caf\xc3\xa9", "caf\xc3\xa9"},   /* U+00E9 */
		{"\xc2\xa0nbsp", "\xc2\xa0nbsp"}, /* U+00A0: the first kept */
		{"\xc2\x9b"
		 "csi",
		 "\\xc2\\x9bcsi"}, /* U+009B: C1 in UTF-8 */
		{"\x9b"
		 "csi",
		 "\\x9bcsi"},                                 /* a lone C1 byte */
		{"\xe2\x80\xa6", "\xe2\x80\xa6"},             /* U+2026 */
		{"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},     /* U+1F600 */
		{"\xc0\xaf", "\\xc0\\xaf"},                   /* overlong '/' */
		{"\xe0\x80\xaf", "\\xe0\\x80\\xaf"},          /* overlong */
		{"\xed\xa0\x80", "\\xed\\xa0\\x80"},          /* a surrogate */
		{"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"}, /* beyond U+10FFFF */
		{"\xe2\x80", "\\xe2\\x80"},                   /* cut short */
		{"\xff\xfe", "\\xff\\xfe"},
		{"", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = ct_text_dup(cases[i].in);
		CHECK(!strcmp(got, cases[i].out), "case %zu: \"%s\", want \"%s\"", i, got,
		      cases[i].out);
		CHECK(ct_text_clean(cases[i].in, strlen(cases[i].in)) ==
			      !strcmp(cases[i].in, cases[i].out),
		      "case %zu: ct_text_clean", i);
		char *put = captured(ct_text_put, cases[i].in);
		CHECK(!strcmp(put, cases[i].out), "case %zu: ct_text_put \"%s\"", i, put);
		free(put);
		CHECK(!strcmp(ct_tx(cases[i].in), cases[i].out), "case %zu: ct_tx", i);
		free(got);
	}
	/* ct_tx: the string itself when it is clean, and 8 results at once */
	const char *clean = "clean";
	CHECK(ct_tx(clean) == clean, "ct_tx copies a clean string");
	const char *r[8];
	for (int i = 0; i < 8; i++)
		r[i] = ct_tx(i % 2 ? "\x1b" : "\x07");
	for (int i = 0; i < 8; i++)
		CHECK(!strcmp(r[i], i % 2 ? "\\x1b" : "\\x07"), "ct_tx result %d reused early", i);
	char msg[16] = "ab\x1b\x1b\x1b\x1b\x1b";
	ct_text_fix(msg, sizeof(msg));
	CHECK(!strcmp(msg, "ab\\x1b\\x1b\\x1b"), "ct_text_fix cuts to fit: \"%s\"", msg);
}

static void test_json_csv(void)
{
	static const struct {
		const char *in, *json, *csv;
	} cases[] = {
		{"f", "\"f\"", "f"},
		{"a\"b\\c", "\"a\\\"b\\\\c\"", "\"a\"\"b\\c\""},
		{"x\x1b\x07", "\"x\\u001b\\u0007\"", "x\\x1b\\x07"},
		{"n\nl", "\"n\\nl\"", "n\\x0al"},
		{"a,b", "\"a,b\"", "\"a,b\""},
		{"caf\xc3\xa9", "\"caf\xc3\xa9\"", "caf\xc3\xa9"},
		{"\xc2\x9b", "\"\\u009b\"", "\\xc2\\x9b"},
		{"\x9b\xff", "\"\\\\x9b\\\\xff\"", "\\x9b\\xff"}, /* valid JSON: UTF-8 only */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *j = captured(ct_json_string, cases[i].in);
		CHECK(!strcmp(j, cases[i].json), "case %zu: JSON %s, want %s", i, j, cases[i].json);
		free(j);
		char *c = captured(ct_csv_string, cases[i].in);
		CHECK(!strcmp(c, cases[i].csv), "case %zu: CSV %s, want %s", i, c, cases[i].csv);
		free(c);
	}
}

/* the permission bits of path, or -1 */
static int perm(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

/* write "x" through ct_output_create(path, mode): 0, or errno */
static int put(const char *path, unsigned mode, const char **why)
{
	FILE *f = ct_output_create(path, mode, why);
	if (!f)
		return errno ? errno : -1;
	fputs("x", f);
	return fclose(f) == 0 ? 0 : errno;
}

static void test_create(void)
{
	char dir[] = "/tmp/ct-test-output-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char a[PATH_MAX], b[PATH_MAX], l[PATH_MAX];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(l, sizeof(l), "%s/l", dir);
	const char *why = NULL;
	mode_t old = umask(022);
	CHECK(put(a, 0600, &why) == 0 && perm(a) == 0600, "new, umask 022: %o", perm(a));
	umask(077);
	CHECK(put(b, 0644, &why) == 0 && perm(b) == 0644, "new, 0644 under umask 077: %o", perm(b));
	umask(022);
	/* an existing file of ours: emptied, made as asked */
	FILE *f = fopen(a, "w");
	fputs("longer than x", f);
	fclose(f);
	chmod(a, 0666);
	struct stat st;
	CHECK(put(a, 0600, &why) == 0 && perm(a) == 0600 && stat(a, &st) == 0 && st.st_size == 1,
	      "rewritten: %o, %lld bytes", perm(a), (long long)st.st_size);
	/* a link of ours, dangling: followed, its target made */
	CHECK(symlink("c", l) == 0, "symlink");
	char c[PATH_MAX];
	snprintf(c, sizeof(c), "%s/c", dir);
	CHECK(put(l, 0600, &why) == 0 && perm(c) == 0600, "our link followed: %o", perm(c));
	if (geteuid() == 0) {
		/* another user's link and file (root can make them) */
		unlink(c);
		CHECK(lchown(l, 65534, 65534) == 0, "lchown");
		why = NULL;
		CHECK(put(l, 0600, &why) == ELOOP && why && strstr(why, "another user") &&
			      perm(c) == -1,
		      "another user's link not followed: %s", why ? why : "written");
		CHECK(chown(b, 65534, 65534) == 0, "chown");
		why = NULL;
		CHECK(put(b, 0600, &why) == EPERM && why && strstr(why, "another user") &&
			      perm(b) == 0644,
		      "another user's file left alone: %s", why ? why : "written");
	} else {
		printf("(not root: another user's link and file not tried)\n");
	}
	/* a FIFO (as a device): written, its mode left as it is */
	char p[PATH_MAX], got[4] = "";
	snprintf(p, sizeof(p), "%s/p", dir);
	int rfd = mkfifo(p, 0644) == 0 ? open(p, O_RDONLY | O_NONBLOCK) : -1;
	CHECK(rfd >= 0 && put(p, 0600, &why) == 0 && read(rfd, got, 3) == 1 && got[0] == 'x' &&
		      perm(p) == 0644,
	      "a FIFO written (%s), its mode %o", got, perm(p));
	if (rfd >= 0)
		close(rfd);
	unlink(p);
	umask(old);
	unlink(a);
	unlink(b);
	unlink(c);
	unlink(l);
	rmdir(dir);
}

int main(void)
{
	test_text();
	test_json_csv();
	test_create();
	return check_done();
}
