# Merged replay in time order across threads (issue 27 item 6): main()
# enters and creates the worker at once, then waits (untraced) for it; the
# worker naps 150 ms in w_nap(), then its w_wait() lets main run m_work()
# and waits (untraced) for it.  Pipes fix the order of the events, so the
# merged tree is the same on every run: each line where its event happened
# on the recorded clock, a call shown as a leaf only when its exit is the
# very next event shown.
# variants: all
# aarch64: yes patch
# front-ends: few
build timeorder "$E2E/timeorder.c"
record d ./timeorder
want_rc "record ./timeorder" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay (merged)"
ct replay d --no-duration | normalize | add
# the filters that hold entries back (-t until the call is known to be
# long enough, -r until it is known to reach into the range) keep the
# time order too.  -t 100ms: main(), worker() and w_nap() last 150 ms or
# more, the others are far shorter
section "replay -t 100ms"
ct replay d --no-duration -t 100ms | normalize | add
# -r from between w_wait()'s entry and m_work()'s: every call open then is
# in the range, each entry line where it happened
ct export d --format=chrome -o "$W/d.json"
lo=$(python3 -c '
import json, sys
ts = {e["name"]: e["ts"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"}
print("%dns" % ((ts["w_wait"] + ts["m_work"]) / 2 * 1000))' "$W/d.json")
section "replay -r (from inside w_wait, before m_work)"
ct replay d --no-duration -r "$lo~" | normalize | add
section "replay -r (the same) -t 100ms"
ct replay d --no-duration -r "$lo~" -t 100ms | normalize | add
section "replay --per-thread (each thread on its own)"
ct replay d --no-duration --per-thread | normalize_threads | add
# many events of the worker after main's entry: -r from between main's
# entry and the worker's decides main's entry by the merged clock (at the
# worker's first event), not at main's next event, so that the worker's
# lines need not wait for it (past 262144 of them they would come first,
# with a warning)
record many ./timeorder 300000
want_rc "record ./timeorder 300000" $RC 0 "$W/many.err"
ct export many --format=chrome -D 2 -o "$W/many.json"
# (after main's calls that ended before the worker started, e.g. atol: a
# preemption can put them past the midpoint)
lo=$(python3 -c '
import json, sys
xs = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ts = {e["name"]: e for e in xs}
m, w = ts["main"], ts["worker"]
ends = [e["ts"] + e["dur"] for e in xs if e is not m and e["tid"] == m["tid"] and e["ts"] + e["dur"] < w["ts"]]
lo = max([(m["ts"] + w["ts"]) / 2] + [(x + w["ts"]) / 2 for x in ends])
print("%dns" % (lo * 1000))' "$W/many.json")
section "300000 leaves in w_wait: replay -r from before the worker: first lines, leaves, stderr"
ct replay many --no-duration -r "$lo~" >"$W/many.tree"
head -n 4 "$W/many.tree" | normalize | add
grep -c 'w_leaf();' "$W/many.tree" | add
add <"$W/last.err"
