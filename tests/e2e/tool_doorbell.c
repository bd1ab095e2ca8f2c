/* SPDX-License-Identifier: MIT */
/* Not traced: stands in for `record` as far as the doorbell goes, to read
 * what the runtime counted there.  tool_doorbell DIR LIB PROG ARGS...
 * makes DIR/shm (0700) with a doorbell page as record makes it (O_EXCL,
 * 0600, magic, version, this process as the drainer) and DIR/data, runs
 * PROG with LD_PRELOAD=LIB and the CALLTRACE_ variables, waits for it, and
 * prints its exit status and the doorbell's untraced[] counters.  Nothing
 * drains the rings: PROG must make few calls. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../include/calltrace/format.h"

static unsigned long long start_time(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		return 0;
	fclose(f);
	char *p = strrchr(buf, ')');
	unsigned long long v = 0;
	/* field 22; p points at the end of field 2 */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: tool_doorbell DIR LIB PROG ARGS...\n");
		return 2;
	}
	char shm[4096], data[4096], db[4200];
	snprintf(shm, sizeof(shm), "%s/shm", argv[1]);
	snprintf(data, sizeof(data), "%s/data", argv[1]);
	snprintf(db, sizeof(db), "%s/%s", shm, CT_DOORBELL_NAME);
	if (mkdir(shm, 0700) || mkdir(data, 0700)) {
		perror("mkdir");
		return 1;
	}
	int fd = open(db, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, CT_DOORBELL_SIZE) != 0) {
		perror(db);
		return 1;
	}
	struct ct_doorbell *d = mmap(NULL, CT_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (d == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	d->magic = CT_DOORBELL_MAGIC;
	d->version = CT_FORMAT_VERSION;
	d->record_pid = (int32_t)getpid();
	d->record_start = start_time();
	d->heartbeat = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	setenv("LD_PRELOAD", argv[2], 1);
	setenv(CT_ENV_SHM, shm, 1);
	setenv(CT_ENV_DIR, data, 1);
	setenv(CT_ENV_CLOCK, "tsc", 1);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execv(argv[3], argv + 3);
		perror(argv[3]);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	unsetenv("LD_PRELOAD");
	printf("exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	static const char *const names[] = {"ring", "seccomp", "tsc", "clone", "exec_env",
					    "orphaned"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		printf("untraced %s: %llu\n", names[i], (unsigned long long)d->untraced[i]);
	return 0;
}
