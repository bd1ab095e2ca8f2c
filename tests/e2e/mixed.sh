# A program and its library built with different front ends: the program
# with this variant's flags, the library with -pg -mfentry when the program
# uses -finstrument-functions, else with -finstrument-functions.  Frames of
# both kinds interleave on one stack (the library calls back into the
# program) and a longjmp crosses them: the output of the untraced run, every
# call, the tree after the jump at the right depth; and with --count
# --sample the calls, and a call's caller of the other front end.
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

# counting with samples: the hooked front end's calls on the counting stack
# (count.S, keyed by their sites) beside -finstrument-functions' (keyed by
# their addresses)
record c --count --sample=4k ./mixed
want_rc "record --count --sample ./mixed" $RC 0 "$W/c.err"
section "--count --sample: calls as the full recording's"
ct report c --format=csv | sed 1d | cut -d, -f1,2 | LC_ALL=C sort | add
# (lib_mid's callers: a -finstrument-functions caller of a hooked call or
# the other way round; its callees are not checked: a
# -finstrument-functions call right after a hooked sibling returned is
# counted from that sibling, whose return nothing marks: doc/record.md)
section "--count --sample: the callers of lib_mid"
ct callers c lib_mid --no-time | sed -n '/^ *=/,/ lib_mid$/p' | add
