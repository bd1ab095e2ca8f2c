# record --flight: a program SIGKILLed while it spins.  Nothing is written
# while it runs (no .ev file); once it is gone, its window is, with the open
# calls entered before the snapshot and unfinished.
# variants: all
# aarch64: yes patch
# front-ends: few
build flight "$E2E/flight.c" -I"$TOP/include"
timeout -k 10 "$CT_TIMEOUT" "$CT" record -d "$W/d" --flight=64K ./flight kill \
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
sleep 0.3
section "while it runs: .ev files in the data directory"
ls "$W/d" | grep -c '\.ev$' | add
kill -9 "$pid"
wait $rp
RC=$?
want_rc "record --flight ./flight kill" $RC 137 "$W/d.err"
section "replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add
section "info"
grep -E '^(flight|exit_status|snapshot_reason):' "$W/d/info" | add
