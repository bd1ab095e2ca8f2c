#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Count the instructions of the hooks' fast paths in a build of the
runtime, from its disassembly (doc/runtime.md, "AArch64": emulated time
means nothing, so the cost on aarch64 is given in instructions):

    tools/hook-insns.py [--objdump PROG] LIB.so [FUNCTION...]

Walks each function (default: enter_plain exit_plain, the
-finstrument-functions hooks as the ifunc picks them without --callsite,
-F/-N at record time or a plugin) from its first instruction along the
path the compiler laid out as the likely one: a conditional branch falls
through (the runtime marks its rare cases unlikely(), which gcc places out
of line), an unconditional branch inside the function is followed, a
branch back to an instruction already counted (an ldxr/stxr retry, which
only a signal or another core's store to the line takes) is not, and the
walk ends at ret.  A call, or a branch out of the function, on that path
ends the walk with an error: the fast path must not call.  Prints one line
per function, "NAME N instructions (L loads, S stores)", and the sum.
A NAME ending in "+" (a trampoline: ct_patch_tramp+) may call: each call
on its path counts as one instruction and the walk goes on after it (the
called function is counted by naming it too).
Works for x86-64 (objdump) and aarch64 (aarch64-linux-gnu-objdump)."""
import re
import subprocess
import sys


def disasm(objdump, lib, fn):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", lib], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"^[0-9a-f]+ <%s>:\n(.*?)(?:\n\n|\Z)" % re.escape(fn), out, re.S | re.M)
    if not m:
        return None
    insns = []
    for line in m.group(1).splitlines():
        p = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if p:
            insns.append((int(p.group(1), 16), p.group(2), p.group(3)))
    return insns


COND = re.compile(r"^(b\.\w+|cbn?z|tbn?z|j(?!mp)\w+)$")
UNCOND = ("b", "jmp")
RET = ("ret", "retq")
CALL = ("bl", "blr", "call", "callq")


def walk(insns, calls=False):
    at = {a: i for i, (a, _, _) in enumerate(insns)}
    i, seen, n, loads, stores = 0, set(), 0, 0, 0
    while True:
        if i >= len(insns):
            raise ValueError("fell off the end")
        a, op, args = insns[i]
        if a in seen:
            raise ValueError("loops at %x" % a)
        seen.add(a)
        n += 1
        if op.startswith(("ldr", "ldp", "ldx", "lda")) or (op.startswith("mov") and "(" in args.split(",")[0]):
            loads += 1
        if op.startswith(("str", "stp", "stx", "stl")) or (op.startswith("mov") and args.rstrip().endswith(")")):
            stores += 1
        if op in RET:
            return n, loads, stores
        if op in CALL and calls:
            i += 1
            continue
        if op in CALL:
            raise ValueError("calls at %x: %s %s" % (a, op, args))
        target = re.match(r"([0-9a-f]+)\b", args)
        if op in UNCOND:
            t = int(target.group(1), 16) if target else None
            if t is None or t not in at:
                raise ValueError("leaves the function at %x: %s %s" % (a, op, args))
            i = at[t]
            continue
        if COND.match(op) and target and int(target.group(1), 16) in seen:
            pass  # a retry loop's branch back: not taken
        i += 1


def main(argv):
    objdump = "objdump"
    if len(argv) > 2 and argv[1] == "--objdump":
        objdump = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    lib, fns = argv[1], argv[2:] or ["enter_plain", "exit_plain"]
    total, rc = 0, 0
    for fn in fns:
        calls = fn.endswith("+")
        fn = fn.rstrip("+")
        insns = disasm(objdump, lib, fn)
        if not insns:
            print("%s: no function %s" % (lib, fn), file=sys.stderr)
            rc = 1
            continue
        try:
            n, ld, st = walk(insns, calls)
        except ValueError as e:
            print("%s: %s" % (fn, e), file=sys.stderr)
            rc = 1
            continue
        total += n
        print("%-12s %3d instructions (%d loads, %d stores)" % (fn, n, ld, st))
    print("%-12s %3d instructions per traced call" % ("both", total))
    return rc


sys.exit(main(sys.argv))
