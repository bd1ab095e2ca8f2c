# plugin_api: what a plugin's callbacks receive (include/calltrace/plugin.h,
# doc/plugins.md), through a test plugin built with the variant's flags:
# init with its ARGS, enter and exit of the functions selected with their
# names, depths, threads and times, the argument and return registers
# where the front end sees them (not with -finstrument-functions: the
# .ret golden file is the register-seeing front ends'), fini; the plugin's
# own functions, called from its callbacks, are not in the recording; and a
# plugin with only calltrace_plugin_enter_fn (tests/e2e/plugin_fn.c) on every
# function counts what the recording has, its own function untraced.
# variants: all
# front-ends: all
# aarch64: yes patch
build plugin "$E2E/plugprog.c"
# shellcheck disable=SC2086
$CC $CFLAGS -shared -fPIC -I"$TOP/include" -o "$W/echo.so" "$E2E/plugin_echo.c" \
	>"$W/build-echo.log" 2>&1 || die "build of echo.so failed: $(head -5 "$W/build-echo.log")"
record d --plugin="$W/echo.so:$W/echo.txt" --plugin-filter='^(mid|add3|half|slow)$' ./plugin
want_rc "record --plugin echo.so ./plugin" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "the callbacks (the worker thread's apart)"
grep -v ' other ' "$W/echo.txt" | add
grep ' other ' "$W/echo.txt" | add
section "the plugin's own functions are not in the recording"
ct report d --format=csv | csv_calls | grep -c 'echo_line' | add

section "calltrace_plugin_enter_fn alone, on every function: the calls the recording has, its own function not traced"
# shellcheck disable=SC2086
$CC $CFLAGS -shared -fPIC -I"$TOP/include" -o "$W/fn.so" "$E2E/plugin_fn.c" \
	>"$W/build-fn.log" 2>&1 || die "build of fn.so failed: $(head -5 "$W/build-fn.log")"
record f --plugin="$W/fn.so:$W/fn.txt" ./plugin
want_rc "record --plugin fn.so ./plugin" $RC 0 "$W/f.err"
LC_ALL=C sort "$W/fn.txt" >"$W/fn.plugin"
ct report f --format=csv | csv_calls >"$W/fn.report"
if cmp -s "$W/fn.plugin" "$W/fn.report"; then
	echo "same counts as report" | add
else
	echo "counts differ:" | add
	diff "$W/fn.report" "$W/fn.plugin" | add
fi
ct report f --format=csv | csv_calls | grep -c 'fn_count' | add
