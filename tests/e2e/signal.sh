# An instrumented signal handler interrupting instrumented code 2000 times:
# the trace has exactly as many handler calls as the program counted.
# variants: all
# aarch64: yes patch
# front-ends: few
build signal "$E2E/signal.c"
record d ./signal
want_rc "record ./signal" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
counted=$(sed -n 's/^handled \([0-9]*\)$/\1/p' "$W/d.out")
ct report d --format=csv >"$W/report.csv"
n_on=$(calls_of on_signal "$W/report.csv")
n_h=$(calls_of handler "$W/report.csv")
[ "$n_on" = "$counted" ] || fail "report: on_signal called $n_on times, the program counted $counted"
[ "$n_h" = "$counted" ] || fail "report: handler called $n_h times, the program counted $counted"
section "report: calls of handler and on_signal"
echo "handler $n_h" | add
echo "on_signal $n_on" | add
# every on_signal() is directly inside a handler() in the main thread's tree
section "replay --per-thread: on_signal lines, and those not inside handler()"
# (piped, not kept: the text is several times the trace's size)
ct replay d --no-duration --per-thread | sed 's/^[^|]*| //' | awk '
	/^ *on_signal\(\);$/ { n++; if (prev !~ /^ *handler\(\) \{$/) bad++ }
	{ prev = $0 }
	END { printf "on_signal %d\nnot inside handler %d\n", n, bad }' | add
