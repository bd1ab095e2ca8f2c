# aarch64 programs on this x86-64 machine (doc/frontends.md, "AArch64"):
# record runs them under qemu-aarch64 with the aarch64 runtime (library
# calls on by default, as on x86-64), or refuses
# with one line and exit 2: another architecture, no emulator, a runtime
# built for the wrong machine or not built, a front end or an option the
# aarch64 runtime does not have yet.  The recording reads back here, with
# the symbols of the program and of the emulated libc saved by build-id
# (the program gone).  The a64-* variants of the cases marked "# aarch64:"
# check the traces themselves.
# variants: one
msg() { sed -n 's/^calltrace record: //p' "$W/$1.err" | sed "s|$(dirname "$CT")/|BIN/|g; s|$W/||g" | head -n 1 | add; }

section "a RISC-V program: exit 2"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\363\000\001\000\000\000' >"$W/riscv"
chmod +x "$W/riscv"
record r ./riscv
echo "record ./riscv: exit $RC" | add
msg r
want_rc "record ./riscv" $RC 2 "$W/r.err"
grep -q 'is a RISC-V program' "$W/r.err" || fail "record ./riscv: no message naming its architecture"
[ -d "$W/r" ] && fail "record ./riscv made its data directory"

A64=$(dirname "$CT")/aarch64/libcalltrace.so
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1 ||
   [ ! -f "$A64" ]; then
	echo "aarch64 part not run: needs aarch64-linux-gnu-gcc, qemu-aarch64 (make deps) and build-aarch64/libcalltrace.so (make aarch64)" >>"$W/skipped"
	exit 0 # (the golden file holds the aarch64 part: not compared)
fi
aarch64-linux-gnu-gcc -g -O0 -finstrument-functions -I"$E2E" -o "$W/a64" "$E2E/basic.c" \
	>"$W/build-a64.log" 2>&1 || die "build of a64 failed: $(head -5 "$W/build-a64.log")"
aarch64-linux-gnu-gcc -g -O0 -pg -I"$E2E" -o "$W/a64pg" "$E2E/basic.c" \
	>"$W/build-a64pg.log" 2>&1 || die "build of a64pg failed: $(head -5 "$W/build-a64pg.log")"

section "no emulator: exit 2"
CALLTRACE_QEMU=/nonexistent/qemu-aarch64 record q ./a64
echo "record ./a64: exit $RC" | add
msg q
section "the x86-64 runtime given: exit 2"
record l --lib "$(dirname "$CT")/libcalltrace.so" ./a64
echo "record --lib x86-64 ./a64: exit $RC" | add
msg l
section "no aarch64 runtime beside record: exit 2"
mkdir -p "$W/bin" && cp "$CT" "$(dirname "$CT")/libcalltrace.so" "$W/bin/"
guard "$W/bin/calltrace" record -d "$W/n" ./a64 >"$W/n.out" 2>"$W/n.err"
echo "record ./a64: exit $RC" | add
msg n
section "-pg: exit 2"
record p ./a64pg
echo "record ./a64pg: exit $RC" | add
msg p
section "--count with patched entries: exit 2"
aarch64-linux-gnu-gcc -g -O0 -fpatchable-function-entry=2 -I"$E2E" -o "$W/a64patch" "$E2E/basic.c" \
	>"$W/build-a64patch.log" 2>&1 || die "build of a64patch failed: $(head -5 "$W/build-a64patch.log")"
record c --count ./a64patch
echo "record --count ./a64patch: exit $RC" | add
msg c
section "options the aarch64 runtime has not: exit 2"
for o in -A^leaf@arg1 --clock=tsc; do
	record o "$o" ./a64
	echo "record $o ./a64: exit $RC" | add
	msg o
done

section "recorded under qemu-aarch64"
record d ./a64
want_rc "record ./a64" $RC 0 "$W/d.err"
add <"$W/d.out"
grep 'symbols were not saved' "$W/d.err" | sed "s|$W/||g" | add
grep '^clock:' "$W/d/info" | add
ct info d | grep -E '^ *front end:' | add
section "library calls: on by default, as on x86-64 (the libcall* cases check them)"
(
	unset CALLTRACE_LIBCALL
	record lc ./a64
	want_rc "record ./a64 (library calls)" $RC 0 "$W/lc.err"
)
ct replay lc --no-duration -F '^main$' | normalize | grep '@libc' | add
rm -f "$W/a64"
section "replay, the program gone"
ct replay d --no-duration | normalize | add
ct report d --format=csv | csv_calls | add
