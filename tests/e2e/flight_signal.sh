# record --flight: SIGUSR1 to record (here sent by the program, whose
# parent it is) writes a snapshot while the program runs, DIR/snapshot.1/, a
# recording of its own; the program's later calls are in the final one only.
# variants: all
# aarch64: yes patch
# front-ends: few
build flight "$E2E/flight.c" -I"$TOP/include"
record d --flight=64K ./flight usr1 "$W/d"
want_rc "record --flight ./flight usr1" $RC 0 "$W/d.err"
section "snapshot.1: replay without work()"
ct replay d/snapshot.1 --no-duration | grep -v 'work()' | normalize | add
section "snapshot.1: info"
grep -E '^(flight|exit_status|snapshot|snapshot_reason):' "$W/d/snapshot.1/info" | add
section "snapshot.1: symbol tables"
ls "$W/d/snapshot.1/sym" | grep -c '\.sym$' | sed 's/^[1-9][0-9]*$/some/' | add
section "the end: replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add
section "the end: info"
grep -E '^(flight|exit_status|snapshot_reason):' "$W/d/info" | add
section "the summary"
sed -n 's/^calltrace: \(snapshot 1 (signal SIGUSR1)\): .*/\1/p' "$W/d.err" | add
# a recording with snapshots can be replaced (moved to DIR.old, then removed)
record d --flight=64K ./flight exit
want_rc "record --flight ./flight exit (twice)" $RC 0 "$W/d.err"
record d --flight=64K ./flight exit
want_rc "record --flight ./flight exit (three times)" $RC 0 "$W/d.err"
