# Recursion 100,000 deep (on a thread with a 512 MB stack), recorded whole.
# variants: all
# aarch64: yes patch
# front-ends: few
build recursion "$E2E/recursion.c"
build_tool depth
record d ./recursion
want_rc "record ./recursion" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "replay -D 4 --per-thread (blocks sorted)"
ct replay d --no-duration -D 4 --per-thread | normalize_threads | add
section "replay --tid of the deep thread: lines, depth of the deepest line"
pid=$(sed -n 's/^pid \([0-9]*\)$/\1/p' "$W"/d/*.proc | head -n 1)
tid=$(ls "$W/d" | sed -n 's/^[0-9]*-[0-9]*-\([0-9]*\)\.ev$/\1/p' | grep -vx "$pid" | head -n 1)
ct replay d --no-duration --tid "$tid" | "$W/tool_depth" | add
