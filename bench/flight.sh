#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/flight.sh: record --flight beside a normal recording, on fib and on
# the Lua workload (doc/performance.md, "Flight recorder").  Measures,
# asserts nothing.
#
#   sh bench/flight.sh            (after make; called by bench/run.sh)
#
# The untraced build, `record` and `record --flight` are run in turn, RUNS
# rounds, so that the three see the same load on a shared machine; every
# figure is the median of the rounds (and the best, _min).  CPU time is
# user + system of the program and `record` together.  A per-call figure
# is the command's time less its time on a run of (almost) no calls (fib(1),
# `lua -v`: the start of the process, and `record`'s own start and end,
# whose wall time holds a fixed 20 ms of clock measurement), less the same
# for the untraced -finstrument-functions build, divided by the calls.
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), FIB_N (default 33), RUNS (default 5), LUA_N (default 20000:
# bench/script.lua, when bench/setup.sh built Lua; SKIP_LUA=1: not), CC
# (default gcc).
#
# Output, "KEY VALUE":
#   fib.calls, lua.calls              calls of the workload (lua: from a
#                                     full recording's events)
#   W.M.cpu_ns_per_call[_min]         W fib or lua; M ct (record) or ctfl
#                                     (record --flight): CPU ns per call
#   W.M.wall_ns_per_call[_min]        the same in wall time
#   W.M.cpu_ms, W.M.wall_ms           the medians of the runs themselves
#   W.fi.cpu_ms, W.fi.wall_ms         the untraced build's
#   W.ctfl_vs_ct_cpu                  --flight / record, CPU per call
#   tsc.rdtsc_ns, tsc.floor_ns        one rdtsc, and two (bench/tsc.c, the
#                                     floor of a traced call), same run
#   load.start, load.end              /proc/loadavg around the runs
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=flight
. "$HERE/lib.sh"
FIB_N=${FIB_N:-33}
RUNS=${RUNS:-5}
LUA_N=${LUA_N:-20000}
# a recording is bounded: 4 GiB at most per file
ulimit -f 8388608 2>/dev/null || true

say() { echo "flight: $*" >&2; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -Wall -o "$W/tsc" "$HERE/tsc.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1

echo "load.start $(cut -d' ' -f1-3 /proc/loadavg)"
r=$("$W/tsc" 10000000 | awk '$1 == "rdtsc_ns" { print $2 }')
echo "tsc.rdtsc_ns $r"
echo "tsc.floor_ns $(calc "2 * $r")"

# one KEY CMD...: one run (cwd $W, a recording in $W/d removed first);
# appends "KEY wall_ns cpu_ns" to $W/runs
one() {
	_k=$1
	shift
	rm -rf "$W/d" "$W/d.old"
	(cd "$W" && "$W/timeit" -n 1 -- "$@") | awk -v k="$_k" '{ print k, $1, $5 }' >>"$W/runs"
}
# stat KEY FIELD(2 wall, 3 cpu) min|med: over the runs of KEY, in ns
stat() {
	awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$W/runs" | sort -n | awk -v m="$3" '
		{ v[NR] = $1 } END { if (!NR) exit; print m == "min" ? v[1] : v[int((NR + 1) / 2)] }'
}

# bench W CALLS SMALL-CMD BIG-CMD: the rounds and the figures of workload W
# (the commands are strings: the untraced build with its arguments)
bench() {
	_w=$1 _calls=$2 _small=$3 _big=$4
	: >"$W/runs"
	say "$_w: $RUNS rounds of untraced, record, record --flight; load $(cut -d' ' -f1-3 /proc/loadavg)"
	for _i in $(seq "$RUNS"); do
		# shellcheck disable=SC2086
		{
			one fi.small $_small
			one ct.small "$CT" record -q -d d $_small
			one ctfl.small "$CT" record -q --flight -d d $_small
			one fi.big $_big
			one ct.big "$CT" record -q -d d $_big
			one ctfl.big "$CT" record -q --flight -d d $_big
		}
	done
	echo "$_w.calls $_calls"
	for _f in 2:wall 3:cpu; do
		_n=${_f%%:*} _name=${_f#*:}
		for _m in "fi" ct ctfl; do
			echo "$_w.$_m.${_name}_ms $(calc "$(stat "$_m.big" "$_n" med) / 1e6")"
		done
		for _s in med min; do
			_sfx=
			[ $_s = min ] && _sfx=_min
			_base=$(($(stat fi.big "$_n" $_s) - $(stat fi.small "$_n" $_s)))
			for _m in ct ctfl; do
				_x=$(($(stat "$_m.big" "$_n" $_s) - $(stat "$_m.small" "$_n" $_s)))
				echo "$_w.$_m.${_name}_ns_per_call$_sfx $(calc "($_x - $_base) / $_calls")"
			done
		done
	done
	_a=$(($(stat ct.big 3 med) - $(stat ct.small 3 med) - $(stat fi.big 3 med) + $(stat fi.small 3 med)))
	_b=$(($(stat ctfl.big 3 med) - $(stat ctfl.small 3 med) - $(stat fi.big 3 med) + $(stat fi.small 3 med)))
	echo "$_w.ctfl_vs_ct_cpu $(calc "$_b / ($_a > 0 ? $_a : 1)")"
	rm -rf "$W/d" "$W/d.old"
}

# fib(N) makes 2*F(N+1)-1 calls, main one more
calls=$(awk -v n="$FIB_N" 'BEGIN { a = 0; b = 1; for (i = 0; i <= n; i++) { t = a + b; a = b; b = t }; print 2 * a }')
bench fib "$calls" "$W/fib-fi 1" "$W/fib-fi $FIB_N"

LUA=$BW/lua-fi/src/lua
if [ "${SKIP_LUA:-0}" = 1 ]; then
	say "SKIP_LUA=1: no Lua figures"
elif [ -x "$LUA" ]; then
	rm -rf "$W/d"
	(cd "$W" && "$CT" record -q -d d "$LUA" "$HERE/script.lua" "$LUA_N" >/dev/null 2>&1)
	ev=$(sed -n 's/^events: //p' "$W/d/info" 2>/dev/null)
	if [ "${ev:-0}" -gt 0 ]; then
		bench lua "$((ev / 2))" "$LUA -v" "$LUA $HERE/script.lua $LUA_N"
	else
		say "lua: no events in a full recording: no Lua figures"
	fi
else
	say "no $LUA (sh bench/setup.sh builds it): no Lua figures"
fi
rm -rf "$W/d" "$W/d.old" "$W/runs"
echo "load.end $(cut -d' ' -f1-3 /proc/loadavg)"
