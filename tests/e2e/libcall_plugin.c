/* libcall: a dlopen'd traced library calling into libc */
#include <string.h>

#include "ct_test.h"

NOINLINE int plugin_run(const char *s)
{
	return (int)strlen(s) + sink;
}
