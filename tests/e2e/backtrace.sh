# backtrace() inside return-hooked frames sees the real return addresses:
# its result equals the untraced run's, and the frames still return
# through the tracer afterwards (their exits are recorded).
# variants: one
# aarch64: yes patch
# front-ends: all
build backtrace "$E2E/backtrace.c"
guard $EMU "$W/backtrace" >"$W/plain.out" 2>"$W/plain.err"
record d ./backtrace
want_rc "record ./backtrace" $RC 0 "$W/d.err"
if cmp -s "$W/plain.out" "$W/d.out"; then
	section "backtrace traced = untraced: yes"
else
	section "backtrace traced = untraced: no"
	diff "$W/plain.out" "$W/d.out" | head -20 | add
fi
grep -c '^  ' "$W/d.out" | sed 's/^/frames listed: /' | awk '{ print ($3 >= 5) ? "at least 5 frames listed" : $0 }' | add
section "replay"; ct replay d --no-duration | normalize | add
