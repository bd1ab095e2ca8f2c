# C++: `this` and method parameters from DWARF (-a), a spec on a demangled
# name (-A), and an exception unwinding through calls with arguments: the
# calls it skips end without a return value, those after it have theirs.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build cxx.$fr $fr "$E2E/args_cxx.cc"
	record d.$fr -a -A 'Counter::twice@fmt="x=%ld"' ./cxx.$fr
	want_rc "record ./cxx.$fr" $RC 0 "$W/d.$fr.err"
	# `this` is an address: the same text whatever it is
	ct replay d.$fr --no-duration | normalize |
		sed 's/0x[0-9a-f]\{6,\}/0xADDR/g' >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "stdout"; add <"$W/d.$first.out"
section "replay"; add <"$W/replay.$first"
