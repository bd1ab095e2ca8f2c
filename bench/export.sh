#!/bin/sh
# bench/export.sh: how fast `calltrace export` writes each format, and in
# how much memory, against `uftrace dump --chrome` on a recording of the
# same program.  Part of `make bench` (called at the end of bench/run.sh);
# runs alone too:  sh bench/export.sh.  Measures, asserts nothing; see
# doc/performance.md, "Export".
#
# Both tools record bench/fib.c (gcc -O2 -finstrument-functions) computing
# fib(EXPORT_FIB_BIG) and fib(EXPORT_FIB_SMALL).  On the big recording each
# export runs EXPORT_RUNS times, stdout to /dev/null, best wall time kept
# (bench/timeit.c, which also gives the peak RSS from wait4); its output
# size is measured by one more run into `wc -c`.  On the small one each
# runs once, for its peak RSS: memory that does not grow with the trace
# shows as the same RSS at both sizes.
#
# Environment (all optional):
#   CALLTRACE          the calltrace command (default build/calltrace)
#   BENCH_WORK         where everything goes (default bench/work)
#   EXPORT_FIB_BIG     fib(N) of the big recording (default 32: 14.1 M events)
#   EXPORT_FIB_SMALL   fib(N) of the small one (default 27: 1.27 M events)
#   EXPORT_RUNS        runs per export on the big recording (default 3)
# Output: a table on stdout; BENCH_WORK/export.kv and export.json.
HERE=$(cd "$(dirname "$0")" && pwd)
CALC_DIGITS=6
SUB=
. "$HERE/lib.sh"
BIG=${EXPORT_FIB_BIG:-32}
SMALL=${EXPORT_FIB_SMALL:-27}
RUNS=${EXPORT_RUNS:-3}

E=$W/export
BIN=$E/bin
LOGS=$E/logs
rm -rf "$E"
mkdir -p "$BIN" "$LOGS"
KV=$W/export.kv
: >"$KV"
T0=$(date +%s)

say() { echo "bench/export: $*" >&2; }
put() { printf '%s\t%s\n' "$1" "$2" >>"$KV"; }
get() { awk -F'\t' -v k="$1" '$1 == k { v = $2 } END { print v }' "$KV"; }
isnum() { case ${1:-x} in '' | *[!0-9.e+-]*) return 1 ;; *) return 0 ;; esac; }

[ -x "$CT" ] || { say "$CT not built (make all)"; exit 1; }
UFTRACE=$(command -v uftrace || true)
[ -n "$UFTRACE" ] || say "uftrace not installed: no uftrace column (sh bench/setup.sh installs it)"

$CC -O2 -Wall -o "$BIN/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -finstrument-functions -o "$BIN/fib-fi" "$HERE/fib.c" || exit 1
TIMEIT=$BIN/timeit

put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.runs "$RUNS"

# the formats this calltrace writes; html only if the build has it
FORMATS="chrome perfetto folded callgrind"
for sz in small big; do
	[ $sz = small ] && n=$SMALL || n=$BIG
	say "recording fib($n) with calltrace and uftrace"
	(cd "$E" && "$CT" record -d "$E/$sz.ct" "$BIN/fib-fi" "$n" >/dev/null 2>"$LOGS/$sz.ct.rec") ||
		{ say "calltrace record failed: $(tail -1 "$LOGS/$sz.ct.rec")"; exit 1; }
	ev=$("$CT" info -d "$E/$sz.ct" | sed -n 's/^events: *//p')
	put "$sz.desc" "fib($n)"
	put "$sz.events" "$ev"
	put "$sz.ct_bytes" "$(cat "$E/$sz.ct"/*.ev | wc -c)"
	if [ -n "$UFTRACE" ]; then
		(cd "$E" && uftrace record -d "$E/$sz.uf" "$BIN/fib-fi" "$n" >/dev/null 2>"$LOGS/$sz.uf.rec") ||
			say "uftrace record failed: $(tail -1 "$LOGS/$sz.uf.rec")"
	fi
done
if "$CT" export -d "$E/small.ct" --format=html -o "$E/probe.html" >/dev/null 2>"$LOGS/html.probe"; then
	FORMATS="$FORMATS html"
else
	put html.skipped "$(head -1 "$LOGS/html.probe")"
	say "html skipped: $(head -1 "$LOGS/html.probe")"
fi
rm -f "$E/probe.html"

# run KEY N CMD...: best wall time of N runs (stdout to /dev/null), peak RSS
run() {
	_k=$1 _n=$2
	shift 2
	_r=$(cd "$E" && "$TIMEIT" -n "$_n" -e "$LOGS/$_k.err" -- "$@")
	set -- $_r
	put "$_k.time_ns" "${1:-}"
	put "$_k.rss_kb" "${3:-}"
	put "$_k.cpu_ns" "${5:-}"
	put "$_k.status" "${4:-1}"
	[ "${4:-1}" = 0 ] || say "$_k: exit status ${4:-?} (see $LOGS/$_k.err)"
}

for f in $FORMATS uftrace; do
	if [ $f = uftrace ]; then
		[ -n "$UFTRACE" ] || continue
		set -- uftrace dump --chrome -d
		sfx=uf
	else
		set -- "$CT" export --format=$f -d
		sfx=ct
	fi
	say "$f: $RUNS runs on fib($BIG), 1 on fib($SMALL)"
	run "$f.big" "$RUNS" "$@" "$E/big.$sfx"
	run "$f.small" 1 "$@" "$E/small.$sfx"
	put "$f.big.out_bytes" "$(cd "$E" && "$@" "$E/big.$sfx" 2>/dev/null | wc -c)"
done
put meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.seconds "$(($(date +%s) - T0))"
rm -rf "$E/small.ct" "$E/big.ct" "$E/small.uf" "$E/big.uf"

# ---- the table
ev=$(get big.events)
uf=$(get uftrace.big.time_ns)
ufc=$(get uftrace.big.cpu_ns)
# ratio A B: A / B with one decimal and an "x", or "-"
ratio() { isnum "$1" && isnum "$2" && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }' || echo -; }
{
	echo
	echo "== export of a recording of fib($BIG), $ev events (peak RSS also on fib($SMALL), $(get small.events) events)"
	printf '%-22s %10s %8s %8s %11s %11s %10s %10s %8s %8s\n' "" "events" "wall s" "CPU s" \
		"M events/s" "RSS small" "RSS big" "output MB" "speed-up" "(CPU)"
	for f in $FORMATS uftrace; do
		t=$(get "$f.big.time_ns")
		[ -n "$t" ] || continue
		if [ $f = uftrace ]; then name="uftrace dump --chrome"; else name="export $f"; fi
		if [ "$(get "$f.big.status")" != 0 ] || ! isnum "$t"; then
			printf '%-22s %10s %9s\n' "$name" "$ev" "FAIL($(get "$f.big.status"))"
			continue
		fi
		s=$(calc "$t / 1e9")
		rate=$(calc "$ev / $t * 1000")
		c=$(get "$f.big.cpu_ns")
		su=- suc=-
		if [ "$(get uftrace.big.status)" = 0 ]; then
			su=$(ratio "$uf" "$t")
			suc=$(ratio "$ufc" "$c")
		fi
		put "$f.big.mevents_per_s" "$rate"
		put "$f.big.speedup_vs_uftrace" "${su%x}"
		put "$f.big.cpu_speedup_vs_uftrace" "${suc%x}"
		printf '%-22s %10s %8.3f %8.3f %11.1f %7.1f MiB %6.1f MiB %10s %8s %8s\n' "$name" "$ev" "$s" \
			"$(calc "$c / 1e9")" "$rate" \
			"$(calc "$(get "$f.small.rss_kb") / 1024")" "$(calc "$(get "$f.big.rss_kb") / 1024")" \
			"$(awk -v b="$(get "$f.big.out_bytes")" 'BEGIN { printf(b >= 1e6 ? "%.1f" : "%.4f", b / 1e6) }')" \
			"$su" "$suc"
	done
	[ -n "$(get html.skipped)" ] && echo "html: skipped ($(get html.skipped))"
	echo "(best of $RUNS runs, stdout to /dev/null; speed-up: uftrace dump --chrome's time / this one's, wall and CPU; load average $(get meta.load_start) -> $(get meta.load_end); $(get meta.seconds) s)"
}
LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 "$KV" | awk -F'\t' -f "$HERE/json.awk" >"$W/export.json"
echo "results: $W/export.json"
