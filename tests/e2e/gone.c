/*
 * A program that outlives `record` (gone_kill, gone_int).  It makes many
 * traced calls, which fill small rings quickly, at moments the test
 * chooses by creating files in DIR; at the end it writes DIR/marker.
 *
 *   gone kill DIR    prints "ready PID"; after DIR/go1, 100000 calls of
 *                    before() and "phase1 done"; after DIR/go2 (record is
 *                    dead by then) calls of after() in main, in a thread and
 *                    in a forked child; then DIR/marker and "done"
 *   gone setsid DIR exit|wait
 *                    a child leaves the session (setsid) and waits for
 *                    DIR/go; the parent makes 1000 calls of before(),
 *                    prints "ready PID CHILD PARENT" (its parent is record),
 *                    then ends (exit) or waits for
 *                    a signal (wait).  The child then forks a grandchild
 *                    that execs "gone exec DIR" (calls of after(), exit 5),
 *                    makes calls itself, and writes DIR/marker.
 *
 * Every wait is bounded (2 minutes), so that nothing outlives a failed
 * test for long.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

static const char *dir;

NOTRACE static void wait_file(const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* (up to 1000 s: longer than the tests' hang guard, 900 s) */
	for (int i = 0; i < 100000 && access(path, F_OK) != 0; i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (access(path, F_OK) != 0) {
		fprintf(stderr, "gone: %s never came\n", path);
		_exit(3);
	}
}

NOTRACE static void put_marker(const char *text)
{
	char path[4096], tmp[4096 + 8];
	snprintf(path, sizeof(path), "%s/marker", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
		perror("gone: marker");
		_exit(4);
	}
}

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void before(void)
{
	sink += 1;
	leaf(1);
}

NOINLINE void after(void)
{
	sink += 2;
	leaf(2);
}

NOINLINE void many_after(long n)
{
	for (long i = 0; i < n; i++)
		after();
}

NOINLINE void *worker(void *arg)
{
	many_after((long)arg);
	return NULL;
}

/* fork from inside traced frames: in the child they must still return;
 * with exec, the child runs "gone exec DIR" (the same calls) */
NOINLINE int child_status(long n, int exec)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (exec) {
			execl("/proc/self/exe", "gone", "exec", dir, (char *)NULL);
			_exit(6);
		}
		many_after(n);
		exit(5);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

NOINLINE int thread_and_child(long n)
{
	pthread_t th;
	if (pthread_create(&th, NULL, worker, (void *)n) != 0 || pthread_join(th, NULL) != 0)
		return -1;
	return child_status(n, 0);
}

static int mode_kill(void)
{
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	wait_file("go1");
	for (int i = 0; i < 100000; i++)
		before();
	printf("phase1 done\n");
	fflush(stdout);
	wait_file("go2");
	many_after(1000000);
	int st = thread_and_child(200000);
	char text[64];
	snprintf(text, sizeof(text), "done child=%d\n", st);
	put_marker(text);
	printf("done\n");
	return 0;
}

NOINLINE void daemon_work(void)
{
	wait_file("go");
	/* a child forked before this process found out that record is gone
	 * (its rings are not full yet): it must find out itself */
	int st = child_status(100000, 1);
	many_after(1000000);
	char text[64];
	snprintf(text, sizeof(text), "done child=%d\n", st);
	put_marker(text);
}

/* the child that leaves the session: ^C to record's group does not reach it */
NOINLINE int start_daemon(int fd)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid != 0)
		return (int)pid;
	if (setsid() < 0 || write(fd, "s", 1) != 1)
		_exit(6);
	close(fd);
	daemon_work();
	exit(0);
}

static int mode_setsid(const char *how)
{
	int fds[2];
	char c;
	if (pipe(fds) != 0)
		return 2;
	for (int i = 0; i < 1000; i++)
		before();
	int child = start_daemon(fds[1]);
	if (child < 0 || read(fds[0], &c, 1) != 1)
		return 2;
	printf("ready %d %d %d\n", (int)getpid(), child, (int)getppid());
	fflush(stdout);
	if (!strcmp(how, "wait"))
		for (int i = 0; i < 1000; i++)
			sleep(1); /* until ^C (the hang guard: 900 s) */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	dir = argv[2];
	if (!strcmp(argv[1], "kill"))
		return mode_kill();
	if (!strcmp(argv[1], "exec")) {
		many_after(100000);
		return 5;
	}
	if (!strcmp(argv[1], "setsid") && argc > 3)
		return mode_setsid(argv[3]);
	return 2;
}
