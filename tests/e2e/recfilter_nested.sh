# -F with -D: -D counts from the innermost -F call, so that a -F call
# deeper than the limit inside another still shows, under the nearest shown
# caller (as uftrace does): `-F 'alloc[135]' -D1` on alloc1 -> ... ->
# alloc5 is alloc1 { alloc3 { alloc5 } }, in replay and at record time
# (doc/record.md, doc/replay.md)
# variants: all
# aarch64: yes patch
# front-ends: few
build recfilter_nested "$E2E/recfilter_nested.c"
record full ./recfilter_nested
want_rc "record ./recfilter_nested" $RC 0 "$W/full.err"
for f in "-F alloc[135] -D 1" "-F alloc[135] -D 2" "-F ^alloc1\$ -F ^alloc4\$ -D 1" \
	"-F alloc[135] -D 1 --hide ^alloc3\$" "-F ^other\$ -F ^alloc5\$ -D 1"; do
	section "replay $f"
	# shellcheck disable=SC2086
	ct replay full --no-duration $f | normalize | tee "$W/v.tree" | add
	rm -rf "$W/f"
	# shellcheck disable=SC2086
	record f $f ./recfilter_nested
	want_rc "record $f" $RC 0 "$W/f.err" || continue
	ct replay f --no-duration | normalize >"$W/r.tree"
	cmp -s "$W/v.tree" "$W/r.tree" ||
		fail "record $f differs from replay $f: $(diff "$W/v.tree" "$W/r.tree" | tr '\n' '|')"
done
