/* SPDX-License-Identifier: MIT */
/*
 * Reading /proc/PID/stat: how `record` and the runtime tell whether a
 * process still lives, and whether it is still the same process (its start
 * time, field 22, tells a pid used again apart).  Shared by both halves;
 * header-only, libc alone, no malloc, async-signal-safe.
 */
#ifndef CALLTRACE_PROCSTAT_H
#define CALLTRACE_PROCSTAT_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

struct ct_procstat {
	char state;       /* field 3: R, S, D, T, t, Z, X, ... */
	int ppid;         /* field 4 */
	uint64_t start;   /* field 22: start time, clock ticks after boot */
	const char *comm; /* field 2, inside the text parsed (not terminated) */
	unsigned comm_len;
};

/* Parse the text of /proc/PID/stat (len bytes).  The command name, field 2,
 * is in parentheses and may itself hold spaces and parentheses: the fields
 * after it start after the last ')'.  Returns 0, or -1 if the text is not
 * such a line. */
static inline int ct_procstat_parse(const char *buf, size_t len, struct ct_procstat *ps)
{
	const char *open = NULL, *close = NULL, *end = buf + len;
	for (const char *p = buf; p < end; p++) {
		if (*p == '(' && !open)
			open = p;
		else if (*p == ')')
			close = p;
	}
	if (!open || !close || close < open || close + 2 >= end)
		return -1;
	ps->comm = open + 1;
	ps->comm_len = (unsigned)(close - open - 1);
	const char *p = close + 2; /* field 3 */
	ps->state = *p;
	ps->ppid = 0;
	ps->start = 0;
	int field = 3;
	for (; p < end && field < 22; p++) {
		if (*p != ' ')
			continue;
		field++;
		if (field == 4 || field == 22) {
			const char *q = p + 1;
			uint64_t v = 0;
			int neg = q < end && *q == '-';
			q += neg;
			if (q >= end || *q < '0' || *q > '9')
				return -1;
			while (q < end && *q >= '0' && *q <= '9')
				v = v * 10 + (uint64_t)(*q++ - '0');
			if (field == 4)
				ps->ppid = neg ? -(int)v : (int)v;
			else
				ps->start = v;
		}
	}
	return field == 22 ? 0 : -1;
}

/* Read and parse /proc/PID/stat into ps (ps->comm points into buf).
 * Returns 0, or -errno: -ENOENT when there is no such process (or no /proc). */
static inline int ct_procstat_read(int pid, struct ct_procstat *ps, char *buf, size_t size)
{
	char path[40] = "/proc/";
	*ps = (struct ct_procstat){0, 0, 0, NULL, 0};
	char digits[12];
	int n = 0, i = 6;
	unsigned v = (unsigned)pid;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		path[i++] = digits[--n];
	const char *tail = "/stat";
	while (*tail)
		path[i++] = *tail++;
	path[i] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t len = 0, r;
	while (len < (ssize_t)size && (r = read(fd, buf + len, size - (size_t)len)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		len += r;
	}
	close(fd);
	return ct_procstat_parse(buf, (size_t)len, ps) == 0 ? 0 : -EINVAL;
}

#endif
