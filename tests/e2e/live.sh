# calltrace live: the call tree while the program runs (the streaming is
# shown by live_stream); the temporary recording is removed, -d keeps one,
# and the tree is that of replay of the same recording; bad options;
# `calltrace ./prog` says what to type.
# variants: one
# aarch64: yes patch
# front-ends: few
build basic "$E2E/basic.c"
build threads "$E2E/threads.c"
mkdir -p "$W/tmp"
# durations out, and a leaf's one line as its entry and exit: live shows a
# call as a leaf only when its exit comes within the delay
tree() {
	sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' |
	awk '/^\[.*\] \|.*[^ ]\(\);$/ { l = $0; sub(/\(\);$/, "() {", l); print l
		n = $0; sub(/^.*\| */, "", n); sub(/\(\);$/, "", n)
		p = $0; sub(/\|.*$/, "| ", p); ind = $0; sub(/^[^|]*\| /, "", ind)
		sub(/[^ ].*$/, "", ind); print p ind "} /* " n " */"; next } { print }'
}
section "live ./basic: the program's output and the tree on stdout"
TMPDIR="$W/tmp" guard "$CT" live -q ./basic >"$W/l.out" 2>"$W/l.err"
echo "exit $RC" | add
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/l.out" | grep -v '^basic 10$' | normalize | add
grep -c '^basic 10$' "$W/l.out" | add
section "the temporary recording is gone"
ls "$W/tmp" | wc -l | add
section "the summary does not name the temporary directory it removed"
TMPDIR="$W/tmp" guard "$CT" live ./basic >"$W/s.out" 2>"$W/s.err"
echo "exit $RC" | add
grep -q "$W/tmp" "$W/s.err" && fail "live's summary names its removed directory: $(grep "$W/tmp" "$W/s.err")"
grep -o 'in a temporary directory, removed at the end' "$W/s.err" | add
section "live --output=- is the standard output"
TMPDIR="$W/tmp" guard "$CT" live -q --output=- ./basic >"$W/d.out" 2>"$W/d.err"
echo "exit $RC" | add
[ -e "$W/-" ] && fail "live --output=-: wrote a file named -"
grep -q 'middle' "$W/d.out" || fail "live --output=-: no tree on stdout"
section "live -F middle -d kept --output=FILE ./basic"
TMPDIR="$W/tmp" guard "$CT" live -q -F middle -d "$W/kept" --output="$W/k.tree" ./basic \
	>"$W/k.out" 2>"$W/k.err"
echo "exit $RC" | add
add <"$W/k.out"
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/k.tree" | normalize | add
[ -f "$W/kept/info" ] && echo "kept: info" | add
section "record's options whose argument is the next word (from its own table)"
guard "$CT" live -q --plugin "$TOP/${CT_BUILD:-build}/plugins/count.so" --plugin-filter middle \
	-d "$W/pl" --output="$W/pl.tree" ./basic >"$W/pl.out" 2>"$W/pl.err"
echo "exit $RC" | add
[ -f "$W/pl/info" ] && echo "kept: info" | add
section "live -d t ./threads: each thread's calls as replay shows them"
guard "$CT" live -q -d "$W/t" --output="$W/t.tree" ./threads >"$W/t.out" 2>"$W/t.err"
echo "exit $RC" | add
ct replay t >"$W/t.replay"
# per thread (its lines in order, threads by id), times out, leaves split
tree <"$W/t.tree" | grep '^\[' | LC_ALL=C sort -s -t'|' -k1,1 >"$W/t.live.n"
tree <"$W/t.replay" | grep '^\[' | LC_ALL=C sort -s -t'|' -k1,1 >"$W/t.replay.n"
if cmp -s "$W/t.live.n" "$W/t.replay.n"; then
	echo "the same" | add
else
	echo "they differ:" | add
	diff "$W/t.replay.n" "$W/t.live.n" | head -20 | add
fi
echo "threads: $(cut -d'|' -f1 "$W/t.live.n" | sort -u | wc -l)," \
	"lines: $(wc -l <"$W/t.live.n")" | add
# the threads' lines in time order, each where its event happened, a leaf
# when its exit is the next event of any thread (tests/e2e/timeorder.c):
# with a delay longer than the run, every event is given at the end, in
# time order, and the tree is replay's, line for line
build timeorder "$E2E/timeorder.c"
section "live --delay=1h -d o ./timeorder: the lines of replay, in time order"
guard "$CT" live -q --delay=1h -d "$W/o" --output="$W/o.tree" ./timeorder >"$W/o.out" 2>"$W/o.err"
echo "exit $RC" | add
ct replay o >"$W/o.replay"
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/o.tree" | normalize | tee "$W/o.live.n" | add
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/o.replay" | normalize >"$W/o.replay.n"
cmp -s "$W/o.live.n" "$W/o.replay.n" ||
	fail "live and replay differ: $(diff "$W/o.replay.n" "$W/o.live.n" | head -8 | tr '\n' '|')"
section "bad options"
guard "$CT" live --delay=soon ./basic >/dev/null 2>"$W/e1"
echo "exit $RC: $(cat "$W/e1")" | add
guard "$CT" live --delay ./basic >/dev/null 2>"$W/e2"
echo "exit $RC: $(cat "$W/e2")" | add
guard "$CT" live --output="$W/nodir/x" ./basic >/dev/null 2>"$W/e3"
echo "exit $RC: $(sed "s|$W|W|" "$W/e3")" | add
guard "$CT" live --flight ./basic >/dev/null 2>"$W/e4"
echo "exit $RC: $(cat "$W/e4")" | add
guard "$CT" live --demangle=odd ./basic >/dev/null 2>"$W/e5"
echo "exit $RC: $(cat "$W/e5")" | add
section "calltrace ./basic"
guard "$CT" ./basic >/dev/null 2>"$W/p.err"
echo "exit $RC: $(cat "$W/p.err")" | add
section "live --help"
guard "$CT" live --help >/dev/null 2>&1
echo "exit $RC" | add
