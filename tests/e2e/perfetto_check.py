# SPDX-License-Identifier: MIT
# Checks a Perfetto trace written by `calltrace export --format=perfetto`,
# as decoded by `protoc --decode=perfetto.protos.Trace tests/e2e/perfetto.proto`
# (protoc's text format), and prints a summary for the golden file:
#
#   python3 perfetto_check.py DECODED.txt [CHROME.json] [--slices OUT.json]
#
# - the process and thread track descriptors (a thread's parent is its
#   process's track), and the one track named "calltrace: ..." that says
#   which times the trace holds;
# - per sequence: the first packet clears the incremental state, the later
#   ones need it; timestamps never go back; every name_iid was interned
#   earlier on the same sequence, and no iid names two strings;
# - per track: every begin has its end and they nest; instant events
#   (calltrace_mark()) carry a name;
# - the slices per function name; the debug annotations;
# - with CHROME.json (the chrome export with the same options): the same
#   slices (track, name, start and end in ns, annotations) as its X events,
#   its times read as Perfetto reads them (ts and dur rounded to ns each),
#   and the same marks as its instant events;
# - --slices OUT.json: the slices [pid, tid, name, begin, end] and marks
#   [pid, tid, text, time] written there, times in ns (for nest_check.py).
# Problems are printed as lines starting with "BAD".
import json
import math
import re
import sys
from collections import Counter, defaultdict


def parse(path):
    """protoc text format -> nested dicts of lists"""
    root = defaultdict(list)
    stack = [root]
    unknown = 0
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            key = line[:-1].strip()
            node = defaultdict(list)
            stack[-1][key].append(node)
            stack.append(node)
        else:
            key, _, val = line.partition(": ")
            if val.startswith('"'):
                val = bytes(val[1:-1], "utf-8").decode("unicode_escape").encode(
                    "latin-1").decode("utf-8")
            elif re.fullmatch(r"-?\d+", val):
                val = int(val)
            stack[-1][key].append(val)
        if re.fullmatch(r"\d+", key):
            unknown += 1
    return root, unknown


def one(node, key, default=None):
    v = node.get(key)
    return v[0] if v else default


def llround(x):
    """C's llround of a double (halves away from zero), as Perfetto does"""
    f = math.floor(x)
    return int(f) + (1 if x - f >= 0.5 else 0)


def main():
    args = sys.argv[1:]
    dump = None
    if "--slices" in args:
        i = args.index("--slices")
        dump = args[i + 1]
        del args[i:i + 2]
    trace, unknown = parse(args[0])
    bad = []
    if unknown:
        bad.append("fields unknown to the schema: %d" % unknown)
    packets = trace.get("packet", [])

    procs, threads = {}, {}  # uuid -> descriptor
    notes = []  # the names of the calltrace note tracks
    for p in packets:
        td = one(p, "track_descriptor")
        if not td:
            continue
        uuid = one(td, "uuid")
        if uuid in procs or uuid in threads:
            bad.append("uuid %s described twice" % uuid)
        if one(td, "process"):
            procs[uuid] = one(td, "process")
        elif one(td, "thread"):
            threads[uuid] = (one(td, "thread"), one(td, "parent_uuid"))
        elif str(one(td, "name", "")).startswith("calltrace: "):
            # which times the trace holds (corrected, or as recorded)
            notes.append(one(td, "name"))
        else:
            bad.append("track descriptor %s: no process, no thread" % uuid)
    if len(notes) != 1:
        bad.append("%d calltrace tracks saying which times these are" % len(notes))
    for n in notes:
        print("track", n)
    for uuid, pd in sorted(procs.items(), key=lambda kv: one(kv[1], "process_name")):
        print("process", one(pd, "process_name"), "cmdline", " ".join(pd.get("cmdline", [])))
    names = []
    for uuid, (thd, parent) in threads.items():
        pid, tid = one(thd, "pid"), one(thd, "tid")
        kind = "main" if pid == tid else "other"
        tn = one(thd, "thread_name", "")
        if tn != ("main (%d)" % tid if kind == "main" else "thread %d" % tid):
            bad.append("thread %d: name %r" % (tid, tn))
        if parent not in procs or one(procs[parent], "pid") != pid:
            bad.append("thread %d: parent_uuid %s is not its process" % (tid, parent))
        names.append("thread %s of process %s" % (kind, one(procs[parent], "process_name")
                                                    if parent in procs else "?"))
    for n, c in sorted(Counter(names).items()):
        print(n + (" x%d" % c if c > 1 else ""))

    # clocks: a ClockSnapshot (MONOTONIC and REALTIME at the start of the
    # recording, MONOTONIC the trace's clock) and, then, every sequence of
    # events says its timestamps are MONOTONIC; times below are relative
    # to the snapshot's MONOTONIC
    base, mono = 0, False
    snaps = [one(p, "clock_snapshot") for p in packets if one(p, "clock_snapshot")]
    if snaps:
        clocks = {one(c, "clock_id"): one(c, "timestamp") for c in snaps[0].get("clocks", [])}
        if one(snaps[0], "primary_trace_clock") != 3 or 3 not in clocks or 1 not in clocks:
            bad.append("clock snapshot: %r" % (snaps[0],))
        base, mono = clocks.get(3, 0), True
        print("clock snapshot: MONOTONIC and REALTIME, MONOTONIC primary")
    if len(snaps) > 1:
        bad.append("%d clock snapshots" % len(snaps))

    # sequences
    seqs = {}  # id -> {"iids": {}, "last": ts, "n": packets}
    open_ = defaultdict(list)  # track -> stack of (name, ts, annotations)
    slices = []  # (track, name, begin, end, annotations)
    marks = []  # (track, text, time)
    interned = set()
    nbegin = nend = 0
    for p in packets:
        seq = one(p, "trusted_packet_sequence_id")
        if seq is None:
            bad.append("packet without a sequence id")
            continue
        st = seqs.get(seq)
        flags = one(p, "sequence_flags", 0)
        if st is None:
            st = seqs[seq] = {"iids": {}, "last": 0, "n": 0}
            if flags != 1 or not one(p, "first_packet_on_sequence"):
                bad.append("sequence %d: its first packet does not clear the state" % seq)
            d = one(p, "trace_packet_defaults")
            if mono and one(p, "track_event") and (not d or one(d, "timestamp_clock_id") != 3):
                bad.append("sequence %d: timestamps not declared MONOTONIC" % seq)
        elif flags != 2 and one(p, "track_event"):
            bad.append("sequence %d: a later packet has flags %s" % (seq, flags))
        st["n"] += 1
        idata = one(p, "interned_data")
        if idata:
            for en in idata.get("event_names", []):
                iid, name = one(en, "iid"), one(en, "name")
                if st["iids"].get(iid, name) != name:
                    bad.append("sequence %d: iid %d redefined" % (seq, iid))
                st["iids"][iid] = name
                interned.add(name)
        te = one(p, "track_event")
        if not te:
            continue
        ts = one(p, "timestamp")
        if ts is not None:
            if ts < base:
                bad.append("timestamp %s before the clock snapshot's %s" % (ts, base))
            ts -= base
        if ts is None or ts < st["last"]:
            bad.append("sequence %d: timestamp %s after %s" % (seq, ts, st["last"]))
        st["last"] = ts if ts is not None else st["last"]
        track = one(te, "track_uuid")
        if track not in threads:
            bad.append("event on track %s, not a thread track" % track)
        ann = {one(a, "name"): one(a, "string_value", one(a, "uint_value"))
               for a in te.get("debug_annotations", [])}
        typ = one(te, "type")
        if typ == "TYPE_SLICE_BEGIN":
            nbegin += 1
            iid = one(te, "name_iid")
            if iid not in st["iids"]:
                bad.append("sequence %d: name_iid %s not interned before" % (seq, iid))
            open_[track].append((st["iids"].get(iid, "?"), ts, ann))
        elif typ == "TYPE_SLICE_END":
            nend += 1
            if not open_[track]:
                bad.append("track %s: end without begin at %s" % (track, ts))
                continue
            name, b, a0 = open_[track].pop()
            a0 = dict(a0)
            a0.update(ann)
            slices.append((track, name, b, ts, tuple(sorted(a0.items()))))
        elif typ == "TYPE_INSTANT":
            if one(te, "name") is None:
                bad.append("track %s: an instant event without a name at %s" % (track, ts))
            marks.append((track, one(te, "name"), ts))
        else:
            bad.append("event type %s" % typ)
    for track, st in open_.items():
        if st:
            bad.append("track %s: %d slices never end" % (track, len(st)))

    print("sequences with events:", sum(1 for s in seqs.values() if s["n"]) - (1 if procs else 0))
    print("interned names:", " ".join(sorted(interned)))
    print("begin", nbegin, "end", nend, "equal" if nbegin == nend else "DIFFERENT")
    for name, n in sorted(Counter(s[1] for s in slices).items()):
        print("slices", name, n)
    # (the times, which differ from run to run, are compared with chrome's below)
    anns = Counter(a for s in slices for a in s[4] if a[0] not in ("time_ns", "self_ns"))
    for (k, v), n in sorted(anns.items()):
        print("annotation %s=%s" % (k, v), n)

    if marks:
        print("marks:", len(marks))
    tids = {uuid: (one(thd, "pid"), one(thd, "tid")) for uuid, (thd, _) in threads.items()}
    if len(args) > 1:
        evs = json.load(open(args[1]))["traceEvents"]
        bytid = {v: k for k, v in tids.items()}
        want, wmarks = Counter(), Counter()
        for e in evs:
            if e["ph"] == "i":
                wmarks[(bytid.get((e["pid"], e["tid"])), e["name"], llround(e["ts"] * 1000.0))] += 1
            if e["ph"] != "X":
                continue
            # chrome's times as Perfetto reads them: its ns exactly
            # (builtin/export.c)
            b = llround(e["ts"] * 1000.0)
            want[(bytid.get((e["pid"], e["tid"])), e["name"], b, b + llround(e["dur"] * 1000.0),
                  tuple(sorted(e.get("args", {}).items())))] += 1
        got = Counter(slices)
        if got == want:
            print("same slices as chrome:", sum(got.values()))
        else:
            print("BAD slices differ from chrome: %d vs %d" % (sum(got.values()), sum(want.values())))
            for k in list((got - want).keys())[:5]:
                print("BAD  only in perfetto:", k)
            for k in list((want - got).keys())[:5]:
                print("BAD  only in chrome:", k)
        if Counter(marks) != wmarks:
            print("BAD marks differ from chrome: %d vs %d" % (len(marks), sum(wmarks.values())))
    if dump:
        with open(dump, "w") as f:
            json.dump({"slices": [[*tids.get(s[0], (None, None)), s[1], s[2], s[3]] for s in slices],
                       "marks": [[*tids.get(m[0], (None, None)), m[1], m[2]] for m in marks]}, f)
    for b in bad[:20]:
        print("BAD", b)
    if not bad:
        print("structure ok")


main()
