# The program's own calls (include/calltrace/calltrace.h): calltrace_mark()
# shows in replay and as instant events in the exports; calltrace_snapshot()
# under record --flight writes DIR/snapshot.1/ before it returns.  Without
# calltrace the program runs the same, and without --flight the snapshot
# is a mark.
# variants: all
# aarch64: yes patch
# front-ends: few
build flight "$E2E/flight.c" -I"$TOP/include"
section "without calltrace"
$EMU ./flight api >/dev/null 2>&1
echo "exit $?" | add
record d --flight=64K ./flight api
want_rc "record --flight ./flight api" $RC 0 "$W/d.err"
section "snapshot.1: replay without work()"
ct replay d/snapshot.1 --no-duration | grep -v 'work()' | normalize | add
section "snapshot.1: info"
grep -E '^(snapshot|snapshot_reason):' "$W/d/snapshot.1/info" | add
section "the end: replay without work()"
ct replay d --no-duration | grep -v 'work()' | normalize | add
record n ./flight api
want_rc "record ./flight api" $RC 0 "$W/n.err"
section "normal recording: replay without work()"
ct replay n --no-duration | grep -v 'work()' | normalize | add
section "normal recording: no snapshot directory"
ls "$W/n" | grep -c '^snapshot' | add
section "export chrome: instant events"
ct export n --format=chrome | grep '"ph":"i"' | sed 's/"ts":[0-9.]*,"pid":[0-9]*,"tid":[0-9]*/TS/' | add
section "export perfetto: the marks' texts"
ct export n --format=perfetto -o "$W/n.pb"
for m in 'before the snapshot, i=42' 'snapshot: checkpoint' 'after it'; do
	if grep -qa "$m" "$W/n.pb"; then echo "$m: there"; else echo "$m: missing"; fi
done | add
