# replay -f FIELDS (uftrace's output fields) and -r START~END in absolute
# timestamps as -f time prints them, on replay, report, graph and callers
# (issue 30).  Every range is read from the recording itself (-f time has
# the ns), so nothing depends on the machine's speed.
# variants: all
# front-ends: few
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

# the numbers of a line hidden: timestamps TS, times D, addresses ADDR
hide_numbers() {
	sed -E 's/[0-9]+\.[0-9]{9}/TS/g; s/[0-9]+\.[0-9]{3} ( s|[mun]s)/D/g;
		s/(^| )[0-9a-f]{4,16} /\1ADDR /g; s/  +/ /g; s/^ //' | normalize
}

section "replay -f duration,tid is replay; -f tid is --no-duration"
ct replay d >"$W/default.tree"
ct replay d -f duration,tid >"$W/dt.tree"
cmp -s "$W/default.tree" "$W/dt.tree" && echo "-f duration,tid: same" | add ||
	echo "-f duration,tid: DIFFERS" | add
ct replay d --no-duration >"$W/nodur.tree"
ct replay d -f tid >"$W/tid.tree"
cmp -s "$W/nodur.tree" "$W/tid.tree" && echo "-f tid: same" | add || echo "-f tid: DIFFERS" | add
ct replay d -f +time --no-duration >"$W/plus.tree"
ct replay d -f tid,time >"$W/tidtime.tree"
cmp -s "$W/plus.tree" "$W/tidtime.tree" && echo "-f +time --no-duration: -f tid,time" | add ||
	echo "-f +time --no-duration: DIFFERS from -f tid,time" | add

section "replay -f time,delta,duration,addr"
ct replay d -f time,delta,duration,addr | hide_numbers | add
section "replay -f +elapsed,task,module"
ct replay d -f +elapsed,task,module | hide_numbers | add
section "replay -f none"
ct replay d -f none | add

# the values: delta is the time since the thread's line before; elapsed
# and time differ by one constant (the recording's start); each address
# is inside its function (nm); a leaf's line is at its entry, before the
# next line; --raw changes the durations, not the places
ct replay d -f time,delta,elapsed,addr,tid >"$W/all.tree"
ct replay d --raw -f time,delta,elapsed,addr,tid >"$W/raw.tree"
nm -S --defined-only "$W/basic" >"$W/basic.nm"
section "the values of time, delta, elapsed and addr"
python3 - "$W/all.tree" "$W/raw.tree" "$W/basic.nm" <<'PY' | add
import re, sys
units = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
def ns(txt):
    v, u = txt.split()
    return float(v) * units[u]
syms = {}
for l in open(sys.argv[3]):
    p = l.split()
    if len(p) == 4 and p[2] in "tTwW":
        syms.setdefault(p[3], []).append((int(p[0], 16), int(p[1], 16)))
line_re = re.compile(r"^ *(\d+)\.(\d{9}) (.{10}) (.{10}) +([0-9a-f]+) \[ *(\d+)\] \| +(.*)$")
rows, bad = [], []
for l in open(sys.argv[1]).read().splitlines()[1:]:
    m = line_re.match(l)
    if not m:
        bad.append("unparsed line: " + l)
        continue
    t = int(m.group(1)) * 10**9 + int(m.group(2))
    rows.append((t, m.group(3).strip(), ns(m.group(4)), int(m.group(5), 16), m.group(7)))
prev, base = None, None
for t, delta, el, addr, fn in rows:
    if prev is not None:
        if prev > t:
            bad.append("time goes back at " + fn)
        if not delta:
            bad.append("no delta at " + fn)
        elif abs(ns(delta) - (t - prev)) > ns(delta) * 0.001 + 1:
            bad.append("delta %s, but %d ns since the line before, at %s" % (delta, t - prev, fn))
    elif delta:
        bad.append("a delta on the first line")
    prev = t
    if base is None:
        base = t - el
    # elapsed is shown with 4 digits (the first line's too): time - base
    # within 0.1 % of it
    if abs(el - (t - base)) > (el + t - base) * 0.001 + 1:
        bad.append("elapsed %d ns, time - start %d ns at %s" % (el, t - base, fn))
    name = re.sub(r"^} /\* | \*/$|\(\).*$|;$", "", fn)
    if not any(a <= addr < a + s or (s == 0 and a == addr) for a, s in syms.get(name, [])):
        # PIE: compare the offset in the page
        if not any((addr - a) % 4096 < max(s, 1) for a, s in syms.get(name, [])):
            bad.append("addr %x is not in %s" % (addr, name))
print("%d lines, %s" % (len(rows), "; ".join(bad) if bad else "all consistent"))
raw = [l[:19] for l in open(sys.argv[2]).read().splitlines()]
cor = [l[:19] for l in open(sys.argv[1]).read().splitlines()]
print("--raw: %s" % ("the same times" if raw == cor else "OTHER TIMES"))
PY

# the times of inner's entry and exit, as -f time prints them
ct replay d -f time --no-duration >"$W/time.tree"
tin=$(awk '$NF == "inner()" && $(NF-1) == "{" { print $1; exit }' "$W/time.tree")
tin=${tin:-$(awk '/inner\(\) \{/ { print $1; exit }' "$W/time.tree")}
tout=$(awk '/} \/\* inner \*\// { print $1; exit }' "$W/time.tree")
[ -n "$tin" ] && [ -n "$tout" ] || die "no inner() lines in replay -f time: $(head -5 "$W/time.tree")"
for r in "$tin~$tout=IN~OUT" "$tin~=IN~" "~$tin=~IN" "0ns~$tout=0ns~OUT"; do
	section "replay -r ${r#*=} (IN, OUT: inner's entry and exit timestamps)"
	ct replay d --no-duration -r "${r%%=*}" | normalize | add
done
section "replay -r IN~OUT -F middle, -N leaf, --tid"
ct replay d --no-duration -r "$tin~$tout" -F middle | normalize | add
ct replay d --no-duration -r "$tin~$tout" -N leaf | normalize | add
tid=$(ls "$W/d" | sed -n 's/^[0-9]*-[0-9]*-\([0-9]*\)\.ev$/\1/p' | head -1)
ct replay d --no-duration -r "$tin~$tout" --tid "$tid" | normalize | add
section "report, graph, callers -r IN~OUT"
ct report d -r "$tin~$tout" --format=csv | csv_calls | add
ct graph d -r "$tin~$tout" --no-time | add
ct callers d -r "$tin~$tout" --no-time inner | add

section "ranges outside the recording: nothing, a message, exit 1"
for v in replay report graph callers; do
	for r in 1h~ 1.000000000~2.000000000; do
		a=; [ $v = callers ] && a=leaf
		guard "$CT" $v -d "$W/d" -r "$r" $a >"$W/o.out" 2>"$W/o.err"
		echo "$v -r $r: exit $RC, $(grep -c '[a-z]()' "$W/o.out") calls: $(sed 's/(the recording lasts .*)/(the recording lasts T)/' "$W/o.err")" | add
	done
done

section "bad fields and ranges: exit 2"
for f in foo duration,foo none,tid ''; do
	guard "$CT" replay -d "$W/d" -f "$f" >/dev/null 2>"$W/f.err"
	echo "-f '$f': exit $RC: $(head -1 "$W/f.err")" | add
done
for r in 5ms 2.5~1.5 '~~' 1ms~1.000000000; do
	guard "$CT" replay -d "$W/d" -r "$r" >/dev/null 2>"$W/r.err"
	echo "-r $r: exit $RC: $(head -1 "$W/r.err")" | add
done
