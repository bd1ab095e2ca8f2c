# record --count --sample: a sample on a ucontext coroutine's stack finds
# the hooked calls open there (runtime/stackwalk.c: the stack swapcontext
# switched to, its uc_stack, once found mapped whole), as one on the main
# stack does.  tests/e2e/sample_coro.c runs the same loop in main_work()
# on the main stack and in co_work() on the coroutine's, turn about: both
# have their samples, few are outside any call, the calls are exact; with
# a static stack (across the program's data page and its bss: two
# mappings) and a malloc'd one.  Before, no hooked call was found on the
# coroutine's stack: its samples were outside any call.
# (-finstrument-functions' exits keep its own stack: the same result.)
# variants: one
# front-ends: few
build prog "$E2E/sample_coro.c"
for m in static heap; do
	arg=
	[ "$m" = heap ] && arg=heap
	section "$m stack"
	# shellcheck disable=SC2086
	record "c-$m" --count --sample=4k ./prog $arg
	want_rc "record --count --sample=4k ./prog $arg" $RC 0 "$W/c-$m.err" || continue
	add <"$W/c-$m.out"
	ct report "c-$m" --format=json >"$W/c-$m.json"
	python3 - "$W/c-$m.json" <<'PY' 2>>"$W/figures" | add
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["functions"]}
s = r["samples"]
print("calls exact:", f["main_work"]["calls"] == 41 and f["co_work"]["calls"] == 40)
print("main_work's samples: at least 5:", f["main_work"]["samples_self"] >= 5)
print("co_work's samples: at least 5:", f["co_work"]["samples_self"] >= 5)
print("outside any call: under a tenth:", s["outside"] * 10 < s["all"])
print("co_work, main_work, outside, all: %d %d %d %d" % (f["co_work"]["samples_self"],
      f["main_work"]["samples_self"], s["outside"], s["all"]), file=sys.stderr)
PY
done
