/* libcall_rt: a dlopen'd traced library whose constructor and destructor
 * make traced calls (nested under dlopen and dlclose) */
#include "ct_test.h"

NOINLINE void lib_setup(void)
{
	sink++;
}

NOINLINE void lib_teardown(void)
{
	sink++;
}

__attribute__((constructor)) static void lib_ctor(void)
{
	lib_setup();
}

__attribute__((destructor)) static void lib_dtor(void)
{
	lib_teardown();
}

NOINLINE int lib_run(void)
{
	return sink;
}
