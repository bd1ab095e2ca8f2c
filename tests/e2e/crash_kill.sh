# A program SIGKILLed from outside while it spins in instrumented calls:
# record exits 137; every spin() call the program counted (in a shared
# page that survives the kill) is in the trace; open calls are unfinished.
# variants: all
# aarch64: yes patch
# front-ends: few
build crash "$E2E/crash.c"
timeout -k 10 "$CT_TIMEOUT" "$CT" record -d "$W/d" ./crash kill "$W/count" \
	</dev/null >"$W/d.out" 2>"$W/d.err" &
rp=$!
i=0
while ! grep -q '^ready' "$W/d.out" && kill -0 $rp 2>/dev/null && [ $i -lt 3000 ]; do
	sleep 0.2
	i=$((i + 1))
done
pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$W/d.out")
if [ -z "$pid" ]; then
	kill -9 $rp 2>/dev/null
	wait $rp
	die "the program never printed ready (record exit status $?): $(head -c 600 "$W/d.err" | tr '\n' '|')"
fi
kill -9 "$pid"
wait $rp
RC=$?
want_rc "record ./crash kill" $RC 137 "$W/d.err"
count=$(od -An -t d8 -N 8 "$W/count" | tr -d ' ')
section "stdout"; sed 's/^ready [0-9]*$/ready PID/' "$W/d.out" | add
section "replay -N spin"; ct replay d --no-duration -N spin | normalize | add
ct report d --format=csv >"$W/report.csv"
section "report --format=csv (function,calls) without spin"
csv_calls <"$W/report.csv" | grep -v '^spin,' | add
calls=$(calls_of spin "$W/report.csv")
section "spin() calls in the trace: as counted by the program (+1 if killed in the hook)"
if [ "$calls" = "$count" ] || [ "$calls" = "$((count + 1))" ]; then
	echo "all there" | add
else
	echo "trace has $calls, program counted $count" | add
fi
section "info: exit status"; ct info d | sed -n 's/^exit status: *//p' | add
