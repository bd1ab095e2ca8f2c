# Command-line handling: --help exits 0 on every command, unknown options
# and bad values exit 2 and name the command's own help (live and top too,
# for record's options and the views' they take); live and top take the
# views' --demangle; record's help lists every option its parser takes
# and the parser takes each (lib/core/options.h: one table for both).
# variants: one
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

# expect_status WANT ARGS...: calltrace ARGS exits WANT
expect_status() {
	_want=$1; shift
	echo "calltrace $*: $_want" | add
	guard "$CT" "$@" >"$W/o.out" 2>"$W/o.err"
	if [ $RC -ne "$_want" ]; then
		fail "calltrace $*: exit status $RC, expected $_want; stderr: $(head -c 300 "$W/o.err" | tr '\n' '|')"
	elif [ "$_want" = 0 ] && [ ! -s "$W/o.out" ]; then
		fail "calltrace $*: printed nothing on stdout"
	elif [ "$_want" = 2 ] && [ ! -s "$W/o.err" ]; then
		fail "calltrace $*: exit 2 without a message on stderr"
	fi
}

section "--help"
expect_status 0 --help
cmds=$("$CT" --help | awk '/^commands:/ { f = 1; next } f && /^   [a-z]/ { print $1 } f && /^$/ { exit }')
for sub in $cmds; do
	expect_status 0 $sub --help
done

section "bad usage"
expect_status 2
expect_status 2 no-such-command
expect_status 2 record --no-such-option ./basic
expect_status 2 record
expect_status 2 replay -d d --no-such-option
expect_status 2 report -d d --no-such-option
expect_status 2 info -d d --no-such-option
expect_status 2 replay -d
expect_status 2 replay -d d -D
expect_status 2 replay -d d -D notanumber
expect_status 2 replay -d d -F '('
expect_status 2 report -d d --format=xml
expect_status 2 report -d d -s no-such-key

section "record: bad input"
expect_status 127 record -d d2 ./no-such-program
grep -q "no-such-program" "$W/o.err" || fail "record of a missing program: stderr does not name it"
: >"$W/plainfile"
expect_status 1 record -d plainfile ./basic
mkdir -p "$W/foreign" && echo data >"$W/foreign/notes.txt"
expect_status 1 record -d foreign ./basic
grep -q "not a calltrace data directory" "$W/o.err" || fail "record into a foreign directory: no clear message"
expect_status 2 record -b 12 ./basic
expect_status 2 record --buffers=1 ./basic
expect_status 2 record --clock=sundial ./basic
section "record --clock: the clock asked for (tsc was once mono)"
for c in tsc mono; do
	record "ck.$c" -q --clock=$c ./basic
	echo "--clock=$c: exit $RC, info $(grep '^clock:' "$W/ck.$c/info")" | add
done
section "record: an old recording is kept as DIR.old"
expect_status 0 record -q -d d ./basic
[ -f "$W/d.old/info" ] || fail "record -d d over a recording: no d.old/info"
section "a usage error: the message and where the help is, not the whole help"
for c in "replay --bogus" "report -D" "record --bogus ./basic" "record -F" "export --format=nope" "record"; do
	# shellcheck disable=SC2086
	guard "$CT" $c >"$W/u.out" 2>"$W/u.err"
	echo "calltrace $c: exit $RC, $(wc -l <"$W/u.err") lines: $(tail -1 "$W/u.err")" | add
done
section "every command: an unknown option names that command's help"
for c in $cmds; do
	case $c in
	record | live | top) set -- "$c" --no-such-option ./basic ;;
	*) set -- "$c" -d d --no-such-option ;;
	esac
	guard "$CT" "$@" >"$W/u.out" 2>"$W/u.err"
	echo "calltrace $*: exit $RC: $(tr '\n' '|' <"$W/u.err")" | add
done
section "live and top: record's options and the views', their help named"
for c in "live --buffers=1 ./basic" "top -b 12 ./basic" "top -F ( ./basic" "live --delay" \
	"top --demangle=odd ./basic" "live --color=sometimes ./basic" "top --flight ./basic" \
	"live --count ./basic" "top --limit=0 ./basic" "live" "live --no-demangle=x ./basic"; do
	# shellcheck disable=SC2086
	guard "$CT" $c >"$W/u.out" 2>"$W/u.err"
	echo "calltrace $c: exit $RC: $(tr '\n' '|' <"$W/u.err")" | add
done
section "live and top --demangle=simple: the views' option, passed on"
build demangle "$E2E/demangle.cc"
# the names of ns::Cls's methods in top's final profile, in live's tree
top_names() {
	sed -n '/(final profile)/,$p' "$1" | cut -c46- | grep 'ns::Cls::method' | LC_ALL=C sort -u
}
live_names() {
	sed 's/^.*| *//; s/^} \/\* //; s/ \*\/$//; s/ {$//; s/;$//; s/()$//' "$1" |
		grep 'ns::Cls::method' | LC_ALL=C sort -u
}
for m in full simple; do
	guard "$CT" top -q --demangle=$m --output="$W/top.$m" ./demangle >/dev/null 2>"$W/top.err"
	echo "top --demangle=$m: exit $RC" | add
	top_names "$W/top.$m" | add
	guard "$CT" live -q --demangle $m -d "$W/live.$m.d" --output="$W/live.$m" ./demangle \
		>/dev/null 2>"$W/live.err"
	echo "live --demangle $m: exit $RC" | add
	live_names "$W/live.$m" | add
done
section "record's help lists every option its parser takes, and the parser takes each"
# help_opts CMD: the options CMD's help lists (--name, -x), sorted
help_opts() {
	"$CT" "$1" --help | awk '/^  +(-[A-Za-z0-9], )?--[a-z]/ && match($0, /^ +/) && RLENGTH <= 6 {
		line = $0; sub(/^ +/, "", line)
		if (line ~ /^-[A-Za-z0-9], /) { print substr(line, 1, 2); line = substr(line, 5) }
		sub(/[ =\[].*/, "", line); print line }' | LC_ALL=C sort
}
# parser_opts CMD: the options its parser takes (--list-options), sorted
parser_opts() {
	"$CT" "$1" --list-options | awk '{ n = $1; sub(/[=\[].*/, "", n); print n
		if ($2 != "") print $2 }' | LC_ALL=C sort
}
help_opts record >"$W/help.record"
parser_opts record >"$W/parser.record"
echo "record: $(wc -l <"$W/help.record") options in its help, $(wc -l <"$W/parser.record") taken by its parser" | add
if cmp -s "$W/help.record" "$W/parser.record"; then
	echo "the same" | add
else
	diff "$W/help.record" "$W/parser.record" | grep '^[<>]' | add
fi
# each option of the help given to record (a value where it wants one):
# taken, whether its value is good or not
"$CT" record --list-options >"$W/list.record"
n=0
for o in $(cat "$W/help.record"); do
	a=$o
	case $o in
	--*) grep -q -- "^$o=" "$W/list.record" && a="$o=x" ;;
	*) grep -q -- "=[^ ]* $o\$" "$W/list.record" && a="$o x" ;;
	esac
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/each" $a --help >"$W/e.out" 2>"$W/e.err"
	if grep -q "unknown option\|needs an argument\|takes no argument\|ambiguous" "$W/e.err"; then
		echo "record $a: $(head -1 "$W/e.err")" | add
	else
		n=$((n + 1))
	fi
done
echo "each given to record: $n taken" | add
section "the other commands: what their parser takes that their help leaves out"
parser_opts record | grep -v '^-h$\|^--help$' >"$W/parser.rec"
for c in $cmds; do
	[ "$c" = record ] && continue
	help_opts "$c" >"$W/help.$c"
	parser_opts "$c" >"$W/parser.$c"
	case $c in
	live | top)
		# record's options: listed by record's help
		LC_ALL=C comm -23 "$W/parser.$c" "$W/parser.rec" >"$W/own.$c"
		mv "$W/own.$c" "$W/parser.$c"
		;;
	esac
	hidden=$(LC_ALL=C comm -13 "$W/help.$c" "$W/parser.$c" | tr '\n' ' ')
	untaken=$(LC_ALL=C comm -23 "$W/help.$c" "$W/parser.$c" | tr '\n' ' ')
	echo "$c: hidden: ${hidden:-none}; in the help, not taken: ${untaken:-none}" | add
done
section "calltrace help CMD is CMD --help"
for c in replay record info live top; do
	guard "$CT" help $c >"$W/h1.out" 2>&1
	guard "$CT" $c --help >"$W/h2.out" 2>&1
	cmp -s "$W/h1.out" "$W/h2.out" && echo "help $c: the same" | add || fail "calltrace help $c differs from $c --help"
done
expect_status 2 help no_such_command
section "--tid naming no thread: exit 1 with the message, in every view that takes it"
record dc -q --count ./basic
want_rc "record --count ./basic" $RC 0 "$W/dc.err"
for dd in d dc; do
	for c in replay report callers "graph --no-time" coverage "export --format=folded --folded-value=calls"; do
		[ $dd = dc ] && [ "$c" = replay ] && continue # replay needs the times
		# shellcheck disable=SC2086
		expect_status 1 $c -d $dd --tid 999999
		grep -q "no thread 999999" "$W/o.err" || fail "$c -d $dd --tid 999999: no 'no thread 999999' on stderr"
	done
done
section "record --help: every -T action and every exit status"
"$CT" record --help >"$W/rh.out" 2>&1
for a in trace_on trace_off trace_on=call trace_off=call depth=N time=TIME finish snapshot backtrace; do
	grep -q -- "$a" "$W/rh.out" || fail "record --help does not name the -T action $a"
done
# the statuses doc/record.md's table lists
for s in 125 127/126 75 "1 when" "3 when"; do
	grep -q -- "$s" "$W/rh.out" || fail "record --help does not give exit status '$s'"
done
section "graph --help says how FUNC is found (graph sum finds sum_squares)"
"$CT" graph --help >"$W/gh.out" 2>&1
grep -q "exact name" "$W/gh.out" && fail "graph --help says 'exact name', but FUNC may be a regex"
grep -q "regex" "$W/gh.out" || fail "graph --help does not say FUNC may be a regex"
section "--flight=SIZE too small: the SIZE given and the least one"
for a in "--flight=4K" "--flight=4K --buffers=4"; do
	# shellcheck disable=SC2086
	guard "$CT" record -d fl $a ./basic >"$W/fl.out" 2>"$W/fl.err"
	echo "record $a: exit $RC: $(head -1 "$W/fl.err")" | add
done
section "-o - is the standard output (export, top)"
# (the cases run in $W: a file named - would be $W/-)
guard "$CT" export --format=folded -d d -o - >"$W/x.out" 2>"$W/x.err"
echo "export -o -: exit $RC, $(wc -l <"$W/x.out") lines on stdout" | add
[ -e "$W/-" ] && fail "export -o -: wrote a file named -" && rm -f "$W/-"
[ -s "$W/x.out" ] || fail "export -o -: nothing on stdout"
TMPDIR="$W" guard "$CT" top -q --interval=1h --output=- ./basic >"$W/tp.out" 2>"$W/tp.err"
echo "top --output=-: exit $RC" | add
[ -e "$W/-" ] && fail "top --output=-: wrote a file named -"
[ -s "$W/tp.out" ] || fail "top --output=-: nothing on stdout"
section "empty arguments stay visible: command: and the HTML title"
record de -q ./basic '' x ''
guard "$CT" info -d "$W/de" >"$W/de.info" 2>&1
grep '^command:' "$W/de.info" | sed "s|$W/||; s|  *| |" | add
guard "$CT" export -d "$W/de" --format=html -o "$W/de.html" >/dev/null 2>"$W/de.herr"
if [ $RC = 0 ]; then
	grep -o '<title>[^<]*</title>' "$W/de.html" | sed "s|$W/||" | add
else
	echo "export --format=html: exit $RC (no html)" | add
fi
