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
# Output: one line per figure, "KEY VALUE", and a table on stderr.
#   <fe>.ns_per_call        (traced - plain build untraced) / calls
#   <fe>.ns_per_call_own    (traced - the same build untraced) / calls
#   patch.untraced_vs_plain (min and median) patchable build untraced / plain
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
W=${BENCH_WORK:-$HERE/work}/frontends
mkdir -p "$W" && W=$(cd "$W" && pwd)
CT=${CALLTRACE:-$TOP/build/calltrace}
case $CT in /*) ;; *) CT=$TOP/$CT ;; esac
FIB_N=${FIB_N:-30}
RUNS=${RUNS:-7}
PRUNS=${PRUNS:-21}
CC=${CC:-gcc}
[ "$CC" = cc ] && CC=gcc

say() { echo "frontends: $*" >&2; }
calc() { awk "BEGIN { printf \"%.4g\", $1 }"; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -o "$W/fib-plain" "$HERE/fib.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1
$CC -O2 -pg -o "$W/fib-pg" "$HERE/fib.c" || exit 1
$CC -O2 -pg -mfentry -o "$W/fib-fentry" "$HERE/fib.c" || exit 1
$CC -O2 -fpatchable-function-entry=5 -o "$W/fib-patch" "$HERE/fib.c" || exit 1

# fib(N) makes 2*F(N+1)-1 calls, main one more
CALLS=$(awk -v n="$FIB_N" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; i++) { t = a + b; a = b; b = t } print 2 * a - 1 + 1 }')
say "fib($FIB_N): $CALLS calls; $RUNS runs each (min taken); load $(cut -d' ' -f1-3 /proc/loadavg)"

# t NAME RUNS PREP CMD...: "min median" wall ns
t() {
	_n=$2 _p=$3
	shift 3
	(cd "$W" && "$W/timeit" -n "$_n" ${_p:+-p "$_p"} -- "$@") | awk '{ print $1, $2 }'
}

set -- $(t plain "$PRUNS" "" "$W/fib-plain" "$FIB_N"); PLAIN=$1 PLAIN_MED=$2
echo "plain.min_ns $PLAIN"
for fe in fi pg fentry patch; do
	set -- $(t "$fe" "$RUNS" "rm -f gmon.out" "$W/fib-$fe" "$FIB_N"); own=$1
	set -- $(t "$fe" "$RUNS" "rm -rf d" "$CT" record -d d "$W/fib-$fe" "$FIB_N"); tr=$1
	echo "$fe.untraced_min_ns $own"
	echo "$fe.traced_min_ns $tr"
	echo "$fe.ns_per_call $(calc "($tr - $PLAIN) / $CALLS")"
	echo "$fe.ns_per_call_own $(calc "($tr - $own) / $CALLS")"
done
# the patchable build without tracing against the plain build: interleave
# the runs so that a change of load hits both alike
set -- $(t patch "$PRUNS" "" "$W/fib-patch" "$FIB_N"); PMIN=$1 PMED=$2
set -- $(t plain "$PRUNS" "" "$W/fib-plain" "$FIB_N"); PLAIN2=$1 PLAIN2_MED=$2
[ "$PLAIN2" -lt "$PLAIN" ] && PLAIN=$PLAIN2
[ "$PLAIN2_MED" -lt "$PLAIN_MED" ] && PLAIN_MED=$PLAIN2_MED
echo "patch.untraced_vs_plain_min $(calc "$PMIN / $PLAIN")"
echo "patch.untraced_vs_plain_median $(calc "$PMED / $PLAIN_MED")"
rm -rf "$W/d"
