# A dlopen'd instrumented library: dlopen, call through dlsym, dlclose; the
# library's function names resolve.
# variants: all
# aarch64: yes patch
# front-ends: all
build libplugin.so "$E2E/plugin.c" -shared -fPIC
build dlopen "$E2E/dlopen.c"
record d ./dlopen ./libplugin.so
want_rc "record ./dlopen ./libplugin.so" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "the .proc file lists the library, mapped and unmapped"
grep -c '^module .*libplugin\.so$' "$W"/d/*.proc | sed 's/^/module lines: /' | add
grep -c '^unmodule .*libplugin\.so$' "$W"/d/*.proc | sed 's/^/unmodule lines: /' | add
