# A function with __attribute__((patchable_function_entry)) in a build with
# another front end (-pg, -pg -mfentry, -finstrument-functions): entered
# once and named right.  Its mcount/__fentry__ call becomes a nop and its
# entry is patched; one with __cyg_profile_func_enter is not patched.
# variants: all
# front-ends: all
build twice "$E2E/twice.c"
record d ./twice
want_rc "record ./twice" $RC 0 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
