# Threads ending inside traced frames: pthread_exit() three frames deep
# (the forced unwinding must see real return addresses, or the destructor
# of an object in a frame further out is not run) and pthread_cancel of a
# thread waiting in a traced frame.  The program ends normally with its
# untraced output; the frames are shown unfinished.
# variants: one
# aarch64: yes patch
# front-ends: all
build pthread_exit "$E2E/pthread_exit.cc"
guard $EMU "$W/pthread_exit" >"$W/plain.out" 2>"$W/plain.err"
record d ./pthread_exit
cmp -s "$W/plain.out" "$W/d.out" || fail "traced output differs from the untraced one: $(cat "$W/d.out")"
want_rc "record ./pthread_exit" $RC 0 "$W/d.err"
grep -q 'cannot continue' "$W/d.err" && fail "the tracer lost a frame: $(cat "$W/d.err")"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay --per-thread, without pe_leaf"
ct replay d --no-duration --per-thread | grep -v 'pe_leaf' | normalize_threads | add
