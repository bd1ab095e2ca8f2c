# Library calls, C++ (doc/libcall.md): a callback throws through an
# untraced library's frame into the traced caller, which catches it; the
# library call and the throw are closed as unwound, and the calls after the
# catch are in place; the program's behaviour unchanged.  (The callback
# itself is closed by its exit hook with gcc -finstrument-functions, as
# unwound elsewhere: libcall_cxx.clang.expected, .ret.expected.)
# aarch64: check patch
# variants: all
# front-ends: all
$CXX -O2 -shared -fPIC -o "$W/libcall_each.so" "$E2E/libcall_each.cc" >"$W/build-each.log" 2>&1 ||
	die "build of libcall_each.so failed: $(head -5 "$W/build-each.log")"
build libcall_cxx "$E2E/libcall_cxx.cc" -L"$W" -lcall_each -Wl,-rpath,"$W"
section "stdout untraced"; $EMU "$W/libcall_cxx" | add
record d --libcall ./libcall_cxx
want_rc "record ./libcall_cxx" $RC 1 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration -F '^main$' | normalize | add
