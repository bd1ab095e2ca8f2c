#!/bin/sh
# bench/sqlite.sh: the cost of `record -a` (every function's arguments and
# return value, from DWARF) on a real program: sqlite3's shell, built from
# Debian's source by bench/setup.sh at -g -O2 -pg -mfentry, loading SQLITE_N
# rows (CREATE TABLE, the INSERTs in one transaction, two SELECTs) into an
# in-memory database.  Measures, asserts nothing (doc/performance.md).
#
# Prints the best wall time of RUNS runs of:
#   untraced          the -pg -mfentry build, run plainly
#   calltrace record  without arguments
#   calltrace record -a
#   uftrace record    and uftrace record -a, on the same build
# and the ratios: record -a / record (the cost of the arguments), uftrace
# -a / calltrace -a.  CPU times (user + system of the tracer and the
# program) beside them.
# Environment: CALLTRACE (default build/calltrace), SQLITE_N rows (default
# 20000), RUNS (best of, default 5), BENCH_WORK (default bench/work),
# SQLITE_KV=1 (key value lines, as bench/run.sh reads them).  Recordings go
# to BENCH_WORK/sqlite-run, each file at most 4 GB (ulimit -f), and are
# removed at the end.
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=
. "$HERE/lib.sh"
N=${SQLITE_N:-20000}
RUNS=${RUNS:-5}
R=$W/sqlite-run
KV=${SQLITE_KV:-0}

say() { echo "bench/sqlite.sh: $*" >&2; }
if ! sh "$HERE/setup.sh" "$W" sqlite 2>"$W/setup-sqlite.err"; then
	why=$(tail -1 "$W/setup-sqlite.err")
	say "skipped: $why"
	[ "$KV" = 1 ] && printf 'skipped %s\n' "$why"
	exit 0
fi
rm -rf "$R"
mkdir -p "$R"
$CC -O2 -Wall -o "$R/timeit" "$HERE/timeit.c" || exit 1
awk -v n="$N" 'BEGIN {
	q = sprintf("%c", 39)
	print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, note TEXT, score REAL);"
	print "BEGIN;"
	for (i = 1; i <= n; i++)
		printf "INSERT INTO t(name, note, score) VALUES(%sname-%d%s, %srow %d of the benchmark, some text%s, %d.5);\n", q, i, q, q, i, q, i % 977
	print "COMMIT;"
	print "SELECT count(*), sum(length(note)), max(score) FROM t;"
	print "SELECT name FROM t WHERE id % 5000 = 0;"
}' >"$R/load.sql"

# run KEY PREP CMD...: best wall and least CPU time of RUNS runs, in ns
run() {
	_k=$1 _p=$2
	shift 2
	# the recordings' files bounded (4 GB in 1024-byte blocks, or 2 GB in
	# 512-byte ones)
	_r=$(cd "$R" && ulimit -f 4000000 && ./timeit -n "$RUNS" ${_p:+-p "$_p"} \
		-e "$R/$_k.err" -- "$@")
	# shellcheck disable=SC2086 # the figures, split
	set -- $_r
	eval "t_$_k=\${1:-0} c_$_k=\${5:-0} s_$_k=\${4:-1}"
	[ "${4:-1}" = 0 ] || say "$_k: exit status ${4:-?} (see $R/$_k.err)"
}
cmd="$W/sqlite/sqlite3-fentry"
t_base=0 c_base=0 s_base=n/a t_ct=0 c_ct=0 s_ct=n/a t_cta=0 c_cta=0 s_cta=n/a
run base "" "$cmd" :memory: ".read $R/load.sql"
run ct "rm -rf $R/d $R/d.old" "$CT" record -q -d "$R/d" "$cmd" :memory: ".read $R/load.sql"
events_ct=$("$CT" info -d "$R/d" 2>/dev/null | awk '$1 == "events:" { print $2 }')
run cta "rm -rf $R/d $R/d.old" "$CT" record -q -a -d "$R/d" "$cmd" :memory: ".read $R/load.sql"
info=$("$CT" info -d "$R/d" 2>/dev/null)
events_cta=$(echo "$info" | awk '$1 == "events:" { print $2 }')
waits_cta=$(echo "$info" | awk '$1 == "waits:" { print $2 }')
bytes_cta=$(cat "$R"/d/*.ev 2>/dev/null | wc -c)
echo "$info" | grep -q '^arguments:' || say "warning: the record -a recording has no arguments"
"$CT" replay -d "$R/d" --no-duration 2>/dev/null | grep -q 'sqlite3_prepare_v2(0x[0-9a-f]*, "INSERT' ||
	say "warning: the record -a recording does not show sqlite3_prepare_v2's SQL text"
rm -rf "$R/d" "$R/d.old"
t_uf=0 c_uf=0 s_uf=n/a t_ufa=0 c_ufa=0 s_ufa=n/a
if command -v uftrace >/dev/null 2>&1; then
	run uf "rm -rf $R/u $R/u.old" uftrace record -d "$R/u" "$cmd" :memory: ".read $R/load.sql"
	run ufa "rm -rf $R/u $R/u.old" uftrace record -a -d "$R/u" "$cmd" :memory: ".read $R/load.sql"
	rm -rf "$R/u" "$R/u.old"
fi
rm -f "$R"/*.err

awk -v kv="$KV" -v n="$N" -v tb="$t_base" -v tc="$t_ct" -v ta="$t_cta" -v tu="$t_uf" -v tua="$t_ufa" \
	-v cb="$c_base" -v cc="$c_ct" -v ca="$c_cta" -v cu="$c_uf" -v cua="$c_ufa" \
	-v sb="$s_base" -v sc="$s_ct" -v sa="$s_cta" -v su="$s_uf" -v sua="$s_ufa" \
	-v ev="${events_ct:-0}" -v eva="${events_cta:-0}" -v waits="${waits_cta:-}" -v bytes="$bytes_cta" \
	-v runs="$RUNS" 'BEGIN {
	ok_u = su == "0"; ok_ua = sua == "0"
	if (kv == 1) {
		printf "rows %d\nevents %d\nuntraced_ns %d\nrecord_ns %d\nrecord_a_ns %d\n", n, eva, tb, tc, ta
		printf "untraced_cpu_ns %d\nrecord_cpu_ns %d\nrecord_a_cpu_ns %d\n", cb, cc, ca
		printf "record_status %s\nrecord_a_status %s\n", sc, sa
		if (tc > 0) printf "a_over_plain %.3f\n", ta / tc
		if (cc > 0) printf "a_over_plain_cpu %.3f\n", ca / cc
		if (eva > 0) printf "bytes_per_event %.2f\n", bytes / eva
		if (waits != "") printf "waits %d\n", waits
		if (ok_u) printf "uftrace_ns %d\nuftrace_cpu_ns %d\n", tu, cu
		if (ok_ua) printf "uftrace_a_ns %d\nuftrace_a_cpu_ns %d\n", tua, cua
		if (ok_ua && ta > 0) printf "uftrace_a_over_a %.3f\nuftrace_a_over_a_cpu %.3f\n", tua / ta, cua / ca
		exit
	}
	printf "sqlite: sqlite3 shell (-g -O2 -pg -mfentry) loading %d rows, best of %d runs\n", n, runs
	printf "sqlite:   %-26s %9s %9s\n", "", "wall ms", "cpu ms"
	printf "sqlite:   %-26s %9.1f %9.1f\n", "untraced", tb / 1e6, cb / 1e6
	printf "sqlite:   %-26s %9.1f %9.1f   %d events\n", "calltrace record", tc / 1e6, cc / 1e6, ev
	printf "sqlite:   %-26s %9.1f %9.1f   %d events, %.2f bytes/event, %s waits\n", "calltrace record -a", ta / 1e6, ca / 1e6, eva, eva ? bytes / eva : 0, waits
	if (ok_u) printf "sqlite:   %-26s %9.1f %9.1f\n", "uftrace record", tu / 1e6, cu / 1e6
	if (ok_ua) printf "sqlite:   %-26s %9.1f %9.1f\n", "uftrace record -a", tua / 1e6, cua / 1e6
	if (tc > 0) printf "sqlite: record -a / record: %.2fx (cpu %.2fx)\n", ta / tc, ca / cc
	if (ok_ua && ta > 0) printf "sqlite: uftrace -a / calltrace -a: %.2fx (cpu %.2fx)\n", tua / ta, cua / ca
}'
rm -rf "$R"
