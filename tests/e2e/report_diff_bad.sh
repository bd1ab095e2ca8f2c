# report_diff_bad: report --diff given bad input: a missing OTHER, one that
# is no recording, or a file (exit 2, one line naming it); bad policies,
# sort columns and keys, options that make no sense with --diff (exit 2);
# a --tid in neither recording (exit 1); two unrelated programs (one
# warning line, the diff anyway, exit 0); a recording of call counts only
# (record --count) against a full one: the calls compared, no times.
# --demangle on two builds of a C++ program: full names (each overload a
# row), simple (the overloads one row), no (the mangled names).
# graph --diff: a missing OTHER (exit 2), with FUNC, --tid or a recording
# of counts (exit 2).  A recording that lost events on each side: each
# warning names its recording.
# variants: one
build p0 "$E2E/report_diff.c" -DBUILD=0
build p1 "$E2E/report_diff.c" -DBUILD=1
build basic "$E2E/basic.c"
record b ./p0
want_rc "record ./p0" $RC 0 "$W/b.err"
record n ./p1
want_rc "record ./p1" $RC 0 "$W/n.err"
record other ./basic
want_rc "record ./basic" $RC 0 "$W/other.err"
guard "$CT" record --count -d "$W/cnt" ./p1 >"$W/cnt.out" 2>"$W/cnt.err"
want_rc "record --count ./p1" $RC 0 "$W/cnt.err"
mkdir -p "$W/empty"
: >"$W/file"

# bad EXIT ARGS...: report -d b ARGS...: its exit status, the lines of its
# stderr (the work dir out), whether it wrote anything on stdout
bad() {
	_want=$1
	shift
	section "$(echo "report $*" | sed "s|$W/||g")"
	guard "$CT" report -d "$W/b" "$@" >"$W/bad.out" 2>"$W/bad.err"
	want_rc "report $*" $RC "$_want" "$W/bad.err"
	printf 'exit %s, %s lines on stderr, stdout %s bytes\n' "$RC" \
		"$(wc -l <"$W/bad.err" | tr -d ' ')" "$(wc -c <"$W/bad.out" | tr -d ' ')" | add
	sed "s|$W/||g" "$W/bad.err" | add
}
bad 2 --diff "$W/nosuch"
bad 2 --diff="$W/empty"
bad 2 --diff "$W/file"
bad 2 --diff-policy abs
bad 2 --sort-column 1
bad 2 --diff "$W/n" --diff-policy abs,fast
bad 2 --diff "$W/n" --sort-column 3
bad 2 --diff "$W/n" --per-thread
bad 2 --diff "$W/n" -s avg
bad 1 --diff "$W/n" --tid 1

section "unrelated programs: one warning, the diff anyway"
guard "$CT" report -d "$W/b" --diff "$W/other" --format=csv >"$W/un.csv" 2>"$W/un.err"
want_rc "report --diff other" $RC 0 "$W/un.err"
sed "s|$W/||g" "$W/un.err" | add
cut -d, -f1-6 "$W/un.csv" | LC_ALL=C sort | add

section "a recording of call counts against a full one: the calls alone"
guard "$CT" report -d "$W/b" --diff "$W/cnt" >"$W/cnt.txt" 2>"$W/cnt.rep.err"
want_rc "report --diff cnt" $RC 0 "$W/cnt.rep.err"
sed "s|$W/||g" "$W/cnt.txt" | add
ct report b --diff "$W/cnt" --format=csv | add
ct report b --diff "$W/cnt" --format=json | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("counts_only", d["counts_only"], sorted((f["name"], f["status"], f["diff"]["calls"]) for f in d["functions"]))' | add
bad 2 --diff "$W/cnt" -s total

# gbad EXIT ARGS...: graph -d b ARGS..., as bad does
gbad() {
	_want=$1
	shift
	section "$(echo "graph $*" | sed "s|$W/||g")"
	guard "$CT" graph -d "$W/b" "$@" >"$W/bad.out" 2>"$W/bad.err"
	want_rc "graph $*" $RC "$_want" "$W/bad.err"
	printf 'exit %s, %s lines on stderr, stdout %s bytes\n' "$RC" \
		"$(wc -l <"$W/bad.err" | tr -d ' ')" "$(wc -c <"$W/bad.out" | tr -d ' ')" | add
	sed "s|$W/||g" "$W/bad.err" | add
}
gbad 2 --diff "$W/nosuch"
gbad 2 --diff "$W/n" main
gbad 2 --diff "$W/n" --tid 1
gbad 2 --diff "$W/cnt"

build c0 "$E2E/report_diff_cxx.cc" -DBUILD=0
build c1 "$E2E/report_diff_cxx.cc" -DBUILD=1
record cb ./c0
want_rc "record ./c0" $RC 0 "$W/cb.err"
record cn ./c1
want_rc "record ./c1" $RC 0 "$W/cn.err"
for m in full simple no; do
	section "C++: report --diff --demangle=$m (function,status,calls)"
	ct report cb --diff "$W/cn" --demangle=$m --format=csv -s name | cut -d, -f1-6 | add
done
section "C++: -F 'calc' with --demangle=simple"
ct report cb --diff "$W/cn" --demangle=simple -F calc --format=csv -s name | cut -d, -f1-6 | add

section "events lost while recording: each warning names its recording"
build drop "$E2E/drop.c"
guard env CALLTRACE_TEST_DRAIN_PAUSE_MS=20 "$CT" record --drop -b 4K --buffers=3 -d "$W/dl" ./drop \
	>"$W/dl.out" 2>"$W/dl.err"
want_rc "record --drop ./drop" $RC 0 "$W/dl.err"
ct report dl --diff "$W/dl" --format=csv >/dev/null
grep 'events were lost' "$W/last.err" | sed -e "s|$W/||g" -e 's/^calltrace report: [0-9]* /calltrace report: N /' | add
