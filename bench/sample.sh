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
#  - truth: the 10 functions with the most self samples of the untraced
#    plain build under `perf record -e cpu-clock:u --call-graph=dwarf` (the
#    same period), beside their sampled self time in `record --count
#    --sample`, each side the median of RUNS runs (this VM's runs move by
#    +-15 %; a line gives each run's main and the samples set apart as the
#    tracer's), in two tables: the -finstrument-functions build and the
#    patched-entry build (-fpatchable-function-entry=5);
#    each difference against the larger of 10 % and 3 standard errors of
#    the sample counts (3/sqrt(n) of the smaller count), "ok" or "OUT";
#    and main's sampled total against the untraced run's user time (all of
#    perf's samples, the same clock).
#    Like with like: perf's sample goes to the innermost frame of its call
#    chain that is in the program's own binary, a function of it (an
#    inlined call is its caller's, whose code holds it), as calltrace
#    charges time in untraced code (libc's _int_malloc, the loader) to the
#    traced call open; a sample with no frame in the binary (the loader at
#    start-up, an unwinding that fails) is in main's total only.
#    perf's --no-children self time would charge libc's time to libc's
#    symbols instead.  (With LBR, --call-graph=lbr would cost less; this
#    VM has none.)  The -finstrument-functions build cannot match the
#    plain one exactly: gcc adds the hooks' calls to every function, the
#    inlined copies too (their time is the inlined function's there, the
#    caller's in the plain build); the patched-entry build adds 5 bytes of
#    nops to each out-of-line function only;
#  - cost: the CPU time (program and record) of `record --count --sample`
#    against `record --count`, as a share of the plain build's CPU time,
#    for both builds, in COST_RUNS rounds that run each variant once in
#    turn (the medians of the rounds' differences: a round's runs are
#    neighbours in time); how much of it the calls pay (`--count
#    --sample=1`, next to no sample), what a sample costs, and the same
#    with `--sample-clock=tick`; beside it this machine's floor, the
#    clock's interrupt alone (bench/sigcost.c, no tracer) times the
#    samples; and a full recording with `--sample` against one without
#    (Lua's patched build, SAMPLE_LUA_FULL_N, default 50000: some 225 MB
#    a recording, removed).
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), PERF (default perf), SAMPLE_HZ (default 1000), RUNS
# (default 3), COST_RUNS (default 9), SAMPLE_LUA_N (default 200000),
# SAMPLE_LUA_FULL_N (default 50000), SAMPLE_SQLITE_N (default 300000),
# SKIP_LUA=1, SKIP_SQLITE=1, CLOCK (record's --sample-clock for the truth
# tables; default: record's).  Output: tables per workload on
# stdout; the raw files under BENCH_WORK/sample.
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=sample
. "$HERE/lib.sh"
PERF=${PERF:-perf}
HZ=${SAMPLE_HZ:-1000}
CLOCK=${CLOCK:-}
PERIOD=$((1000000000 / HZ))
RUNS=${RUNS:-3}
COST_RUNS=${COST_RUNS:-9}
LUA_N=${SAMPLE_LUA_N:-200000}
LUA_FULL_N=${SAMPLE_LUA_FULL_N:-50000}
SQLITE_N=${SAMPLE_SQLITE_N:-300000}

say() { echo "sample: $*" >&2; }

# MED: awk's med(a, n), the median of a[1..n] (which it sorts), for the
# awk programs below: awk "$MED"'PROGRAM'
MED='function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
'

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
if ! "$PERF" record -q -e cpu-clock:u -o "$W/probe.perf" -- true >/dev/null 2>"$W/probe.err"; then
	say "perf record -e cpu-clock:u refused: $(tail -1 "$W/probe.err"); truth figures skipped"
	PERF=""
fi

# perf_truth NAME PLAIN: perf's samples of the command PLAIN (the untraced
# plain build, word-split), each charged to the innermost frame in PLAIN's
# binary, in RUNS runs: W/NAME.perf.txt has each function's median over the
# runs (samples TAB function, most first; the samples with no such frame as
# "[no frame in the program]"), W/NAME.perf.all the median of the runs'
# sums and W/NAME.perf.runs the sums run by run; false if perf is not there
# or failed
perf_truth() {
	_n=$1 _plain=$2
	[ -n "$PERF" ] || return 1
	# shellcheck disable=SC2086 # the command's words
	set -- $_plain
	_bin=$(readlink -f "$1")
	_i=0
	rm -f "$W/$_n.perf.runs"
	while [ "$_i" -lt "$RUNS" ]; do
		_i=$((_i + 1))
		# shellcheck disable=SC2086
		"$PERF" record -q -e cpu-clock:u -c "$PERIOD" --call-graph=dwarf -o "$W/$_n.perf" \
			-- $_plain >/dev/null 2>"$W/$_n.perf.err" || { say "$_n: perf record failed"; return 1; }
		# (--no-inline: the symbol table's function each frame is in;
		# perf's inline display shows a clone's code, yy_reduce.constprop.0's
		# in sqlite, as "yy_reduce (inlined)" in its caller and drops the
		# clone's own frame: its samples were the caller's)
		"$PERF" script --no-inline -i "$W/$_n.perf" -F ip,sym,dso 2>/dev/null | awk -v bin="$_bin" '
			# one sample: a blank line, then its frames, innermost first:
			# "ADDR SYM (DSO)"
			function done_() { if (in_) { n[fn == "" ? "[no frame in the program]" : fn]++; all++ } in_ = 0; fn = "" }
			/^[[:space:]]*$/ { done_(); next }
			{
				in_ = 1
				if (fn != "") next
				d = $NF; sub(/^\(/, "", d); sub(/\)$/, "", d)
				if (d == bin) { fn = $2 }
			}
			END { done_(); for (f in n) print n[f] "\t" f; print all > "/dev/stderr" }' \
			2>>"$W/$_n.perf.runs" >"$W/$_n.perf.$_i.txt"
	done
	median_of "$W/$_n.perf" "$RUNS" >"$W/$_n.perf.txt"
	awk -v k="$RUNS" "$MED"'{ v[NR] = $1 } END { print med(v, NR) }' \
		"$W/$_n.perf.runs" >"$W/$_n.perf.all"
	[ -s "$W/$_n.perf.txt" ]
}

# median_of BASE K: BASE.1.txt .. BASE.K.txt (samples TAB name) as one
# list of each name's median over the K files (0 where a file lacks it),
# most first
median_of() {
	_b=$1 _k=$2 _j=0 _fs=
	while [ "$_j" -lt "$_k" ]; do
		_j=$((_j + 1))
		_fs="$_fs $_b.$_j.txt"
	done
	# shellcheck disable=SC2086 # the files
	awk -F'\t' -v k="$_k" "$MED"'
		FNR == 1 { f++ }
		{ v[$2, f] = $1; name[$2] = 1 }
		END { for (x in name) { for (i = 1; i <= k; i++) a[i] = v[x, i] + 0; print med(a, k) "\t" x } }' $_fs |
		sort -t "$(printf '\t')" -k1,1gr
}

# truth NAME LABEL TRACED: the table of record --count --sample of the
# command TRACED (a traced build, word-split; LABEL names it) against
# perf_truth's W/NAME.perf.txt: medians of RUNS runs each; then main's
# total and the samples set apart as the tracer's run by run
truth() {
	_n=$1 _l=$2 _tr=$3
	echo "== $_n: sampled self time, record --count --sample ($HZ Hz${CLOCK:+, --sample-clock=$CLOCK}) of the $_l build"
	echo "== against perf record -e cpu-clock:u -c $PERIOD --call-graph=dwarf of the plain build"
	echo "== (perf: each sample to its innermost frame in the program's binary; medians of $RUNS runs)"
	_i=0
	rm -f "$W/$_n-$_l.runs"
	while [ "$_i" -lt "$RUNS" ]; do
		_i=$((_i + 1))
		_d=$W/$_n-$_l.d
		rm -rf "$_d"
		# shellcheck disable=SC2086 # the commands' words
		"$CT" record -q -d "$_d" --count --sample="$HZ" ${CLOCK:+--sample-clock=$CLOCK} $_tr \
			>/dev/null 2>"$W/$_n-$_l.rec.err" ||
			{ say "$_n: record failed: $(tail -1 "$W/$_n-$_l.rec.err")"; return; }
		"$CT" report -d "$_d" --format=csv |
			awk -F, 'NR > 1 { print $4 "\t" $1 }' >"$W/$_n-$_l.$_i.txt"
		"$CT" report -d "$_d" --format=json >"$W/$_n-$_l.json"
		# main's total, all samples, the tracer's, the takings
		awk '{
			if (match($0, /"name":"main","calls":[0-9]+,"samples_total":[0-9]+/)) {
				s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); m = s }
			if (match($0, /"samples":\{"all":[0-9]+/)) {
				s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); a = s }
			if (match($0, /"hooks":[0-9]+/)) {
				s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); h = s }
			if (match($0, /"taken":[0-9]+/)) {
				s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); t = s }
		} END { print m + 0, a + 0, h + 0, (t ? t : a) + 0 }' "$W/$_n-$_l.json" >>"$W/$_n-$_l.runs"
	done
	median_of "$W/$_n-$_l" "$RUNS" >"$W/$_n-$_l.txt"
	if [ ! -s "$W/$_n.perf.txt" ]; then
		echo "(no perf: the truth figures are skipped)"
		return
	fi
	awk -F'\t' -v period="$PERIOD" -v ours="$W/$_n-$_l.txt" -v runs="$W/$_n-$_l.runs" \
		-v all="$(cat "$W/$_n.perf.all")" -v pruns="$(tr '\n' ' ' <"$W/$_n.perf.runs")" "$MED"'
		BEGIN {
			FS = "\t"
			while ((getline l < ours) > 0) { split(l, f, "\t"); self[f[2]] = f[1] }
			r = 0
			while ((getline l < runs) > 0) {
				split(l, f, " "); r++; mm[r] = f[1]; aa[r] = f[2]; hh[r] = f[3]; tk[r] = f[4]
				ml = ml " " f[1]; hl = hl " " f[3] "/" f[2]
				# (the tick clock: a taking stands for w samples, the
				# errors of the counts are those of the takings)
				wr[r] = f[4] > 0 ? f[2] / f[4] : 1
			}
			main = med(mm, r); w = med(wr, r)
			if (w > 1.05)
				printf "(each taking stands for %.1f samples: the bounds are on the takings)\n", w
			printf "%-28s %9s %9s %9s %9s %7s %7s\n", "function", "perf ms", "ours ms",
				"perf smp", "ours smp", "diff", "bound"
		}
		$2 ~ /^\[/ { next }
		{ if (++k <= 10) { name[k] = $2; n[k] = $1 } }
		END {
			for (i = 1; i <= 10 && i in n; i++) {
				p = n[i]; o = self[name[i]] + 0
				m = p < o / w ? p : o / w
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
			printf "run by run: perf all%s; main%s; the tracer'\''s/all%s\n", " " pruns, ml, hl
		}' "$W/$_n.perf.txt"
}

# floor: this machine's price of one period of the default clock with
# nothing else, bench/sigcost.c's `nosig` less its `none` (a perf event on
# the thread's task-clock raising no signal: the timer's interrupt alone),
# at 10 kHz (ten times the interrupts of 1 kHz against the same noise of
# the loop's CPU time), 5 rounds of the two in turn, the least CPU time of
# each (other work only adds to a run's time: a median of differences
# took a disturbed `none` for a cheap interrupt), in ns a period:
# FLOOR_NS (empty where the perf event is refused)
floor() {
	FLOOR_NS=
	$CC -O2 -Wall -o "$W/sigcost" "$HERE/sigcost.c" 2>"$W/sigcost.err" || return
	_i=0
	rm -f "$W/floor.runs"
	while [ "$_i" -lt 5 ]; do
		_i=$((_i + 1))
		"$W/sigcost" none 10000 1000000000 >>"$W/floor.runs" 2>&1
		"$W/sigcost" nosig 10000 1000000000 >>"$W/floor.runs" 2>&1
	done
	# "MODE HZ Hz: cpu MS ms (...), N signals, P periods"
	FLOOR_NS=$(awk '
		$1 == "none" && $3 == "Hz:" { if (!n++ || $5 < a) a = $5 }
		$1 == "nosig" && $3 == "Hz:" && $(NF - 1) > 0 { if (!m++ || $5 < b) { b = $5; p = $(NF - 1) } }
		END { if (n && m) { f = (b - a) / p * 1e6; if (f > 0) printf "%d", f } }' "$W/floor.runs")
}

# samples_all DIR: all the samples of the recording DIR (report's JSON)
samples_all() {
	"$CT" report -d "$1" --format=json 2>/dev/null | awk '
		match($0, /"samples":\{"all":[0-9]+/) { s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); a = s }
		END { print a + 0 }'
}

# cost NAME LABEL PLAIN TRACED: COST_RUNS rounds, each running in turn the
# plain build PLAIN, record --count, --count --sample, --count --sample=1
# and --count --sample --sample-clock=tick of TRACED (the LABEL build);
# CPU time of program and record (bench/timeit.c).  This VM's runs move
# by +-10 % from one to the next: each round's differences are taken
# within the round (as shares of its plain run), and the medians of the
# rounds printed, beside each variant's median and least time
cost() {
	_n=$1 _l=$2 _plain=$3 _fi=$4
	_f=$W/$_n-$_l.cost
	rm -f "$_f"
	_i=0
	while [ "$_i" -lt "$COST_RUNS" ]; do
		_i=$((_i + 1))
		# shellcheck disable=SC2086 # the commands' words
		{
			t 1 "" $_plain | cut -d' ' -f3
			t 1 "rm -rf $W/c.d" "$CT" record -q -d "$W/c.d" --count $_fi | cut -d' ' -f3
			t 1 "rm -rf $W/s.d" "$CT" record -q -d "$W/s.d" --count --sample="$HZ" $_fi |
				cut -d' ' -f3
			samples_all "$W/s.d"
			# (--sample=1: next to no sample, what the calls pay for
			# the samples' sake: nothing on x86-64's hooked front
			# ends, whose samples unwind; the counting stack on
			# aarch64's)
			t 1 "rm -rf $W/s.d" "$CT" record -q -d "$W/s.d" --count --sample=1 $_fi |
				cut -d' ' -f3
			# (the tick's clock: no interrupt of its own, a signal
			# per tick)
			t 1 "rm -rf $W/s.d" "$CT" record -q -d "$W/s.d" --count --sample="$HZ" \
				--sample-clock=tick $_fi | cut -d' ' -f3
		} | tr '\n' ' ' >>"$_f"
		echo >>"$_f"
	done
	echo "== $_n: cost of the $_l build (CPU time of program and record; $COST_RUNS rounds, each variant once a round in turn)"
	awk -v floor="${FLOOR_NS:-}" -v hz="$HZ" "$MED"'
		function least(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
		function copy(a, b, n,   i) { for (i = 1; i <= n; i++) b[i] = a[i] }
		function row(name, a, extra,   b, c) {
			copy(a, b, r); copy(a, c, r)
			printf "  %-34s %9.1f %9.1f %s\n", name, med(b, r) / 1e6, least(c, r) / 1e6, extra }
		NF >= 6 && $1 > 0 {
			r++; p[r] = $1; c[r] = $2; s[r] = $3; n[r] = $4; s1[r] = $5; tk[r] = $6
			ds[r] = (s[r] - c[r]) / p[r] * 100; dc[r] = (s[r] - c[r]) / c[r] * 100
			d1[r] = (s1[r] - c[r]) / p[r] * 100; dt[r] = (tk[r] - c[r]) / p[r] * 100
			us[r] = n[r] ? (s[r] - s1[r]) / n[r] / 1e3 : 0
			fl[r] = floor ? n[r] * floor / p[r] * 100 : 0
			line = line sprintf(" %+.1f", ds[r])
		}
		END {
			if (!r) { print "  (no round ran)"; exit }
			printf "  %-34s %9s %9s   %s\n", "", "median ms", "least ms", "over --count, median of the rounds"
			row("plain", p, "")
			row("record --count", c, "")
			copy(ds, t1, r); copy(dc, t2, r)
			row("record --count --sample", s, sprintf("%+.1f %% of the plain run (target: at most +2 %%), %+.1f %% of the --count run", med(t1, r), med(t2, r)))
			copy(d1, t1, r)
			row("record --count --sample=1", s1, sprintf("%+.1f %%: what the calls pay", med(t1, r)))
			copy(dt, t1, r)
			row("... --sample-clock=tick", tk, sprintf("%+.1f %%", med(t1, r)))
			copy(n, t1, r); copy(us, t2, r)
			printf "  rounds (--count --sample over --count, %% of plain):%s\n", line
			printf "  %d samples a run (median): %.1f us a sample (median of the rounds; --sample less --sample=1)\n", med(t1, r), med(t2, r)
			if (floor) {
				copy(fl, t1, r)
				printf "  this machine'\''s floor: the clock'\''s interrupt alone costs %.1f us a period (bench/sigcost.c nosig - none at 10 kHz, least of 5),\n", floor / 1e3
				printf "  that many samples %.1f %% of the plain run before any signal or work\n", med(t1, r)
			}
		}' "$_f"
}

# cost_full NAME LABEL TRACED: a full recording with --sample against one
# without, COST_RUNS rounds of the two in turn (CPU time of program and
# record), the median of the rounds' differences as a share of the run
# without; the recordings (a few hundred MB) removed before each run and
# at the end, bounded by ulimit -f
cost_full() {
	_n=$1 _l=$2 _tr=$3
	_f=$W/$_n-$_l.full
	rm -f "$_f"
	_i=0
	while [ "$_i" -lt "$COST_RUNS" ]; do
		_i=$((_i + 1))
		# shellcheck disable=SC2086 # the command's words
		{
			t 1 "rm -rf $W/f.d" "$CT" record -q -d "$W/f.d" $_tr | cut -d' ' -f3
			t 1 "rm -rf $W/f.d" "$CT" record -q -d "$W/f.d" --sample="$HZ" $_tr | cut -d' ' -f3
			samples_all "$W/f.d"
		} | tr '\n' ' ' >>"$_f"
		echo >>"$_f"
	done
	rm -rf "$W/f.d"
	echo "== $_n: cost of --sample in a full recording of the $_l build (CPU time of program and record; $COST_RUNS rounds, the two in turn)"
	awk "$MED"'
		NF >= 3 && $1 > 0 { r++; a[r] = $1; b[r] = $2; n[r] = $3; d[r] = ($2 - $1) / $1 * 100; line = line sprintf(" %+.1f", d[r]) }
		END {
			if (!r) { print "  (no round ran)"; exit }
			printf "  record %.1f ms, record --sample %.1f ms (medians), %d samples: %+.1f %% (median of the rounds; target: at most +3 %%)\n", med(a, r) / 1e6, med(b, r) / 1e6, med(n, r), med(d, r)
			printf "  rounds:%s\n", line
		}' "$_f"
}

floor
if [ "${SKIP_LUA:-0}" != 1 ] && sh "$HERE/setup.sh" "$BW" 2>"$W/setup-lua.err"; then
	L="$HERE/script.lua $LUA_N"
	perf_truth lua "$BW/lua-plain/src/lua $L" || rm -f "$W/lua.perf.txt"
	truth lua finstrument-functions "$BW/lua-fi/src/lua $L"
	truth lua patch "$BW/lua-patch/src/lua $L"
	cost lua finstrument-functions "$BW/lua-plain/src/lua $L" "$BW/lua-fi/src/lua $L"
	cost lua patch "$BW/lua-plain/src/lua $L" "$BW/lua-patch/src/lua $L"
	(ulimit -f 4000000 && cost_full lua patch "$BW/lua-patch/src/lua $HERE/script.lua $LUA_FULL_N")
else
	say "lua skipped${SKIP_LUA:+ (SKIP_LUA=$SKIP_LUA)}: $(tail -1 "$W/setup-lua.err" 2>/dev/null)"
fi

if [ "${SKIP_SQLITE:-0}" != 1 ] && sh "$HERE/setup.sh" "$BW" sqlite 2>"$W/setup-sqlite.err"; then
	# the -finstrument-functions and patched-entry shells from setup.sh's
	# amalgamation, as it builds its own (-g -O2)
	for _b in "fi -finstrument-functions" "patch -fpatchable-function-entry=5"; do
		F=$W/sqlite3-${_b%% *}
		if [ ! -x "$F" ] || [ "$BW/sqlite.stamp" -nt "$F" ]; then
			say "building sqlite3's shell with ${_b#* } (once)"
			$CC -g -O2 "${_b#* }" -DSQLITE_THREADSAFE=1 -o "$F" \
				"$BW/sqlite-gen/sqlite3.c" "$BW/sqlite-gen/shell.c" -lm -ldl -lpthread \
				>"$W/sqlite3-${_b%% *}.log" 2>&1 || say "sqlite3 ${_b#* } build failed"
		fi
	done
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
	perf_truth sqlite "$BW/sqlite/sqlite3-plain $S" || rm -f "$W/sqlite.perf.txt"
	truth sqlite finstrument-functions "$W/sqlite3-fi $S"
	truth sqlite patch "$W/sqlite3-patch $S"
	cost sqlite finstrument-functions "$BW/sqlite/sqlite3-plain $S" "$W/sqlite3-fi $S"
	cost sqlite patch "$BW/sqlite/sqlite3-plain $S" "$W/sqlite3-patch $S"
else
	say "sqlite skipped${SKIP_SQLITE:+ (SKIP_SQLITE=$SKIP_SQLITE)}: $(tail -1 "$W/setup-sqlite.err" 2>/dev/null)"
fi
