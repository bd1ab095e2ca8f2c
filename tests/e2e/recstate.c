/*
 * What a program gets from `record` (issue 25): its signal dispositions and
 * mask, its environment, and a recording that another record must leave
 * alone.  Cases sigkeep, lockdir, killed, strayenv, plant, secure_exec.
 *
 *   recstate calls N     N calls of leaf() under work(); prints "done"
 *   recstate write       calls of line() that each write a line to stdout,
 *                        until a write fails: EPIPE says "EPIPE" on stderr
 *                        and exits 0 (as without record when SIGPIPE is
 *                        ignored); at most 10 million lines, then exit 2
 *   recstate hup         raises SIGHUP, then says "survived SIGHUP"
 *   recstate state       prints the signals (1..31) blocked and ignored
 *   recstate env         prints the CALLTRACE_* variables it has, with the
 *                        value of CALLTRACE_LIBCALL only (others are paths)
 *   recstate fifo READY GO
 *                        calls of leaf(); writes "ready PID PPID" to the
 *                        FIFO READY (its parent is record) and waits for
 *                        GO (a FIFO) to be written and closed; calls of
 *                        leaf() again; writes "done" to READY.  A SIGALRM
 *                        ends it after 10 minutes, should the test fail.
 *   recstate launch [ignore SIG,...] [block SIG,...] -- CMD ARGS
 *                        (untraced use) sets those dispositions and mask,
 *                        then execs CMD
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

extern char **environ;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void work(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE static int line(long i)
{
	sink++;
	return printf("line %ld\n", i) < 0 || fflush(stdout) != 0 ? -1 : 0;
}

NOTRACE static int signum(const char *name)
{
	for (int s = 1; s < 32; s++) {
		const char *a = sigabbrev_np(s);
		if (a && !strcmp(a, name))
			return s;
	}
	fprintf(stderr, "recstate: unknown signal %s\n", name);
	exit(2);
}

/* each signal of the comma-separated list names */
NOTRACE static void each(const char *list, void (*fn)(int))
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		fn(signum(t));
}

static sigset_t blocked;

NOTRACE static void ignore_one(int s)
{
	signal(s, SIG_IGN);
}

NOTRACE static void block_one(int s)
{
	sigaddset(&blocked, s);
}

NOTRACE static int launch(int argc, char **argv)
{
	int i = 2;
	sigemptyset(&blocked);
	for (; i + 1 < argc && strcmp(argv[i], "--"); i += 2) {
		if (!strcmp(argv[i], "ignore"))
			each(argv[i + 1], ignore_one);
		else if (!strcmp(argv[i], "block"))
			each(argv[i + 1], block_one);
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
		fprintf(stderr, "recstate launch: no command\n");
		return 2;
	}
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	execvp(argv[i + 1], argv + i + 1);
	perror(argv[i + 1]);
	return 127;
}

NOTRACE static void state(void)
{
	sigset_t m;
	sigprocmask(SIG_SETMASK, NULL, &m);
	printf("blocked:");
	for (int s = 1; s < 32; s++)
		if (sigismember(&m, s) == 1)
			printf(" %s", sigabbrev_np(s));
	printf("\nignored:");
	for (int s = 1; s < 32; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			printf(" %s", sigabbrev_np(s));
	}
	printf("\n");
}

NOTRACE static void env(void)
{
	for (char **e = environ; *e; e++) {
		if (strncmp(*e, "CALLTRACE_", 10))
			continue;
		if (!strncmp(*e, "CALLTRACE_LIBCALL=", 18))
			printf("%s\n", *e);
		else
			printf("%.*s\n", (int)strcspn(*e, "="), *e);
	}
}

NOTRACE static void put_fifo(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(3);
	}
}

NOTRACE static void wait_fifo(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(3);
	}
	while (fgets(buf, sizeof(buf), f))
		;
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "launch"))
		return launch(argc, argv);
	if (!strcmp(argv[1], "calls") && argc > 2) {
		work(atoi(argv[2]));
		printf("done\n");
	} else if (!strcmp(argv[1], "write")) {
		for (long i = 1; i <= 10 * 1000 * 1000; i++)
			if (line(i) < 0) {
				fprintf(stderr, "%s\n", errno == EPIPE ? "EPIPE" : strerror(errno));
				return errno == EPIPE ? 0 : 1;
			}
		return 2;
	} else if (!strcmp(argv[1], "hup")) {
		raise(SIGHUP);
		printf("survived SIGHUP\n");
	} else if (!strcmp(argv[1], "state")) {
		state();
	} else if (!strcmp(argv[1], "env")) {
		env();
	} else if (!strcmp(argv[1], "fifo") && argc > 3) {
		char text[64];
		alarm(600);
		work(2);
		snprintf(text, sizeof(text), "ready %d %d\n", (int)getpid(), (int)getppid());
		put_fifo(argv[2], text);
		wait_fifo(argv[3]);
		work(3);
		put_fifo(argv[2], "done\n");
	} else {
		return 2;
	}
	return 0;
}
