# A program not built for tracing: record warns before it runs, says
# afterwards that nothing was recorded, counts the process that ran, and
# exits 3 (the program's own failure status wins; with a record-time filter
# nothing recorded is no error).  A traced child is still recorded.
# variants: one
gcc -O2 -o "$W/plain" "$E2E/basic.c" -I"$E2E" >"$W/build-plain.log" 2>&1 || die "build of plain failed"
build basic "$E2E/basic.c"
record d ./plain
echo "record ./plain: exit $RC" | add
grep -o 'warning: ./plain is not built for tracing' "$W/d.err" | add
grep -o 'nothing was recorded: no traced call came from ./plain' "$W/d.err" | add
grep -o '1 process, 0 threads' "$W/d.err" | add
grep '^processes:' "$W/d/info" | add
section "with a filter that could leave every call out: no error"
record f -t 1h ./plain
echo "record -t 1h ./plain: exit $RC" | add
section "the program's own failure status wins"
record s sh -c "$W/plain >/dev/null; exit 7"
echo "record sh -c 'plain; exit 7': exit $RC" | add
section "an uninstrumented shell that runs a traced program: recorded"
record t sh -c "$W/basic"
echo "record sh -c basic: exit $RC" | add
grep -c 'nothing was recorded' "$W/t.err" | add
