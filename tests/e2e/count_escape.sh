# A recording of call counts (record --count) whose files hold bytes a
# terminal acts on: a .cnt line with ESC, BEL and the C1 CSI (as a lone
# byte and as UTF-8), a .cnt file whose name starts with a carriage return
# (the names' pattern lets blanks lead), and symbol names with an OSC
# sequence.  report, callers, coverage and graph --no-time show them
# escaped (\xHH, output.h), in their output and their messages, never raw;
# the messages still name the file and line (the folded and callgrind
# exports' messages too).
# variants: one
build basic "$E2E/basic.c"
record c --count ./basic
want_rc "record --count ./basic" $RC 0 "$W/c.err"
cnt=$(cd "$W/c" && ls *.cnt | head -n 1)
[ -n "$cnt" ] || die "no .cnt file in $(ls "$W/c")"

# raw WHAT: fail when the view's stdout or stderr holds ESC, BEL or a C1 byte
raw() {
	n=$(cat "$W/view.out" "$W/view.err" | LC_ALL=C tr -dc '\033\007\015\233' | wc -c)
	if [ "$n" = 0 ]; then
		echo "$1: no raw control byte"
	else
		echo "$1: $n raw control bytes"
	fi
}
views="report callers coverage graph"
view() {
	_d=$1 _v=$2
	set --
	[ "$_v" = graph ] && set -- --no-time
	[ "$_v" = folded ] && _v=export && set -- --format=folded --folded-value=calls
	[ "$_v" = callgrind ] && _v=export && set -- --format=callgrind
	guard "$CT" "$_v" -d "$W/$_d" "$@" >"$W/view.out" 2>"$W/view.err"
	R=$RC
	[ $R -lt 124 ] || fail "calltrace $_v $* -d $_d: exit status $R (crash or hang)"
}

section "a bad line with ESC, BEL and C1: exit 1, the line escaped"
cp -r "$W/c" "$W/line"
printf 'f 1 2 3 \033]0;owned\007 \233 \302\233\n' >>"$W/line/$cnt"
for v in $views folded callgrind; do
	view line $v
	echo "$v: exit $R"
	raw "$v"
	sed "s|$W/line/$cnt|DIR/CNT|; s/^calltrace [a-z]*: //" "$W/view.err" | head -n 1
done | add

section "a file named with a leading carriage return: its name escaped"
cp -r "$W/c" "$W/name"
printf 'bad\n' >>"$W/name/$cnt"
mv "$W/name/$cnt" "$W/name/$(printf '\r')$cnt"
for v in $views; do
	view name $v
	echo "$v: exit $R"
	raw "$v"
	sed "s|$W/name/|DIR/|; s|$cnt|CNT|; s/^calltrace [a-z]*: //" "$W/view.err" | head -n 1
done | add

section "names with an OSC sequence: escaped by the counting views"
cp -r "$W/c" "$W/sym"
exe_sym=$(grep -l "^path .*/basic\$" "$W/sym"/sym/*.sym | head -n 1)
[ -n "$exe_sym" ] || die "no sym file for basic in $(ls "$W/sym/sym")"
awk 'NR > 3 && NF >= 3 { $3 = "%1B]0;owned%07" $3 "%9B%C2%9B" } { print }' \
	"$exe_sym" >"$W/x.sym" && mv "$W/x.sym" "$exe_sym"
for v in $views; do
	view sym $v
	echo "$v: exit $R"
	raw "$v"
	if [ $v = coverage ]; then
		# its text lists the functions never called: none here (the
		# crt's have no debug info, doc/coverage.md); JSON has the others
		guard "$CT" coverage -d "$W/sym" --format=json >"$W/view.out" 2>"$W/view.err"
		raw "coverage --format=json"
	fi
	grep -q 'owned' "$W/view.out" || echo "$v: the names are not in the output"
done | add
