#!/bin/sh
# SPDX-License-Identifier: MIT
# The C sources that clang-format (.clang-format) would change.
#
#   sh tools/format-check.sh [--fix]
#
# Checks every *.c and *.h git tracks, but the traced test programs of
# tests/e2e (their line numbers are in the expected output).  Lists the
# files that differ and exits 1; with --fix, formats them in place
# (make format).  CLANG_FORMAT names the program (default clang-format;
# the style is written for version 14).
set -u
cd "$(dirname "$0")/.." || exit 2
CF=${CLANG_FORMAT:-clang-format}
if ! command -v "$CF" >/dev/null 2>&1; then
	echo "format-check: $CF not found (apt-get install clang-format)" >&2
	exit 2
fi
files=$(git ls-files '*.c' '*.h' | grep -v '^tests/e2e/')
if [ "${1:-}" = --fix ]; then
	echo "$files" | xargs "$CF" -i
	exit $?
fi
bad=
for f in $files; do
	"$CF" "$f" | cmp -s - "$f" || bad="$bad $f"
done
if [ -n "$bad" ]; then
	echo "format-check: these files are not formatted as .clang-format says:" >&2
	for f in $bad; do
		echo "  $f" >&2
	done
	echo "format-check: run 'make format' to format them" >&2
	exit 1
fi
echo "format-check: $(echo "$files" | wc -l) files formatted"
