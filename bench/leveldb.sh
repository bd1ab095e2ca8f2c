#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/leveldb.sh: record-time filters on a real C++ program: leveldb's
# db_bench (Debian's source package leveldb), built with
# -finstrument-functions, recorded in full, with -N and with --hide 'std::|leveldb::Slice::' (its
# hottest, least interesting calls).
# Measures, asserts nothing; builds db_bench once (a few minutes) under
# BENCH_WORK/leveldb when it is not there.
#
#   sh bench/leveldb.sh          (after make; bench/run.sh calls it with LEVELDB=1)
#
# Environment: CALLTRACE, BENCH_WORK, LEVELDB_NUM (db_bench --num, default 20000).
# Output, "KEY VALUE": full.{s,events,bytes}; notrace.* for -N and hide.*
# for --hide the same regex, each with expected_events: what the view's
# filter of that name keeps of the full recording (report's calls, two
# events each), for the record-time figure to be compared with
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=leveldb
. "$HERE/lib.sh"
NUM=${LEVELDB_NUM:-20000}
ulimit -f 8388608 2>/dev/null || true

say() { echo "leveldb: $*" >&2; }

BIN=$W/build/db_bench
if [ ! -x "$BIN" ]; then
	command -v cmake >/dev/null || { say "no cmake: no leveldb figures"; exit 0; }
	say "apt-get source leveldb, then building db_bench with -finstrument-functions"
	(cd "$W" && rm -rf src && mkdir src && cd src && apt-get source leveldb >../get.log 2>&1) ||
		{ say "cannot get leveldb's source (see $W/get.log)"; exit 0; }
	SRC=$(ls -d "$W"/src/leveldb-*/ | head -1)
	mkdir -p "$W/build"
	(cd "$W/build" && cmake "$SRC" -DCMAKE_BUILD_TYPE=Release -DLEVELDB_BUILD_TESTS=OFF \
		-DLEVELDB_BUILD_BENCHMARKS=ON -DLEVELDB_INSTALL=OFF -DCMAKE_CXX_FLAGS="-g -finstrument-functions" \
		-DCMAKE_C_FLAGS="-g -finstrument-functions" >"$W/cmake.log" 2>&1 &&
		make -j"$(nproc)" db_bench >"$W/make.log" 2>&1) || { say "build failed (see $W/make.log)"; exit 0; }
fi

# one recording into $W/$1: "seconds events bytes"
rec() {
	_d=$1
	shift
	rm -rf "$W/$_d" "$W/db"
	t0=$(date +%s.%N)
	(cd "$W" && "$CT" record -q -d "$W/$_d" "$@" "$BIN" --db="$W/db" --benchmarks=fillseq,readrandom \
		--num="$NUM" >/dev/null 2>"$W/rec.err")
	t1=$(date +%s.%N)
	ev=$(sed -n 's/^events: //p' "$W/$_d/info")
	by=$(cat "$W/$_d"/*.ev | wc -c)
	echo "$(calc "$t1 - $t0") ${ev:-0} $by"
}
# the calls a view's filter keeps of the full recording (report's calls column)
kept() {
	"$CT" report -d "$W/full" --format=csv "$@" 2>/dev/null |
		awk -F, 'NR > 1 { n = split($0, f, ","); s += f[n - 5] } END { print s + 0 }'
}
RE='std::|leveldb::Slice::'
set -- $(rec full); fs=$1 fe=$2 fb=$3
set -- $(rec n -N "$RE"); ns=$1 ne=$2 nb=$3
set -- $(rec h --hide "$RE"); hs=$1 he=$2 hb=$3
echo "full.s $fs"
echo "full.events $fe"
echo "full.bytes $fb"
echo "notrace.s $ns"
echo "notrace.events $ne"
echo "notrace.bytes $nb"
echo "notrace.expected_events $((2 * $(kept -N "$RE")))"
echo "hide.s $hs"
echo "hide.events $he"
echo "hide.bytes $hb"
echo "hide.expected_events $((2 * $(kept --hide "$RE")))"
echo "notrace.events_ratio $(calc "$fe / ($ne > 0 ? $ne : 1)")"
echo "hide.events_ratio $(calc "$fe / ($he > 0 ? $he : 1)")"
echo "hide.bytes_ratio $(calc "$fb / ($hb > 0 ? $hb : 1)")"
rm -rf "$W/full" "$W/n" "$W/h" "$W/db"
