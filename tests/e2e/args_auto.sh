# record -a: parameters and return values typed from DWARF: integers of
# every width and signedness, bool, char, char * as a string, enums by
# name, pointers (a function by its name), float/double, structs by value
# in registers (INTEGER, SSE and mixed eightbytes) and on the stack, a large
# struct returned through the hidden pointer, stack-passed integer and
# floating arguments, variadic functions; long double and unions are
# described, not decoded.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build auto.$fr $fr "$E2E/args_auto.c"
	record d.$fr -a ./auto.$fr
	want_rc "record -a ./auto.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration | normalize >"$W/replay.$fr"
	if [ $fr = pg ] && [ $FAMILY = clang ] && [ "$(args_opt)" = -O0 ] && [ -n "${_args_ref:-}" ]; then
		# clang -O0 -pg loads a stack argument into xmm0 before it calls
		# mcount (doc/args.md, limits): compare without that line
		grep -v '^\[T1\] |   stack_args(' "$_args_ref" >"$W/ref.nostack"
		grep -v '^\[T1\] |   stack_args(' "$W/replay.$fr" >"$W/replay.$fr.nostack"
		_r=$_args_ref
		_args_ref=$W/ref.nostack
		args_same $fr "$W/replay.$fr.nostack"
		_args_ref=$_r
	else
		args_same $fr "$W/replay.$fr"
	fi
	[ -z "$first" ] && first=$fr
done
section "stdout"; add <"$W/d.$first.out"
section "replay"; add <"$W/replay.$first"
