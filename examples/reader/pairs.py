#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pairs.py: the calls made along each caller -> callee pair of a calltrace
recording, most first, as examples/reader/pairs.c prints them; outermost
calls have the caller <root>.  An example of the Python module
(doc/reader.md):

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 pairs.py [DIR]

All threads are read merged in time order; each keeps its own stack of
open calls, indexed by depth.
"""
import collections
import sys

import calltrace
from calltrace import R_DEPTH, R_KIND, R_NAME, R_THREAD, ENTRY


def pairs(path):
    counts = collections.Counter()
    with calltrace.Recording(path) as rec:
        stacks = [[] for _ in rec.threads]
        for r in rec.records():
            if r[R_KIND] != ENTRY:
                continue
            stack, depth, name = stacks[r[R_THREAD]], r[R_DEPTH], r[R_NAME]
            del stack[depth:]
            counts[(stack[depth - 1] if depth else -1, name)] += 1
            stack.append(name)
        names = rec.names
        rows = [(n, "<root>" if a < 0 else names[a], names[b]) for (a, b), n in counts.items()]
        for w in rec.warnings:
            print("pairs.py: warning: %s" % w, file=sys.stderr)
    rows.sort(key=lambda x: (-x[0], x[1], x[2]))
    return rows


def main():
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        print("usage: pairs.py [DIR]  (default calltrace.data)", file=sys.stderr)
        return 2
    try:
        rows = pairs(sys.argv[1] if len(sys.argv) == 2 else "calltrace.data")
    except calltrace.Error as e:
        print("pairs.py: %s" % e.message, file=sys.stderr)
        return 1
    out = sys.stdout
    try:
        for n, a, b in rows:
            out.write("%10d  %s -> %s\n" % (n, a, b))
        out.flush()
    except BrokenPipeError:
        # the reader went away (pairs.py | head): quietly, as a C program
        # killed by SIGPIPE; stdout pointed at /dev/null so that Python's
        # final flush does not complain again
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


if __name__ == "__main__":
    sys.exit(main())
