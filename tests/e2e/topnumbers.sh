# top and live show report's and replay's numbers (issue 27): a CPU-bound
# program in 4 threads (tiny calls, real work, a recursion; then library
# calls and a loaded library's function), with library calls off and on.
# top -d DIR --interval=20ms: its final profile's SELF, CALLS and AVG are
# `report -d DIR`'s, as printed, and no function's SELF ever goes down from
# one table to the next (a recursive fib's self time rose, then fell to
# 0.000 ns, with top's old clamped sums).  live -d DIR: each thread's lines
# with their durations are `replay -d DIR`'s.  The program waits on a FIFO
# between its two phases until the view has shown the first (a handshake,
# no timing), so that the view reads the threads' buffers while they are
# being written, and the process's .proc before the lines its second phase
# adds (the first library call's front end, the library's module and
# library calls).  tests/e2e/topnumbers_check.py does the comparing.
# variants: one
# front-ends: few
build topnumbers "$E2E/topnumbers.c"
build topnumbers_lib.so "$E2E/topnumbers_lib.c" -shared -fPIC
# the functions whose calls are shown (the start-up's library calls are the
# front end's: -pg registers _mcleanup with atexit)
F='^(main|phase|worker|one_round|tiny|work|fib|parse|wait_go|join|lib_parse|(strtol|strtoul|pthread_join|printf)@libc\.so\.6)$'
ulimit -f 400000
# view NAME TOP|LIVE PATTERN ROUNDS OPTIONS...: the view's output in
# $W/NAME.txt, recording in $W/NAME; the FIFO opened once the output
# matches PATTERN
view() {
	_n=$1 _v=$2 _pat=$3 _r=$4
	shift 4
	mkfifo "$W/$_n.fifo" || die "mkfifo failed"
	timeout -k 10 "$CT_TIMEOUT" "$CT" "$_v" -q -d "$W/$_n" --output="$W/$_n.txt" "$@" \
		./topnumbers "$_r" "$W/$_n.fifo" "$W/topnumbers_lib.so" >"$W/$_n.out" 2>"$W/$_n.err" &
	_pid=$!
	_i=0
	while ! grep -q "$_pat" "$W/$_n.txt" 2>/dev/null; do
		if ! kill -0 $_pid 2>/dev/null; then
			fail "$_v $*: ended before showing the first phase: $(head -c 400 "$W/$_n.err")"
			break
		fi
		_i=$((_i + 1))
		[ $_i -gt "$CT_POLLS" ] && { fail "$_v $*: the first phase not shown"; break; }
		sleep 0.1
	done
	echo go >"$W/$_n.fifo"
	wait $_pid
	_rc=$?
	[ $_rc -eq 0 ] || fail "$_v $*: exit status $_rc: $(head -c 400 "$W/$_n.err")"
	grep -q "^topnumbers $_r\$" "$W/$_n.out" || fail "$_v $*: the program's output: $(head -c 200 "$W/$_n.out")"
}
for lib in --no-libcall --libcall; do
	section "top $lib: the final profile and report's"
	view "top$lib" top ' fib$' 300 --interval=20ms --limit=1000 "$lib"
	ct report "top$lib" >"$W/top$lib.report"
	python3 "$E2E/topnumbers_check.py" top "$W/top$lib.txt" "$W/top$lib.report" "$F" \
		>"$W/top$lib.check" 2>"$W/top$lib.diff" ||
		fail "top $lib: $(head -c 1500 "$W/top$lib.diff")"
	grep -v '^tables before' "$W/top$lib.check" | add
	# a table before the final one (shown while the program waited)
	grep '^tables before' "$W/top$lib.check" | add
	section "live $lib: the lines and durations of replay"
	view "live$lib" live '} /\* one_round \*/' 20 "$lib"
	ct replay "live$lib" >"$W/live$lib.replay"
	python3 "$E2E/topnumbers_check.py" live "$W/live$lib.txt" "$W/live$lib.replay" \
		>"$W/live$lib.check" 2>"$W/live$lib.diff" ||
		fail "live $lib: $(head -c 1500 "$W/live$lib.diff")"
	add <"$W/live$lib.check"
done
