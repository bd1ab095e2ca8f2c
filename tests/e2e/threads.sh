# 16 threads created and joined, each running the same call chain.
# variants: all
# aarch64: check patch
# front-ends: all
build threads "$E2E/threads.c"
record d ./threads
want_rc "record ./threads" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay --per-thread (blocks sorted)"
ct replay d --no-duration --per-thread | normalize_threads | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "merged replay: number of worker() trees"
ct replay d --no-duration | grep -c 'worker() {' | add
# --tid of one worker thread: just its tree
pid=$(sed -n 's/^pid \([0-9]*\)$/\1/p' "$W"/d/*.proc | head -n 1)
tid=$(ls "$W/d" | sed -n 's/^[0-9]*-[0-9]*-\([0-9]*\)\.ev$/\1/p' | grep -vx "$pid" | head -n 1)
section "replay --tid (one worker)"
if [ -n "$tid" ]; then
	ct replay d --no-duration --tid "$tid" | normalize | add
else
	fail "no worker .ev file in $W/d"
fi
section "info: processes and threads"
ct info d | sed -n 's/^\(processes\|threads\): *\([0-9]*\)$/\1 \2/p' | add
