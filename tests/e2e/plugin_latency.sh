# plugin_latency: the latency histogram (plugins/latency.c, doc/plugins.md):
# per selected function its calls in log2 buckets of nanoseconds, printed on
# SIGUSR2 while the program runs (the calls so far) and at its exit; the
# buckets add up to the calls, and the 30 ms sleep lands in the bucket of
# its recorded duration.
# variants: all
# front-ends: few
build plugin "$E2E/plugprog.c"
PL=$TOP/build/plugins
record d --plugin="$PL/latency.so:out=$W/lat.txt" --plugin-filter='^(leaf|mid|outer|slow)$' \
	./plugin signal
want_rc "record --plugin latency.so ./plugin signal" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "the histograms' headers and calls"
sed -n 's/^# calltrace latency histogram: pid [0-9]*, /# /p; s/, average [0-9]* ns$//p' \
	"$W/lat.txt" | sed 's/^function //' | add
section "checks"
# every function's buckets add up to its calls; each bucket is [2^(k-1), 2^k)
awk '/^function / { if (name != "" && sum != calls) print "bad sum for " name; name = $2;
		calls = $3; sum = 0; next }
	/^  \[/ { lo = $1; gsub(/[\[,]/, "", lo); hi = $2; gsub(/\)/, "", hi);
		if (!(lo == 0 && hi == 1) && hi != 2 * lo) print "bad bucket " $0; sum += $NF }
	END { if (sum != calls) print "bad sum for " name; print "buckets add up" }' "$W/lat.txt" | add
# slow(30) slept 30 ms or more (how much more is the machine's say): its
# one call is in the bucket that holds its recorded duration (within 1 ms:
# the plugin sees the recorded times, less its own work inside the call)
# and ends above 30 ms
ct report d --raw --format=csv >"$W/raw.csv"
awk -F, 'NR == FNR { if ($1 == "slow") d = $7; next }
	/^function slow:/ { s = 1; next } /^function / { s = 0 }
	s && /^  \[/ { lo = $1; gsub(/[\[,]/, "", lo); hi = $2; gsub(/\)/, "", hi)
		if (hi > 30000000 && lo <= d && d < hi + 1000000) ok = 1 }
	END { print ok ? "slow: in its bucket" : "slow: not in the bucket of its recorded " d " ns" }' \
	"$W/raw.csv" FS=' ' "$W/lat.txt" | add
section "signal=0: no handler (SIGUSR2 ends the program, as without the plugin)"
record n --plugin="$PL/latency.so:out=$W/n.txt,signal=0" --plugin-filter='^mid$' ./plugin signal
echo "exit $RC" | add
grep -c '^# calltrace latency' "$W/n.txt" | add
