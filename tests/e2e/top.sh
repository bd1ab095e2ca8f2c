# calltrace top: the flat profile refreshed while the program runs (a
# table that shows the first phase while the program waits on a FIFO, which
# the test opens only then: a handshake, no timing), the final profile's
# functions and calls, bad options.
# variants: one
# aarch64: yes patch
# front-ends: few
build threads "$E2E/threads.c"
build live_stream "$E2E/live_stream.c"
# the rows of the last table in a file: FUNCTION CALLS, sorted
rows() {
	awk '/^# calltrace top:/ { n = 0; delete r; next }
		/^ *SELF/ || /^\(/ || NF < 6 { next }
		{ r[++n] = $NF " " $4 }
		END { for (i = 1; i <= n; i++) print r[i] }' "$1" | LC_ALL=C sort
}
section "top ./threads: the final profile"
guard "$CT" top -q --output="$W/t.out" ./threads >"$W/p.out" 2>"$W/t.err"
echo "exit $RC" | add
add <"$W/p.out"
grep -c '(final profile)' "$W/t.out" | add
rows "$W/t.out" | add
section "top --interval=20ms: a table while the program waits"
mkfifo "$W/fifo" || die "mkfifo failed"
ulimit -f 10000
timeout -k 10 "$CT_TIMEOUT" "$CT" top -q --interval=20ms --output="$W/s.out" ./live_stream \
	"$W/fifo" >"$W/s.pout" 2>"$W/s.err" &
pid=$!
n=0
while ! grep -q ' 3 .* phase_one_leaf$' "$W/s.out" 2>/dev/null; do
	if ! kill -0 $pid 2>/dev/null; then
		fail "top ended before showing phase_one_leaf: $(head -c 400 "$W/s.err")"
		break
	fi
	n=$((n + 1))
	[ $n -gt 6000 ] && { fail "phase_one_leaf not shown after 600 s"; break; }
	sleep 0.1
done
cp "$W/s.out" "$W/s.first"
rows "$W/s.first" | add
echo go >"$W/fifo"
wait $pid
echo "exit $?" | add
section "and at the end"
rows "$W/s.out" | add
section "bad options"
guard "$CT" top --interval=1ms ./threads >/dev/null 2>"$W/e1"
echo "exit $RC: $(cat "$W/e1")" | add
guard "$CT" top --limit=0 ./threads >/dev/null 2>"$W/e2"
echo "exit $RC: $(cat "$W/e2")" | add
guard "$CT" top --count ./threads >/dev/null 2>"$W/e3"
echo "exit $RC: $(cat "$W/e3")" | add
guard "$CT" top >/dev/null 2>&1
echo "exit $RC" | add
section "top --help"
guard "$CT" top --help >/dev/null 2>&1
echo "exit $RC" | add
