# export: --format=chrome parsed back as JSON (calls per name, metadata,
# every complete event nested within its parent); --format=folded with
# --folded-value=calls (one line per distinct stack, sorted); -F;
# --format=callgrind read back by callgrind_annotate; -r (--range) in
# deterministic cases; bad usage.
# variants: all
# aarch64: yes
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

section "export -r (--range): deterministic cases"
# a range with no call in it: the output without calls, a message, exit 1
# ~0ns: the range [0, 0) is empty, so nothing is exported
ct_empty export d --format=folded -r '~0ns' >"$W/r0.folded"
echo "-r ~0ns folded: $(wc -l <"$W/r0.folded") lines" | add
sed 's/lasts [0-9.]*  *[mun]*s/lasts T/' "$W/last.err" | add
ct_empty export d --format=chrome -r '~0ns' | grep -c '"ph":"X"' | sed 's/^/-r ~0ns chrome X events: /' | add
# 0~: the whole recording, the same output as without -r
for f in chrome folded callgrind; do
	ct export d --format=$f -o "$W/all.$f"
	ct export d --format=$f -r 0~ -o "$W/r0all.$f"
	cmp -s "$W/all.$f" "$W/r0all.$f" && echo "-r 0~ $f: same as no range" | add ||
		echo "-r 0~ $f: DIFFERS from no range" | add
done
# 1000s~: after the end, nothing
ct_empty export d --format=folded -r 1000s~ >"$W/rlate.folded"
echo "-r 1000s~ folded: $(wc -l <"$W/rlate.folded") lines" | add
ct_empty export d --format=chrome -r 1000s~ -o "$W/rlate.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("-r 1000s~ chrome X events:", sum(e["ph"] == "X" for e in d["traceEvents"]))' "$W/rlate.json" | add
ct_empty export d --format=callgrind -r 1000s~ | grep '^summary:' | sed 's/^/-r 1000s~ callgrind /' | add
# a range strictly inside main (taken from the recording itself): main is
# clipped at both ends, every exported slice lies inside the range, and the
# folded self times add up to the range's length
set -- $(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
m = [e for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == "main"][0]
# chrome ts and dur each give back their exact ns when multiplied by
# 1000 and rounded (export.c writes the nearest 1/2048 us)
b = round(m["ts"] * 1000); e = b + round(m["dur"] * 1000)
print(b + 1, e - 1)' "$W/trace.json")
lo=$1 hi=$2
ct export d --format=chrome -r "${lo}ns~${hi}" -o "$W/rmid.json"
python3 - "$W/rmid.json" "$lo" "$hi" <<'PY' 2>&1 | add
import json, sys
lo, hi = int(sys.argv[2]), int(sys.argv[3])
xs = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
m = [e for e in xs if e["name"] == "main"][0]
print("-r inside main: main clipped", m.get("args", {}).get("clipped"))
out = [e for e in xs if round(e["ts"] * 1000) < lo or
       round(e["ts"] * 1000) + round(e["dur"] * 1000) > hi]
print("-r inside main: slices outside the range:", len(out))
PY
# on the recorded clock the self times inside the range add up to it; on
# the corrected one, to the part of it that is not the tracer's (less)
ct export d --format=folded --raw -r "${lo}~${hi}ns" | awk -v len=$((hi - lo)) '{ s += $NF }
	END { print "-r inside main: folded self sum --raw", (s == len ? "= range length" : s " != " len) }' | add
ct export d --format=folded -r "${lo}~${hi}ns" | awk -v len=$((hi - lo)) '{ s += $NF }
	END { print "-r inside main: folded self sum", (s > 0 && s <= len ? "within the range length" : s " not in (0, " len "]") }' | add
# the same range in timestamps (replay -f time): main's entry is at b
# since the start, at its timestamp on the recording's clock
tmain=$(ct replay d --no-duration -f time -F '^main$' | awk '/main\(\) \{/ { print $1; exit }')
b=$(python3 -c 'import json,sys
print([round(e["ts"] * 1000) for e in json.load(open(sys.argv[1]))["traceEvents"]
       if e["ph"] == "X" and e["name"] == "main"][0])' "$W/trace.json")
set -- $(python3 -c 'import sys
s, f = sys.argv[1].split("."); base = int(s) * 10**9 + int(f) - int(sys.argv[2])
for v in sys.argv[3:]:
    t = base + int(v); print("%d.%09d" % (t // 10**9, t % 10**9))' "$tmain" "$b" "$lo" "$hi")
ct export d --format=folded --raw -r "$1~$2" >"$W/rabs.folded"
ct export d --format=folded --raw -r "${lo}~${hi}ns" >"$W/rrel.folded"
cmp -s "$W/rabs.folded" "$W/rrel.folded" && echo "-r inside main in timestamps: the same folded output" | add ||
	echo "-r inside main in timestamps: OTHER folded output" | add
for r in abc 5ms 2ms~1ms 1ms~2q '~~'; do
	"$CT" export -d "$W/d" --format=folded -r "$r" >/dev/null 2>"$W/rbad.err"
	rc=$?
	grep -q -e '--range: want START~END' "$W/rbad.err" && m="with message" || m="NO message"
	echo "-r $r: exit $rc, $m" | add
done

section "bad usage"
"$CT" export -d "$W/d" --format=bogus >/dev/null 2>"$W/bad.err"
echo "--format=bogus: exit $?" | add
"$CT" export -d "$W/d" >/dev/null 2>&1
echo "no --format: exit $?" | add
"$CT" export -d "$W/d" --format=folded --folded-value=x >/dev/null 2>&1
echo "--folded-value=x: exit $?" | add
"$CT" export -d "$W/nope" --format=folded >/dev/null 2>&1
echo "missing recording: exit $?" | add
