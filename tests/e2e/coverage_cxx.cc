/* coverage of C++ constructors and destructors: each has several variants
 * (complete and base object, deleting; thunks), one function of the source */
#include "ct_test.h"

struct Base {
	NOINLINE Base() { sink = 1; }
	NOINLINE virtual ~Base() { sink = 2; }
};
/* a virtual base: the complete- and base-object constructors and
 * destructors differ (C1/C2, D1/D2), and a virtual destructor adds the
 * deleting one (D0), never called here */
struct Mid : virtual Base {
	NOINLINE Mid() { sink = 3; }
	NOINLINE ~Mid() { sink = 4; }
};
struct Leaf : Mid {
	NOINLINE Leaf() { sink = 5; }
	NOINLINE ~Leaf() { sink = 6; }
};

NOINLINE int never(int x) { sink = x; return x + 1; }
int (*volatile keep)(int) = never;

int main()
{
	{ Mid m; }
	{ Leaf l; }
	return 0;
}
