# calltrace live streams: the program's first phase is shown while the
# program waits on a FIFO, which the test opens only once live has printed
# that phase (a handshake, no timing); then the second phase follows.
# variants: one
# aarch64: yes patch
# front-ends: few
# A -no-pie program too: its addresses are below 2^40, so each buffer
# begins with an HI record whose payload word is 0 (as every program's
# under qemu-aarch64); live took the words up to the first zero one as
# written and showed nothing until the program ended.
mkfifo "$W/fifo" || die "mkfifo failed"
ulimit -f 10000

# stream PROG: live -q --output=$W/PROG.l.out of ./PROG, the handshake, the
# sections
stream() {
	timeout -k 10 "$CT_TIMEOUT" "$CT" live -q --output="$W/$1.l.out" "./$1" "$W/fifo" \
		>"$W/$1.p.out" 2>"$W/$1.l.err" &
	pid=$!
	# wait for phase_one's exit in live's output (the hang guard ends it)
	n=0
	while ! grep -q '} /\* phase_one \*/' "$W/$1.l.out" 2>/dev/null; do
		if ! kill -0 $pid 2>/dev/null; then
			fail "$1: live ended before showing phase_one: $(head -c 400 "$W/$1.l.err")"
			break
		fi
		n=$((n + 1))
		[ $n -gt 6000 ] && { fail "$1: phase_one not shown after 600 s"; break; }
		sleep 0.1
	done
	section "$1: shown while the program waits"
	sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/$1.l.out" | normalize | add
	echo go >"$W/fifo"
	wait $pid
	echo "exit $?" | add
	section "$1: the program's output"
	add <"$W/$1.p.out"
	section "$1: the whole tree"
	sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/$1.l.out" | normalize | add
}

build live_stream "$E2E/live_stream.c"
build live_stream_np "$E2E/live_stream.c" -no-pie
stream live_stream
stream live_stream_np
