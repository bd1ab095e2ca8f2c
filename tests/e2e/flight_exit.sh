# record --flight: of a run of 300000 calls only the last 64K of events are
# kept; the calls open where the window begins are entered before the
# snapshot (never an error), the last calls are there, info says why and
# what each thread's window is.
# variants: all
# aarch64: yes patch
# front-ends: few
build flight "$E2E/flight.c" -I"$TOP/include"
record d --flight=64K ./flight exit
want_rc "record --flight ./flight exit" $RC 0 "$W/d.err"
section "replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add
ct report d --format=csv >"$W/report.csv"
calls=$(calls_of work "$W/report.csv")
section "work() calls kept: some of the 300000, not all"
if [ "$calls" -gt 1000 ] 2>/dev/null && [ "$calls" -lt 300000 ]; then
	echo yes | add
else
	echo "no: $calls" | add
fi
section "info"
grep -E '^(flight|exit_status|snapshot_reason):' "$W/d/info" | add
echo "windows: $(grep -c '^window: [0-9]*-0-[0-9]* [0-9]* [0-9]*$' "$W/d/info")" | add
section "summary"
sed -n 's/.*\(Flight recording: the last [0-9.]* KiB of each thread\).*/\1/p' "$W/d.err" | add
# bad sizes: exit 2, the option named
record bad --flight=12Q ./flight exit
want_rc "record --flight=12Q" $RC 2 "$W/bad.err"
section "bad size"; sed 's/^calltrace record: //' "$W/bad.err" | head -n 1 | add
