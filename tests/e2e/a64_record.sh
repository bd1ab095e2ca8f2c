# The aarch64 build's own record (doc/frontends.md, "AArch64"): on this
# x86-64 machine build-aarch64/calltrace is exec'd directly, in a private
# user namespace whose own binfmt_misc runs aarch64 programs with a
# static qemu-aarch64 (a64_binfmt, tests/lib.sh), as it would run on an
# aarch64 machine: its record execs the aarch64 program with the aarch64
# runtime in LD_PRELOAD, and the kernel (binfmt) runs it.  Recorded:
# args_a64.c (-pg, -a, library calls), threads.c (patched entries, 17
# threads), forkexec.c (-finstrument-functions) forking and exec'ing
# target.c (patched entries; that exec goes through binfmt too), with
# --count and with --sample.  record exits 0 and says one line, its
# summary, with nothing lost (no ld.so line: the static qemu has no
# loader to read the traced program's LD_PRELOAD), and the clock is the
# emulated cntvct_el0 (clock: tsc, as on hardware).  Both builds read
# every recording and print the same, byte for byte (stdout, stderr,
# exit status): replay, report (text, CSV), graph, callers, info,
# coverage, export (chrome, folded); the golden file has the trees and
# counts.  Without user namespaces that have their own binfmt_misc, or
# without the static qemu (make deps), the case passes saying so.
# variants: one
A64RT=$(dirname "$CT")/aarch64/libcalltrace.so
A64CT=$TOP/build-aarch64/calltrace
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || [ ! -f "$A64RT" ] || [ ! -f "$A64CT" ]; then
	echo "not run: needs aarch64-linux-gnu-gcc (make deps) and build-aarch64/calltrace and libcalltrace.so (make aarch64, with the arm64 libraries make deps unpacks)" >>"$W/skipped"
	exit 0 # (the golden file is not compared)
fi
_why=$(a64_binfmt_missing)
if [ -n "$_why" ]; then
	echo "not run: the aarch64 build's record needs aarch64 programs run by exec here: $_why" >>"$W/skipped"
	exit 0
fi
# a private copy, beside the aarch64 runtime (where its record looks)
mkdir -p "$W/a64bin" && cp "$A64CT" "$A64RT" "$W/a64bin/" || die "copy of build-aarch64"
A64=$W/a64bin/calltrace
a64_binfmt "$A64" --version >"$W/a64ver" 2>&1
[ $RC = 0 ] || die "the aarch64 calltrace does not run by exec (exit $RC): $(head -c 300 "$W/a64ver")"

aarch64-linux-gnu-gcc -g -O2 -pg -I"$E2E" -o "$W/a_args" "$E2E/args_a64.c" >"$W/build-a_args.log" 2>&1 ||
	die "build of a_args failed: $(head -5 "$W/build-a_args.log")"
aarch64-linux-gnu-gcc -g -O2 -fpatchable-function-entry=2 -I"$E2E" -o "$W/a_threads" "$E2E/threads.c" \
	-lpthread >"$W/build-a_threads.log" 2>&1 ||
	die "build of a_threads failed: $(head -5 "$W/build-a_threads.log")"
aarch64-linux-gnu-gcc -g -O2 -finstrument-functions -I"$E2E" -o "$W/a_forkexec" "$E2E/forkexec.c" \
	>"$W/build-a_forkexec.log" 2>&1 || die "build of a_forkexec failed: $(head -5 "$W/build-a_forkexec.log")"
aarch64-linux-gnu-gcc -g -O2 -fpatchable-function-entry=2 -I"$E2E" -o "$W/a_target" "$E2E/target.c" \
	>"$W/build-a_target.log" 2>&1 || die "build of a_target failed: $(head -5 "$W/build-a_target.log")"

# arecord D ARGS...: the aarch64 build's record -d $W/D ARGS, in the
# namespace; it must exit 0 and print its summary alone on stderr, with
# nothing lost: the golden file gets the program's stdout and the summary
# without its sizes (they follow the clock)
arecord() {
	_d=$1; shift
	a64_binfmt "$A64" record -d "$W/$_d" "$@" </dev/null >"$W/$_d.out" 2>"$W/$_d.err"
	want_rc "record $* (aarch64 build)" $RC 0 "$W/$_d.err"
	[ "$(wc -l <"$W/$_d.err")" = 1 ] ||
		fail "record $* (aarch64 build): stderr is not its summary alone: $(head -c 600 "$W/$_d.err" | tr '\n' '|')"
	grep -q '^calltrace: exit 0: .* Nothing lost\.$' "$W/$_d.err" ||
		fail "record $* (aarch64 build): no summary with exit 0 and nothing lost: $(head -c 300 "$W/$_d.err")"
	echo "record $*: exit $RC" | add
	sed 's/0x[0-9a-f]*/0x.../g' "$W/$_d.out" | add
	sed -e 's/ in [0-9]* bytes, [0-9.]* bytes per event,//' -e "s|$W/||" "$W/$_d.err" | add
}

# same D VIEW ARGS...: VIEW run on $W/D by both builds, the x86-64 one
# here, the aarch64 one exec'd in the namespace; any difference in
# stdout, stderr or exit status fails the case; the golden file gets the
# view's name and its exit status and number of lines
same() {
	_d=$1; shift
	guard "$CT" "$@" -d "$W/$_d" >"$W/x.out" 2>"$W/x.err"
	_xrc=$RC
	a64_binfmt "$A64" "$@" -d "$W/$_d" >"$W/a.out" 2>"$W/a.err"
	_arc=$RC
	if [ $_xrc != $_arc ]; then
		fail "calltrace $* -d $_d: exit $_xrc on x86-64, $_arc on aarch64: $(head -c 300 "$W/a.err")"
	elif ! cmp -s "$W/x.out" "$W/a.out"; then
		fail "calltrace $* -d $_d: the aarch64 build prints otherwise:
$(diff "$W/x.out" "$W/a.out" | head -n 12)"
	elif ! cmp -s "$W/x.err" "$W/a.err"; then
		fail "calltrace $* -d $_d: the aarch64 build's stderr differs:
$(diff "$W/x.err" "$W/a.err" | head -n 6)"
	else
		# (the lines of the merged replay and of info depend on how
		# the threads ran and on the run, those of a sampled
		# recording's views on the samples taken: NOLINES=1)
		case ${NOLINES:-0}:$_xrc:$* in
		*:0:replay | *:0:info | 1:0:*) echo "$*: the same" ;;
		*:0:*) echo "$*: the same, $(wc -l <"$W/x.out") lines" ;;
		*) echo "$*: the same, exit $_xrc: $(sed 's/^calltrace [a-z]*: //' "$W/x.err" | sed "s|$W/||g" | head -n 1)" ;;
		esac | add
	fi
}

views() {
	same "$1" replay
	same "$1" replay --per-thread -f time,delta,elapsed,addr,module,tid --srcline
	same "$1" report
	same "$1" report --format=csv
	same "$1" graph "$2"
	same "$1" callers "$3"
	same "$1" info
	same "$1" coverage
	same "$1" export --format=chrome
	same "$1" export --format=folded
}

section "args_a64, -pg, -a, library calls"
arecord aa --libcall -a ./a_args
views aa outer int_add
section "the clock: the emulated cntvct_el0, as on hardware"
ct info aa | sed -n 's/^\(clock: *[a-z]*\).*/\1/p' | add
section "the tree and arguments (the x86-64 build)"
ct replay aa --no-duration -F '^(int_mix|str_arg|float_add|point_val|outer)$' | normalize | add

section "threads, patched entries"
arecord at ./a_threads
views at t_mid t_leaf
section "the threads' trees (the x86-64 build, blocks sorted)"
ct replay at --no-duration --per-thread | normalize_threads | add

section "forkexec, -finstrument-functions, execs target (patched entries)"
arecord af ./a_forkexec ./a_target
views af target_a target_b
section "the files: the exec'd image is recorded (gen 1)"
(cd "$W/af" && ls | sed -n 's/^[0-9]*-\([0-9]*\)\.proc$/proc gen \1/p; s/^[0-9]*-\([0-9]*\)-[0-9]*\.ev$/ev gen \1/p' | sort) | add
section "the processes' trees (the x86-64 build, blocks sorted)"
ct replay af --no-duration --per-thread | normalize_threads | add

section "--count, threads"
arecord ac --count ./a_threads
same ac replay
same ac report
same ac report --format=csv
same ac graph t_mid
same ac callers t_leaf
same ac coverage
same ac export --format=folded
same ac info
section "the counts (the x86-64 build)"
ct report ac --format=csv | add

section "--sample, forkexec"
arecord as --sample=4k ./a_forkexec ./a_target
NOLINES=1 views as target_a target_b
section "sampled, in every process image (the x86-64 build's info)"
ct info as | sed -n 's/^ *\(sampled: .*\)/\1/p' | add
