# The backtrace trigger on a library call: the program's caller chain of
# the call (from the shadow stack: the unwinder cannot get past a library
# call's stub), as the same trigger on a traced function shows it; it was
# one frame inside libc (issue 28, item 8).
# aarch64: yes patch
# variants: all
# front-ends: all
build libcall_backtrace "$E2E/libcall_backtrace.c"
# the callers up to main (offsets vary with the compiler)
bt() { sed -n 's/.*mark: backtrace: \(.*<- main\).*/backtrace: \1/p' | sed 's/+0x[0-9a-f]*//g'; }
for t in '^inner$' '^free$'; do
	section "record --libcall -T '$t@backtrace'"
	record d --libcall -T "$t@backtrace" ./libcall_backtrace
	want_rc "record -T '$t@backtrace'" $RC 0 "$W/d.err"
	ct replay d --no-duration | bt | add
	rm -rf "$W/d"
done
