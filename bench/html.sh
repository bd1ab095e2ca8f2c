#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/html.sh: export --format=html of big recordings (measures only).
#   fib(FIB) from bench/fib.c: ~11 million calls, few distinct call paths
#   paths(DEPTH) from bench/paths.c: 2^(DEPTH+1)-1 calls, each its own path
# For each: the export's wall time and peak RSS (GNU time), the HTML's
# size, and how long headless Chromium takes to draw it
# (bench/html_load.js, when node and web/node_modules are there); the same
# trace exported --format=folded for comparison.
#   sh bench/html.sh            (FIB=33 DEPTH=21 by default)
HERE=$(cd "$(dirname "$0")" && pwd)
SUB=html
. "$HERE/lib.sh"
FIB=${FIB:-33}
DEPTH=${DEPTH:-21}
cc -O2 -finstrument-functions -o "$W/fib" "$HERE/fib.c" || exit 1
cc -O2 -finstrument-functions -o "$W/paths" "$HERE/paths.c" || exit 1

measure() { # NAME FORMAT OUT: wall seconds and peak RSS of one export
	/usr/bin/time -f "%e %M" -o "$W/time" "$CT" export -d "$W/$1.data" --format="$2" -o "$3" ||
		{ echo "$1: export --format=$2 failed"; return 1; }
	read -r secs kb <"$W/time"
	printf '%-12s %-7s %8s s %8s MB peak RSS %10s bytes\n' "$1" "$2" "$secs" \
		"$((kb / 1024))" "$(wc -c <"$3" | tr -d ' ')"
}

for w in "fib $FIB" "paths $DEPTH"; do
	set -- $w
	rm -rf "$W/$1.data"
	"$CT" record -d "$W/$1.data" "$W/$1" "$2" >/dev/null 2>"$W/$1.record.err" ||
		{ echo "record $1 failed: $(tail -1 "$W/$1.record.err")"; continue; }
	echo "$1($2): $(sed -n 's/^events: *//p' "$W/$1.data/info") events"
	measure "$1" html "$W/$1.html"
	measure "$1" folded "$W/$1.folded"
	if command -v node >/dev/null && [ -d "$TOP/web/node_modules/playwright-core" ]; then
		echo "  chromium: $(node "$HERE/html_load.js" "$W/$1.html")"
	fi
done
