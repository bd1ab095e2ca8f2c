/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "error.h"
#include "util.h"

static void test_duration(void)
{
	static const struct {
		const char *s;
		int64_t ns;
	} cases[] = {
		{"10", 10},         {"10ns", 10},       {"1.5us", 1500},
		{"2ms", 2000000},   {"1s", 1000000000}, {"0.000001s", 1000},
		{"1.0005us", 1001}, {".5ms", 500000},   {"3m", 180000000000LL},
		{"", -1},           {"abc", -1},        {"10xs", -1},
		{"-1ms", -1},       {"1.2.3", -1},      {"99999999999999999999", -1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = ct_parse_duration(cases[i].s);
		CHECK(v == cases[i].ns, "ct_parse_duration(\"%s\") = %" PRId64 ", want %" PRId64,
		      cases[i].s, v, cases[i].ns);
	}
	CHECK(ct_parse_duration(NULL) == -1, "NULL");

	static const struct {
		uint64_t ns;
		const char *s;
	} fmt[] = {
		{0, "  0.000 ns"},          {123, "123.000 ns"},
		{999, "999.000 ns"},        {1000, "  1.000 us"},
		{1234, "  1.234 us"},       {999999, "999.999 us"},
		{5000000, "  5.000 ms"},    {999999999, "999.999 ms"},
		{2000000000, "  2.000  s"}, {12345678901ULL, " 12.345  s"},
	};
	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		char buf[32];
		ct_format_duration(fmt[i].ns, buf, sizeof(buf));
		CHECK(!strcmp(buf, fmt[i].s),
		      "ct_format_duration(%" PRIu64 ") = \"%s\", want \"%s\"", fmt[i].ns, buf,
		      fmt[i].s);
		CHECK(strlen(buf) == 10, "width of \"%s\"", buf);
	}
}

static void test_map(void)
{
	struct ct_u64map m;
	ct_u64map_init(&m);
	CHECK(ct_u64map_get(&m, 5) == NULL, "empty map");
	const uint64_t n = 100000;
	for (uint64_t i = 0; i < n; i++)
		*ct_u64map_slot(&m, i * 4096 + 7) = (void *)(uintptr_t)(i + 1);
	CHECK(m.len == n, "len %zu", m.len);
	int bad = 0;
	for (uint64_t i = 0; i < n; i++)
		if (ct_u64map_get(&m, i * 4096 + 7) != (void *)(uintptr_t)(i + 1))
			bad++;
	CHECK(bad == 0, "%d wrong values", bad);
	CHECK(ct_u64map_get(&m, 8) == NULL, "absent key");
	void **s = ct_u64map_slot(&m, 0);
	CHECK(*s == NULL, "new slot is NULL");
	*s = (void *)1;
	CHECK(ct_u64map_get(&m, 0) == (void *)1, "key 0");
	CHECK(*ct_u64map_slot(&m, UINT64_MAX) == NULL, "key max");
	size_t cnt = 0;
	for (size_t i = 0; i < m.cap; i++)
		cnt += m.used[i];
	CHECK(cnt == n + 2, "iteration count %zu", cnt);
	ct_u64map_free(&m);
}

static void test_alloc(void)
{
	char *s = xasprintf("%s-%d", "ab", 42);
	CHECK(!strcmp(s, "ab-42"), "xasprintf gave %s", s);
	char *d = xstrdup(s);
	CHECK(!strcmp(d, s) && d != s, "xstrdup");
	free(s);
	free(d);
	int *z = xcalloc(10, sizeof(int));
	int sum = 0;
	for (int i = 0; i < 10; i++)
		sum += z[i];
	CHECK(sum == 0, "xcalloc zeroes");
	z = xrealloc(z, 1000 * sizeof(int));
	z[999] = 1;
	free(z);
	free(xmalloc(0));
}

/* the files of a recording: regular files only, bounded */
static void test_read_file(void)
{
	char dir[] = "/tmp/ct-test-util-XXXXXX";
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	char reg[64], lnk[64], fifo[64];
	struct ct_error e;
	const char *err = e.msg;
	snprintf(reg, sizeof(reg), "%s/info", dir);
	snprintf(lnk, sizeof(lnk), "%s/link", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	FILE *f = fopen(reg, "w");
	fputs("calltrace-data: 1\n", f);
	fclose(f);
	CHECK(symlink("/dev/zero", lnk) == 0, "symlink");
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	size_t len = 0;
	char *t = ct_read_file(reg, true, 100, &len, &e);
	CHECK(t && len == 18 && !strcmp(t, "calltrace-data: 1\n"), "a regular file is read whole");
	free(t);
	t = ct_read_file(reg, true, 10, &len, &e);
	CHECK(!t && strstr(err, "too large") && strstr(err, reg), "over the cap: %s", err);
	t = ct_read_file(lnk, true, 100, &len, &e);
	CHECK(!t && strstr(err, "symbolic link") && strstr(err, lnk), "a link: %s", err);
	t = ct_read_file(lnk, false, 100, &len, &e);
	CHECK(!t && strstr(err, "character device"), "/dev/zero through a link: %s", err);
	t = ct_read_file(fifo, true, 100, &len, &e); /* must not block */
	CHECK(!t && strstr(err, "FIFO") && strstr(err, fifo), "a FIFO: %s", err);
	uint64_t size;
	const char *why;
	CHECK(ct_open_regular(dir, true, &size, &why) < 0 && strstr(why, "directory"),
	      "a directory");
	CHECK(ct_open_regular("/nonexistent/x", true, &size, &why) < 0 && errno == ENOENT,
	      "missing: errno");
	unlink(reg);
	unlink(lnk);
	unlink(fifo);
	rmdir(dir);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	ct_qsort(NULL, 0, sizeof(int), cmp_int); /* UBSan: qsort(NULL, 0) */
	int v[3] = {3, 1, 2};
	ct_qsort(v, 3, sizeof(int), cmp_int);
	CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3, "ct_qsort sorts");
	test_read_file();
	test_duration();
	test_map();
	test_alloc();
	return check_done();
}
