# -T in the views (issue 30): record's triggers applied to a recording as
# it is read: depth=N, trace_off=call, trace_off and trace_on (per thread),
# filter/notrace/hide as -F/-N/--hide; a view's -T equals record's -T
# where both mean the same (depth=N, trace_off=call); graph and report
# take it too; bad usage exits 2 (tests/e2e/basic.c).
# variants: all
# aarch64: yes patch
# replay's lines without record's tracing marks, a call left with no line
# inside written as replay writes a call without callees ("f();")
no_marks() {
	grep -v 'mark: tracing' | awk '
	held != "" {
		if ($0 ~ /^\[[^]]*\] \| *} \/\* .* \*\/$/) {
			sub(/ \{$/, ";", held); print held; held = ""; next
		}
		print held; held = ""
	}
	/ \{$/ { held = $0; next }
	{ print }
	END { if (held != "") print held }'
}
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
for t in '^middle$@depth=1' '^outer$@depth=2' '^middle$@trace_off=call' '^middle$@trace_off' \
	'^inner$@trace_off ^loop$@trace_on' '^outer$@filter,depth=2' '^inner$@notrace' '^middle$@hide'; do
	section "replay -T $t"
	set --
	for x in $t; do set -- "$@" -T "$x"; done
	ct replay d --no-duration "$@" | normalize | add
done
for t in '^outer$@depth=2' '^middle$@trace_off=call' '^middle$@depth=1' '^middle$@trace_off' \
	'^inner$@trace_off ^loop$@trace_on'; do
	rm -rf "$W/r"
	set --
	for x in $t; do set -- "$@" -T "$x"; done
	record r "$@" ./basic
	want_rc "record $* ./basic" $RC 0 "$W/r.err"
	# (record marks where tracing went off and on: a view's -T cannot)
	ct replay r --no-duration | normalize | no_marks >"$W/r.rec"
	ct replay d --no-duration "$@" | normalize >"$W/r.view"
	cmp -s "$W/r.rec" "$W/r.view" ||
		fail "record -T '$t' and replay -T '$t' differ: $(diff "$W/r.rec" "$W/r.view" | tr '\n' '|')"
done
section "graph --no-time -T '^outer\$@depth=2'"
ct graph d --no-time -T '^outer$@depth=2' | add
section "report -T '^middle\$@trace_off': functions and calls"
ct report d -T '^middle$@trace_off' --format=csv | csv_calls | add
section "bad usage"
for t in 'middle' '^middle$@' '^middle$@bogus' '^m$@trace_on,trace_off' '^m$@depth=0' '(@depth=1'; do
	guard "$CT" replay -d "$W/d" -T "$t" >/dev/null 2>"$W/bad.err"
	echo "-T '$t': exit $RC $(head -n 1 "$W/bad.err")" | add
done
