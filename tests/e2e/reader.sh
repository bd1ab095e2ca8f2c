# reader: the reading library (doc/reader.md) on a recording of a small
# threaded program.  The C example (examples/reader/pairs.c) and the Python
# one (pairs.py) count the calls along each caller -> callee pair: the same
# counts as callers' edges, summing to report's calls.  The Python module's
# events with captured arguments and return values (record -A/-R, a
# register-seeing front end) as replay and report --by-args show them; the
# module's own tests (python/test_calltrace.py); bad recordings give the
# examples the error message calltrace report gives, never a crash.
# variants: all
# front-ends: few
RLIB=$(dirname "$CT")/libcalltrace-reader.so.0
[ -f "$RLIB" ] || RLIB=$TOP/${CT_BUILD:-build}/libcalltrace-reader.so.0
[ -f "$RLIB" ] || die "libcalltrace-reader.so.0 not built (make all)"
PY="env CALLTRACE_READER_LIB=$RLIB PYTHONPATH=$TOP/python python3"
gcc -O2 -Wall -Wextra -Werror -I"$TOP/include" -o "$W/pairs" "$TOP/examples/reader/pairs.c" \
	"$RLIB" -Wl,-rpath,"$(dirname "$RLIB")" >"$W/build-pairs.log" 2>&1 ||
	die "build of examples/reader/pairs.c failed: $(head -5 "$W/build-pairs.log")"

build reader "$E2E/reader.c" -I"$TOP/include"
record d ./reader
want_rc "record ./reader" $RC 0 "$W/d.err"

section "pairs (examples/reader/pairs.c)"
guard "$W/pairs" "$W/d" >"$W/pairs.out" 2>"$W/pairs.err"
want_rc "pairs" $RC 0 "$W/pairs.err"
add <"$W/pairs.out"
[ -s "$W/pairs.err" ] && fail "pairs wrote to stderr: $(head -c 300 "$W/pairs.err")"

section "pairs.py gives the same"
guard $PY "$TOP/examples/reader/pairs.py" "$W/d" >"$W/pairs.py.out" 2>"$W/pairs.py.err"
want_rc "pairs.py" $RC 0 "$W/pairs.py.err"
diff -u "$W/pairs.out" "$W/pairs.py.out" >"$W/pairs.diff" && echo same | add ||
	fail "pairs.py differs from pairs: $(head -20 "$W/pairs.diff")"

section "pairs.py into a reader that goes away (| head -1): no traceback"
# the pipe's reading end is closed before pairs.py starts: its first write
# fails every time, not only when head wins a race
guard $PY -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.run(sys.argv[1:], stdout=w).returncode)' \
	python3 "$TOP/examples/reader/pairs.py" "$W/d" 2>"$W/pipe.err"
want_rc "pairs.py into a closed pipe" $? 141 "$W/pipe.err"
[ -s "$W/pipe.err" ] && echo "stderr: $(head -c 300 "$W/pipe.err")" | add || echo "stderr empty" | add

section "callers' edges give the same"
# callers CSV: FUNCTION,caller,CALLER,CALLS,TIME -> CALLS CALLER -> FUNCTION
ct callers d --format=csv >"$W/callers.csv"
awk -F, '$2 == "caller" { printf "%10d  %s -> %s\n", $4, $3, $1 }' "$W/callers.csv" |
	LC_ALL=C sort >"$W/edges"
LC_ALL=C sort "$W/pairs.out" >"$W/pairs.sorted"
diff -u "$W/edges" "$W/pairs.sorted" >"$W/edges.diff" && echo same | add ||
	fail "pairs differ from callers' edges: $(head -20 "$W/edges.diff")"
[ -s "$W/edges" ] || fail "no edges in callers --format=csv"

section "calls into each function: the pairs summed = report's calls"
ct report d --format=csv | csv_calls >"$W/report.calls"
awk '{ n[$4] += $1 } END { for (f in n) print f "," n[f] }' "$W/pairs.out" | LC_ALL=C sort >"$W/pairs.calls"
diff -u "$W/report.calls" "$W/pairs.calls" >"$W/calls.diff" && echo same | add ||
	fail "pairs' sums differ from report: $(head -20 "$W/calls.diff")"

section "threads, marks and the merged walk (python)"
guard $PY - "$W/d" >"$W/walk.out" 2>&1 <<'EOF'
import sys, calltrace
with calltrace.Recording(sys.argv[1]) as rec:
    print("processes", len(rec.processes), "threads", len(rec.threads),
          "named", sorted(t.name for t in rec.threads if t.name))
    evs = list(rec.events(marks=True, corrected=True))
    marks = [e.name for e in evs if e.kind == calltrace.MARK]
    print("marks", marks)
    times = [e.time_ns for e in evs]
    print("merged in time order:", times == sorted(times))
    n = sum(1 for e in evs if e.kind != calltrace.MARK)
    per = sum(sum(1 for _ in rec.records(thread=t.index)) for t in rec.threads)
    print("events merged = sum of the threads':", n == per, n % 2 == 0)
    print("corrected never after recorded:", all(e.ctime_ns <= e.time_ns for e in evs))
    main = rec.threads[0]
    s = rec.resolve(main.process, next(e.addr for e in evs if e.name == "gcd"))
    print("resolve gcd:", s.name, s.module.endswith("/reader"), s.line > 0)
EOF
want_rc "python walk" $RC 0 "$W/walk.out"
add <"$W/walk.out"

section "the module's tests (python/test_calltrace.py)"
guard env CALLTRACE_TEST_DATA="$W/d" $PY "$TOP/python/test_calltrace.py" >"$W/pytest.out" 2>&1
want_rc "python/test_calltrace.py" $RC 0 "$W/pytest.out"
tail -n 1 "$W/pytest.out" | add

section "arguments and return values (record -A/-R, python events)"
. "$E2E/args_lib.inc"
fr=$(args_fronts | cut -d' ' -f1)
args_build reader.$fr $fr "$E2E/reader.c" -I"$TOP/include"
record a -A '^gcd$@arg1/d,arg2/d' -R '^gcd$@retval/d' -A '^leaf$@arg1/d' -R '^leaf$@retval/d' \
	./reader.$fr
want_rc "record -A ./reader.$fr" $RC 0 "$W/a.err"
guard $PY - "$W/a" >"$W/args.out" 2>&1 <<'EOF'
import csv, sys, calltrace
with calltrace.Recording(sys.argv[1]) as rec:
    main = next(t.index for t in rec.threads if t.tid == t.pid)
    stack = []
    for e in rec.events(thread=main):
        if e.kind == calltrace.ENTRY:
            stack.append(e)
        elif e.kind == calltrace.EXIT:
            ent = stack.pop()
            if e.name in ("gcd", "leaf"):
                print("%s%s(%s) = %s" % ("  " * e.depth, e.name, ent.args, e.retval))
    # report --by-args's rows: name(args) for calls with captured arguments
    rows = {}
    for e in rec.events():
        if e.kind == calltrace.ENTRY:
            k = "%s(%s)" % (e.name, e.args) if e.args is not None else e.name
            rows[k] = rows.get(k, 0) + 1
    with open(sys.argv[1] + ".byargs", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        for k in sorted(rows):
            w.writerow([k, rows[k]])
EOF
want_rc "python args" $RC 0 "$W/args.out"
add <"$W/args.out"
ct report a --by-args --format=csv | csv_calls >"$W/byargs.report"
LC_ALL=C sort "$W/a.byargs" >"$W/byargs.py"
diff -u "$W/byargs.report" "$W/byargs.py" >"$W/byargs.diff" && echo "report --by-args: same" | add ||
	fail "python's rows differ from report --by-args: $(head -20 "$W/byargs.diff")"
ct replay a --no-duration >"$W/a.replay"
grep -c 'gcd(48, 18) {' "$W/a.replay" | sed 's/^/replay shows gcd(48, 18): /' | add

section "bad recordings: the examples say what report says"
build_tool corrupt
ev=$(ls "$W/d" | grep '\.ev$' | head -n 1)
# check NAME: pairs, pairs.py and calltrace report on $W/NAME
check() {
	guard "$CT" report -d "$W/$1" >/dev/null 2>"$W/bad.report"
	rr=$RC
	guard "$W/pairs" "$W/$1" >/dev/null 2>"$W/bad.c"
	rc=$RC
	guard $PY "$TOP/examples/reader/pairs.py" "$W/$1" >/dev/null 2>"$W/bad.py"
	rp=$RC
	[ $rc -lt 124 ] && [ $rp -lt 124 ] || fail "$1: pairs exit $rc, pairs.py exit $rp (crash or hang)"
	mr=$(grep -v 'warning:' "$W/bad.report" | head -n 1 | sed 's/^calltrace report: //')
	mc=$(grep -v 'warning:' "$W/bad.c" | head -n 1 | sed 's/^pairs: //')
	mp=$(grep -v 'warning:' "$W/bad.py" | head -n 1 | sed 's/^pairs.py: //')
	[ "$mr" = "$mc" ] && [ "$mr" = "$mp" ] ||
		fail "$1: messages differ: report '$mr', pairs '$mc', pairs.py '$mp'"
	echo "$1: report exit $rr, pairs exit $rc, pairs.py exit $rp${mr:+, naming the file: $(echo "$mr" | grep -c "$2")}"
}
cp -r "$W/d" "$W/garbage"
"$W/tool_corrupt" "$W/garbage/$ev" 40 4096 1
check garbage "$ev" | add
cp -r "$W/d" "$W/badmagic"
printf 'XX' | dd of="$W/badmagic/$ev" bs=1 seek=0 conv=notrunc 2>/dev/null
check badmagic "$ev" | add
cp -r "$W/d" "$W/trunc"
truncate -s $(($(wc -c <"$W/trunc/$ev") / 2 + 3)) "$W/trunc/$ev"
check trunc "$ev" | sed 's/, naming.*//' | add
check missing missing | add
mkdir -p "$W/noinfo" && cp "$W/d/$ev" "$W/noinfo/"
check noinfo info | add
