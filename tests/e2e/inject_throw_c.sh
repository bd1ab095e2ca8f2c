# inject_throw_c: record --inject's throw= into a C program (doc/inject.md).
# The thrower (libcalltrace-throw.so) is dlopened with RTLD_LOCAL, so the
# C++ runtime and the unwinder are in its scope only: its throw reached the
# runtime's _Unwind_RaiseException, which found no real one and called
# address 0 (SIGSEGV, "Faults injected: 0").  Now the exception leaves the
# call as it would from C++: caught by a C++ library (itself loaded
# RTLD_LOCAL) that calls the C function back, or, with nothing to catch
# it, std::terminate (SIGABRT) with the fault counted (the record of rule
# 0 used to be cut off the dead thread's last buffer).
# variants: one
# front-ends: only
# aarch64: yes patch
build libguard.so "$E2E/inject_throw_c_lib.cc" -shared -fPIC
build throwc "$E2E/inject_throw_c.c"
rule='^alloc$@throw=std::bad_alloc,nth=2'

section "caught by a C++ library (RTLD_LOCAL)"
record c --inject="$rule" ./throwc ./libguard.so
echo "exit $RC" | add
sed "s|$W/||g" "$W/c.err" | grep -v '^calltrace: exit' | add
add <"$W/c.out"
if [ $RC = 0 ]; then
	ct replay c --no-duration | normalize | grep -B1 -A1 'injected' | add
	ct info c | grep injected_faults | add
fi

section "caught by nothing"
record u --inject="$rule" ./throwc
echo "exit $RC" | add
# (qemu-user says so too, for an aarch64 program)
sed "s|$W/||g" "$W/u.err" | grep -v -e '^calltrace: signal' -e '^qemu: uncaught target signal' | add
add <"$W/u.out"
if [ $RC = 134 ]; then
	grep -o 'Faults injected: [0-9]*' "$W/u.err" | add
	ct replay u --no-duration | normalize | grep -B1 -A1 'injected' | add
	ct info u | grep injected_faults | add
fi
