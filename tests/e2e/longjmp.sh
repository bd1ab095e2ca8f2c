# longjmp out of 3 frames: they are closed as unwound, and the call made
# after setjmp returns again is at the right depth.
# variants: all
# aarch64: check patch
# front-ends: all
build longjmp "$E2E/longjmp.c"
record d ./longjmp
want_rc "record ./longjmp" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
