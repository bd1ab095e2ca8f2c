# record -A FUNC_REGEX without a spec (or with @auto-args) captures the
# arguments of just the functions it names, typed from DWARF as -a types
# them; -R FUNC_REGEX the return value (issue 30): paint's and move's
# arguments and grow's return value are -a's, and no other function gets
# any.  A regex that names no function with DWARF types warns.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build auto.$fr $fr "$E2E/args_auto.c"
	record a.$fr -a ./auto.$fr
	want_rc "record -a ./auto.$fr" $RC 0 "$W/a.$fr.err"
	record d.$fr -A '^paint$' -A '^move$@auto-args' -R '^grow$' -A '^nosuch$' ./auto.$fr
	want_rc "record -A ./auto.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration | normalize >"$W/replay.$fr"
	# the same values as -a for the functions named
	ct replay a.$fr --no-duration | normalize >"$W/areplay.$fr"
	for f in paint move; do
		grep -F "| $f(" "$W/areplay.$fr" | sed 's/ = .*;$/;/; s/) {$/) {/' | head -n 1 >"$W/a.line"
		grep -F "| $f(" "$W/replay.$fr" | head -n 1 >"$W/d.line"
		cmp -s "$W/a.line" "$W/d.line" ||
			fail "$fr: -A '^$f\$' is not -a's: $(cat "$W/d.line") / $(cat "$W/a.line")"
	done
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "warnings"; grep warning "$W/d.$first.err" | add
section "replay"; add <"$W/replay.$first"
