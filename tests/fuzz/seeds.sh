#!/bin/sh
# SPDX-License-Identifier: MIT
# Make the fuzzer's seed corpus from real recordings: tests/e2e/basic.c
# (one thread), tests/e2e/threads.c (several) and tests/e2e/args.c with
# argument capture (args.spec, ARGS/RETVAL records), each packed into one
# input by pack.py.  Usage: seeds.sh CALLTRACE OUTDIR
set -eu
CT=$1
OUT=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
E2E=$TOP/tests/e2e
W=$(mktemp -d /tmp/ct-seeds-XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$OUT"
CC=${CC:-gcc}
n=0
one() { # NAME SRC FLAGS [RECORD OPTIONS]
	name=$1 src=$2 flags=$3
	shift 3
	# shellcheck disable=SC2086
	$CC -g -O1 $flags -I"$E2E" -o "$W/$name" "$src" -lpthread -ldl 2>"$W/$name.log" ||
		{ echo "seeds.sh: cannot build $name: $(head -3 "$W/$name.log")" >&2; return 0; }
	(cd "$W" && "$CT" record -d "$W/$name.data" "$@" "./$name" >/dev/null 2>&1) || true
	[ -f "$W/$name.data/info" ] || { echo "seeds.sh: no recording of $name" >&2; return 0; }
	python3 "$TOP/tests/fuzz/pack.py" "$W/$name.data" "$OUT/seed-$name"
	n=$((n + 1))
}
one basic "$E2E/basic.c" -finstrument-functions
one threads "$E2E/threads.c" -finstrument-functions
one args "$E2E/args.c" "-pg -mfentry" --str-max=16 \
	-A '^gcd$@arg1/d,arg2/d' -R '^gcd$@retval/d' \
	-A '^chars$@arg1/c,arg2/c,arg3/c' -R '^chars$@retval/c' \
	-A '^strings$@arg1/s,arg2/s,arg3/s,arg4/s,arg5/s' -R '^strings$@retval/u64' \
	-A '^floats$@fparg1/f,fparg2/f32,fparg3/f64' -R '^floats$@retval/f' \
	-A '^printf_form$@fmt="a=%d s=%s x=%#x d=%.2f"' -R '^printf_form$@fmt="<%d>"'
one argsauto "$E2E/args.c" "-pg -mfentry" -a
one fentry "$E2E/basic.c" "-pg -mfentry"
echo "seeds.sh: $n seeds in $OUT ($(cat "$OUT"/seed-* 2>/dev/null | wc -c) bytes)"
