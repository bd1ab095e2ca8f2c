# seccomp during the run: a thread that enters strict mode (no system call
# but read, write, _exit, sigreturn; no TSC) and makes traced calls, a
# thread under a filter that kills the process on openat, and a thread it
# creates (which inherits the filter): the program completes with its own
# output; the calls made before seccomp are in the trace, those after it
# are not (those threads stopped tracing or never started: counted).
# variants: all
# front-ends: few
build seccomp "$E2E/seccomp.c"
guard ./seccomp >"$W/plain.out" 2>"$W/plain.err"
want_rc "./seccomp (untraced)" $RC 0 "$W/plain.err"
section "untraced: stdout (exit $RC)"; add <"$W/plain.out"
record d ./seccomp
want_rc "record ./seccomp" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
