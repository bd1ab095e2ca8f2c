#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/callsite.sh: record --callsite beside a plain recording (doc/
# performance.md, "Call sites").  Measures, asserts nothing.
#
#   sh bench/callsite.sh          (after make; called by bench/run.sh)
#
# fib(N) built with -finstrument-functions (fi) and with -pg -mfentry
# (fentry); for each, the untraced build, `record` and `record --callsite`
# are run in turn, RUNS rounds, so that the three see the same load on a
# shared machine; figures are medians of the rounds (and the best, _min).
# A per-call figure is the command's time less its time on fib(1), less the
# same for the untraced build, divided by the calls; the cost of --callsite
# is the difference of the two per-call figures.  It has two parts: the
# hooks' own (measured again with --flight, which writes nothing while the
# program runs: record --flight --callsite against record --flight) and
# record's, which drains 4 more bytes per call (fib's call sites are all
# near fib) into the event files.  Bytes per event: the
# event files' size over the events `info` counts, of one recording each
# (fib, and the Lua workload when bench/setup.sh built it: call sites of
# many callers, not only fib's recursion).
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work; its output goes to BENCH_WORK/callsite), FIB_N (default 33),
# RUNS (default 5), LUA_N (default 20000; SKIP_LUA=1: no Lua), LUA (the
# -finstrument-functions Lua, default BENCH_WORK/lua-fi/src/lua), CC (gcc).
#
# Output, "KEY VALUE" (F: fi or fentry):
#   fib.calls                       calls of fib(N)
#   F.ct.cpu_ns_per_call[_min]      record, CPU ns per call (user + system of
#                                   the program and record together)
#   F.cs.cpu_ns_per_call[_min]      record --callsite, the same
#   F.cs_minus_ct_cpu_ns[_min]      what --callsite adds per call, CPU
#   F.cs_minus_ct_wall_ns[_min]     ... and wall time
#   F.flight_cs_minus_ct_cpu_ns[_min]  the same with --flight: the hooks'
#                                   part alone (nothing drained)
#   fib.bytes_per_event, fib.cs_bytes_per_event     record, record --callsite
#   lua.bytes_per_event, lua.cs_bytes_per_event     (when Lua is built)
#   load.start, load.end            /proc/loadavg around the runs
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=callsite
. "$HERE/lib.sh"
FIB_N=${FIB_N:-33}
RUNS=${RUNS:-5}
LUA_N=${LUA_N:-20000}
# a recording is bounded: 4 GiB at most per file
ulimit -f 8388608 2>/dev/null || true

say() { echo "callsite: $*" >&2; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1
$CC -O2 -pg -mfentry -o "$W/fib-fentry" "$HERE/fib.c" || exit 1

echo "load.start $(cut -d' ' -f1-3 /proc/loadavg)"

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
# per KEY FIELD STAT: ns per call of KEY over the untraced build
per() {
	_x=$(($(stat "$1.big" "$2" "$3") - $(stat "$1.small" "$2" "$3")))
	_b=$(($(stat plain.big "$2" "$3") - $(stat plain.small "$2" "$3")))
	calc "($_x - $_b) / $calls"
}

# fib(N) makes 2*F(N+1)-1 calls, main one more
calls=$(awk -v n="$FIB_N" 'BEGIN { a = 0; b = 1; for (i = 0; i <= n; i++) { t = a + b; a = b; b = t }; print 2 * a }')
echo "fib.calls $calls"
for fe in fi fentry; do
	: >"$W/runs"
	say "$fe: $RUNS rounds of untraced, record, record --callsite, the two with --flight; load $(cut -d' ' -f1-3 /proc/loadavg)"
	for _i in $(seq "$RUNS"); do
		one plain.small "$W/fib-$fe" 1
		one ct.small "$CT" record -q -d d "$W/fib-$fe" 1
		one cs.small "$CT" record -q --callsite -d d "$W/fib-$fe" 1
		one flct.small "$CT" record -q --flight -d d "$W/fib-$fe" 1
		one flcs.small "$CT" record -q --flight --callsite -d d "$W/fib-$fe" 1
		one plain.big "$W/fib-$fe" "$FIB_N"
		one ct.big "$CT" record -q -d d "$W/fib-$fe" "$FIB_N"
		one cs.big "$CT" record -q --callsite -d d "$W/fib-$fe" "$FIB_N"
		one flct.big "$CT" record -q --flight -d d "$W/fib-$fe" "$FIB_N"
		one flcs.big "$CT" record -q --flight --callsite -d d "$W/fib-$fe" "$FIB_N"
	done
	for s in med min; do
		sfx=
		[ $s = min ] && sfx=_min
		ct=$(per ct 3 $s) cs=$(per cs 3 $s)
		echo "$fe.ct.cpu_ns_per_call$sfx $ct"
		echo "$fe.cs.cpu_ns_per_call$sfx $cs"
		echo "$fe.cs_minus_ct_cpu_ns$sfx $(calc "$cs - $ct")"
		echo "$fe.cs_minus_ct_wall_ns$sfx $(calc "$(per cs 2 $s) - $(per ct 2 $s)")"
		echo "$fe.flight_cs_minus_ct_cpu_ns$sfx $(calc "$(per flcs 3 $s) - $(per flct 3 $s)")"
	done
done

# bpe KEY CMD...: bytes per event of one recording of CMD
bpe() {
	_k=$1
	shift
	rm -rf "$W/d" "$W/d.old"
	(cd "$W" && "$@" >/dev/null 2>&1)
	_ev=$(sed -n 's/^events: //p' "$W/d/info" 2>/dev/null)
	_b=$(cat "$W"/d/*.ev 2>/dev/null | wc -c)
	[ "${_ev:-0}" -gt 0 ] && echo "$_k $(calc "$_b / $_ev")"
}
bpe fib.bytes_per_event "$CT" record -q -d d "$W/fib-fi" 25
bpe fib.cs_bytes_per_event "$CT" record -q --callsite -d d "$W/fib-fi" 25
LUA=${LUA:-$BW/lua-fi/src/lua}
if [ "${SKIP_LUA:-0}" = 1 ]; then
	say "SKIP_LUA=1: no Lua figures"
elif [ -x "$LUA" ]; then
	bpe lua.bytes_per_event "$CT" record -q -d d "$LUA" "$HERE/script.lua" "$LUA_N"
	bpe lua.cs_bytes_per_event "$CT" record -q --callsite -d d "$LUA" "$HERE/script.lua" "$LUA_N"
else
	say "no $LUA (sh bench/setup.sh builds it): no Lua figures"
fi
rm -rf "$W/d" "$W/d.old" "$W/runs"
echo "load.end $(cut -d' ' -f1-3 /proc/loadavg)"
