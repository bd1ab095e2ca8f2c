#!/bin/sh
# tools/coverage.sh BUILD: line coverage of the analysis side (calltrace.c,
# builtin/, lib/) from the gcov data of a --coverage build (make coverage):
# per file, per directory and in all, from gcov's own "Lines executed"
# figures.  Writes nothing but its report (gcov -n).
set -u
B=${1:-build-cov}
cd "$(dirname "$0")/.." || exit 1
[ -d "$B" ] || { echo "coverage: no $B (make coverage)" >&2; exit 1; }
for src in calltrace.c builtin/*.c lib/*/*.c; do
	obj=$B/${src%.c}.o
	[ -f "${obj%.o}.gcno" ] || continue
	gcov -n -o "$(dirname "$obj")" "$src" 2>/dev/null |
		awk -v f="$src" '/^File / { cur = $2; gsub(/\x27/, "", cur) }
			/^Lines executed:/ && cur == f { split($2, a, ":"); sub(/%/, "", a[2]);
				print f, a[2], $4; exit }'
done | awk '
	{ dir = $1; sub(/\/[^\/]*$/, "", dir); if (dir == $1) dir = "."
	  hit = $2 * $3 / 100; H[dir] += hit; N[dir] += $3; th += hit; tn += $3
	  printf "%-28s %6.1f%% of %5d lines\n", $1, $2, $3 }
	END { print ""
	      for (d in N) printf "%-28s %6.1f%% of %5d lines\n", d "/", 100 * H[d] / N[d], N[d]
	      if (tn) printf "line coverage: %.1f%% of %d lines (analysis side)\n", 100 * th / tn, tn
	      else { print "coverage: no gcov data (run the suite on the --coverage build)"; exit 1 } }'
