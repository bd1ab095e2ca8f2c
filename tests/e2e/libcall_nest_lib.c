/* libcall_nest's untraced library (built without a front end's flags):
 * its calls into libc are library calls of a library (record
 * --nest-libcall), and so is its call to its own exported helper, through
 * its PLT.  Built twice: linked
 * (nest_lib_work) and dlopen'd (-DDL: nest_dl_work). */
#include <stdlib.h>

#ifdef DL
#define WORK nest_dl_work
#define HELPER nest_dl_helper
#else
#define WORK nest_lib_work
#define HELPER nest_lib_helper
#endif

int HELPER(int *p, int n);
int WORK(int n);

__attribute__((noinline)) int HELPER(int *p, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += p[i] + i;
	return s;
}

int WORK(int n)
{
	int *p = calloc((size_t)n, sizeof(int));
	if (!p)
		return 0;
	int s = HELPER(p, n);
	free(p);
	return s;
}
