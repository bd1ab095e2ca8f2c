#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/libcall.sh: the cost of a traced library call (doc/libcall.md), and
# the Lua workload with library calls on.  Measures, asserts nothing.
# Figures are in doc/performance.md.
#
#   sh bench/libcall.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (its own
# files go to BENCH_WORK/libcall; default bench/work), LUA_WORK (where
# bench/setup.sh built Lua; default BENCH_WORK), LOOP_N (calls per loop,
# default 20000000), LUA_N (bench/script.lua's argument, default 20000),
# RUNS (default 5), CC (default gcc).
#
# Output: one line per figure, "KEY VALUE":
#   <what>.ns_per_call    strlen, memcpy: (recorded with library calls -
#                         recorded with --no-libcall) / LOOP_N, wall, best
#                         of RUNS: what a traced library call adds; own: a
#                         traced call of the program's own function, built
#                         -O2 -pg -mfentry, less the same loop built without
#                         -pg ((recorded - plain) / LOOP_N): what tracing
#                         adds to a call, the hooked front ends' cost
#   <what>.cpu_ns_per_call  the same from CPU time
#   own.gprof_ns_per_call  the -pg -mfentry loop run untraced, less the plain
#                         one, per call: not a cost of calltrace but of
#                         gprof, which such a build runs when no tracer is
#                         there (gcrt1.o starts it, the program writes
#                         gmon.out); the "own" figure used to be measured
#                         over this build, which left those ns out
#   lua.{plain,libcall,nolibcall,uftrace}_ms  Lua (bench/script.lua LUA_N):
#                         untraced; lua-fi recorded (library calls on, the
#                         default); with --no-libcall; uftrace record of
#                         lua-pg, its default (which traces library calls)
#   lua.{libcall,nolibcall,uftrace}_slowdown  those over plain
#   lua.libcalls          the library calls in the recording
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=libcall
. "$HERE/lib.sh"
LUAW=${LUA_WORK:-$BW}
LOOP_N=${LOOP_N:-20000000}
LUA_N=${LUA_N:-20000}
RUNS=${RUNS:-5}

say() { echo "libcall: $*" >&2; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -pg -mfentry -o "$W/loop" "$HERE/libcall_loop.c" || exit 1
$CC -O2 -o "$W/loop-plain" "$HERE/libcall_loop.c" || exit 1

# t CMD...: "min_wall median_wall min_cpu" ns (recordings to $W/d, removed)
t() {
	(cd "$W" && "$W/timeit" -n "$RUNS" -p "rm -rf d d.old" -- "$@") | awk '{ print $1, $2, $5 }'
}

say "loops of $LOOP_N calls, $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"
# the loop built without -pg, for the program's own calls (the -pg build
# run untraced is gprof's: see own.gprof_ns_per_call)
set -- $(t "$W/loop-plain" own "$LOOP_N"); PLAIN=$1 PLAIN_CPU=$3
set -- $(t "$W/loop" own "$LOOP_N"); gp=$1
rm -f "$W/gmon.out"
set -- $(t "$CT" record -d d --no-libcall "$W/loop" own "$LOOP_N"); tr=$1 trc=$3
echo "own.ns_per_call $(calc "($tr - $PLAIN) / $LOOP_N")"
echo "own.cpu_ns_per_call $(calc "($trc - $PLAIN_CPU) / $LOOP_N")"
echo "own.gprof_ns_per_call $(calc "($gp - $PLAIN) / $LOOP_N")"
for what in strlen memcpy; do
	set -- $(t "$CT" record -d d --no-libcall "$W/loop" $what "$LOOP_N"); off=$1 offc=$3
	set -- $(t "$CT" record -d d "$W/loop" $what "$LOOP_N"); on=$1 onc=$3
	echo "$what.ns_per_call $(calc "($on - $off) / $LOOP_N")"
	echo "$what.cpu_ns_per_call $(calc "($onc - $offc) / $LOOP_N")"
done
# the calls recorded, to check the loop made them
(cd "$W" && rm -rf d && "$CT" record -q -d d "$W/loop" strlen 1000 >/dev/null 2>&1 &&
	"$CT" report -d d --format=csv | awk -F, '$1 == "strlen@libc.so.6" { print "strlen.calls_in_1000", $2 }')

if [ -x "$LUAW/lua-fi/src/lua" ] && [ -x "$LUAW/lua-plain/src/lua" ]; then
	say "Lua: bench/script.lua $LUA_N"
	set -- $(t "$LUAW/lua-plain/src/lua" "$HERE/script.lua" "$LUA_N"); plain=$1
	set -- $(t "$CT" record -d d "$LUAW/lua-fi/src/lua" "$HERE/script.lua" "$LUA_N"); on=$1
	set -- $(t "$CT" record -d d --no-libcall "$LUAW/lua-fi/src/lua" "$HERE/script.lua" "$LUA_N"); off=$1
	echo "lua.plain_ms $(calc "$plain / 1e6")"
	echo "lua.libcall_ms $(calc "$on / 1e6")"
	echo "lua.nolibcall_ms $(calc "$off / 1e6")"
	echo "lua.libcall_slowdown $(calc "$on / $plain")"
	echo "lua.nolibcall_slowdown $(calc "$off / $plain")"
	(cd "$W" && rm -rf d && "$CT" record -q -d d "$LUAW/lua-fi/src/lua" "$HERE/script.lua" "$LUA_N" >/dev/null 2>&1 &&
		"$CT" report -d d --format=csv | awk -F, '$1 ~ /@/ { n += $2 } END { print "lua.libcalls", n + 0 }')
	if command -v uftrace >/dev/null 2>&1 && [ -x "$LUAW/lua-pg/src/lua" ]; then
		set -- $(cd "$W" && "$W/timeit" -n "$RUNS" -p "rm -rf uftrace.data" -- uftrace record "$LUAW/lua-pg/src/lua" "$HERE/script.lua" "$LUA_N" | awk '{ print $1 }')
		echo "lua.uftrace_ms $(calc "$1 / 1e6")"
		echo "lua.uftrace_slowdown $(calc "$1 / $plain")"
		rm -rf "$W/uftrace.data"
	fi
fi
rm -rf "$W/d" "$W/d.old"
