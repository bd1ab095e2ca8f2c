# SPDX-License-Identifier: MIT
# Helpers for the end-to-end cases (tests/e2e/*.sh).  Sourced by
# "tests/run.sh --one CASE VARIANT" in a subshell with these set:
#   TOP      repository root          CT    $TOP/build/calltrace
#   E2E      $TOP/tests/e2e           W     this run's work dir (fresh)
#   CASE     the case name            VARIANT  e.g. gcc-O2, clang-O2-ai
#   CC CXX   the compilers            CFLAGS   -g -O? -finstrument-functions ...
#   FAMILY   gcc or clang             UPDATE   1 when regenerating goldens
#   FRONT    instr, pg, fentry or patch (the instrumentation front end)
#   TARGET   aarch64 in the a64-* variants (built by the cross compiler,
#            recorded under qemu-user), else empty
# A case appends what it checks to $W/actual (compared with the golden file
# at the end) and reports other problems with fail (go on) or die (stop).

CT_TIMEOUT=${CT_TIMEOUT:-900}   # a hang guard only, never a timing assertion
# a case that polls for something (sleep 0.1 between looks) gives up after
# this many looks: at least the hang guard, however slow the machine
CT_POLLS=$((CT_TIMEOUT * 10))

# Library calls (doc/libcall.md) are recorded by default; the cases written
# before them check the program's own calls, so the runtime is told not to
# hook them here (record without --libcall/--no-libcall leaves the variable
# as it is).  The libcall* cases ask for them with record --libcall;
# CT_TEST_LIBCALL=1 runs the others with them on (their goldens then differ,
# but a crash or another exit status shows).
CALLTRACE_LIBCALL=${CT_TEST_LIBCALL:-0}
export CALLTRACE_LIBCALL

# what runs a program built for the variant's target untraced (a case's
# reference run): "$EMU" before the program, unquoted (nothing on this
# machine's own, qemu-aarch64 for an a64-* variant's)
EMU=
[ "${TARGET:-}" = aarch64 ] && EMU="${CALLTRACE_QEMU:-qemu-aarch64} -L ${CALLTRACE_QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"

fail() { printf '%s\n' "$*" >>"$W/failures"; }
die() { printf '%s\n' "$*" >>"$W/failures"; exit 1; }

# run CMD... with the hang guard; RC is its exit status
guard() {
	timeout -k 10 "$CT_TIMEOUT" "$@"
	RC=$?
	[ $RC -eq 124 ] && fail "hung (stopped after ${CT_TIMEOUT}s): $*"
	return $RC
}

# build OUT SRC... [-- EXTRA FLAGS]: compile a traced program with $CC
# (C++ sources with $CXX)
build() {
	_out=$1; shift
	_cc=$CC
	case $1 in *.cc) _cc=$CXX ;; esac
	# shellcheck disable=SC2086
	if ! $_cc $CFLAGS -I"$E2E" -o "$W/$_out" "$@" -lpthread -ldl \
		>"$W/build-$_out.log" 2>&1; then
		die "build of $_out failed: $(head -5 "$W/build-$_out.log")"
	fi
}

# build_tool NAME: an untraced helper (tests/e2e/tool_NAME.c)
build_tool() {
	gcc -O2 -o "$W/tool_$1" "$E2E/tool_$1.c" >"$W/build-tool_$1.log" 2>&1 ||
		die "build of tool_$1 failed: $(head -5 "$W/build-tool_$1.log")"
}

# record D CMD ARGS...: calltrace record -d $W/D CMD ARGS; stdout in $W/D.out,
# stderr in $W/D.err; stdin from $STDIN (default /dev/null); RC is its status
record() {
	_d=$1; shift
	guard "$CT" record -d "$W/$_d" "$@" <"${STDIN:-/dev/null}" >"$W/$_d.out" 2>"$W/$_d.err"
}

# record_rounds D ROUNDS PROG: record -d $W/D --count --sample=4k PROG
# ROUNDS, wanted to exit 0; where the samples come from POSIX timers at the
# kernel's tick (perf events refused), 20 times the rounds for as many
# samples.  $rounds: the rounds the recording ran
record_rounds() {
	rounds=$2
	record "$1" --count --sample=4k "$3" "$rounds"
	want_rc "record --count --sample=4k $3" $RC 0 "$W/$1.err"
	if grep -q '^sample .* timer$' "$W/$1"/*.proc; then
		rounds=$(($2 * 20))
		record "$1" --count --sample=4k "$3" "$rounds"
		want_rc "record --count --sample=4k $3" $RC 0 "$W/$1.err"
	fi
}

# want_rc WHAT GOT EXPECTED [FILE with stderr to quote]
want_rc() {
	if [ "$2" != "$3" ]; then
		_m="$1: exit status $2, expected $3"
		[ -n "${4:-}" ] && [ -s "$4" ] && _m="$_m; stderr: $(head -c 600 "$4" | tr '\n' '|')"
		fail "$_m"
		return 1
	fi
	return 0
}

# ct SUBCOMMAND D ARGS...: run an analysis subcommand on $W/D; its stdout
# goes to stdout, stderr to $W/last.err; fails the case unless it exits 0
ct() {
	_sub=$1 _d=$2; shift 2
	guard "$CT" "$_sub" -d "$W/$_d" "$@" 2>"$W/last.err"
	_rc=$RC
	if [ $_rc -ne 0 ]; then
		fail "calltrace $_sub -d $_d $*: exit status $_rc; stderr: $(head -c 600 "$W/last.err" | tr '\n' '|')"
	fi
	return $_rc
}

# ct_empty SUBCOMMAND D ARGS...: as ct, for a -r range with no call in it:
# the view must exit 1 and say so (its stdout goes to stdout, its stderr
# to $W/last.err); fails the case otherwise
ct_empty() {
	_sub=$1 _d=$2; shift 2
	guard "$CT" "$_sub" -d "$W/$_d" "$@" 2>"$W/last.err"
	if [ $RC -ne 1 ] || ! grep -q 'no call in the range' "$W/last.err"; then
		fail "calltrace $_sub -d $_d $*: exit status $RC, expected 1 and 'no call in the range'; stderr: $(head -c 600 "$W/last.err" | tr '\n' '|')"
	fi
	return 0
}

# section TITLE: start a section of $W/actual
section() { printf '== %s\n' "$*" >>"$W/actual"; }
# add: append stdin to $W/actual
add() { cat >>"$W/actual"; }

# normalize: replay output -> stable text.  Thread and process ids become
# T1, T2, ... in order of first appearance; leading and trailing blanks go.
normalize() {
	awk '
	function id(x) {
		if (!(x in map)) map[x] = "T" (++n)
		return map[x]
	}
	# a wait for the trace writer depends on how the drainer was scheduled
	# (the waits case checks them): not part of a golden file
	/\/\* waited .* for the trace writer \*\// { next }
	{
		line = $0; out = ""
		while (match(line, /\[ *[0-9]+\]/)) {
			x = substr(line, RSTART + 1, RLENGTH - 2); gsub(/ /, "", x)
			out = out substr(line, 1, RSTART - 1) "[" id(x) "]"
			line = substr(line, RSTART + RLENGTH)
		}
		line = out line
		if (line ~ /^# *thread [0-9]+/) {
			out = ""
			while (match(line, /(thread|process|pid|tid) [0-9]+/)) {
				w = substr(line, RSTART, RLENGTH); sp = index(w, " ")
				out = out substr(line, 1, RSTART - 1) substr(w, 1, sp) id(substr(w, sp + 1))
				line = substr(line, RSTART + RLENGTH)
			}
			line = out line
		}
		sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
		print line
	}'
}

# normalize_threads: "replay --per-thread" output -> one block per thread,
# blocks sorted, so that the result does not depend on the order in which
# threads and processes were created.  In each block the thread's id is
# replaced by T, its process id by P; the header says "main" when the thread
# is its process's main thread (tid = pid).
normalize_threads() {
	awk '
	function flush() { if (blk != "") print "1 000000 " blk "\001"; blk = "" }
	/^# *thread [0-9]+/ {
		flush()
		tid = $0; sub(/^# *thread /, "", tid); sub(/[^0-9].*/, "", tid)
		pid = ""
		if (match($0, /process [0-9]+/)) pid = substr($0, RSTART + 8, RLENGTH - 8)
		blk = (tid == pid) ? "# thread main" : "# thread other"
		next
	}
	{
		line = $0
		gsub("\\[ *" tid "\\]", "[T]", line)
		if (pid != "") gsub("\\[ *" pid "\\]", "[P]", line)
		sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
		if (line == "") next
		if (blk == "") printf "0 %06d %s\n", NR, line
		else blk = blk "\001" line
	}
	END { flush() }' | LC_ALL=C sort | cut -d" " -f3- | tr '\001' '\n'
}

# long_only SHORT [SCOPE]: a replay tree (before normalize) without the
# calls of the functions whose names match the ERE SHORT, and what they
# called; with SCOPE (an ERE), only those inside a call of a function that
# matches it.  For the time filters (-t, time=): a call the program makes
# short is left out, but a busy machine may keep it (it waited for a CPU
# longer than the threshold, so it was long).  short_kept checks that such
# a call was long indeed.
long_only() {
	awk -v short="$1" -v scope="${2:-}" '
	# the thread ("[ TID]" or a normalized "[T1]"), the depth (the blanks
	# after "| "), the text, its function name, whether it opens a call
	function parse(line) {
		if (!match(line, /^\[[^]]*\] \| /))
			return 0
		key = substr(line, 1, RLENGTH - 3)
		rest = substr(line, RLENGTH + 1)
		match(rest, /^ */)
		depth = RLENGTH
		text = substr(rest, RLENGTH + 1)
		name = text
		sub(/\(.*/, "", name)
		closing = text ~ /^}/
		opening = !closing && text ~ /\{( \/\*.*\*\/)?$/
		return 1
	}
	# a line out; a call whose callees were all left out is written as
	# replay writes a call without callees: "f() {" "}" -> "f();", and
	# "f() { /* A */" "} /* f: B */" -> "f(); /* A, B */"
	function out(line, k, d, isclose, isopen,   a, b, c) {
		if (held != "") {
			if (isclose && k == hkey && d == hdepth) {
				a = b = ""
				if (match(held, / \/\* .* \*\/$/))
					a = substr(held, RSTART + 4, RLENGTH - 7)
				sub(/ \{( \/\*.*\*\/)?$/, ";", held)
				if (match(text, /^} \/\* .*: .* \*\/$/)) {
					b = substr(text, RSTART + 5, RLENGTH - 8)
					sub(/^[^:]*: /, "", b)
				}
				c = a != "" && b != "" ? a ", " b : a b
				print c != "" ? held " /* " c " */" : held
				held = ""
				return
			}
			print held
			held = ""
		}
		if (isopen) {
			held = line; hkey = k; hdepth = d
			return
		}
		print line
	}
	!parse($0) { out($0, "", -1, 0, 0); next }
	key in drop {
		if (depth > drop[key])
			next
		delete drop[key]
		if (closing)
			next
	}
	key in inscope && depth <= inscope[key] { delete inscope[key] }
	!closing && name ~ short && (scope == "" || key in inscope) {
		if (opening)
			drop[key] = depth
		next
	}
	opening && scope != "" && name ~ scope && !(key in inscope) { inscope[key] = depth }
	{ out($0, key, depth, closing, opening) }
	END { if (held != "") print held }'
}

# short_kept D TIME SHORT [SCOPE]: fail unless every call of the functions
# matching SHORT (inside calls of SCOPE, with SCOPE) that recording D holds
# lasted TIME or more as recorded (report --raw's least time, TIME in ns;
# 1 us spare for the clock ticks' rounding to ns)
short_kept() {
	if [ -n "${4:-}" ]; then
		ct report "$1" --raw --format=csv -F "$4" >"$W/short_kept.csv" || return
	else
		ct report "$1" --raw --format=csv >"$W/short_kept.csv" || return
	fi
	# function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns
	awk -F, -v short="$3" -v t="$2" -v d="$1" 'NR > 1 {
		name = $1
		sub(/\(.*/, "", name)
		if (name ~ short && $6 < t - 1000)
			printf "%s: %s kept, %d calls, the shortest %s ns (under %s ns)\n", d, $1, $2, $6, t
	}' "$W/short_kept.csv" >"$W/short_kept.bad"
	if [ -s "$W/short_kept.bad" ]; then
		fail "$(cat "$W/short_kept.bad")"
	fi
}

# csv_calls: "report --format=csv" -> "function,calls" lines, sorted; the
# timing columns are dropped.  The header is checked.
csv_calls() {
	awk -v W="$W" 'NR == 1 {
		if ($0 != "function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns")
			print "bad CSV header: " $0 >> (W "/failures")
		next
	}
	{ sub(/,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*$/, ""); print }' | LC_ALL=C sort
}

# calls_of FUNC FILE: the calls column of FUNC in report CSV output FILE
calls_of() {
	awk -F, -v f="$1" '$1 == f { print $2; found = 1 } END { if (!found) print "none" }' "$2"
}

# golden: compare $W/actual with the golden file (tests/e2e/CASE.expected,
# or tests/e2e/CASE.FAMILY.expected where a compiler's behaviour legitimately
# differs, or for the return-hooking front ends CASE.ret.expected or
# CASE.FRONT.expected); with UPDATE=1 write it instead
golden() {
	_g="$E2E/$CASE.expected"
	[ -f "$E2E/$CASE.$FAMILY.expected" ] && _g="$E2E/$CASE.$FAMILY.expected"
	# another architecture's own (TARGET: aarch64 under qemu-user)
	[ -n "${TARGET:-}" ] && [ -f "$E2E/$CASE.$TARGET.expected" ] && _g="$E2E/$CASE.$TARGET.expected"
	if [ "${FRONT:-instr}" != instr ]; then
		[ -f "$E2E/$CASE.ret.expected" ] && _g="$E2E/$CASE.ret.expected"
		[ -f "$E2E/$CASE.$FRONT.expected" ] && _g="$E2E/$CASE.$FRONT.expected"
		# ... and that architecture's, of that front end (aarch64-pg)
		[ -n "${TARGET:-}" ] && [ -f "$E2E/$CASE.$TARGET-$FRONT.expected" ] &&
			_g="$E2E/$CASE.$TARGET-$FRONT.expected"
	fi
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$W/actual" "$_g"
		return 0
	fi
	if [ ! -f "$_g" ]; then
		fail "no golden file ${_g#$TOP/} (run: sh tests/run.sh --update $CASE)"
		return 1
	fi
	if ! diff -u "$_g" "$W/actual" >"$W/golden.diff"; then
		fail "output differs from ${_g#$TOP/}:
$(head -n 40 "$W/golden.diff")"
		return 1
	fi
}

# aarch64 programs exec'd by this machine's kernel (the a64_record case,
# doc/testing.md): a private user and mount namespace with its own
# binfmt_misc (Linux 6.7 and later give each user namespace one), where
# a static qemu-aarch64 is the handler of aarch64 ELF programs.  Nothing
# outside the namespace sees the registration.  The static qemu has no
# x86-64 loader of its own to read the traced program's LD_PRELOAD (the
# dynamically linked qemu-aarch64's ld.so would complain of the aarch64
# runtime in it); make deps unpacks it from Debian's qemu-user-static
A64_QEMU_STATIC=${CALLTRACE_QEMU_STATIC:-${CALLTRACE_QEMU_STATIC_ROOT:-/opt/calltrace-qemu}/usr/bin/qemu-aarch64-static}
# (F: the kernel opens the handler at registration; P: argv[0] is kept)
A64_BINFMT=':qemu-aarch64:M::\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'

# (the namespace's set-up, then CMD: sh -c "$A64_BINFMT_SH" a64_binfmt
# "$A64_BINFMT" QEMU CMD ARGS...; exit 125 when it cannot be set up)
A64_BINFMT_SH='
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
		{ echo "a64_binfmt: cannot mount binfmt_misc in a user namespace" >&2; exit 125; }
	printf "%s:%s:FP" "$1" "$2" >/proc/sys/fs/binfmt_misc/register ||
		{ echo "a64_binfmt: cannot register $2 in the namespace" >&2; exit 125; }
	shift 2
	exec "$@"'

# a64_binfmt CMD ARGS...: run CMD (a program, an aarch64 one too) with the
# hang guard in such a namespace, with QEMU_LD_PREFIX the aarch64 library
# root; RC is its exit status, 125 when the namespace could not be set
# up (said on stderr).  The aarch64 calltrace finds Debian's arm64 libdw
# by its run path under that prefix, as under qemu-aarch64 -L (a64_views).
# (tests/run.sh runs a whole aarch64 variant so for "# aarch64: ... binfmt")
a64_binfmt() {
	QEMU_LD_PREFIX=${CALLTRACE_QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu} \
		guard unshare -Urm sh -c "$A64_BINFMT_SH" a64_binfmt "$A64_BINFMT" "$A64_QEMU_STATIC" "$@"
}

# a64_binfmt_missing: why a64_binfmt cannot run here, or nothing (a case
# then says so in $W/skipped and passes)
a64_binfmt_missing() {
	if [ ! -x "$A64_QEMU_STATIC" ]; then
		echo "no $A64_QEMU_STATIC (make deps)"
	elif ! command -v unshare >/dev/null 2>&1; then
		echo "no unshare (util-linux)"
	elif ! _e=$(unshare -Urm true 2>&1); then
		echo "no user namespaces here (unshare -Urm: $(printf '%s' "$_e" | head -n 1))"
	elif ! _e=$(a64_binfmt cat /proc/sys/fs/binfmt_misc/qemu-aarch64 2>&1) ||
		[ "$(printf '%s\n' "$_e" | head -n 1)" != enabled ]; then
		echo "no binfmt_misc of its own in a user namespace (Linux 6.7 and later): $(printf '%s' "$_e" | head -n 1)"
	fi
}
