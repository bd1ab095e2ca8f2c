# plugin_api: what a plugin's callbacks receive (include/calltrace/plugin.h,
# doc/plugins.md), through a test plugin built with the variant's flags:
# init with its ARGS, enter and exit of the functions selected with their
# names, depths, threads and times, the argument and return registers
# where the front end sees them (not with -finstrument-functions: the
# .ret golden file is the register-seeing front ends'), fini; the plugin's
# own functions, called from its callbacks, are not in the recording.
# variants: all
# front-ends: all
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
