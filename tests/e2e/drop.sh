# drop: record --drop with a drainer held back (a test-only knob) and tiny
# buffers: events are dropped, counted and reported, and the trace stays a
# tree (calls that ended while dropping are closed as unwound, calls that
# began are opened again when recording resumes).
# variants: one
# aarch64: yes patch
# front-ends: few
build drop "$E2E/drop.c"
guard env CALLTRACE_TEST_DRAIN_PAUSE_MS=20 "$CT" record --drop -b 4K --buffers=3 -d "$W/d" ./drop \
	>"$W/d.out" 2>"$W/d.err"
want_rc "record --drop ./drop" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
grep -q "LOST: [1-9]" "$W/d.err" || fail "record --drop: no LOST in the summary: $(cat "$W/d.err")"
lost=$(sed -n 's/^lost: *//p' "$W/d/info")
[ "${lost:-0}" -gt 0 ] 2>/dev/null || fail "info: lost is '$lost', expected more than 0"
ct replay d --no-duration >"$W/replay.txt"
grep -q "events were lost" "$W/last.err" || fail "replay does not warn about the lost events"
section "the tree ends closed (main's own exit may have been dropped: unwound or unfinished)"
tail -n 1 "$W/replay.txt" | normalize | sed 's/: unwound//; s/: unfinished//' | add
awk '/\{$/ { d++ } /\} \/\*/ { d-- } d < 0 { bad = 1 } END { print "balanced " (d == 0 && !bad ? "yes" : "no") }' \
	"$W/replay.txt" | add
section "calls of main and round_"
ct report d --format=csv | csv_calls | grep -E '^(main|round_),' | sed 's/,.*//' | add
