#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/sample.sh: how true record --count --sample's times are, and what
# the samples cost (doc/record.md, "Sampling"; issue 29's targets).
# Measures, asserts nothing.
#
#   sh bench/sample.sh          (after make; called by bench/run.sh)
#
# For Lua 5.4 running bench/script.lua and for the sqlite3 shell loading
# rows into :memory: (both built by bench/setup.sh from Debian's sources;
# a workload it cannot build is skipped):
#  - truth: the 10 functions with the most self samples of `perf record -e
#    cpu-clock:u` on the untraced plain build (the same period), beside
#    their sampled self time in `record --count --sample` of the
#    -finstrument-functions build; each difference against the larger of
#    10 % and 3 standard errors of the sample counts (3/sqrt(n) of the
#    smaller count), "ok" or "OUT"; and main's sampled total against the
#    untraced run's user time (all of perf's samples, the same clock);
#  - cost: the CPU time (program and record, least of RUNS runs) of
#    `record --count --sample` against `record --count`, as a share of
#    the plain build's CPU time.
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), PERF (default perf), SAMPLE_HZ (default 1000), RUNS
# (default 3), SAMPLE_LUA_N (default 200000), SAMPLE_SQLITE_N (default
# 300000), SKIP_LUA=1, SKIP_SQLITE=1.  Output: a table per workload on
# stdout; the raw files under BENCH_WORK/sample.
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=sample
. "$HERE/lib.sh"
PERF=${PERF:-perf}
HZ=${SAMPLE_HZ:-1000}
PERIOD=$((1000000000 / HZ))
RUNS=${RUNS:-3}
LUA_N=${SAMPLE_LUA_N:-200000}
SQLITE_N=${SAMPLE_SQLITE_N:-300000}

say() { echo "sample: $*" >&2; }

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
if ! "$PERF" record -q -e cpu-clock:u -o "$W/probe.perf" -- true >/dev/null 2>"$W/probe.err"; then
	say "perf record -e cpu-clock:u refused: $(tail -1 "$W/probe.err"); truth figures skipped"
	PERF=""
fi

# truth NAME PLAIN FI: the tables for the commands PLAIN (untraced plain
# build) and FI (its -finstrument-functions build), word-split
truth() {
	_n=$1 _plain=$2 _fi=$3
	echo "== $_n: sampled self time, record --count --sample ($HZ Hz) of the -finstrument-functions"
	echo "== build against perf record -e cpu-clock:u -c $PERIOD of the plain build"
	rm -rf "$W/$_n.d"
	# shellcheck disable=SC2086 # the commands' words
	"$CT" record -q -d "$W/$_n.d" --count --sample="$HZ" $_fi >/dev/null 2>"$W/$_n.rec.err" ||
		{ say "$_n: record failed: $(tail -1 "$W/$_n.rec.err")"; return; }
	"$CT" report -d "$W/$_n.d" --format=csv >"$W/$_n.csv"
	"$CT" report -d "$W/$_n.d" --format=json >"$W/$_n.json"
	if [ -z "$PERF" ]; then
		echo "(no perf: the truth figures are skipped)"
		return
	fi
	# shellcheck disable=SC2086
	"$PERF" record -q -e cpu-clock:u -c "$PERIOD" -o "$W/$_n.perf" -- $_plain >/dev/null \
		2>"$W/$_n.perf.err" || { say "$_n: perf record failed"; return; }
	"$PERF" report -i "$W/$_n.perf" --stdio --no-children --sort sym -q -F sample,sym \
		2>/dev/null | awk '{ n = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); print n "\t" $0 }' |
		sort -t "$(printf '\t')" -k1,1nr >"$W/$_n.perf.txt"
	awk -F'\t' -v period="$PERIOD" -v csv="$W/$_n.csv" -v json="$W/$_n.json" '
		BEGIN {
			while ((getline l < csv) > 0) {
				if (!h++) continue
				split(l, f, ",")
				self[f[1]] = f[4]
			}
			while ((getline l < json) > 0)
				if (match(l, /"name":"main","calls":[0-9]+,"samples_total":[0-9]+/)) {
					s = substr(l, RSTART, RLENGTH); sub(/.*:/, "", s); main = s
				}
			printf "%-28s %9s %9s %9s %9s %7s %7s\n", "function", "perf ms", "ours ms",
				"perf smp", "ours smp", "diff", "bound"
		}
		{ all += $1; if (NR <= 10) { name[NR] = $2; n[NR] = $1 } }
		END {
			for (i = 1; i <= 10 && i in n; i++) {
				p = n[i]; o = self[name[i]] + 0
				m = p < o ? p : o
				b = 10; if (m > 0 && 300 / sqrt(m) > b) b = 300 / sqrt(m)
				d = p ? (o / p - 1) * 100 : 0
				printf "%-28s %9.1f %9.1f %9d %9d %+6.1f%% %6.1f%% %s\n", substr(name[i], 1, 28),
					p * period / 1e6, o * period / 1e6, p, o, d, b,
					(d <= b && d >= -b) ? "ok" : "OUT"
			}
			d = all ? (main / all - 1) * 100 : 0
			printf "%-28s %9.1f %9.1f %9d %9d %+6.1f%% %6.1f%% %s\n", "main (total; perf: all)",
				all * period / 1e6, main * period / 1e6, all, main, d, 5.0,
				(d <= 5 && d >= -5) ? "ok" : "OUT"
		}' "$W/$_n.perf.txt"
}

# cost NAME PLAIN FI: CPU time of record --count and --count --sample
cost() {
	_n=$1 _plain=$2 _fi=$3
	# shellcheck disable=SC2086
	_p=$(t "$RUNS" "" $_plain | cut -d' ' -f3)
	# shellcheck disable=SC2086
	_c=$(t "$RUNS" "rm -rf $W/c.d" "$CT" record -q -d "$W/c.d" --count $_fi | cut -d' ' -f3)
	# shellcheck disable=SC2086
	_s=$(t "$RUNS" "rm -rf $W/s.d" "$CT" record -q -d "$W/s.d" --count --sample="$HZ" $_fi |
		cut -d' ' -f3)
	echo "== $_n: cost (CPU time of program and record, least of $RUNS runs)"
	awk -v p="$_p" -v c="$_c" -v s="$_s" 'BEGIN {
		printf "plain %.1f ms, --count %.1f ms, --count --sample %.1f ms: the samples cost %+.1f %% of the plain run (target: at most +2 %%)\n",
			p / 1e6, c / 1e6, s / 1e6, p ? (s - c) / p * 100 : 0 }'
}

if [ "${SKIP_LUA:-0}" != 1 ] && sh "$HERE/setup.sh" "$BW" 2>"$W/setup-lua.err"; then
	L="$HERE/script.lua $LUA_N"
	truth lua "$BW/lua-plain/src/lua $L" "$BW/lua-fi/src/lua $L"
	cost lua "$BW/lua-plain/src/lua $L" "$BW/lua-fi/src/lua $L"
else
	say "lua skipped${SKIP_LUA:+ (SKIP_LUA=$SKIP_LUA)}: $(tail -1 "$W/setup-lua.err" 2>/dev/null)"
fi

if [ "${SKIP_SQLITE:-0}" != 1 ] && sh "$HERE/setup.sh" "$BW" sqlite 2>"$W/setup-sqlite.err"; then
	# the -finstrument-functions shell from setup.sh's amalgamation, as it
	# builds its own (-g -O2)
	F=$W/sqlite3-fi
	if [ ! -x "$F" ] || [ "$BW/sqlite.stamp" -nt "$F" ]; then
		say "building sqlite3's shell with -finstrument-functions (once)"
		$CC -g -O2 -finstrument-functions -DSQLITE_THREADSAFE=1 -o "$F" \
			"$BW/sqlite-gen/sqlite3.c" "$BW/sqlite-gen/shell.c" -lm -ldl -lpthread \
			>"$W/sqlite3-fi.log" 2>&1 || say "sqlite3 -finstrument-functions build failed"
	fi
	awk -v n="$SQLITE_N" 'BEGIN {
		q = sprintf("%c", 39)
		print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, note TEXT, score REAL);"
		print "CREATE INDEX t_score ON t(score);"
		print "BEGIN;"
		for (i = 1; i <= n; i++)
			printf "INSERT INTO t(name, note, score) VALUES(%sname-%d%s, %srow %d of the benchmark%s, %d.5);\n", q, i, q, q, i, q, i % 977
		print "COMMIT;"
		print "SELECT count(*), sum(length(note)), max(score) FROM t;"
		print "SELECT score, count(*) FROM t GROUP BY score ORDER BY 2 DESC LIMIT 3;"
	}' >"$W/load.sql"
	S="-init $W/load.sql :memory: .quit"
	truth sqlite "$BW/sqlite/sqlite3-plain $S" "$F $S"
	cost sqlite "$BW/sqlite/sqlite3-plain $S" "$F $S"
else
	say "sqlite skipped${SKIP_SQLITE:+ (SKIP_SQLITE=$SKIP_SQLITE)}: $(tail -1 "$W/setup-sqlite.err" 2>/dev/null)"
fi
