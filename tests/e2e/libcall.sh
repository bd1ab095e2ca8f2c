# Library calls (doc/libcall.md): malloc, memcpy, strlen, free, printf and
# qsort under their callers, qsort's callback under it; the same tree with
# lazy binding, -z now (full RELRO) and -fno-plt; threads (pthread_*),
# fork, a dlopen'd traced library, longjmp out of a callback, exit() inside
# a call; the program's output unchanged; --no-libcall when recording and
# when reading; --libcall=REGEX and --no-libcall=REGEX.
# aarch64: yes patch
# variants: all
# front-ends: all
build libcall "$E2E/libcall.c" -Wl,-z,lazy
build libcall_now "$E2E/libcall.c" -Wl,-z,now -Wl,-z,relro
build libcall_noplt "$E2E/libcall.c" -fno-plt
build libcall_plugin.so "$E2E/libcall_plugin.c" -shared -fPIC
# the program's own calls and what they call (the start-up's are the
# front end's: -pg registers _mcleanup with atexit)
F='^(main|thread_fn)$'
section "stdout untraced"; $EMU "$W/libcall" tree xy | add
record d --libcall ./libcall tree xy
want_rc "record ./libcall tree xy" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration -F "$F" | normalize | tee "$W/lazy.txt" | add
section "report --format=csv (function,calls)"; ct report d --format=csv -F "$F" | csv_calls | add
for b in now noplt; do
	record $b --libcall ./libcall_$b tree xy
	want_rc "record ./libcall_$b tree xy" $RC 0 "$W/$b.err"
	cmp -s "$W/d.out" "$W/$b.out" || fail "libcall_$b: its output differs"
	ct replay $b --no-duration -F "$F" | normalize >"$W/$b.txt"
	cmp -s "$W/lazy.txt" "$W/$b.txt" ||
		fail "libcall_$b: another tree than lazy binding's: $(diff "$W/lazy.txt" "$W/$b.txt" | head -20 | tr '\n' '|')"
done
section "replay --no-libcall"; ct replay d --no-duration --no-libcall -F "$F" | normalize | add
section "callers qsort@libc.so.6 (calls, function)"; ct callers d qsort@libc.so.6 | awk 'NR > 2 { print $(NF - 1), $NF }' | add

section "graph --no-time sort_two, then with --no-libcall"
ct graph d --no-time sort_two | add
ct graph d --no-time --no-libcall sort_two | add

section "record --no-libcall"
record n --no-libcall ./libcall tree xy
ct replay n --no-duration -F "$F" | normalize | add
section "record --libcall='^(malloc|free)\$'"
record a --libcall='^(malloc|free)$' ./libcall tree xy
ct replay a --no-duration -F "$F" | normalize | add
section "record --no-libcall='^(malloc|free|printf)\$'"
record x --no-libcall='^(malloc|free|printf)$' ./libcall tree xy
ct replay x --no-duration -F "$F" | normalize | add

section "record -N '^printf\$' (a record-time filter names a library function)"
record r --libcall -N '^printf$' ./libcall tree xy
ct replay r --no-duration -F "$F" | normalize | add

section "threads"
record t --libcall ./libcall T -
want_rc "record ./libcall T -" $RC 0 "$W/t.err"
ct replay t --no-duration --per-thread -F "$F" | normalize_threads | add
section "fork"
record f --libcall ./libcall fork -
want_rc "record ./libcall fork -" $RC 0 "$W/f.err"
add <"$W/f.out"
ct replay f --no-duration --per-thread -F "$F" | normalize_threads | add
section "a dlopen'd traced library"
record p --libcall ./libcall plugin ./libcall_plugin.so
want_rc "record ./libcall plugin" $RC 0 "$W/p.err"
add <"$W/p.out"
ct replay p --no-duration -F "$F" | normalize | add
section "longjmp out of qsort's callback"
record j --libcall ./libcall jump -
want_rc "record ./libcall jump -" $RC 0 "$W/j.err"
add <"$W/j.out"
ct replay j --no-duration -F "$F" | normalize | add
section "exit() inside a call"
record e --libcall ./libcall exit -
want_rc "record ./libcall exit -" $RC 3 "$W/e.err"
add <"$W/e.out"
ct replay e --no-duration -F "$F" | normalize | add
section "coverage: library calls make no module instrumented (libc lines)"
ct coverage d | grep -c 'libc\.so' | add
section "bad usage (exit 2, one line naming the option)"
record b1 --libcall='(' ./libcall tree xy
echo "rc $RC: $(head -1 "$W/b1.err")" | add
record b2 --libcall --no-libcall ./libcall tree xy
echo "rc $RC: $(head -1 "$W/b2.err")" | add
