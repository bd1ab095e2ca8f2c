# record --count --sample keeps the samples in a table of their own per
# thread (cns-*), never in the thread's table of arcs (cnt-*), whose probe
# chains the counting hooks walk (doc/format.md, "Counting tables"):
# tests/e2e/count_sample_table.c reads its own tables in $CALLTRACE_SHM
# after 200 ms of CPU time sampled at 4 kHz 41 frames deep; record's
# summary and report still see every sample.
# variants: one
# aarch64: yes patch
# front-ends: few
build prog "$E2E/count_sample_table.c" -I"$TOP/include"

section "the tables of a --count --sample run"
record c --count --sample=4k ./prog
want_rc "record --count --sample=4k ./prog" $RC 0 "$W/c.err"
add <"$W/c.out"
grep -h '' "$W/c.err" | grep 'arcs. tables' >>"$W/figures"
ct report c --format=json >"$W/c.json"
python3 - "$W/c.json" <<'PY' | add
import json, sys
r = json.load(open(sys.argv[1]))
s = r["samples"]
print("report: samples read:", s["all"] > 0)
PY
