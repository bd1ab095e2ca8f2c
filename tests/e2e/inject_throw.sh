# inject_throw: record --inject's throw= (doc/inject.md): a C++ exception
# thrown in place of a function's body (std::runtime_error with a message,
# std::bad_alloc), caught by its caller; the trace shows the fault and the
# call's unwinding.  Only where the body can be skipped (-pg -mfentry,
# patchable entries): plain -pg refuses it before the program starts.
# From a library function (operator new, inject_throw_lib.cc) through the
# library-call hook, with every hooked front end.  On aarch64 the same with
# patched entries (-pg refusing the program's own functions:
# inject_throw.aarch64-pg.expected) and library calls.
# variants: one
# front-ends: only
# aarch64: yes patch
build throw "$E2E/inject_throw.cc"

section "throw= at the 2nd parse and every 3rd reserve"
record t --inject='^parse\(int\)$@throw=std::runtime_error(bad input),nth=2' \
	--inject='^reserve\(int\)$@throw=std::bad_alloc,every=3' ./throw
echo "exit $RC" | add
sed "s|$W/||g" "$W/t.err" | grep -v '^calltrace: exit' | add
add <"$W/t.out"
if [ $RC = 0 ]; then
	ct replay t --no-duration | normalize | grep -B1 -A1 'injected' | add
	ct info t | grep injected_faults | add
fi

section "throw= from operator new, a library call, the 2nd time"
build throwlib "$E2E/inject_throw_lib.cc"
record l --libcall --inject='^operator new\(unsigned long\)$@throw=std::bad_alloc,nth=2' ./throwlib
echo "exit $RC" | add
sed "s|$W/||g" "$W/l.err" | grep -v '^calltrace: exit' | add
add <"$W/l.out"
if [ $RC = 0 ]; then
	ct replay l --no-duration | normalize | grep -B1 -A2 'injected' | add
	ct info l | grep injected_faults | add
fi
