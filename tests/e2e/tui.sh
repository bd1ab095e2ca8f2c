# tui: calltrace tui driven by tmux (a detached session of 100x30 on a
# socket of its own): the graph view folded and unfolded (Enter, +, -,
# Right) with graph's rows and numbers, the report view with report's and
# its sort keys (1..7, s, S), the callers view of a function found by /
# with callers' edges, Enter to a callee's and b back, l (the source line),
# n and a search that finds nothing, the help, q; a terminal too small (a
# message, then the views once enlarged); not a terminal and a bad
# recording (one line, exit 2).  Each step waits for its screen by polling
# capture-pane (the hang guard's bound).  Skipped without tmux.
# variants: one
if ! command -v tmux >/dev/null 2>&1; then
	echo "tui: skipped: no tmux" >>"$W/skipped"
	exit 0
fi
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

TMUX_SOCK=$W/tmux.sock
tm() { tmux -S "$TMUX_SOCK" "$@"; }
# start NAME COLS LINES CMD: CMD in a detached session started in $W (the
# recording named relative to it: the status line holds its path, which
# a checkout at a long path would cut at 100 columns); its exit status
# goes to $W/NAME.rc when it ends
start() {
	_n=$1 _x=$2 _y=$3; shift 3
	rm -f "$W/$_n.rc"
	tm new-session -d -s "$_n" -x "$_x" -y "$_y" -c "$W" \
		"TERM=xterm $*; echo \$? >'$W/$_n.rc'; sleep 1000" ||
		die "tmux new-session failed"
}
# screen NAME: the pane's text
screen() { tm capture-pane -p -t "$1" 2>/dev/null; }
# wait_for NAME ERE: poll the pane until a line matches
wait_for() {
	_i=0
	while ! screen "$1" | grep -qE -- "$2"; do
		_i=$((_i + 1))
		if [ $_i -ge "$CT_POLLS" ]; then
			fail "tui: the screen never showed '$2': $(screen "$1" | tr -s ' \n' ' |')"
			return 1
		fi
		sleep 0.1
	done
}
# wait_rc NAME: poll until the command in session NAME has ended; RC
wait_rc() {
	_i=0
	while [ ! -s "$W/$1.rc" ]; do
		_i=$((_i + 1))
		[ $_i -ge "$CT_POLLS" ] && { fail "tui: $1 never ended"; RC=-1; return 1; }
		sleep 0.1
	done
	RC=$(cat "$W/$1.rc")
}
# keys NAME KEY...: tmux send-keys
keys() { _n=$1; shift; tm send-keys -t "$_n" "$@"; }
# norm: durations to TIME, the work dir to W, the tracer's cost marks
# (they depend on the times) and blank lines out, blanks squeezed
norm() {
	sed -E -e "s#$W#W#g" -e 's/[0-9]+\.[0-9]{3} +(ns|us|ms|s)/TIME/g' -e 's/ \*$//' \
		-e 's/ +\?:help q:quit *$//' \
		-e 's/[[:space:]]+$//' -e 's/^ +//' -e 's/ +/ /g' -e '/^$/d'
}
# body: the rows of the view (no header, status or message line)
body() { screen "$1" | sed -e '1d' | head -n -2 | sed -e '/^ *$/d'; }

T="$CT tui -d d"
start s 100 30 "$T"
section "graph view: the outermost call, folded"
wait_for s '\[graph\]  main  1/1( |$)' && screen s | norm | add

section "+ unfolds all: graph's tree, rows and numbers (sorted: the order depends on times)"
keys s +
wait_for s '\[graph\]  main  1/9( |$)'
# the rows are graph's, fold marks (column 37) aside
body s | sed -e 's/^\(.\{36\}\)[-+ ] /\1/' -e 's/[[:space:]]*$//' >"$W/tui.graph"
ct graph d --no-pager | sed -e '1,2d' -e '/^\* mostly/d' -e 's/[[:space:]]*$//' >"$W/graph.txt"
cmp -s "$W/tui.graph" "$W/graph.txt" ||
	fail "tui's graph view is not graph's: $(diff "$W/graph.txt" "$W/tui.graph" | tr '\n' '|')"
screen s | norm | LC_ALL=C sort | add

section "/middle then Enter folds it"
keys s / m i d d l e Enter
wait_for s '\[graph\]  middle  [0-9]+/9( |$)'
keys s Enter
wait_for s '\[graph\]  middle  [0-9]+/6( |$)' && body s | norm | LC_ALL=C sort | add
section "space unfolds it again"
keys s Space
wait_for s '\[graph\]  middle  [0-9]+/9( |$)' && echo "9 rows" | add
section "- folds all (the selection goes to the outermost call), Right unfolds main"
keys s -
wait_for s '\[graph\]  main  1/1( |$)' && body s | norm | add
keys s Right
wait_for s '\[graph\]  main  1/3( |$)' && body s | norm | LC_ALL=C sort | add

section "r: report's rows and numbers (sorted: the order depends on times)"
keys s r
wait_for s '\[report, by total\]'
body s | sed -e 's/[[:space:]]*$//' >"$W/tui.report"
ct report d --no-pager | sed -e '1,2d' -e '/^\* mostly/d' -e '/^$/,$d' -e 's/[[:space:]]*$//' >"$W/report.txt"
cmp -s "$W/tui.report" "$W/report.txt" ||
	fail "tui's report view is not report's: $(diff "$W/report.txt" "$W/tui.report" | tr '\n' '|')"
screen s | norm | LC_ALL=C sort | add
section "3: by calls (report -s calls)"
keys s 3
wait_for s '\[report, by calls\]' && screen s | norm | add
body s | sed -e 's/[[:space:]]*$//' >"$W/tui.calls"
ct report d --no-pager -s calls | sed -e '1,2d' -e '/^\* mostly/d' -e '/^$/,$d' \
	-e 's/[[:space:]]*$//' >"$W/calls.txt"
cmp -s "$W/tui.calls" "$W/calls.txt" ||
	fail "tui by calls is not report -s calls: $(diff "$W/calls.txt" "$W/tui.calls" | tr '\n' '|')"
section "s: the next column (avg), S: the one before (calls), 7: name"
keys s s
wait_for s '\[report, by avg\]' && echo "by avg" | add
keys s S
wait_for s '\[report, by calls\]' && echo "by calls" | add
keys s 7
wait_for s '\[report, by name\]' && body s | norm | add

section "/lea, c: the callers and callees of leaf (callers' edges)"
keys s / l e a Enter
wait_for s '\[report, by name\]  leaf  2/6( |$)'
keys s c
wait_for s '\[callers of leaf\]' && body s | norm | LC_ALL=C sort | add
# callers' own lines: time, calls and name of each edge
ct callers d --no-pager leaf | sed -e '1,2d' | norm | sed -e 's/^TIME //' | LC_ALL=C sort >"$W/callers.txt"
body s | norm | sed -e 's/^TIME //' -e 's/[<>] //' | LC_ALL=C sort >"$W/tui.callers"
cmp -s "$W/tui.callers" "$W/callers.txt" ||
	fail "tui's callers of leaf are not callers': $(diff "$W/callers.txt" "$W/tui.callers" | tr '\n' '|')"
section "/loop, Enter: loop's callers and callees; b: back to leaf"
keys s / l o o p Enter
wait_for s '\[callers of leaf\]  loop( |$)'
keys s Enter
wait_for s '\[callers of loop\]  loop  2/3( |$)' && body s | norm | add
keys s b
wait_for s '\[callers of leaf\]  leaf( |$)' && echo "back to leaf" | add
section "l: the source line"
keys s l
wait_for s '^leaf:( |$)' && screen s | tail -n 1 | norm | add
section "a search that finds nothing"
keys s / n o s u c h Enter
wait_for s 'not found' && screen s | tail -n 1 | norm | add
section "g, +, /leaf, n: the next leaf in the graph, N: back to the first"
keys s g +
wait_for s '\[graph\]  main  1/9( |$)'
keys s / l e a f Enter
wait_for s '\[graph\]  leaf  [0-9]+/9( |$)'
p1=$(screen s | sed -n 's/.*\[graph\]  leaf  \([0-9]*\)\/9.*/\1/p')
keys s n
_i=0
while :; do
	p2=$(screen s | sed -n 's/.*\[graph\]  leaf  \([0-9]*\)\/9.*/\1/p')
	[ -n "$p2" ] && [ "$p2" != "$p1" ] && break
	_i=$((_i + 1))
	[ $_i -ge "$CT_POLLS" ] && { fail "tui: n found no other leaf"; break; }
	sleep 0.1
done
[ -n "$p2" ] && [ "$p2" -gt "$p1" ] && echo "n: a leaf further down" | add
keys s N
wait_for s "\\[graph\\]  leaf  $p1/9( |\$)" && echo "N: the first leaf again" | add
section "? the help, any key back"
keys s '?'
wait_for s 'keys of calltrace tui' && screen s | norm | sed -n '1,4p' | add
keys s x
wait_for s '\[graph\]  leaf( |$)' && echo "back to the graph" | add
section "q quits, exit 0"
keys s q
wait_rc s && echo "exit $RC" | add

section "-F ^middle\$ --hide ^inner\$: graph's and report's rows with the same filters"
start f 100 30 "$T -F '^middle\$' --hide '^inner\$'"
wait_for f '\[graph\]  middle  1/1( |$)'
keys f +
wait_for f '\[graph\]  middle  1/2( |$)'
body f | sed -e 's/^\(.\{36\}\)[-+ ] /\1/' -e 's/[[:space:]]*$//' >"$W/tui.graphf"
ct graph d --no-pager -F '^middle$' --hide '^inner$' | sed -e '1,2d' -e '/^\* mostly/d' \
	-e 's/[[:space:]]*$//' >"$W/graphf.txt"
cmp -s "$W/tui.graphf" "$W/graphf.txt" ||
	fail "tui -F's graph view is not graph -F's: $(diff "$W/graphf.txt" "$W/tui.graphf" | tr '\n' '|')"
body f | norm | add
keys f r 3
wait_for f '\[report, by calls\]'
body f | sed -e 's/[[:space:]]*$//' >"$W/tui.reportf"
ct report d --no-pager -s calls -F '^middle$' --hide '^inner$' | sed -e '1,2d' -e '/^\* mostly/d' \
	-e '/^$/,$d' -e 's/[[:space:]]*$//' >"$W/reportf.txt"
cmp -s "$W/tui.reportf" "$W/reportf.txt" ||
	fail "tui -F's report view is not report -F's: $(diff "$W/reportf.txt" "$W/tui.reportf" | tr '\n' '|')"
body f | norm | add
keys f q
wait_rc f && echo "exit $RC" | add

section "a terminal too small: a message; enlarged: the views"
start small 40 8 "$T"
wait_for small 'terminal too small' && screen small | norm | add
tm resize-window -t small -x 100 -y 30
wait_for small '\[graph\]  main  1/1( |$)' && echo "redrawn at 100x30" | add
keys small q
wait_rc small && echo "exit $RC" | add

section "a bad recording (no info file): the reader's message, exit 2"
mkdir -p "$W/empty"
start bad 100 30 "$CT tui -d '$W/empty' 2>'$W/bad.err'"
wait_rc bad && echo "exit $RC" | add
norm <"$W/bad.err" | add
tm kill-server 2>/dev/null

section "not a terminal: one line, exit 2"
guard "$CT" tui -d "$W/d" </dev/null >"$W/nt.out" 2>"$W/nt.err"
echo "exit $RC, stdout $(wc -c <"$W/nt.out" | tr -d ' ') bytes" | add
norm <"$W/nt.err" | add
section "--help"
guard "$CT" tui --help >"$W/help.out" 2>&1
echo "exit $RC" | add
head -n 1 "$W/help.out" | add
