# seccomp during the run: a thread that enters strict mode (no system call
# but read, write, _exit, sigreturn; no TSC) and makes traced calls, a
# thread under a filter that kills the process on openat, and a thread it
# creates (which inherits the filter): the program completes with its own
# output; the calls made before seccomp are in the trace, those after it
# are not (those threads stopped tracing or never started: counted).  A
# filter put on every thread (TSYNC) stops the others at their next buffer
# switch, without a system call.
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

# a filter on every thread (TSYNC) that kills on what the tracer's buffer
# switches use (rt_sigprocmask, gettid): the other threads stop at their
# next buffer switch without a system call
guard ./seccomp tsync >"$W/plain2.out" 2>"$W/plain2.err"
want_rc "./seccomp tsync (untraced)" $RC 0 "$W/plain2.err"
section "tsync, untraced: stdout (exit $RC)"; add <"$W/plain2.out"
record t ./seccomp tsync
want_rc "record ./seccomp tsync" $RC 0 "$W/t.err"
section "tsync: stdout (exit $RC)"; add <"$W/t.out"
section "tsync: report (in_tsync: the calls before the main thread's next buffer switch)"
ct report t --format=csv | csv_calls |
	awk -F, '$1 == "in_tsync" { $0 = "in_tsync," ($2 > 0 && $2 < 200000 ? "some" : $2) } 1' | add
