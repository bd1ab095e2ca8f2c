# sure: how sure the times are (doc/overhead.md, "How sure the numbers
# are").  Two recordings:
#
# 1. syn, written here with known clock values and calibration figures
#    (1 ns clock ticks; inner 20 ns, outer 40 ns): tiny's 1001 calls last
#    22 ns as recorded (one 15 ns: its cost is clipped), 2 ns corrected;
#    calls makes them; work lasts milliseconds; a second process has no
#    figures (as recorded).  Its views are golden: info's cost lines
#    (taken 40155 ns; clipped 25 ns: 5 in a call shorter than its hooks, 20 spent before each thread's first event, share of 3547490 ns), report's marks
#    (tiny and calls, never work), legend and footer, also per thread and
#    in JSON (CSV unchanged), --raw's footer and no marks, graph's marked
#    lines and backtrace, the HTML report's flags (and, once, the page in
#    Chromium: tests/browser/html_cost.js); info on a corrupted stream still
#    prints its lines, then exits 1 naming the file.
# 2. sure.c, recorded: the marks agree with the recorded and corrected
#    totals in report (text and JSON), graph and the HTML data, whatever
#    the machine's load; work is never marked; the footer's share lies
#    between 0 and 100 %; --raw says the times are as recorded; info
#    prints the cost lines.  Whether tiny (an empty function) is marked
#    in a real recording depends on the machine: preemptions land in its
#    calls' times and the correction does not take them out (measured: at
#    a load of 8 on 2 cores most recordings had them), so this part checks
#    that every view marks what the totals say, not which functions; the
#    marks themselves are checked in part 1.
# variants: all

# the JSON of the HTML report's <script id="ct-data"> element
cat >"$W/data.py" <<'PY'
import json, re
def data(path):
    s = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S)
    return json.loads(m.group(1))
PY

# ---- 1. the recording of known times ------------------------------------
python3 - "$W/syn" <<'PY' || die "could not write the recording"
import os, struct, sys
d = sys.argv[1]
os.makedirs(d + "/sym")
BID = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"
MAIN, CALLS, TINY, WORK = 0x401000, 0x401100, 0x401200, 0x401300
def write(name, text):
    open(os.path.join(d, name), "w").write(text)
write("sym/%s.sym" % BID, "calltrace-sym 1\nbuildid %s\npath /nonexistent/syn\n"
      "1000 80 main\n1100 80 calls\n1200 10 tiny\n1300 80 work\n" % BID)
module = "module 1000 400000 400000 402000 %s /nonexistent/syn\n" % BID
# inner 2000 ticks over 100 calls: 20 ns a call; outer 40 ns
write("10-0.proc", "calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /nonexistent/syn\n"
      "arg syn\noverhead 100 2000 4000\nfrontend cyg\n" + module)
# an older calltrace's process: no figures, its times as recorded
write("20-0.proc", "calltrace-proc 1\npid 20\nppid 10\ngen 0\nexe /nonexistent/syn\n"
      "arg syn\n" + module)
nev = 0
def stream(pid, tid, recs):
    global nev
    # struct ct_ev_file_header: magic, version, pid, tid, gen, start_tsc
    b = b"CTEVENT1" + struct.pack("<IIIIQ", 1, pid, tid, 0, 1000)
    for kind, delta, addr in recs:
        if kind == "enter":
            b += struct.pack("<Q", 2 | delta << 2 | addr << 24)
        else:
            b += struct.pack("<I", 1 | delta << 2)
        nev += 1
    open(os.path.join(d, "%d-0-%d.ev" % (pid, tid)), "wb").write(b)
def call(addr, gap, dur, inside=()):
    return [("enter", gap, addr)] + list(inside) + [("exit", dur, 0)]
tiny = []
for i in range(1000):
    tiny += call(TINY, 25, 22)
tiny += call(TINY, 25, 15)   # shorter than the hooks' inner cost: 5 ns clipped
# main { calls { tiny x1001 } work }, then a thread of work, then the old process
stream(10, 10, [("enter", 100, MAIN), ("enter", 50, CALLS)] + tiny +
       [("exit", 50, 0)] + call(WORK, 50, 20000) + [("exit", 100, 0)])
stream(10, 11, call(WORK, 100, 10000))
stream(20, 20, [("enter", 100, MAIN)] + call(WORK, 100, 5000) + [("exit", 100, 0)])
write("info", "calltrace-data: 1\ncommand: syn\nstart_time: 2026-11-28T00:00:00Z\n"
      "clock: mono\nclock_hz: 1000000000\nstart_clock: 1000\nend_clock: 100000\n"
      "exit_status: exit 0\nprocesses: 2\nthreads: 3\nevents: %d\nlost: 0\n"
      "unmatched: 0\nwaits: 0\ncomplete: 1\n" % nev)
PY

section "syn: info, the tracer's cost"
ct info syn | grep -E '^(cost|process)|^  cost:' | add
section "syn: report"
ct report syn | add
section "syn: report --per-thread"
ct report syn --per-thread | sed 's/^# thread \([0-9]*\) (process \([0-9]*\))$/# thread \1 of \2/' | add
section "syn: report --raw"
ct report syn --raw | add
section "syn: report --format=csv (unchanged)"
ct report syn --format=csv | add
section "syn: report --format=json (parsed back)"
ct report syn --format=json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["functions"]:
    print(f["name"], "mostly_cost", f["mostly_cost"])
print("times", d["times"], "cost", d["cost"])' 2>&1 | add
ct report syn --format=json --per-thread | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("--per-thread:", [(t["tid"], [f["name"] for f in t["functions"] if f["mostly_cost"]]) for t in d["threads"]],
      "times", d["times"], "cost", d["cost"])' 2>&1 | add
ct report syn --format=json --raw | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("--raw:", [f["name"] for f in d["functions"] if f["mostly_cost"]], "times", d["times"], "cost", d["cost"])' 2>&1 | add
section "syn: graph"
ct graph syn | add
section "syn: graph tiny"
ct graph syn tiny | add
section "syn: graph --no-time (no times, no marks)"
ct graph syn --no-time | add
section "syn: graph --raw (no marks)"
ct graph syn --raw | add
section "syn: export --format=html, the marks in its data"
ct export syn --format=html -o "$W/syn.html"
python3 - "$W/syn.html" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
fns = d["fns"]
for f in fns:
    print("fn", f[0], "total", f[2], "mostly_cost", f[6])
path = []
for r in d["tree"]:
    path.append((path[r[0]] + ";" if r[0] >= 0 else "") + fns[r[1]][0])
    print("path", path[-1], "total", r[3], "mostly_cost", r[5])
PY
ct export syn --format=html --raw -o "$W/synraw.html"
python3 - "$W/synraw.html" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
print("--raw: marked", [f[0] for f in d["fns"] if f[6]], [r for r in d["tree"] if r[5]])
PY

section "syn: info on a corrupted stream: its lines, then exit 1 naming the file"
build_tool corrupt
rm -rf "$W/bad"
cp -r "$W/syn" "$W/bad"
"$W/tool_corrupt" "$W/bad/10-0-10.ev" 40 4096 1
guard "$CT" info -d "$W/bad" >"$W/bad.out" 2>"$W/bad.err"
echo "exit $RC" | add
grep -c '^cost taken out:' "$W/bad.out" | sed 's/^/cost lines: /' | add
grep -q '^ *(up to a stream that could not be read' "$W/bad.out" && echo "says the cost is up to the error" | add
grep -q '10-0-10.ev' "$W/bad.err" && echo "the message names the file" | add

# the browser shows the marks (once: it takes seconds)
if [ "$VARIANT" = gcc-O0 ]; then
	if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
		echo "the browser check needs node and chromium (sh tools/install-deps.sh)" >>"$W/skipped"
	else
		guard node "$TOP/tests/browser/html_cost.js" "$W/syn.html" "tiny,calls" >"$W/browser.out" 2>&1
		want_rc "tests/browser/html_cost.js" $RC 0 ||
			fail "browser check: $(grep -v '^ok' "$W/browser.out" | head -n 20)"
		guard node "$TOP/tests/browser/html_cost.js" "$W/synraw.html" "" >"$W/browserraw.out" 2>&1
		want_rc "tests/browser/html_cost.js (--raw)" $RC 0 ||
			fail "browser check (--raw): $(grep -v '^ok' "$W/browserraw.out" | head -n 20)"
	fi
fi

# ---- 2. a real program ---------------------------------------------------
build prog "$E2E/sure.c"

# verdicts FILE.csv RAW.csv: "NAME 1|0" per function: marked when its
# recorded total is more than 5 times its corrected one, as
# ct_mostly_cost computes it (integer division)
verdicts() {
	awk -F, 'FNR == 1 { f++; next }
		 f == 1 { corr[$1] = $3 }
		 f == 2 { raw[$1] = $3 }
		 END { for (n in corr) print n, (int(raw[n] / 5) > corr[n] + 0) ? 1 : 0 }' "$1" "$2" |
		LC_ALL=C sort
}

D=d
record $D ./prog
want_rc "record ./prog" $RC 0 "$W/$D.err"
ct report $D --format=csv >"$W/corr.csv"
ct report $D --raw --format=csv >"$W/raw.csv"
verdicts "$W/corr.csv" "$W/raw.csv" >"$W/verdicts"

section "a recording: report's marks as the totals say"
ct report $D >"$W/report.txt"
# NAME 1|0 from the table's lines (the name last, " *" after a marked one)
awk '/^  ====/ { t = 1; next } /^$/ { t = 0 } t && /^ / { m = ($NF == "*"); if (m) NF--; print $NF, m }' \
	"$W/report.txt" | LC_ALL=C sort >"$W/text.marks"
cmp -s "$W/verdicts" "$W/text.marks" && echo "report: every mark as the totals say: yes" | add ||
	fail "report's marks $(tr '\n' ' ' <"$W/text.marks"), the totals say $(tr '\n' ' ' <"$W/verdicts")"
grep -q '^work 0$' "$W/text.marks" && echo "report: work not marked" | add
legend=$(grep -c "^\* mostly the tracer's own cost" "$W/report.txt")
want=0
grep -q ' 1$' "$W/verdicts" && want=1
[ "$legend" = "$want" ] && echo "report: the legend when a row is marked: yes" | add ||
	fail "report: $legend legend lines, $want expected"
awk '/^# tracer.s cost taken out: [0-9.]+ [mun]?s, [0-9.]+ % of the [0-9.]+ [mun]?s the threads recorded$/ {
	p = $0; sub(/.*, /, "", p); sub(/ %.*/, "", p); ok = (p + 0 >= 0 && p + 0 <= 100) }
     END { print "report: the cost taken out, its share between 0 and 100 %: " (ok ? "yes" : "no") }' "$W/report.txt" | add
grep -c "^# clipped: [0-9.]* [mun]*s (estimated cost beyond" "$W/report.txt" | sed 's/^/report: clipped lines: /' | add
ct report $D --format=csv | csv_calls | add
ct report $D --format=json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("\n".join("%s %d" % (f["name"], f["mostly_cost"]) for f in sorted(d["functions"], key=lambda f: f["name"])))
c = d["cost"]
print("cost", d["times"], 0 <= c["taken_ns"] <= c["span_ns"], c["clipped_ns"] >= 0, file=sys.stderr)' >"$W/json.marks" 2>"$W/json.cost"
LC_ALL=C sort "$W/json.marks" | cmp -s - "$W/verdicts" && echo "report --format=json: mostly_cost as the totals say: yes" | add ||
	fail "report --format=json: $(tr '\n' ' ' <"$W/json.marks")"
add <"$W/json.cost"

section "a recording: report --raw"
ct report $D --raw >"$W/raw.txt"
tail -n 1 "$W/raw.txt" | add
grep -c ' \*$' "$W/raw.txt" | sed 's/^/marked rows: /' | add

section "a recording: graph's marks as report's (tiny's and work's one path each)"
ct graph $D >"$W/graph.txt"
for f in tiny work; do
	g=$(grep -c -- "+-$f \*\$" "$W/graph.txt")
	r=$(sed -n "s/^$f //p" "$W/verdicts")
	[ "$g" = "$r" ] && echo "graph: $f as report" | add || fail "graph: $f marked $g, report $r"
done
grep -c -- '+-work \*$' "$W/graph.txt" | sed 's/^/graph: work marked: /' | add
want=0
grep -q ' \*$' "$W/graph.txt" && want=1
[ "$(grep -c "^\* mostly the tracer's own cost" "$W/graph.txt")" = $want ] && echo "graph: the legend when a line is marked: yes" | add
ct graph $D tiny >"$W/graphtiny.txt"
g=$(grep -c 'main > calls > tiny \*$' "$W/graphtiny.txt")
[ "$g" = "$(sed -n 's/^tiny //p' "$W/verdicts")" ] && echo "graph tiny: its backtrace as report" | add ||
	fail "graph tiny: backtrace marked $g"

section "a recording: the HTML report's flags as report's"
ct export $D --format=html -o "$W/report.html"
python3 - "$W/report.html" "$W/verdicts" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
want = dict(l.split() for l in open(sys.argv[2]))
got = {f[0]: str(int(f[6])) for f in d["fns"]}
print("functions:", got == want or (got, want))
fns = d["fns"]
print("tiny's and work's paths:", all(str(int(r[5])) == want[fns[r[1]][0]] for r in d["tree"]
                                      if fns[r[1]][0] in ("tiny", "work")))
print("work:", "marked" if got.get("work") == "1" else "not marked")
PY

section "a recording: info"
ct info $D >"$W/info.txt"
awk '/^cost taken out: *[0-9]+ ns \(/ { t = 1 }
     /^cost clipped: *[0-9]+ ns: / { c = 1 }
     /^cost share: *[0-9.]+ % of the [0-9]+ ns the threads recorded/ { s = ($3 >= 0 && $3 <= 100) }
     /^  cost: *[0-9]+ ns taken out \([0-9.]+ % of [0-9]+ ns recorded\), [0-9]+ ns clipped$/ { p++ }
     END { printf "taken %s, clipped %s, share between 0 and 100 %%: %s, processes %d\n",
		t ? "yes" : "no", c ? "yes" : "no", s ? "yes" : "no", p }' "$W/info.txt" | add
golden
