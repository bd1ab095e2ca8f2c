/* SPDX-License-Identifier: MIT */
/* --demangle: the modes' names, and simple names from demangled ones. */
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "demangle.h"

static void simple(const char *full, const char *want)
{
	char *got = ct_demangle_simplify(full);
	CHECK(!strcmp(got, want), "'%s' -> '%s', want '%s'", full, got, want);
	free(got);
}

/* the names a regex sees for name: want, "|"-separated */
static void names(const char *name, const char *want)
{
	struct ct_match_names m;
	ct_match_names_init(&m, name);
	char got[1024] = "";
	for (size_t i = 0; i < m.n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? "|" : "",
			 m.v[i]);
	CHECK(!strcmp(got, want), "names of '%s': '%s', want '%s'", name, got, want);
	ct_match_names_free(&m);
}

/* does ERE re match name (through its names)? */
static bool names_match(const char *re, const char *name)
{
	regex_t r;
	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	struct ct_match_names m;
	ct_match_names_init(&m, name);
	bool ok = ct_match_names_regex(&m, &r);
	ct_match_names_free(&m);
	regfree(&r);
	return ok;
}

static void as(const char *name, enum ct_demangle_mode mode, const char *want)
{
	char *got = ct_demangle_as(name, mode);
	CHECK(want ? got && !strcmp(got, want) : !got, "'%s' in mode %d -> '%s', want '%s'", name,
	      (int)mode, got ? got : "(null)", want ? want : "(null)");
	free(got);
}

int main(void)
{
	CHECK(ct_demangle_mode_of("full") == CT_DEMANGLE_FULL, "full");
	CHECK(ct_demangle_mode_of("simple") == CT_DEMANGLE_SIMPLE, "simple");
	CHECK(ct_demangle_mode_of("no") == CT_DEMANGLE_NO, "no");
	CHECK(ct_demangle_mode_of("yes") == -1, "yes");

	simple("ns::Cls<int>::get(int) const", "ns::Cls::get");
	simple("int ns::twice<int>(int)", "ns::twice");
	simple("ns::Cls::method(int, char const*)", "ns::Cls::method");
	simple("ns::Cls::take() &&", "ns::Cls::take");
	simple("(anonymous namespace)::hidden()", "(anonymous namespace)::hidden");
	simple("std::vector<int, std::allocator<int> >::push_back(int const&)",
	       "std::vector::push_back");
	simple("std::map<int, std::function<void (int)> >::find(int const&) const",
	       "std::map::find");
	simple("unsigned long std::__detail::_Mod_range_hashing::operator()(unsigned long)",
	       "std::__detail::_Mod_range_hashing::operator()");
	simple("bool operator< <int>(A<int> const&, A<int> const&)", "operator<");
	simple("A::operator<<(int)", "A::operator<<");
	/* an operator template's arguments right after its symbol */
	simple("bool __gnu_cxx::operator==<int*, std::vector<int> >(A const&, A const&)",
	       "__gnu_cxx::operator==");
	simple("__gnu_cxx::__normal_iterator<int*, std::vector<int> >::difference_type "
	       "__gnu_cxx::operator-<int*, std::vector<int> >(A const&, A const&)",
	       "__gnu_cxx::operator-");
	simple("bool std::operator< <char, std::char_traits<char> >(B const&, B const&)",
	       "std::operator<");
	simple("auto A::operator<=>(A const&) const", "A::operator<=>");
	simple("A::operator->()", "A::operator->");
	simple("A::operator->*(int)", "A::operator->*");
	simple("int A::operator()<int>(int) const", "A::operator()");
	simple("A::operator std::vector<int, std::allocator<int> >() const",
	       "A::operator std::vector");
	simple("A::operator[](unsigned long)", "A::operator[]");
	simple("operator new(unsigned long)", "operator new");
	simple("operator delete[](void*)", "operator delete[]");
	simple("A::operator std::string() const", "A::operator std::string");
	simple("main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()");
	simple("ns::f[abi:cxx11](int)", "ns::f");
	simple("foo(int) [clone .constprop.0]", "foo");
	simple("std::vector<int, std::allocator<int> > ns::make<int>()", "ns::make");
	simple("char const* ns::name()", "ns::name");
	simple("void (*ns::handler(int))(int)", "void (*ns::handler(int))(int)");
	/* a local class's members keep their enclosing function as scope */
	simple("get(int)::State::match(char) const", "get::State::match");
	simple("leveldb::Version::Get(leveldb::ReadOptions const&, leveldb::LookupKey const&)::"
	       "State::Match(void*, int, leveldb::FileMetaData*)",
	       "leveldb::Version::Get::State::Match");
	simple("int ns::f(int) const::Local::run()", "ns::f::Local::run");
	simple("f(int)::{lambda()#1}::operator()() const", "f::{lambda()#1}::operator()");
	simple("plain", "plain");
	simple("", "");

	as("_ZNK2ns3ClsIiE3getEi", CT_DEMANGLE_FULL, "ns::Cls<int>::get(int) const");
	as("_ZNK2ns3ClsIiE3getEi", CT_DEMANGLE_SIMPLE, "ns::Cls::get");
	as("_ZNK2ns3ClsIiE3getEi", CT_DEMANGLE_NO, NULL);
	as("main", CT_DEMANGLE_SIMPLE, NULL);
	as("main", CT_DEMANGLE_FULL, NULL);
	as("_Zbad", CT_DEMANGLE_SIMPLE, NULL);

	/* what -F/-N/--hide/-T see: never the return type */
	names("void ns::twice<int>(int)", "ns::twice<int>(int)|ns::twice<int>|ns::twice");
	names("bar2(int)", "bar2(int)|bar2");
	names("main", "main");
	names("ns::Cls<int>::get(int) const", "ns::Cls<int>::get(int) const|ns::Cls<int>::get|"
					      "ns::Cls::get");
	names("unsigned long std::__detail::_Mod_range_hashing::operator()(unsigned long)",
	      "std::__detail::_Mod_range_hashing::operator()(unsigned long)|"
	      "std::__detail::_Mod_range_hashing::operator()");
	names("char const* std::pair<int, int>::f<char>()",
	      "std::pair<int, int>::f<char>()|std::pair<int, int>::f<char>|std::pair::f");
	names("A::operator std::vector<int, std::allocator<int> >() const",
	      "A::operator std::vector<int, std::allocator<int> >() const|"
	      "A::operator std::vector<int, std::allocator<int> >|A::operator std::vector");
	names("operator new(unsigned long)@libstdc++.so.6",
	      "operator new(unsigned long)@libstdc++.so.6|operator new@libstdc++.so.6|"
	      "operator new(unsigned long)|operator new");
	names("lookup(int)::State::match(int) const",
	      "lookup(int)::State::match(int) const|lookup(int)::State::match|"
	      "lookup::State::match");
	names("(anonymous namespace)::hidden()",
	      "(anonymous namespace)::hidden()|(anonymous namespace)::hidden");
	names("void (*f(int))(char)", "void (*f(int))(char)");
	names("memcpy@libc.so.6", "memcpy@libc.so.6|memcpy");
	CHECK(names_match("^strlen$", "strlen@libc.so.6"), "a library call without its module");
	CHECK(names_match("^strlen@libc\\.so\\.6$", "strlen@libc.so.6"),
	      "a library call with its module");
	CHECK(!names_match("^strlen$", "strlen_s"), "not a prefix");
	names("foo+0x10", "foo+0x10");
	CHECK(names_match("^std::", "void std::__introsort_loop<int*, long>(int*, int*, long)"),
	      "^std:: past the return type");
	CHECK(names_match("bar2$", "bar2(int)"), "bar2$");
	CHECK(!names_match("^void", "void std::sort<int*>(int*, int*)"), "not the return type");
	CHECK(names_match("Cls::method\\(int, char", "int ns::Cls::method(int, char const*)"),
	      "with parameters");
	return check_done();
}
