# fork when every descriptor is taken: the child can make neither its
# .proc file nor its ring, so it runs untraced; the frames open at the fork
# get their return addresses back (return-hooked front ends).  Before, its
# next traced call wrote to a ring it did not have (SIGSEGV).  The parent's
# calls are all recorded.
# variants: one
# aarch64: yes patch
# front-ends: few
build fork_nofd "$E2E/fork_nofd.c"
record d ./fork_nofd
want_rc "record ./fork_nofd" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls): the parent's"
ct report d --format=csv | csv_calls | add
