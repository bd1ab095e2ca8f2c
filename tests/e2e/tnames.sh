# Thread names (pthread_setname_np by the creator, prctl(PR_SET_NAME) by
# the thread itself, none) recorded in the .proc file and shown by replay
# and report per thread and in the chrome and perfetto exports' tracks.
# variants: one
# aarch64: yes patch
# front-ends: few
build tnames "$E2E/tnames.c"
record d ./tnames
want_rc "record ./tnames" $RC 0 "$W/d.err"
# thread ids in the order they appear -> T1, T2, ...
ids() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $i > 100) { if (!($i in m)) m[$i] = "T" (++n); $i = m[$i] } print }'; }
section "replay --per-thread: headers"
ct replay d --per-thread --no-duration | grep '^# thread' | sed 's/(process [0-9]*)/(process P)/' | ids | add
section "report --per-thread: headers"
ct report d --per-thread | grep '^# thread' | sed 's/(process [0-9]*)/(process P)/' | ids | add
section "chrome: thread_name metadata"
ct export d --format=chrome -o "$W/t.json"
python3 -c 'import json,sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = [e["args"]["name"] for e in ev if e.get("name") == "thread_name"]
print("\n".join(sorted("thread N" if n.startswith("thread ") else n.split(" (")[0] for n in names)))' "$W/t.json" | add
section "perfetto: thread track names"
ct export d --format=perfetto -o "$W/t.pftrace"
protoc --decode=perfetto.protos.Trace -I"$E2E" "$E2E/perfetto.proto" <"$W/t.pftrace" |
	sed -n 's/^ *thread_name: "\(.*\) ([0-9]*)"$/\1/p; s/^ *thread_name: "thread [0-9]*"$/thread N/p' | sort | add
section "html: the thread names in the report's data (shown under the recording)"
ct export d --format=html -o "$W/t.html"
grep -o '"tlist":\[[^]]*\]' "$W/t.html" | python3 -c 'import json,sys
t = json.loads("{" + sys.stdin.read() + "}")["tlist"]
print("\n".join(sorted(x["name"] or "(none)" for x in t)))' | add
section "replay -f task,tid: each line's thread name (its process's when it has none)"
ct replay d -f task,tid | awk -F'|' 'NR > 1 { print $1 }' |
	sed 's/\[ *\([0-9]*\)\]/\1/; s/  */ /g; s/^ //; s/ $//' | sort -u | ids | add
section "replay -f tid,time,delta: delta is the time since the thread's line before"
ct replay d -f tid,time,delta >"$W/delta.tree"
python3 - "$W/delta.tree" <<'PY' | add
import re, sys
units = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
last, bad, n, other = {}, [], 0, 0
prev_tid = None
for l in open(sys.argv[1]).read().splitlines()[1:]:
    m = re.match(r"^\[ *(\d+)\] +(\d+)\.(\d{9}) (.{10}) \|", l)
    if not m:
        bad.append("unparsed: " + l)
        continue
    tid, t, d = m.group(1), int(m.group(2)) * 10**9 + int(m.group(3)), m.group(4).strip()
    if tid in last:
        v, u = d.split()
        if abs(float(v) * units[u] - (t - last[tid])) > float(v) * units[u] * 0.001 + 1:
            bad.append("tid %s: delta %s, %d ns since its line before" % (tid, d, t - last[tid]))
        other += prev_tid is not None and prev_tid != tid
    elif d:
        bad.append("tid %s: a delta on its first line" % tid)
    last[tid] = t
    prev_tid = tid
    n += 1
print("%d threads; %s" % (len(last), "; ".join(bad[:5]) if bad else "every delta is its own thread's"))
print("lines after another thread's line: %s" % ("some" if other else "none"))
PY
