# cxx_local: a C program dlopens a C++ library with RTLD_LOCAL that throws
# and catches its own exception, twice (closing it in between).  The C++
# runtime and the unwinder are then in the library's scope only, and its
# calls of _Unwind_RaiseException and __cxa_begin_catch still reach the
# runtime's wrappers (the global definitions), which must find the real
# ones there: they used to call address 0 (SIGSEGV, exit 139).
# variants: all
# aarch64: yes patch
# front-ends: few
build libcxxlocal.so "$E2E/cxx_local_lib.cc" -shared -fPIC
build cxx_local "$E2E/cxx_local.c"
guard $EMU ./cxx_local ./libcxxlocal.so >"$W/plain.out" 2>"$W/plain.err"
want_rc "./cxx_local (untraced)" $RC 0 "$W/plain.err"
record d ./cxx_local ./libcxxlocal.so
want_rc "record ./cxx_local ./libcxxlocal.so" $RC 0 "$W/d.err"
cmp -s "$W/plain.out" "$W/d.out" || fail "stdout differs from the untraced run's"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
