# unfinished_end: calls still open when the program ends last to their
# process's last event (issue 27): a thread blocked for ever in
# block_forever while main runs work() and then _exits.  block_forever was
# entered before work began, so it lasts at least as long as work, on the
# recorded and on the corrected clock; before, it lasted 0 ns (its
# thread's last event is its own entry).  Unfinished calls are counted and
# marked as such.
# variants: all
# aarch64: yes patch
# front-ends: few
build unfinished_end "$E2E/unfinished_end.c"
record d ./unfinished_end
want_rc "record ./unfinished_end" $RC 0 "$W/d.err"
for raw in "" --raw; do
	ct report d --format=csv $raw >"$W/r$raw.csv"
	section "report $raw: block_forever at least as long as work"
	awk -F, '$1 == "block_forever" { b = $3 } $1 == "work" { w = $3 }
		END { print (b + 0 >= w + 0 && w + 0 > 0 ? "yes" : "no: block_forever " b ", work " w) }' \
		"$W/r$raw.csv" | add
done
section "replay -F block_forever (unfinished)"
ct replay d --no-duration -F block_forever | normalize | add
