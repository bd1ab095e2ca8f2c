# replay --column-view, --column-offset=DEPTH and --task-newline (issue 30,
# uftrace replay's spelling): each thread's tree shifted right by its
# column (threads numbered in the order of their first line) times DEPTH
# levels; an empty line where the thread changes; with -F, -C, -f none,
# --per-thread; a bad DEPTH exits 2.  The program of callerfilt: a thread
# that main creates and joins, so its lines come in one place of the
# merged tree whatever the timing (tests/e2e/callerfilt.c).
# variants: all
build callerfilt "$E2E/callerfilt.c"
record d ./callerfilt
want_rc "record ./callerfilt" $RC 0 "$W/d.err"
section "replay --column-view"
ct replay d --no-duration --column-view | normalize | add
section "replay --column-view --column-offset=2"
ct replay d --no-duration --column-view --column-offset=2 | normalize | add
section "replay --task-newline"
ct replay d --no-duration --task-newline | normalize | add
section "replay --column-view --column-offset=1 --task-newline -F via"
ct replay d --no-duration --column-view --column-offset=1 --task-newline -F via | normalize | add
section "replay --column-view --column-offset=3 -C target -f none"
ct replay d -f none --column-view --column-offset=3 -C target | add
section "replay --column-view --column-offset=0: no shift"
ct replay d --no-duration --column-view --column-offset=0 | normalize >"$W/c0"
ct replay d --no-duration | normalize >"$W/plain"
cmp -s "$W/c0" "$W/plain" && echo "the same as without it" | add || diff "$W/plain" "$W/c0" | add
section "replay --per-thread --column-view --column-offset=1 --task-newline"
ct replay d --no-duration --per-thread --column-view --column-offset=1 --task-newline |
	normalize_threads | add
section "replay --column-view --column-offset=1 with durations (replaced)"
ct replay d --column-view --column-offset=1 | sed -E 's/[0-9]+\.[0-9]+ (ns|us|ms|s)/DUR/' |
	normalize | add
section "bad input"
for a in "--column-offset=x" "--column-offset=-1" "--column-offset=257" "--column-offset"; do
	guard "$CT" replay -d "$W/d" --column-view $a >/dev/null 2>"$W/bad.err"
	echo "replay $a: exit $RC $(head -n 1 "$W/bad.err")" | add
done
golden
