# record --count --sample: samples in a signal handler on the signal stack
# (sigaltstack, SA_ONSTACK; tests/e2e/sample_altstack.c).  The walk
# (runtime/stackwalk.c) reads the signal stack while the interrupted
# context is on it, and goes on through the signal frame to the calls
# open on the thread's own stack: in_handler()'s samples are its own, and
# in outer()'s and main()'s totals.  The calls are exact as ever.
# (-finstrument-functions' counting stack has the calls whatever the
# stack: the same result by another way.)
# variants: one
# front-ends: few
build prog "$E2E/sample_altstack.c"
record_rounds c 40 ./prog
add <"$W/c.out"
ct report c --format=json >"$W/c.json"
python3 - "$W/c.json" "$rounds" <<'PY' 2>>"$W/figures" | add
import json, sys
r = json.load(open(sys.argv[1]))
rounds = int(sys.argv[2])
f = {x["name"]: x for x in r["functions"]}
h, o, m = f["in_handler"], f["outer"], f["main"]
print("calls exact: in_handler and outer once a round:",
      h["calls"] == rounds and o["calls"] == rounds)
print("in_handler's own samples: at least 10:", h["samples_self"] >= 10)
print("outer's total holds in_handler's:", o["samples_total"] >= h["samples_total"])
print("main's total holds outer's:", m["samples_total"] >= o["samples_total"])
print("self samples: in_handler %d, outer total %d, main total %d"
      % (h["samples_self"], o["samples_total"], m["samples_total"]), file=sys.stderr)
PY
