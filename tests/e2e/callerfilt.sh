# -C/--caller-filter on every view (issue 30): only the calls that lead to
# a function matching the regex, that call as a leaf (target's leaf goes)
# and its callers up to the root; composed with -F, -N, -D, --tid and a
# second -C; -C matching nothing, or nothing the other filters show, exits
# 1 with a message; a bad regex exits 2 (tests/e2e/callerfilt.c).
# variants: all
# aarch64: yes patch
build callerfilt "$E2E/callerfilt.c"
record d ./callerfilt
want_rc "record ./callerfilt" $RC 0 "$W/d.err"
section "replay -C '^target\$' (threads merged: the thread runs inside pthread_join)"
ct replay d --no-duration -C '^target$' | normalize | add
section "replay --caller-filter=target --per-thread"
ct replay d --no-duration --caller-filter=target --per-thread | normalize | add
# the thread's tid: the second thread of the per-thread replay
tid=$("$CT" replay -d "$W/d" --per-thread --no-duration | sed -n 's/^# thread \([0-9]*\) .*/\1/p' | sed -n 2p)
[ -n "$tid" ] || fail "no second thread in replay --per-thread"
section "replay -C target --tid (the thread's)"
ct replay d --no-duration -C target --tid "$tid" | normalize | add
section "replay -C target -F '^via\$'"
ct replay d --no-duration -C target -F '^via$' | normalize | add
section "replay -C target -N '^deep\$'"
ct replay d --no-duration -C target -N '^deep$' | normalize | add
section "replay -C target -D 3"
ct replay d --no-duration -C target -D 3 | normalize | add
section "replay -C '^target\$' -C '^miss\$'"
ct replay d --no-duration -C '^target$' -C '^miss$' | normalize | add
section "report -C target: functions and calls"
ct report d -C target --format=csv | csv_calls | add
section "graph --no-time -C target"
ct graph d --no-time -C target | add
section "graph --no-time -C target via"
ct graph d --no-time -C target via | add
section "callers --no-time -C target"
ct callers d --no-time -C target | add
section "coverage -C target: the functions called"
ct coverage d -C target >"$W/cov.txt"
sed "s|/[^ ]*/callerfilt|callerfilt|" "$W/cov.txt" | add
section "export --format=folded -C target (times dropped)"
ct export d --format=folded -C target -o - | sed 's/ [0-9]*$//' | LC_ALL=C sort | add
section "bad input"
for a in "-C nosuch" "-C target -D 2" "-C target -N ^via$" "-C (" "--caller-filter"; do
	for v in replay report graph callers coverage export; do
		set -- $a
		[ $v = export ] && set -- --format=folded -o "$W/x.folded" "$@"
		guard "$CT" $v -d "$W/d" "$@" >/dev/null 2>"$W/bad.err"
		echo "$v $a: exit $RC $(head -n 1 "$W/bad.err")" | add
	done
done
golden
