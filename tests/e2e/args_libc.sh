# The C library's flags and signals by name (record -a, library calls,
# lib/record/libcproto.c): open(path, O_RDONLY|O_CLOEXEC) without the mode
# it does not read, with it (octal) after O_CREAT; openat's AT_FDCWD;
# mmap's PROT_* and MAP_*; signal(SIGUSR1, on_usr1) = SIG_DFL, raise,
# kill; -A with the named formats on the program's own function.  With
# each register-seeing front end.
# variants: all
. "$E2E/args_lib.inc"
addr() { sed -E 's/0x[0-9a-f]{5,}/0xADDR/g'; }
for fr in $(args_fronts); do
	args_build libc.$fr $fr "$E2E/args_libc.c"
	rm -rf "$W/wd.$fr" && mkdir "$W/wd.$fr"
	record d.$fr --libcall -a -A '^on_usr1$@arg1/signal' ./libc.$fr "$W/wd.$fr"
	want_rc "record -a ./libc.$fr" $RC 0 "$W/d.$fr.err"
	pid=$(sed -n 's/^pid //p' "$W/d.$fr.out")
	[ -n "$pid" ] || fail "$fr: the program printed no pid"
	ct replay d.$fr --no-duration -F '^(files|maps|signals)$' |
		grep -v 'dirty(' | normalize | addr | sed "s/\\b$pid\\b/PID/g" >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "record --libcall -a -A '^on_usr1\$@arg1/signal': replay"
add <"$W/replay.$first"
