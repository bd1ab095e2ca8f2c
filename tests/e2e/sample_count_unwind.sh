# record --count --sample under the return-hooking front ends keeps
# nothing per call, a sample unwinds (runtime/stackwalk.c; aarch64: on the
# counting stack, runtime/count.c), and hooks no return: longjmp, a C++ exception, ucontext coroutines,
# backtrace() and a function reading its own return address (retaddr.c)
# see the program's own return addresses.  Each program, recorded with
# --count --sample=10k, prints what its untraced run prints, exits as it
# does, loses no frame, and counts every function's calls as --count alone.
# variants: one
# front-ends: few
# aarch64: yes patch
for p in longjmp.c exception.cc ucontext.c backtrace.c retaddr.c; do
	n=${p%.*}
	build "$n" "$E2E/$p"
	guard $EMU "$W/$n" >"$W/$n.plain.out" 2>"$W/$n.plain.err"
	prc=$RC
	record "$n-c" --count "./$n"
	want_rc "record --count ./$n" $RC "$prc" "$W/$n-c.err"
	record "$n-s" --count --sample=10k "./$n"
	want_rc "record --count --sample=10k ./$n" $RC "$prc" "$W/$n-s.err"
	grep -q 'cannot continue' "$W/$n-s.err" && fail "$n: the tracer lost a frame: $(cat "$W/$n-s.err")"
	same=no
	cmp -s "$W/$n.plain.out" "$W/$n-s.out" && same=yes
	ct report "$n-c" --format=csv | cut -d, -f1,2 | sort >"$W/$n-c.calls"
	ct report "$n-s" --format=csv | cut -d, -f1,2 | sort >"$W/$n-s.calls"
	calls=no
	[ -s "$W/$n-c.calls" ] && cmp -s "$W/$n-c.calls" "$W/$n-s.calls" && calls=yes
	[ "$calls" = yes ] || diff "$W/$n-c.calls" "$W/$n-s.calls" >>"$W/failures"
	echo "$n: output as untraced: $same; calls as --count's: $calls" | add
done
