#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the instructions of two builds of a shared object, function by
function, normalised for addresses (doc/runtime.md, "The hot path"):

    tools/disasm-cmp.py [--renamed OLD=NEW]... OLD.so NEW.so [FUNCTION...]

Each function's `objdump -d --no-show-raw-insn` with the addresses taken
out: a branch inside the function by the number of the instruction it goes
to (a short or a near jump alike), a call or jump elsewhere by its target's
name, a data reference by the symbol objdump names (its offset kept unless
that symbol is a local anchor or a PLT slot), the alignment padding after
the last instruction dropped.  Without FUNCTION, the runtime's hot paths
(the hooks, the trampolines, the record writers, the buffer switch).  Prints
one line per function, "same" or "DIFFERS" (then the diff), and exits 1 if
any differs or is missing.  --renamed: a function called by another name
in NEW (a static one made hidden, say) is the same call.

    make && cp build/libcalltrace.so /tmp/old.so   # before the change
    make && tools/disasm-cmp.py /tmp/old.so build/libcalltrace.so"""
import difflib
import re
import subprocess
import sys

HOT = """enter_plain exit_plain enter_sel exit_sel ct_hook_enter ct_hook_return __fentry__ _mcount
ct_patch_tramp ct_return_tramp ct_libcall_tramp ct_count___fentry__
ct_count_mcount ct_count_ct_patch_tramp ct_count_enter ct_count_exit
ct_put_words ct_put_time ct_put_enter ct_put_exit ct_put_nested_lost
ct_put_mark ct_buffer_full buffer_full_rel.constprop.0""".split()


def functions(so):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", so], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.split("\n"):
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            cur = m.group(2)
            funcs[cur] = (int(m.group(1), 16), [])
            continue
        m = re.match(r"^\s*([0-9a-f]+):\t(.*)$", line)
        if m and cur:
            funcs[cur][1].append((int(m.group(1), 16), m.group(2).strip()))
    return funcs


def normalise(name, start, insns, renamed=None):
    index = {a - start: i for i, (a, _) in enumerate(insns)}
    lines = []
    for _, s in insns:
        def target(m):
            sym, off = m.group(1), m.group(2)
            o = int(off, 16) if off else 0
            if sym == name and o in index:
                return "<L%d>" % index[o]
            sym = (renamed or {}).get(sym, sym)
            return "<%s%s>" % (sym, "+0x" + off if off else "")
        s = re.sub(r"(?:0x)?[0-9a-f]+ <([^>+]+)(?:\+0x([0-9a-f]+))?>", target, s)
        s = re.sub(r"-?0x[0-9a-f]+\(%rip\)", "X(%rip)", s)
        s = re.sub(r"#\s*", "# ", s)
        s = re.sub(r"# <([^>+]*(?:\.|@@|_fini)[^>+]*)\+[0-9a-fx]+>", r"# <\1+?>", s)
        lines.append(s)
    while lines and re.match(r"(nop|xchg +%ax,%ax|data16|cs nop)", lines[-1]):
        lines.pop()
    return lines


def main():
    args, renamed = sys.argv[1:], {}
    while len(args) >= 2 and args[0] == "--renamed" and "=" in args[1]:
        o, n = args[1].split("=", 1)
        renamed[o] = n
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    old, new = functions(args[0]), functions(args[1])
    bad = 0
    for f in args[2:] or HOT:
        if f not in old or f not in new:
            print("%-32s missing in %s" % (f, args[0] if f not in old else args[1]))
            bad += 1
            continue
        a, b = normalise(f, *old[f], renamed), normalise(f, *new[f])
        if a == b:
            print("%-32s same (%d instructions)" % (f, len(a)))
        else:
            print("%-32s DIFFERS" % f)
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(a, b, "old", "new", lineterm=""))
            bad += 1
    sys.exit(1 if bad else 0)


main()
