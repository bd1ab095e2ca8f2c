# callers: the call graph profile (callers and callees of each function) of
# tests/e2e/basic.c in text, CSV and JSON; bad usage.
# variants: all
# aarch64: yes
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
section "callers --no-time"; ct callers d --no-time | add
section "callers --no-time leaf"; ct callers d --no-time leaf | add
section "callers --format=csv (time column removed, rows sorted)"
ct callers d --format=csv >"$W/callers.csv"
head -n 1 "$W/callers.csv" | add
tail -n +2 "$W/callers.csv" | sed 's/,[0-9]*$//' | LC_ALL=C sort | add
section "callers --format=json: callers of each function"
ct callers d --format=json >"$W/callers.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in sorted(d["functions"], key=lambda f: f["name"]):
    print(f["name"], f["calls"], "<-", " ".join(sorted(c["name"] for c in f["callers"])))
    assert all(c["time_ns"] >= 0 for c in f["callers"] + f["callees"])
    assert f["self_ns"] <= f["total_ns"]
' "$W/callers.json" 2>&1 | add
section "callers --bogus"
guard "$CT" callers -d "$W/d" --bogus >"$W/bogus.out" 2>"$W/bogus.err"
want_rc "callers --bogus" $RC 2 "$W/bogus.err"
printf 'exit %s, stdout %s bytes\n' "$RC" "$(wc -c <"$W/bogus.out" | tr -d ' ')" | add
head -n 1 "$W/bogus.err" | add
section "callers nosuchfunc"
guard "$CT" callers -d "$W/d" nosuchfunc >/dev/null 2>"$W/nf.err"
want_rc "callers nosuchfunc" $RC 1 "$W/nf.err"
cat "$W/nf.err" | add
