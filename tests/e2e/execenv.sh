# Images started with an environment that lacks calltrace's variables
# (posix_spawn/posix_spawnp with an envp of their own, execve with an empty
# environment, execle with an LD_PRELOAD of the program's own, execv after
# clearenv): the variables are put back (LD_PRELOAD with the runtime first,
# the program's own variables kept), so each new image is traced.
# variants: one
build execenv "$E2E/execenv.c"
record d ./execenv
want_rc "record ./execenv" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "processes"
(cd "$W/d" && ls | sed -n 's/^[0-9]*-\([0-9]*\)\.proc$/proc gen \1/p' | sort | uniq -c) | add
