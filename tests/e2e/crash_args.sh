# A program that dies right after a call whose captured arguments end in a
# zero word (f(0, 5), the 64-bit 5's high half): that ARGS record, the last
# of the dead thread's buffer, is in the trace with its values (record used
# to find where the buffer ends at its last non-zero word, and cut it off).
# With each front end that sees registers (args_lib.inc).
# variants: all
. "$E2E/args_lib.inc"
first=
for fr in $(args_fronts); do
	args_build crash_args.$fr $fr "$E2E/crash_args.c"
	record d.$fr -A '^f$@arg1/d,arg2/d64' ./crash_args.$fr
	want_rc "record ./crash_args.$fr" $RC 134 "$W/d.$fr.err"
	ct replay d.$fr --no-duration | normalize >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "replay"; add <"$W/replay.$first"
section "report --by-args --format=csv (function,calls)"
ct report d.$first --by-args --format=csv | csv_calls | add
