# -Z/--size-filter (issue 30, uftrace's size filter): functions smaller
# than SIZE bytes (their ELF symbol's size) are left out as --hide leaves
# them out, their callees shown under the nearest shown caller, in every
# view; composed with -F, -N, -C; record -Z the same at record time (the
# patched entries left unpatched, mcount/fentry calls made nops: the
# .proc's patch-filtered count); a bad SIZE (exit 2) and -Z on a recording
# whose program and saved symbols are gone (one line, exit 2)
# (tests/e2e/sizefilt.c).
# variants: all
# front-ends: all
build sizefilt "$E2E/sizefilt.c"
record d ./sizefilt
want_rc "record ./sizefilt" $RC 0 "$W/d.err"

section "the functions' sizes (nm -S): small under 256 bytes, big 1 KiB or more"
nm -S "$W/sizefilt" | while read -r _a _s _t _n; do
	case $_t$_n in [Tt]main | [Tt]big_* | [Tt]small_*) ;; *) continue ;; esac
	_s=$((0x$_s))
	if [ $_s -lt 256 ]; then echo "$_n small"; elif [ $_s -ge 1024 ]; then echo "$_n big"; else echo "$_n between: $_s"; fi
done | LC_ALL=C sort | add

section "replay (all)"
ct replay d --no-duration | normalize | add
section "replay -Z 512"
ct replay d --no-duration -Z 512 | normalize | add
section "replay --size-filter=1K: the same"
ct replay d --no-duration --size-filter=1K | normalize | add
section "replay -Z 512 -F big_outer"
ct replay d --no-duration -Z 512 -F big_outer | normalize | add
section "replay -Z 512 -N '^small_wrap\$'"
ct replay d --no-duration -Z 512 -N '^small_wrap$' | normalize | add
section "replay -Z 512 -C big_leaf"
ct replay d --no-duration -Z 512 -C big_leaf | normalize | add
section "replay -Z 512 --hide big_other"
ct replay d --no-duration -Z 512 --hide big_other | normalize | add
section "report -Z 512: functions and calls"
ct report d -Z 512 --format=csv | csv_calls | add
section "graph --no-time -Z 512"
ct graph d --no-time -Z 512 | add
section "callers --no-time -Z 512 big_leaf"
ct callers d --no-time -Z 512 big_leaf | add
section "coverage -Z 512"
ct coverage d -Z 512 | sed "s|/[^ ]*/sizefilt|sizefilt|" | add
section "export --format=folded -Z 512 (times dropped)"
ct export d --format=folded -Z 512 -o - | sed 's/ [0-9]*$//' | LC_ALL=C sort | add

section "record -Z 512: the same tree as replay -Z 512"
record z -Z 512 ./sizefilt
want_rc "record -Z 512 ./sizefilt" $RC 0 "$W/z.err"
ct replay z --no-duration | normalize >"$W/z.tree"
ct replay d --no-duration -Z 512 | normalize >"$W/d.tree"
if cmp -s "$W/z.tree" "$W/d.tree"; then echo same | add; else diff "$W/d.tree" "$W/z.tree" | add; fi
# the hooked front ends do not hook the small functions at all (their
# .proc's patch-filtered count: small_leaf and small_wrap)
if [ "${FRONT:-instr}" != instr ]; then
	n=$(sed -n 's/^patch-filtered \([0-9]*\) .*sizefilt$/\1/p' "$W"/z/*.proc | head -n 1)
	[ "${n:-0}" -ge 2 ] || fail "record -Z 512 under $FRONT: patch-filtered '${n:-}' for sizefilt, want 2 or more"
fi
ct info z | sed -n 's/^ *record_filters: *//p' | add

section "bad input"
for a in "-Z 12X" "-Z 0" "-Z -5" "--size-filter=1.5K" "-Z"; do
	for v in replay report graph callers coverage export; do
		set -- $a
		[ $v = export ] && set -- --format=folded -o "$W/x.folded" "$@"
		guard "$CT" $v -d "$W/d" "$@" >/dev/null 2>"$W/bad.err"
		echo "$v $a: exit $RC $(head -n 1 "$W/bad.err")" | add
	done
done
guard "$CT" record -d "$W/bad" -Z 12X ./sizefilt >/dev/null 2>"$W/bad.err"
echo "record -Z 12X: exit $RC $(head -n 1 "$W/bad.err")" | add
# a recording whose program is gone: the sizes saved with its symbols
cp "$W/sizefilt" "$W/gone"
record g ./gone
want_rc "record ./gone" $RC 0 "$W/g.err"
rm -f "$W/gone"
ct replay g --no-duration -Z 512 | normalize >"$W/g.tree"
cmp -s "$W/g.tree" "$W/d.tree" && echo "program gone, symbols saved: replay -Z 512 the same" | add ||
	diff "$W/d.tree" "$W/g.tree" | add
# and its saved symbols too
rm -rf "$W/g/sym"
for v in replay report graph; do
	guard "$CT" $v -d "$W/g" -Z 512 >/dev/null 2>"$W/bad.err"
	echo "$v -Z 512, program and symbols gone: exit $RC $(sed "s|$W/||g" "$W/bad.err") ($(wc -l <"$W/bad.err") line)" | add
done
golden
