# -fpatchable-function-entry on aarch64 (doc/frontends.md, "AArch64"):
# record runs the program under qemu-aarch64 and the runtime patches two
# nops at each entry into `mov x9, x30; bl ct_patch_tramp`, for gcc and
# clang, with the N,M layouts that leave two nops at the entry (N=2; N=3,M=1;
# N=5,M=2 whose third nop stays one), after a `bti c` (branch protection),
# and through a veneer near a program mapped too far from the runtime for a
# `bl` (-no-pie: 0x400000).  A layout with fewer than two (N=1, N=2,M=1)
# gets one clear message and runs untraced, unharmed.  coverage names
# each function's source file (gcc's DWARF puts it after the nops).
# variants: one
A64=$(dirname "$CT")/aarch64/libcalltrace.so
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1 ||
	[ ! -f "$A64" ]; then
	echo "not run: needs aarch64-linux-gnu-gcc, qemu-aarch64 (make deps) and build-aarch64/libcalltrace.so (make aarch64)" >>"$W/skipped"
	exit 0 # (the golden file is not compared)
fi
EMU="${CALLTRACE_QEMU:-qemu-aarch64} -L ${CALLTRACE_QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
for opt in "2" "3,1" "5,2" "2 -no-pie" "2 -mbranch-protection=standard"; do
	n=${opt%% *}
	extra=
	case $opt in *" "*) extra=${opt#* } ;; esac
	for cc in gcc clang; do
		name=p-$cc-$(echo "$n$extra" | tr -c 'a-zA-Z0-9\n' _)
		case $cc in
		gcc) c=aarch64-linux-gnu-gcc ;;
		clang) c="clang --target=aarch64-linux-gnu" ;;
		esac
		if ! $c -g -O2 -fpatchable-function-entry=$n $extra -I"$E2E" -o "$W/$name" "$E2E/basic.c" \
			>"$W/build-$name.log" 2>&1; then
			section "$cc N,M=$n $extra: not supported by the compiler"
			continue
		fi
		$EMU "$W/$name" >"$W/$name.plain" 2>&1
		record "d-$name" "./$name"
		want_rc "record ./$name" $RC 0 "$W/d-$name.err"
		cmp -s "$W/$name.plain" "$W/d-$name.out" || fail "$name: traced output differs"
		section "$cc -fpatchable-function-entry=$n${extra:+ $extra}: calls"
		ct report "d-$name" --format=csv | csv_calls | add
		grep 'patchable function entries' "$W/d-$name.err" | add
	done
done
# the functions' source files: gcc's DWARF low_pc lies after the nops,
# the symbol at the first (doc/frontends.md)
for name in p-gcc-2 p-clang-2 p-gcc-3_1; do
	section "coverage ($name)"
	ct coverage "d-$name" | sed "s|$W/||; s|^  /[^ ]*/|  |" | add
done
section "the tree (gcc, N=3,M=1)"
ct replay d-p-gcc-3_1 --no-duration | normalize | add

# too few nops at the entry: a message, no calls (record exits 3: nothing
# recorded), the program unharmed
for n in 1 2,1; do
	name=p-few-$(echo "$n" | tr , _)
	aarch64-linux-gnu-gcc -g -O2 -fpatchable-function-entry=$n -I"$E2E" -o "$W/$name" "$E2E/basic.c" ||
		die "build $name"
	$EMU "$W/$name" >"$W/$name.plain" 2>&1
	record "d-$name" "./$name"
	want_rc "record ./$name" $RC 3 "$W/d-$name.err"
	cmp -s "$W/$name.plain" "$W/d-$name.out" || fail "$name: traced output differs"
	section "N,M=$n: message"
	grep 'patchable function entries' "$W/d-$name.err" | sed "s|$W/||" | add
done
