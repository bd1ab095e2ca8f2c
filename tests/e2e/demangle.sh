# C++ names appear demangled, and mangled with --no-demangle.
# variants: all
# front-ends: few
build demangle "$E2E/demangle.cc"
record d ./demangle
want_rc "record ./demangle" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "replay --no-demangle"; ct replay d --no-duration --no-demangle | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
