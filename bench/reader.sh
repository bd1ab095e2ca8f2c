#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/reader.sh: the reading library's speed (doc/reader.md) against
# calltrace report's on the same recording, and the Python module's.
# Measures, asserts nothing; the figures are in doc/performance.md.
#
#   sh bench/reader.sh            (after make; called by bench/run.sh)
#
# Environment: CALLTRACE (default build/calltrace; the library is the
# libcalltrace-reader.so.0 beside it), BENCH_WORK (its own files go to
# BENCH_WORK/reader; default bench/work), READER_FIB_N (fib(N) recorded,
# default 30: 2.7 M calls), RUNS (default 5), CC (default gcc).
#
# Each figure is the best wall time of RUNS runs of a whole process (open,
# symbols, every event read), as events per second of the recording:
#   events                   events in the recording (2 per call)
#   report.mev_s             calltrace report -d D >/dev/null
#   capi.mev_s               bench/reader_walk threads: each thread in
#                            batches of ct_reader_read (the way report reads)
#   capi.vs_report           capi / report (the target is >= 0.8)
#   capi_merged.mev_s        all threads merged in time order
#   capi_next.mev_s          one ct_reader_next call per event
#   capi_corrected.mev_s     batches with the corrected times
#   python.mev_s             python3: a loop over Recording.records() (the
#                            fast path: one tuple per event)
#   python_events.mev_s      the same over Recording.events() (named tuples
#                            with names and arguments)
#   python_pairs.mev_s       examples/reader/pairs.py (caller -> callee counts)
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=reader
. "$HERE/lib.sh"
RLIB=$(dirname "$CT")/libcalltrace-reader.so.0
N=${READER_FIB_N:-30}
RUNS=${RUNS:-5}
ulimit -f 8388608 2>/dev/null || true

say() { echo "reader: $*" >&2; }

[ -f "$RLIB" ] || { say "$RLIB not built (make all)"; exit 1; }
$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1
$CC -O2 -Wall -I"$TOP/include" -o "$W/reader_walk" "$HERE/reader_walk.c" "$RLIB" \
	-Wl,-rpath,"$(dirname "$RLIB")" || exit 1
D=$W/fib.ct
rm -rf "$D" "$D.old"
(cd "$W" && "$CT" record -q -d "$D" ./fib-fi "$N" >/dev/null 2>"$W/record.err") ||
	{ say "record failed: $(tail -1 "$W/record.err")"; exit 1; }
EV=$("$W/reader_walk" threads "$D" | cut -d' ' -f1)
echo "fib_n $N"
echo "events $EV"

# best KEY CMD...: best wall ns of RUNS runs, then events per second
best() {
	_k=$1
	shift
	set -- $("$W/timeit" -n "$RUNS" -e "$W/$_k.err" -- "$@")
	if [ "${4:-1}" != 0 ]; then
		say "$_k: exit status ${4:-?}: $(tail -1 "$W/$_k.err")"
		return
	fi
	echo "$_k.time_ns $1"
	echo "$_k.mev_s $(calc "$EV / $1 * 1000")"
	eval "T_$(echo "$_k" | tr -c 'a-z0-9\n' _)=$1"
}

PY="env CALLTRACE_READER_LIB=$RLIB PYTHONPATH=$TOP/python python3"
best report "$CT" report -d "$D"
best capi "$W/reader_walk" threads "$D"
best capi_merged "$W/reader_walk" merged "$D"
best capi_next "$W/reader_walk" next "$D"
best capi_corrected "$W/reader_walk" corrected "$D"
[ -n "${T_report:-}" ] && [ -n "${T_capi:-}" ] && echo "capi.vs_report $(calc "$T_report / $T_capi")"
best python $PY -c 'import sys, calltrace
n = 0
for r in calltrace.Recording(sys.argv[1]).records():
    n += 1
print(n)' "$D"
best python_events $PY -c 'import sys, calltrace
n = 0
for e in calltrace.Recording(sys.argv[1]).events():
    n += 1
print(n)' "$D"
best python_pairs $PY "$TOP/examples/reader/pairs.py" "$D"
rm -rf "$D" "$D.old"
