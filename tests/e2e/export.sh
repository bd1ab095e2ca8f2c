# export: --format=chrome parsed back as JSON (calls per name, metadata,
# every complete event nested within its parent); --format=folded with
# --folded-value=calls (one line per distinct stack, sorted); -F;
# --format=callgrind read back by callgrind_annotate; bad usage.
# variants: all
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

section "export --format=chrome (X events per name; metadata; nesting)"
ct export d --format=chrome -o "$W/trace.json"
python3 - "$W/trace.json" <<'PY' 2>&1 | add
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
assert d.get("displayTimeUnit") == "ns", "displayTimeUnit"
evs = d["traceEvents"]
xs = [e for e in evs if e["ph"] == "X"]
for name, n in sorted(Counter(e["name"] for e in xs).items()):
    print(name, n)
for e in sorted((e for e in evs if e["ph"] == "M"), key=lambda e: e["name"]):
    print("M", e["name"], "main" if e.get("tid", e["pid"]) == e["pid"] else "other",
          e["args"]["name"].split(" ")[0])
bad = 0
threads = {}
for e in xs:
    threads.setdefault((e["pid"], e["tid"]), []).append(
        (round(e["ts"] * 1000), round(e["dur"] * 1000), e["name"]))
for evl in threads.values():
    evl.sort(key=lambda v: (v[0], -v[1]))
    stack = []
    for ts, dur, name in evl:
        while stack and stack[-1][0] + stack[-1][1] <= ts and not (
                stack[-1][0] == ts and dur == 0):
            stack.pop()
        if stack and ts + dur > stack[-1][0] + stack[-1][1]:
            print("bad nesting:", name, "in", stack[-1][2])
            bad += 1
        stack.append((ts, dur, name))
print("nesting ok" if not bad else "nesting BAD")
PY

section "export --format=folded --folded-value=calls"
ct export d --format=folded --folded-value=calls | add
section "export --format=folded --folded-value=calls -F middle"
ct export d --format=folded --folded-value=calls -F middle | add
section "export --format=folded (self time): same stacks, values are numbers"
ct export d --format=folded | awk '{ v = $NF; sub(/ [0-9]+$/, ""); if (v !~ /^[0-9]+$/) v = "BAD " v; else v = "N"; print $0, v }' | add

section "export --format=callgrind, read back by callgrind_annotate --inclusive=yes"
ct export d --format=callgrind -o "$W/out.cg"
sed -n '1,3p' "$W/out.cg" | add
# the self costs (a cost line not after calls=) add up to the summary
awk '/^summary:/ { sum = $2 } /^calls=/ { call = 1; next }
     /^[0-9]+ [0-9]+$/ { if (!call) self += $2; call = 0 }
     END { print (self == sum && sum > 0) ? "self costs sum to summary" : "self " self " != summary " sum }' \
	"$W/out.cg" | add
callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$W/out.cg" >"$W/cga.out" 2>"$W/cga.err"
echo "callgrind_annotate: exit $?" | add
[ -s "$W/cga.err" ] && echo "callgrind_annotate stderr: $(head -c 300 "$W/cga.err")" | add
# its function list (file:function): the names, and that each is in basic.c;
# main (called by nobody) has all the program's time inclusive
awk '/PROGRAM TOTALS/ { total = $1 }
     /^ *[0-9,]+ \( *[0-9.]+%\)  .*:/ { f = $NF; n = split(f, a, ":"); name = a[n]
	file = substr(f, 1, length(f) - length(name) - 1); sub(/.*\//, "", file)
	print name, file; if (name == "main") mainv = $1 }
     END { print "x main inclusive", (mainv == total ? "= program total" : mainv " != " total) }' \
	"$W/cga.out" | sort | sed 's/^x //' | add

section "bad usage"
"$CT" export -d "$W/d" --format=bogus >/dev/null 2>"$W/bad.err"
echo "--format=bogus: exit $?" | add
"$CT" export -d "$W/d" >/dev/null 2>&1
echo "no --format: exit $?" | add
"$CT" export -d "$W/d" --format=folded --folded-value=x >/dev/null 2>&1
echo "--folded-value=x: exit $?" | add
"$CT" export -d "$W/nope" --format=folded >/dev/null 2>&1
echo "missing recording: exit $?" | add
