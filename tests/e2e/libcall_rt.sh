# The calls the runtime interposes, shown as library calls (doc/libcall.md):
# sigaction and signal, pthread_create (the thread's tree its own) and
# pthread_exit (never returns), fork (the child's return in its own
# stream), vfork (the child's calls until it exits are not recorded; the
# parent's return is, and its handler of a signal the child sent, under
# vfork), the exec family and fexecve failing (they return),
# posix_spawn and posix_spawnp, dlopen and dlclose with a library's
# constructor and destructor nested under them, clone without CLONE_VM (the
# child's call under its clone) and with CLONE_VM | CLONE_VFORK, mprotect,
# munmap, exit (never returns); an execl that succeeds (unfinished where
# the image ends) and a vfork whose child execs; --no-libcall, and -N, --hide
# and -F naming them.  Each named NAME@libc.so.6 as without the runtime.
# variants: all
# front-ends: all
build libcall_rt "$E2E/libcall_rt.c"
build libcall_rt_lib.so "$E2E/libcall_rt_lib.c" -shared -fPIC
# these library calls only (the compilers inline memset, strcmp..., and
# -pg's start-up calls its own)
LC='^(sigaction|signal|pthread_.*|fork|vfork|_exit|exec.*|fexecve|posix_spawnp?|dlopen|dlclose|clone|mprotect|munmap|exit|waitpid)$'
F='^(main|thread_fn|exiter)$'
record c --libcall="$LC" ./libcall_rt calls "$W/libcall_rt_lib.so"
want_rc "record ./libcall_rt calls" $RC 0 "$W/c.err"
section "calls: stdout (exit $RC)"; add <"$W/c.out"
section "calls: replay --per-thread"
ct replay c --no-duration --per-thread -F "$F" | normalize_threads | add

section "execl of this program: unfinished in the first image"
record e --libcall="$LC" ./libcall_rt exec
want_rc "record ./libcall_rt exec" $RC 0 "$W/e.err"
ct replay e --no-duration --per-thread -F "$F" | normalize_threads | add

section "vfork, the child execs this program"
record v --libcall="$LC" ./libcall_rt vforkexec
want_rc "record ./libcall_rt vforkexec" $RC 0 "$W/v.err"
add <"$W/v.out"
grep -q 'Nothing lost' "$W/v.err" || fail "vforkexec: record's summary: $(tail -1 "$W/v.err")"
ct replay v --no-duration --per-thread -F "$F" | normalize_threads | add

section "record --no-libcall: none of them"
record n --no-libcall ./libcall_rt calls "$W/libcall_rt_lib.so"
want_rc "record --no-libcall ./libcall_rt calls" $RC 0 "$W/n.err"
ct replay n --no-duration -F "$F" | grep -c '@' | add
section "record --no-libcall: the vfork child's call is not in its parent's tree, its signal's handler is"
ct replay n --no-duration -F '^do_vfork$' | normalize | add

section "record -N '^(execve|dlopen)\$' --hide '^(dlclose|vfork)\$'"
record f --libcall="$LC" -N '^(execve|dlopen)$' --hide '^(dlclose|vfork)$' ./libcall_rt calls "$W/libcall_rt_lib.so"
want_rc "record -N --hide ./libcall_rt calls" $RC 0 "$W/f.err"
ct replay f --no-duration -F '^(do_vfork|execs|modules)$' | normalize | add

section "record -F '^(execve|dlclose)\$'"
record g --libcall="$LC" -F '^(execve|dlclose)$' ./libcall_rt calls "$W/libcall_rt_lib.so"
want_rc "record -F ./libcall_rt calls" $RC 0 "$W/g.err"
ct replay g --no-duration | normalize | add
