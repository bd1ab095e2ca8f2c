# overhead: record measures the tracer's own cost (the "overhead" line of
# every .proc file, a forked child's too); report, graph and callers take it
# out of their times, and show them as recorded with --raw, which is what
# they show for a trace without the figures (an older one).  No timing
# thresholds: only how corrected and raw times compare.
# variants: all
# aarch64: yes patch
build prog "$E2E/overhead.c"
record d ./prog
want_rc "record ./prog" $RC 0 "$W/d.err"

section "the figures: CALLS INNER OUTER in every process, 0 < inner <= outer"
for f in "$W"/d/*.proc; do
	awk '$1 == "overhead" { n++; ok = NF == 4 && $2 > 0 && $3 > 0 && $3 <= $4 }
	     END { print (n == 1 && ok) ? "sane" : "missing or insane: " n }' "$f"
done | LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

section "info"
ct info d | sed -n 's/^ *overhead: *[0-9.]* ns inner, [0-9.]* ns outer per call/overhead: N ns inner, N ns outer per call/p' |
	LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

# the same trace without the figures, as an older calltrace wrote it
cp -r "$W/d" "$W/old"
for f in "$W"/old/*.proc; do
	grep -v -e '^overhead' -e '^frontend ' "$f" >"$f.new" && mv "$f.new" "$f"
done
section "info of the trace without the figures"
ct info old | sed -n 's/^ *\(overhead: .*\)/\1/p' | LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

# figures far above what the calls themselves last (a damaged or made-up
# trace; under the 10 us per call that no hook can cost): 2 us per call,
# where leaf's calls last tens of ns
cp -r "$W/d" "$W/absurd"
hz=$(awk '$1 == "clock_hz:" { print $2 }' "$W/absurd/info")
for f in "$W"/absurd/*.proc; do
	awk -v hz="$hz" '$1 == "overhead" || $1 == "overhead-hook" {
		o = $2 * hz * 2e-6; $3 = sprintf("%.0f", o); $4 = sprintf("%.0f", o) } { print }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
done
section "figures of 2 us per call, more than the calls last: times as recorded, a warning"
for v in report graph callers; do
	# (report's footer says what was taken out, and that --raw was asked)
	ct $v absurd | grep -v '^# ' >"$W/$v.absurd"
	cp "$W/last.err" "$W/$v.absurd.err"
	ct $v d --raw | grep -v '^# ' >"$W/$v.absraw"
	if cmp -s "$W/$v.absurd" "$W/$v.absraw"; then
		echo "$v: as recorded"
	else
		echo "$v: NOT as recorded"
	fi
	sed -n 's/.*warning: .*: process [0-9]*: calibration figures of \([0-9.]*\) ns per call are more than its calls last (\([0-9.]*\) ns, .*/\1 ns against \2/p' \
		"$W/$v.absurd.err" | awk '{ print ($1 > 1900 && $4 < 1000) ? "warning: 2 us against the calls'"'"' median" : "warning: " $0 }'
done | LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

for v in report graph callers; do
	case $v in
	report) args="--format=csv" ;;
	graph) args="" ;;
	callers) args="--format=csv -s name" ;;
	esac
	# shellcheck disable=SC2086
	ct $v d $args >"$W/$v.corr"
	# shellcheck disable=SC2086
	ct $v d --raw $args >"$W/$v.raw"
	# shellcheck disable=SC2086
	ct $v old $args >"$W/$v.old"
	# shellcheck disable=SC2086
	ct $v old --raw $args >"$W/$v.oldraw"
	cmp -s "$W/$v.raw" "$W/$v.old" || fail "$v --raw differs from $v of the trace without figures"
	cmp -s "$W/$v.old" "$W/$v.oldraw" || fail "$v of the trace without figures: --raw changes it"
	cmp -s "$W/$v.raw" "$W/$v.corr" && fail "$v: corrected and raw times are the same"
done

section "report: corrected against raw (self, total in ns)"
# function,calls,total_ns,self_ns,...
awk -F, 'FNR == 1 { f++; next }
	 { tot[f, $1] = $3; self[f, $1] = $4; calls[f, $1] = $2; names[$1] = 1 }
	 END {
		for (n in names) {
			printf "%s: calls %s %s; self %s; total %s\n", n, calls[1, n],
				calls[1, n] == calls[2, n] ? "same" : "DIFFER",
				self[1, n] + 0 < self[2, n] + 0 ? "less" : self[1, n] == self[2, n] ? "same" : "MORE",
				tot[1, n] + 0 < tot[2, n] + 0 ? "less" : tot[1, n] == tot[2, n] ? "same" : "MORE"
			if (self[1, n] + 0 > tot[1, n] + 0) printf "%s: self %s > total %s\n", n, self[1, n], tot[1, n]
		}
	 }' "$W/report.corr" "$W/report.raw" | LC_ALL=C sort | add

section "graph: the same paths and calls, times less or equal"
# (and the marks of lines mostly the tracer's cost, never shown with --raw)
strip() { sed -e 's/^ *[0-9.]* *[mun]*s  *[0-9.]* *[mun]*s  //' -e 's/ \*$//' -e '/^\* mostly/d'; }
strip <"$W/graph.corr" >"$W/graph.corr.s"
strip <"$W/graph.raw" >"$W/graph.raw.s"
cmp -s "$W/graph.corr.s" "$W/graph.raw.s" || fail "graph: paths or calls differ with --raw"
cat "$W/graph.corr.s" | add

section "callers: the same edges and calls, times less or equal"
# function,relation,other,calls,time_ns
paste -d, "$W/callers.corr" "$W/callers.raw" | awk -F, 'NR > 1 {
	if ($1 != $6 || $2 != $7 || $3 != $8 || $4 != $9) print "DIFFER: " $0
	else print $1 "," $2 "," $3 "," $4 ", time " ($5 + 0 < $10 + 0 ? "less" : $5 == $10 ? "same" : "MORE")
}' | LC_ALL=C sort | add

section "filters: parent's times still less than raw; leaf hidden by -N/-D"
# with the leaf hidden, its real time is parent's own, but its hook cost is
# still taken out of parent's
for f in "-N leaf" "-D 2" "-F parent"; do
	# shellcheck disable=SC2086
	ct report d $f --format=csv >"$W/f.corr"
	# shellcheck disable=SC2086
	ct report d $f --raw --format=csv >"$W/f.raw"
	awk -F, -v f="$f" 'FNR == 1 { n++; next }
		$1 == "parent" { self[n] = $4; tot[n] = $3 }
		$1 == "leaf" { leaf[n] = $2 }
		END { printf "%s: parent self %s, total %s; leaf calls %s\n", f,
			self[1] + 0 < self[2] + 0 ? "less" : "NOT LESS",
			tot[1] + 0 < tot[2] + 0 ? "less" : "NOT LESS", leaf[1] == leaf[2] ? leaf[1] "" : "DIFFER" }' \
		"$W/f.corr" "$W/f.raw" | sed 's/calls $/calls none/' | add
	# the calls a filter hides still count below parent: its corrected
	# total is that of the unfiltered view
	a=$(calls_of parent "$W/report.corr"; awk -F, '$1 == "parent" { print $3 }' "$W/report.corr")
	b=$(calls_of parent "$W/f.corr"; awk -F, '$1 == "parent" { print $3 }' "$W/f.corr")
	[ "$a" = "$b" ] || fail "report $f: parent's calls and corrected total $b, unfiltered $a"
done

section "-t compares raw durations: the same calls with and without --raw"
# 10ns lies between a leaf call's raw time (the hooks' inner part, > 10 ns
# on any machine this runs on) and its corrected one (near 0): were -t to
# compare corrected times, most leaf calls would go
for v in report callers; do
	cols=1-4 # function,relation,other,calls
	[ $v = report ] && cols=1-2 # function,calls
	ct $v d -t 10ns --format=csv >"$W/t.$v.corr"
	ct $v d -t 10ns --raw --format=csv >"$W/t.$v.raw"
	cut -d, -f$cols "$W/t.$v.corr" | LC_ALL=C sort >"$W/t.$v.corr.calls"
	cut -d, -f$cols "$W/t.$v.raw" | LC_ALL=C sort >"$W/t.$v.raw.calls"
	if cmp -s "$W/t.$v.corr.calls" "$W/t.$v.raw.calls"; then
		echo "$v -t 10ns: same calls" | add
	else
		fail "$v -t: other calls with --raw: $(diff "$W/t.$v.raw.calls" "$W/t.$v.corr.calls" | head -5)"
	fi
done
golden
