/* topnumbers: a traced library that the program loads in its second phase
 * (its module and library-call lines are written to the .proc then) */
#include <stdlib.h>

#include "ct_test.h"

NOINLINE long lib_parse(const char *s)
{
	sink += 1;
	return (long)strtoul(s, NULL, 10); /* strtoul@libc.so.6 with --libcall */
}
