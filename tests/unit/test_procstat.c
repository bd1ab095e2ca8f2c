/* SPDX-License-Identifier: MIT */
/* include/calltrace/procstat.h: how record and the runtime read
 * /proc/PID/stat (is record alive, is it still the same process, who are
 * the processes left running) */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/procstat.h"
#include "check.h"

static int parse(const char *line, struct ct_procstat *ps)
{
	return ct_procstat_parse(line, strlen(line), ps);
}

static void test_parse(void)
{
	struct ct_procstat ps;
	const char *l =
		"4321 (gone) S 4320 4321 4321 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 "
		"987654 2461696 194 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n";
	CHECK(parse(l, &ps) == 0, "a plain line");
	CHECK(ps.state == 'S', "state %c", ps.state);
	CHECK(ps.ppid == 4320, "ppid %d", ps.ppid);
	CHECK(ps.start == 987654, "start %" PRIu64, ps.start);
	CHECK(ps.comm_len == 4 && !memcmp(ps.comm, "gone", 4), "comm %.*s", (int)ps.comm_len,
	      ps.comm);

	/* a name with spaces and parentheses: the fields start after the last ')' */
	l = "77 (a) Z 1 (b) ) Z 5 77 77 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 42 0 0\n";
	CHECK(parse(l, &ps) == 0, "a name with ') Z 1 ('");
	CHECK(ps.state == 'Z', "state %c", ps.state);
	CHECK(ps.ppid == 5, "ppid %d", ps.ppid);
	CHECK(ps.start == 42, "start %" PRIu64, ps.start);
	CHECK(ps.comm_len == 11, "comm length %u", ps.comm_len);

	/* a start time of 0 is a start time */
	l = "1 (init) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 0 0 0\n";
	CHECK(parse(l, &ps) == 0 && ps.start == 0 && ps.ppid == 0, "start 0");

	CHECK(parse("", &ps) < 0, "empty");
	CHECK(parse("12 (x", &ps) < 0, "no ')'");
	CHECK(parse("12 (x) S 1 2 3", &ps) < 0, "cut before field 22");
	CHECK(parse("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 x", &ps) < 0,
	      "field 22 not a number");
}

static void test_read(void)
{
	struct ct_procstat ps, again;
	char buf[1024], buf2[1024];
	CHECK(ct_procstat_read((int)getpid(), &ps, buf, sizeof(buf)) == 0, "this process");
	CHECK(ps.state == 'R', "this process runs: %c", ps.state);
	CHECK(ps.ppid == (int)getppid(), "ppid %d, want %d", ps.ppid, (int)getppid());
	CHECK(ct_procstat_read((int)getpid(), &again, buf2, sizeof(buf2)) == 0 &&
		      again.start == ps.start,
	      "the same start time twice");
	/* pid_max is at most 4194304 */
	CHECK(ct_procstat_read(99999999, &ps, buf, sizeof(buf)) == -ENOENT, "no such process");
}

int main(void)
{
	test_parse();
	test_read();
	return check_done();
}
