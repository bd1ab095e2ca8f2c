# linked: the runtime linked into the program instead of preloaded by
# record.  Nothing is recorded unless CALLTRACE_DIR or CALLTRACE=1 asks for
# it; then a writer thread in the program writes a recording that replays
# like one made by record.
# variants: all
# front-ends: all
LIBDIR=$(dirname "$CT")
# a patchable-entry build references no symbol of the runtime: keep the
# library against --as-needed (doc/frontends.md)
NEEDED=
[ "$FRONT" = patch ] && NEEDED=-Wl,--no-as-needed
build basic "$E2E/basic.c" $NEEDED -L"$LIBDIR" -lcalltrace -Wl,-rpath,"$LIBDIR"

guard ./basic >"$W/plain.out" 2>"$W/plain.err"
want_rc "./basic (not asked to record)" $RC 0 "$W/plain.err"
[ -e "$W/calltrace.data" ] && fail "the linked program recorded without being asked to"
section "stdout, not recording (exit $RC)"; add <"$W/plain.out"

guard env CALLTRACE_DIR="$W/d" ./basic >"$W/d.out" 2>"$W/d.err"
want_rc "CALLTRACE_DIR=d ./basic" $RC 0 "$W/d.err"
section "stdout, CALLTRACE_DIR=d (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add

guard env CALLTRACE=1 ./basic >"$W/one.out" 2>"$W/one.err"
want_rc "CALLTRACE=1 ./basic" $RC 0 "$W/one.err"
section "CALLTRACE=1 records into ./calltrace.data"
ct replay calltrace.data --no-duration | normalize | add
