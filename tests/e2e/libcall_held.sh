# record -t alone with library calls hooked (doc/libcall.md, doc/record.md):
# short library calls inside calls whose entries are held back leave
# nothing, a long one writes its callers' entries, and the recording shows
# the tree that replay -t shows of a full recording; with -a (arguments:
# the library calls are written, then taken back) as well.
# The calls the program makes short (main's library calls too) are left
# out of the trees compared: a busy machine may make one long (it waits
# for a CPU), and -t then keeps it, which short_kept checks against its
# recorded duration.
# variants: all
# front-ends: all
build held "$E2E/libcall_held.c"
SHORT='^(parse|nested|atoi|strtol|printf|__cxa_atexit|__cxa_finalize)(@|$)'
record full --libcall ./held
want_rc "record --libcall ./held" $RC 0 "$W/full.err"
ct replay full --no-duration -t 10ms | long_only "$SHORT" | normalize >"$W/full.tree"
for a in "" -a; do
	record t$a --libcall -t 10ms $a ./held
	want_rc "record --libcall -t 10ms $a ./held" $RC 0 "$W/t$a.err"
	section "record --libcall -t 10ms $a ./held: replay"
	ct replay t$a --no-duration | long_only "$SHORT" | normalize | sed 's/(.*)/()/; s/) = .*;$/);/; s/} = [^ ]* /} /' |
		tee "$W/t$a.tree" | add
	short_kept t$a 10000000 "$SHORT"
	cmp -s "$W/t$a.tree" "$W/full.tree" ||
		fail "record -t $a differs from replay -t of a full recording: $(diff "$W/full.tree" "$W/t$a.tree" | head -8 | tr '\n' '|')"
	section "the short calls are left out, and counted"
	grep -q '^filtered_calls: [1-9]' "$W/t$a/info" && echo yes | add
done
