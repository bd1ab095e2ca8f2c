#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One checker of the times of every view and export of a recording
(doc/testing.md, "The times checker"; issue 27, doc/overhead.md).

    python3 tests/check_times.py [options] CALLTRACE DATADIR

runs report (CSV and JSON), graph, callers (CSV), export folded,
callgrind (and callgrind_annotate when installed), chrome, perfetto
(decoded by protoc when installed), html (the JSON in the page) and the
reading library through python/calltrace.py, on the corrected times and
again with --raw, and checks

  invariants   report: self <= total, min <= avg <= max, calls >= 0 in
               every row, CSV = JSON; graph: every node's total >= its
               children's together and self = total - children (to the
               display's truncation); callers: a function's callers' edges
               add up to its total (when it is not recursive); callgrind:
               its self costs add up to its summary; html: the flat profile
               is report's, every flame graph node total >= its children's
               and self = total - children, the timeline nests; chrome and
               perfetto: per thread the slices nest (chrome in its readers'
               arithmetic: doubles, ts + dur), no negative duration, every
               slice's time_ns >= its children's together and self_ns =
               time_ns - children's; the library's calls are never shorter
               than their callees, its clock never goes back;
  one number   every function's total (main's and all others') is the same
               in report, graph (its outermost nodes summed, to the
               display's truncation), callers, folded (the stacks holding
               it), callgrind and callgrind_annotate (inclusive; not for
               recursive functions, which callgrind counts once per call),
               the HTML flat profile and flame graph, chrome's and
               perfetto's time_ns (outermost slices) and the library;
  causality    on the timelines (chrome, perfetto: the recorded clock):
               every thread other than a process's main thread ends before
               a join (a slice named by --join) in its process returns,
               each join used once; every child process's first slice
               starts after a fork (--fork) of its parent started, each
               fork used once.

One line per check, "ok ..." or "BAD ...", and a last line "N checks, N
bad"; the exit status is 1 when one is bad, 2 on bad usage.  Python 3's
standard library only.
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


class Out:
    def __init__(self):
        self.n = 0
        self.bad = 0

    def ok(self, msg):
        self.n += 1
        print("ok " + msg)

    def fail(self, msg):
        self.n += 1
        self.bad += 1
        print("BAD " + msg)

    def check(self, cond, okmsg, badmsgs):
        """okmsg when cond, else one BAD line per message (at most 10)"""
        if cond:
            self.ok(okmsg)
            return
        badmsgs = list(badmsgs) or [okmsg]
        for m in badmsgs[:10]:
            self.fail(m)
        if len(badmsgs) > 10:
            self.fail("... and %d more" % (len(badmsgs) - 10))
            self.n -= 1


OUT = Out()


def run(cmd, what):
    """stdout of cmd (bytes), or None after a BAD line"""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        OUT.fail("%s: exit status %d: %s" % (what, p.returncode,
                                             p.stderr.decode(errors="replace")[:300]))
        return None
    return p.stdout


# ---- the views, parsed -------------------------------------------------------

def parse_report(csv_text, json_text):
    rows = {}
    for r in csv.DictReader(io.StringIO(csv_text)):
        rows[r["function"]] = {k: int(r[k]) for k in
                               ("calls", "total_ns", "self_ns", "avg_ns", "min_ns", "max_ns")}
    bad = []
    for r in (json.loads(json_text)["functions"] if json_text else []):
        c = rows.get(r["name"])
        j = {k: r[k] for k in ("calls", "total_ns", "self_ns", "avg_ns", "min_ns", "max_ns")}
        if c != j:
            bad.append("report: %s: CSV %s, JSON %s" % (r["name"], c, j))
    if json_text and len(json.loads(json_text)["functions"]) != len(rows):
        bad.append("report: %d rows in CSV, %d in JSON"
                   % (len(rows), len(json.loads(json_text)["functions"])))
    OUT.check(not bad, "report: CSV and JSON give the same %d rows" % len(rows), bad)
    bad = []
    for f, r in rows.items():
        if r["self_ns"] > r["total_ns"]:
            bad.append("report: %s: self %d > total %d" % (f, r["self_ns"], r["total_ns"]))
        if r["calls"] < 0:
            bad.append("report: %s: %d calls" % (f, r["calls"]))
        if r["calls"] > 0 and not r["min_ns"] <= r["avg_ns"] <= r["max_ns"]:
            bad.append("report: %s: min %d, avg %d, max %d"
                       % (f, r["min_ns"], r["avg_ns"], r["max_ns"]))
    OUT.check(not bad, "report: %d rows: self <= total, min <= avg <= max, calls >= 0"
              % len(rows), bad)
    return rows


UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}
ROW = re.compile(r"^\s*(\d+)\.(\d{3}) +(ns|us|ms|s)\s+(\d+)\.(\d{3}) +(ns|us|ms|s)\s+(\d+)  (.*)$")


def shown(whole, frac, unit):
    """a duration as graph shows it: [lo, hi] ns (it truncates)"""
    div = UNITS[unit]
    lo = int(whole) * div + int(frac) * (div // 1000)
    return (lo, lo + max(div // 1000, 1) - 1)


def parse_graph(text):
    """nodes: dicts name, depth, total (lo, hi), self (lo, hi), calls, kids"""
    nodes, stack = [], []
    for line in text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        rest = m.group(8)
        d = re.match(r"^\[(\d+)\] \+-(.*)$", rest)
        if d:
            depth, name = int(d.group(1)), d.group(2)
        else:
            b = re.match(r"^((?:[| ] )*)\+-(.*)$", rest)
            depth, name = (len(b.group(1)) // 2 + 1, b.group(2)) if b else (0, rest)
        # " *": mostly the tracer's own cost (a mark, not part of the name)
        if name.endswith(" *"):
            name = name[:-2]
        n = {"name": name, "depth": depth, "total": shown(*m.group(1, 2, 3)),
             "self": shown(*m.group(4, 5, 6)), "calls": int(m.group(7)), "kids": [],
             "above": set()}
        del stack[depth:]
        if depth and len(stack) != depth:
            OUT.fail("graph: node %s at depth %d under %d levels" % (name, depth, len(stack)))
            return nodes
        if stack:
            stack[-1]["kids"].append(n)
            n["above"] = stack[-1]["above"] | {stack[-1]["name"]}
        nodes.append(n)
        stack.append(n)
    bad = []
    for n in nodes:
        klo = sum(k["total"][0] for k in n["kids"])
        khi = sum(k["total"][1] for k in n["kids"])
        if n["total"][1] < klo:
            bad.append("graph: %s (depth %d): total at most %d ns, its children's at least %d"
                       % (n["name"], n["depth"], n["total"][1], klo))
        # self = total - children: the intervals must meet
        lo, hi = n["total"][0] - khi, n["total"][1] - klo
        if n["self"][1] < lo or n["self"][0] > hi:
            bad.append("graph: %s (depth %d): self %s ns, total - children %d..%d"
                       % (n["name"], n["depth"], n["self"], lo, hi))
    OUT.check(not bad and nodes, "graph: %d nodes: total >= children's, self = total - "
              "children (to the display's truncation)" % len(nodes), bad)
    return nodes


def parse_callers(text, recursive):
    rows = list(csv.DictReader(io.StringIO(text)))
    selfs, into = {}, defaultdict(int)
    for r in rows:
        if r["relation"] == "self":
            selfs[r["function"]] = (int(r["calls"]), int(r["time_ns"]))
        elif r["relation"] == "caller":
            into[r["function"]] += int(r["time_ns"])
    bad = []
    for f, (_, t) in selfs.items():
        if f not in recursive and into[f] != t:
            bad.append("callers: %s: its callers' edges add up to %d ns, its total %d"
                       % (f, into[f], t))
    OUT.check(not bad, "callers: the callers' edges of every function that is not "
              "recursive add up to its total", bad)
    return selfs


def parse_folded(text):
    tot = defaultdict(int)
    for line in text.splitlines():
        stack, _, v = line.rpartition(" ")
        for f in set(stack.split(";")):
            tot[f] += int(v)
    return tot


def parse_callgrind(text):
    """(inclusive by function (not for recursion), summary, self costs summed)"""
    names, selfc, calls = {}, defaultdict(int), defaultdict(lambda: defaultdict(int))
    fn, cfn, incall, summary = None, None, False, None

    def name(v):
        m = re.match(r"^\((\d+)\)(?: (.*))?$", v)
        if not m:
            return v
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), v)

    for line in text.splitlines():
        if line.startswith("summary:"):
            summary = int(line.split()[1])
        elif line.startswith("fn="):
            fn = name(line[3:])
        elif line.startswith("cfn="):
            cfn = name(line[4:])
        elif line.startswith("calls="):
            incall = True
        elif re.match(r"^[+-]?\d+ \d+$", line):
            cost = int(line.split()[1])
            if incall:
                calls[fn][cfn] += cost
                incall = False
            else:
                selfc[fn] += cost
    incl = {f: selfc[f] + sum(c for g, c in calls[f].items() if g != f)
            for f in set(selfc) | set(calls)}
    return incl, summary, sum(selfc.values())


def parse_annotate(text):
    tot = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+) \([ \d.]+%\)\s+([^:]*):(.*)$", line)
        if m:
            tot[m.group(3)] = int(m.group(1).replace(",", ""))
    return tot


def html_data(text):
    m = re.search(r'<script type="application/json" id="ct-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1)) if m else None


# ---- slices: chrome, perfetto, the html timeline ------------------------------

class Slice:
    __slots__ = ("name", "b", "e", "time", "self", "kids", "parent", "fb", "fe")

    def __init__(self, name, b, e, time=None, self_=None, fb=None, fe=None):
        self.name, self.b, self.e, self.time, self.self = name, b, e, time, self_
        self.fb, self.fe = fb, fe  # chrome: the doubles a reader has
        self.kids, self.parent = [], None


def check_slices(what, threads, with_times=True):
    """threads: key -> list of root slices (with kids).  Nesting (exact
    and, for chrome, in doubles), durations, time_ns and self_ns; the
    outermost activation's time_ns of each function, summed"""
    bad, n, outer = [], 0, defaultdict(int)
    for key, roots in threads.items():
        todo = [(r, frozenset()) for r in roots]
        while todo:
            s, above = todo.pop()
            n += 1
            if s.e < s.b:
                bad.append("%s: thread %s: %s lasts %d" % (what, key, s.name, s.e - s.b))
            if s.fb is not None and s.fb + s.fe < s.fb:
                bad.append("%s: thread %s: %s has a negative dur" % (what, key, s.name))
            p = s.parent
            if p is not None:
                if s.b < p.b or s.e > p.e:
                    bad.append("%s: thread %s: %s [%d, %d] not inside %s [%d, %d]"
                               % (what, key, s.name, s.b, s.e, p.name, p.b, p.e))
                if s.fb is not None and (s.fb < p.fb or s.fb + s.fe > p.fb + p.fe):
                    bad.append("%s: thread %s: %s ends after %s in doubles (%r + %r > %r + %r)"
                               % (what, key, s.name, p.name, s.fb, s.fe, p.fb, p.fe))
            if with_times:
                kids = sum(k.time for k in s.kids)
                if s.time < kids:
                    bad.append("%s: thread %s: %s time_ns %d < its callees' %d"
                               % (what, key, s.name, s.time, kids))
                elif s.self != s.time - kids:
                    bad.append("%s: thread %s: %s self_ns %d, time_ns %d - callees' %d"
                               % (what, key, s.name, s.self, s.time, kids))
                if s.name not in above:
                    outer[s.name] += s.time
            # siblings apart, in order
            for k in s.kids:
                todo.append((k, above | {s.name}))
            ks = sorted(s.kids, key=lambda k: (k.b, k.e))
            for a, c in zip(ks, ks[1:]):
                if c.b < a.e:
                    bad.append("%s: thread %s: in %s, %s [%d, %d] overlaps %s [%d, %d]"
                               % (what, key, s.name, a.name, a.b, a.e, c.name, c.b, c.e))
        rs = sorted(roots, key=lambda k: (k.b, k.e))
        for a, c in zip(rs, rs[1:]):
            if c.b < a.e:
                bad.append("%s: thread %s: outermost %s and %s overlap" % (what, key, a.name,
                                                                        c.name))
    msg = "%s: %d slices nest%s, none negative" % (
        what, n, " in the reader's doubles" if what == "chrome" else "")
    if with_times:
        msg += ", time_ns >= callees', self_ns = time_ns - callees'"
    OUT.check(not bad and n, msg, bad)
    return outer


def chrome_threads(doc):
    """(pid, tid) -> root slices, from the X events in file order (each
    thread's are in the order the calls ended: a call after its callees)"""
    pending = defaultdict(list)
    for e in doc["traceEvents"]:
        if e.get("ph") != "X":
            continue
        # units of 1/2048 us, which export.c writes exactly (the nearest
        # to each time in ns): integers, compared exactly
        b = round(e["ts"] * 2048)
        s = Slice(e["name"], b, b + round(e["dur"] * 2048), e["args"]["time_ns"],
                  e["args"]["self_ns"], e["ts"], e["dur"])
        roots = pending[(e["pid"], e["tid"])]
        # its callees: the calls that ended right before it and started
        # when it did or later (one before it that started then lasted 0 ns,
        # on the recorded clock and on the corrected one: it changes no sum)
        while roots and roots[-1].b >= s.b:
            k = roots.pop()
            k.parent = s
            s.kids.append(k)
        s.kids.reverse()
        roots.append(s)
    return pending


def unquote(v):
    """a string as protoc's text format writes it"""
    if "\\" not in v:
        return v
    return bytes(v, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


PACKET = re.compile(r"^packet \{\n(.*?)^\}$", re.S | re.M)
P_TS = re.compile(r"^  timestamp: (\d+)$", re.M)
P_SEQ = re.compile(r"^  trusted_packet_sequence_id: (\d+)$", re.M)
P_TYPE = re.compile(r"^    type: (\w+)$", re.M)
P_IID = re.compile(r"^    name_iid: (\d+)$", re.M)
P_TRACK = re.compile(r"^    track_uuid: (\d+)$", re.M)
P_ANN = re.compile(r"debug_annotations \{([^}]*)\}")
P_ANN_NAME = re.compile(r'name: "(\w+)"')
P_ANN_UINT = re.compile(r"uint_value: (\d+)")
P_NAMES = re.compile(r'event_names \{\s+iid: (\d+)\s+name: "((?:[^"\\]|\\.)*)"')
P_THREAD = re.compile(r"^    uuid: (\d+)\n    thread \{\n      pid: (\d+)\n      tid: (\d+)$", re.M)


def perfetto_threads(path):
    """(pid, tid) -> root slices, from protoc's text of the trace: each
    track's begins and ends, nested as they come"""
    text = open(path, encoding="utf-8").read()
    tracks, iids = {}, defaultdict(dict)
    open_, roots = defaultdict(list), defaultdict(list)
    bad = []
    for m in PACKET.finditer(text):
        body = m.group(1)
        if "track_descriptor {" in body:
            t = P_THREAD.search(body)
            if t:
                tracks[int(t.group(1))] = (int(t.group(2)), int(t.group(3)))
            continue
        seq = P_SEQ.search(body)
        seq = int(seq.group(1)) if seq else None
        if "interned_data {" in body:
            for iid, name in P_NAMES.findall(body):
                iids[seq][int(iid)] = unquote(name)
        if "track_event {" not in body:
            continue
        ts = int(P_TS.search(body).group(1))
        track = int(P_TRACK.search(body).group(1))
        typ = P_TYPE.search(body).group(1)
        if typ == "TYPE_SLICE_BEGIN":
            s = Slice(iids[seq].get(int(P_IID.search(body).group(1)), "?"), ts, None)
            if open_[track]:
                s.parent = open_[track][-1]
                s.parent.kids.append(s)
            else:
                roots[track].append(s)
            open_[track].append(s)
        elif typ == "TYPE_SLICE_END":
            if not open_[track]:
                bad.append("perfetto: track %s: an end with no slice open" % track)
                continue
            s = open_[track].pop()
            s.e = ts
            ann = {}
            for a in P_ANN.findall(body):
                n, v = P_ANN_NAME.search(a), P_ANN_UINT.search(a)
                if n and v:
                    ann[n.group(1)] = v.group(1)
            if "time_ns" not in ann or "self_ns" not in ann:
                bad.append("perfetto: %s without time_ns and self_ns" % s.name)
            s.time, s.self = int(ann.get("time_ns", 0)), int(ann.get("self_ns", 0))
        else:
            bad.append("perfetto: an event of type %s" % typ)
    for track, st in open_.items():
        if st:
            bad.append("perfetto: track %s: %d slices never end" % (track, len(st)))
    OUT.check(not bad and roots, "perfetto: every slice begins and ends, with time_ns and "
              "self_ns", bad)
    return {tracks.get(t, ("?", t)): r for t, r in roots.items()}


def timeline_threads(tl, fns):
    """the HTML report's timeline: (pid, tid) -> root slices, from
    [fn, depth, start_ns, dur_ns, time_ns] (the calls shorter than its
    resolution left out; start and dur on the recorded clock, time the
    duration the other views show)"""
    out = {}
    for th in tl.get("threads", []):
        roots, stack = [], []
        calls = sorted(th["calls"], key=lambda c: (c[2], c[1]))
        for fn, depth, b, d, t in calls:
            s = Slice(fns[fn][0] if fn >= 0 else "(other)", b, b + d, t)
            del stack[depth:]
            if depth and len(stack) != depth:
                OUT.fail("html timeline: thread %s: %s at depth %d with %d open"
                         % (th["tid"], s.name, depth, len(stack)))
                break
            if stack:
                s.parent = stack[-1]
                stack[-1].kids.append(s)
            else:
                roots.append(s)
            stack.append(s)
        out[(th["pid"], th["tid"])] = roots
    return out


def causality(what, threads, procs, join_re, fork_re):
    """threads: (pid, tid) -> root slices on the recorded clock"""
    flat = defaultdict(list)  # (pid, tid) -> all slices
    for key, roots in threads.items():
        todo = list(roots)
        while todo:
            s = todo.pop()
            flat[key].append(s)
            todo.extend(s.kids)
    bypid = defaultdict(list)
    for (pid, tid) in flat:
        bypid[pid].append(tid)
    nthreads = nchildren = 0
    bad = []
    for pid, tids in bypid.items():
        joins = sorted(s.e for t in tids for s in flat[(pid, t)] if re.search(join_re, s.name))
        ends = sorted(max(s.e for s in flat[(pid, t)]) for t in tids if t != pid and flat[(pid, t)])
        if not ends:
            continue
        if not joins:
            bad.append("%s: process %s has %d threads and no join (%s) slice"
                       % (what, pid, len(ends), join_re))
            continue
        # each thread a join of its own that returned after it ended
        j = 0
        for e in ends:
            while j < len(joins) and joins[j] < e:
                j += 1
            if j == len(joins):
                bad.append("%s: process %s: a thread ends at %d, after every join left "
                           "returned (the last at %d)" % (what, pid, e, joins[-1]))
                break
            j += 1
            nthreads += 1
    children = defaultdict(list)  # parent -> its children's first slices' starts
    for pid in bypid:
        if procs.get(pid) in bypid:
            children[procs[pid]].append(
                (min(s.b for t in bypid[pid] for s in flat[(pid, t)]), pid))
    for ppid, kids in children.items():
        forks = sorted(s.b for t in bypid[ppid] for s in flat[(ppid, t)]
                       if re.search(fork_re, s.name))
        # each child a fork of its own that started before it
        for k, (first, pid) in enumerate(sorted(kids)):
            if k >= len(forks):
                bad.append("%s: process %s has %d children and %d fork (%s) slices"
                           % (what, ppid, len(kids), len(forks), fork_re))
                break
            if forks[k] > first:
                bad.append("%s: child %s's first slice starts at %d, before its parent %s's "
                           "forks left started (the first at %d)"
                           % (what, pid, first, ppid, forks[k]))
                break
            nchildren += 1
    OUT.check(not bad, "%s causality: %d thread%s end%s before a join returns, %d child "
              "process%s start%s after a fork started" % (
                  what, nthreads, "s" * (nthreads != 1), "s" * (nthreads == 1), nchildren,
                  "es" * (nchildren != 1), "s" * (nchildren == 1)), bad)
    return nthreads, nchildren


def procs_of(data):
    """pid -> ppid, from the .proc files"""
    out = {}
    for f in os.listdir(data):
        if not f.endswith(".proc"):
            continue
        pid = ppid = None
        for line in open(os.path.join(data, f), errors="replace"):
            k, _, v = line.strip().partition(" ")
            if k == "pid":
                pid = int(v)
            elif k == "ppid":
                ppid = int(v)
        if pid is not None:
            out[pid] = ppid
    return out


# ---- the reading library ---------------------------------------------------------

def library_totals(ct, data, raw):
    """totals by function from python/calltrace.py (ct_reader), each
    thread walked alone: the outermost activations' durations; its calls
    never shorter than their callees, its clock never back"""
    os.environ.setdefault("CALLTRACE_READER_LIB",
                          os.path.join(os.path.dirname(os.path.abspath(ct)),
                                       "libcalltrace-reader.so.0"))
    sys.path.insert(0, os.path.join(TOP, "python"))
    sys.dont_write_bytecode = True  # nothing written into the source tree
    import calltrace  # noqa: E402
    tot, bad = defaultdict(int), []
    R = calltrace
    with calltrace.Recording(data) as rec:
        names = None
        for t in rec.threads:
            stack, active, last = [], defaultdict(int), 0
            for r in rec.records(thread=t.index, corrected=not raw):
                names = rec.names
                c = r[R.R_TIME] if raw else r[R.R_CTIME]
                if c < last:
                    bad.append("library: thread %d: clock back from %d to %d" % (t.tid, last, c))
                last = c
                name = names[r[R.R_NAME]]
                if r[R.R_KIND] == R.ENTRY:
                    stack.append([name, c, 0])
                    active[name] += 1
                elif r[R.R_KIND] == R.EXIT:
                    if not stack:
                        bad.append("library: thread %d: an exit with no call open" % t.tid)
                        continue
                    n, b, kids = stack.pop()
                    d = c - b
                    if d < kids:
                        bad.append("library: thread %d: %s lasts %d, its callees %d"
                                   % (t.tid, n, d, kids))
                    active[n] -= 1
                    if not active[n]:
                        tot[n] += d
                    if stack:
                        stack[-1][2] += d
    OUT.check(not bad, "library (python/calltrace.py): calls never shorter than their "
              "callees, the clock never back", bad)
    return tot


# ---- one mode (corrected, or --raw) ------------------------------------------------

def check_mode(a, raw, work):
    mode = "--raw" if raw else "corrected"
    print("== %s" % mode)
    R = ["--raw"] if raw else []
    ct, d = a.calltrace, a.data

    def view(sub, *args):
        out = run([ct, sub, "-d", d, "--no-pager"] + list(args) + R,
                  "%s %s" % (sub, " ".join(args)))
        return out.decode("utf-8", errors="replace") if out is not None else None

    def export(fmt, *args):
        path = os.path.join(work, "%s.%s" % (mode.strip("-"), fmt))
        if run([ct, "export", "-d", d, "--format=" + fmt, "-o", path] + list(args) + R,
               "export --format=" + fmt) is None:
            return None
        return path

    csv_text, json_text = view("report", "--format=csv"), view("report", "--format=json")
    if csv_text is None:
        return
    rep = parse_report(csv_text, json_text)
    same = {f: {"report": r["total_ns"]} for f, r in rep.items()}
    ranges = defaultdict(dict)  # function -> view -> (lo, hi)

    g = view("graph")
    nodes = parse_graph(g) if g is not None else []
    recursive = {n["name"] for n in nodes if n["name"] in n["above"]}
    for n in nodes:
        if n["name"] not in n["above"]:
            lo, hi = ranges[n["name"]].get("graph", (0, 0))
            ranges[n["name"]]["graph"] = (lo + n["total"][0], hi + n["total"][1])

    c = view("callers", "--format=csv")
    if c is not None:
        for f, (_, t) in parse_callers(c, recursive).items():
            same.setdefault(f, {})["callers"] = t

    p = export("folded", "--folded-frames=0")
    if p:
        for f, t in parse_folded(open(p, encoding="utf-8").read()).items():
            same.setdefault(f, {})["folded"] = t

    p = export("callgrind")
    if p:
        incl, summary, selfsum = parse_callgrind(open(p, encoding="utf-8").read())
        OUT.check(summary == selfsum, "callgrind: its self costs add up to its summary",
                  ["callgrind: self costs %d, summary %s" % (selfsum, summary)])
        for f, t in incl.items():
            if f not in recursive:
                same.setdefault(f, {})["callgrind"] = t
        if not shutil.which("callgrind_annotate"):
            print("-- callgrind_annotate is not installed: not run")
        else:
            an = run(["callgrind_annotate", "--inclusive=yes", "--auto=no", "--threshold=100",
                      p], "callgrind_annotate")
            if an is not None:
                for f, t in parse_annotate(an.decode("utf-8", errors="replace")).items():
                    if f not in recursive:
                        same.setdefault(f, {})["callgrind_annotate"] = t

    p = export("html")
    if p:
        h = html_data(open(p, encoding="utf-8").read())
        if h is None:
            OUT.fail("html: no JSON data in the page")
        else:
            fns = h["fns"]
            bad = ["html: %s: calls %d total %d self %d, report's %s" % (f[0], f[1], f[2], f[3],
                                                                        rep.get(f[0]))
                   for f in fns if f[0] not in rep or
                   (f[1], f[2], f[3]) != (rep[f[0]]["calls"], rep[f[0]]["total_ns"],
                                          rep[f[0]]["self_ns"])]
            lim = h.get("limits", {})
            shown_all = lim.get("functions_shown", len(fns)) >= lim.get("functions", 0)
            OUT.check(not bad and (len(fns) == len(rep) or not shown_all),
                      "html flat profile: calls, total and self of every function are report's",
                      bad or ["html: %d functions, report %d" % (len(fns), len(rep))])
            for f in fns:
                same.setdefault(f[0], {})["html flat"] = f[2]
            tree = h["tree"]
            kids = defaultdict(int)
            for r in tree:
                if r[0] >= 0:
                    kids[r[0]] += r[3]
            bad = ["html flame graph: node %d (%s): total %d, children %d, self %d"
                   % (i, fns[r[1]][0] if r[1] >= 0 else "(other)", r[3], kids[i], r[4])
                   for i, r in enumerate(tree) if r[3] < kids[i] or r[4] != r[3] - kids[i]]
            OUT.check(not bad, "html flame graph: %d nodes: total >= children's, self = "
                      "total - children" % len(tree), bad)
            above = []
            cut = (lim.get("paths_shown", 0) < lim.get("paths", 0) or lim.get("other_nodes") or
                   lim.get("paths_capped"))
            flame = defaultdict(int)
            for r in tree:
                up = (above[r[0]] | {tree[r[0]][1]}) if r[0] >= 0 else frozenset()
                above.append(up)
                if r[1] >= 0 and r[1] not in up:
                    flame[fns[r[1]][0]] += r[3]
            if cut:
                print("-- html flame graph: %s of %s paths shown: its totals not compared"
                      % (lim.get("paths_shown"), lim.get("paths")))
            else:
                for f, t in flame.items():
                    same.setdefault(f, {})["html flame graph"] = t
            tl = h.get("timeline")
            if tl:
                th = timeline_threads(tl, fns)
                check_slices("html timeline", th, with_times=False)
                # a call's time (corrected unless --raw) is at most its
                # recorded duration, and at least its kept callees' times
                bad, n = [], 0
                for key, roots in th.items():
                    todo = list(roots)
                    while todo:
                        s = todo.pop()
                        n += 1
                        kids = sum(k.time for k in s.kids)
                        if s.time > s.e - s.b or s.time < kids or (raw and s.time != s.e - s.b):
                            bad.append("html timeline: thread %s: %s time %d, recorded %d, "
                                       "callees' %d" % (key, s.name, s.time, s.e - s.b, kids))
                        todo.extend(s.kids)
                OUT.check(not bad and n, "html timeline: %d calls' times within their recorded "
                          "durations, at least their callees'" % n, bad)

    procs = procs_of(d)
    p = export("chrome")
    if p:
        doc = json.load(open(p, encoding="utf-8"))
        note = doc.get("otherData", {}).get("calltrace_times")
        OUT.check(note == ("recorded" if raw else "corrected"),
                  "chrome: says its times are %s" % note, ["chrome: calltrace_times %r" % note])
        th = chrome_threads(doc)
        for f, t in check_slices("chrome", th).items():
            same.setdefault(f, {})["chrome"] = t
        if a.causality:
            causality("chrome", th, procs, a.join, a.fork)

    p = export("perfetto")
    if p and not shutil.which("protoc"):
        print("-- protoc is not installed: the perfetto trace is not read")
    elif p:
        txt = p + ".txt"
        proto = os.path.join(TOP, "tests", "e2e", "perfetto.proto")
        with open(p, "rb") as fi, open(txt, "wb") as fo:
            r = subprocess.run(["protoc", "--decode=perfetto.protos.Trace",
                                "-I" + os.path.dirname(proto), proto], stdin=fi, stdout=fo,
                               stderr=subprocess.PIPE)
        if r.returncode:
            OUT.fail("protoc --decode: %s" % r.stderr.decode(errors="replace")[:300])
        else:
            th = perfetto_threads(txt)
            for f, t in check_slices("perfetto", th).items():
                same.setdefault(f, {})["perfetto"] = t
            if a.causality:
                causality("perfetto", th, procs, a.join, a.fork)

    for f, t in library_totals(ct, d, raw).items():
        same.setdefault(f, {})["library"] = t

    # one number: every function's total in every view that has it
    bad, views = [], set()
    for f in sorted(same):
        want = rep.get(f, {}).get("total_ns")
        if want is None:
            bad.append("%s: in %s, not in report" % (f, ", ".join(sorted(same[f]))))
            continue
        for v, t in same[f].items():
            views.add(v)
            if t != want:
                bad.append("%s: %d ns in %s, %d in report" % (f, t, v, want))
        for v, (lo, hi) in ranges[f].items():
            views.add(v)
            if not lo <= want <= hi:
                bad.append("%s: %d..%d ns in %s, %d in report" % (f, lo, hi, v, want))
    top = sorted((f for f in rep if f != "main"), key=lambda f: -rep[f]["total_ns"])[:a.top]
    for f in (["main"] if "main" in rep else []) + top:
        vs = sorted(set(same.get(f, {})) | set(ranges.get(f, {})))
        OUT.check(not [b for b in bad if b.startswith(f + ":")],
                  "%s: %d ns in %s" % (f, rep[f]["total_ns"], ", ".join(vs)),
                  [b for b in bad if b.startswith(f + ":")])
    bad = [b for b in bad if b.split(":")[0] not in ["main"] + top]
    OUT.check(not bad, "one number: the other %d functions' totals equal in %s"
              % (len(rep) - len(top) - ("main" in rep), ", ".join(sorted(views))), bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("calltrace", help="the calltrace binary")
    ap.add_argument("data", help="the recording")
    ap.add_argument("--mode", choices=("both", "corrected", "raw"), default="both")
    ap.add_argument("--top", type=int, default=5,
                    help="functions (after main) named in their own lines (default 5)")
    ap.add_argument("--causality", action="store_true",
                    help="check the timelines' causality (threads, fork)")
    ap.add_argument("--join", default=r"^pthread_join(@|$)",
                    help="regex of the slices that join threads")
    ap.add_argument("--fork", default=r"^(fork|_Fork|__libc_fork)(@|$)",
                    help="regex of the slices that fork")
    ap.add_argument("--work", help="keep the exported files here (default: a temporary "
                    "directory, removed)")
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        print("BAD %s: not a directory" % a.data)
        return 2
    work = a.work or tempfile.mkdtemp(prefix="check_times.")
    os.makedirs(work, exist_ok=True)
    try:
        for raw in ((False, True) if a.mode == "both" else (a.mode == "raw",)):
            check_mode(a, raw, work)
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    print("%d checks, %d bad" % (OUT.n, OUT.bad))
    return 1 if OUT.bad else 0


if __name__ == "__main__":
    sys.exit(main())
