/* SPDX-License-Identifier: MIT */
/*
 * tool_sigclock (tests/e2e/sample.sh): which sampling clock this kernel
 * gives record --sample (runtime/sample.c, doc/record.md "The clock"),
 * found without calltrace: "trap" (a perf event on the thread's
 * task-clock with attr.sigtrap, Linux 5.13), "rt" (the same event without
 * sigtrap: a real-time signal by F_SETSIG) or "timer" (no perf event).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int try(int sigtrap)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 1000000;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.sigtrap = (unsigned)sigtrap;
	a.remove_on_exec = (unsigned)sigtrap;
	int fd = (int)syscall(SYS_perf_event_open, &a, (int)syscall(SYS_gettid), -1, -1, 0);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int main(void)
{
	puts(try(1) ? "trap" : try(0) ? "rt" : "timer");
	return 0;
}
