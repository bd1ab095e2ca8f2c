#!/bin/sh
# bench/run.sh: calltrace's benchmark (`make bench`).  Measures, nothing is
# asserted.  See doc/performance.md for what each figure means.
#
# Environment (all optional):
#   CALLTRACE    the calltrace command        (default build/calltrace)
#   BENCH_WORK   where everything is built    (default bench/work)
#   FIB_N        fib(N) for the fib workload  (default 33)
#   FIB_AN       fib(N) recorded for replay/report throughput (default 29)
#   FIB_SMALL    fib(N), small recording of the memory figure (default 25)
#   FIB_BIG      fib(N), big recording of the memory figure (default 32)
#   LUA_N        argument of bench/script.lua (default 20000)
#   LUA_AN       its argument for the replay/report recording (default 5000)
#   RUNS         runs per program, best taken (default 5)
#   ARUNS        runs per replay/report, best taken (default 3)
#   SKIP_LUA=1   skip the Lua workload
#   SKIP_LEVELDB=1  skip leveldb's db_bench (built once, a few minutes)
#   SQLITE_N     rows the sqlite3 shell loads for record -a (default 20000)
#   ACC_FIB_N    fib(N) of the accuracy figure (default 30; bench/accuracy.sh)
# The counting mode's figures (record --count beside gprof): bench/count.sh.
# The reading library's (C API and Python beside report): bench/reader.sh.
# report --diff's (two recordings beside report on one): bench/diff.sh.
# Plugins' (record --plugin): bench/plugin.sh.
# Call sites' (record --callsite beside record): bench/callsite.sh.
# Sampling's (record --count --sample against perf): bench/sample.sh, its
# tables in logs/sample.txt.
# Off-CPU time's (record --sched, a sleep+spin call against 50/50):
# bench/offcpu.sh, its table in logs/offcpu.txt.
# Fault injection's (record --inject): bench/inject.sh.
HERE=$(cd "$(dirname "$0")" && pwd)
CALC_DIGITS=6
SUB=
. "$HERE/lib.sh"
FIB_N=${FIB_N:-33}
FIB_AN=${FIB_AN:-29}
FIB_SMALL=${FIB_SMALL:-25}
FIB_BIG=${FIB_BIG:-32}
LUA_N=${LUA_N:-20000}
LUA_AN=${LUA_AN:-5000}
RUNS=${RUNS:-5}
ARUNS=${ARUNS:-3}

KV=$W/results.kv
LOGS=$W/logs
DATA=$W/data
RUN=$W/run
BIN=$W/bin
rm -rf "$LOGS" "$DATA" "$RUN"
mkdir -p "$LOGS" "$DATA" "$RUN" "$BIN"
: >"$KV"
T0=$(date +%s)

say() { echo "bench: $*" >&2; }
put() { printf '%s\t%s\n' "$1" "$2" >>"$KV"; }
get() { awk -F'\t' -v k="$1" '$1 == k { v = $2 } END { print v }' "$KV"; }
isnum() { case ${1:-x} in '' | *[!0-9.e+-]*) return 1 ;; *) return 0 ;; esac; }
sumsize() { # files... -> total bytes (0 if none)
	for f in "$@"; do [ -f "$f" ] && stat -c %s "$f"; done | awk '{ s += $1 } END { print s + 0 }'
}

# ---------------------------------------------------------------- machine
UFTRACE=$(command -v uftrace || true)
put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.nproc "$(nproc)"
put meta.cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
put meta.kernel "$(uname -sr)"
put meta.gcc "$($CC --version | head -1)"
put meta.uftrace "$([ -n "$UFTRACE" ] && uftrace --version 2>&1 | head -1 || echo 'not installed')"
if [ -x "$CT" ]; then put meta.calltrace "$("$CT" --version 2>&1 | head -1)"; else put meta.calltrace "not built ($CT)"; fi
put meta.runs "$RUNS"
put meta.aruns "$ARUNS"
put meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
if ! command -v /usr/bin/time >/dev/null 2>&1; then
	say "/usr/bin/time missing: installing package time"
	apt-get install -y -q time >/dev/null 2>&1 || say "could not install time"
fi

# ---------------------------------------------------------------- tools
say "building the benchmark tools in $BIN"
$CC -O2 -Wall -o "$BIN/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -Wall -o "$BIN/tsc" "$HERE/tsc.c" || exit 1
$CC -O2 -o "$BIN/fib" "$HERE/fib.c" || exit 1
$CC -O2 -finstrument-functions -o "$BIN/fib-fi" "$HERE/fib.c" || exit 1
$CC -O2 -pg -o "$BIN/fib-pg" "$HERE/fib.c" || exit 1
TIMEIT=$BIN/timeit

say "micro: reading the TSC"
"$BIN/tsc" 10000000 >"$LOGS/tsc.txt"
while read -r k v; do put "micro.$k" "$v"; done <"$LOGS/tsc.txt"

# ---------------------------------------------------------------- helpers
# measure KEY RUNS PREP CMD...: best wall time of RUNS runs of CMD (cwd $RUN)
measure() {
	_k=$1 _n=$2 _p=$3
	shift 3
	_r=$(cd "$RUN" && "$TIMEIT" -n "$_n" ${_p:+-p "$_p"} -e "$LOGS/$_k.err" -- "$@")
	set -- $_r
	put "$_k.time_ns" "${1:-}"
	put "$_k.median_ns" "${2:-}"
	put "$_k.cpu_ns" "${5:-}"
	put "$_k.status" "${4:-1}"
	[ "${4:-1}" = 0 ] || say "$_k: exit status ${4:-?} (see $LOGS/$_k.err)"
}

# analyse KEY EVENTS CMD...: best of ARUNS runs, stdout to /dev/null,
# peak RSS from /usr/bin/time -f %M, throughput from EVENTS
analyse() {
	_k=$1 _ev=$2
	shift 2
	rm -f "$LOGS/$_k.rss"
	_r=$(cd "$RUN" && "$TIMEIT" -n "$ARUNS" -e "$LOGS/$_k.err" -- \
		/usr/bin/time -f %M -a -o "$LOGS/$_k.rss" "$@")
	set -- $_r
	put "$_k.time_ns" "${1:-}"
	put "$_k.cpu_ns" "${5:-}"
	put "$_k.status" "${4:-1}"
	put "$_k.rss_kb" "$(awk '$1 ~ /^[0-9]+$/ && $1 > m { m = $1 } END { print m + 0 }' "$LOGS/$_k.rss" 2>/dev/null)"
	put "$_k.events" "$_ev"
	if [ "${4:-1}" = 0 ] && isnum "$_ev" && [ "$_ev" -gt 0 ]; then
		put "$_k.mevents_per_s" "$(calc "$_ev / $1 * 1000")"
	else
		[ "${4:-1}" = 0 ] || say "$_k: exit status ${4:-?} (see $LOGS/$_k.err)"
	fi
}

# rss KEY CMD...: one run under /usr/bin/time -f %M
rss() {
	_k=$1
	shift
	(cd "$RUN" && /usr/bin/time -f %M -o "$LOGS/$_k.rss" "$@" >/dev/null 2>"$LOGS/$_k.err") &&
		put "$_k.rss_kb" "$(tail -1 "$LOGS/$_k.rss")" ||
		put "$_k.rss_kb" "fail"
}

# calls made by fib-fi N: fib(N) makes 2*F(N+1)-1 calls, main one more
fibcalls() { awk -v n="$1" 'BEGIN { a = 0; b = 1; for (i = 0; i <= n; i++) { t = a + b; a = b; b = t }; print 2 * a }'; }

# calls in a calltrace recording: sum of the "calls" column of the CSV report
ct_calls() {
	"$CT" report -d "$1" --format=csv 2>>"$LOGS/ct-count.err" | awk -F, '
		!col { for (i = 1; i <= NF; i++) { f = tolower($i); gsub(/[" ]/, "", f)
			if (f == "calls") col = i }; h = NF; next }
		# counted from the right: a quoted C++ name may hold commas
		{ v = $(NF - (h - col)); gsub(/[" ]/, "", v); if (v ~ /^[0-9]+$/) s += v }
		END { if (col) print s + 0 }'
}
# calls in a uftrace recording: sum of the Calls column of `uftrace report`
uf_calls_of() { # report-output-file
	awk '/^ *=+/ { body = 1; next } body && $5 ~ /^[0-9]+$/ && $6 !~ /^linux:/ { s += $5 } END { if (body) print s + 0 }' "$1"
}

# does calltrace record work at all?  (a tiny run; the reason is printed)
CT_OK=0
if [ ! -x "$CT" ]; then
	CT_WHY="$CT not built"
elif (cd "$RUN" && "$CT" record -d "$DATA/probe.ct" "$BIN/fib-fi" 5 >"$LOGS/probe.out" 2>"$LOGS/probe.err"); then
	CT_OK=1
	CT_WHY=""
else
	CT_WHY="'calltrace record ./fib 5' failed: $(tail -1 "$LOGS/probe.err")"
fi
[ $CT_OK = 1 ] || say "calltrace columns skipped: $CT_WHY"
put meta.calltrace_status "${CT_WHY:-ok}"
UF_OK=0
[ -n "$UFTRACE" ] && UF_OK=1

# workload NAME DESC REFCALLS BASE-CMD FI-CMD PG-CMD AN-DESC AN-FI-CMD
# (commands as strings).  The run times come from the first three commands;
# replay/report are timed on recordings of AN-FI-CMD, a shorter run of the
# same -finstrument-functions build, made by each tool once.
workload() {
	w=$1
	put "$w.desc" "$2"
	put "$w.an_desc" "$7"
	ref=$3
	say "$w: uninstrumented, -finstrument-functions and -pg builds, untraced"
	measure "$w.base" "$RUNS" "" $4
	measure "$w.fi" "$RUNS" "" $5
	measure "$w.pg" "$RUNS" "rm -f gmon.out" $6
	ct_d=$DATA/$w.ct uf_d=$DATA/$w.uf ufpg_d=$DATA/$w.ufpg
	if [ $CT_OK = 1 ]; then
		say "$w: calltrace record"
		measure "$w.ct" "$RUNS" "rm -rf $ct_d $ct_d.old" "$CT" record -d "$ct_d" $5
		put "$w.ct.calls" "$(ct_calls "$ct_d")"
		put "$w.ct.bytes" "$(sumsize "$ct_d"/*.ev)"
	fi
	if [ $UF_OK = 1 ]; then
		say "$w: uftrace record (-finstrument-functions build)"
		measure "$w.uf" "$RUNS" "rm -rf $uf_d $uf_d.old" uftrace record -d "$uf_d" $5
		put "$w.uf.bytes" "$(sumsize "$uf_d"/[0-9]*.dat)"
		say "$w: uftrace record (-pg build)"
		measure "$w.ufpg" "$RUNS" "rm -rf $ufpg_d $ufpg_d.old" uftrace record -d "$ufpg_d" $6
		put "$w.ufpg.bytes" "$(sumsize "$ufpg_d"/[0-9]*.dat)"
		(cd "$RUN" && uftrace report -d "$ufpg_d" >"$LOGS/$w.ufpg.report" 2>/dev/null)
		put "$w.ufpg.calls" "$(uf_calls_of "$LOGS/$w.ufpg.report")"
	fi
	if [ $UF_OK = 1 ] && [ "$(get "$w.uf.status")" = 0 ]; then
		(cd "$RUN" && uftrace report -d "$uf_d" >"$LOGS/$w.uf.report" 2>/dev/null)
		put "$w.uf.calls" "$(uf_calls_of "$LOGS/$w.uf.report")"
	fi
	# the reference count: analytic if known, else calltrace's, else uftrace's
	[ -n "$ref" ] || ref=$(get "$w.ct.calls")
	[ -n "$ref" ] || ref=$(get "$w.uf.calls")
	put "$w.calls" "$ref"

	# analysis throughput: both tools record the shorter run once
	ct_a=$DATA/$w.an.ct uf_a=$DATA/$w.an.uf
	if [ $CT_OK = 1 ]; then
		say "$w: calltrace record + replay/report of $7 ($ARUNS runs each)"
		(cd "$RUN" && "$CT" record -d "$ct_a" $8 >/dev/null 2>"$LOGS/$w.an.ct.err")
		c=$(ct_calls "$ct_a")
		put "$w.an.ct.calls" "$c"
		if isnum "$c" && [ "$c" -gt 0 ]; then
			analyse "$w.ct_replay" "$((2 * c))" "$CT" replay -d "$ct_a"
			analyse "$w.ct_report" "$((2 * c))" "$CT" report -d "$ct_a"
		else
			say "$w: no calls counted in $ct_a (see $LOGS/$w.an.ct.err)"
		fi
	fi
	if [ $UF_OK = 1 ]; then
		say "$w: uftrace record + replay/report of $7 ($ARUNS runs each)"
		(cd "$RUN" && uftrace record -d "$uf_a" $8 >/dev/null 2>"$LOGS/$w.an.uf.err" &&
			uftrace report -d "$uf_a" >"$LOGS/$w.an.uf.report" 2>/dev/null)
		c=$(uf_calls_of "$LOGS/$w.an.uf.report")
		put "$w.an.uf.calls" "$c"
		if isnum "$c" && [ "$c" -gt 0 ]; then
			analyse "$w.uf_replay" "$((2 * c))" uftrace replay -d "$uf_a"
			analyse "$w.uf_report" "$((2 * c))" uftrace report -d "$uf_a"
		fi
	fi

	# derived figures
	b=$(get "$w.base.time_ns")
	for m in base fi pg ct uf ufpg; do
		t=$(get "$w.$m.time_ns")
		[ "$(get "$w.$m.status")" = 0 ] && isnum "$t" && isnum "$b" || continue
		put "$w.$m.slowdown" "$(calc "$t / $b")"
		case $m in ct | uf) bm=fi ;; ufpg) bm=pg ;; *) continue ;; esac
		u=$(get "$w.$bm.time_ns")
		c=$(get "$w.$m.calls")
		isnum "$c" && [ "$c" -gt 0 ] || c=$ref
		isnum "$c" && [ "$c" -gt 0 ] || continue
		put "$w.$m.ns_per_call" "$(calc "($t - $u) / $c")"
		tc=$(get "$w.$m.cpu_ns") uc=$(get "$w.$bm.cpu_ns")
		isnum "$tc" && isnum "$uc" && put "$w.$m.cpu_ns_per_call" "$(calc "($tc - $uc) / $c")"
		by=$(get "$w.$m.bytes")
		isnum "$by" && [ "$by" -gt 0 ] && put "$w.$m.bytes_per_event" "$(calc "$by / (2 * $c)")"
	done
	rm -rf "$ct_d" "$uf_d" "$ufpg_d" "$ct_a" "$uf_a" "$uf_d.old" "$ufpg_d.old"
}

# ---------------------------------------------------------------- fib
FIB_CALLS=$(fibcalls "$FIB_N")
workload fib "fib($FIB_N), bench/fib.c, gcc -O2" "$FIB_CALLS" \
	"$BIN/fib $FIB_N" "$BIN/fib-fi $FIB_N" "$BIN/fib-pg $FIB_N" \
	"fib($FIB_AN)" "$BIN/fib-fi $FIB_AN"

# ---------------------------------------------------------------- lua
if [ "${SKIP_LUA:-0}" = 1 ]; then
	put lua.skipped "SKIP_LUA=1"
elif ! sh "$HERE/setup.sh" "$W" 2>"$LOGS/setup.err"; then
	cat "$LOGS/setup.err" >&2
	put lua.skipped "$(tail -1 "$LOGS/setup.err")"
	say "lua workload skipped"
else
	put meta.lua "$("$W/lua-plain/src/lua" -v 2>&1 | head -1) (Debian source $(basename "$(ls "$W"/src/lua5.4_*.dsc | head -1)" .dsc))"
	workload lua "lua5.4 bench/script.lua $LUA_N, Lua's makefile, -O2" "" \
		"$W/lua-plain/src/lua $HERE/script.lua $LUA_N" \
		"$W/lua-fi/src/lua $HERE/script.lua $LUA_N" \
		"$W/lua-pg/src/lua $HERE/script.lua $LUA_N" \
		"script.lua $LUA_AN" "$W/lua-fi/src/lua $HERE/script.lua $LUA_AN"
fi

# ---------------------------------------------------------------- flight
# record --flight beside a normal recording, run in turn (bench/flight.sh:
# ns per traced call on fib and Lua, net of record's start and end), and
# the bytes in the data directory when the program has just ended (record
# still running: a shell runs the program, then counts them)
if [ $CT_OK = 1 ]; then
	say "record --flight beside record, fib and Lua (bench/flight.sh)"
	CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N RUNS=$RUNS LUA_N=$LUA_N CC=$CC sh "$HERE/flight.sh" 2>>"$LOGS/flight.err" |
		while read -r k v; do put "flight.$k" "$v"; done
	fl_d=$DATA/fib.ctfl
	(cd "$RUN" && "$CT" record -q --flight -d "$fl_d" "$BIN/fib-fi" "$FIB_N" >/dev/null 2>&1)
	put fib.ctfl.bytes "$(sumsize "$fl_d"/*.ev)"
	for m in ct ctfl; do
		d=$DATA/fib.$m.during
		opt=
		[ $m = ctfl ] && opt=--flight
		rm -rf "$d" "$d.old"
		(cd "$RUN" && "$CT" record -q $opt -d "$d" -- sh -c \
			"'$BIN/fib-fi' $FIB_N >/dev/null; cat '$d'/*.ev 2>/dev/null | wc -c" \
			>"$LOGS/fib.$m.during" 2>&1)
		put "fib.$m.bytes_during_run" "$(tail -1 "$LOGS/fib.$m.during")"
		[ $m = ct ] || put "fib.$m.bytes_at_end" "$(sumsize "$d"/*.ev)"
		rm -rf "$d" "$d.old"
	done
	rm -rf "$fl_d" "$fl_d.old"
fi

# ---------------------------------------------------------------- memory
# peak RSS of replay/report on three sizes of fib recording: FIB_SMALL and
# FIB_BIG (one run each, made here) and FIB_AN (from the throughput runs)
say "memory: replay/report of fib($FIB_SMALL) and fib($FIB_BIG)"
for sz in small big; do
	[ $sz = small ] && n=$FIB_SMALL || n=$FIB_BIG
	put "mem.$sz.desc" "fib($n)"
	put "mem.$sz.events" "$((2 * $(fibcalls "$n")))"
	if [ $CT_OK = 1 ]; then
		(cd "$RUN" && "$CT" record -d "$DATA/$sz.ct" "$BIN/fib-fi" "$n" >/dev/null 2>&1)
		rss "mem.$sz.ct_replay" "$CT" replay -d "$DATA/$sz.ct"
		rss "mem.$sz.ct_report" "$CT" report -d "$DATA/$sz.ct"
	fi
	if [ $UF_OK = 1 ]; then
		(cd "$RUN" && uftrace record -d "$DATA/$sz.uf" "$BIN/fib-fi" "$n" >/dev/null 2>&1)
		rss "mem.$sz.uf_replay" uftrace replay -d "$DATA/$sz.uf"
		rss "mem.$sz.uf_report" uftrace report -d "$DATA/$sz.uf"
	fi
	rm -rf "$DATA/$sz.ct" "$DATA/$sz.uf"
done
put mem.mid.desc "fib($FIB_AN)"
put mem.mid.events "$((2 * $(fibcalls "$FIB_AN")))"
for a in ct_replay ct_report uf_replay uf_report; do
	put "mem.mid.$a.rss_kb" "$(get "fib.$a.rss_kb")"
done
say "front ends: -pg, -pg -mfentry, -fpatchable-function-entry (bench/frontends.sh)"
# fib(FIB_N) as the fib workload: a run long enough that record's start-up
# (about 5 ms) is not counted per call
put frontends.fib_n "$FIB_N"
CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N PRUNS=${PRUNS:-11} sh "$HERE/frontends.sh" 2>>"$LOGS/frontends.err" | while read -r k v; do put "frontends.$k" "$v"; done
say "argument capture: two integer arguments and a return value per call (bench/args.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$RUNS ARGS_KV=1 sh "$HERE/args.sh" 2>>"$LOGS/args.err" | while read -r k v; do put "args.$k" "$v"; done
say "counting mode: record --count beside gprof's -pg counting (bench/count.sh)"
put count.fib_n "$FIB_N"
CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N RUNS=$RUNS LUA_N=$LUA_N sh "$HERE/count.sh" 2>>"$LOGS/count.err" | while read -r k v; do put "count.$k" "$v"; done
say "record-time filters: excluded calls, -t 1us (bench/filters.sh)"
put filters.fib_n 35
CALLTRACE=$CT BENCH_WORK=$W FIB_N=35 RUNS=$RUNS LUA_N=$LUA_N sh "$HERE/filters.sh" 2>>"$LOGS/filters.err" | while read -r k v; do put "filters.$k" "$v"; done
say "plugins: the call counter, a plugin limited to one function (bench/plugin.sh)"
CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N RUNS=$RUNS CC=$CC sh "$HERE/plugin.sh" 2>>"$LOGS/plugin.err" | while read -r k v; do put "plugin.$k" "$v"; done
say "call sites: record --callsite against record, fib and Lua (bench/callsite.sh)"
CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N RUNS=$RUNS LUA_N=$LUA_N CC=$CC sh "$HERE/callsite.sh" 2>>"$LOGS/callsite.err" | while read -r k v; do put "callsite.$k" "$v"; done
say "fault injection: a rule fib never meets, a rule on fib that never fires (bench/inject.sh)"
CALLTRACE=$CT BENCH_WORK=$W FIB_N=$FIB_N RUNS=$RUNS CC=$CC sh "$HERE/inject.sh" 2>>"$LOGS/inject.err" | while read -r k v; do put "inject.$k" "$v"; done
say "live and top on the Lua workload, against record (bench/live.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$RUNS LUA_N=$LUA_N sh "$HERE/live.sh" 2>>"$LOGS/live.err" | while read -r k v; do put "live.$k" "$v"; done
say "library calls: strlen/memcpy loops, Lua with library calls on (bench/libcall.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$RUNS LUA_N=$LUA_N sh "$HERE/libcall.sh" 2>>"$LOGS/libcall.err" | while read -r k v; do put "libcall.$k" "$v"; done
say "reading library: the C API and the Python module beside report (bench/reader.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$ARUNS CC=$CC sh "$HERE/reader.sh" 2>>"$LOGS/reader.err" | while read -r k v; do put "reader.$k" "$v"; done
say "report --diff: two fib recordings (-O0, -O2) beside report on one (bench/diff.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$ARUNS CC=$CC sh "$HERE/diff.sh" 2>>"$LOGS/diff.err" | while read -r k v; do put "diff.$k" "$v"; done
if [ "${SKIP_LEVELDB:-0}" != 1 ]; then
	say "record-time filters on leveldb's db_bench (bench/leveldb.sh; builds it once)"
	CALLTRACE=$CT BENCH_WORK=$W sh "$HERE/leveldb.sh" 2>>"$LOGS/leveldb.err" | while read -r k v; do put "leveldb.$k" "$v"; done
fi
say "argument capture on a real program: record -a on sqlite3's shell (bench/sqlite.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$RUNS SQLITE_KV=1 sh "$HERE/sqlite.sh" 2>>"$LOGS/sqlite.err" | while read -r k v; do put "sqlite.$k" "$v"; done
say "profile accuracy: corrected times against the plain build, every front end (bench/accuracy.sh)"
CALLTRACE=$CT BENCH_WORK=$W RUNS=$RUNS LUA_N=$LUA_N SKIP_LUA=${SKIP_LUA:-0} ACC_KV="$LOGS/accuracy.kv" \
	sh "$HERE/accuracy.sh" >"$LOGS/accuracy.txt" 2>>"$LOGS/accuracy.err"
awk -F'\t' '{ printf "accuracy.%s\t%s\n", $1, $2 }' "$LOGS/accuracy.kv" >>"$KV" 2>/dev/null
say "sampling: record --count --sample against perf on the plain build (bench/sample.sh)"
CALLTRACE=$CT BENCH_WORK=$W SKIP_LUA=${SKIP_LUA:-0} sh "$HERE/sample.sh" >"$LOGS/sample.txt" \
	2>>"$LOGS/sample.err"
say "off-CPU: a sleep+spin call's on/off split with record --sched (bench/offcpu.sh)"
CALLTRACE=$CT BENCH_WORK=$W sh "$HERE/offcpu.sh" >"$LOGS/offcpu.txt" 2>>"$LOGS/offcpu.err"
put meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.seconds "$(($(date +%s) - T0))"

# ---------------------------------------------------------------- output
LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 "$KV" | awk -F'\t' -f "$HERE/json.awk" >"$W/results.json"
awk -F'\t' -f "$HERE/table.awk" "$KV"
echo
cat "$LOGS/accuracy.txt" 2>/dev/null
echo
cat "$LOGS/sample.txt" 2>/dev/null
echo
cat "$LOGS/offcpu.txt" 2>/dev/null
echo
echo "results: $W/results.json (raw: $KV, logs: $LOGS)"
BENCH_WORK=$W CALLTRACE=$CT CC=$CC sh "$HERE/export.sh" # export speed and memory vs uftrace dump --chrome
