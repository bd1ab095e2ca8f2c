#!/bin/sh
# SPDX-License-Identifier: MIT
# How well the overhead correction (doc/overhead.md) works on fib(N): the
# untraced run time against main's time in `report --raw` and `report`,
# and the reader's throughput with the correction.  Not part of
# `make bench` (a few seconds; run it by hand):
#
#   sh bench/overhead.sh [N]       (default 32; needs make all)
#
# Figures measured on a loaded machine are noisy: say so with them.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
CT=$TOP/build/calltrace
N=${1:-32}
CC=${CC:-gcc}
W=$(mktemp -d /tmp/ct-bench-overhead.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
[ -x "$CT" ] || { echo "build calltrace first (make all)" >&2; exit 1; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -o "$W/fib" "$HERE/fib.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1

# untraced: the least CPU time of 10 runs
set -- $("$W/timeit" -n 10 -- "$W/fib" "$N")
untraced=$5
(cd "$W" && "$CT" record -d "$W/d" ./fib-fi "$N" >/dev/null 2>&1) || {
	echo "calltrace record failed" >&2
	exit 1
}
main_ns() { "$CT" report -d "$W/d" --format=csv "$@" | awk -F, '$1 == "main" { print $3 }'; }
raw=$(main_ns --raw)
corr=$(main_ns)
fig=$("$CT" info -d "$W/d" | sed -n 's/^ *overhead: *//p' | head -1)
events=$("$CT" info -d "$W/d" | sed -n 's/^events: *//p')
awk -v n="$N" -v u="$untraced" -v r="$raw" -v c="$corr" -v f="$fig" 'BEGIN {
	printf "fib(%d): untraced %.1f ms (least CPU time of 10 runs)\n", n, u / 1e6
	printf "  main, report --raw: %.1f ms (%.1fx)\n", r / 1e6, r / u
	printf "  main, report:       %.1f ms (%.1fx)\n", c / 1e6, c / u
	printf "  calibration: %s\n", f
}'
for v in replay report graph callers; do
	for raw in "" --raw; do
		[ $v = replay ] && [ -n "$raw" ] && continue
		set -- $("$W/timeit" -n 5 -- "$CT" $v -d "$W/d" $raw)
		awk -v v="$v $raw" -v t="$5" -v e="$events" 'BEGIN {
			printf "  %-15s %6.3f s CPU, %5.1f M events/s\n", v, t / 1e9, e / (t / 1e9) / 1e6 }'
	done
done
