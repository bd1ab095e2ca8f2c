/* C++ names: demangled by default, mangled with --no-demangle */
#include <cstdio>

#include "ct_test.h"

namespace ns {

struct Cls {
	int v;
	NOINLINE int method(int x);
	NOINLINE int method(int x, const char *s);
	NOINLINE static void smethod();
	NOINLINE int get() const;
	NOINLINE int take() &&;
};

int Cls::method(int x)
{
	sink += x;
	return v + x;
}

int Cls::method(int x, const char *s)
{
	sink += s[0];
	return method(x) + 1;
}

void Cls::smethod()
{
	sink += 3;
}

/* qualified member functions: their names end in " const", " &&" */
int Cls::get() const
{
	sink += 5;
	return v;
}

int Cls::take() &&
{
	sink += 6;
	return v + 1;
}

template <typename T> NOINLINE T twice(T x)
{
	sink += 1;
	return x + x;
}

} // namespace ns

/* a local class: its members are named after the enclosing function,
 * "lookup(int)::State::match(int) const", simple "lookup::State::match" */
NOINLINE int lookup(int k)
{
	struct State {
		int want;
		NOINLINE int match(int x) const
		{
			sink += x;
			return x == want;
		}
	};
	State st{k};
	return st.match(k) + st.match(k + 1);
}

namespace {
NOINLINE void hidden()
{
	sink += 4;
}
} // namespace

int main()
{
	ns::Cls c{1};
	int r = c.method(2);
	r += c.method(3, "s");
	ns::Cls::smethod();
	r += c.get();
	r += ns::Cls{2}.take();
	r += ns::twice<int>(r);
	hidden();
	r += lookup(3);
	std::printf("demangle %d\n", r);
	return 0;
}
