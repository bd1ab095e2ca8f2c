# srcline: record --callsite keeps each call's call site and replay --srcline
# shows it with each function's own line; record-time filters (-N, --hide,
# -t) and --flight keep a recorded call's site with it, a thread has its own.
# variants: all
# aarch64: yes patch
# front-ends: all
build srcline "$E2E/srcline.c"
# main's and worker's call sites are in libc: their lines (if libc's debug
# information is installed) are not part of the golden file
srcnorm() { normalize | sed -E 's#, from srcline\.c:#, FROM srcline.c:#; s#, from [^ ]+##; s#, FROM #, from #'; }

record plain ./srcline
want_rc "record ./srcline" $RC 0 "$W/plain.err"
section "replay --srcline, recorded without --callsite: each function's own line"
ct replay plain --no-duration --srcline -F '^main$' | srcnorm | add

record d --callsite ./srcline
want_rc "record --callsite ./srcline" $RC 0 "$W/d.err"
section "replay --srcline, recorded with --callsite"
ct replay d --no-duration --srcline --per-thread | srcnorm | add
section "replay (no --srcline): as without --callsite"
ct replay d --no-duration -F '^main$' | normalize >"$W/cs.txt"
ct replay plain --no-duration -F '^main$' | normalize >"$W/plain.txt"
cmp -s "$W/cs.txt" "$W/plain.txt" && echo same | add || { echo differ | add; diff "$W/plain.txt" "$W/cs.txt" | add; }

record n --callsite -N '^inner$' --hide '^slow$' ./srcline
want_rc "record --callsite -N --hide" $RC 0 "$W/n.err"
section "record --callsite -N inner --hide slow"
ct replay n --no-duration --srcline -F '^main$' | srcnorm | add

# slow() sleeps 5 ms: -t 1ms keeps it (and main), not the other calls.
# They are short, but on a loaded machine one may wait for a CPU for longer
# than 1 ms, and -t then keeps it: they are left out of what is compared,
# and short_kept checks that those kept lasted 1 ms
record t --callsite -t 1ms ./srcline
want_rc "record --callsite -t 1ms" $RC 0 "$W/t.err"
section "record --callsite -t 1ms"
ct replay t --no-duration --srcline --per-thread | long_only '^(inner|leaf|worker)$' | srcnorm | add
short_kept t 1000000 '^(inner|leaf|worker)$'

record f --callsite --flight ./srcline
want_rc "record --callsite --flight" $RC 0 "$W/f.err"
section "record --callsite --flight"
ct replay f --no-duration --srcline -F '^main$' | srcnorm | add

section "callers --callsite --no-time leaf: a row per call site"
ct callers d --callsite --no-time leaf | add
section "callers --callsite, recorded without --callsite: as without it, and a warning"
ct callers plain --callsite --no-time leaf | add
sed 's/^.*warning: /warning: /; s#[^ ]*/plain #DIR #' "$W/last.err" | add

section "the reading library (python/calltrace.py, events(callsites=True)): leaf's entries"
RLIB=$(dirname "$CT")/libcalltrace-reader.so.0
[ -f "$RLIB" ] || RLIB=$TOP/${CT_BUILD:-build}/libcalltrace-reader.so.0
guard env CALLTRACE_READER_LIB="$RLIB" PYTHONPATH="$TOP/python" python3 - "$W/d" >"$W/py.out" 2>&1 <<'PY'
import sys, calltrace
with calltrace.Recording(sys.argv[1]) as rec:
    got = sorted(ev.callsite_line for ev in rec.events(callsites=True)
                 if ev.kind == calltrace.ENTRY and ev.name == "leaf")
    print("leaf called from:", " ".join(got))
    ex = [ev for ev in rec.events(callsites=True) if ev.kind == calltrace.EXIT and ev.name == "leaf"]
    print("exits carry their entry's site:", all(ev.callsite for ev in ex))
    print("without callsites=True, Event:", type(next(iter(rec.events()))).__name__)
PY
want_rc "python events(callsites=True)" $RC 0 "$W/py.out"
add <"$W/py.out"

section "an unfinished call (the program exits inside it): one comment"
record x --callsite ./srcline x
want_rc "record --callsite ./srcline x" $RC 0 "$W/x.err"
ct replay x --no-duration --srcline -F '^bye$' | srcnorm | add
