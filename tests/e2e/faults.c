/* The program of the record fault cases (rotate, private, diskfull,
 * untraced, shm_attack):
 *   faults calls N        N calls of leaf(), then "done"
 *   faults wait FILE      a few calls, writes $CALLTRACE_SHM to FILE.shm,
 *                         then waits until FILE exists
 *   faults untraced       bumps the doorbell's untraced counters as the
 *                         runtime would (2 RING, 1 ORPHANED, 1 EXEC_ENV),
 *                         so that record's report of them is tested alone
 *   faults setuid         (as root) setuid(65534), then a thread's calls */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "ct_test.h"

NOINLINE void leaf(int i)
{
	sink += i;
}

NOINLINE void work(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

static void *thread_main(void *arg)
{
	work(100);
	return arg;
}

static int bump_untraced(void)
{
	const char *shm = getenv(CT_ENV_SHM);
	char path[4200];
	if (!shm)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", shm, CT_DOORBELL_NAME);
	int fd = open(path, O_RDWR | O_NOFOLLOW);
	if (fd < 0)
		return 1;
	struct ct_doorbell *db =
		mmap(NULL, CT_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (db == MAP_FAILED)
		return 1;
	__atomic_fetch_add(&db->untraced[CT_UNTRACED_RING], 2, __ATOMIC_RELAXED);
	__atomic_fetch_add(&db->untraced[CT_UNTRACED_ORPHANED], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&db->untraced[CT_UNTRACED_EXEC_ENV], 1, __ATOMIC_RELAXED);
	munmap(db, CT_DOORBELL_SIZE);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";
	if (!strcmp(mode, "calls") && argc > 2) {
		work(atoi(argv[2]));
	} else if (!strcmp(mode, "wait") && argc > 2) {
		work(10);
		char name[4200];
		snprintf(name, sizeof(name), "%s.shm", argv[2]);
		FILE *f = fopen(name, "w");
		if (f) {
			fprintf(f, "%s\n", getenv(CT_ENV_SHM) ? getenv(CT_ENV_SHM) : "");
			fclose(f);
		}
		/* (up to 1000 s: longer than the tests' hang guard, 900 s) */
		for (int i = 0; i < 100000 && access(argv[2], F_OK) != 0; i++)
			usleep(10000);
	} else if (!strcmp(mode, "untraced")) {
		work(10);
		if (bump_untraced()) {
			fprintf(stderr, "faults: no doorbell to count in\n");
			return 4;
		}
	} else if (!strcmp(mode, "setuid")) {
		work(10);
		if (setuid(65534) != 0) {
			perror("setuid");
			return 3;
		}
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, NULL) != 0)
			return 5;
		pthread_join(t, NULL);
	} else {
		fprintf(stderr, "usage: faults calls N | wait FILE | untraced | setuid\n");
		return 2;
	}
	printf("done\n");
	return 0;
}
