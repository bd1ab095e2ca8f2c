# A C++ exception thrown through 3 instrumented frames and caught.  g++
# calls the exit hook while unwinding; clang++ does not, and the runtime
# must see the frames vanish, so clang has its own golden
# (exception.clang.expected) marking them "unwound".
# variants: all
# aarch64: check patch
# front-ends: all
build exception "$E2E/exception.cc"
record d ./exception
want_rc "record ./exception" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
