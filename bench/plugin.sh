#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/plugin.sh: what record --plugin costs (doc/plugins.md;
# doc/performance.md, "Plugins").  Measures, asserts nothing.
#
#   sh bench/plugin.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), PLUGINS (default
# build/plugins, next to CALLTRACE's build), BENCH_WORK (default
# bench/work), FIB_N (default 34), RUNS (default 7), CC (default gcc),
# FRONTS (default "fi fentry pg patch"), BASE (another build's calltrace,
# e.g. of the branch point: its plain recording measured beside this one's).
#
# Every figure is a command's CPU time (user + system, of the program and
# record) less its own on fib(1), the best of RUNS, per fib call.  Output,
# "KEY VALUE":
#   <fe>.calls                  calls of fib(FIB_N) in that build
#   <fe>.full_ns_per_call       a plain recording, over the untraced build
#   <fe>.count_ns_per_call      record --plugin=count.so (every function)
#   <fe>.count_over_full_ns     the same less the plain recording: the
#                               call counter's cost per call (issue 15's
#                               target: at most 5)
#   <fe>.latency_over_full_ns   record --plugin=latency.so (every function,
#                               the struct callbacks at entry and exit: the
#                               full API's cost) less the plain recording
#   <fe>.one_ns_per_call        record --plugin=count.so --plugin-filter=^main$
#                               (fib's calls are not selected)
#   <fe>.one_over_full_ns       the same less the plain recording: what the
#                               calls a plugin does not select pay (target:
#                               within noise)
#   <fe>.base_full_ns_per_call  with BASE: BASE's plain recording (no plugin:
#                               the hot path must not have moved)
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=plugin
. "$HERE/lib.sh"
PL=${PLUGINS:-$(dirname "$CT")/plugins}
FIB_N=${FIB_N:-34}
RUNS=${RUNS:-7}
FRONTS=${FRONTS:-fi fentry pg patch}
ulimit -f 8388608 2>/dev/null || true

say() { echo "plugin: $*" >&2; }

[ -f "$PL/count.so" ] || { say "no $PL/count.so (make builds it)"; exit 1; }
A="-O2 -falign-functions=64"
build_fibs $A

say "fib($FIB_N): $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"
PLAIN=$(tn "$RUNS" "" "$W/fib-plain")
echo "plain.min_ns $PLAIN"
for fe in $FRONTS; do
	calls=$(fib_calls "$fe")
	[ "$calls" -gt 0 ] || { say "$fe: no calls recorded"; continue; }
	full=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d "$W/fib-$fe")
	[ -n "${BASE:-}" ] && base=$(tn "$RUNS" "rm -rf d" "$BASE" record -q -d d "$W/fib-$fe")
	cnt=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d --plugin="$PL/count.so:out=/dev/null" \
		"$W/fib-$fe")
	lat=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d --plugin="$PL/latency.so:out=/dev/null" \
		"$W/fib-$fe")
	one=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d --plugin="$PL/count.so:out=/dev/null" \
		--plugin-filter='^main$' "$W/fib-$fe")
	echo "$fe.calls $calls"
	echo "$fe.full_ns_per_call $(calc "($full - $PLAIN) / $calls")"
	echo "$fe.count_ns_per_call $(calc "($cnt - $PLAIN) / $calls")"
	echo "$fe.count_over_full_ns $(calc "($cnt - $full) / $calls")"
	echo "$fe.latency_over_full_ns $(calc "($lat - $full) / $calls")"
	echo "$fe.one_ns_per_call $(calc "($one - $PLAIN) / $calls")"
	echo "$fe.one_over_full_ns $(calc "($one - $full) / $calls")"
	[ -n "${BASE:-}" ] && echo "$fe.base_full_ns_per_call $(calc "($base - $PLAIN) / $calls")"
done
rm -rf "$W/d"
