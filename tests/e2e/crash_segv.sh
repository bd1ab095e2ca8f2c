# A program that dies of SIGSEGV: record exits 139, every call made is in
# the trace, the calls still open are unfinished.
# variants: all
# aarch64: yes patch
# front-ends: all
build crash "$E2E/crash.c"
record d ./crash segv
want_rc "record ./crash segv" $RC 139 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "info: exit status"; ct info d | sed -n 's/^exit status: *//p' | add
