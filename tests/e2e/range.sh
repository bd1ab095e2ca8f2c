# replay -r START~END: the calls that overlap the range (issue 13's item 9).
# main starts within the first 50 ms; each phase lasts 100 ms, so 150 ms
# falls inside phase2 and 151 ms before phase3.
# variants: one
# front-ends: few
build range "$E2E/range.c"
record d ./range
want_rc "record ./range" $RC 0 "$W/d.err"
for r in 150ms~151ms 150ms~ '~151ms' 1h~; do
	section "replay -r $r"
	ct replay d --no-duration -r "$r" | normalize | add
done
section "replay -r with -t: both"
ct replay d --no-duration -r 150ms~ -t 50ms | normalize | add
section "bad ranges"
for r in 5ms 2s~1s '~~'; do
	guard "$CT" replay -d "$W/d" -r "$r" >/dev/null 2>"$W/r.err"
	echo "-r $r: exit $RC: $(head -1 "$W/r.err")" | add
done
