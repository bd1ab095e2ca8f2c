# record --count --sample: a hooked call is over once its return address
# is not on the stack any more (runtime/stackwalk.c unwinds), not only once the
# stack pointer is above its CFA: tests/e2e/sample_over.c's caller() calls
# quick() and then untraced code whose frame is where quick's was, at a
# lower stack pointer; every sample there is caller()'s own time, none
# quick()'s.  A traced constructor that ran before main is in no sample.
# The calls are exact as ever.  (-finstrument-functions' exits say when a
# call is over: the same result by another way.)
# variants: one
# front-ends: few
build prog "$E2E/sample_over.c"
record_rounds c 40 ./prog
add <"$W/c.out"
ct report c --format=json >"$W/c.json"
python3 - "$W/c.json" "$rounds" <<'PY' 2>>"$W/figures" | add
import json, sys
r = json.load(open(sys.argv[1]))
rounds = int(sys.argv[2])
f = {x["name"]: x for x in r["functions"]}
q, c = f["quick"], f["caller"]
print("calls exact: quick once a round, caller and early once:",
      q["calls"] == rounds and c["calls"] == 1 and f["early"]["calls"] == 1)
print("caller's own samples: at least 10:", c["samples_self"] >= 10)
print("quick's under a tenth of caller's:", q["samples_self"] * 10 < c["samples_self"])
print("early in no sample:", f["early"]["samples_total"] == 0)
print("caller's total holds quick's:", c["samples_total"] >= c["samples_self"] + q["samples_total"])
print("self samples: quick %d, caller %d" % (q["samples_self"], c["samples_self"]), file=sys.stderr)
PY
