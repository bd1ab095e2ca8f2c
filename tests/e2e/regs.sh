# Every argument and return-value register comes through the hooks
# unchanged (tests/e2e/regs.c checks each result against untraced code),
# with buffers so small that hooks hand full buffers over at every kind of
# entry and return; in the hooked front ends also with argument capture on,
# which sends every entry through the trampolines' general path.  gcc's
# nested functions (`push %r10` before the call of __fentry__), one of them
# at the start of a page, are in it.
# variants: all
# front-ends: all
build regs "$E2E/regs.c"
record d -b 4K ./regs
want_rc "record -b 4K ./regs" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report: calls (nested functions, gcc only, left out)"
ct report d --format=csv | csv_calls | grep -Ev '^(with_nested|inner[._a-z0-9]*),' | add
if [ "$FRONT" != instr ]; then
	record a -b 4K -A '^ints$@arg1/d,arg8/d' -R '^(ints|ld)$@retval/d' ./regs
	want_rc "record -A ... ./regs" $RC 0 "$W/a.err"
	section "with argument capture: stdout (exit $RC)"; add <"$W/a.out"
	ct replay a --no-duration >"$W/replay.txt"
	grep -m 2 'ints(' "$W/replay.txt" | normalize | add
fi
