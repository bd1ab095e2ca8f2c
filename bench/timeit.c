/* SPDX-License-Identifier: MIT */
/* timeit: run a command several times; print the best (minimum) and the
 * median wall time in ns, the largest peak RSS in KiB (ru_maxrss from wait4,
 * the figure GNU time prints as %M) and the last non-zero exit status.
 *
 *   timeit [-n RUNS] [-p PREP] [-o OUT] [-e ERR] -- CMD ARGS...
 *
 * PREP is a shell command run (untimed) before each run, e.g. removing the
 * previous recording.  The command's stdout goes to OUT and its stderr to ERR
 * (both /dev/null unless given).
 * Output: "min_ns median_ns maxrss_kb status min_cpu_ns", the last being the
 * least user+system CPU time of a run (the command and the children it
 * waited for), which other load on the machine disturbs less than wall time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int runs = 3, opt;
	const char *prep = NULL, *out = "/dev/null", *err = "/dev/null";
	while ((opt = getopt(argc, argv, "+n:p:o:e:")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'p':
			prep = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e':
			err = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: timeit [-n RUNS] [-p PREP] [-o OUT] [-e ERR] -- CMD...\n");
			return 2;
		}
	}
	if (optind >= argc || runs < 1) {
		fprintf(stderr, "timeit: no command\n");
		return 2;
	}
	long long *t = calloc(runs, sizeof(*t));
	long maxrss = 0;
	long long mincpu = -1;
	int status_out = 0;
	for (int i = 0; i < runs; i++) {
		if (prep && system(prep) != 0) {
			fprintf(stderr, "timeit: '%s' failed\n", prep);
			return 1;
		}
		long long t0 = now_ns();
		pid_t pid = fork();
		if (pid < 0) {
			perror("timeit: fork");
			return 1;
		}
		if (pid == 0) {
			int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			int fe = strcmp(err, out) ? open(err, O_WRONLY | O_CREAT | O_APPEND, 0644)
						  : fo;
			int fi = open("/dev/null", O_RDONLY);
			if (fo < 0 || fe < 0 || fi < 0)
				_exit(126);
			dup2(fi, 0);
			dup2(fo, 1);
			dup2(fe, 2);
			execvp(argv[optind], argv + optind);
			_exit(127);
		}
		int st;
		struct rusage ru;
		if (wait4(pid, &st, 0, &ru) < 0) {
			perror("timeit: wait4");
			return 1;
		}
		t[i] = now_ns() - t0;
		long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
				(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
		if (mincpu < 0 || cpu < mincpu)
			mincpu = cpu;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		if (WIFEXITED(st) && WEXITSTATUS(st))
			status_out = WEXITSTATUS(st);
		else if (WIFSIGNALED(st))
			status_out = 128 + WTERMSIG(st);
	}
	qsort(t, runs, sizeof(*t), cmp_ll);
	printf("%lld %lld %ld %d %lld\n", t[0], t[runs / 2], maxrss, status_out, mincpu);
	return 0;
}
