# A storm of signals whose traced handler siglongjmp()s out of the hooks it
# interrupted every other time (tests/e2e/sigstorm.c), with 16 KiB buffers:
# the program finishes (a buffer switch left half done once had it wait for
# ever), the trace reads without error (a hook's record written before its
# depth moved once made "UNWIND of more calls than are open"), and every
# handler call the program counted is in it; record's summary counts the
# calls the jumps closed right (no call left open).
# variants: one
# aarch64: yes patch
# front-ends: few
build sigstorm "$E2E/sigstorm.c"
record d -b 16K ./sigstorm
want_rc "record ./sigstorm" $RC 0 "$W/d.err"
grep -q 'cannot continue' "$W/d.err" && fail "the tracer lost a frame: $(cat "$W/d.err")"
# main returned: record's summary counts no call as still open
grep -q 'still open' "$W/d.err" && fail "record's summary: $(cat "$W/d.err")"
section "stdout (exit $RC)"; add <"$W/d.out"
counted=$(sed -n 's/^handled \([0-9]*\) .*/\1/p' "$W/d.err")
ct report d --format=csv >"$W/report.csv"
n_h=$(calls_of handler "$W/report.csv")
[ "$n_h" = "$counted" ] || fail "report: handler called $n_h times, the program counted $counted"
section "handler calls in the trace = calls the program counted: $([ "$n_h" = "$counted" ] && echo yes || echo no)"
ct replay d --no-duration >/dev/null
