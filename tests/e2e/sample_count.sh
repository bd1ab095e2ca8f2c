# record --count --sample (doc/record.md "Sampling"): exact counts, times
# from samples charged on the counting stack; and the samples on the other
# views of a full recording (callers' and graph's sampled columns, export
# --format=folded --by=samples, the HTML report's sampled flame graph,
# checked in Chromium by tests/browser/html_sampled.js).  tests/e2e/sample.c: one() and three()
# run the same loop, three() three times as long, turn about; their sampled
# self times must be 1:3 within +-35 % (a ratio of two functions' samples
# in one run, never an absolute time), in the main thread, in two threads
# and in a parent and its forked child; every sample is charged once to
# each function open (main's total is all but those outside and those in
# the tracer's hooks, charged to no call); callers,
# graph and the folded export show the same samples.  Under -pg, -mfentry
# and patched entries the same (with --sample a sample unwinds the stack,
# runtime/stackwalk.c: one()'s -O2 code is a tail call of loop(), whose
# time is one()'s as counted; aarch64's calls on the counting stack), and
# record warns of nothing.
# variants: one
# front-ends: few
# aarch64: check patch
build prog "$E2E/sample.c"

# ratio D: "three/one within bounds" from report's CSV (count mode), the
# figures to stderr (the failure's message)
ratio() {
	ct report "$1" --format=csv >"$W/$1.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s[$c["function"]] += $c["samples_self"] }
		END {
			o = s["one"]; t = s["three"]
			if (!(o > 0 && t > 0)) { print "no samples: one " o ", three " t; exit }
			r = t / o
			print (r >= 1.95 && r <= 4.05) ? "three/one: 1:3 within 35 %" : "three/one: " t "/" o " = " r ", not 3 within 35 %"
			printf "one %d, three %d samples: %.2f\n", o, t, r >"/dev/stderr"
		}' "$W/$1.csv" 2>>"$W/figures" | add
}

section "--count --sample: report's columns, the ratio"
record c --count --sample=4k ./prog
want_rc "record --count --sample=4k ./prog" $RC 0 "$W/c.err"
grep -c 'keeps no stack' "$W/c.err" | sed 's/^/warnings: /' | add
# where perf events are refused the samples come from POSIX timers at the
# kernel's tick (sample.sh): 20 times the work for as many samples
# (under qemu-aarch64, whose emulated loop is some 10 times slower, 120)
if grep -q '^sample .* timer$' "$W"/c/*.proc; then
	SAMPLE_ROUNDS=800
	[ -n "$EMU" ] && SAMPLE_ROUNDS=120
	export SAMPLE_ROUNDS
	echo "sampled by POSIX timers: $SAMPLE_ROUNDS rounds" >>"$W/figures"
	record c --count --sample=4k ./prog
	want_rc "record --count --sample=4k ./prog" $RC 0 "$W/c.err"
fi
sed -n 's/^calltrace: exit 0: .*(counting mode: times from [0-9]* samples).*/summary: times from N samples/p' "$W/c.err" | add
# (the POSIX timer's clock, under qemu or where perf events are
# refused, adds a "# taken" line after it: sample.sh's)
ct report c | sed -n '1p; /^# times sampled/{s/[0-9][0-9.]*  *\(ns\|us\|ms\|s\)\b/T/g; s/[0-9][0-9]*/N/g; p}' | add
ct report c --format=csv | sed -n 1p | add
ratio c
ct report c --format=json >"$W/c.json"
python3 - "$W/c.json" <<'PY' | add
import json, os, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["functions"]}
s = r["samples"]
print("times:", r["times"])
rounds = int(os.environ.get("SAMPLE_ROUNDS", "40"))
print("calls exact: one and three once a round:", f["one"]["calls"] == f["three"]["calls"] == rounds, "work", f["work"]["calls"])
print("main's samples + outside + in the hooks = all:", f["main"]["samples_total"] + s["outside"] + s["hooks"] == s["all"])
print("self samples add up to all:", sum(x["samples_self"] for x in r["functions"]) + s["outside"] + s["hooks"] == s["all"])
print("work's total = one's + three's + its own:", f["work"]["samples_total"] == f["one"]["samples_total"] + f["three"]["samples_total"] + f["work"]["samples_self"])
print("sampled ns = samples x 250 us:", all(x["sampled_self_ns"] == 250000 * x["samples_self"] for x in r["functions"]))
print("taken at most all:", 0 < s["taken"] <= s["all"])
PY
# a damaged table claiming more periods beyond the takings than there are
# samples (S 2 0: format.md): taken is all, never a wrapped number
cp -r "$W/c" "$W/cover"
f=$(ls "$W"/cover/*.cnt | head -n 1)
echo "S 2 0 999999999999" >>"$f"
ct report cover --format=json >"$W/cover.json"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["samples"]; print("claimed overruns past all: taken = all:", s["taken"] == s["all"])' "$W/cover.json" | add
# -s by the sampled times; the calls and the names still
ct report c -s self --format=csv | sed -n 2p | cut -d, -f1 | sed 's/^/report -s self: first /' | add

section "--count --sample: callers, folded by samples, graph"
ct callers c work >"$W/c.callers"
sed -n '1,2p; /^# times sampled/{s/[0-9][0-9.]*  *\(ns\|us\|ms\|s\)\b/T/g; s/[0-9][0-9]*/N/g; p}' "$W/c.callers" | add
ct callers c --format=json >"$W/c.cjson"
ct export c --format=folded --by=samples >"$W/c.folded"
python3 - "$W/c.cjson" "$W/c.json" "$W/c.folded" <<'PY' | add
import json, sys
cj = {x["name"]: x for x in json.load(open(sys.argv[1]))["functions"]}
r = {x["name"]: x for x in json.load(open(sys.argv[2]))["functions"]}
print("callers: times", json.load(open(sys.argv[1]))["times"])
print("callers' work->three edge = three's sampled total:",
      [e["time_ns"] for e in cj["work"]["callees"] if e["name"] == "three"] == [r["three"]["sampled_total_ns"]])
print("callers' three self = report's:", cj["three"]["self_ns"] == r["three"]["sampled_self_ns"])
v = {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[3])}
print("folded work;three = three's self samples:", v.get("work;three") == r["three"]["samples_self"])
PY
ct export c --format=folded --folded-value=samples | cmp -s - "$W/c.folded" && echo "--folded-value=samples: the same" | add
# graph: the arcs' sampled times (numbers as N: the shape and the columns;
# the POSIX timer's "# taken" line and the blank line before it apart)
ct graph c | sed '/^$/{N; /\n# taken: /d}; s/[0-9][0-9.]*  *\(ns\|us\|ms\|s\)\b/T/g; s/[0-9][0-9]*/N/g' | tr -s " " | add
ct graph c | awk '$NF == "+-one" { o = $1 * ($2 == "ms" ? 1e6 : $2 == "us" ? 1e3 : $2 == "s" ? 1e9 : 1) }
	$NF == "+-three" { t = $1 * ($2 == "ms" ? 1e6 : $2 == "us" ? 1e3 : $2 == "s" ? 1e9 : 1) }
	END { r = o > 0 ? t / o : 0; print (r >= 1.95 && r <= 4.05) ? "graph three/one: 1:3 within 35 %" : "graph three/one: " r }' | add

section "--count --sample: threads and a forked child"
record th --count --sample=4k ./prog threads
want_rc "record --count --sample ./prog threads" $RC 0 "$W/th.err"
ratio th
ct report th --per-thread --format=csv |
	awk -F, 'NR > 1 && ($3 == "one" || $3 == "three") && $6 > 0 { n[$2]++ } END { for (t in n) k += n[t] == 2; print "threads with samples of both one and three: " k }' | add
record fk --count --sample=4k ./prog fork
want_rc "record --count --sample ./prog fork" $RC 0 "$W/fk.err"
ratio fk
ct report fk --per-thread --format=csv |
	awk -F, 'NR > 1 && $3 == "three" && $6 > 0 { n++ } END { print n " processes with samples of three" }' | add

section "a full recording: callers' sampled columns, folded --by=samples"
record d --sample=4k ./prog
want_rc "record --sample=4k ./prog" $RC 0 "$W/d.err"
ct callers d three | sed -n 1p | add
ct graph d | sed -n '2p; /[+]-\(one\|three\|work\)$/p' | sed 's/[0-9][0-9.]*  *\(ns\|us\|ms\|s\)\b/T/g; s/[0-9][0-9]*/N/g' | tr -s " " | add
ct graph d | awk '$NF == "+-one" { o = $(NF-1) } $NF == "+-three" { t = $(NF-1) }
	END { r = o > 0 ? t / o : 0; print (r >= 1.95 && r <= 4.05) ? "graph samples three/one: 1:3 within 35 %" : "graph samples three/one: " t "/" o }' | add
ct callers d --format=csv | sed -n 1p | add
ct callers d --format=json >"$W/d.cjson"
ct report d --format=json >"$W/d.json"
ct export d --format=folded --by=samples >"$W/d.folded"
python3 - "$W/d.cjson" "$W/d.json" "$W/d.folded" <<'PY' | add
import json, sys
cj = {x["name"]: x for x in json.load(open(sys.argv[1]))["functions"]}
r = {x["name"]: x for x in json.load(open(sys.argv[2]))["functions"]}
for n in ("one", "three", "work"):
    print(n, "callers' sampled = report's:", cj[n]["sampled_total_ns"] == r[n]["sampled_total_ns"] and cj[n]["sampled_self_ns"] == r[n]["sampled_self_ns"] and cj[n]["samples_self"] == r[n]["samples_self"])
print("callers' work->three edge = three's sampled total:",
      [e["sampled_ns"] for e in cj["work"]["callees"] if e["name"] == "three"] == [r["three"]["sampled_total_ns"]])
v = {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[3])}
print("folded main;work;three = three's self samples:", v.get("main;work;three") == r["three"]["samples_self"])
PY
# the HTML report: a sampled flame graph beside the traced one
ct export d --format=html -o "$W/d.html"
python3 - "$W/d.html" "$W/d.json" <<'PY' | add
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S).group(1))
r = {x["name"]: x for x in json.load(open(sys.argv[2]))["functions"]}
names = [f[0] for f in d["fns"]]
paths = {}
for row in d["tree"]:
    if row[1] >= 0:
        paths[names[row[1]]] = paths.get(names[row[1]], 0) + row[6]
print("html: sampled total = main's:", d["sampled"]["total_ns"] == r["main"]["sampled_total_ns"])
print("html: three's paths' sampled time = report's:", paths["three"] == r["three"]["sampled_total_ns"])
PY
record plain ./prog
want_rc "record ./prog" $RC 0 "$W/plain.err"
ct export plain --format=html -o "$W/plain.html"
if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	die "the browser test needs node and chromium: sh tools/install-deps.sh"
fi
guard node "$TOP/tests/browser/html_sampled.js" "$W/d.html" "$W/plain.html" >"$W/browser.out" 2>&1
want_rc "tests/browser/html_sampled.js" $RC 0 ||
	fail "browser test: $(grep -v '^ok' "$W/browser.out" | head -n 20)"
add <"$W/browser.out"
guard "$CT" export -d "$W/d" --format=folded --by=bogus >/dev/null 2>"$W/o.err"
echo "--by=bogus: exit $RC: $(head -n 1 "$W/o.err")" | add

section "bad values exit 2"
for a in '--sample -t 1ms' '--count --sample=0'; do
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/bad" $a ./prog >/dev/null 2>"$W/o.err"
	echo "record $a: exit $RC: $(head -n 1 "$W/o.err")" | add
	[ -e "$W/bad" ] && fail "record $a made a data directory"
done
