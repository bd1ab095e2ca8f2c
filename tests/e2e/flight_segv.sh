# record --flight: a program that dies of SIGSEGV after a long run; its
# window is written when it is gone, with the crash at its end.
# variants: all
# aarch64: yes patch
# front-ends: few
build flight "$E2E/flight.c" -I"$TOP/include"
record d --flight=64K ./flight segv
want_rc "record --flight ./flight segv" $RC 139 "$W/d.err"
section "replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add
section "info"
grep -E '^(flight|exit_status|snapshot_reason):' "$W/d/info" | add
