# The TSC disabled during the run (prctl PR_SET_TSC, PR_TSC_SIGSEGV): the
# program completes with its own output and exit status (3) in every front
# end; the calls before the prctl are in the trace, those after it in that
# thread and in the thread it creates (which inherits the setting) are not
# (the thread stopped tracing, counted); a child forked afterwards starts
# with the TSC disabled and is traced with the monotonic clock, scaled to
# TSC ticks (its calls come after its parent's on the time line).
# variants: all
# front-ends: all
build tsc "$E2E/tsc.c"
guard ./tsc >"$W/plain.out" 2>"$W/plain.err"
want_rc "./tsc (untraced)" $RC 3 "$W/plain.err"
section "untraced: stdout (exit $RC)"; add <"$W/plain.out"
record d ./tsc
want_rc "record ./tsc" $RC 3 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "the forked child says its clock once"
grep -c 'TSC is disabled' "$W/d.err" | add
section "replay: one time line (the child's clock is scaled to TSC ticks)"
ct replay d --no-duration | normalize | add
record m --clock=mono ./tsc
want_rc "record --clock=mono ./tsc" $RC 3 "$W/m.err"
section "--clock=mono: stdout (exit $RC)"; add <"$W/m.out"
section "--clock=mono: report --format=csv (function,calls)"
ct report m --format=csv | csv_calls | add
section "--clock=mono: the child's calls in the tree"
ct replay m --no-duration | normalize | grep -c 'in_child();' | add
