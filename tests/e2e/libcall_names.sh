# Library-call names (doc/libcall.md, doc/replay.md): a call is named by
# the symbol of its slot, not by its target, so aliases of one
# implementation stay apart with their own counts (memcpy 3 and memmove 2,
# one IFUNC implementation; strtol 2 and strtoimax 1, one address in
# glibc); a C++ library call prints its parameter list once
# ("operator new(unsigned long)@libstdc++.so.6;", no "()" after it); a
# clone of gcc's (".isra.0", "[clone .constprop.0]", named here with asm
# labels so that every compiler makes them) gets "()" only where its name
# has no parameter list, with every --demangle; a plugin gets the names
# replay prints (doc/plugins.md); record-time -N decides each name of
# such aliases apart, as report -N does.
# aarch64: yes patch
# variants: all
# front-ends: all
build libcall_names "$E2E/libcall_names.cc" -fno-builtin
# shellcheck disable=SC2086
$CC $CFLAGS -shared -fPIC -I"$TOP/include" -o "$W/fn.so" "$E2E/plugin_fn.c" \
	>"$W/build-fn.log" 2>&1 || die "build of fn.so failed: $(head -5 "$W/build-fn.log")"
F='^main$'
record d --libcall --plugin="$W/fn.so:$W/fn.txt" ./libcall_names
want_rc "record ./libcall_names" $RC 0 "$W/d.err"
for m in full simple no; do
	section "replay --demangle=$m"
	ct replay d --no-duration --demangle=$m -F "$F" | normalize | add
done
section "report --format=csv (function,calls)"
ct report d --format=csv -F "$F" | csv_calls | add
section "the plugin's names of library calls (the same as report's)"
grep '@' "$W/fn.txt" | LC_ALL=C sort | add
ct report d --format=csv | csv_calls | tr -d '"' >"$W/report.calls"
grep '@' "$W/fn.txt" | while IFS= read -r l; do
	grep -qxF "$l" "$W/report.calls" || fail "the plugin's '$l' is not in report's calls"
done
# record -N PAT keeps what report -N PAT of the full recording keeps, and
# replay shows the calls of FOCUS left
rec_like_view() {
	_pat=$1 _what=$2 _focus=$3
	section "record -N '$_pat' ($_what), and report -N '$_pat' of the full recording"
	rm -rf "$W/n"
	record n --libcall -N "$_pat" ./libcall_names
	want_rc "record -N '$_pat' ./libcall_names" $RC 0 "$W/n.err"
	ct replay n --no-duration -F "$_focus" | normalize | add
	ct report n --format=csv -F "$F" | csv_calls >"$W/n.rec"
	ct report d --format=csv -F "$F" -N "$_pat" | csv_calls >"$W/n.view"
	cmp -s "$W/n.rec" "$W/n.view" ||
		fail "record -N '$_pat' and report -N '$_pat' differ: $(diff "$W/n.rec" "$W/n.view" | tr '\n' '|')"
}
# IFUNCs (memcpy, memmove): record decides at the symbol's own address,
# the runtime gives it to the implementation the slot holds (they were
# recorded, silently); a library call's name matches with and without its
# "@module", at record time and in the views alike
for pat in '^memmove$' '^memcpy@libc\.so\.6$'; do
	rec_like_view "$pat" "an IFUNC" '^copies'
done
# plain aliases at one address (strtol, strtoimax): record decides each
# name apart ("n" lines of filter.spec; runtime/libcall.c gives each name
# a jump of its own), as the views do
for pat in '^strtol$' '^strtoimax$' '^strto'; do
	rec_like_view "$pat" "aliases at one address" '^numbers'
done
