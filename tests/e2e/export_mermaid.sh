# export_mermaid: --format=mermaid (issue 30, uftrace's dump --mermaid),
# the call graph as a Mermaid flowchart: the same nodes, edges, calls and
# self times as --format=dot's (both written from callgrind's aggregates);
# the command line in the title with its quotes and backslashes escaped
# for YAML; C++ names (templates, '&&', operators) and a '#', '<', '|'
# in labels written as Mermaid's entities; rendered by the mermaid npm
# package in headless Chromium (tests/browser/mermaid.js: a node per
# function, an edge per arc, the labels), which fails on a broken chart
# (in gcc-O0 only: export_mermaid.browser.expected); a recording of
# counts only refused.
# variants: all
# front-ends: few
build basic "$E2E/basic.c"
record d ./basic 'say "hi" \n #1 <b>|'
want_rc "record ./basic" $RC 0 "$W/d.err"

section "export --format=mermaid: nodes and edges, times hidden"
ct export d --format=mermaid -o "$W/g.mmd"
sed -E 's/(self |<br>)[0-9.]+ (ns|us|ms|s)/\1TIME/g; s/stroke-width:[0-9.]+px/stroke-width:W/' "$W/g.mmd" | add

section "the same graph and figures as --format=dot"
ct export d --format=dot -o "$W/g.dot"
python3 - "$W/g.mmd" "$W/g.dot" <<'PY' | add
import re, sys
mm, dot = open(sys.argv[1]).read(), open(sys.argv[2]).read()
def ent(s):
    return re.sub(r'#(\d+);', lambda m: chr(int(m.group(1))), s)
def undot(s):
    return re.sub(r'\\(.)', r'\1', s)
mn = {m.group(1): (ent(m.group(2)), m.group(3)) for m in re.finditer(r'    (f\d+)\["(.*?)<br>self (.*?)"\]', mm)}
dn = {m.group(1): (undot(m.group(2)), m.group(3)) for m in re.finditer(r'\t(f\d+) \[label="((?:[^"\\]|\\.)*?)\\nself (.*?)"\]', dot)}
me = sorted((mn[a][0], mn[b][0], c, t) for a, c, t, b in re.findall(r'    (f\d+) -->\|"(\d+) calls?<br>(.*?)"\| (f\d+)', mm))
de = sorted((dn[a][0], dn[b][0], c, t) for a, b, c, t in re.findall(r'\t(f\d+) -> (f\d+) \[label="(\d+) calls?\\n(.*?)"', dot))
print("nodes (names, self times) equal:", sorted(mn.values()) == sorted(dn.values()), len(mn))
print("edges (calls, times) equal:", me == de, len(me))
print("a linkStyle per edge:", len(re.findall(r'linkStyle \d+ ', mm)) == len(me))
PY

section "C++ names"
build demangle "$E2E/demangle.cc"
record cxx ./demangle
want_rc "record ./demangle" $RC 0 "$W/cxx.err"
ct export cxx --format=mermaid -o "$W/cxx.mmd"
grep -E '^    f[0-9]+\["' "$W/cxx.mmd" | sed -E 's/^    f[0-9]+\["//; s/<br>self .*//' | LC_ALL=C sort | add

# rendered by mermaid in Chromium (tests/browser/mermaid.js): in one
# variant (it takes seconds of Chromium, and the chart's syntax is the same
# whatever the compiler); its lines, compared with
# export_mermaid.browser.expected (the golden file holds the other
# variants' checks only)
if [ "$VARIANT" = gcc-O0 ]; then
	if ! command -v node >/dev/null 2>&1 || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
		die "the browser test needs node and chromium: sh tools/install-deps.sh"
	fi
	# a broken chart: a label's quote left bare
	sed '0,/^    f1\["/s//    f1["a"b/' "$W/g.mmd" >"$W/broken.mmd"
	guard node "$TOP/tests/browser/mermaid.js" "$W/g.mmd" main outer middle inner leaf loop \
		-- "$W/cxx.mmd" main ns::Cls::get -- "$W/broken.mmd" >"$W/browser.out" 2>&1
	[ $RC -eq 1 ] || fail "tests/browser/mermaid.js: exit status $RC, expected 1 (the broken chart)"
	grep -v 'broken.mmd' "$W/browser.out" | grep -v '^ok' | head -n 20 | while read -r _l; do fail "browser test: $_l"; done
	sed -E 's/(a node per function|an edge per arc) \([0-9]+\)/\1 (N)/' "$W/browser.out" |
		sed -E 's/(broken.mmd: mermaid renders it):.*/\1: (no)/' >"$W/browser.norm"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$W/browser.norm" "$E2E/export_mermaid.browser.expected"
	elif ! diff -u "$E2E/export_mermaid.browser.expected" "$W/browser.norm" >"$W/browser.diff"; then
		fail "browser test: not as export_mermaid.browser.expected: $(tail -n +3 "$W/browser.diff" | head -n 20 | tr '\n' '|')"
	fi
fi

section "a recording of counts only"
record c --count ./basic
guard "$CT" export -d "$W/c" --format=mermaid >"$W/c.out" 2>"$W/c.err"
echo "exit $RC: $(sed "s|$W/||" "$W/c.err")" | add
