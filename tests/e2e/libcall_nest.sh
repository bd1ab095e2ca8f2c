# record --nest-libcall (doc/libcall.md): the libraries' own library calls
# nested under the library call that made them (fopen -> malloc, fclose ->
# free, strdup -> malloc in libc: libc's calls of its own malloc through
# its slot), an untraced library's calls into libc and into itself
# through its PLT (linked, and dlopen'd after the start; the latter's
# under the program's function, its own function called through a
# pointer); without the option none of them; composed with --libcall=REGEX and
# --no-libcall=REGEX and with replay --no-libcall; the program's output
# unchanged; --nest-libcall with library calls off (--no-libcall,
# --count): one line, exit 2.
# variants: all
# front-ends: all
# the library is untraced: no front end's flags
$CC -O2 -fPIC -shared -o "$W/libcall_nest_lib.so" "$E2E/libcall_nest_lib.c" ||
	die "build of libcall_nest_lib.so failed"
$CC -O2 -fPIC -shared -DDL -o "$W/libcall_nest_dl.so" "$E2E/libcall_nest_lib.c" ||
	die "build of libcall_nest_dl.so failed"
build libcall_nest "$E2E/libcall_nest.c" -L"$W" -Wl,-rpath,"$W" -l:libcall_nest_lib.so
F='^(open_close|dup_free|in_lib|in_dlopened)$'
LC='^(fopen|fgetc|fclose|strdup|malloc|free|calloc|nest_lib_work|nest_lib_helper|nest_dl_helper)$'

section "stdout untraced"; "$W/libcall_nest" "$W/libcall_nest_dl.so" | add

section "record --libcall=REGEX (without --nest-libcall: the program's calls only)"
record p --libcall="$LC" ./libcall_nest "$W/libcall_nest_dl.so"
want_rc "record ./libcall_nest" $RC 0 "$W/p.err"
ct replay p --no-duration -F "$F" | normalize | add

section "record --nest-libcall --libcall=REGEX"
record n --nest-libcall --libcall="$LC" ./libcall_nest "$W/libcall_nest_dl.so"
want_rc "record --nest-libcall ./libcall_nest" $RC 0 "$W/n.err"
section "stdout (exit $RC)"; add <"$W/n.out"
section "replay"
ct replay n --no-duration -F "$F" | normalize | add
section "replay --no-libcall"
ct replay n --no-duration --no-libcall -F "$F" | normalize | add
section "report --format=csv (function,calls)"
ct report n --format=csv -F "$F" | csv_calls | add

section "record --nest-libcall --no-libcall='^malloc\$'"
record x --nest-libcall --no-libcall='^malloc$' ./libcall_nest
want_rc "record --nest-libcall --no-libcall=REGEX ./libcall_nest" $RC 0 "$W/x.err"
ct replay x --no-duration -F '^(dup_free|in_lib)$' | normalize | add

section "record --nest-libcall --no-libcall: exit 2, one line"
record bad --nest-libcall --no-libcall ./libcall_nest
echo "exit $RC" | add
add <"$W/bad.err"
section "record --nest-libcall --count: exit 2, one line"
record badc --nest-libcall --count ./libcall_nest
echo "exit $RC" | add
add <"$W/badc.err"
