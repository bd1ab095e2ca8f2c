# String arguments from every kind of memory, good and bad, copied with -A
# and with -a: never a fault of the program, bad pointers shown as such
# (doc/args.md, "How strings are copied").  The addresses are masked.
# variants: all
. "$E2E/args_lib.inc"
mask() { sed -E 's/0x[0-9a-f]+/0xADDR/g'; }
for fr in $(args_fronts); do
	args_build badptr.$fr $fr "$E2E/args_badptr.c"
	record d.$fr --str-max=16 -A '^str1$@arg1/d,arg2/s' ./badptr.$fr
	want_rc "record -A ./badptr.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration -F str1 | normalize | mask >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	record a.$fr --str-max=16 -a ./badptr.$fr
	want_rc "record -a ./badptr.$fr" $RC 0 "$W/a.$fr.err"
	ct replay a.$fr --no-duration -F str1 | normalize | mask >"$W/auto.$fr"
	if [ -n "$first" ] && ! diff -u "$W/auto.$first" "$W/auto.$fr" >"$W/auto.diff"; then
		fail "front end $fr gives other -a output than $first:
$(head -n 30 "$W/auto.diff")"
	fi
	[ -z "$first" ] && first=$fr
done
section "stdout"; add <"$W/d.$first.out"
section "replay -A"; add <"$W/replay.$first"
section "replay -a"; add <"$W/auto.$first"
