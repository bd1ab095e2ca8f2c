# posix_spawn of an instrumented program.
# aarch64: yes binfmt
# variants: all
# front-ends: few
build target "$E2E/target.c"
build spawn "$E2E/spawn.c"
record d ./spawn ./target
want_rc "record ./spawn ./target" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "files"; (cd "$W/d" && ls | sed -n 's/^[0-9]*-\([0-9]*\)\.proc$/proc gen \1/p; s/^[0-9]*-\([0-9]*\)-[0-9]*\.ev$/ev gen \1/p' | sort) | add
section "replay --per-thread (blocks sorted)"
ct replay d --no-duration --per-thread | normalize_threads | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
