#!/bin/sh
# bench/args.sh: cost of capturing two integer arguments and a return value
# per traced call, with -pg -mfentry (doc/performance.md, doc/args.md).
# Measures, asserts nothing.  Prints per-call figures in ns:
#   fentry          traced, no arguments captured
#   fentry+args     traced, -A 'pair@arg1/d,arg2/d' -R 'pair@retval/d'
#   args cost       the difference (what capture adds to a call)
#   args.c alone   look-up + ARGS + RETVAL records, in process, without the
#                   front end (bench/args_micro.c, linked with build/runtime)
# Environment: CALLTRACE (default build/calltrace), ARGS_N calls (default
# 10000000), RUNS (best of, default 5), BENCH_WORK (default bench/work),
# ARGS_KV=1 (key value lines, as bench/run.sh reads them).
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=args
. "$HERE/lib.sh"
N=${ARGS_N:-10000000}
RUNS=${RUNS:-5}

$CC -O2 -Wall -o "$W/timeit" "$HERE/timeit.c" || exit 1
$CC -O2 -o "$W/plain" "$HERE/args.c" || exit 1
$CC -O2 -pg -mfentry -o "$W/fentry" "$HERE/args.c" || exit 1
# runtime/args.c alone, in process (bench/args_micro.c), from the objects
# of the last build
# (the objects of today's sources only: a build directory may hold stale ones)
objs=""
for f in "$TOP"/runtime/*.c "$TOP"/arch/x86_64/*.S; do
	o=${f#"$TOP"/}
	objs="$objs $TOP/build/${o%.*}.o"
done
# shellcheck disable=SC2086 # $objs: a list of paths without spaces
$CC -O2 -D_GNU_SOURCE -I"$TOP" -I"$TOP/include" -I"$TOP/runtime" -I"$TOP/arch/x86_64" \
	-o "$W/micro" "$HERE/args_micro.c" $objs -lpthread -ldl || exit 1
printf 'calltrace-args 1\nstrmax 64\nspec 0\na rdi d32 - -\na rsi d32 - -\nr rax d32 - -\nend\nmodule - micro\nf 1000 0\n' >"$W/micro.spec"

# best wall time of RUNS runs, in ns
best() {
	(cd "$W" && ./timeit -n "$RUNS" -p "rm -rf $W/d" -e "$W/last.err" -- "$@") | cut -d" " -f${FIELD:-1}
}

calls=$((N + 1)) # pair() N times, and main
t_plain=$(best ./plain "$N")
t_fentry=$(best "$CT" record -q -d "$W/d" ./fentry "$N")
t_args=$(best "$CT" record -q -d "$W/d" -A '^pair$@arg1/d,arg2/d' -R '^pair$@retval/d' \
	./fentry "$N")
# check that the recording has the values (the figure means nothing otherwise)
"$CT" replay -d "$W/d" --no-duration -D 2 2>/dev/null | head -n 8 | grep -q '|   pair(0, 0) = 0;$' ||
	echo "bench/args.sh: warning: the recording does not show pair's arguments" >&2
bytes=$(cat "$W"/d/*.ev | wc -c)
micro=$("$W/micro" "$W/micro.spec" "$N")

if [ "${ARGS_KV:-0}" = 1 ]; then
	# key value lines for bench/run.sh (results.json: args.*)
	awk -v p="$t_plain" -v f="$t_fentry" -v a="$t_args" -v c="$calls" -v b="$bytes" -v m="$micro" 'BEGIN {
		printf "calls %d\nfentry_ns_per_call %.1f\nargs_ns_per_call %.1f\n", c, (f - p) / c, (a - p) / c
		printf "capture_alone_ns_per_call %s\n", m
		printf "capture_ns_per_call %.1f\nbytes_per_call %.1f\n", (a - f) / c, b / c
	}'
	exit 0
fi
awk -v p="$t_plain" -v f="$t_fentry" -v a="$t_args" -v c="$calls" -v b="$bytes" -v m="$micro" 'BEGIN {
	printf "args: %d calls, best of '"$RUNS"' runs\n", c
	printf "args: fentry, no arguments     %6.1f ns per call\n", (f - p) / c
	printf "args: fentry, 2 args + retval  %6.1f ns per call\n", (a - p) / c
	printf "args: what capture adds        %6.1f ns per call\n", (a - f) / c
	printf "args: bytes per call with args %6.1f\n", b / c
	printf "args: runtime/args.c alone     %6.1f ns per call (in process, bench/args_micro.c)\n", m
}'
