/* SPDX-License-Identifier: MIT */
/*
 * record --callsite's CT_EXT_CALLSITE record (include/calltrace/format.h):
 * the encoding at the edges of its short form, and a hand-made recording
 * read back through the public API (include/calltrace/reader.h): each
 * call's site on its entry and exit, one event at a time and in batches,
 * a call without one, one after anything but an ENTER skipped.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "calltrace/reader.h"
#include "check.h"
#include "util.h"

static void test_encoding(void)
{
	static const struct {
		uint64_t fn, site;
		unsigned words;
	} cases[] = {
		{0x401000, 0x401020, 1},
		{0x401000, 0x401000 + 32767, 1},
		{0x401000, 0x401000 - 32768, 1},
		{0x401000, 0x401000 + 32768, 2},
		{0x401000, 0x401000 - 32769, 2},
		{0x7f0012340000, 0x55d012345678, 2},
		{0x55d012345678, 0x7f0012340000, 2},
		{0x7ffffffff000, 0x7fffffffffff, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t w[CT_CALLSITE_MAXW] = {0};
		unsigned n = ct_callsite_encode(cases[i].fn, cases[i].site, w);
		CHECK(n == cases[i].words, "case %zu: %u words", i, n);
		CHECK((w[0] & 3) == CT_REC_EXT && CT_EXT_TYPE(w[0]) == CT_EXT_CALLSITE &&
			      CT_EXT_LEN(w[0]) == n - 1,
		      "case %zu: header %#x", i, w[0]);
		uint64_t back = ct_callsite_decode(cases[i].fn, w[0], w[1]);
		CHECK(back == cases[i].site, "case %zu: %#llx back as %#llx", i,
		      (unsigned long long)cases[i].site, (unsigned long long)back);
	}
}

/* ---- a recording ----------------------------------------------------------- */

struct ev {
	uint32_t w[64];
	size_t n;
};

static void enter(struct ev *e, uint32_t delta, uint64_t addr, uint64_t site)
{
	uint64_t q = (uint64_t)CT_REC_ENTER | (uint64_t)delta << 2 | addr << 24;
	e->w[e->n++] = (uint32_t)q;
	e->w[e->n++] = (uint32_t)(q >> 32);
	if (site)
		e->n += ct_callsite_encode(addr, site, e->w + e->n);
}

static void leave(struct ev *e, uint32_t delta)
{
	e->w[e->n++] = CT_REC_EXIT | delta << 2;
}

static void write_file(const char *d, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", d, name);
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(data, 1, len, f);
	fclose(f);
	free(path);
}

enum { A = 0x401000, B = 0x401100, C = 0x402000 };
#define SITE_B (A + 0x31)         /* short form, after the function */
#define SITE_C1 (B + 0x12)        /* short form, before the function */
#define SITE_C2 0x7f0000001234ull /* long form */

int main(void)
{
	test_encoding();

	char dir[] = "/tmp/ct-test-callsite-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	const char *info =
		"calltrace-data: 1\ncommand: ./prog\nstart_time: 2024-01-01T00:00:00Z\n"
		"clock: mono\nclock_hz: 1000000000\nstart_clock: 1000\nend_clock: 2000\n"
		"exit_status: exit 0\nprocesses: 1\nthreads: 1\nevents: 8\ncomplete: 1\n";
	write_file(dir, "info", info, strlen(info));
	const char *proc = "calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /bin/prog\narg ./prog\n"
			   "clock 1000 5 6\n"
			   "module 1000 0 400000 500000 beef /nonexistent/prog\n";
	write_file(dir, "10-0.proc", proc, strlen(proc));
	/* A (no site) { B (SITE_B) { C (SITE_C1) } C (SITE_C2) }, and a
	 * stray CALLSITE after an exit */
	struct ev e = {{0}, 0};
	enter(&e, 10, A, 0);
	enter(&e, 5, B, SITE_B);
	enter(&e, 5, C, SITE_C1);
	leave(&e, 5);
	e.w[e.n++] = ct_ext_word(CT_EXT_CALLSITE, 0, 7); /* stray: skipped */
	leave(&e, 5);
	enter(&e, 5, C, SITE_C2);
	leave(&e, 5);
	leave(&e, 5);
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = 10,
				      .tid = 10,
				      .start_tsc = 1000};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	unsigned char buf[sizeof(h) + sizeof(e.w)];
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), e.w, e.n * 4);
	write_file(dir, "10-0-10.ev", buf, sizeof(h) + e.n * 4);

	static const struct {
		int kind;
		uint64_t addr, site;
	} want[] = {
		{CT_READER_ENTRY, A, 0},       {CT_READER_ENTRY, B, SITE_B},
		{CT_READER_ENTRY, C, SITE_C1}, {CT_READER_EXIT, C, SITE_C1},
		{CT_READER_EXIT, B, SITE_B},   {CT_READER_ENTRY, C, SITE_C2},
		{CT_READER_EXIT, C, SITE_C2},  {CT_READER_EXIT, A, 0},
	};
	ct_reader *r;
	struct ct_reader_error err;
	CHECK(ct_reader_open(dir, 0, &r, &err) == 0, "open: %s", err.message);
	if (r) {
		ct_reader_iter *it;
		CHECK(ct_reader_iter_open(r, 0, 0, &it, &err) == 0, "iter: %s", err.message);
		struct ct_reader_event ev;
		size_t i = 0;
		while (it && ct_reader_next(it, &ev, &err) == 1 && i < 8) {
			CHECK(ev.kind == want[i].kind && ev.addr == want[i].addr, "event %zu", i);
			CHECK(ct_reader_callsite(it) == want[i].site, "event %zu: site %#llx", i,
			      (unsigned long long)ct_reader_callsite(it));
			i++;
		}
		CHECK(i == 8 && err.code == 0, "%zu events: %s", i, err.message);
		CHECK(ct_reader_batch_callsites(it, NULL) == NULL,
		      "no batch sites without the flag");
		ct_reader_iter_close(it);

		CHECK(ct_reader_iter_open(r, 0, CT_READER_CALLSITES, &it, &err) == 0, "iter: %s",
		      err.message);
		struct ct_reader_rec recs[16];
		int n = it ? ct_reader_read(it, recs, 16, &err) : -1;
		size_t ns = 0;
		const uint64_t *sites = it ? ct_reader_batch_callsites(it, &ns) : NULL;
		CHECK(n == 8 && sites && ns == 8, "batch: %d records, %zu sites", n, ns);
		for (size_t k = 0; sites && k < ns && k < 8; k++)
			CHECK(sites[k] == want[k].site && recs[k].addr == want[k].addr,
			      "batch %zu: site %#llx", k, (unsigned long long)sites[k]);
		/* no module file: no line, and a bad process index */
		CHECK(ct_reader_callsite_line(r, 0, SITE_B) == NULL, "a line without the file");
		CHECK(ct_reader_callsite_line(r, 5, SITE_B) == NULL, "a bad process index");
		ct_reader_iter_close(it);
		ct_reader_close(r);
	}
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	return check_done();
}
