#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/accuracy.sh: how close the corrected times (doc/overhead.md) come
# to the untraced program, for every front end.  Measures, asserts nothing.
#
# 1. main's total time in `calltrace report` (corrected) and `report --raw`,
#    divided by the untraced time of the PLAIN build (no flags) of the same
#    work, on fib(ACC_FIB_N), Lua (bench/script.lua LUA_N) and sqlite3's
#    shell (bench/sqlite.sh's load of SQLITE_N rows), each built plain and
#    with -finstrument-functions, -pg, -pg -mfentry and
#    -fpatchable-function-entry=5 (gcc -O2).  The plain time is the
#    program's median wall time less that of an empty program (the process's
#    start and end, which main's time does not hold); the traced times are
#    medians of RUNS recordings.
#    The same in CPU time, which preemption does not disturb (the traced
#    program runs under bench/timeit.c inside `record`): the hooks' cost
#    per call in the program against the calibration's outer figure, and
#    the traced CPU time less calls x outer against the plain build's.
# 2. the function-level truth (bench/truth.c): each function's corrected
#    self time per call against its untraced cost, timed in the plain build.
# 3. what -finstrument-functions costs a call by itself, run untraced (its
#    hook calls go to glibc's empty hooks): an empty function
#    (bench/empty_call.c) and Lua's, in CPU ns per call over the plain build.
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work: Lua and sqlite come from bench/setup.sh there; the other
# builds go to BENCH_WORK/accuracy), RUNS (default 5), ACC_FIB_N (30),
# LUA_N (20000), SQLITE_N (20000), SKIP_LUA=1, SKIP_SQLITE=1,
# ACC_KV=FILE (also write the figures as key value lines to FILE).
# Recordings go to BENCH_WORK/accuracy/run, each file at most 2-4 GB
# (ulimit -f), and are removed at the end.
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=
. "$HERE/lib.sh"
RUNS=${RUNS:-5}
FIB_N=${ACC_FIB_N:-30}
LUA_N=${LUA_N:-20000}
SQLITE_N=${SQLITE_N:-20000}
KVF=${ACC_KV:-}
CC=gcc
A=$W/accuracy
R=$A/run
B=$A/bin
FRONTS="fi pg fentry patch"

say() { echo "bench/accuracy.sh: $*" >&2; }
kv() { [ -n "$KVF" ] && printf '%s\t%s\n' "$1" "$2" >>"$KVF"; return 0; }
load() { cut -d' ' -f1 /proc/loadavg; }
flags_of() {
	case $1 in
	plain) echo "" ;;
	fi) echo "-finstrument-functions" ;;
	pg) echo "-pg" ;;
	fentry) echo "-pg -mfentry" ;;
	patch) echo "-fpatchable-function-entry=5" ;;
	esac
}
name_of() {
	case $1 in
	fi) echo "-finstrument-functions" ;;
	pg) echo "-pg" ;;
	fentry) echo "-pg -mfentry" ;;
	patch) echo "-fpatchable-function-entry" ;;
	esac
}
[ -x "$CT" ] || { say "build calltrace first (make all)"; exit 1; }
[ -n "$KVF" ] && : >"$KVF"
rm -rf "$R"
mkdir -p "$R" "$B" || exit 1
trap 'rm -rf "$R"' EXIT

$CC -O2 -Wall -o "$B/timeit" "$HERE/timeit.c" || exit 1
printf 'int main(void) { return 0; }\n' >"$B/empty.c"
$CC -O2 -o "$B/empty" "$B/empty.c" || exit 1
for v in plain $FRONTS; do
	# shellcheck disable=SC2046 # the flags
	$CC -O2 $(flags_of $v) -o "$B/fib-$v" "$HERE/fib.c" || exit 1
	# shellcheck disable=SC2046
	$CC -O2 $(flags_of $v) -o "$B/truth-$v" "$HERE/truth.c" || exit 1
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# untraced CMD...: its median wall time and least CPU time of RUNS runs, in ns
untraced() { (cd "$R" && ulimit -f 4000000 && "$B/timeit" -n "$RUNS" -- "$@") | cut -d' ' -f2,5; }
# shellcheck disable=SC2046
set -- $(untraced "$B/empty")
EMPTY=$1

# RUNS recordings of CMD...: "CORRECTED RAW CPU CALLS OUTER": main's
# corrected and raw totals (ns, the medians), the program's least CPU time
# (ns), the calls recorded and the calibration's outer figure (ns per call,
# the median); nothing when a recording failed
traced() {
	: >"$R/corr" && : >"$R/raw" && : >"$R/cpu" && : >"$R/outer" && : >"$R/recal"
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		rm -rf "$R/d" "$R/d.old"
		# the program under timeit, which says its CPU time (record's
		# own, draining the buffers, is not in it)
		(cd "$R" && ulimit -f 4000000 && "$CT" record -q -d "$R/d" -- "$B/timeit" -n 1 -- "$@" \
			>"$R/out" 2>"$R/err") || { say "record $*: $(tail -1 "$R/err")"; return; }
		cut -d' ' -f5 "$R/out" >>"$R/cpu"
		"$CT" report -d "$R/d" --format=csv >"$R/csv"
		awk -F, '$1 == "main" { print $3 }' "$R/csv" >>"$R/corr"
		"$CT" report -d "$R/d" --raw --format=csv | awk -F, '$1 == "main" { print $3 }' >>"$R/raw"
		# figures measured again on another CPU (doc/overhead.md)
		"$CT" info -d "$R/d" 2>/dev/null | awk '$1 == "recalib:" { n += $2 } END { print n + 0 }' >>"$R/recal"
		# the outer figure of the process that recorded calls (the one
		# with a "frontend" line; timeit's has none), in ns (doc/format.md)
		hz=$(sed -n 's/^clock_hz: *//p' "$R/d/info")
		cat "$R"/d/*.proc | awk -v hz="$hz" '
			$1 == "calltrace-proc" { if (fe != "") exit; o = oh = "" }
			$1 == "overhead" { o = $4 / $2 } $1 == "overhead-hook" { oh = $4 / $2 }
			$1 == "frontend" { fe = fe " " $2 }
			END { v = fe ~ /hook/ && fe !~ /cyg/ ? oh : o; if (fe != "" && v != "") printf "%.2f\n", v * 1e9 / hz }' >>"$R/outer"
	done
	calls=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' "$R/csv")
	rm -rf "$R/d" "$R/d.old"
	awk '{ s += $1 } END { print s + 0 }' "$R/recal" >"$R/recal.sum"
	echo "$(median <"$R/corr") $(median <"$R/raw") $(sort -n "$R/cpu" | head -1) $calls $(median <"$R/outer")"
}

OUT=$R/table
: >"$OUT"
: >"$OUT.cpu"
# workload NAME DESC PLAIN-CMD CMD-OF-FRONT-END (a function: $1 the front end)
workload() {
	w=$1 desc=$2 pcmd=$3 fcmd=$4
	l0=$(load)
	# shellcheck disable=SC2086 # the command
	set -- $(untraced $pcmd)
	p=$(awk -v p="$1" -v e="$EMPTY" 'BEGIN { printf "%d", (p > e) ? p - e : p }')
	pcpu=$2
	kv "$w.desc" "$desc"
	kv "$w.plain_ns" "$p"
	kv "$w.plain_cpu_ns" "$pcpu"
	for f in $FRONTS; do
		# shellcheck disable=SC2046
		set -- $(traced $($fcmd $f))
		[ $# = 5 ] || { printf '%-8s %-27s  %s\n' "$w" "$(name_of $f)" "record failed" >>"$OUT"; continue; }
		kv "$w.$f.corr_ns" "$1"
		kv "$w.$f.raw_ns" "$2"
		kv "$w.$f.corr_ratio" "$(awk -v c="$1" -v p="$p" 'BEGIN { printf "%.3f", c / p }')"
		kv "$w.$f.raw_ratio" "$(awk -v r="$2" -v p="$p" 'BEGIN { printf "%.3f", r / p }')"
		kv "$w.$f.cpu_ns" "$3"
		kv "$w.$f.calls" "$4"
		kv "$w.$f.outer_ns" "$5"
		RECAL=$(cat "$R/recal.sum" 2>/dev/null)
		kv "$w.$f.recalibrations" "$RECAL"
		kv "$w.$f.program_ns_per_call" "$(awk -v t="$3" -v p="$pcpu" -v n="$4" 'BEGIN { if (n > 0) printf "%.2f", (t - p) / n }')"
		kv "$w.$f.corr_cpu_ratio" "$(awk -v t="$3" -v p="$pcpu" -v n="$4" -v o="$5" 'BEGIN { if (p > 0) printf "%.3f", (t - n * o) / p }')"
		awk -v w="$w" -v f="$(name_of $f)" -v p="$p" -v c="$1" -v r="$2" -v l="$l0-$(load)" -v rc="$RECAL" 'BEGIN {
			printf "%-8s %-27s %9.1f %9.1f %6.2f %+6.0f%% %9.1f %6.2f %5s  %s\n", w, f, p / 1e6, c / 1e6,
				c / p, (c / p - 1) * 100, r / 1e6, r / p, rc, l }' >>"$OUT"
		awk -v w="$w" -v f="$(name_of $f)" -v t="$3" -v p="$pcpu" -v n="$4" -v o="$5" 'BEGIN {
			h = n > 0 ? (t - p) / n : 0
			c = t - n * o
			printf "%-8s %-27s %8.1f %9d %7.1f %7.1f %+6.1f %8.1f %+6.0f%%\n", w, f, p / 1e6, n, h, o,
				o - h, c / 1e6, (c / p - 1) * 100 }' >>"$OUT.cpu"
	done
}

fibcmd() { echo "$B/fib-$1 $FIB_N"; }
workload fib "fib($FIB_N), bench/fib.c, gcc -O2" "$B/fib-plain $FIB_N" fibcmd

if [ "${SKIP_LUA:-0}" != 1 ] && sh "$HERE/setup.sh" "$W" 2>"$A/setup-lua.err"; then
	# the -pg -mfentry build, from setup.sh's tree, in our own directory
	LF=$A/lua-fentry
	if [ ! -x "$LF/src/lua" ] || [ "$W/lua.stamp" -nt "$LF/src/lua" ]; then
		rm -rf "$LF"
		cp -r "$W/lua-tree" "$LF" &&
			make -C "$LF/src" -j2 linux-noreadline MYCFLAGS="-pg -mfentry" MYLDFLAGS="-pg" \
				>"$A/lua-fentry.log" 2>&1 || say "lua -pg -mfentry build failed (see $A/lua-fentry.log)"
	fi
	luacmd() {
		case $1 in
		fentry) echo "$LF/src/lua $HERE/script.lua $LUA_N" ;;
		*) echo "$W/lua-$1/src/lua $HERE/script.lua $LUA_N" ;;
		esac
	}
	workload lua "lua5.4 bench/script.lua $LUA_N, Lua's makefile, -O2" \
		"$W/lua-plain/src/lua $HERE/script.lua $LUA_N" luacmd
else
	say "lua skipped${SKIP_LUA:+ (SKIP_LUA=$SKIP_LUA)}: $(tail -1 "$A/setup-lua.err" 2>/dev/null)"
	echo "lua      skipped" >>"$OUT"
fi

if [ "${SKIP_SQLITE:-0}" != 1 ] && sh "$HERE/setup.sh" "$W" sqlite 2>"$A/setup-sqlite.err"; then
	# the other builds of the shell, from setup.sh's amalgamation, as it
	# builds its own (-g -O2)
	for f in fi pg patch; do
		o=$A/sqlite3-$f
		[ -x "$o" ] && [ "$o" -nt "$W/sqlite.stamp" ] && continue
		say "building sqlite3's shell with $(flags_of $f) (once)"
		# shellcheck disable=SC2046
		$CC -g -O2 $(flags_of $f) -DSQLITE_THREADSAFE=1 -o "$o" "$W/sqlite-gen/sqlite3.c" \
			"$W/sqlite-gen/shell.c" -lm -ldl -lpthread >"$A/sqlite3-$f.log" 2>&1 ||
			say "sqlite3 build $f failed (see $A/sqlite3-$f.log)"
	done
	awk -v n="$SQLITE_N" 'BEGIN {
		q = sprintf("%c", 39)
		print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, note TEXT, score REAL);"
		print "BEGIN;"
		for (i = 1; i <= n; i++)
			printf "INSERT INTO t(name, note, score) VALUES(%sname-%d%s, %srow %d of the benchmark, some text%s, %d.5);\n", q, i, q, q, i, q, i % 977
		print "COMMIT;"
		print "SELECT count(*), sum(length(note)), max(score) FROM t;"
		print "SELECT name FROM t WHERE id % 5000 = 0;"
	}' >"$A/load.sql"
	# the shell reads its commands from a file given on its command line
	# (-init), as the argument ".read FILE" would need a space
	sqlcmd() {
		case $1 in
		fentry) echo "$W/sqlite/sqlite3-fentry -init $A/load.sql :memory: .quit" ;;
		*) echo "$A/sqlite3-$1 -init $A/load.sql :memory: .quit" ;;
		esac
	}
	workload sqlite "sqlite3 shell, $SQLITE_N rows into :memory:, -g -O2" \
		"$W/sqlite/sqlite3-plain -init $A/load.sql :memory: .quit" sqlcmd
else
	say "sqlite skipped${SKIP_SQLITE:+ (SKIP_SQLITE=$SKIP_SQLITE)}: $(tail -1 "$A/setup-sqlite.err" 2>/dev/null)"
	echo "sqlite   skipped" >>"$OUT"
fi

echo "accuracy: main's time in report (corrected) and report --raw / the plain build's untraced time"
echo "accuracy: (doc/overhead.md; medians of $RUNS runs; recal: figures measured again on another CPU, all runs;"
echo "accuracy: load: the 1-minute load average before-after)"
printf '%-8s %-27s %9s %9s %6s %7s %9s %6s %5s  %s\n' workload "front end" "plain ms" "corr ms" ratio error "raw ms" ratio recal load
cat "$OUT"
echo
echo "accuracy: the same in CPU time, which preemption does not disturb: the plain build's (least of $RUNS"
echo "accuracy: runs); the hooks' cost per call in the program (the traced program's CPU time, least of $RUNS"
echo "accuracy: recordings, less the plain build's, over the calls recorded); 'outer', the figure the"
echo "accuracy: correction takes out per call, and the difference; the traced program's CPU time less"
echo "accuracy: calls x outer, against the plain build's"
printf '%-8s %-27s %8s %9s %7s %7s %6s %8s %7s\n' workload "front end" "plain ms" calls "hooks" "outer" "diff" "corr ms" error
cat "$OUT.cpu"

# ---- the function-level truth
"$B/truth-plain" time >"$R/truth" || { say "truth time failed"; exit 0; }
for f in $FRONTS; do
	: >"$R/t.$f"
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		rm -rf "$R/d" "$R/d.old"
		(cd "$R" && ulimit -f 4000000 && "$CT" record -q -d "$R/d" "$B/truth-$f" run >/dev/null 2>&1) || continue
		for m in "" --raw; do
			# shellcheck disable=SC2086
			"$CT" report -d "$R/d" --format=csv $m | awk -F, -v m="${m:-corr}" 'NR > 1 && $2 > 0 {
				print $1, m, $4 / $2 }' >>"$R/t.$f"
		done
	done
done
rm -rf "$R/d" "$R/d.old"
echo
echo "accuracy: function-level truth (bench/truth.c, gcc -O2): self time per call in ns, untraced (plain"
echo "accuracy: build, median of 7 batches) against corrected and raw (medians of $RUNS recordings)"
printf '%-8s %8s  %-17s %-17s %-17s %-17s\n' function untraced "$(name_of fi)" "$(name_of pg)" "$(name_of fentry)" "patchable"
while read -r fn calls t; do
	line=$(printf '%-8s %8.1f ' "$fn" "$t")
	for f in $FRONTS; do
		c=$(awk -v fn="$fn" '$1 == fn && $2 == "corr" { print $3 }' "$R/t.$f" | median)
		r=$(awk -v fn="$fn" '$1 == fn && $2 == "--raw" { print $3 }' "$R/t.$f" | median)
		if [ -n "$c" ]; then
			kv "truth.$fn.$f.corr_ns" "$c"
			kv "truth.$fn.$f.raw_ns" "$r"
			line="$line $(awk -v c="$c" -v r="$r" -v t="$t" 'BEGIN { printf " %6.1f %+5.0f%% %5.0f", c, (c / t - 1) * 100, r }')"
		else
			line="$line  failed           "
		fi
	done
	kv "truth.$fn.untraced_ns" "$t"
	kv "truth.$fn.calls" "$calls"
	echo "$line"
done <"$R/truth"
echo "accuracy: (each front end: corrected ns, its error, raw ns)"

# 3. the -finstrument-functions build's own cost (its hook calls run
# untraced, into glibc's empty hooks) per call: on an empty function, as
# the calibration's are, and on Lua's functions (doc/overhead.md)
echo
echo "accuracy: what -finstrument-functions costs a call by itself (untraced, glibc's empty hooks), ns per call, CPU"
$CC -O2 -o "$B/empty-plain" "$HERE/empty_call.c" &&
	$CC -O2 -finstrument-functions -o "$B/empty-fi" "$HERE/empty_call.c" || exit 1
# cpu_per N CMD...: the least CPU ns of CMD N less that of CMD 1, over N
cpu_per() {
	_n=$1
	shift
	_a=$(untraced "$@" "$_n" | cut -d' ' -f2)
	_b=$(untraced "$@" 1 | cut -d' ' -f2)
	awk -v a="$_a" -v b="$_b" -v n="$_n" 'BEGIN { printf "%.2f", (a - b) / n }'
}
ep=$(cpu_per 100000000 "$B/empty-plain")
ef=$(cpu_per 100000000 "$B/empty-fi")
es=$(awk -v p="$ep" -v f="$ef" 'BEGIN { printf "%.2f", f - p }')
kv shape.empty_fi_ns "$es"
echo "empty function: $es ns (plain $ep, -finstrument-functions $ef)"
if [ -x "$W/lua-fi/src/lua" ] && [ -x "$W/lua-plain/src/lua" ]; then
	rm -rf "$R/d"
	"$CT" record -q -d "$R/d" "$W/lua-fi/src/lua" "$HERE/script.lua" "$LUA_N" >/dev/null 2>&1
	lc=$(sed -n 's/^events: //p' "$R/d/info" 2>/dev/null)
	lc=$((${lc:-0} / 2))
	rm -rf "$R/d"
	lp=$(untraced "$W/lua-plain/src/lua" "$HERE/script.lua" "$LUA_N" | cut -d' ' -f2)
	lf=$(untraced "$W/lua-fi/src/lua" "$HERE/script.lua" "$LUA_N" | cut -d' ' -f2)
	ls=$(awk -v p="$lp" -v f="$lf" -v n="$lc" 'BEGIN { printf "%.2f", n ? (f - p) / n : 0 }')
	kv shape.lua_fi_ns "$ls"
	echo "lua (bench/script.lua $LUA_N, $lc calls): $ls ns (untraced CPU: plain $((lp / 1000)) us, -finstrument-functions $((lf / 1000)) us)"
fi
