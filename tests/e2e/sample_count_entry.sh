# record --count --sample: a sample whose interrupted pc is at the hook's
# call at a function's entry, or in the stub that call goes through
# (patch.c's jump stub near the program, a PLT stub), is the tracer's, set
# apart as one in the runtime's own code is (doc/record.md, "Sampling"): an
# untraced run has nops there, or nothing.  tests/e2e/sample_count_entry.c
# lands 20 samples exactly there (a pending sample unblocked by a SIGTRAP
# handler's return to that pc), and 20 at the instruction after the call
# (tick's own code), which stay the program's: charged to the call open.
# Patched entries (gcc, clang: through a jump stub) and -pg -mfentry (gcc:
# call *__fentry__@GOTPCREL, no stub; clang: call __fentry__@plt).
# x86-64 only.  The samples come by signal 62 (CALLTRACE_SAMPLE_CLOCK=rt):
# the landing takes SIGTRAP for itself, which is the default clock's.
# variants: one
CALLTRACE_SAMPLE_CLOCK=rt
export CALLTRACE_SAMPLE_CLOCK
for b in "gcc -fpatchable-function-entry=5" "clang -fpatchable-function-entry=5" \
	"gcc -pg -mfentry" "clang -pg -mfentry"; do
	cc=${b%% *}
	name=e-$(echo "$b" | tr -d ' =')
	if ! $b -g -O2 -o "$W/$name" "$E2E/sample_count_entry.c" >"$W/build-$name.log" 2>&1; then
		section "$b: not supported by the compiler"
		continue
	fi
	section "$b -O2"
	for m in entry stub body; do
		record "$name-$m" --count --sample=4k "./$name" "$m"
		want_rc "record --count --sample=4k ./$name $m" $RC 0 "$W/$name-$m.err" || continue
		add <"$W/$name-$m.out"
		grep -q 'samples landed' "$W/$name-$m.out" || continue
		ct report "$name-$m" --format=json >"$W/$name-$m.json"
		python3 - "$W/$name-$m.json" "$m" <<'PY' | add
import json, sys
r = json.load(open(sys.argv[1]))
m = sys.argv[2]
s = r["samples"]
f = {x["name"]: x for x in r["functions"]}
lander = f["lander"]["samples_self"]
# each landing is one sample (a timer's may stand for more periods)
if m == "body":
    print("%s: landed in tick's code, charged to the call open:" % m, lander >= 20 and s["hooks"] < 20)
else:
    print("%s: set apart as the tracer's, none charged to lander:" % m, s["hooks"] >= 20 and lander == 0)
if not (s["hooks"] >= 20 and lander == 0 or m == "body"):
    print("  hooks %d, lander's self %d, all %d" % (s["hooks"], lander, s["all"]), file=sys.stderr)
print("tick's calls:", f["tick"]["calls"] if "tick" in f else 0)
PY
	done
done
