# A program and its library built with different front ends: the program
# with this variant's flags, the library with -pg -mfentry when the program
# uses -finstrument-functions, else with -finstrument-functions.  Frames of
# both kinds interleave on one stack (the library calls back into the
# program) and a longjmp crosses them: the output of the untraced run, every
# call, the tree after the jump at the right depth.
# variants: one
# front-ends: few
case $FRONT in
instr) LIBFLAGS="-g -O2 -pg -mfentry" ;;
*) LIBFLAGS="-g -O2 -finstrument-functions" ;;
esac
# shellcheck disable=SC2086
$CC $LIBFLAGS -fPIC -shared -I"$E2E" -o "$W/libmixed.so" "$E2E/mixed_lib.c" \
	>"$W/build-lib.log" 2>&1 || die "build of libmixed.so failed: $(head -5 "$W/build-lib.log")"
build mixed "$E2E/mixed.c" -L"$W" -lmixed -Wl,-rpath,"$W"
"$W/mixed" >"$W/untraced.out" || fail "the untraced program failed"
record d ./mixed
want_rc "record ./mixed" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
cmp -s "$W/d.out" "$W/untraced.out" || fail "stdout differs from the untraced run's"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "replay: the calls after the longjmp"
ct replay d --no-duration | normalize | sed -n '/app_jump/,$p' | add
