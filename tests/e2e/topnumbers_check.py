#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The numbers of top and live against report's and replay's (topnumbers.sh).

  topnumbers_check.py top TOP_OUTPUT REPORT_OUTPUT [SHOWN]
      TOP_OUTPUT: `calltrace top --output=FILE` (a table each interval,
      then the final profile); REPORT_OUTPUT: `calltrace report` (text) of
      the same recording.  Checks that the final table's SELF, CALLS and
      AVG of every function are report's Self time, Calls and Average, as
      printed, and that no function's SELF ever goes down from one table
      to the next (the strings of ct_format_duration read back as ns).
      Prints whether there were tables before the final one, the final
      rows' FUNCTION CALLS (of the functions whose names match the regular
      expression SHOWN, all without it), and what was checked.
  topnumbers_check.py live LIVE_OUTPUT REPLAY_OUTPUT
      LIVE_OUTPUT: `calltrace live --output=FILE`; REPLAY_OUTPUT: `calltrace
      replay` of the same recording.  Each thread's lines, in order, with
      their durations (a leaf's one line split in an entry and an exit, as
      live shows a leaf whose exit came later), must be replay's.

Any difference is printed to stderr (the first few) and the exit status
is 1.
"""
import re
import sys

UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}


def ns_of(value, unit):
    """ct_format_duration's "W.FFF unit" back to ns (the digits it shows)"""
    whole, frac = value.split(".")
    return int(whole) * UNITS[unit] + int(frac) * (UNITS[unit] // 1000 if unit != "ns" else 0)


def top_tables(path):
    """[(header, {function: (self_text, self_ns, calls, avg_text)})] in order"""
    tables = []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# calltrace top:"):
            tables.append((line, {}))
            continue
        f = line.split()
        if not tables or not f or f[0] == "SELF" or line.startswith("("):
            continue
        # SELF(value unit) SELF% CALLS AVG(value unit) FUNCTION
        if len(f) < 7 or f[2].endswith("%") is False:
            raise SystemExit("%s: not a row of top's table: %r" % (path, line))
        name = " ".join(f[6:])
        tables[-1][1][name] = (f[0] + " " + f[1], ns_of(f[0], f[1]), f[3], f[4] + " " + f[5])
    return tables


def report_rows(path):
    """{function: (self_text, calls, avg_text)} of report's text table"""
    rows = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) < 12 or not re.match(r"^[0-9]+\.[0-9]{3}$", f[0]):
            continue
        # Total Self Calls Average Min Max Function [*]
        name = " ".join(f[11:])
        if name.endswith(" *"):
            name = name[:-2]
        rows[name] = (f[2] + " " + f[3], f[4], f[5] + " " + f[6])
    return rows


def check_top(top_path, report_path, shown=None):
    errors = []
    tables = top_tables(top_path)
    if not tables or "(final profile)" not in tables[-1][0]:
        raise SystemExit("%s: no final profile" % top_path)
    final = tables[-1][1]
    rep = report_rows(report_path)
    if set(final) != set(rep):
        errors.append("functions: top %s, report %s" % (sorted(final), sorted(rep)))
    for name in sorted(set(final) & set(rep)):
        t, r = final[name], rep[name]
        if (t[0], t[2], t[3]) != r:
            errors.append("%s: top SELF %s CALLS %s AVG %s, report %s %s %s"
                          % (name, t[0], t[2], t[3], r[0], r[1], r[2]))
    last = {}
    for i, (head, rows) in enumerate(tables):
        for name, row in rows.items():
            if name in last and row[1] < last[name][1]:
                errors.append("%s: SELF %s in table %d (%s), %s before"
                              % (name, row[0], i + 1, head, last[name][0]))
            last[name] = row
    for e in errors[:12]:
        print(e, file=sys.stderr)
    print("tables before the final one: %s" % ("some" if len(tables) > 1 else "none"))
    for name in sorted(final):
        if shown is None or re.search(shown, name):
            print("%s %s" % (name, final[name][2]))
    if not errors:
        print("final profile = report's (SELF, CALLS, AVG); SELF never goes down")
    return 1 if errors else 0


LINE = re.compile(r"^ *(?P<dur>[0-9]+\.[0-9]{3} +[a-z]+)? *\[ *(?P<tid>[0-9]+)\] \| (?P<rest>.*)$")


def tree_lines(path):
    """{tid: [line...]}: a leaf 'f();' as 'f() {' and '} /* f */' (its
    duration on the exit), durations as printed"""
    per = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue  # the header, the program's own output (live on stdout)
        dur, rest = m.group("dur") or "", m.group("rest")
        text = rest.lstrip(" ")
        ind = rest[: len(rest) - len(text)]
        out = per.setdefault(m.group("tid"), [])
        leaf = re.match(r"^(.*)\(\);(?: /\* (.*) \*/)?$", text)
        if leaf and not text.startswith("}"):
            name, why = leaf.group(1), leaf.group(2)
            out.append(" | %s%s() {" % (ind, name))
            text = "} /* %s%s */" % (name, ": " + why if why else "")
        out.append("%s | %s%s" % (dur, ind, text))
    return per


def check_live(live_path, replay_path):
    live, rep = tree_lines(live_path), tree_lines(replay_path)
    errors = []
    if sorted(live) != sorted(rep):
        errors.append("threads: live %d, replay %d" % (len(live), len(rep)))
    lines = 0
    for tid in sorted(set(live) & set(rep)):
        a, b = live[tid], rep[tid]
        lines += len(b)
        for i in range(max(len(a), len(b))):
            la = a[i] if i < len(a) else "(none)"
            lb = b[i] if i < len(b) else "(none)"
            if la != lb:
                errors.append("thread %s, line %d: live %r, replay %r" % (tid, i + 1, la, lb))
                break
    for e in errors[:12]:
        print(e, file=sys.stderr)
    print("threads: %d" % len(rep))
    if not errors:
        print("every thread's lines and durations are replay's")
    return 1 if errors else 0


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("top", "live"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "top":
        return check_top(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) == 5 else None)
    return check_live(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
