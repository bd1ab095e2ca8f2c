# info --task (issue 30; uftrace info --task): every process and thread as
# a tree, each with its first event's timestamp, flags (F: a process's
# first thread, S: it began a program: the one record ran, or an exec),
# tid, parent (a thread: its process; a process: its parent) and name, on
# two threads (tests/e2e/callerfilt.c) and fork + exec
# (tests/e2e/forkexec.c).  Ids become T1, T2, ... in order; a child's first
# event comes after its parent's (the recorded clock keeps causality).
# variants: all
# front-ends: few
# the table by its columns (info.c's layout), times and sizes left out,
# ids numbered; the timestamps checked against the tree
tasks() {
	python3 -c '
import sys
ids = {}
def n(x):
    return ids.setdefault(x, "T%d" % (len(ids) + 1))
rows = []
for line in sys.stdin.read().splitlines()[1:]:
    ts, fl, tid, par, name = line[2:22].strip(), line[24:26], line[28:36].strip(), line[38:46].strip(), line[60:]
    rows.append((ts, fl, tid, par, name))
    print("%s  %-4s %-4s %s" % (fl, n(tid), n(par), name.rstrip()))
ts = {tid: float(t) for t, _, tid, _, _ in rows if t}
bad = [tid for _, _, tid, par, _ in rows if par in ts and tid in ts and ts[tid] < ts[par]]
print("each task starts after its parent:", "yes" if not bad else "no: %s" % bad)
'
}
build callerfilt "$E2E/callerfilt.c"
record d ./callerfilt
want_rc "record ./callerfilt" $RC 0 "$W/d.err"
section "info --task: two threads"
ct info d --task | tasks | add
build target "$E2E/target.c"
build forkexec "$E2E/forkexec.c"
record f ./forkexec ./target
want_rc "record ./forkexec ./target" $RC 0 "$W/f.err"
section "info --task: fork, then exec in the child"
ct info f --task | tasks | add
section "bad usage"
guard "$CT" info -d "$W/d" --task=1 >/dev/null 2>"$W/bad.err"
echo "info --task=1: exit $RC $(head -n 1 "$W/bad.err")" | add
golden
