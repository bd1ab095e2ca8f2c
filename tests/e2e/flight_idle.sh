# record --flight: nothing is drained while the program runs, so record
# does not poll the rings every millisecond as a full recording does (CPU
# time of record's taken from a busy machine): it wakes when something
# needs it (a snapshot asked for, a signal, a process that ends) and about
# every 20 ms besides.  The program, record's child, counts record's
# wake-ups during one second of its sleep (per second of the time the sleep
# took: longer on a busy machine); record still notices its end.
# variants: one
# aarch64: yes patch
build idle "$E2E/flight_idle.c"
record d --flight ./idle
want_rc "record --flight ./idle" $RC 0 "$W/d.err"
section "stdout"
add <"$W/d.out"
section "info"
grep -E '^(exit_status|snapshot_reason):' "$W/d/info" | add
