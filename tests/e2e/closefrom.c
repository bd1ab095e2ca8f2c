/* A program that closes every descriptor from 3 up (closefrom), then opens
 * a file of its own (it gets the lowest free number, where the tracer's
 * descriptors used to be) and loads and unloads a library three times
 * (each time the tracer appends module lines to its .proc file), making
 * enough calls to fill several buffers (a linked-in runtime's writer
 * appends them to its .ev files).  Its file must hold only what it wrote. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void work(int i)
{
	sink += i;
}

NOINLINE int call_plugin(int (*fn)(int), int x)
{
	sink += 2;
	return fn(x);
}

NOTRACE static void many(int n)
{
	for (int i = 0; i < n; i++)
		work(i);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	many(20000);
	usleep(50 * 1000); /* a linked-in writer has opened its stream files */
	closefrom(3);
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	const char mine[] = "the program's own line\n";
	if (write(fd, mine, sizeof(mine) - 1) != (ssize_t)(sizeof(mine) - 1))
		return 1;
	int sum = 0;
	for (int round = 0; round < 3; round++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		if (!h) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 1;
		}
		int (*fn)(int) = (int (*)(int))dlsym(h, "plugin_entry");
		if (!fn)
			return 1;
		sum += call_plugin(fn, 21);
		dlclose(h);
		many(20000);
	}
	usleep(50 * 1000);
	close(fd);
	/* what is in the file now */
	char buf[4096];
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	if (fd >= 0)
		close(fd);
	if (n == (ssize_t)(sizeof(mine) - 1) && !memcmp(buf, mine, (size_t)n))
		printf("own file intact\n");
	else
		printf("own file has %zd bytes, not only its own %zu\n", n, sizeof(mine) - 1);
	printf("plugin returned %d\n", sum);
	return 0;
}
