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
