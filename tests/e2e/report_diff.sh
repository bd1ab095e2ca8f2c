# report_diff: report --diff of two builds of report_diff.c (the base, and
# a new one where slow does 40 times the work, counted is called 5 times
# instead of 2, removed is gone and added is new): functions matched by
# name, new and vanished ones marked, sorted by the difference of the
# sort key (calls here: times vary from run to run), the policies' layouts
# (durations and percentages replaced by D and P), the filters, --tid,
# --raw, CSV and JSON.  No time is compared with a number: the CSV's
# figures are checked against report's on each recording, its order
# against its own differences, and slow's least call against the known
# work (40 times base's: at least 5 times).
# variants: all
# aarch64: yes patch
# front-ends: all
build p0 "$E2E/report_diff.c" -DBUILD=0
build p1 "$E2E/report_diff.c" -DBUILD=1
record b ./p0
want_rc "record ./p0" $RC 0 "$W/b.err"
record n ./p1
want_rc "record ./p1" $RC 0 "$W/n.err"

# durations and percentages out (each with the blanks before it: their
# widths vary), the tracer's cost marks too; the directories
# named without the work dir
times_out() {
	sed -e "s|$W/||g" -e 's/  *[+-]\{0,1\}[0-9][0-9]*\.[0-9]\{3\} [mun ]s/ D/g' \
		-e 's/  *[+-][0-9][0-9]*\.[0-9][0-9]%/ P/g' -e 's/ \*\( \[\|$\)/\1/' \
		-e '/^\* mostly/d' -e '/^# clipped/d' -e 's/^\(# tracer.s cost taken out:\).*/\1 .../'
}

section "report --diff, -s calls,name (full, differences and percentages)"
ct report b --diff "$W/n" -s calls,name | times_out | add
section "--diff=DIR --diff-policy compact,no-percent -s calls,name"
ct report b --diff="$W/n" --diff-policy compact,no-percent -s calls,name | times_out | add
section "--diff-policy compact,percent,no-abs -s calls (a new function: no percentage, first)"
ct report b --diff "$W/n" --diff-policy compact,percent,no-abs -s calls | times_out | add
section "--diff-policy full,no-percent --sort-column 1 -s calls,name (the new calls)"
ct report b --diff "$W/n" --diff-policy full,no-percent --sort-column 1 -s calls,name |
	times_out | add
section "--diff-policy no-abs -s calls,name (increases first)"
ct report b --diff "$W/n" --diff-policy no-abs,compact,no-percent -s calls,name |
	times_out | sed -n '/====/,$p' | add

# function,status and the calls columns of the CSV, sorted
csv_rows() {
	awk -F, -v W="$W" 'NR == 1 {
		if ($0 != "function,status,calls_base,calls_new,calls_diff,calls_pct,total_ns_base,total_ns_new,total_ns_diff,total_pct,self_ns_base,self_ns_new,self_ns_diff,self_pct")
			print "bad CSV header: " $0 >> (W "/failures")
		next
	}
	{ print $1 "," $2 "," $3 "," $4 "," $5 "," $6 }' | LC_ALL=C sort
}
section "--format=csv: function,status,calls_base,calls_new,calls_diff,calls_pct"
ct report b --diff "$W/n" --format=csv >"$W/diff.csv"
csv_rows <"$W/diff.csv" | add

section "the CSV's figures are report's on each recording, sorted by |total diff|"
ct report b --format=csv >"$W/b.csv"
ct report n --format=csv >"$W/n.csv"
# check FILE KEY-COLUMN ABS: each row's base and new figures against the
# two reports, the differences and percentages computed from them, and the
# rows in order of the key column's difference (its size when ABS is 1)
check() {
	awk -F, -v key="$2" -v abs="$3" '
	FILENAME ~ /b\.csv$/ { if (FNR > 1) { bt[$1] = $3; bs[$1] = $4; bc[$1] = $2 } next }
	FILENAME ~ /n\.csv$/ { if (FNR > 1) { nt[$1] = $3; ns[$1] = $4; nc[$1] = $2 } next }
	FNR == 1 { next }
	{
		f = $1
		if ($2 != ((f in bt) ? ((f in nt) ? "both" : "vanished") : "new"))
			bad = bad " " f "(status)"
		if ($7 != bt[f] + 0 || $8 != nt[f] + 0 || $11 != bs[f] + 0 || $12 != ns[f] + 0 ||
		    $3 != bc[f] + 0 || $4 != nc[f] + 0)
			bad = bad " " f "(figures)"
		if ($9 != $8 - $7 || $13 != $12 - $11 || $5 != $4 - $3)
			bad = bad " " f "(differences)"
		if ($7 > 0 && ($10 - 100 * ($8 - $7) / $7 > 0.006 || 100 * ($8 - $7) / $7 - $10 > 0.006))
			bad = bad " " f "(percent)"
		if ($7 == 0 && $8 > 0 && $10 != "")
			bad = bad " " f "(percent of nothing)"
		k = $key
		if (abs && k < 0)
			k = -k
		if (FNR > 2 && k > last)
			bad = bad " " f "(order)"
		last = k
		n++
	}
	END { print n " rows" (bad == "" ? ", consistent" : ", wrong:" bad) }' \
		"$W/b.csv" "$W/n.csv" "$1"
}
check "$W/diff.csv" 9 1 | add
section "-s self: sorted by |self diff|"
ct report b --diff "$W/n" --format=csv -s self >"$W/self.csv"
check "$W/self.csv" 13 1 | add
section "--diff-policy no-abs: sorted by the total's difference, increases first"
ct report b --diff "$W/n" --format=csv --diff-policy no-abs >"$W/noabs.csv"
check "$W/noabs.csv" 9 0 | add
section "--sort-column 0: sorted by the base's total"
ct report b --diff "$W/n" --format=csv --sort-column 0 >"$W/col0.csv"
check "$W/col0.csv" 7 0 | add

section "--format=json, parsed back: status, sides, slow's least call against the known work"
ct report b --diff "$W/n" --format=json >"$W/diff.json"
python3 - "$W/diff.json" <<'PY' | add
import json, sys
d = json.load(open(sys.argv[1]))
print("times", d["times"], "; base", d["base"]["command"], "; new", d["new"]["command"])
for f in sorted(d["functions"], key=lambda f: f["name"]):
    print(f["name"], f["status"], "base" if f["base"] else "-", "new" if f["new"] else "-",
          "calls %+d" % f["diff"]["calls"],
          "total_pct null" if f["diff"]["total_pct"] is None else "total_pct set")
slow = [f for f in d["functions"] if f["name"] == "slow"][0]
# 40 units of work against 1: the least of 20 calls, which preemption
# can only lengthen on the new side and hardly on all 20 of the base's
print("slow's least call at least 5 times the base's:",
      slow["new"]["min_ns"] >= 5 * slow["base"]["min_ns"])
PY

section "-F '^slow\$'"
ct report b --diff "$W/n" --format=csv -F '^slow$' | csv_rows | add
section "-N '^slow\$' --hide '^spin\$'"
ct report b --diff "$W/n" --format=csv -N '^slow$' --hide '^spin$' | csv_rows | add
section "-D 1"
ct report b --diff "$W/n" --format=csv -D 1 | csv_rows | add

section "--tid naming the main thread of each: the same rows"
ct report b --per-thread >"$W/b.pt"
ct report n --per-thread >"$W/n.pt"
t0=$(sed -n 's/^# thread \([0-9]*\).*/\1/p' "$W/b.pt")
t1=$(sed -n 's/^# thread \([0-9]*\).*/\1/p' "$W/n.pt")
ct report b --diff "$W/n" --format=csv --tid "$t0,$t1" | csv_rows >"$W/tid.rows"
csv_rows <"$W/diff.csv" | cmp -s - "$W/tid.rows" && echo same | add || echo different | add
section "--tid naming the base's thread only: the new side empty, said once"
ct report b --diff "$W/n" --format=csv --tid "$t0" | csv_rows | add
sed -e "s|$W/||g" -e "s/$t0/TID/g" "$W/last.err" | add

section "--raw: the footer says so; JSON's times"
ct report b --diff "$W/n" --raw -s calls,name | tail -n 1 | add
ct report b --diff "$W/n" --raw --format=json | python3 -c 'import json,sys; print(json.load(sys.stdin)["times"])' | add

section "graph --diff --no-time: each path's calls in both, new and vanished paths"
ct graph b --diff "$W/n" --no-time | sed "s|$W/||g" | add
section "graph --diff: the same paths with times (lines sorted: the order depends on times)"
# (the bars too: which child is drawn last depends on the order)
ct graph b --diff "$W/n" | sed -n '/^  BASE TOTAL/,$p' | times_out | sed 's/[| ]*+-/+-/' |
	LC_ALL=C sort | add
