# record killed with SIGKILL while the program runs (issue 10, item 3): the
# program finds that nobody drains its rings any more and runs on to its
# end, untraced, also in a thread it starts and a child it forks afterwards
# (from inside traced frames, which must still return).  Before that,
# record is stopped (SIGSTOP) for longer than the runtime's heartbeat
# bound while the program fills its rings: a stopped record lives, so the
# program waits and nothing is lost.  What record wrote before it died
# reads back.  (Before the fix the program slept on a full ring for ever.)
# variants: all
# aarch64: yes patch
# front-ends: few
build gone "$E2E/gone.c"
# wait_for FILE PATTERN: until a line of FILE matches (up to the hang guard)
wait_for() {
	_i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $_i -lt $CT_POLLS ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q "$2" "$1" 2>/dev/null
}
timeout -k 10 "$CT_TIMEOUT" "$CT" record -b 4K --buffers=3 -d "$W/d" ./gone kill "$W" \
	</dev/null >"$W/d.out" 2>"$W/d.err" &
tp=$!
if ! wait_for "$W/d.out" '^ready'; then
	kill -9 $tp 2>/dev/null
	die "the program never printed ready: $(head -c 600 "$W/d.err" | tr '\n' '|')"
fi
pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$W/d.out")
rp=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f2) # its parent: record
shm=$(tr '\0' '\n' <"/proc/$pid/environ" | sed -n 's/^CALLTRACE_SHM=//p')
# phase 1 with record stopped for a second (the runtime's bound is 500 ms)
kill -STOP "$rp"
touch "$W/go1"
sleep 1
kill -CONT "$rp"
if ! wait_for "$W/d.out" '^phase1 done'; then
	kill -9 "$rp" "$pid" 2>/dev/null
	die "phase 1 never ended: $(head -c 600 "$W/d.err" | tr '\n' '|')"
fi
kill -9 "$rp"
wait $tp
want_rc "record killed by SIGKILL" $? 137 "$W/d.err"
# phase 2: nobody drains the rings, which fill at once
touch "$W/go2"
if ! wait_for "$W/marker" '^done'; then
	# shellcheck disable=SC2046
	kill -9 "$pid" $(cat /proc/"$pid"/task/*/children 2>/dev/null) 2>/dev/null
	fail "the program hung once record was gone"
fi
_i=0
while [ -e "/proc/$pid" ] && [ $_i -lt $CT_POLLS ]; do
	sleep 0.1
	_i=$((_i + 1))
done
[ -e "/proc/$pid" ] && fail "the program did not end after writing its marker"
case $shm in /dev/shm/calltrace-*) rm -rf "$shm" ;; esac
section "the program's output"; sed 's/^ready [0-9]*$/ready PID/' "$W/d.out" | add
section "its marker (the forked child's exit status)"; add <"$W/marker"
section "the runtime says so, once"
grep -c "^calltrace: the recorder (pid $rp) is gone; tracing stopped, the program runs on$" \
	"$W/d.err" | add
section "what record drained before it died (all of phase 1 but the buffer being written)"
ct report d --format=csv >"$W/report.csv"
n=$(calls_of before "$W/report.csv")
if [ "$n" != none ] && [ "$n" -le 100000 ] && [ "$n" -ge 99000 ]; then
	echo "before: all there" | add
else
	echo "before: $n calls, expected 99000 to 100000" | add
fi
echo "after: $(calls_of after "$W/report.csv")" | add
section "replay -F main -D 1 (main is still open)"
ct replay d --no-duration -F main -D 1 | normalize | add
