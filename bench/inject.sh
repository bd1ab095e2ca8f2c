#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/inject.sh: what record --inject costs the calls it does not act on
# (doc/inject.md; doc/performance.md, "Fault injection").  Measures,
# asserts nothing.
#
#   sh bench/inject.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), FIB_N (default 34), RUNS (default 7), CC (default gcc),
# FRONTS (default "fi fentry pg patch"), BASE (another build's calltrace,
# e.g. of the branch point: its plain recording measured beside this one's).
#
# Every figure is a command's CPU time (user + system, of the program and
# record) less its own on fib(1), the best of RUNS, per fib call.  Output,
# "KEY VALUE":
#   <fe>.calls                  calls of fib(FIB_N) in that build
#   <fe>.full_ns_per_call       a plain recording, over the untraced build
#   <fe>.none_ns_per_call       record --inject='^main$@errno=EIO,nth=2': a
#                               rule on a function fib never calls
#   <fe>.none_over_full_ns      the same less the plain recording (issue
#                               15's target: no cost, within noise)
#   <fe>.never_ns_per_call      record --inject='^fib$@errno=EIO,nth=<huge>':
#                               a rule on fib whose selector never fires
#   <fe>.never_over_full_ns     the same less the plain recording: what a
#                               selected call pays for its rule
#   <fe>.base_full_ns_per_call  with BASE: BASE's plain recording (no rule:
#                               the hot path must not have moved)
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=inject
. "$HERE/lib.sh"
FIB_N=${FIB_N:-34}
RUNS=${RUNS:-7}
FRONTS=${FRONTS:-fi fentry pg patch}
ulimit -f 8388608 2>/dev/null || true

say() { echo "inject: $*" >&2; }

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
	none=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d --inject='^main$@errno=EIO,nth=2' \
		"$W/fib-$fe")
	never=$(tn "$RUNS" "rm -rf d" "$CT" record -q -d d \
		--inject='^fib$@errno=EIO,nth=1000000000000' "$W/fib-$fe")
	echo "$fe.calls $calls"
	echo "$fe.full_ns_per_call $(calc "($full - $PLAIN) / $calls")"
	echo "$fe.none_ns_per_call $(calc "($none - $PLAIN) / $calls")"
	echo "$fe.none_over_full_ns $(calc "($none - $full) / $calls")"
	echo "$fe.never_ns_per_call $(calc "($never - $PLAIN) / $calls")"
	echo "$fe.never_over_full_ns $(calc "($never - $full) / $calls")"
	[ -n "${BASE:-}" ] && echo "$fe.base_full_ns_per_call $(calc "($base - $PLAIN) / $calls")"
done
rm -rf "$W/d"
