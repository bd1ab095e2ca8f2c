# Arguments and return values in threads, a forked child, a signal handler,
# recursion, and calls that longjmp leaves (they end without a value).
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build proc.$fr $fr "$E2E/args_proc.c"
	record d.$fr -A '^work$@arg1/d,arg2/s' -A '^(work|fact|raiser|jumper|on_signal)$@arg1/d' \
		-R '^(work|fact|raiser|jumper)$@retval/d' ./proc.$fr
	want_rc "record ./proc.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration --per-thread | normalize_threads >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "stdout"; add <"$W/d.$first.out"
section "replay --per-thread (blocks sorted)"; add <"$W/replay.$first"
