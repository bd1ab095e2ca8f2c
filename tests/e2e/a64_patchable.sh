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

# the calibration (doc/overhead.md, "aarch64"): patched frames are
# corrected with the hooked front ends' figures ("overhead-hook", measured
# through -pg's _mcount: arch/aarch64/cal.S ct_cal_hooked), as x86-64's
# are with __fentry__'s.  info says they are measured and uses them, the
# views take the cost out (corrected below recorded: never above, and some
# cost is owed inside main), and a copy of the recording whose hooked
# figures are made unbelievable is shown as recorded, said so, while its
# -finstrument-functions figures do not matter.  No time is compared with
# a number (qemu's times are the emulator's)
for name in p-gcc-2 p-clang-2; do
	[ -d "$W/d-$name" ] || continue
	section "calibration ($name)"
	ct info "d-$name" >"$W/info-$name"
	sed -n 's/^ *\(front end:\) */\1 /p; s/^ *\(measured:\) */\1 /p' "$W/info-$name" |
		sed 's/[0-9][0-9]*\.[0-9] ns/N ns/g' | add
	hz=$(sed -n 's/^clock_hz: *//p' "$W/d-$name/info")
	want=$(awk -v hz="$hz" '$1 == "overhead-hook" { printf "%.1f ns inner, %.1f ns outer",
		int($3 * 1e12 / hz / $2 + 0.5) / 1000, int($4 * 1e12 / hz / $2 + 0.5) / 1000 }' \
		"$W"/d-$name/*.proc)
	got=$(sed -n 's/^ *overhead: *\([0-9.]* ns inner, [0-9.]* ns outer\) per call.*/\1/p' \
		"$W/info-$name")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		echo "overhead: the overhead-hook figures"
	else
		echo "overhead: '$got', the overhead-hook figures: '$want'"
	fi | add
	ct report "d-$name" --format=csv >"$W/cal-$name.csv"
	ct report "d-$name" --format=csv --raw >"$W/calraw-$name.csv"
	awk -F, 'NR == FNR { if ($1 == "main") raw = $3; next }
		$1 == "main" { c = $3 }
		END {
			if (c != "" && raw != "" && c + 0 < raw + 0) print "main: corrected below recorded"
			else print "main: corrected " c " ns, recorded " raw " ns"
		}' \
		"$W/calraw-$name.csv" "$W/cal-$name.csv" | add
	for bad in overhead-hook overhead; do
		rm -rf "$W/bad" && cp -r "$W/d-$name" "$W/bad" || die "copy"
		for f in "$W"/bad/*.proc; do
			awk -v l="$bad" '$1 == l { $3 = sprintf("%.0f", $2 * 1e9); $4 = sprintf("%.0f", $2 * 2e9) } { print }' \
				"$f" >"$f.new" && mv "$f.new" "$f"
		done
		guard "$CT" report -d "$W/bad" --format=csv >"$W/bad.csv" 2>"$W/bad.err"
		guard "$CT" report -d "$W/bad" --format=csv --raw >"$W/badraw.csv" 2>/dev/null
		if cmp -s "$W/bad.csv" "$W/badraw.csv"; then r="as recorded"; else r="corrected"; fi
		grep -q 'not believable' "$W/bad.err" && r="$r, said so"
		echo "$bad figures made unbelievable: $r" | add
	done
done

# record --count --sample: the patched calls on the counting stack with
# their CFAs (patch.S), and a function without a frame of its own told
# from one that has returned by the link register and its caller's code
# (count.c open_at_pc).  gcc -O2 makes one() and three() of sample.c branch
# to loop() with no frame: their samples were charged to work() when a
# call at its CFA was taken for over; before that the calls were counted
# by call site and record warned.  sample_count checks the rest (a ratio
# of one sample count to another, never a time)
section "--count --sample: frameless functions (gcc -O2, one:three = 1:3 within 35 %)"
aarch64-linux-gnu-gcc -g -O2 -fpatchable-function-entry=2 -I"$E2E" -o "$W/p-sample" \
	"$E2E/sample.c" -lpthread || die "build p-sample"
SAMPLE_ROUNDS=120 record cs --count --sample=4k ./p-sample
want_rc "record --count --sample ./p-sample" $RC 0 "$W/cs.err"
grep -c '^calltrace record: warning' "$W/cs.err" | sed 's/^/warnings: /' | add
ct report cs --format=csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ s[$c["function"]] = $c["samples_self"] }
	END {
		o = s["one"]; t = s["three"]; w = s["work"]
		print "one and three sampled: " (o > 0 && t > 0)
		r = o > 0 ? t / o : 0
		print "three/one within 35 % of 3: " (r >= 1.95 && r <= 4.05)
		print "work (a loop of calls) under a tenth of one: " (w < o / 10)
		printf "one %d, three %d, work %d samples\n", o, t, w >"/dev/stderr"
	}' 2>>"$W/figures" | add
