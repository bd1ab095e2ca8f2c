# fork after threads ended: the child creates threads, 20 rounds in one
# run.  A thread's ring is unmapped when it ends; glibc may then map a
# thread stack where it was, and keep it in its cache.  The forked child
# unmaps its parent's rings: a ring unmapped before the fork must not be
# among them.  Before, it was, and the child's pthread_create died of
# SIGSEGV on the cached stack unmapped under it (most rounds of a run).
# variants: one
# aarch64: yes patch
# front-ends: few
build fork_threads "$E2E/fork_threads.c"
record d ./fork_threads
want_rc "record ./fork_threads" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "processes"
(cd "$W/d" && ls | sed -n 's/^[0-9]*-\([0-9]*\)\.proc$/proc gen \1/p' | sort | uniq -c) | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
