# calltrace live streams: the program's first phase is shown while the
# program waits on a FIFO, which the test opens only once live has printed
# that phase (a handshake, no timing); then the second phase follows.
# variants: one
# front-ends: few
build live_stream "$E2E/live_stream.c"
mkfifo "$W/fifo" || die "mkfifo failed"
ulimit -f 10000
timeout -k 10 "$CT_TIMEOUT" "$CT" live -q --output="$W/l.out" ./live_stream "$W/fifo" \
	>"$W/p.out" 2>"$W/l.err" &
pid=$!
# wait for phase_one's exit in live's output (the hang guard ends it)
n=0
while ! grep -q '} /\* phase_one \*/' "$W/l.out" 2>/dev/null; do
	if ! kill -0 $pid 2>/dev/null; then
		fail "live ended before showing phase_one: $(head -c 400 "$W/l.err")"
		break
	fi
	n=$((n + 1))
	[ $n -gt 6000 ] && { fail "phase_one not shown after 600 s"; break; }
	sleep 0.1
done
section "shown while the program waits"
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/l.out" | normalize | add
echo go >"$W/fifo"
wait $pid
echo "exit $?" | add
section "the program's output"
add <"$W/p.out"
section "the whole tree"
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/l.out" | normalize | add
