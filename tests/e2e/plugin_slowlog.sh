# plugin_slowlog: the slow-call logger (plugins/slowlog.c, doc/plugins.md):
# the calls longer than the threshold with their call stacks, written while
# the program runs (before its own "after outer"), names from record's
# table also for functions the filter leaves out.
# Which calls are slow is the machine's say: slow() sleeps 30 ms, so it and
# its callers always are, but on a busy machine any call may wait that long
# for a CPU (the worker thread did).  So the log is checked against the
# recording of the same run: it names exactly the calls whose recorded
# duration is at least the threshold (the plugin's clock is the
# recording's), and the golden file holds the entries of slow, outer and
# main only.
# variants: all
# front-ends: few
build plugin "$E2E/plugprog.c"
PL=$TOP/build/plugins
# the log lines and the program's, durations and ids out; the entries
# (with their stacks) of functions other than slow, outer and main left out
norm() {
	awk '/^slow call: / { keep = $3 == "slow" || $3 == "outer" || $3 == "main" }
	     /^slow call: / || /^    (called from |\.\.\.)/ { if (keep) print; next }
	     { print }' |
		sed 's/took [0-9]*\.[0-9]* ms (pid [0-9]*, thread [0-9]*)/took N ms/'
}
# same_calls LOG D THRESHOLD_NS [FUNCTION]: the log's entries against the
# recording D's calls of at least THRESHOLD_NS (of FUNCTION only, when the
# plugin had a filter): the same calls, thread by thread
same_calls() {
	ct export "$2" --format=chrome -o "$W/$2.json" || return
	_bad=$(python3 - "$1" "$W/$2.json" "$3" "${4:-}" 2>>"$W/figures" <<'PY'
import collections, json, re, sys
log, trace, thr, only = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
logged = collections.Counter()
for line in open(log):
    m = re.match(r"slow call: (\S+) took ([0-9.]+) ms \(pid \d+, thread (\d+)\)$", line)
    if m:
        logged[(m.group(1), int(m.group(3)))] += 1
        if float(m.group(2)) * 1e6 < thr - 1000:
            print("logged below the threshold: " + line.strip())
# chrome's dur: us on the recorded clock, which the plugin's is (it sees the
# recorded entry and exit times; less its own work inside the call): a call
# less than 1 ms over the threshold may be logged or not
long, either = collections.Counter(), collections.Counter()
for e in json.load(open(trace))["traceEvents"]:
    if e.get("ph") != "X" or (only and e["name"] != only):
        continue
    ns = e["dur"] * 1000
    if ns >= thr + 1000000:
        long[(e["name"], e["tid"])] += 1
    elif ns >= thr - 1000:
        either[(e["name"], e["tid"])] += 1
for k in sorted(set(logged) | set(long) | set(either)):
    ok = long[k] <= logged[k] <= long[k] + either[k]
    print("%s: %s in thread %d: logged %d times; in the recording %d calls of the threshold or more, %d near it"
          % (log, k[0], k[1], logged[k], long[k], either[k]), file=sys.stderr)
    if not ok:
        print("%s in thread %d: logged %d times; in the recording %d calls of the threshold or more, %d near it"
              % (k[0], k[1], logged[k], long[k], either[k]))
PY
)
	if [ -n "$_bad" ] || [ ! -s "$W/$2.json" ]; then
		fail "${1##*/} does not list the calls of $3 ns or more that the recording has: $(echo "$_bad" | head -5 | tr '\n' '|')"
		echo "not the calls of the recording"
	else
		echo "the calls of the threshold or more in the recording, and no other"
	fi
}

section "threshold=10ms, every function"
record d -q --plugin="$PL/slowlog.so:threshold=10ms" ./plugin
want_rc "record --plugin slowlog.so ./plugin" $RC 0 "$W/d.err"
add <"$W/d.out"
norm <"$W/d.err" | add
same_calls "$W/d.err" d 10000000 | add

section "threshold=10ms, --plugin-filter '^slow\$', out=FILE: the stack still named"
record f -q --plugin="$PL/slowlog.so:threshold=10ms,out=$W/f.log" --plugin-filter='^slow$' ./plugin
want_rc "record --plugin slowlog.so ./plugin" $RC 0 "$W/f.err"
norm <"$W/f.log" | add
same_calls "$W/f.log" f 10000000 slow | add

section "threshold=1s: the calls of 1 s or more (none, unless the machine stalled)"
record s -q --plugin="$PL/slowlog.so:threshold=1s,out=$W/s.log" ./plugin
want_rc "record --plugin slowlog.so ./plugin" $RC 0 "$W/s.err"
same_calls "$W/s.log" s 1000000000 | add

section "a bad ARGS word: said, the plugin not used, the program traced"
record b --plugin="$PL/slowlog.so:threshold=soon" ./plugin
echo "exit $RC" | add
grep -o "calltrace slowlog plugin: .*" "$W/b.err" | add
grep -c "calltrace_plugin_init refused" "$W/b.err" | add
