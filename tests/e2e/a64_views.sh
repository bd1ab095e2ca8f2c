# Recordings are portable (doc/frontends.md, "AArch64"): the aarch64
# build of calltrace (make aarch64-cli, build-aarch64/calltrace), run
# under qemu-aarch64, prints what the x86-64 build prints, byte for byte
# (stdout, stderr, exit status), on (a) recordings made here of x86-64
# programs (args_a64.c with -pg -mfentry, -a and library calls, clock
# tsc: a rate in fractions of a hertz; threads.c's 17 threads) and (b)
# recordings of aarch64 programs made by the x86-64 record under qemu
# (args_a64.c with -pg, -a and library calls; threads.c with patched
# entries): replay (durations too), report (text and CSV), graph,
# callers, info, coverage and export --format=chrome and folded (and
# report's JSON, export's perfetto, callgrind, dot, mermaid, html).  Nothing
# is normalised: both builds read the same directory.  The aarch64
# build's record refuses an x86-64 program in one line (exit 2); its
# record of aarch64 programs is a64_record's.
# variants: one
A64RT=$(dirname "$CT")/aarch64/libcalltrace.so
A64CT=$TOP/build-aarch64/calltrace
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
	! command -v "${CALLTRACE_QEMU:-qemu-aarch64}" >/dev/null 2>&1 || [ ! -f "$A64RT" ]; then
	echo "not run: needs aarch64-linux-gnu-gcc, qemu-aarch64 (make deps) and build-aarch64/libcalltrace.so (make aarch64)" >>"$W/skipped"
	exit 0 # (the golden file is not compared)
fi
if [ ! -f "$A64CT" ]; then
	echo "not run: needs build-aarch64/calltrace (make aarch64-cli, with the arm64 libraries make deps unpacks)" >>"$W/skipped"
	exit 0
fi
EMU="${CALLTRACE_QEMU:-qemu-aarch64} -L ${CALLTRACE_QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
# a private copy, beside the aarch64 runtime (where its record looks)
mkdir -p "$W/a64bin" && cp "$A64CT" "$A64RT" "$W/a64bin/" || die "copy of build-aarch64"
$EMU "$W/a64bin/calltrace" --version >"$W/a64ver" 2>&1 || die "the aarch64 calltrace does not run: $(head -c 300 "$W/a64ver")"

# same D CMD ARGS...: CMD run on $W/D by both builds; any difference in
# stdout, stderr or exit status fails the case.  The golden file gets
# the view's name and its number of lines
same() {
	_d=$1; shift
	guard "$CT" "$@" -d "$W/$_d" >"$W/x.out" 2>"$W/x.err"
	_xrc=$RC
	guard $EMU "$W/a64bin/calltrace" "$@" -d "$W/$_d" >"$W/a.out" 2>"$W/a.err"
	_arc=$RC
	[ $_xrc = 0 ] || fail "calltrace $* -d $_d (x86-64): exit $_xrc: $(head -c 300 "$W/x.err")"
	if [ $_xrc != $_arc ]; then
		fail "calltrace $* -d $_d: exit $_xrc on x86-64, $_arc on aarch64: $(head -c 300 "$W/a.err")"
	elif ! cmp -s "$W/x.out" "$W/a.out"; then
		fail "calltrace $* -d $_d: the aarch64 build prints otherwise:
$(diff "$W/x.out" "$W/a.out" | head -n 12)"
	elif ! cmp -s "$W/x.err" "$W/a.err"; then
		fail "calltrace $* -d $_d: the aarch64 build's stderr differs:
$(diff "$W/x.err" "$W/a.err" | head -n 6)"
	else
		# (the merged replay's lines depend on how the threads ran,
		# info's on the run, html's on the libraries embedded,
		# perfetto's is binary: only the others' are counted)
		case $* in
		replay | info | *=html | *=perfetto) echo "$*: the same" ;;
		*) echo "$*: the same, $(wc -l <"$W/x.out") lines" ;;
		esac
	fi >>"$W/actual"
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
	# (the other formats and report's JSON: the same code over the same
	# figures, cheap to check too)
	same "$1" report --format=json
	for _f in perfetto callgrind dot mermaid html; do
		same "$1" export --format=$_f
	done
}

gcc -g -O0 -pg -mfentry -I"$E2E" -o "$W/x_args" "$E2E/args_a64.c" >"$W/build-x_args.log" 2>&1 ||
	die "build of x_args failed: $(head -5 "$W/build-x_args.log")"
gcc -g -O2 -finstrument-functions -I"$E2E" -o "$W/x_threads" "$E2E/threads.c" -lpthread \
	>"$W/build-x_threads.log" 2>&1 || die "build of x_threads failed: $(head -5 "$W/build-x_threads.log")"
aarch64-linux-gnu-gcc -g -O2 -pg -I"$E2E" -o "$W/a_args" "$E2E/args_a64.c" >"$W/build-a_args.log" 2>&1 ||
	die "build of a_args failed: $(head -5 "$W/build-a_args.log")"
aarch64-linux-gnu-gcc -g -O2 -fpatchable-function-entry=2 -I"$E2E" -o "$W/a_threads" "$E2E/threads.c" \
	-lpthread >"$W/build-a_threads.log" 2>&1 ||
	die "build of a_threads failed: $(head -5 "$W/build-a_threads.log")"

section "(a) x86-64 args_a64, -pg -mfentry, -a, library calls, recorded here"
record xa --clock=tsc --libcall -a ./x_args
want_rc "record ./x_args" $RC 0 "$W/xa.err"
grep -q '^clock: tsc' "$W/xa/info" || fail "record --clock=tsc: $(grep '^clock' "$W/xa/info")"
views xa outer int_add
section "(a) x86-64 threads, recorded here"
record xt ./x_threads
want_rc "record ./x_threads" $RC 0 "$W/xt.err"
views xt t_mid t_leaf

section "(b) aarch64 args_a64, -pg, -a, library calls, recorded under qemu-aarch64"
record aa --libcall -a ./a_args
want_rc "record ./a_args" $RC 0 "$W/aa.err"
views aa outer int_add
section "(b) aarch64 threads, patched entries, recorded under qemu-aarch64"
record at ./a_threads
want_rc "record ./a_threads" $RC 0 "$W/at.err"
views at t_mid t_leaf
section "(b) the arguments the aarch64 build shows"
$EMU "$W/a64bin/calltrace" replay -d "$W/aa" --no-duration -F '^(int_mix|str_arg|float_add|point_val|outer)$' |
	normalize | add

section "record by the aarch64 build: an x86-64 program, exit 2"
guard $EMU "$W/a64bin/calltrace" record -d "$W/ax" ./x_args >"$W/ax.out" 2>"$W/ax.err"
echo "record ./x_args: exit $RC" | add
add <"$W/ax.err"
[ -d "$W/ax" ] && fail "record ./x_args (aarch64 build) made its data directory"
# (an aarch64 program: its record execs it, which qemu-user hands to this
# machine's kernel; a64_record runs the aarch64 build by exec where a
# private binfmt_misc runs aarch64 programs, and checks that)
