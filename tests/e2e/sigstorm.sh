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
build sigstorm "$E2E/sigstorm.c" -I"$TOP/include"
# storm DIR [mark]: record ./sigstorm under the storm and check it
storm() {
	record "$1" -b 16K ./sigstorm $2
	want_rc "record ./sigstorm $2" $RC 0 "$W/$1.err"
	grep -q 'cannot continue' "$W/$1.err" && fail "the tracer lost a frame: $(cat "$W/$1.err")"
	# main returned: record's summary counts no call as still open
	grep -q 'still open' "$W/$1.err" && fail "record's summary: $(cat "$W/$1.err")"
	section "stdout${2:+ ($2)} (exit $RC)"; add <"$W/$1.out"
	counted=$(sed -n 's/^handled \([0-9]*\) .*/\1/p' "$W/$1.err")
	ct report "$1" --format=csv >"$W/$1.csv"
	n_h=$(calls_of handler "$W/$1.csv")
	[ "$n_h" = "$counted" ] || fail "report${2:+ ($2)}: handler called $n_h times, the program counted $counted"
	section "handler calls in the trace = calls the program counted: $([ "$n_h" = "$counted" ] && echo yes || echo no)"
	ct replay "$1" --no-duration >/dev/null
}
storm d
# main writes a long mark each round (a record of many words): a jump out
# of a handler that interrupted it once left its payload, 'a's read as
# returns, behind a zero header ("a return with no call open")
storm m mark
