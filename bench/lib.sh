# SPDX-License-Identifier: MIT
# bench/lib.sh: the start every benchmark script shares.  A script sets
# HERE (its own directory) and SUB (its directory under the work directory;
# empty: the work directory itself), then sources this file:
#
#   HERE=$(cd "$(dirname "$0")" && pwd)
#   SUB=count
#   . "$HERE/lib.sh"
#
# It has then: TOP (the source tree), BW (BENCH_WORK, default bench/work,
# absolute: where bench/setup.sh builds Lua and sqlite), W (BW/SUB, made,
# absolute), CT (CALLTRACE, default build/calltrace, absolute), CC (default
# gcc; make's default `cc` is taken as gcc), and the functions below.
set -u
export LC_ALL=C
TOP=$(cd "$HERE/.." && pwd)
BW=${BENCH_WORK:-$HERE/work}
mkdir -p "$BW" && BW=$(cd "$BW" && pwd) || exit 1
W=$BW${SUB:+/$SUB}
mkdir -p "$W" && W=$(cd "$W" && pwd) || exit 1
CT=${CALLTRACE:-$TOP/build/calltrace}
case $CT in /*) ;; *) CT=$TOP/$CT ;; esac
CC=${CC:-gcc}
[ "$CC" = cc ] && CC=gcc

# calc EXPR: awk's arithmetic, printed with CALC_DIGITS significant digits
# (default 4)
calc() { awk "BEGIN { printf \"%.${CALC_DIGITS:-4}g\", $1 }"; }

# build_fibs FLAGS...: bench/timeit.c into W/timeit, and bench/fib.c with
# FLAGS into W/fib-plain (untraced) and with each front end: W/fib-fi,
# fib-pg, fib-fentry, fib-patch
build_fibs() {
	$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
	$CC "$@" -o "$W/fib-plain" "$HERE/fib.c" || exit 1
	$CC "$@" -finstrument-functions -o "$W/fib-fi" "$HERE/fib.c" || exit 1
	$CC "$@" -pg -o "$W/fib-pg" "$HERE/fib.c" || exit 1
	$CC "$@" -pg -mfentry -o "$W/fib-fentry" "$HERE/fib.c" || exit 1
	$CC "$@" -fpatchable-function-entry=5 -o "$W/fib-patch" "$HERE/fib.c" || exit 1
}

# t RUNS PREP CMD...: "min_wall median_wall min_cpu" in ns of CMD run RUNS
# times in W by bench/timeit.c (build_fibs builds it), PREP (may be empty)
# run before each
t() {
	_n=$1 _p=$2
	shift 2
	(cd "$W" && "$W/timeit" -n "$_n" ${_p:+-p "$_p"} -- "$@") | awk '{ print $1, $2, $5 }'
}

# tn RUNS PREP CMD...: the least CPU time (ns, program and record) of
# CMD FIB_N less that of CMD 1: process and record start-up taken out
tn() {
	_n=$1 _p=$2
	shift 2
	set -- "$_n" "$_p" "$@"
	_a=$(t "$@" "$FIB_N" | cut -d' ' -f3)
	_b=$(t "$@" 1 | cut -d' ' -f3)
	echo $((_a - _b))
}

# fib_calls FE: the calls W/fib-FE makes with FIB_N, from a full recording
# (two events each; 0 when it recorded nothing)
fib_calls() {
	rm -rf "$W/d"
	"$CT" record -q -d "$W/d" "$W/fib-$1" "$FIB_N" >/dev/null 2>&1
	_c=$(sed -n 's/^events: //p' "$W/d/info" 2>/dev/null)
	echo $((${_c:-0} / 2))
}
