# record -a on C++ classes passed and returned by value: non-trivial ones
# (destructor, copy constructor, virtual function, a std::string member)
# by invisible reference, shown by address; std::string by value or by
# reference shown as its text, "..."s; constructors and destructors with
# the parameters their variant takes; a class template with a copy
# constructor by address too (gcc writes no DW_AT_calling_convention, and
# its constructors are "TCopy" in "TCopy<int>"); a const, volatile, & or
# && member function keeps its qualifier after the values.  Calls below
# main's children and the library's own functions are left out of the
# comparison.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build cls.$fr $fr "$E2E/args_class.cc"
	record d.$fr -a ./cls.$fr
	want_rc "record -a ./cls.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration -D 2 | normalize >"$W/full.$fr"
	grep -E '^\[T1\] \|   (f_|r_|K::)' "$W/full.$fr" |
		sed 's/0x[0-9a-f]\{6,\}/0xADDR/g' >"$W/replay.$fr"
	# destructors (out of line at -O0) take `this` alone
	grep -E '::~[A-Za-z]+\(.*,' "$W/full.$fr" >"$W/dtors.$fr" &&
		fail "$fr: a destructor shown with more than this: $(head -n 2 "$W/dtors.$fr")"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "replay -D 2: main's calls of this file"; add <"$W/replay.$first"
