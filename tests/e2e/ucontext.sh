# ucontext coroutines: two coroutines and the main context switch 1500
# times with traced frames on all three stacks; the program runs to the end
# with its untraced output, and every call is counted.
# variants: all
# aarch64: yes patch
# front-ends: all
build ucontext "$E2E/ucontext.c"
guard $EMU "$W/ucontext" >"$W/plain.out" 2>"$W/plain.err"
record d ./ucontext
want_rc "record ./ucontext" $RC 0 "$W/d.err"
cmp -s "$W/plain.out" "$W/d.out" || fail "traced output differs from the untraced one"
grep -q 'cannot continue' "$W/d.err" && fail "the tracer lost a frame: $(cat "$W/d.err")"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
