#!/bin/sh
# SPDX-License-Identifier: MIT
# calltrace test runner: unit tests, then end-to-end cases.
#
#   sh tests/run.sh [-j N] [--update] [--keep] [PATTERN...]
#
# Run from anywhere after "make all unit".  Prints one line per test
# ("ok   NAME" or "FAIL NAME" followed by the reason) and ends with
# "N passed, N failed"; exits 1 if anything failed.  PATTERN selects tests
# by name with shell globbing (e.g. "basic", "basic/clang-*", "unit/*").
# --update regenerates the golden files of the selected cases from the
# reference variant (gcc-O0), then runs them.  See doc/testing.md.
# (Internal: "--one CASE VARIANT" runs one case in one variant.)

TOP=$(cd "$(dirname "$0")/.." && pwd)
E2E=$TOP/tests/e2e
# the tools under test (in "--one" mode: the copy the run made, see below)
# the build under test: build/, or $CT_BUILD (make coverage uses build-cov)
BUILD=${CT_BUILD:-build}
[ "${1:-}" = --one ] || CT=$TOP/$BUILD/calltrace
export TOP E2E CT

# how each kind of case is built: NAME:CC:CXX:FLAGS (variants: c and cxx)
C_VARIANTS="gcc-O0 gcc-O2 clang-O0 clang-O2 clang-O2-ai"
REF_VARIANT=gcc-O0
# the return-hooking front ends (doc/frontends.md): cases that say
# "# front-ends: all" run in these too
HOOK_VARIANTS="gcc-pg-O0 gcc-fentry-O2 clang-fentry-O0 clang-pg-O2 gcc-patch-O2 clang-patch-O0"
# "# front-ends: few": one variant per front end, both compilers
HOOK_FEW="gcc-fentry-O2 clang-pg-O2 clang-patch-O0"
# aarch64 under qemu-user (doc/testing.md): cases that say "# aarch64:
# check" run in A64_FEW in every run and in all of A64_VARIANTS with
# CT_AARCH64=1 (make check-aarch64), "# aarch64: yes" only then; "# variants:
# one" cases in the first only.  clang builds for aarch64 with Debian's
# cross gcc's libraries and binutils (--target finds them, no --sysroot)
A64_VARIANTS="a64-gcc-O0 a64-gcc-O2 a64-clang-O0 a64-clang-O2"
A64_FEW="a64-gcc-O0 a64-clang-O2"
# ... and with aarch64's hooked front end (-pg) when the case also says
# "# front-ends:" (all, few or only): both with CT_AARCH64=1, the -O2 one
# alone for the "check" cases in every run (qemu is slow)
A64_HOOK_VARIANTS="a64-gcc-pg-O0 a64-gcc-pg-O2"
A64_HOOK_CHECK="a64-gcc-pg-O2"
# aarch64's patched entries (-fpatchable-function-entry=2): cases whose
# "# aarch64:" line also says "patch" run in these with CT_AARCH64=1 (the
# first only for "# variants: one"); never in every run (qemu is slow:
# make check has a64_patchable for them).  A "# aarch64:" line that says
# "binfmt" too runs each aarch64 variant whole in a64_binfmt's namespace
# (tests/lib.sh), where the kernel execs aarch64 programs
A64_PATCH_VARIANTS="a64-gcc-patch-O2 a64-gcc-patch-O0 a64-clang-patch-O0 a64-clang-patch-O2"

variant_flags() {
	case $1 in
	gcc-*) CC=gcc CXX=g++ FAMILY=gcc ;;
	clang-*) CC=clang CXX=clang++ FAMILY=clang ;;
	esac
	FRONT=instr
	TARGET=
	case $1 in
	a64-gcc-*) CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ FAMILY=gcc TARGET=aarch64 ;;
	a64-clang-*)
		CC="clang --target=aarch64-linux-gnu" CXX="clang++ --target=aarch64-linux-gnu"
		FAMILY=clang TARGET=aarch64
		;;
	esac
	case $1 in
	a64-*-patch-O?) FRONT=patch CFLAGS="-g -${1##*-} -fpatchable-function-entry=2" ;;
	*-pg-O?) FRONT=pg CFLAGS="-g -${1##*-} -pg" ;;
	*-fentry-O?) FRONT=fentry CFLAGS="-g -${1##*-} -pg -mfentry" ;;
	*-patch-O?) FRONT=patch CFLAGS="-g -${1##*-} -fpatchable-function-entry=5" ;;
	*-O0 | *-O0-asan) CFLAGS="-g -O0 -finstrument-functions" ;;
	*-O2) CFLAGS="-g -O2 -finstrument-functions" ;;
	*-O2-ai) CFLAGS="-g -O2 -finstrument-functions-after-inlining" ;;
	esac
	export CC CXX FAMILY CFLAGS FRONT TARGET
}

# why the aarch64 variants cannot run here, or nothing
a64_missing() {
	for _t in aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ "${CALLTRACE_QEMU:-qemu-aarch64}" \
		$([ "${1:-}" = clang ] && echo clang clang++); do
		command -v "$_t" >/dev/null 2>&1 || { echo "no $_t (make deps)"; return; }
	done
	[ -f "$RUNDIR/bin/aarch64/libcalltrace.so" ] ||
		echo "no build-aarch64/libcalltrace.so (make aarch64)"
}

# the variants a case runs in, from its "# variants:" line
case_variants() {
	_v=$(sed -n 's/^# variants: *//p' "$E2E/$1.sh" | head -n 1)
	_f=$(sed -n 's/^# front-ends: *//p' "$E2E/$1.sh" | head -n 1)
	_a=$(sed -n 's/^# aarch64: *//p' "$E2E/$1.sh" | head -n 1)
	_ap=
	case " $_a " in *" patch "*) _ap=$A64_PATCH_VARIANTS ;; esac
	_a=${_a%% *}
	_a64=$A64_VARIANTS
	case $_a in
	check) [ "${CT_AARCH64:-0}" = 1 ] || _a64=$A64_FEW _ap= ;;
	yes) [ "${CT_AARCH64:-0}" = 1 ] || _a= ;;
	*) _a= ;;
	esac
	[ -n "$_a" ] || _ap=
	_ah=
	if [ -n "$_a" ] && [ -n "$_f" ]; then
		_ah=" $A64_HOOK_CHECK"
		[ "${CT_AARCH64:-0}" = 1 ] && _ah=" $A64_HOOK_VARIANTS"
	fi
	case $_f in
	only) echo "$HOOK_VARIANTS$_ah${_ap:+ $_ap}"; return ;;
	all) _h=" $HOOK_VARIANTS" ;;
	few) _h=" $HOOK_FEW" ;;
	*) _h= ;;
	esac
	case $_v in
	one | "") echo "$REF_VARIANT$_h${_a:+ ${A64_VARIANTS%% *}}$_ah${_ap:+ ${_ap%% *}}" ;;
	all | *) echo "$C_VARIANTS$_h${_a:+ $_a64}$_ah${_ap:+ $_ap}" ;;
	esac
}

# ---- one case in one variant (run in its own process) -------------------
if [ "${1:-}" = --one ]; then
	CASE=$2 VARIANT=$3
	[ -n "${RUNDIR:-}" ] || { echo "run.sh --one: RUNDIR is not set" >&2; exit 2; }
	variant_flags "$VARIANT"
	# the -asan variant runs the ASan/UBSan build of the analysis side
	case $VARIANT in *-asan) CT=$RUNDIR/asan/calltrace; export CT ;; esac
	W=$RUNDIR/$CASE.$VARIANT
	rm -rf "$W" && mkdir -p "$W" || exit 1
	: >"$W/failures"
	: >"$W/actual"
	(
		cd "$W" || exit 1
		ulimit -c 0 2>/dev/null
		# a runaway output (a view of a broken trace) stops at 2-4 GiB
		# rather than filling the disk
		ulimit -f 4194304 2>/dev/null
		. "$TOP/tests/lib.sh"
		[ -x "$CT" ] || die "$CT not built (make all unit)"
		[ -f "$(dirname "$CT")/libcalltrace.so" ] || die "build/libcalltrace.so not built (make all)"
		_why=
		[ -n "$TARGET" ] && _why=$(a64_missing "$FAMILY")
		if [ -n "$_why" ]; then
			echo "$VARIANT not run: $_why" >>"$W/skipped"
		elif [ -n "$TARGET" ] && sed -n 's/^# aarch64: *//p' "$E2E/$CASE.sh" | head -n 1 | grep -qw binfmt; then
			# its aarch64 programs exec aarch64 programs (or a shell
			# does): the whole variant in a64_binfmt's namespace,
			# where the kernel runs them (doc/testing.md)
			_why=$(a64_binfmt_missing)
			if [ -n "$_why" ]; then
				echo "$VARIANT not run: an exec of an aarch64 program needs binfmt_misc: $_why" >>"$W/skipped"
			else
				W=$W CASE=$CASE VARIANT=$VARIANT \
				QEMU_LD_PREFIX=${CALLTRACE_QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu} \
					unshare -Urm sh -c "$A64_BINFMT_SH" a64_binfmt "$A64_BINFMT" "$A64_QEMU_STATIC" \
					sh -c '. "$TOP/tests/lib.sh"; . "$E2E/$CASE.sh"; golden'
			fi
		else
			. "$E2E/$CASE.sh"
			golden
		fi
	) </dev/null >"$W/case.log" 2>&1
	st=$?
	# a case that stopped before its golden file was compared (a shell
	# syntax error, say, which ends the sourced script silently) fails
	if [ $st -ne 0 ] && [ ! -s "$W/failures" ]; then
		printf 'the case stopped (exit %s) before its end: %s\n' "$st" \
			"$(tail -n 3 "$W/case.log" | tr '\n' '|')" >>"$W/failures"
	fi
	name="$CASE/$VARIANT"
	if [ -s "$W/failures" ]; then
		{
			printf 'FAIL %s\n' "$name"
			head -n 60 "$W/failures" | sed 's/^/     /'
			printf '     (work dir: %s)\n' "${W#$TOP/}"
			# keep failing cases' files, but not traces of hundreds of MB
			if [ "${CT_KEEP:-0}" != 1 ] &&
			   [ -n "$(find "$W" -name '*.ev' -size +50M 2>/dev/null)" ]; then
				find "$W" -name '*.ev' -size +50M -delete
				printf '     (.ev files over 50 MB removed: rerun with --keep to have them)\n'
			fi
		} >"$W/result"
		echo fail >"$W/status"
	else
		printf 'ok   %s\n' "$name" >"$W/result"
		# what a case could not check here (not root, ...), said so
		[ -s "$W/skipped" ] && sed 's/^/     /' "$W/skipped" >>"$W/result"
		echo ok >"$W/status"
		# recordings can be big (signal: 100-300 MB): drop them now
		[ "${CT_KEEP:-0}" = 1 ] || find "$W" -mindepth 1 ! -name result ! -name status -delete 2>/dev/null
	fi
	cat "$W/result"
	exit 0
fi

# ---- the whole run --------------------------------------------------------
JOBS=${CT_JOBS:-2}
UPDATE=0
KEEP=0
PATTERNS=
while [ $# -gt 0 ]; do
	case $1 in
	-j) JOBS=$2; shift ;;
	-j*) JOBS=${1#-j} ;;
	--update) UPDATE=1 ;;
	--keep) KEEP=1; CT_KEEP=1; export CT_KEEP ;;
	-h | --help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) PATTERNS="$PATTERNS $1" ;;
	esac
	shift
done

selected() {
	[ -z "$PATTERNS" ] && return 0
	# (the patterns are split at blanks but never matched against the
	# files here: 'plugin*' must not become the directory plugins/)
	set -f
	for _p in $PATTERNS; do
		# "basic" selects basic/*; "basic/gcc-O0" one variant
		case $1 in $_p | $_p/*) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

mkdir -p "$TOP/tests/work"
RUNDIR=$(mktemp -d "$TOP/tests/work/run.XXXXXX") || exit 1
export RUNDIR
PASS=0
FAIL=0

# Test a private copy of the tools, so that a rebuild in the same tree
# during the run (other people at work) cannot pull them from under a case.
# record finds libcalltrace.so next to itself.
mkdir -p "$RUNDIR/bin"
for _try in 1 2 3 4 5 6 7 8 9 10; do
	if cp "$TOP/$BUILD/calltrace" "$TOP/$BUILD/libcalltrace.so" "$RUNDIR/bin/" 2>/dev/null &&
	   "$RUNDIR/bin/calltrace" --version >/dev/null 2>&1; then
		CT=$RUNDIR/bin/calltrace
		break
	fi
	sleep 1
done
export CT
# the reading library (tests/e2e/reader.sh), when built
cp "$TOP/$BUILD/libcalltrace-reader.so.0" "$RUNDIR/bin/" 2>/dev/null
# record --inject's throw= (tests/e2e/inject_throw.sh): beside the runtime
cp "$TOP/$BUILD/libcalltrace-throw.so" "$RUNDIR/bin/" 2>/dev/null
# the aarch64 runtime (make aarch64), where record looks for it
[ -f "$TOP/build-aarch64/libcalltrace.so" ] && mkdir -p "$RUNDIR/bin/aarch64" &&
	cp "$TOP/build-aarch64/libcalltrace.so" "$RUNDIR/bin/aarch64/"
cp "$TOP/build-aarch64/libcalltrace-throw.so" "$RUNDIR/bin/aarch64/" 2>/dev/null

# symbol tables cached for this run only
XDG_CACHE_HOME=$RUNDIR/cache
export XDG_CACHE_HOME

# the ASan/UBSan build (make asan), when there is one
ASAN=0
if [ -x "$TOP/build-asan/calltrace" ]; then
	mkdir -p "$RUNDIR/asan"
	cp "$TOP/build-asan/calltrace" "$TOP/build/libcalltrace.so" "$RUNDIR/asan/" && ASAN=1
fi
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# unit tests: each binary is one test; it prints "N passed, N failed"
for b in "$TOP/$BUILD"/tests/test_* "$TOP"/build-asan/tests/test_*; do
	[ -x "$b" ] || continue
	case $b in */build-asan/*) name=unit-asan/${b##*/} ;; *) name=unit/${b##*/} ;; esac
	selected "$name" || continue
	out=$RUNDIR/${b##*/}.log
	timeout -k 10 900 "$b" >"$out" 2>&1
	rc=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	nfail=$(echo "$line" | sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p')
	if [ $rc -eq 0 ] && [ "$nfail" = 0 ]; then
		echo "ok   $name"
		PASS=$((PASS + 1))
	else
		echo "FAIL $name (exit status $rc${line:+, $line})"
		grep -iE 'fail|assert|error' "$out" | head -n 20 | sed 's/^/     /'
		FAIL=$((FAIL + 1))
	fi
done

# end-to-end cases
: >"$RUNDIR/jobs"
for f in "$E2E"/*.sh; do
	[ -f "$f" ] || continue
	c=$(basename "$f" .sh)
	for v in $(case_variants "$c"); do
		selected "$c/$v" && echo "$c $v" >>"$RUNDIR/jobs"
	done
	# bad input also against the sanitizer build
	[ $ASAN = 1 ] && [ "$c" = badinput ] && selected "$c/$REF_VARIANT-asan" &&
		echo "$c $REF_VARIANT-asan" >>"$RUNDIR/jobs"
done

if [ $UPDATE = 1 ]; then
	# regenerate goldens from the reference variant, then check all
	awk -v r="$REF_VARIANT" '$2 == r' "$RUNDIR/jobs" >"$RUNDIR/refjobs"
	echo "# updating golden files from $REF_VARIANT"
	UPDATE=1 xargs -r -P "$JOBS" -n 2 sh "$TOP/tests/run.sh" --one <"$RUNDIR/refjobs" |
		sed 's/^/# update: /'
	echo "# checking"
fi
UPDATE=0 xargs -r -P "$JOBS" -n 2 sh "$TOP/tests/run.sh" --one <"$RUNDIR/jobs"

# the reader's fuzzer (make fuzz-build, tests/fuzz/, doc/testing.md): a
# short bounded run, one test line; any crash, leak, hang or blow-up (2 GB)
# it finds fails it, and its input is kept in the work dir.  A hang is an
# input that takes over 60 s here (FUZZ_CHECK_HANG): the suite runs on
# loaded machines, where a stalled disk or scheduler once took an input
# past 10 s (make fuzz keeps 10 s: run it on a quiet machine)
FUZZ=$TOP/build-fuzz/fuzz_reader
FUZZ_CHECK_TIME=${FUZZ_CHECK_TIME:-60}
FUZZ_CHECK_HANG=${FUZZ_CHECK_HANG:-60}
if [ -x "$FUZZ" ] && [ $UPDATE = 0 ] && selected fuzz/reader &&
	[ -n "$(cd "$TOP" && find lib builtin tests/fuzz -newer "$FUZZ" -name '*.[ch]' | head -n 1)" ]; then
	echo "# fuzz/reader not run: $FUZZ is older than the sources (make fuzz-build)"
elif [ -x "$FUZZ" ] && [ $UPDATE = 0 ] && selected fuzz/reader; then
	fdir=$RUNDIR/fuzz
	mkdir -p "$fdir/corpus" "$fdir/seeds"
	sh "$TOP/tests/fuzz/seeds.sh" "$CT" "$fdir/seeds" >"$fdir/seeds.log" 2>&1
	(cd "$fdir" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		timeout -k 10 $((FUZZ_CHECK_TIME + 600)) "$FUZZ" -rss_limit_mb=2048 -timeout="$FUZZ_CHECK_HANG" \
		-max_len=65536 -dict="$TOP/tests/fuzz/reader.dict" -max_total_time="$FUZZ_CHECK_TIME" \
		-artifact_prefix="$fdir/" \
		"$fdir/corpus" "$fdir/seeds" "$TOP/tests/fuzz/corpus") >"$fdir/log" 2>&1
	rc=$?
	found=$(cd "$fdir" && ls crash-* leak-* timeout-* oom-* 2>/dev/null | head -n 1)
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$fdir/log" | tail -n 1)
	if [ $rc -eq 0 ] && [ -z "$found" ]; then
		echo "ok   fuzz/reader (${runs:-?} inputs in ${FUZZ_CHECK_TIME}s)"
		PASS=$((PASS + 1))
	else
		echo "FAIL fuzz/reader (exit status $rc${found:+, input ${fdir#$TOP/}/$found})"
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9] ' "$fdir/log" | grep -v '^calltrace' |
			head -n 20 | sed 's/^/     /'
		KEEP=1
		FAIL=$((FAIL + 1))
	fi
fi

E_PASS=$(cat "$RUNDIR"/*/status 2>/dev/null | grep -c '^ok$')
E_FAIL=$(cat "$RUNDIR"/*/status 2>/dev/null | grep -c '^fail$')
E_ALL=$(wc -l <"$RUNDIR/jobs")
# a case that ended without a status (runner killed?) counts as failed
E_FAIL=$((E_FAIL + E_ALL - E_PASS - E_FAIL))
PASS=$((PASS + E_PASS))
FAIL=$((FAIL + E_FAIL))

if [ $FAIL -eq 0 ] && [ $KEEP = 0 ]; then
	rm -rf "$RUNDIR"
else
	echo "# work files kept in ${RUNDIR#$TOP/}"
fi
echo "$PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
