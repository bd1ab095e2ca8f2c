#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/live.sh: what `calltrace live` and `calltrace top` cost the program
# over a plain recording (doc/live.md, doc/top.md; doc/performance.md, "live
# and top").  Measures, asserts nothing.
#
#   sh bench/live.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work: the Lua that bench/setup.sh built is read from there, this
# script's own files go to BENCH_WORK/live, removed at the end), RUNS
# (default 7), LUA_N (default 20000: bench/script.lua).
#
# Each round runs, in turn, the Lua workload under `record`, under `live
# --output=FILE` and under `top --output=FILE` (the same load for all three);
# the program's own run time is what matters, so each command's wall time
# and CPU time (the program's and calltrace's) are taken.
#
# Output, "KEY VALUE":
#   lua.load                          /proc/loadavg before the rounds
#   lua.record_s / .live_s / .top_s   wall time, median of RUNS rounds
#   lua.record_min_s / ...            the same, best round
#   lua.record_cpu_s / ...            CPU time (program and calltrace), median
#   lua.record_prog_s / ...           the program's own run time: the
#                                     recording's duration (calltrace info),
#                                     which ends when the program ends, before
#                                     live's or top's last round; median
#   lua.live_vs_record_prog           live / record, the program's run time
#                                     (medians; issue 16's target: at most 1.10)
#   lua.top_vs_record_prog            top / record (target: at most 1.05)
#   lua.live_vs_record_wall / _cpu    the same in the whole command's wall time
#   lua.top_vs_record_wall / _cpu     (with the last round) and CPU time
#   lua.events                        events of one run (record's summary)
#   lua.live_lines                    lines live wrote in its last round
#   lua.live_skipped                  events live did not show (its note), last round
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=live
. "$HERE/lib.sh"
RUNS=${RUNS:-7}
LUA_N=${LUA_N:-20000}
# a recording and live's output are bounded: 4 GiB at most per file
ulimit -f 8388608 2>/dev/null || true

say() { echo "live: $*" >&2; }

LUA=$BW/lua-fi/src/lua
if [ ! -x "$LUA" ]; then
	say "no $LUA (sh bench/setup.sh builds it): no figures"
	exit 0
fi
$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1

# t CMD...: "wall_ns cpu_ns" of one run, its stderr in $W/err
t() {
	(cd "$W" && "$W/timeit" -n 1 -e "$W/err" -- "$@") | awk '{ print $1, $5 }'
}

say "Lua: record, live --output, top --output in turn, $RUNS rounds, bench/script.lua $LUA_N"
echo "lua.load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$W/runs"
for _i in $(seq "$RUNS"); do
	for m in record live top; do
		rm -rf "$W/d" "$W/d.old" "$W/out"
		case $m in
		record) set -- "$CT" record -d d ;;
		live) set -- "$CT" live -d d --output=out ;;
		top) set -- "$CT" top -d d --output=out ;;
		esac
		tm=$(t "$@" "$LUA" "$HERE/script.lua" "$LUA_N")
		# the program's own run time: the recording's duration (its end
		# is when the program ended, before live's or top's last round)
		pd=$("$CT" info -d "$W/d" 2>/dev/null | awk '$1 == "duration:" {
			v = $2; u = $3; f = (u == "ns") ? 1 : (u == "us") ? 1e3 : (u == "ms") ? 1e6 : 1e9
			printf "%.0f", v * f }')
		echo "$m $tm ${pd:-0}" >>"$W/runs"
		case $m in
		record) ev=$(sed -n 's/.* \([0-9]*\) events (.*/\1/p' "$W/err" | head -n 1) ;;
		live)
			lines=$(wc -l <"$W/out")
			skipped=$(sed -n 's/.*: \([0-9]*\) events were not shown.*/\1/p' "$W/err" | head -n 1)
			;;
		esac
	done
done
# stat MODE FIELD(2 wall, 3 cpu, 4 the program's run time) min|med: in ns
stat() {
	awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$W/runs" | sort -n |
		awk -v m="$3" '{ v[NR] = $1 } END { print NR ? (m == "min" ? v[1] : v[int((NR + 1) / 2)]) : 0 }'
}
for m in record live top; do
	echo "lua.${m}_s $(calc "$(stat $m 2 med) / 1e9")"
	echo "lua.${m}_min_s $(calc "$(stat $m 2 min) / 1e9")"
	echo "lua.${m}_cpu_s $(calc "$(stat $m 3 med) / 1e9")"
	echo "lua.${m}_prog_s $(calc "$(stat $m 4 med) / 1e9")"
done
for m in live top; do
	echo "lua.${m}_vs_record_prog $(calc "$(stat $m 4 med) / $(stat record 4 med)")"
	echo "lua.${m}_vs_record_wall $(calc "$(stat $m 2 med) / $(stat record 2 med)")"
	echo "lua.${m}_vs_record_cpu $(calc "$(stat $m 3 med) / $(stat record 3 med)")"
done
echo "lua.events ${ev:-0}"
echo "lua.live_lines ${lines:-0}"
echo "lua.live_skipped ${skipped:-0}"
rm -rf "$W"
