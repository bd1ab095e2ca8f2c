# read= triggers (-T 'REGEX@read=KIND', the reference tool's names): the
# values at the entry of each recorded call (a comment under it) and their
# difference at its exit (before its end), in replay, with every front
# end.  The numbers vary from run to run: the tree is compared with them
# replaced by N, and what the program did is checked against them (touch()
# writes 256 new pages: at least 256 minor faults and 1024 KB more of
# size and resident memory).  pmu-cycle: where the kernel refuses the
# hardware counters (a virtual machine without a PMU), one warning and no
# values, else a read and a diff for each call.  An unknown kind: one line,
# exit 2.
# variants: all
# aarch64: yes patch
# front-ends: all
build trigger_read "$E2E/trigger_read.c"

record d -T '^touch$@read=proc/statm,read=page-fault' -T '^deeper$@read=page-fault' \
	-T '^jumpy$@read=proc/statm' -T '^leaf$@read=pmu-cycle' ./trigger_read
want_rc "record ./trigger_read" $RC 0 "$W/d.err"
ct replay d --no-duration >"$W/replay"
section "replay (numbers as N, pmu-cycle lines apart)"
grep -v 'pmu-cycle' "$W/replay" | sed -E 's/=[+-]?[0-9]+/=N/g' | normalize | add

section "the values of touch(): 256 pages written"
awk '/diff:page-fault/ && prev ~ /touch|leaf/ { }
	/diff:page-fault/ { sub(/.*minor=\+/, ""); sub(/\).*/, ""); print ($0 >= 256 ? "minor faults +256 or more" : "minor faults +" $0) }
	/diff:proc\/statm/ { s = $0; sub(/.*size=\+/, "", s); sub(/KB.*/, "", s)
		r = $0; sub(/.*rss=\+/, "", r); sub(/KB.*/, "", r)
		print (s >= 1024 ? "size +1024KB or more" : "size +" s "KB"), (r >= 1024 ? "rss +1024KB or more" : "rss +" r "KB") }' \
	"$W/replay" | head -n 4 | add

section "pmu-cycle"
nw=$(grep -c 'read=pmu-cycle: the kernel refuses the hardware counters' "$W/d.err")
nr=$(grep -c 'read:pmu-cycle (cycle=[0-9]*, instructions=[0-9]*)' "$W/replay")
nd=$(grep -c 'diff:pmu-cycle (cycle=+[0-9]*, instructions=+[0-9]*, IPC=[0-9.]*)' "$W/replay")
nl=$(grep -c 'leaf' "$W/replay")
if [ "$nw" = 1 ] && [ "$nr" = 0 ] && [ "$nd" = 0 ]; then
	echo "refused: one warning, no values" | add
elif [ "$nw" = 0 ] && [ "$nr" -gt 0 ] && [ "$nd" = "$nr" ]; then
	echo "refused: one warning, no values" | add # (the same golden: checked here)
	[ "$nr" -ge "$nl" ] || fail "pmu-cycle: $nr reads for $nl calls of leaf"
else
	fail "pmu-cycle: $nw warnings, $nr reads, $nd diffs:
$(cat "$W/d.err")"
fi

section "an unknown kind (exit status, message)"
for t in '^leaf$@read=proc/stat' '^leaf$@read=' '^leaf$@read=pmu-cycles,trace_on'; do
	"$CT" record -d "$W/bad" -T "$t" ./trigger_read >/dev/null 2>"$W/bad.err"
	echo "-T '$t': exit $? $(head -n 1 "$W/bad.err")" | add
done
