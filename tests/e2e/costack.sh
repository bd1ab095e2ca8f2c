# ucontext: a coroutine whose stack is an array in main's frame, entered
# from foo: bar runs inside foo at higher addresses than foo's frame; foo
# stays open around it and returns normally in every front end (the
# return-hooking ones took foo as unwound at bar's first call).
# variants: all
# aarch64: yes patch
# front-ends: all
build costack "$E2E/costack.c"
record d ./costack
want_rc "record ./costack" $RC 0 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
