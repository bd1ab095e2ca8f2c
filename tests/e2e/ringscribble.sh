# A traced program rewrites the header of its own ring once record has
# taken it (ringscribble.c): the buffers' offset far outside the ring while
# it goes on (200,000 more calls, drained as it runs, and with --flight
# kept to the end), and offset, stride and slot count, then SIGKILL.
# record used to reread those fields and die of SIGSEGV; it keeps the
# layout it checked when it took the ring, records every call, and says
# once what the program did.
# variants: one
# aarch64: yes patch
build ringscribble "$E2E/ringscribble.c" -I"$TOP/include"
said() {
	grep -c "the ring of thread [0-9]*-0-[0-9]*: its header's layout was changed by the program after it was taken; ignored" "$W/$1.err"
}

record d ./ringscribble offset 200000
want_rc "record ./ringscribble offset" $RC 0 "$W/d.err"
section "offset: stdout"; add <"$W/d.out"
section "offset: said"; said d | add
ct report d --format=csv >"$W/d.csv"
section "offset: work() calls recorded"; calls_of work "$W/d.csv" | add
section "offset: replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add

record a ./ringscribble all 0
want_rc "record ./ringscribble all" $RC 137 "$W/a.err"
section "all, killed: stdout"; add <"$W/a.out"
section "all, killed: said"; said a | add
ct report a --format=csv >"$W/a.csv"
section "all, killed: work() calls recorded"; calls_of work "$W/a.csv" | add

record f --flight=64K ./ringscribble offset 200000
want_rc "record --flight ./ringscribble offset" $RC 0 "$W/f.err"
section "flight: said"; said f | add
ct report f --format=csv >"$W/f.csv"
calls=$(calls_of work "$W/f.csv")
section "flight: the last work() calls kept, not all"
if [ "$calls" -gt 1000 ] 2>/dev/null && [ "$calls" -lt 201000 ]; then
	echo yes | add
else
	echo "no: $calls" | add
fi
