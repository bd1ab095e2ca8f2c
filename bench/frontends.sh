#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/frontends.sh: the cost of a traced call with each instrumentation
# front end (doc/frontends.md), and of a -fpatchable-function-entry build
# run without tracing.  Measures, asserts nothing.  Figures are in
# doc/performance.md.
#
#   sh bench/frontends.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), FIB_N (default 30), RUNS (traced runs, default 7), PRUNS
# (untraced runs for the 2% comparison, default 21), CC (default gcc).
#
# Output: one line per figure, "KEY VALUE" (fe: fi = -finstrument-functions,
# pg, fentry = -pg -mfentry, patch = -fpatchable-function-entry=5):
#   <fe>.ns_per_call        (traced - plain build untraced) / calls, wall
#   <fe>.ns_per_call_own    (traced - the same build untraced) / calls, wall
#   <fe>.cpu_ns_per_call    the same as ns_per_call from CPU time (user +
#                           system of the program and record), which other
#                           load on the machine disturbs less
#   patch.untraced_vs_plain_{min,median}  patchable build untraced / plain
#                           build, wall time of fib(PFIB_N) (default 36),
#                           both built with -falign-functions=64: fib's
#                           calls are so short that where the compiler
#                           happens to place the function moves its time by
#                           ±5 % (the =5,5 layout, whose nops are never run,
#                           came out 4.5 % slower than plain at the default
#                           alignment, and 1-3 % faster at 64)
#   patch.untraced_vs_plain_default_{min,median}  the same at the default
#                           alignment
#   patch.lua_untraced_vs_plain_{min,median}  the Lua interpreter built
#                           with and without -fpatchable-function-entry=5
#                           (bench/setup.sh), bench/script.lua LUA_PN
#                           (default 100000); only when bench/setup.sh
#                           has built it in BENCH_WORK
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=frontends
. "$HERE/lib.sh"
FIB_N=${FIB_N:-30}
PFIB_N=${PFIB_N:-36}
RUNS=${RUNS:-7}
PRUNS=${PRUNS:-21}

say() { echo "frontends: $*" >&2; }

build_fibs -O2
$CC -O2 -falign-functions=64 -o "$W/fib-plain-a64" "$HERE/fib.c" || exit 1
$CC -O2 -falign-functions=64 -fpatchable-function-entry=5 -o "$W/fib-patch-a64" "$HERE/fib.c" || exit 1

say "fib($FIB_N): $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"

set -- $(t "$PRUNS" "" "$W/fib-plain" "$FIB_N"); PLAIN=$1 PLAIN_CPU=$3
echo "plain.min_ns $PLAIN"
for fe in fi pg fentry patch; do
	set -- $(t "$RUNS" "rm -f gmon.out" "$W/fib-$fe" "$FIB_N"); own=$1
	set -- $(t "$RUNS" "rm -rf d" "$CT" record -d d "$W/fib-$fe" "$FIB_N"); tr=$1 trc=$3
	# the calls this build makes (gcc -O2 turns one of fib's two recursive
	# calls into a loop unless -finstrument-functions' hooks are in the
	# way): counted in the recording, two events per call
	CALLS=$(cd "$W" && "$CT" info -d d | awk '/^events:/ { print $2 / 2 }')
	echo "$fe.calls $CALLS"
	echo "$fe.untraced_min_ns $own"
	echo "$fe.traced_min_ns $tr"
	echo "$fe.ns_per_call $(calc "($tr - $PLAIN) / $CALLS")"
	echo "$fe.ns_per_call_own $(calc "($tr - $own) / $CALLS")"
	echo "$fe.cpu_ns_per_call $(calc "($trc - $PLAIN_CPU) / $CALLS")"
done
# the patchable build without tracing against the plain build, on a longer
# run; alternate the two so that a change of load hits both alike
# ratio NAME PLAIN PATCH ARGS...: NAME_min, NAME_median (and the minimums)
ratio() {
	_n=$1 _b=$2 _p=$3
	shift 3
	_a=$* # the program's arguments (no spaces in them)
	PMIN= PMED= BMIN= BMED=
	for i in 1 2 3; do
		# shellcheck disable=SC2086
		set -- $(t "$PRUNS" "" "$_p" $_a)
		{ [ -z "$PMIN" ] || [ "$1" -lt "$PMIN" ]; } && PMIN=$1
		{ [ -z "$PMED" ] || [ "$2" -lt "$PMED" ]; } && PMED=$2
		# shellcheck disable=SC2086
		set -- $(t "$PRUNS" "" "$_b" $_a)
		{ [ -z "$BMIN" ] || [ "$1" -lt "$BMIN" ]; } && BMIN=$1
		{ [ -z "$BMED" ] || [ "$2" -lt "$BMED" ]; } && BMED=$2
	done
	echo "${_n}_min $(calc "$PMIN / $BMIN")"
	echo "${_n}_median $(calc "$PMED / $BMED")"
}
ratio patch.untraced_vs_plain "$W/fib-plain-a64" "$W/fib-patch-a64" "$PFIB_N"
ratio patch.untraced_vs_plain_default "$W/fib-plain" "$W/fib-patch" "$PFIB_N"
LUAW=${BENCH_WORK:-$HERE/work}
if [ -x "$LUAW/lua-patch/src/lua" ] && [ -x "$LUAW/lua-plain/src/lua" ]; then
	ratio patch.lua_untraced_vs_plain "$LUAW/lua-plain/src/lua" "$LUAW/lua-patch/src/lua" \
		"$HERE/script.lua" "${LUA_PN:-100000}"
fi
rm -rf "$W/d"
