# aarch64 programs on this x86-64 machine (doc/frontends.md, "AArch64"):
# record runs them under qemu-aarch64 with the aarch64 runtime (library
# calls on by default, as on x86-64), or refuses
# with one line and exit 2: another architecture, no emulator, a runtime
# built for the wrong machine or not built, a front end or an option the
# aarch64 runtime does not have yet.  -pg and patched entries are
# recorded too (-A's argument items with the latter only).  The recording
# reads back here, with the symbols of the program and of the emulated
# libc saved by build-id (the program gone).  The a64-* variants of the cases marked "# aarch64:"
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
aarch64-linux-gnu-gcc -g -O0 -fpatchable-function-entry=2 -I"$E2E" -o "$W/a64patch" "$E2E/basic.c" \
	>"$W/build-a64patch.log" 2>&1 || die "build of a64patch failed: $(head -5 "$W/build-a64patch.log")"

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
section "-pg with -A's argument items (-a, -R: args_a64): exit 2"
record pa -A^leaf@arg1 ./a64pg
echo "record -A^leaf@arg1 ./a64pg: exit $RC" | add
msg pa
section "--count --sample with patched entries: the calls on the counting stack"
# (the count case checks --count's arcs in the a64-*-patch-* variants,
# sample_count the samples charged on the stack; record warns of nothing)
record c --count --sample=4k ./a64patch
echo "record --count --sample=4k ./a64patch: exit $RC" | add
grep -c '^calltrace record: warning' "$W/c.err" | sed 's/^/warnings: /' | add
ct report c --format=csv | awk -F, 'NR > 1 { print $1 "," $2 }' | LC_ALL=C sort | add
section "not built for tracing: exit 3, and what to build it with there"
aarch64-linux-gnu-gcc -g -O0 -I"$E2E" -o "$W/a64plain" "$E2E/basic.c" \
	>"$W/build-a64plain.log" 2>&1 || die "build of a64plain failed: $(head -5 "$W/build-a64plain.log")"
record np ./a64plain
echo "record ./a64plain: exit $RC" | add
sed -n 's/^calltrace record: \(nothing was recorded.*\)/\1/p' "$W/np.err" | sed "s|$W/||g" | add
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

section "-pg, recorded under qemu-aarch64 (_mcount, the return trampoline)"
record g ./a64pg
want_rc "record ./a64pg" $RC 0 "$W/g.err"
ct info g | grep -E '^ *front end:' | add
ct replay g --no-duration | normalize | add

section "-pg, a function that signs its return address (pac-ret): not hooked, counted lost"
aarch64-linux-gnu-gcc -g -O2 -pg -I"$E2E" -o "$W/a64pac" "$E2E/pacret.c" \
	>"$W/build-a64pac.log" 2>&1 || die "build of a64pac failed: $(head -5 "$W/build-a64pac.log")"
aarch64-linux-gnu-objdump -d "$W/a64pac" | grep -q paciasp || fail "a64pac: no paciasp in it"
record pac ./a64pac
want_rc "record ./a64pac" $RC 0 "$W/pac.err"
add <"$W/pac.out"
ct info pac | grep -E '^ *lost:' | add
ct replay pac --no-duration 2>&1 | normalize | add

section "patched entries, recorded under qemu-aarch64 (patch.S, the return trampoline)"
record pt ./a64patch
want_rc "record ./a64patch" $RC 0 "$W/pt.err"
add <"$W/pt.out"
ct info pt | grep -E '^ *front end:' | add
ct replay pt --no-duration | normalize | add

section "patched entries: -A's argument items are x0-x7 (refused for -pg), -R x0"
record pa2 -A '^leaf$@arg1' -A '^inner$@arg1' -R '^leaf$@retval' ./a64patch
want_rc "record -A ./a64patch" $RC 0 "$W/pa2.err"
ct replay pa2 --no-duration | normalize | add
