// nest_cxx: a C++ program for the timelines' nesting (nest.sh): templates
// and lambdas inlined from the headers (traced too: many calls of a few ns,
// ending with their callers), std::sort, std::map, virtual calls, an
// exception thrown through three frames and caught, 60 times per thread
// (with library calls recorded, __cxa_throw's, which never returns, ends
// with the frame that threw, at the same time; with clang, which calls no
// exit hook while unwinding, the three frames too), and two std::threads
// joined.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ct_test.h"

struct shape {
	virtual ~shape() = default;
	virtual int area() const = 0;
};

struct square : shape {
	int s;
	explicit square(int v) : s(v) {}
	NOINLINE int area() const override { return s * s; }
};

struct rect : shape {
	int w, h;
	rect(int a, int b) : w(a), h(b) {}
	NOINLINE int area() const override { return w * h; }
};

NOINLINE int total(const std::vector<std::unique_ptr<shape>> &v)
{
	int t = 0;
	for (const auto &s : v)
		t += s->area();
	return t;
}

NOINLINE void deep3(int i)
{
	sink += i;
	if (i % 5 == 0)
		throw std::runtime_error("five");
}

NOINLINE void deep2(int i)
{
	deep3(i);
	sink += 2;
}

NOINLINE void deep1(int i)
{
	deep2(i);
	sink += 1;
}

NOINLINE int attempt(int i)
{
	try {
		deep1(i);
		return 0;
	} catch (const std::exception &) {
		return 1;
	}
}

NOINLINE void work(int seed)
{
	std::vector<int> v;
	for (int i = 0; i < 40; i++)
		v.push_back((seed * 7919 + i * 104729) % 1000);
	std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
	std::map<std::string, int> words;
	for (int i = 0; i < 10; i++)
		words[std::to_string(v[i] % 17)] += 1;
	std::vector<std::unique_ptr<shape>> shapes;
	for (int i = 0; i < 20; i++) {
		if (i % 2)
			shapes.push_back(std::make_unique<square>(i));
		else
			shapes.push_back(std::make_unique<rect>(i, i + 1));
	}
	int caught = 0;
	for (int i = 0; i < 300; i++)
		caught += attempt(i);
	sink += total(shapes) + (int)words.size() + caught;
}

int main()
{
	std::thread a(work, 1), b(work, 2);
	work(3);
	a.join();
	b.join();
	std::printf("nest_cxx: done\n");
	return 0;
}
