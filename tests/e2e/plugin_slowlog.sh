# plugin_slowlog: the slow-call logger (plugins/slowlog.c, doc/plugins.md):
# the calls longer than the threshold with their call stacks, written while
# the program runs (before its own "after outer"), names from record's
# table also for functions the filter leaves out.
# variants: all
# front-ends: few
build plugin "$E2E/plugprog.c"
PL=$TOP/build/plugins
# the log lines and the program's, durations and ids out
norm() { sed 's/took [0-9]*\.[0-9]* ms (pid [0-9]*, thread [0-9]*)/took N ms/'; }

section "threshold=10ms, every function"
record d -q --plugin="$PL/slowlog.so:threshold=10ms" ./plugin
want_rc "record --plugin slowlog.so ./plugin" $RC 0 "$W/d.err"
add <"$W/d.out"
norm <"$W/d.err" | add

section "threshold=10ms, --plugin-filter '^slow\$', out=FILE: the stack still named"
record f -q --plugin="$PL/slowlog.so:threshold=10ms,out=$W/f.log" --plugin-filter='^slow$' ./plugin
want_rc "record --plugin slowlog.so ./plugin" $RC 0 "$W/f.err"
norm <"$W/f.log" | add

section "threshold=1s: nothing"
record s -q --plugin="$PL/slowlog.so:threshold=1s,out=$W/s.log" ./plugin
wc -c <"$W/s.log" | add

section "a bad ARGS word: said, the plugin not used, the program traced"
record b --plugin="$PL/slowlog.so:threshold=soon" ./plugin
echo "exit $RC" | add
grep -o "calltrace slowlog plugin: .*" "$W/b.err" | add
grep -c "calltrace_plugin_init refused" "$W/b.err" | add
