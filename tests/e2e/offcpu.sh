# record --sched (doc/record.md "Off-CPU time"): the kernel's context
# switches of the traced threads give each call the time its thread was
# switched out inside it (tests/e2e/offcpu.c).  Lower bounds only, which
# load cannot break: work() sleeps 50 ms, so its off-CPU time is at least
# that (49 ms: the switch-out comes a little after the timer is armed),
# and then spins until its thread's CPU clock has advanced 50 ms, so its
# time on a CPU (duration less off-CPU) is at least 45 ms (90 %: the CPU
# clock cannot advance while off a CPU); lock_wait() is blocked on the
# mutex while the other thread spins 30 ms of CPU time (29 ms); a forked
# child's nap() sleeps 20 ms (19 ms); no call is off a CPU longer than it
# lasted.  replay notes them.  Without --sched, and where the kernel
# refuses (simulated: the knob CALLTRACE_TEST_SCHED_ERRNO of record),
# nothing of it shows; record says why once and records the rest.  A
# damaged DIR/sched is a warning naming it.
# variants: one
# front-ends: few
build prog "$E2E/offcpu.c"

section "record --sched"
record d --sched ./prog
want_rc "record --sched ./prog" $RC 0 "$W/d.err"
add <"$W/d.out"
grep -c 'gives no context switches' "$W/d.err" | sed 's/^/messages that the kernel gives no context switches: /' | add
test -f "$W/d/sched" && echo "DIR/sched written" | add
grep -q 'context switch.* recorded (--sched)' "$W/d.err" && echo "the summary counts them" | add
ct report d | sed -n 1p | add
ct report d --format=csv >"$W/d.csv"
ct report d --format=csv --raw >"$W/raw.csv"
head -n 1 "$W/d.csv" | add
python3 - "$W/d.csv" "$W/raw.csv" 2>>"$W/figures" <<'PY' | add
import csv, sys
def rows(p):
    return {r["function"]: r for r in csv.DictReader(open(p))}
c, raw = rows(sys.argv[1]), rows(sys.argv[2])
ms = lambda r, k: int(r[k]) / 1e6
w = c["work"]
off, tot = ms(w, "offcpu_ns"), ms(w, "total_ns")
print("work off-CPU >= 49 ms (its 50 ms sleep):", off >= 49)
print("work on CPU >= 45 ms (its 50 ms of CPU time):", tot - off >= 45)
print("lock_wait off-CPU >= 29 ms (the mutex held for 30 ms of CPU):", ms(c["lock_wait"], "offcpu_ns") >= 29)
print("nap off-CPU >= 19 ms (the forked child's 20 ms sleep):", ms(c["nap"], "offcpu_ns") >= 19)
print("no call off a CPU longer than it lasted:", all(int(r["offcpu_ns"]) <= int(r["total_ns"]) for r in raw.values()))
sys.stderr.write("work: %.1f ms, off-CPU %.1f ms, on CPU %.1f ms (%.0f/%.0f); lock_wait off-CPU %.1f of %.1f ms; nap %.1f of %.1f ms\n" % (
    tot, off, tot - off, 100 * (tot - off) / tot, 100 * off / tot,
    ms(c["lock_wait"], "offcpu_ns"), ms(c["lock_wait"], "total_ns"),
    ms(c["nap"], "offcpu_ns"), ms(c["nap"], "total_ns")))
PY
ct report d --format=json >"$W/d.json"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("json offcpu_ns on every row:", all("offcpu_ns" in f for f in r["functions"]))' "$W/d.json" | add
ct report d -s offcpu --format=csv | sed -n 2p | cut -d, -f1 | sed 's/^/report -s offcpu: first row /' | add
# graph: an OFF-CPU column, work's as report's
ct graph d >"$W/graph.txt"
sed -n 2p "$W/graph.txt" | add
g=$(awk '$NF == "+-work" { print $6, $7 }' "$W/graph.txt")
r=$(ct report d | awk '$NF == "work" { print $12, $13 }')
[ -n "$g" ] && [ "$g" = "$r" ] && echo "graph's off-CPU of work is report's" | add
[ "$g" = "$r" ] || fail "graph's off-CPU of work '$g', report's '$r'"
ct graph d --no-time | sed -n 2p | add
# the HTML timeline: each thread's off-CPU spans ("off", shaded behind
# its calls): those inside work's box add up to its 50 ms sleep at least
ct export d --format=html -o "$W/d.html"
python3 - "$W/d.html" <<'PY' | add
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S).group(1))
fns = [f[0] for f in d["fns"]]
for t in d["timeline"]["threads"]:
    for c in t["calls"]:
        if fns[c[0]] == "work":
            a, b = c[2], c[2] + c[3]
            off = sum(max(0, min(b, o[0] + o[1]) - max(a, o[0])) for o in t.get("off", []))
            print("html timeline: off-CPU spans inside work >= 49 ms:", off >= 49e6)
PY
# replay: a note inside each call that was switched out, as long as the
# report's figure (preemption on a busy machine may add notes elsewhere)
ct replay d >"$W/replay.txt"
for f in work lock_wait nap; do
	awk -v f="$f" '
	function ns(v, u) { return v * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1) }
	$0 ~ ("\\| *" f "\\(\\);$") || $0 ~ ("} /\\* " f " \\*/$") { want = 1; next }
	want { want = 0
		if (match($0, /\/\* off-CPU [0-9.]+ +[a-z]+ \*\//)) {
			split(substr($0, RSTART + 11, RLENGTH - 14), a, " ")
			print "replay notes " f "'\''s off-CPU time: " (ns(a[1], a[2]) >= 19e6 ? "yes" : "too short: " a[1] a[2])
			found = 1
		} }
	END { if (!found) print "replay has no off-CPU note after " f }' "$W/replay.txt" | add
done
# the tree as without --sched (the notes are comments of their own)
ct replay d --no-duration --per-thread | grep -v "/\* off-CPU " | normalize_threads | add

section "an exec'd image (sh -c)"
record ex --sched sh -c './prog'
want_rc "record --sched sh -c ./prog" $RC 0 "$W/ex.err"
ct report ex --format=csv >"$W/ex.csv"
python3 -c 'import csv, sys
c = {r["function"]: r for r in csv.DictReader(open(sys.argv[1]))}
print("work off-CPU >= 49 ms:", int(c["work"]["offcpu_ns"]) >= 49e6)
print("nap off-CPU >= 19 ms:", int(c["nap"]["offcpu_ns"]) >= 19e6)' "$W/ex.csv" | add

section "without --sched"
record plain ./prog
want_rc "record ./prog" $RC 0 "$W/plain.err"
test -e "$W/plain/sched" && echo "DIR/sched written" | add
ct report plain | sed -n 1p | add
ct graph plain | sed -n 2p | add
ct report plain --format=csv | csv_calls | add
ct replay plain | grep -c 'off-CPU' | sed 's/^/off-CPU notes: /' | add
ct export plain --format=html -o "$W/plain.html"
grep -c '"off":' "$W/plain.html" | sed 's/^/html timeline off-CPU spans: /' | add
guard "$CT" report -d "$W/plain" -s offcpu >/dev/null 2>"$W/o.err"
echo "report -s offcpu without --sched: exit $RC" | add
sed 's|/[^ ]*/plain|DIR|' "$W/o.err" | add

section "the HTML timeline in a browser (tests/browser/html_offcpu.js)"
if [ "${FRONT:-instr}" != instr ]; then
	: # (the page is the same whatever the front end)
elif ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	echo "the browser test needs node and chromium" >>"$W/skipped"
else
	guard node "$TOP/tests/browser/html_offcpu.js" "$W/d.html" "$W/plain.html" >"$W/browser.out" 2>&1
	want_rc "tests/browser/html_offcpu.js" $RC 0 ||
		fail "browser test: $(grep -v '^ok' "$W/browser.out" | head -n 20)"
fi

section "the kernel refuses"
guard env CALLTRACE_TEST_SCHED_ERRNO=13 "$CT" record --sched -d "$W/no" ./prog \
	</dev/null >"$W/no.out" 2>"$W/no.err"
want_rc "record --sched ./prog (refused)" $RC 0 "$W/no.err"
add <"$W/no.out"
grep -c 'gives no context switches' "$W/no.err" | sed 's/^/messages that the kernel gives no context switches: /' | add
grep 'gives no context switches' "$W/no.err" | sed 's/perf_event_paranoid is [-0-9?]*/perf_event_paranoid is N/' | add
test -e "$W/no/sched" && echo "DIR/sched written" | add
grep -q 'recorded (--sched)' "$W/no.err" && echo "the summary counts them" | add
ct report no | sed -n 1p | add
ct report no --format=csv | csv_calls | add

section "not with --count"
guard "$CT" record --sched --count -d "$W/cnt" ./prog </dev/null >/dev/null 2>"$W/cnt.err"
echo "record --sched --count: exit $RC" | add
add <"$W/cnt.err"

section "a damaged DIR/sched"
cp -r "$W/d" "$W/bad"
printf 'garbage garbage garbage' >"$W/bad/sched"
ct report bad | sed -n 1p | add
sed 's|/[^ ]*/bad/|DIR/|' "$W/last.err" | add
cp -r "$W/d" "$W/cut"
printf 'xyz' >>"$W/cut/sched"
ct report cut | sed -n 1p | add
sed 's|/[^ ]*/cut/|DIR/|' "$W/last.err" | add
golden
