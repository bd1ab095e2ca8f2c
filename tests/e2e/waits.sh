# Time the program spent waiting for the trace writer (its buffers all
# full, the drainer held back 2 s at the start): recorded as WAIT records
# and taken out of the calls' durations by report, graph, callers and
# replay (not with --raw).  How long the program waited depends on when
# it started and filled its buffers (late, on a busy machine): the bounds
# are the waits replay notes, summed: busy()'s recorded time holds them,
# its corrected time does not.
# variants: one
# aarch64: yes patch
# front-ends: few
build waits "$E2E/waits.c"
guard env CALLTRACE_TEST_DRAIN_PAUSE_MS=2000 "$CT" record -b 4K --buffers=3 -d "$W/d" ./waits \
	</dev/null >"$W/d.out" 2>"$W/d.err"
want_rc "record ./waits" $RC 0 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "the program waited (info)"
ct info d | awk '/^waits:/ { print ($2 > 0 ? "waits > 0" : "no waits") }' | add
# busy()'s total in ns from report --format=csv (columns: function, ...)
total_of() { python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    if r[0] == "busy":
        print(int(float(r[h.index(sys.argv[2])])))' "$1" "$2"; }
ct report d --format=csv >"$W/cor.csv"
ct report d --format=csv --raw >"$W/raw.csv"
col=$(head -n 1 "$W/cor.csv" | tr ',' '\n' | grep -m 1 -i 'total')
ct replay d >"$W/replay.txt"
# the waits replay notes, in ns ("/* waited 1.799  s for the trace
# writer */": 4 digits, hence 99 % of it below)
waited=$(awk '/\/\* waited .* for the trace writer \*\// {
		for (i = 1; i < NF; i++) if ($i == "waited") { v = $(i + 1); u = $(i + 2) }
		w += v * ((u == "s") ? 1e9 : (u == "ms") ? 1e6 : (u == "us") ? 1e3 : 1) }
	END { printf "%.0f\n", w * 0.99 }' "$W/replay.txt")
section "busy: recorded time holds the waits, corrected time does not"
raw=$(total_of "$W/raw.csv" "$col")
cor=$(total_of "$W/cor.csv" "$col")
echo "raw $raw cor $cor waited $waited" >"$W/times"
awk -v r="$raw" -v c="$cor" -v col="$col" -v w="$waited" 'BEGIN {
	print "column:", col
	print (w > 0 && r - c >= w ? "the waits taken out" : "NOT taken out: raw " r " corrected " c " waited " w) }' | add
section "replay: the wait noted where it happened, out of the durations"
grep -q '/\* waited .* for the trace writer \*/' "$W/replay.txt" && echo "noted" | add ||
	echo "NOT noted" | add
# busy's exit line: its duration, the waits under the recorded one
awk -v r="$raw" -v w="$waited" '/} \/\* busy \*\// { v = $1; u = $2
	m = (u == "s") ? 1e9 : (u == "ms") ? 1e6 : (u == "us") ? 1e3 : 1
	print (v * m <= r - w ? "busy shown without the waits" : "busy " v " " u ", recorded " r " ns, waited " w) }' "$W/replay.txt" | add
