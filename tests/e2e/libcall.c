/* libcall: calls from traced code into shared libraries (doc/libcall.md):
 * malloc, memcpy, strlen, free and printf under their callers; qsort
 * calling back into traced code; threads with pthread_*; fork; a
 * dlopen'd traced library calling into libc; longjmp out of a callback;
 * exit() inside a call, with an atexit handler.  One mode per run. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

static char *volatile keep;

NOINLINE size_t work(const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n + 1);
	memcpy(p, s, n + 1);
	keep = p;
	sink += p[0];
	free(p);
	return n;
}

NOINLINE void say(const char *what, int n)
{
	printf("%s %d\n", what, n);
}

NOINLINE int cmp(const void *a, const void *b)
{
	sink++;
	return *(const int *)a - *(const int *)b;
}

NOINLINE void sort_two(void)
{
	int v[2] = {2, 1};
	qsort(v, 2, sizeof(int), cmp);
	sink += v[0];
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

NOINLINE void *thread_fn(void *arg)
{
	pthread_mutex_lock(&mu);
	sink += (int)(long)arg;
	pthread_mutex_unlock(&mu);
	return NULL;
}

NOINLINE void threads(void)
{
	pthread_t t;
	pthread_create(&t, NULL, thread_fn, (void *)1L);
	pthread_join(t, NULL);
}

NOINLINE void child(void)
{
	say("child", (int)work("abc"));
	fflush(stdout);
	_exit(0);
}

NOINLINE void forks(void)
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0)
		child();
	int st;
	waitpid(p, &st, 0);
	say("parent", WEXITSTATUS(st));
}

NOINLINE void plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		exit(1);
	}
	int (*run)(const char *) = (int (*)(const char *))dlsym(h, "plugin_run");
	say("plugin", run("four"));
	dlclose(h);
}

static jmp_buf jb;

NOINLINE int cmp_jump(const void *a, const void *b)
{
	(void)a;
	(void)b;
	longjmp(jb, 1);
}

NOINLINE void jump(void)
{
	int v[2] = {2, 1};
	if (setjmp(jb) == 0)
		qsort(v, 2, sizeof(int), cmp_jump);
	say("jumped", v[0]);
}

NOINLINE void at_end(void)
{
	say("at_end", 1);
}

NOINLINE void finish(void)
{
	atexit(at_end);
	exit(3);
}

/* the mode is argv[1]'s first letter: no library call chooses it */
int main(int argc, char **argv)
{
	switch (argc > 2 ? argv[1][0] : 0) {
	case 't': /* tree WORD */
		say("work", (int)work(argv[2]));
		sort_two();
		break;
	case 'T': /* threads - */
		threads();
		break;
	case 'f': /* fork - */
		forks();
		break;
	case 'p': /* plugin PATH */
		plugin(argv[2]);
		break;
	case 'j': /* jump - */
		jump();
		break;
	case 'e': /* exit - */
		finish();
		break;
	}
	return 0;
}
