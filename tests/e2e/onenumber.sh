# onenumber: every view and export shows the same (corrected) times of one
# recording by default, and the same recorded times with --raw (issue 13's
# "one number everywhere").  A program of many short calls, where the
# tracer's own cost is much of the recorded time: main's total time is the
# same in report, in the HTML report (flat profile, flame graph and the
# timeline's time of the call), in
# callgrind (as callgrind_annotate --inclusive=yes reads it), in the folded
# stacks (their sum), and in the chrome timeline (main's slice's time_ns
# argument: slices are placed on the recorded clock, doc/overhead.md);
# every function's total and self time is report's in the HTML report, and
# callgrind's costs add up to main's; each output says which times it holds; the
# timelines nest.  No timing thresholds: numbers of one recording compared.
# variants: all
build onenumber "$E2E/onenumber.c"
record d ./onenumber
want_rc "record ./onenumber" $RC 0 "$W/d.err"

# figures MODE [--raw]: main's total time in each output, one line each
figures() {
	_m=$1
	shift
	ct report d --format=csv "$@" >"$W/$_m.csv"
	ct export d --format=html -o "$W/$_m.html" "$@"
	ct export d --format=callgrind -o "$W/$_m.cg" "$@"
	ct export d --format=folded -o "$W/$_m.folded" "$@"
	ct export d --format=chrome -o "$W/$_m.json" "$@"
	ct export d --format=perfetto -o "$W/$_m.pftrace" "$@"
	callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$W/$_m.cg" >"$W/$_m.cga" 2>&1 ||
		fail "callgrind_annotate $_m: $(head -c 300 "$W/$_m.cga")"
	protoc --decode=perfetto.protos.Trace -I"$E2E" "$E2E/perfetto.proto" \
		<"$W/$_m.pftrace" >"$W/$_m.pf.txt" 2>"$W/$_m.protoc.err" ||
		fail "protoc --decode $_m: $(head -c 300 "$W/$_m.protoc.err")"
	python3 "$E2E/perfetto_check.py" "$W/$_m.pf.txt" "$W/$_m.json" >"$W/$_m.pfcheck" 2>&1
	grep -q '^BAD\|Traceback' "$W/$_m.pfcheck" && fail "perfetto $_m: $(grep -m 3 '^BAD\|Error' "$W/$_m.pfcheck")"
	python3 - "$W" "$_m" <<'PY'
import csv, json, re, sys
W, m = sys.argv[1], sys.argv[2]
rep = {r["function"]: r for r in csv.DictReader(open("%s/%s.csv" % (W, m)))}
out = {"report": int(rep["main"]["total_ns"])}
s = open("%s/%s.html" % (W, m), encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S).group(1))
fns = d["fns"]
out["html flat profile"] = [f[2] for f in fns if f[0] == "main"][0]
out["html flame graph"] = sum(r[3] for r in d["tree"] if r[0] == -1 and r[1] >= 0 and fns[r[1]][0] == "main")
out["html timeline's time"] = sum(c[4] for t in d["timeline"]["threads"] for c in t["calls"]
                                  if fns[c[0]][0] == "main")
for line in open("%s/%s.cga" % (W, m)):
    f = line.split()
    if f and f[-1].endswith(":main"):
        out["callgrind_annotate inclusive"] = int(f[0].replace(",", ""))
out["folded stacks, summed"] = sum(int(l.rsplit(" ", 1)[1]) for l in open("%s/%s.folded" % (W, m)))
xs = [e for e in json.load(open("%s/%s.json" % (W, m)))["traceEvents"] if e["ph"] == "X"]
out["chrome slice's time_ns"] = [e["args"]["time_ns"] for e in xs if e["name"] == "main"][0]
for k, v in out.items():
    print("%s main: %s" % (m, k), "= report's" if v == out["report"] else "%d != report's %d" % (v, out["report"]))
print("%s: html flat profile total and self = report's for every function:" % m,
      all(int(rep[f[0]]["total_ns"]) == f[2] and int(rep[f[0]]["self_ns"]) == f[3] and
          int(rep[f[0]]["calls"]) == f[1] for f in fns) and len(fns) == len(rep))
# callgrind: its self costs add up to main's inclusive cost
tot = [l.split()[1] for l in open("%s/%s.cg" % (W, m)) if l.startswith("summary:")]
print("%s: callgrind's summary (the self costs) = main's inclusive:" % m,
      int(tot[0]) == out.get("callgrind_annotate inclusive"))
# the timeline nests in the reader's own arithmetic (doubles, ts + dur):
# every slice inside the enclosing one, none negative
xs.sort(key=lambda e: (e["ts"], -e["dur"]))
stack, bad = [], 0
for e in xs:
    b, en = e["ts"], e["ts"] + e["dur"]
    while stack and stack[-1] <= b and not (stack[-1] == b and en == b):
        stack.pop()
    if en < b or (stack and en > stack[-1]):
        bad += 1
    stack.append(en)
print("%s: chrome slices nest, none negative:" % m, bad == 0)
PY
	grep -h '^# calltrace:\|^desc:' "$W/$_m.cg" | sed "s/^/$_m callgrind: /"
	python3 -c 'import json,sys; print(sys.argv[2] + " chrome otherData:", json.load(open(sys.argv[1]))["otherData"]["calltrace_times"])' "$W/$_m.json" "$_m"
	grep '^track calltrace' "$W/$_m.pfcheck" | sed "s/^/$_m perfetto: /"
	grep '^same slices as chrome\|^structure' "$W/$_m.pfcheck" | sed "s/: [0-9]*$//; s/^/$_m perfetto: /"
}

section "corrected (default)"
figures corrected | add
section "--raw"
figures raw --raw | add

section "corrected below raw"
a=$(awk -F, '$1 == "main" { print $3 }' "$W/corrected.csv")
b=$(awk -F, '$1 == "main" { print $3 }' "$W/raw.csv")
[ "$a" -lt "$b" ] && echo "main: corrected < raw" | add || echo "main: corrected $a NOT below raw $b" | add

section "callgrind of an over-corrected recording (its cost figures x 20): still adds up, main's = report's"
# every call corrected for far more than it cost: the callees' costs come
# out above their callers' corrected times, and the excess reaches main
cp -R "$W/d" "$W/ov"
for pf in "$W/ov"/*.proc; do
	awk '$1 == "overhead" || $1 == "overhead-hook" { $3 *= 20; $4 *= 20 } { print }' "$pf" >"$pf.new" &&
		mv "$pf.new" "$pf"
done
ct export ov --format=callgrind -o "$W/ov.cg"
main_r=$(ct report ov --format=csv | awk -F, '$1 == "main" { print $3 }')
awk -v r="$main_r" '/^summary:/ { sum = $2 } /^calls=/ { call = 1; next }
     /^[0-9]+ [0-9]+$/ { if (!call) self += $2; call = 0 }
     END { print (self == sum ? "self costs sum to summary" : "self " self " != summary " sum)
	   print (sum == r ? "summary = report'"'"'s main" : "summary " sum " != report'"'"'s main " r) }' \
	"$W/ov.cg" | add
callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$W/ov.cg" 2>&1 |
	awk -v r="$main_r" '/:main$/ { m = $1; gsub(",", "", m) }
	     END { print (m == r ? "main inclusive = report'"'"'s" : "main inclusive " m " != report'"'"'s " r) }' | add
golden
