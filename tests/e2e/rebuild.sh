# rebuild: a recording is analysed with the symbols saved in it after the
# program was rebuilt or deleted, and says so; a changed binary is never
# used for names without its symbols saved.
# variants: one
# aarch64: yes patch
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
ls "$W/d/sym/"*.sym >/dev/null 2>&1 || fail "no symbol tables saved in d/sym"

# rebuilt with other code: another build-id
build basic "$E2E/basic.c" -DCT_REBUILT -O1
section "replay after a rebuild (saved symbols)"
ct replay d --no-duration | normalize | add
grep -q "changed since the recording" "$W/last.err" ||
	fail "replay after a rebuild: no warning that the binary changed; stderr: $(cat "$W/last.err")"

section "replay after the binary is deleted (saved symbols)"
rm -f "$W/basic"
ct replay d --no-duration | normalize | add

# without the saved copies, the rebuilt binary must not lend its names
build basic "$E2E/basic.c" -DCT_REBUILT -O1
rm -rf "$W/d/sym"
section "replay after a rebuild, no saved symbols: no names, a warning"
ct replay d --no-duration | normalize | grep -c 'basic+0x' | add
grep -q "build-id mismatch" "$W/last.err" ||
	fail "replay with a mismatched binary: no build-id mismatch warning; stderr: $(cat "$W/last.err")"
ct replay d --no-duration | grep -E 'main|outer|middle|inner|leaf|loop' | add
