# A program that calls abort(): record exits 134, every call made is in the
# trace, the calls still open are unfinished.
# variants: all
# aarch64: yes patch
# front-ends: all
build crash "$E2E/crash.c"
record d ./crash abort
want_rc "record ./crash abort" $RC 134 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "info: exit status"; ct info d | sed -n 's/^exit status: *//p' | add
