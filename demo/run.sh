#!/bin/sh
# make demo: build the demo program with -finstrument-functions, record it,
# and show what calltrace makes of it.
set -e
cd "$(dirname "$0")/.."
CT=build/calltrace
W=demo/work
mkdir -p $W
cc -g -O2 -pthread -finstrument-functions -o $W/demo demo/demo.c
echo "== calltrace record $W/demo"
$CT record -d $W/calltrace.data $W/demo
echo
echo "== calltrace replay (first 25 lines of the main thread)"
$CT replay -d $W/calltrace.data --per-thread | head -25
echo
echo "== calltrace report"
$CT report -d $W/calltrace.data
echo
echo "== calltrace info"
$CT info -d $W/calltrace.data | head -20
echo
echo "== calltrace export --format=html -o $W/report.html"
if $CT export -d $W/calltrace.data --format=html -o $W/report.html; then
	echo "open $W/report.html in a browser: flame graph, flat profile, callers and callees"
fi
echo
echo "The recording is in $W/calltrace.data; try: $CT replay -d $W/calltrace.data -F sort"
