# record --count: exact calls per function and per caller->callee arc of
# every thread, the same as a full recording of the same program has
# (report's calls column, callers' arcs, coverage), in every front end
# (tests/e2e/count.c: threads and recursion, no tail call: -pg, -mfentry
# and patched entries count a tail call from the caller's caller);
# graph (with or without --no-time), info (threads, no overhead line) and
# the exports that need no times read the counts; the views that need times
# refuse them; --count with options it cannot honour.
# variants: all
# aarch64: yes patch
# front-ends: all
build basic "$E2E/basic.c"
build count "$E2E/count.c"

# same WHAT FILE1 FILE2: "same", or "differ" and the difference as a failure
same() {
	if cmp -s "$2" "$3"; then
		echo "$1: same" | add
	else
		echo "$1: differ" | add
		fail "$1: the counts differ from the full recording: $(diff "$2" "$3" | head -n 20 | tr '\n' '|')"
	fi
}

for p in basic count; do
	record f$p ./$p
	want_rc "record ./$p" $RC 0 "$W/f$p.err"
	record c$p --count ./$p
	want_rc "record --count ./$p" $RC 0 "$W/c$p.err"
	section "$p: stdout (exit $RC) and record's summary"
	add <"$W/c$p.out"
	sed -n 's/^\(calltrace: exit 0: .* threads*, [0-9]* calls counted\) along [0-9]* arcs \(.*\), in .*\/\. \(Nothing lost\.\)$/\1 \2 \3/p' "$W/c$p.err" | add
	section "$p: the files (no event stream)"
	(cd "$W/c$p" && ls | sed 's/^[0-9]*-0-[0-9]*\.cnt$/PID-0-TID.cnt/; s/^[0-9]*-0\.proc$/PID-0.proc/' | LC_ALL=C sort | uniq -c | sed 's/^ *//') | add
	section "$p: report --format=csv"
	ct report c$p --format=csv >"$W/c$p.csv"
	head -n 1 "$W/c$p.csv" | add
	tail -n +2 "$W/c$p.csv" | LC_ALL=C sort >"$W/c$p.calls"
	add <"$W/c$p.calls"
	ct report f$p --format=csv | csv_calls >"$W/f$p.calls"
	same "$p: report's calls against the full recording's" "$W/f$p.calls" "$W/c$p.calls"
	section "$p: callers"
	ct callers c$p >"$W/c$p.callers"
	add <"$W/c$p.callers"
	ct callers f$p --no-time >"$W/f$p.callers"
	same "$p: callers' arcs against the full recording's (--no-time)" "$W/f$p.callers" "$W/c$p.callers"
	section "$p: coverage"
	ct coverage c$p | sed 's|/[^ ]*/||' >"$W/c$p.cov"
	ct coverage f$p | sed 's|/[^ ]*/||' >"$W/f$p.cov"
	same "$p: coverage against the full recording's" "$W/f$p.cov" "$W/c$p.cov"
done

section "basic: graph --no-time"
ct graph cbasic --no-time | add
# graph without --no-time: the same tree (it exited 2)
ct graph cbasic >"$W/graph.out"
ct graph cbasic --no-time >"$W/graph.nt"
same "graph against graph --no-time" "$W/graph.nt" "$W/graph.out"
section "basic: callers --format=csv (rows sorted) and json"
ct callers cbasic --format=csv >"$W/callers.csv"
head -n 1 "$W/callers.csv" | add
tail -n +2 "$W/callers.csv" | LC_ALL=C sort | add
ct callers cbasic --format=json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["counts_only"] is True
for f in sorted(d["functions"], key=lambda f: f["name"]):
    assert "total_ns" not in f and all("time_ns" not in c for c in f["callers"])
    print(f["name"], f["calls"], "<-", " ".join("%s:%d" % (c["name"], c["calls"]) for c in sorted(f["callers"], key=lambda c: c["name"])))
' 2>&1 | add
section "basic: export --format=folded --folded-value=calls (sorted)"
ct export cbasic --format=folded --folded-value=calls | LC_ALL=C sort | add
section "basic: export --format=callgrind, as callgrind_annotate reads it"
ct export cbasic --format=callgrind -o "$W/cg.out"
if command -v callgrind_annotate >/dev/null 2>&1; then
	callgrind_annotate "$W/cg.out" 2>"$W/cga.err" | sed -n 's/^ *\([0-9,]*\) ([ 0-9.]*%)  ???:\(.*\)$/\2 \1/p; s/^ *\([0-9,]*\) ([ 0-9.]*%)  PROGRAM TOTALS$/total \1/p' | LC_ALL=C sort | add
	[ -s "$W/cga.err" ] && fail "callgrind_annotate complained: $(head -c 300 "$W/cga.err")"
else
	grep -c '^fn=' "$W/cg.out" | sed 's/^/functions: /' | add
fi

section "views that need times: a clear error"
for cmd in "replay" "export --format=chrome" "export --format=folded" "report -s total" "report -F main" \
	"graph -r 0~"; do
	# shellcheck disable=SC2086
	guard "$CT" $cmd -d "$W/cbasic" >"$W/v.out" 2>"$W/v.err"
	printf '%s: exit %s, stdout %s bytes: %s\n' "$cmd" "$RC" "$(wc -c <"$W/v.out" | tr -d ' ')" \
		"$(head -n 1 "$W/v.err" | sed "s|$W/||g")" | add
done

section "info says what was counted"
ct info cbasic | grep -E '^(mode|counted_calls|events):' | add
# the threads counted (it said 0), as record's summary; no overhead line
# (there are no times to take it out of)
ct info ccount >"$W/info.count"
sed -n 's/^calltrace: exit 0: [0-9]* process, \([0-9]*\) threads, .*/\1/p' "$W/ccount.err" >"$W/rec.threads"
sed -n 's/^threads: *//p' "$W/info.count" >"$W/info.threads"
same "info's threads against record's" "$W/rec.threads" "$W/info.threads"
grep -E '^ *(threads|overhead|measured):' "$W/info.count" | sed 's/^ *//' | add

section "record --count with options it cannot honour"
for opt in "--flight" "--drop" "-b 64K" "-F main" "-a"; do
	# shellcheck disable=SC2086
	guard "$CT" record --count $opt -d "$W/bad" ./basic >"$W/b.out" 2>"$W/b.err"
	printf '%s: exit %s: %s\n' "$opt" "$RC" "$(head -n 1 "$W/b.err")" | add
done

section "more arcs (4,161) than a first table holds: bigger ones follow, summed"
build count_many "$E2E/count_many.c"
record fmany ./count_many
want_rc "record ./count_many" $RC 0 "$W/fmany.err"
record cmany --count ./count_many
want_rc "record --count ./count_many" $RC 0 "$W/cmany.err"
add <"$W/cmany.out"
sed -n 's/^calltrace: exit 0: .*, \([0-9]* calls counted\) along .*$/\1/p' "$W/cmany.err" | add
# (the first table holds 2,048 arcs: there were more tables than one)
n=$(grep -c '^[fs] ' "$W"/cmany/*.cnt)
[ "$n" -gt 2048 ] || fail "count_many: only $n arcs in the .cnt file"
ct report cmany --format=csv | tail -n +2 | LC_ALL=C sort >"$W/cmany.calls"
awk -F, '{ n[$2]++ } END { for (c in n) print n[c] " functions called " c " times" }' "$W/cmany.calls" | LC_ALL=C sort | add
ct report fmany --format=csv | csv_calls >"$W/fmany.calls"
same "count_many: report's calls against the full recording's" "$W/fmany.calls" "$W/cmany.calls"
ct callers cmany --format=csv | awk -F, '$2 == "caller" { n++; s += $4 } END { print n " arcs, " s " calls" }' | add

section "a damaged .cnt file: one line naming the file and line, exit 1"
cp -r "$W/cbasic" "$W/cbad"
f=$(ls "$W"/cbad/*.cnt | head -n 1)
echo "f 12 zz 1" >>"$f"
guard "$CT" report -d "$W/cbad" >/dev/null 2>"$W/bad.err"
printf 'bad arc: exit %s: %s\n' "$RC" "$(sed "s|$W/||; s|/[0-9]*-0-[0-9]*\.cnt|/PID-0-TID.cnt|; s/line [0-9]*:/line N:/" "$W/bad.err")" | add
printf 'calltrace-counts 99\n' >"$f"
guard "$CT" callers -d "$W/cbad" >/dev/null 2>"$W/bad.err"
printf 'other version: exit %s: %s\n' "$RC" "$(sed "s|$W/||; s|/[0-9]*-0-[0-9]*\.cnt|/PID-0-TID.cnt|" "$W/bad.err")" | add
