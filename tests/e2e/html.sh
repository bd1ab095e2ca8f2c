# html: export --format=html of tests/e2e/html.c.  The embedded data parsed
# back with python3 (calls per function as report counts them, call paths,
# caller/callee pairs, times that nest; --callsite splits the pairs by call
# site); -F, --tid and -r apply; a program
# with 8192 distinct call paths is bounded ("(other)" nodes).  Then the page
# is opened in headless Chromium by tests/browser/html_report.js (flame
# graph boxes, zoom, search, sorting, drill-down through the caller/callee
# sections, the recording's info, no console errors, no request leaving the
# file; the timeline: thread choice, the calls and the mark at their place,
# zoom; a recursive function's callers adding up to 100 %; the line saying
# the times are corrected, or as recorded with --raw), which leaves
# screenshot.png in the work dir (kept with --keep); the same test run on a
# report that lacks a function must fail.
# variants: one
build html "$E2E/html.c" -I"$TOP/include"
record d ./html
want_rc "record ./html" $RC 0 "$W/d.err"

# the JSON of the report's <script id="ct-data"> element, as python sees it
cat >"$W/data.py" <<'PY'
import json, re, sys
def data(path):
    s = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S)
    return json.loads(m.group(1))
PY

section "export --format=html: the embedded data"
ct export d --format=html -o "$W/report.html"
ct report d --format=csv >"$W/report.csv"
python3 - "$W/report.html" "$W/report.csv" <<'PY' 2>&1 | add
import csv, sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
fns = d["fns"]
for f in sorted(fns):
    print("fn", f[0], "calls", f[1], "file", f[5].rsplit("/", 1)[-1].split(":")[0])
rep = {r["function"]: int(r["calls"]) for r in csv.DictReader(open(sys.argv[2]))}
print("calls as in report:", {f[0]: f[1] for f in fns} == rep)
tot = [f[2] for f in fns]
print("functions by total time, descending:", tot == sorted(tot, reverse=True))
tree = d["tree"]
path = []
for p, fn, calls, total, self_ in (r[:5] for r in tree):
    name = fns[fn][0] if fn >= 0 else "(other)"
    path.append((path[p] + ";" if p >= 0 else "") + name)
for i in sorted(range(len(tree)), key=lambda i: path[i]):
    print("path", path[i], "calls", tree[i][2])
kids = {}
for i, r in enumerate(tree):
    kids.setdefault(r[0], []).append(i)
ok = all(tree[i][3] >= sum(tree[k][3] for k in kids.get(i, [])) and
         tree[i][4] == tree[i][3] - sum(tree[k][3] for k in kids.get(i, []))
         for i in range(len(tree)))
print("times nest (total >= children, self = total - children):", ok)
print("total = outermost paths:", d["limits"]["total_ns"] == sum(tree[k][3] for k in kids[-1]))
for c, e, calls, t, tf in sorted(d["edges"], key=lambda e: (fns[e[0]][0] if e[0] >= 0 else "", fns[e[1]][0])):
    # tf: the time counted once per outermost activation of the callee
    print("edge", fns[c][0] if c >= 0 else "<root>", ">", fns[e][0], "calls", calls,
          *([] if tf == t else ["callee-outermost time", "0" if tf == 0 else "less" if tf < t else "MORE"]))
i = d["info"]
print("info:", i["command"].rsplit("/", 1)[-1], i["exit_status"], "processes", i["processes"],
      "threads", i["threads"], "complete", i["complete"], "events", i["events"] > 0,
      "duration", i["duration_ns"] > 0, "clock", i["clock"] in ("tsc", "mono"))
print("times:", i["times"])
rows = {r["function"]: r for r in csv.DictReader(open(sys.argv[2]))}
print("total and self time as report's:", all(int(rows[f[0]]["total_ns"]) == f[2] and
      int(rows[f[0]]["self_ns"]) == f[3] for f in fns))
tl = d["timeline"]
for t in sorted(tl["threads"], key=lambda t: t["name"]):
    cs = t["calls"]
    names = sorted(set(fns[c[0]][0] for c in cs if fns[c[0]][0] in ("heavy", "tick", "recurse", "worker", "main")))
    print("timeline", t["name"].split(" ")[0], {n: sum(fns[c[0]][0] == n for c in cs) for n in names},
          "marks", [m[1] for m in t["marks"]])
    # each call lies inside a call one level up that encloses it
    ok = all(c[1] == 0 or any(p[1] == c[1] - 1 and p[2] <= c[2] and c[2] + c[3] <= p[2] + p[3] for p in cs)
             for c in cs)
    print("timeline", t["name"].split(" ")[0], "calls nest:", ok)
PY

section "export --format=html -F compute / --tid / -r ~0ns"
ct export d --format=html -F compute -o "$W/f.html"
ct export d --format=html --tid "$(sed -n 's/^pid \([0-9]*\)$/\1/p' "$W"/d/*.proc | head -n 1)" -o "$W/t.html"
ct_empty export d --format=html -r '~0ns' -o "$W/r.html"
python3 - "$W" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1])
from data import data
W = sys.argv[1]
print("-F compute:", sorted(f[0] for f in data(W + "/f.html")["fns"]))
t = data(W + "/t.html")
print("--tid (the main thread):", len(t["fns"]), "functions, threads shown", t["info"]["threads_shown"],
      "timeline lanes", [x["name"].split(" ")[0] for x in t["timeline"]["threads"]])
r = data(W + "/r.html")
print("-r ~0ns:", len(r["fns"]), "functions,", len(r["tree"]), "paths")
PY

section "a program with 8192 call paths: the flame graph is bounded"
record d2 ./html paths
want_rc "record ./html paths" $RC 0 "$W/d2.err"
ct export d2 --format=html -o "$W/paths.html"
python3 - "$W/paths.html" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
l = d["limits"]
tree = d["tree"]
print("paths", l["paths"], "max", l["max_paths"])
print("shown <= max and < paths:", len(tree) - l["other_nodes"] == l["paths_shown"] <= l["max_paths"]
      and l["paths_shown"] < l["paths"])
print("(other) nodes:", l["other_nodes"] > 0, sum(r[1] == -1 for r in tree) == l["other_nodes"])
print("no time lost:", sum(r[3] for r in tree if r[0] == -1) == l["total_ns"])
print("parents come first:", all(r[0] < i for i, r in enumerate(tree)))
PY
# the paths held in memory bounded to 1000: later paths go to "(other)"
CALLTRACE_HTML_PATHS_HELD=1000 ct export d2 --format=html -o "$W/held.html"
python3 - "$W/held.html" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d = data(sys.argv[1])
l = d["limits"]
tree = d["tree"]
print("paths held 1000: capped", l["paths_capped"], "max_paths_held", l["max_paths_held"])
print("paths <= 1000 + (other) per parent:", l["paths"] <= 2000, "shown <= 1000:", l["paths_shown"] <= 1000)
print("no time lost:", sum(r[3] for r in tree if r[0] == -1) == l["total_ns"])
print("function calls still all counted:", {f[0]: f[1] for f in d["fns"]} == {"main": 1, "left": 4096, "right": 4095})
PY

section "export --format=html --callsite: a caller/callee pair per call site"
record dc --callsite ./html
want_rc "record --callsite ./html" $RC 0 "$W/dc.err"
ct export dc --format=html --callsite -o "$W/cs.html"
ct export dc --format=html -o "$W/nocs.html"
python3 - "$W/cs.html" "$W/nocs.html" <<'PY' 2>&1 | add
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from data import data
d, n = data(sys.argv[1]), data(sys.argv[2])
fns, sites = d["fns"], d["sites"]
name = lambda i: fns[i][0] if i >= 0 else "<root>"
for e in sorted(d["edges"], key=lambda e: (name(e[1]), name(e[0]), e[5])):
    if name(e[1]) in ("cheap", "heavy"):
        print("edge", name(e[0]), "[%s]" % sites[e[5]], ">", name(e[1]), "calls", e[2])
pairs = {}
for e in d["edges"]:
    k = (name(e[0]), name(e[1]))
    pairs[k] = [a + b for a, b in zip(pairs.get(k, [0, 0, 0]), e[2:5])]
nf = n["fns"]
whole = {(nf[e[0]][0] if e[0] >= 0 else "<root>", nf[e[1]][0]): e[2:5] for e in n["edges"]}
print("per pair, the sites' calls and callee times add up to the pair's:",
      {k: [v[0], v[2]] for k, v in pairs.items()} == {k: [v[0], v[2]] for k, v in whole.items()})
print("without --callsite: no sites, 5 fields an edge:", "sites" not in n and
      all(len(e) == 5 for e in n["edges"]))
PY

section "the browser test (tests/browser/html_report.js)"
if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	die "the browser test needs node and chromium: sh tools/install-deps.sh"
fi
ct export d --format=html --raw -o "$W/raw.html"
record d3 ./html fork
want_rc "record ./html fork" $RC 0 "$W/d3.err"
ct export d3 --format=html -o "$W/fork.html"
guard node "$TOP/tests/browser/html_report.js" "$W/report.html" "$W/screenshot.png" "$W/raw.html" \
	"$W/fork.html" >"$W/browser.out" 2>&1
want_rc "tests/browser/html_report.js" $RC 0 ||
	fail "browser test: $(grep -v '^ok' "$W/browser.out" | head -n 20)"
add <"$W/browser.out"
[ -s "$W/screenshot.png" ] || fail "no screenshot"

section "the browser test fails on a report without heavy (-N heavy)"
ct export d --format=html -N '^heavy$' -o "$W/noheavy.html"
guard node "$TOP/tests/browser/html_report.js" "$W/noheavy.html" "$W/noheavy.png" >"$W/noheavy.out" 2>&1
echo "exit $RC" | add
grep '^FAIL flame graph has a box for heavy' "$W/noheavy.out" | sed 's/:.*//' | add

section "the browser test on the report of export --callsite passes as well"
guard node "$TOP/tests/browser/html_report.js" "$W/cs.html" "$W/cs.png" >"$W/cs.out" 2>&1
echo "exit $RC" | add
