#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/diff.sh: calltrace report --diff (two recordings compared) against
# report on one of them.  Measures, asserts nothing; the figures are in
# doc/performance.md ("report --diff").
#
#   sh bench/diff.sh              (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (its own
# files go to BENCH_WORK/diff; default bench/work), DIFF_FIB_N (fib(N)
# recorded, default 32: 7 M calls, 14 M events in each recording), RUNS
# (default 5), CC (default gcc).
#
# The two recordings are fib(N) built -O0 (base) and -O2 (new): before and
# after an optimisation, the same calls.  Each figure is the best wall time
# of RUNS runs of a whole process (open, symbols, every event read), as
# events per second of what it read:
#   events0, events1       events in each recording
#   report.mev_s           calltrace report -d BASE >/dev/null
#   diff.mev_s             calltrace report -d BASE --diff NEW >/dev/null,
#                          over the events of both
#   diff.vs_report         diff / report (the target is >= 1: the same speed)
#   *.cpu_mev_s            the same per second of CPU time (user + system,
#                          the least of RUNS): what a loaded machine
#                          disturbs less than the wall time
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=diff
. "$HERE/lib.sh"
N=${DIFF_FIB_N:-32}
RUNS=${RUNS:-5}
ulimit -f 8388608 2>/dev/null || true

say() { echo "diff: $*" >&2; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O0 -finstrument-functions -o "$W/fib-O0" "$HERE/fib.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-O2" "$HERE/fib.c" || exit 1
for b in O0 O2; do
	rm -rf "$W/$b.ct" "$W/$b.ct.old"
	(cd "$W" && "$CT" record -q -d "$W/$b.ct" "./fib-$b" "$N" >/dev/null 2>"$W/record.err") ||
		{ say "record failed: $(tail -1 "$W/record.err")"; exit 1; }
done
E0=$(sed -n 's/^events: //p' "$W/O0.ct/info")
E1=$(sed -n 's/^events: //p' "$W/O2.ct/info")
echo "fib_n $N"
echo "events0 $E0"
echo "events1 $E1"

# best KEY EVENTS CMD...: best wall ns of RUNS runs, then events per second
best() {
	_k=$1 _e=$2
	shift 2
	set -- $("$W/timeit" -n "$RUNS" -e "$W/$_k.err" -- "$@")
	if [ "${4:-1}" != 0 ]; then
		say "$_k: exit status ${4:-?}: $(tail -1 "$W/$_k.err")"
		return
	fi
	echo "$_k.time_ns $1"
	echo "$_k.mev_s $(calc "$_e / $1 * 1000")"
	echo "$_k.cpu_ns $5"
	echo "$_k.cpu_mev_s $(calc "$_e / $5 * 1000")"
	eval "T_$_k=$1"
}

best report "$E0" "$CT" report -d "$W/O0.ct"
best diff "$((E0 + E1))" "$CT" report -d "$W/O0.ct" --diff "$W/O2.ct"
[ -n "${T_report:-}" ] && [ -n "${T_diff:-}" ] &&
	echo "diff.vs_report $(calc "($E0 + $E1) / $T_diff / ($E0 / $T_report)")"
rm -rf "$W/O0.ct" "$W/O2.ct"
