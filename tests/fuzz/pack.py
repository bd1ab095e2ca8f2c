#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pack a calltrace data directory into one fuzz input (tests/fuzz/fuzz_reader.c):
"\\0CT:" NAME "\\n" CONTENT per file.

    pack.py DATA_DIR OUT [MAX_SYM_BYTES]

Module paths with a build-id are rewritten to /nonexistent/BASENAME so that
the fuzzer never opens the real binaries (their symbols come from sym/);
sym/ files larger than MAX_SYM_BYTES (default 16384) are left out."""
import os
import re
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    max_sym = int(sys.argv[3]) if len(sys.argv) > 3 else 16384
    parts = []
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name == "sym":
            for s in sorted(os.listdir(path)):
                sp = os.path.join(path, s)
                if os.path.getsize(sp) <= max_sym:
                    parts.append(("sym/" + s, open(sp, "rb").read()))
            continue
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        if name.endswith(".proc"):
            lines = []
            for line in data.split(b"\n"):
                m = re.match(rb"^(module \S+ \S+ \S+ \S+ )([0-9a-f]+) (.*)$", line)
                if m:
                    base = os.path.basename(m.group(3)) or b"x"
                    line = m.group(1) + m.group(2) + b" /nonexistent/" + base
                lines.append(line)
            data = b"\n".join(lines)
        parts.append((name, data))
    # info, the .proc files and args.spec first: the harness takes at most
    # 64 files
    def rank(part):
        n = part[0]
        return (0 if n == "info" else 1 if n.endswith(".proc") else 2 if n == "args.spec"
                else 3 if n.endswith(".ev") else 4, n)
    parts.sort(key=rank)
    with open(out, "wb") as f:
        for name, data in parts:
            f.write(b"\0CT:" + name.encode() + b"\n" + data)


main()
