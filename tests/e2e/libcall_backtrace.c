/* the backtrace trigger on a library call (-T '^free$@backtrace'): the
 * program's callers of the call, as for a traced function's trigger */
#include <stdlib.h>
#include <string.h>

#include "ct_test.h"

NOINLINE void inner(int n)
{
	char *p = malloc((size_t)n);
	memset(p, 1, (size_t)n);
	sink += p[n - 1];
	free(p);
	sink += 1; /* (no tail call: free returns here) */
}

NOINLINE void outer(int n)
{
	inner(n);
	sink += 1;
}

int main(void)
{
	outer(16);
	return 0;
}
