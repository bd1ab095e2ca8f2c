# invariants: every view and export of a recording keeps the times'
# invariants and shows the same numbers (tests/check_times.py: report,
# graph, callers, folded, callgrind, callgrind_annotate, html, chrome,
# perfetto and the reading library, corrected and --raw; issue 27).  The
# programs: recursion, tail calls, tiny callees in a loop, a longjmp,
# library calls (invariants.c calls); threads that end just before their
# joins return and a forked child that _exits 3 calls deep
# (invariants.c procs: the timelines' causality); a C++ exception through
# 3 frames (invariants_cxx.cc); all recorded with --libcall.  And the
# threads' recording corrected with an outer figure of 9 us per call, far
# more than the calls cost: the corrected clocks stand still, the timelines
# keep to the recorded clock, nothing changes (the inner figure is left as
# measured: one far above the calls' own durations is not believed at all,
# overhead.sh).  Only the checker's verdicts go to
# the golden file, never a time.
# variants: all
# aarch64: yes patch
# front-ends: all
build invariants "$E2E/invariants.c"
build invariants_cxx "$E2E/invariants_cxx.cc"

# check D [OPTIONS]: the checker on recording D; its verdict and the
# causality it found
check() {
	_d=$1
	shift
	guard python3 "$TOP/tests/check_times.py" --work "$W/$_d.views" "$@" "$CT" "$W/$_d" \
		>"$W/$_d.check" 2>&1
	if [ $RC -eq 0 ]; then
		echo "invariants: ok"
	else
		echo "invariants: BAD (exit $RC)"
		fail "check_times.py $_d: $(grep -m 10 '^BAD\|Error\|Traceback' "$W/$_d.check" | tr '\n' '|')"
	fi
	awk '/^== / { mode = $2 } /^ok [a-z]* causality/ { sub(/^ok /, ""); print mode ", " $0 }' \
		"$W/$_d.check"
}

section "calls: recursion, tail calls, tiny callees, longjmp, library calls"
record calls --libcall ./invariants calls
want_rc "record ./invariants calls" $RC 0 "$W/calls.err"
check calls | add

section "procs: threads joined, a child that _exits inside calls"
record procs --libcall ./invariants procs
want_rc "record ./invariants procs" $RC 0 "$W/procs.err"
check procs --causality | add

section "procs corrected with 9 us per call"
cp -R "$W/procs" "$W/over"
hz=$(awk '$1 == "clock_hz:" { print $2 }' "$W/over/info")
for pf in "$W/over"/*.proc; do
	awk -v hz="$hz" '$1 == "overhead" || $1 == "overhead-hook" {
		o = $2 * hz * 9e-6; $4 = sprintf("%.0f", o) } { print }' \
		"$pf" >"$pf.new" && mv "$pf.new" "$pf"
done
ct info over | grep -q '9000.0 ns outer' || fail "over: not 9 us per call: $(ct info over | grep overhead)"
check over --causality --mode corrected | add

section "exception: a C++ exception through 3 frames"
record exception --libcall ./invariants_cxx
want_rc "record ./invariants_cxx" $RC 0 "$W/exception.err"
check exception | add
golden
