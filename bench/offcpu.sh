#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/offcpu.sh: issue 29's off-CPU target (doc/record.md, "Off-CPU
# time"): a call that sleeps 50 ms and spins 50 ms of CPU time, recorded
# with `record --sched`, must show about 50/50 on and off a CPU (within
# 10 %).  Measures, asserts nothing.
#
#   sh bench/offcpu.sh          (after make; called by bench/run.sh)
#
# Each of RUNS runs (default 5) prints work()'s duration, its on-CPU and
# off-CPU time from `report` (Off-CPU column; on = duration - off) and
# their split against 50/50 ("ok" when each part is within 10 % of its
# 50 ms), and beside it what the program's own clocks said (its thread's
# CPU time across the call, and the wall time less that): on a loaded
# machine preemption adds off-CPU time to both, which the second verdict
# (ours against the program's own, within 10 %) takes out.  The machine's
# load is printed with each run.  A kernel that refuses the context
# switches (perf_event_paranoid 3, seccomp) is said and the figures
# skipped.
#
# Environment: CALLTRACE (default build/calltrace), BENCH_WORK (default
# bench/work), RUNS (default 5).  The raw files under BENCH_WORK/offcpu.
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=offcpu
. "$HERE/lib.sh"
RUNS=${RUNS:-5}

$CC -O2 -g -finstrument-functions -o "$W/offcpu-fi" "$HERE/offcpu.c" || exit 1
echo "== off-CPU: work() sleeps 50 ms and spins 50 ms of CPU time; record --sched (target 50/50 within 10 %)"
printf '%-4s %9s %9s %9s %11s %-4s %20s %-4s %s\n' run "work ms" "on ms" "off ms" "on/off %" "50/50" "own: on/off ms" "same" load
i=1
while [ "$i" -le "$RUNS" ]; do
	rm -rf "$W/d"
	"$CT" record -q -d "$W/d" --sched "$W/offcpu-fi" >/dev/null 2>"$W/rec.err"
	if grep -q 'gives no context switches' "$W/rec.err"; then
		echo "(the kernel gives no context switches: $(grep 'gives no context switches' "$W/rec.err" | head -n 1))"
		exit 0
	fi
	"$CT" report -d "$W/d" --format=csv >"$W/report.csv" 2>"$W/report.err" || {
		echo "report failed: $(head -n 1 "$W/report.err")"
		exit 0
	}
	own=$(sed -n 's/^offcpu: own clocks: [0-9.]* ms, on CPU \([0-9.]*\) ms, off CPU \([0-9.]*\) ms$/\1 \2/p' "$W/rec.err")
	awk -F, -v run="$i" -v own="$own" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
		NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		$c["function"] == "work" { tot = $c["total_ns"] / 1e6; off = $c["offcpu_ns"] / 1e6 }
		END {
			on = tot - off
			split(own, o, " ")
			ok = (on >= 45 && on <= 55 && off >= 45 && off <= 55) ? "ok" : "OUT"
			same = (o[1] > 0 && o[2] > 0 && on / o[1] >= 0.9 && on / o[1] <= 1.1 &&
				off / o[2] >= 0.9 && off / o[2] <= 1.1) ? "ok" : "OUT"
			printf "%-4s %9.2f %9.2f %9.2f %5.1f/%-5.1f %-4s %9.2f/%-10.2f %-4s %s\n", run, tot, on, off,
				tot ? 100 * on / tot : 0, tot ? 100 * off / tot : 0, ok, o[1], o[2], same, load
		}' "$W/report.csv"
	i=$((i + 1))
done
