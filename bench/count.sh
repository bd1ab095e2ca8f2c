#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/count.sh: what record --count costs per call, beside gprof's -pg
# counting and a full recording, measured in the same run (doc/record.md,
# "Counting mode"; doc/performance.md).  Measures, asserts nothing.
#
#   sh bench/count.sh              (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), FIB_N (default 33), RUNS (default 7), CC (default gcc),
# LUA_N (default 20000), LUA_WORK (where bench/setup.sh built Lua: default
# BENCH_WORK).
#
# Every figure is CPU time (user + system, of the program and of record),
# the minimum of RUNS runs, less the same command's on fib(1) (process and
# record start-up), divided by the calls that build of fib(FIB_N) makes, as
# record --count counts them (gcc turns one of fib's two recursive calls
# into a loop in the -pg, -mfentry and patchable builds: half the calls):
#   <fe>.calls                 calls of the build fe: fi (-finstrument-
#                              functions), pg, fentry (-pg -mfentry), patch
#                              (-fpatchable-function-entry=5)
#   plain.ms                   the plain build, untraced (fib's own work)
#   gprof.ns_per_call          the -pg build run untraced: glibc's mcount
#                              counting arcs (gmon.out written at exit)
#   count.<fe>.ns_per_call     record --count of the build fe
#   full.<fe>.ns_per_call      a full recording of the same build
#   gprof.over_plain_ns, count.<fe>.over_plain_ns
#                              the same less the plain build's time, per call
#   lua.*                      the same on Lua 5.4 running bench/script.lua
#                              LUA_N (less its run on 1), when bench/setup.sh
#                              built it: lua.{fi,pg}.calls, lua.plain.ms,
#                              lua.gprof.ns_per_call, lua.count.{fi,pg}.ns_per_call,
#                              lua.full.fi.ns_per_call, and the over_plain_ns
#                              of each; lua.count.fi.over_hooks_ns: over the
#                              -finstrument-functions build run with glibc's
#                              empty hooks
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=count
. "$HERE/lib.sh"
FIB_N=${FIB_N:-33}
RUNS=${RUNS:-7}
LUA_N=${LUA_N:-20000}
BW=${LUA_WORK:-$BW}
# a recording is bounded: 4 GiB at most per file
ulimit -f 8388608 2>/dev/null || true

say() { echo "count: $*" >&2; }

A="-O2 -falign-functions=64"
build_fibs $A

# tn PREP CMD...: the min CPU time of CMD FIB_N less that of CMD 1, in ns
tn() {
	_p=$1
	shift
	_a=$(cd "$W" && "$W/timeit" -n "$RUNS" ${_p:+-p "$_p"} -- "$@" "$FIB_N" | awk '{ print $5 }')
	_b=$(cd "$W" && "$W/timeit" -n "$RUNS" ${_p:+-p "$_p"} -- "$@" 1 | awk '{ print $5 }')
	echo $((_a - _b))
}

# calls_of FE: the calls of that build, as record --count counts them
calls_of() {
	rm -rf "$W/d"
	"$CT" record -q --count -d "$W/d" "$W/fib-$1" "$FIB_N" >/dev/null 2>&1
	sed -n 's/^counted_calls: //p' "$W/d/info"
}

say "fib($FIB_N): $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"
PLAIN=$(tn "" "$W/fib-plain")
echo "plain.ms $(calc "$PLAIN / 1e6")"
PGCALLS=$(calls_of pg)
[ "${PGCALLS:-0}" -gt 0 ] || { say "record --count counted no call"; exit 1; }
GPROF=$(tn "rm -f gmon.out" "$W/fib-pg")
echo "gprof.ns_per_call $(calc "$GPROF / $PGCALLS")"
echo "gprof.over_plain_ns $(calc "($GPROF - $PLAIN) / $PGCALLS")"
for fe in fi pg fentry patch; do
	n=$(calls_of $fe)
	[ "${n:-0}" -gt 0 ] || { say "$fe: record --count counted no call"; continue; }
	echo "$fe.calls $n"
	c=$(tn "rm -rf d" "$CT" record -q --count -d d "$W/fib-$fe")
	f=$(tn "rm -rf d" "$CT" record -q -d d "$W/fib-$fe")
	echo "count.$fe.ns_per_call $(calc "$c / $n")"
	echo "count.$fe.over_plain_ns $(calc "($c - $PLAIN) / $n")"
	echo "full.$fe.ns_per_call $(calc "$f / $n")"
done

LUA=$BW/lua-fi/src/lua
if [ -x "$LUA" ] && [ -x "$BW/lua-pg/src/lua" ] && [ -x "$BW/lua-plain/src/lua" ]; then
	say "Lua: bench/script.lua $LUA_N, plain, gprof, record --count, full"
	# tl PREP CMD...: the min CPU time of CMD script.lua LUA_N less that
	# of CMD script.lua 1, in ns
	tl() {
		_p=$1
		shift
		_a=$(cd "$W" && "$W/timeit" -n "$RUNS" -p "$_p" -- "$@" "$HERE/script.lua" "$LUA_N" | awk '{ print $5 }')
		_b=$(cd "$W" && "$W/timeit" -n "$RUNS" -p "$_p" -- "$@" "$HERE/script.lua" 1 | awk '{ print $5 }')
		echo $((_a - _b))
	}
	lcalls() {
		rm -rf "$W/d"
		"$CT" record -q --count -d "$W/d" "$BW/lua-$1/src/lua" "$HERE/script.lua" "$LUA_N" >/dev/null 2>&1
		sed -n 's/^counted_calls: //p' "$W/d/info"
	}
	nfi=$(lcalls fi)
	npg=$(lcalls pg)
	if [ "${nfi:-0}" -gt 0 ] && [ "${npg:-0}" -gt 0 ]; then
		echo "lua.fi.calls $nfi"
		echo "lua.pg.calls $npg"
		lp=$(tl "rm -rf d" "$BW/lua-plain/src/lua")
		echo "lua.plain.ms $(calc "$lp / 1e6")"
		lh=$(tl "rm -rf d" "$BW/lua-fi/src/lua")
		lg=$(tl "rm -f gmon.out" "$BW/lua-pg/src/lua")
		echo "lua.gprof.ns_per_call $(calc "$lg / $npg")"
		echo "lua.gprof.over_plain_ns $(calc "($lg - $lp) / $npg")"
		c=$(tl "rm -rf d" "$CT" record -q --count -d d "$BW/lua-fi/src/lua")
		echo "lua.count.fi.ns_per_call $(calc "$c / $nfi")"
		echo "lua.count.fi.over_plain_ns $(calc "($c - $lp) / $nfi")"
		echo "lua.count.fi.over_hooks_ns $(calc "($c - $lh) / $nfi")"
		c=$(tl "rm -rf d" "$CT" record -q --count -d d "$BW/lua-pg/src/lua")
		echo "lua.count.pg.ns_per_call $(calc "$c / $npg")"
		echo "lua.count.pg.over_plain_ns $(calc "($c - $lp) / $npg")"
		f=$(tl "rm -rf d" "$CT" record -q -d d "$BW/lua-fi/src/lua")
		echo "lua.full.fi.ns_per_call $(calc "$f / $nfi")"
	else
		say "Lua: record --count counted no call"
	fi
else
	say "no Lua builds in $BW (sh bench/setup.sh builds them): no Lua figures"
fi
rm -rf "$W/d" "$W/gmon.out"
