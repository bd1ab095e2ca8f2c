# C++ exceptions through return-hooked frames (doc/frontends.md): rethrow,
# a new throw from a handler, nested try, catch(...), a destructor calling
# traced code while unwinding, deep frames.  The program's output must be
# the untraced one; an uncaught exception ends in std::terminate with the
# untraced exit status (134), not a crash inside the tracer.
# variants: one
# aarch64: yes patch
# front-ends: all
build rethrow "$E2E/rethrow.cc"
guard $EMU "$W/rethrow" >"$W/plain.out" 2>"$W/plain.err"
record d ./rethrow
want_rc "record ./rethrow" $RC 0 "$W/d.err"
cmp -s "$W/plain.out" "$W/d.out" || fail "traced output differs from the untraced one"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add

guard $EMU "$W/rethrow" uncaught >"$W/plain2.out" 2>"$W/plain2.err"
PLAIN_RC=$RC
record u ./rethrow uncaught
section "uncaught: exit status traced $RC, untraced $PLAIN_RC"
# (and not the emulator's own line, under qemu-user)
grep -v -e '^calltrace:' -e '^qemu: uncaught target signal' "$W/u.err" | add
grep -q 'calltrace: .*cannot continue' "$W/u.err" && fail "the tracer lost a frame: $(cat "$W/u.err")"
