# report -f/--output-fields (uftrace report's fields: total, total-avg,
# total-min, total-max, self, self-avg, self-min, self-max, call), report
# --task (a row per thread, as uftrace report --task) and graph -f (total,
# self, call, addr) (issue 30), on tests/e2e/callerfilt.c: two threads,
# target called three times, leaf nine.  Times are checked against each
# other (a function called once has min = avg = max), never against a
# number; addresses against replay -f addr; report and graph --srcline's
# lines against replay --srcline's.  Unknown fields: the valid ones and
# exit 2.
# variants: all
build callerfilt "$E2E/callerfilt.c"
record d ./callerfilt
want_rc "record ./callerfilt" $RC 0 "$W/d.err"
# the numbers of a line hidden: times D, addresses ADDR
hide() { sed -E 's/[0-9]+\.[0-9]{3} ( s|[mun]s)/D/g; s/(^| )[0-9a-f]{6,16}( |$)/\1ADDR\2/g; s/  +/ /g; s/^ //; s/ \*$//'; }

section "report -f total,self,call,total-avg,total-min,total-max: report's rows"
# (the headings are uftrace's: Total avg, where report says Average)
ct report d >"$W/default.txt"
ct report d -f total,self,call,total-avg,total-min,total-max >"$W/same.txt"
tail -n +3 "$W/default.txt" | tr -s ' ' >"$W/default.rows"
tail -n +3 "$W/same.txt" | tr -s ' ' >"$W/same.rows"
cmp -s "$W/default.rows" "$W/same.rows" && echo same | add || echo DIFFERS | add
section "report -f all (times hidden)"
ct report d -f all -s name >"$W/all.txt"
sed -n '1,2p' "$W/all.txt" | add
sed -n '3,$p' "$W/all.txt" | grep -v '^[#*]' | grep . | hide | add
# a function called once: each of its totals is its total, each self its
# self; every row: self-min <= self-avg <= self-max <= total-max, self <= total
python3 - "$W/all.txt" >>"$W/actual" <<'PY' || fail "report -f all: the figures disagree"
import re, sys
unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
bad = 0
for line in open(sys.argv[1]).read().splitlines()[2:]:
    if not line.strip() or line[0] in "#*":
        continue
    t = re.findall(r"([0-9]+\.[0-9]+) (ns|us|ms|s)\b", line)
    v = [float(x) * unit[u] for x, u in t]
    calls = int(line.split()[16])
    name = line.split()[17]
    tot, tavg, tmin, tmax, slf, savg, smin, smax = v
    ok = smin <= savg + 1 and savg <= smax + 1 and slf <= tot + 1 and smax <= tmax + 1
    if calls == 1:
        ok &= tavg == tmin == tmax == tot and savg == smin == smax == slf
    if not ok:
        print("bad row:", line)
        bad += 1
print("rows checked:", "ok" if not bad else "%d bad" % bad)
sys.exit(1 if bad else 0)
PY
section "report -f +self-max,call -s self-max: the heading"
ct report d -f +self-max,call -s self-max | sed -n 1p | add
section "report -f none -s name"
ct report d -f none -s name | grep -v '^#' | grep . | add
section "report --task (times hidden)"
ct report d --task | grep -v '^#' | grep . | hide | awk '{ if (NR > 2) $4 = "TID"; print }' | add
section "report --task --format=csv: a thread's total is its outermost call's total"
ct report d --task --format=csv >"$W/task.csv"
ct report d --format=csv >"$W/funcs.csv"
python3 - "$W/task.csv" "$W/funcs.csv" >>"$W/actual" <<'PY' || fail "report --task: figures disagree with report"
import csv, sys
tasks = list(csv.DictReader(open(sys.argv[1])))
funcs = {r["function"]: r for r in csv.DictReader(open(sys.argv[2]))}
print(",".join(csv.DictReader(open(sys.argv[1])).fieldnames))
calls = sum(int(t["calls"]) for t in tasks)
print("threads:", len(tasks), "calls:", calls, "report's calls:",
      sum(int(f["calls"]) for f in funcs.values()))
# the rows are sorted by total: main's thread first; each total is that of
# its outermost function (main, worker)
ok = [int(tasks[0]["total_ns"]) == int(funcs["main"]["total_ns"]),
      int(tasks[1]["total_ns"]) == int(funcs["worker"]["total_ns"])]
print("totals are main's and worker's:", ok)
sys.exit(0 if all(ok) else 1)
PY
section "graph -f total,self,call is graph"
ct graph d >"$W/g.default"
ct graph d -f total,self,call >"$W/g.same"
cmp -s "$W/g.default" "$W/g.same" && echo same | add || echo DIFFERS | add
section "graph --no-time -f call,addr (addresses as replay -f addr's)"
ct graph d --no-time -f call,addr >"$W/g.addr"
ct replay d -f addr >"$W/r.addr"
python3 - "$W/g.addr" "$W/r.addr" >>"$W/actual" <<'PY' || fail "graph -f addr disagrees with replay -f addr"
import re, sys
rep = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s*([0-9a-f]+) \|\s*(\w+)\(", line)
    if m:
        rep.setdefault(m.group(2), m.group(1))
bad = 0
for line in open(sys.argv[1]).read().splitlines()[2:]:
    m = re.match(r"\s*\d+\s+([0-9a-f]+)\s+[| +-]*(\w+)", line)
    if m and rep.get(m.group(2)) != m.group(1):
        print("differs:", line)
        bad += 1
print("addresses:", "as replay's" if not bad else "%d differ" % bad)
sys.exit(1 if bad else 0)
PY
hide <"$W/g.addr" | add
section "graph --no-time -f none target"
ct graph d --no-time -f none target | add
section "report --srcline -f call -s name: each function's declaration line"
ct report d --srcline -f call -s name | grep -v '^#' | grep . | add
section "graph --srcline --no-time target"
ct graph d --srcline --no-time target | add
# the same lines as replay --srcline's
ct replay d --srcline --no-duration | sed -n 's/.*[|] *\([a-z]*\)().*\/\* \([a-z]*\.c:[0-9]*\).*/\1 [\2]/p' |
	sort -u >"$W/replay.src"
ct report d --srcline -f none | sed -n 's/^  \([a-z]* \[.*\]\)$/\1/p' | sort -u >"$W/report.src"
cmp -s "$W/replay.src" "$W/report.src" ||
	fail "report --srcline and replay --srcline differ: $(diff "$W/replay.src" "$W/report.src" | tr '\n' '|')"
[ -s "$W/report.src" ] || fail "report --srcline: no source line"
section "bad usage"
for a in "report -f bogus" "report -f total,bogus" "report -s bogus" "report --task --per-thread" \
	"report --task -f total" "graph -f bogus" "graph -f addr,self-avg"; do
	guard "$CT" ${a%% *} -d "$W/d" ${a#* } >/dev/null 2>"$W/bad.err"
	echo "$a: exit $RC $(head -n 1 "$W/bad.err")" | add
done
golden
