# SPDX-License-Identifier: MIT
# Do the timelines nest, and do they keep cause before effect?  Reads one
# timeline of `calltrace export` and prints a summary for a golden file:
#
#   python3 nest_check.py chrome FILE.json     (--format=chrome)
#   python3 nest_check.py html FILE.html       (--format=html: its timeline)
#   python3 nest_check.py perfetto FILE.json   (--format=perfetto, as
#                                               perfetto_check.py --slices
#                                               wrote its slices)
#
# Nesting: on each thread, any two slices either do not overlap or one lies
# inside the other, in the arithmetic of the programs that read the format:
# - chrome: ts and dur are microseconds, read as doubles, and
#   * speedscope (its Chrome importer) subtracts the thread's first ts from
#     every ts and ends a slice at ts + dur, in doubles;
#   * Perfetto (its JSON importer) rounds ts * 1000 and dur * 1000 to
#     integer ns each (llround) and ends a slice at their sum;
#   * chrome://tracing and the DevTools end a slice at ts + dur, in doubles;
# - perfetto: integer ns, begin and end events (perfetto_check.py has paired
#   them and checked that they nest as events; here their times);
# - html: integer ns [fn, depth, start, duration]; there a call of depth d > 0
#   must lie inside the call of depth d - 1 that began last before it.
#
# Causality, from calltrace_mark() texts (tests/e2e/nest.c writes them):
# - "joined TID" (after pthread_join returned): no slice or mark of thread
#   TID of the same process ends after it;
# - "fork" then "forked PID" (before fork(), after it returned in the
#   parent): nothing of process PID starts before the "fork" mark;
# - "waited PID" (after waitpid returned): nothing of process PID ends after
#   it.
# Problems are printed as lines starting with "BAD".
import json
import math
import re
import sys
from collections import defaultdict


def llround(x):
    """C's llround of a double (halves away from zero), as Perfetto does"""
    f = math.floor(x)
    return int(f) + (1 if x - f >= 0.5 else 0)


def laminar(spans):
    """the first two spans (begin, end, name) of a list that overlap without
    one holding the other, or None; spans as the readers order them: by
    begin, the longer first"""
    stack = []
    for s in sorted(spans, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1][1] <= s[0]:
            stack.pop()
        if stack and s[1] > stack[-1][1]:
            return stack[-1], s
        stack.append(s)
    return None


def read_chrome(path):
    """threads {(pid, tid): {"x": [(ts, dur, name)], "marks": [(ts, text)]}}"""
    th = defaultdict(lambda: {"x": [], "marks": []})
    for e in json.load(open(path))["traceEvents"]:
        if e["ph"] == "X":
            th[(e["pid"], e["tid"])]["x"].append((e["ts"], e["dur"], e["name"]))
        elif e["ph"] == "i":
            th[(e["pid"], e["tid"])]["marks"].append((e["ts"], e["name"]))
    return th


def chrome(path):
    th = read_chrome(path)
    bad = []
    readers = {
        "speedscope": lambda x, t0: [(ts - t0, (ts - t0) + dur, n) for ts, dur, n in x],
        "Perfetto": lambda x, t0: [(llround(ts * 1000.0), llround(ts * 1000.0) +
                                    llround(dur * 1000.0), n) for ts, dur, n in x],
        "ts + dur": lambda x, t0: [(ts, ts + dur, n) for ts, dur, n in x],
    }
    if not any(t["x"] for t in th.values()):
        bad.append("chrome: no slices")
    print("chrome: %d threads with slices, %d marks" % (
        sum(1 for t in th.values() if t["x"]), sum(len(t["marks"]) for t in th.values())))
    for reader, spans in readers.items():
        crossed = 0
        for key, t in sorted(th.items()):
            if not t["x"]:
                continue
            t0 = min(ts for ts, _, _ in t["x"])
            c = laminar(spans(t["x"], t0))
            if c:
                crossed += 1
                bad.append("chrome as %s reads it: thread %s: %s [%r, %r] and %s [%r, %r] cross" % (
                    reader, key, c[0][2], c[0][0], c[0][1], c[1][2], c[1][0], c[1][1]))
        print("chrome: slices nest as %s reads them: %s" % (
            reader, "yes" if not crossed else "NO, on %d threads" % crossed))
    # causality on Perfetto's ns (the exact ones: builtin/export.c)
    ns = {k: {"spans": [(llround(ts * 1000.0), llround(ts * 1000.0) + llround(dur * 1000.0), n)
                        for ts, dur, n in t["x"]],
              "marks": [(llround(ts * 1000.0), m) for ts, m in t["marks"]]}
          for k, t in th.items()}
    causality("chrome", ns, bad)
    return bad


def html(path):
    s = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', s, re.S)
    d = json.loads(m.group(1))
    fns = d["fns"]
    bad = []
    th = {}
    outside = 0
    for t in d["timeline"]["threads"]:
        calls = [(c[2], c[2] + c[3], fns[c[0]][0], c[1]) for c in t["calls"]]
        # by start, the outer first: the latest call of each depth so far
        last = []
        for c in sorted(calls, key=lambda c: (c[0], c[3])):
            if c[3] > 0:
                p = last[c[3] - 1] if c[3] <= len(last) else None
                if not p or not (p[0] <= c[0] and c[1] <= p[1]):
                    outside += 1
                    if outside <= 5:
                        bad.append("html: thread %s: %s [%d, %d] depth %d not inside %s" % (
                            t["tid"], c[2], c[0], c[1], c[3], p and "%s [%d, %d]" % (p[2], p[0], p[1])))
            del last[c[3]:]
            last.append(c)
        c = laminar([c[:3] for c in calls])
        if c:
            bad.append("html: thread %s: %s [%d, %d] and %s [%d, %d] cross" % (
                t["tid"], c[0][2], c[0][0], c[0][1], c[1][2], c[1][0], c[1][1]))
        th[(t["pid"], t["tid"])] = {"spans": [c[:3] for c in calls],
                                    "marks": [(m[0], m[1]) for m in t["marks"]]}
    if not any(t["spans"] for t in th.values()):
        bad.append("html: no calls on the timeline")
    print("html: %d threads with calls, %d marks" % (
        sum(1 for t in th.values() if t["spans"]), sum(len(t["marks"]) for t in th.values())))
    print("html: each call inside its caller: %s" % ("yes" if not outside else "NO, %d calls" % outside))
    causality("html", th, bad)
    return bad


def perfetto(path):
    d = json.load(open(path))
    th = defaultdict(lambda: {"spans": [], "marks": []})
    for pid, tid, name, b, e in d["slices"]:
        th[(pid, tid)]["spans"].append((b, e, name))
    for pid, tid, text, t in d["marks"]:
        th[(pid, tid)]["marks"].append((t, text))
    bad = []
    crossed = 0
    for key, t in sorted(th.items()):
        c = laminar(t["spans"])
        if c:
            crossed += 1
            bad.append("perfetto: thread %s: %s [%d, %d] and %s [%d, %d] cross" % (
                key, c[0][2], c[0][0], c[0][1], c[1][2], c[1][0], c[1][1]))
    if not any(t["spans"] for t in th.values()):
        bad.append("perfetto: no slices")
    print("perfetto: %d threads with slices, %d marks" % (
        sum(1 for t in th.values() if t["spans"]), sum(len(t["marks"]) for t in th.values())))
    print("perfetto: slices nest: %s" % ("yes" if not crossed else "NO, on %d threads" % crossed))
    causality("perfetto", th, bad)
    return bad


def causality(fmt, th, bad):
    """th: {(pid, tid): {"spans": [(begin, end, name)], "marks": [(t, text)]}}"""
    def first(keys):
        ts = [s[0] for k in keys for s in th[k]["spans"]] + [m[0] for k in keys for m in th[k]["marks"]]
        return min(ts) if ts else None

    def last(keys):
        ts = [s[1] for k in keys for s in th[k]["spans"]] + [m[0] for k in keys for m in th[k]["marks"]]
        return max(ts) if ts else None

    joins = forks = waits = 0
    for (pid, tid), t in sorted(th.items()):
        fork_at = None
        for at, text in sorted(t["marks"]):
            w = text.split()
            if w[0] == "fork":
                fork_at = at
                continue
            if len(w) != 2 or not w[1].isdigit():
                continue
            n = int(w[1])
            if w[0] == "joined":
                keys = [k for k in th if k == (pid, n)]
                end = last(keys)
                joins += 1
                if end is None or end > at:
                    bad.append("%s: thread %d ends at %s, after the pthread_join that joined it "
                               "returned (%s)" % (fmt, n, end, at))
            elif w[0] == "forked":
                keys = [k for k in th if k[0] == n]
                start = first(keys)
                forks += 1
                if fork_at is None or start is None or start < fork_at:
                    bad.append("%s: process %d starts at %s, before its fork (%s)" % (
                        fmt, n, start, fork_at))
            elif w[0] == "waited":
                keys = [k for k in th if k[0] == n]
                end = last(keys)
                waits += 1
                if end is None or end > at:
                    bad.append("%s: process %d ends at %s, after waitpid returned (%s)" % (
                        fmt, n, end, at))
    print("%s: threads that end before their pthread_join returns: %d of %d" % (
        fmt, joins - sum(" pthread_join " in b for b in bad if b.startswith(fmt)), joins))
    print("%s: child processes that start after their fork: %d of %d" % (
        fmt, forks - sum("before its fork" in b for b in bad if b.startswith(fmt)), forks))
    print("%s: child processes that end before waitpid returns: %d of %d" % (
        fmt, waits - sum("after waitpid" in b for b in bad if b.startswith(fmt)), waits))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("chrome", "html", "perfetto"):
        sys.exit("usage: nest_check.py chrome|html|perfetto FILE")
    bad = {"chrome": chrome, "html": html, "perfetto": perfetto}[sys.argv[1]](sys.argv[2])
    for b in bad[:20]:
        print("BAD", b)
    if len(bad) > 20:
        print("BAD ... and %d more" % (len(bad) - 20))


main()
