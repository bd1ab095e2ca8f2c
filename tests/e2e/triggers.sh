# record-time triggers (-T), --trace=off, --signal, the program's API
# (calltrace_on/calltrace_off) and the windows (--time-range, --max-size):
# each recording's tree (doc/record.md, "Triggers and windows")
# variants: all
# aarch64: yes patch
# front-ends: all
build triggers "$E2E/triggers.c" -I"$TOP/include"

# run NAME MODE OPTIONS...: record, then the tree and the summary's words
n=0
run() {
	_mode=$1
	shift
	n=$((n + 1))
	record "t$n" "$@" ./triggers $_mode
	want_rc "record $* ./triggers $_mode" $RC 0 "$W/t$n.err" || return
	section "record $* ./triggers $_mode"
	# (time=: the calls that function makes short are left out, but a
	# busy machine may make one long: SHORT inside SCOPE left out of what
	# is compared, and short_kept checks that those kept were long)
	if [ -n "${SHORT:-}" ]; then
		ct replay "t$n" --no-duration | long_only "$SHORT" "$SCOPE" | normalize | add
		short_kept "t$n" "$TIME" "$SHORT" "$SCOPE"
	else
		ct replay "t$n" --no-duration | normalize | add
	fi
	grep -o 'Record-time filters ([^)]*)' "$W/t$n.err" | add
	grep -o 'Recording of new calls stopped [^(]*(.*)' "$W/t$n.err" |
		sed 's/stopped [0-9.]* s/stopped N s/' | add
	grep '^record_filters: ' "$W/t$n/info" | add
}

run "" -T '^quiet$@trace_off=call'
run "" --trace=off -T '^loud$@trace_on=call'
run "" -T '^deep$@depth=2'
SHORT='^(busy|leaf)$' SCOPE='^timed$' TIME=10000000
run "" -T '^timed$@time=10ms'
SHORT=
# a call kept by its trigger's threshold (time=0: every call in timed)
# keeps the calls it is in, short by -t's: main stays as their frame
run "" -t 1s -T '^timed$@time=0'
# ... also when they end by a longjmp (unwound: jumpy, kept by time=0,
# and outer, short by -t's 1s)
run jump -t 1s -T '^jumpy$@time=0'
run "" -T '^phase$@finish'
run "" -T '^loud$@trace_off' -T '^last$@trace_on'
run "" -T '^(loud|deep)$@trace_off=call,depth=1' -F '^main$' -D 2
run sig --signal=USR1@toggle
run sig --signal=SIGUSR1@trace_on --trace=off
run api
run api -F '^main$'
run "" --time-range=100s~
run "" -T '^phase$@snapshot'

# backtrace: the callers, up to main (offsets and libc's frames vary)
bt() { sed -n 's/.*mark: backtrace: \(.*<- main\).*/backtrace: \1/p' | sed 's/+0x[0-9a-f]*//g'; }
section "record --trace=off -T '^deep\$@backtrace' -T '^leaf\$@backtrace' (tracing off)"
record bt1 --trace=off -T '^deep$@backtrace' -T '^leaf$@backtrace' ./triggers
want_rc "record backtrace" $RC 0 "$W/bt1.err"
ct replay bt1 --no-duration | bt | add
section "record -T '^leaf\$@backtrace' (callers recorded: their return addresses hooked)"
record bt2 -T '^leaf$@backtrace' ./triggers
want_rc "record backtrace" $RC 0 "$W/bt2.err"
ct replay bt2 --no-duration | bt | add

section "record --flight -T '^last\$@snapshot': a snapshot while it runs"
record fl --flight -T '^last$@snapshot' ./triggers
want_rc "record --flight -T last@snapshot" $RC 0 "$W/fl.err"
ls "$W/fl" | grep '^snapshot\.' | add
grep '^snapshot_reason' "$W/fl/snapshot.1/info" | add
ct replay fl/snapshot.1 --no-duration | grep -c 'last()' | sed 's/^/calls of last in the snapshot: /' | add

section "record --max-size=4K ./triggers many: stops early"
record size --max-size=4K -b 4K ./triggers many
want_rc "record --max-size=4K" $RC 0 "$W/size.err"
grep -o 'Recording of new calls stopped [^(]*(.*)' "$W/size.err" | sed 's/stopped [0-9.]* s/stopped N s/' | add
leaves=$(ct replay size --no-duration | grep -c 'leaf();')
[ "$leaves" -gt 0 ] && [ "$leaves" -lt 200000 ] && echo "some calls, not all" | add ||
	fail "--max-size=4K: $leaves leaf calls recorded"

section "bad triggers and windows: usage errors, nothing started"
for f in "-T ^x\$@bogus" "-T noat" "-T (@finish" "-T ^x\$@depth=0" "-T ^x\$@time=abc" \
	"-T ^x\$@backtrack" "--signal=KILL@trace_on" "--signal=USR1@bogus" "--signal=USR1" \
	"--time-range=5s~1s" "--time-range=5s" "--max-size=100" "--max-size=2X" "--trace=maybe"; do
	rm -rf "$W/bad"
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/bad" $f ./triggers >"$W/bad.out" 2>"$W/bad.err"
	echo "$f: exit $RC: $(head -1 "$W/bad.err")" | add
	[ -e "$W/bad" ] && fail "record $f made $W/bad"
	[ -s "$W/bad.out" ] && fail "record $f ran the program"
done
section "a trigger that matches nothing: a warning"
record nomatch -T '^no_such_function$@finish' ./triggers
want_rc "record -T no_such_function" $RC 0 "$W/nomatch.err"
grep 'matches no function' "$W/nomatch.err" | add
