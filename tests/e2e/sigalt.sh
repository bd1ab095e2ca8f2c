# A traced handler on an alternate signal stack (SA_ONSTACK) interrupts
# traced recursion and the tracer's own hooks, and now and then
# siglongjmp()s out of the frames it interrupted: no crash, the output of
# an untraced run, and the handler in the trace exactly as often as the
# program counted.
# variants: one
# aarch64: yes patch
# front-ends: few
build sigalt "$E2E/sigalt.c"
record d ./sigalt
want_rc "record ./sigalt" $RC 0 "$W/d.err"
grep -q 'cannot continue' "$W/d.err" && fail "the tracer lost a frame: $(cat "$W/d.err")"
section "stdout (exit $RC)"; add <"$W/d.out"
counted=$(sed -n 's/^handled \([0-9]*\)$/\1/p' "$W/d.err")
ct report d --format=csv >"$W/report.csv"
n_h=$(calls_of handler "$W/report.csv")
[ "$n_h" = "$counted" ] || fail "report: handler called $n_h times, the program counted $counted"
section "handler calls in the trace = calls the program counted: $([ "$n_h" = "$counted" ] && echo yes || echo no)"
