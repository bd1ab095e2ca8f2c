# The program's stdin, stdout, stderr, arguments, environment and exit
# status are the same under record as without it.
# variants: all
# aarch64: yes patch
# front-ends: few
build stdio "$E2E/stdio.c"
printf 'hello\nworld\n' >"$W/input"
CT_TEST_VAR="x y" $EMU ./stdio "a b" 'c\d' '' "-d" "--help" <"$W/input" >"$W/plain.out" 2>"$W/plain.err"
prc=$?
want_rc "untraced ./stdio" $prc 3
STDIN=$W/input CT_TEST_VAR="x y" record d ./stdio "a b" 'c\d' '' "-d" "--help"
want_rc "record ./stdio" $RC 3 "$W/d.err"
cmp -s "$W/plain.out" "$W/d.out" || fail "stdout under record differs: $(diff "$W/plain.out" "$W/d.out" | head -n 10)"
# the program's stderr lines are all there, in order (record may add its own)
grep -xF -f "$W/plain.err" "$W/d.err" >"$W/d.err.prog"
cmp -s "$W/plain.err" "$W/d.err.prog" || fail "stderr under record lost program lines: $(diff "$W/plain.err" "$W/d.err" | head -n 10)"
section "stdout (first 10 lines, exit $RC)"; head -n 10 "$W/d.out" | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
