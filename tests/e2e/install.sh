# make install PREFIX=... (issue 13's item 6): the command, the runtime,
# the man pages made from doc/ and the bash completion land under the
# prefix; the installed calltrace records and replays from another
# directory; man finds and renders calltrace-record with MANPATH set; the
# completion answers subcommands, options, option values and the
# recording's function names; the reading library's example builds with
# the installed pkg-config file and runs, as does the installed Python
# module (doc/reader.md).
# variants: one
command -v go-md2man >/dev/null 2>&1 || die "go-md2man is needed (sh tools/install-deps.sh)"
command -v man >/dev/null 2>&1 || die "man is needed (sh tools/install-deps.sh)"
P=$W/prefix
section "make install PREFIX=..."
# (without the case's CFLAGS and compilers: an object out of date would be
# rebuilt with them, the runtime instrumented)
guard env -u CFLAGS -u CC -u CXX make -s -C "$TOP" install PREFIX="$P" O="${CT_BUILD:-build}" \
	>"$W/make.log" 2>&1
echo "exit $RC" | add
[ $RC -eq 0 ] || die "make install failed: $(tail -5 "$W/make.log")"
# the aarch64 runtime and its thrower (record --inject's throw=) are
# installed when they were built (make aarch64, the thrower with the cross
# C++ compiler): then each must be that file, and they are left out of the
# list compared
for f in libcalltrace.so libcalltrace-throw.so; do
	A64P=lib/calltrace/aarch64/$f
	if [ -f "$TOP/build-aarch64/$f" ]; then
		cmp -s "$TOP/build-aarch64/$f" "$P/$A64P" || fail "make install: no $A64P, or not build-aarch64's"
	elif [ -e "$P/$A64P" ]; then
		fail "make install: $A64P installed, but build-aarch64 has none"
	fi
done
(cd "$P" && find . -type f ! -path './share/doc/*' ! -path ./lib/calltrace/aarch64/libcalltrace.so \
	! -path ./lib/calltrace/aarch64/libcalltrace-throw.so | LC_ALL=C sort) | add
[ -f "$P/share/doc/calltrace/calltrace.md" ] && echo "share/doc/calltrace/calltrace.md" | add

section "the installed calltrace, from another directory"
build basic "$E2E/basic.c"
mkdir -p "$W/elsewhere"
cp "$W/basic" "$W/elsewhere/"
cd "$W/elsewhere" || die "cd"
guard env PATH="$P/bin:/usr/bin:/bin" calltrace record -q ./basic >"$W/rec.out" 2>"$W/rec.err"
echo "record: exit $RC, $(cat "$W/rec.out")" | add
guard env PATH="$P/bin:/usr/bin:/bin" calltrace replay --no-duration >"$W/rep.out" 2>&1
echo "replay: exit $RC" | add
normalize <"$W/rep.out" | head -n 5 | add

section "man -w and man with MANPATH"
for c in calltrace $("$P/bin/calltrace" --help | awk '/^commands:/ { f = 1; next } f && /^   [a-z]/ { print "calltrace-" $1 } f && /^$/ { exit }'); do
	MANPATH="$P/share/man" man -w "$c" 2>&1 | sed "s|^$P/||" | add
done
MANPATH="$P/share/man" MANWIDTH=80 man calltrace-record >"$W/man.raw" 2>"$W/man.err"
RC=$?
echo "man calltrace-record: exit $RC" | add
col -bx <"$W/man.raw" >"$W/man.txt"
sed -n '1,/^DESCRIPTION/p' "$W/man.txt" | sed 's/^ *//; s/  */ /g' | add
grep -c 'calltrace-replay(1)' "$W/man.txt" | sed 's/^/SEE ALSO names calltrace-replay(1): /' | add
MANWIDTH=80 man -l "$P/share/man/man1/calltrace.1" 2>/dev/null | col -bx | grep -E '^(NAME|SYNOPSIS|DESCRIPTION|COMMANDS|ENVIRONMENT|EXIT STATUS|SEE ALSO)' | add

section "bash completion"
# comp WORD...: what _calltrace offers for the last word
comp() {
	bash -c '. "$1/share/bash-completion/completions/calltrace"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _calltrace
		printf "%s\n" "${COMPREPLY[*]}"' x "$P" "$@"
}
for w in "calltrace re" "calltrace help gr" "calltrace replay --de" \
	"calltrace replay --demangle s" "calltrace replay --demangle = " \
	"calltrace report --format=" "calltrace export --format p" "calltrace record --bu" \
	"calltrace live --del" "calltrace live --demangle s" "calltrace live --bu" \
	"calltrace top --inter" "calltrace top --cl" "calltrace graph " "calltrace graph mi" \
	"calltrace replay -F l" "calltrace report --list" "calltrace info -d calltrace.d" \
	"calltrace report --diff calltrace.d" "calltrace report --sort-column " \
	"calltrace record ./basic --de"; do
	# shellcheck disable=SC2086
	set -- $w
	case $w in *" ") set -- "$@" "" ;; esac
	echo "$w => $(PATH="$P/bin:/usr/bin:/bin" comp "$@")" | add
done
mv calltrace.data rec
echo "calltrace replay -d rec -F o => $(PATH="$P/bin:/usr/bin:/bin" comp calltrace replay -d rec -F o)" | add
echo "calltrace replay -F o (no ./calltrace.data) => $(PATH="$P/bin:/usr/bin:/bin" comp calltrace replay -F o)" | add

section "the reading library: the examples built and run against the installed files"
# only the API is exported (the rest of lib/ is hidden)
nm -D --defined-only "$P/lib/libcalltrace-reader.so.0" | awk '$2 ~ /^[TDB]$/ { print $3 }' |
	grep -vc '^ct_reader_' | sed 's/^/exported symbols not ct_reader_*: /' | add
echo "lib/libcalltrace-reader.so -> $(readlink "$P/lib/libcalltrace-reader.so")" | add
PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs calltrace-reader 2>&1 |
	sed "s|$P|PREFIX|g; s| *$||" | add
mkdir -p "$W/ex"
cp "$TOP/examples/reader/pairs.c" "$TOP/examples/reader/Makefile" "$W/ex/"
guard env PKG_CONFIG_PATH="$P/lib/pkgconfig" make -s -C "$W/ex" >"$W/ex.log" 2>&1
echo "make -C examples/reader (pkg-config): exit $RC" | add
[ $RC -eq 0 ] || fail "building pairs against the installed library: $(head -5 "$W/ex.log")"
guard env LD_LIBRARY_PATH="$P/lib" "$W/ex/pairs" rec >"$W/pairs.out" 2>&1
echo "pairs rec: exit $RC" | add
add <"$W/pairs.out"
guard env -u CALLTRACE_READER_LIB PYTHONPATH="$P/lib/python3/dist-packages" \
	python3 "$TOP/examples/reader/pairs.py" rec >"$W/pairs.py.out" 2>&1
echo "pairs.py rec (the installed module): exit $RC" | add
cmp -s "$W/pairs.out" "$W/pairs.py.out" && echo "pairs.py: the same" | add ||
	fail "pairs.py differs: $(head -c 300 "$W/pairs.py.out")"
