# A timeline export that will pass what its viewers open is said so before
# it is written (issue 13's item 8): chrome over 1 M calls or ~500 MB,
# perfetto over ~1 GB; a small one says nothing.
# variants: one
build bigexport "$E2E/bigexport.c"
record small ./bigexport 1000
want_rc "record small" $RC 0 "$W/small.err"
record big ./bigexport 1200000
want_rc "record big" $RC 0 "$W/big.err"
section "small: chrome"
ct export small --format=chrome -o "$W/s.json"
grep -c 'warning' "$W/last.err" | add
section "big: chrome, narrowed to a tiny range (the estimate is an upper bound)"
ct_empty export big --format=chrome -r 0~1us -o "$W/b.json"
grep -v 'no call in the range' "$W/last.err" |
	sed 's/up to [0-9]* calls, about [0-9]* MB/up to N calls, about M MB/' | add
section "big: perfetto (under its limit)"
ct_empty export big --format=perfetto -r 0~1us -o "$W/b.pftrace"
grep -c 'warning' "$W/last.err" | add
