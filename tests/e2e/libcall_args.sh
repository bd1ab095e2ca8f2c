# Library calls with arguments (doc/libcall.md): record -a gives the C
# library's functions their arguments and return values from the prototype
# table (lib/record/libcproto.c): malloc, free, printf's format, qsort's callback by
# name; an IFUNC (strlen, memcpy) has none; -A overrides the table; with
# each register-seeing front end.
# variants: all
. "$E2E/args_lib.inc"
addr() { sed -E 's/0x[0-9a-f]{5,}/0xADDR/g'; }
first=
for fr in $(args_fronts); do
	args_build libcall.$fr $fr "$E2E/libcall.c"
	record d.$fr --libcall -a ./libcall.$fr tree xy
	want_rc "record -a ./libcall.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration -F '^main$' | normalize | addr >"$W/replay.$fr"
	record o.$fr --libcall -a -A '^malloc$@arg1/x' ./libcall.$fr tree xy
	want_rc "record -a -A ./libcall.$fr" $RC 0 "$W/o.$fr.err"
	ct replay o.$fr --no-duration -F '^work$' | normalize | addr >"$W/over.$fr"
	if [ -z "$first" ]; then
		first=$fr
		section "record -a: replay"; add <"$W/replay.$fr"
		section "-A '^malloc\$@arg1/x' overrides the table"; add <"$W/over.$fr"
	else
		cmp -s "$W/replay.$first" "$W/replay.$fr" ||
			fail "front end $fr gives other output than $first: $(diff "$W/replay.$first" "$W/replay.$fr" | head -10 | tr '\n' '|')"
		cmp -s "$W/over.$first" "$W/over.$fr" ||
			fail "front end $fr gives other output than $first (-A)"
	fi
done
