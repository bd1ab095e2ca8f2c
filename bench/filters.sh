#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/filters.sh: what record-time filters cost and save (doc/record.md,
# "Record-time filters"; doc/performance.md).  Measures, asserts nothing.
#
#   sh bench/filters.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), FIB_N (default 34), RUNS (default 7), CC (default gcc),
# LUA_N (default 20000: bench/script.lua, when bench/setup.sh built Lua).
#
# Output, "KEY VALUE":
#   plain.min_ns                   fib(FIB_N), plain build (-falign-functions=64),
#                                  untraced, less the time of fib(1) (every
#                                  figure is: each command's CPU time less
#                                  its own on fib(1))
#   <fe>.excluded_ns_per_call      record --hide '^fib$' (every fib call left
#                                  out) minus the plain build, per fib call (wall)
#   <fe>.excluded_vs_plain         the same as a ratio of run times
#   <fe>.excluded_ns_per_call_own  the same against the same build run
#                                  without calltrace (-finstrument-functions:
#                                  glibc's empty hooks; -pg: its mcount)
#   <fe>.full_ns_per_call          a full recording of the same build, for scale
#   <fe>.t1us_ns_per_call          record -t 1us of the same build (every fib call
#                                  short: each entry held back, nothing written),
#                                  the same way
#   lua.full_s / lua.t1us_s        Lua workload: full recording / record -t 1us,
#                                  wall time, median of RUNS rounds (each round
#                                  runs both, in turn: the same load for both)
#   lua.full_min_s / lua.t1us_min_s  the same, best round
#   lua.full_cpu_s / lua.t1us_cpu_s  CPU time (program and record), median
#   lua.t1us_vs_full_wall / lua.t1us_vs_full_cpu  -t 1us / full (medians;
#                                  issue 12's target: at most 1 in both)
#   lua.load                       /proc/loadavg before the Lua rounds
#   lua.full_bytes / lua.t1us_bytes  the event streams' bytes
#   lua.bytes_ratio                full / -t 1us
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=filters
. "$HERE/lib.sh"
FIB_N=${FIB_N:-34}
RUNS=${RUNS:-7}
LUA_N=${LUA_N:-20000}
# a recording is bounded: 4 GiB at most per file
ulimit -f 8388608 2>/dev/null || true

say() { echo "filters: $*" >&2; }
evbytes() { cat "$1"/*.ev 2>/dev/null | wc -c; }

A="-O2 -falign-functions=64"
build_fibs $A

say "fib($FIB_N): $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"
PLAIN=$(tn "$RUNS" "" "$W/fib-plain")
echo "plain.min_ns $PLAIN"
for fe in fi pg fentry patch; do
	# the calls this build makes, from a full recording (two events each)
	calls=$(fib_calls "$fe")
	[ "$calls" -gt 0 ] || { say "$fe: no calls recorded"; continue; }
	own=$(tn "$RUNS" "rm -f gmon.out" "$W/fib-$fe")
	full=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d "$W/fib-$fe")
	ex=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d --hide '^fib$' "$W/fib-$fe")
	t1=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d -t 1us "$W/fib-$fe")
	echo "$fe.calls $calls"
	echo "$fe.full_ns_per_call $(calc "($full - $PLAIN) / $calls")"
	echo "$fe.t1us_ns_per_call $(calc "($t1 - $PLAIN) / $calls")"
	echo "$fe.excluded_ns_per_call $(calc "($ex - $PLAIN) / $calls")"
	echo "$fe.excluded_vs_plain $(calc "$ex / $PLAIN")"
	echo "$fe.excluded_ns_per_call_own $(calc "($ex - $own) / $calls")"
done
rm -rf "$W/d"

LUA=$BW/lua-fi/src/lua
if [ -x "$LUA" ]; then
	say "Lua: full recording and record -t 1us in turn, $RUNS rounds, bench/script.lua $LUA_N"
	echo "lua.load $(cut -d' ' -f1-3 /proc/loadavg)"
	: >"$W/lua.runs"
	for _i in $(seq "$RUNS"); do
		for m in full t1us; do
			o=
			[ $m = t1us ] && o="-t 1us"
			rm -rf "$W/d"
			# shellcheck disable=SC2086
			t 1 "" "$CT" record -q -d d $o "$LUA" "$HERE/script.lua" "$LUA_N" |
				awk -v m=$m '{ print m, $1, $3 }' >>"$W/lua.runs"
			[ $m = full ] && fb=$(evbytes "$W/d")
			[ $m = t1us ] && tb=$(evbytes "$W/d")
		done
	done
	# luastat MODE FIELD(2 wall, 3 cpu) min|med: in ns
	luastat() {
		awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$W/lua.runs" | sort -n |
			awk -v m="$3" '{ v[NR] = $1 } END { print NR ? (m == "min" ? v[1] : v[int((NR + 1) / 2)]) : 0 }'
	}
	for m in full t1us; do
		echo "lua.${m}_s $(calc "$(luastat $m 2 med) / 1e9")"
		echo "lua.${m}_min_s $(calc "$(luastat $m 2 min) / 1e9")"
		echo "lua.${m}_cpu_s $(calc "$(luastat $m 3 med) / 1e9")"
	done
	echo "lua.t1us_vs_full_wall $(calc "$(luastat t1us 2 med) / $(luastat full 2 med)")"
	echo "lua.t1us_vs_full_cpu $(calc "$(luastat t1us 3 med) / $(luastat full 3 med)")"
	echo "lua.full_bytes $fb"
	echo "lua.t1us_bytes $tb"
	echo "lua.bytes_ratio $(calc "$fb / ($tb > 0 ? $tb : 1)")"
	rm -rf "$W/d" "$W/lua.runs"
else
	say "no $LUA (sh bench/setup.sh builds it): no Lua figures"
fi
