// SPDX-License-Identifier: MIT
// C++ classes as arguments and return values (record -a): a class that is
// non-trivial for the purposes of calls (a destructor, a copy constructor,
// a virtual function, a std::string member) is passed and returned by
// invisible reference, so its address is shown, never its bytes decoded as
// if it came in registers; a std::string, by value or by reference, shows
// its text ("..."s); a constructor or destructor shows the parameters its
// variant takes (no __in_chrg); the same for a class template's instance;
// a const (volatile, &, &&) member function keeps its qualifier.
#include <string>

#include "ct_test.h"

struct Plain {
	int a, b;
};
struct WithDtor {
	int a;
	~WithDtor() { sink = a; }
};
struct WithCopy {
	int a;
	WithCopy(int x) : a(x) {}
	WithCopy(const WithCopy &o) : a(o.a + 1) {}
};
struct Defaulted {
	int a;
	Defaulted(const Defaulted &) = default;
	Defaulted(int x) : a(x) {}
};
struct HasStr {
	std::string s;
	int k;
};
struct Virt {
	int a;
	virtual int f() { return a; }
};
// a class template's instance: its constructors are named "TCopy", the
// class "TCopy<int>"; the copy constructor makes it non-trivial as well
template <class T> struct TCopy {
	T val;
	const char *str;
	TCopy(T v, const char *s) : val(v), str(s) {}
	TCopy(const TCopy &o) : val(o.val), str(o.str) { sink = 1; }
};
template <class T> struct TPlain {
	T val;
	const char *str;
};
// qualified member functions keep their qualifiers beside the values
struct K {
	int v;
	NOINLINE int get() const { return v; }
	NOINLINE int vget() volatile { return v; }
	NOINLINE int lget(int a) & { return v + a; }
	NOINLINE int rget() && { return v; }
	NOINLINE int cget(int a) const & { return v + a; }
};

NOINLINE int f_plain(Plain p, int z) { sink = p.a + z; return p.a + z; }
NOINLINE int f_dtor(WithDtor d, int z) { sink = d.a + z; return d.a + z; }
NOINLINE int f_copy(WithCopy c, int z) { sink = c.a + z; return c.a + z; }
NOINLINE int f_def(Defaulted c, int z) { sink = c.a + z; return c.a + z; }
NOINLINE int f_str(std::string s, int z) { sink = z; return (int)s.size() + z; }
NOINLINE int f_cref(const std::string &s, std::string &&r, int z)
{
	sink = z;
	return (int)(s.size() + r.size()) + z;
}
NOINLINE int f_hasstr(HasStr h, int z) { sink = z; return (int)h.s.size() + h.k + z; }
NOINLINE int f_virt(Virt v, int z) { sink = z; return v.f() + z; }
NOINLINE std::string r_str(int n) { sink = n; return std::string((size_t)n, 'x'); }
NOINLINE WithDtor r_dtor(int n) { sink = n; return WithDtor{n}; }
NOINLINE TCopy<int> f_tcopy(TCopy<int> q, int z)
{
	sink = z;
	return TCopy<int>(q.val + z, q.str);
}
NOINLINE TPlain<int> f_tplain(TPlain<int> q, int z)
{
	sink = z;
	return TPlain<int>{q.val + z, q.str};
}

int main()
{
	f_plain({1, 2}, 3);
	f_dtor(WithDtor{4}, 5);
	f_copy(WithCopy(6), 7);
	f_def(Defaulted(8), 9);
	std::string hello("hello");
	f_str(hello, 10);
	std::string rv("rv");
	f_cref(hello, std::move(rv), 11);
	f_hasstr(HasStr{"abc", 1}, 12);
	Virt v;
	v.a = 13;
	f_virt(v, 14);
	sink = (int)r_str(3).size();
	r_dtor(15);
	TCopy<int> tc(16, "tc");
	sink = f_tcopy(tc, 17).val;
	sink = f_tplain(TPlain<int>{18, "tp"}, 19).val;
	K k{20};
	sink = k.get() + k.vget() + k.lget(21) + K{22}.rget() + k.cget(23);
	return 0;
}
