/* not a case: the shared library that dlopen loads */
#include "ct_test.h"

NOINLINE void plugin_helper(int x)
{
	sink += x;
}

NOINLINE int plugin_entry(int x)
{
	plugin_helper(x);
	plugin_helper(x + 1);
	return x * 2;
}
