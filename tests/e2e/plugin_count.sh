# plugin_count: record --plugin with the call counter (plugins/count.c,
# doc/plugins.md) in every front end: its counts are the recording's own
# (report's), with --plugin-filter only the functions selected, in a forked
# child its own; bad --plugin options are usage errors before anything runs.
# variants: all
# front-ends: all
build plugin "$E2E/plugprog.c"
PL=$TOP/build/plugins
[ -f "$PL/count.so" ] || die "no $PL/count.so (make all builds the plugins)"

# the counts of a count.so output file, "NAME CALLS" sorted by name
counts() { grep -v '^#' "$1" | awk '{ print $2, $1 }' | LC_ALL=C sort; }

section "--plugin-filter: only the functions selected"
record f --plugin="$PL/count.so:out=$W/f.counts" --plugin-filter='^(leaf|mid|outer)$' \
	--plugin-filter='^slow$' ./plugin
want_rc "record --plugin count.so ./plugin" $RC 0 "$W/f.err"
add <"$W/f.out"
counts "$W/f.counts" | add
sed -n 's/^# calltrace count: pid [0-9]*, /# /p' "$W/f.counts" | add

section "every function: the plugin counts what the recording has"
record a --plugin="$PL/count.so:out=$W/a.counts" ./plugin
want_rc "record --plugin count.so ./plugin" $RC 0 "$W/a.err"
counts "$W/a.counts" | awk '{ print $1 "," $2 }' >"$W/a.plugin"
ct report a --format=csv | csv_calls >"$W/a.report"
if cmp -s "$W/a.plugin" "$W/a.report"; then
	echo "same counts as report" | add
else
	fail "count.so and report differ: $(diff "$W/a.report" "$W/a.plugin" | head -8 | tr '\n' '|')"
fi

section "fork: each process prints its own counts"
record k --plugin="$PL/count.so:out=$W/k.%p.counts" --plugin-filter='^(leaf|mid)$' ./plugin fork
want_rc "record --plugin count.so ./plugin fork" $RC 0 "$W/k.err"
for f in "$W"/k.*.counts; do
	counts "$f" | tr '\n' ' '
	echo
done | LC_ALL=C sort | add

section "calls made inside a callback are not traced; the tree is the plain one"
record p ./plugin
ct replay f --no-duration --per-thread | normalize_threads >"$W/f.tree"
ct replay p --no-duration --per-thread | normalize_threads >"$W/p.tree"
cmp -s "$W/f.tree" "$W/p.tree" && echo "same tree as without the plugin" | add ||
	fail "the tree with the plugin differs: $(diff "$W/p.tree" "$W/f.tree" | head -8 | tr '\n' '|')"

section "bad options: usage errors, the program not run"
printf 'not ELF\n' >"$W/notelf.so"
printf 'int x;\n' >"$W/empty.c"
gcc -shared -fPIC -o "$W/empty.so" "$W/empty.c" || fail "cannot build empty.so"
for o in "--plugin=$W/none.so" "--plugin=:x" "--plugin=$W/notelf.so" "--plugin=$W/empty.so" \
	"--plugin-filter=x" "--plugin=$PL/count.so --plugin-filter=(" \
	"--plugin=$PL/count.so --plugin=$PL/count.so" "--plugin=$PL/count.so --count" \
	"--plugin=$PL/count.so -F mid"; do
	# shellcheck disable=SC2086
	record bad $o ./plugin
	echo "record $o: exit $RC" | sed "s|$W/||g; s|$PL/||g" | add
	sed "s|$W/||g; s|$PL/||g" "$W/bad.err" | add
	[ -s "$W/bad.out" ] && fail "record $o ran the program"
	rm -rf "$W/bad" "$W/bad.old"
done

section "a plugin whose init refuses: the program runs, traced, without it"
record r --plugin="$PL/count.so:bogus" ./plugin
want_rc "record --plugin count.so:bogus ./plugin" $RC 0 "$W/r.err"
add <"$W/r.out"
grep -c 'calltrace_plugin_init refused' "$W/r.err" | add
