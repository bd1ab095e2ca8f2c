# The views' pager and colour (issue 13's item 5), under a pseudo-terminal
# (script from util-linux): replay pages through $CALLTRACE_PAGER, else
# $PAGER, only when stdout is a terminal and not with --no-pager; a pager
# that quits early ends the view quietly (exit 0, no message); durations
# are coloured with --color=always, or auto on a terminal unless NO_COLOR
# is set and not empty or TERM=dumb; perfetto's binary trace is refused on
# a terminal.
# variants: one
# aarch64: yes patch
command -v script >/dev/null 2>&1 || die "script (util-linux) is needed"
build pager "$E2E/pager.c"
record p ./pager 3
want_rc "record ./pager 3" $RC 0 "$W/p.err"
record big ./pager 200000
want_rc "record ./pager 200000" $RC 0 "$W/big.err"
ESC=$(printf '\033')
unset CALLTRACE_PAGER PAGER NO_COLOR LESS
export TERM=xterm

# tty OUT ARGS...: calltrace ARGS on a pseudo-terminal (the environment
# as set before), what it wrote (stdout and stderr) in $W/OUT without the
# terminal's carriage returns; RC its exit status
tty() {
	_o=$1; shift
	SHELL=/bin/sh guard script -qec "$CT $*" /dev/null </dev/null >"$W/$_o.raw" 2>&1
	tr -d '\r' <"$W/$_o.raw" >"$W/$_o"
}
# paged OUT: how many lines went through the stand-in pagers
paged() { printf 'exit %s, %s lines paged (P), %s (C)\n' "$RC" \
	"$(grep -c '^P:' "$W/$1")" "$(grep -c '^C:' "$W/$1")"; }
# colours OUT: whether lines have colour codes (how many depends on the
# machine's load: a quick call may be preempted)
colours() {
	if grep -q "$ESC\[" "$W/$1"; then echo "exit $RC, coloured"; else echo "exit $RC, no colour"; fi
}

section "replay on a terminal, PAGER set: paged"
PAGER='sed s/^/P:/' tty a replay -d "$W/p" --no-duration
paged a | add
sed -n 's/^P://p' "$W/a" | normalize | add
section "CALLTRACE_PAGER wins over PAGER"
CALLTRACE_PAGER='sed s/^/C:/' PAGER='sed s/^/P:/' tty b replay -d "$W/p"
paged b | add
section "--no-pager"
PAGER='sed s/^/P:/' tty c replay -d "$W/p" --no-pager
paged c | add
section "PAGER=cat and an empty PAGER: none"
PAGER=cat tty d replay -d "$W/p"
paged d | add
grep -c 'main() {' "$W/d" | add
PAGER= tty d2 replay -d "$W/p"
grep -c 'main() {' "$W/d2" | add
section "stdout not a terminal: not paged"
PAGER='sed s/^/P:/' guard "$CT" replay -d "$W/p" >"$W/e" 2>&1
paged e | add
section "report, graph, callers, coverage page too"
# (as many lines as the view writes into a file: how many depends on the
# recording, e.g. report's and graph's note on calls marked * as mostly
# the tracer's cost)
for v in report graph callers coverage; do
	PAGER='sed s/^/P:/' tty f $v -d "$W/p"
	_p=$(grep -c '^P:' "$W/f")
	_n=$("$CT" $v -d "$W/p" 2>/dev/null | wc -l)
	echo "$v: exit $RC, $([ "$_p" -eq "$_n" ] && [ "$_n" -gt 0 ] && echo "all its lines" ||
		echo "$_p of its $_n lines") paged (P), $(grep -c '^C:' "$W/f") (C)" | add
done
section "a pager that quits early: exit 0, no message"
PAGER='head -n 2' tty g replay -d "$W/big"
echo "exit $RC" | add
cat "$W/g" | normalize | sed 's/^[0-9.]* [mun]*s //' | add

section "killed while paging (^C, SIGTERM): the pager's end is waited for"
# the pager says it started, then reads nothing until replay has been sent
# SIGTERM (the file pager.go: an order of events, not a sleep, so that a
# slow machine cannot let it read everything first); replay, blocked on the
# pipe, gets SIGTERM and must not die before the pager ends (else the
# shell would take the terminal back from under it).  The shell's own
# "Terminated" job report (dash prints one, bash does not) is not ours: the
# wait's stderr is dropped, and SHELL pinned so that script(1) runs /bin/sh.
rm -f "$W/pager.started" "$W/pager.go" "$W/pager.done"
PAGER="trap '' INT TERM; : >'$W/pager.started'; while [ ! -f '$W/pager.go' ]; do sleep 0.1; done
	cat >/dev/null; : >'$W/pager.done'" \
	SHELL=/bin/sh guard script -qec "$CT replay -d '$W/big' & p=\$!
		while [ ! -f '$W/pager.started' ]; do sleep 0.1; done
		kill -TERM \$p; : >'$W/pager.go'; wait \$p 2>/dev/null; echo \"exit \$?\"
		test -f '$W/pager.done' && echo waited || echo 'not waited'" \
	/dev/null </dev/null 2>&1 | tr -d '\r' | add

section "colour: durations of 1 ms and more (slow: 30 ms)"
tty h replay -d "$W/p" --no-pager
colours h | add
grep "slow" "$W/h" | sed "s/$ESC\[[0-9;]*m *[0-9.]* m*s$ESC\[0m/<colour>DUR<end>/" | normalize | add
section "--color=never on a terminal"
tty i replay -d "$W/p" --no-pager --color=never
colours i | add
section "NO_COLOR=1 on a terminal"
NO_COLOR=1 tty j replay -d "$W/p" --no-pager
colours j | add
section "NO_COLOR empty on a terminal: colour"
NO_COLOR= tty k replay -d "$W/p" --no-pager
colours k | add
section "TERM=dumb on a terminal"
TERM=dumb tty l replay -d "$W/p" --no-pager
colours l | add
section "NO_COLOR=1 --color=always"
NO_COLOR=1 tty m replay -d "$W/p" --no-pager --color=always
colours m | add
section "not a terminal: none; --color=always: colour"
guard "$CT" replay -d "$W/p" >"$W/n" 2>&1
colours n | add
guard "$CT" replay -d "$W/p" --color=always >"$W/o" 2>&1
colours o | add
section "the pager gets the colours"
PAGER='sed s/^/P:/' tty q replay -d "$W/p"
grep -q "^P:.*$ESC\[" "$W/q" && echo "coloured" | add
section "--color=bad"
guard "$CT" replay -d "$W/p" --color=bad >/dev/null 2>"$W/r.err"
echo "exit $RC: $(head -n 1 "$W/r.err")" | add

section "export --format=perfetto to a terminal: refused"
tty s export -d "$W/p" --format=perfetto
echo "exit $RC" | add
cat "$W/s" | add
section "export --format=perfetto -o FILE on a terminal, and to a pipe"
tty t export -d "$W/p" --format=perfetto -o "$W/t.pb"
echo "exit $RC, $(test -s "$W/t.pb" && echo written)" | add
guard "$CT" export -d "$W/p" --format=perfetto 2>/dev/null | wc -c | awk '{ print ($1 > 0) ? "piped" : "empty" }' | add
