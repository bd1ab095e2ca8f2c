# Source information from DWARF (issue 11): file:line of a function that
# gcc -O2 splits into hot and cold parts (DW_AT_ranges, no low pc); source
# paths joined to the compilation directory and normalised (a file
# compiled as "./srcinfo_b.c"); callgrind's costs on each function's line,
# read by callgrind_annotate with source annotation and no warning.
# variants: one
# srcinfo_b.c compiled from its own directory, by a relative path
(cd "$E2E" && $CC $CFLAGS -O2 -c -o "$W/b.o" ./srcinfo_b.c) >"$W/build-b.log" 2>&1 ||
	die "build of srcinfo_b.c failed: $(head -5 "$W/build-b.log")"
build srcinfo "$E2E/srcinfo.c" "$W/b.o" -O2
nm "$W/srcinfo" | grep -q ' main\.cold$' ||
	echo "(gcc made no main.cold here: the split case is not exercised)" >&2
record d ./srcinfo
want_rc "record ./srcinfo" $RC 0 "$W/d.err"

section "callgrind: files and lines of each function"
ct export d --format=callgrind -o "$W/out.cg"
python3 - "$W/out.cg" "$E2E" <<'PY' | sort | add
import re, sys
names = {"fl": {}, "fn": {}}
cur = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(fl|fn|cfi|cfl|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        kind = {"cfi": "fl", "cfl": "fl", "cfn": "fn"}.get(m.group(1), m.group(1))
        if m.group(3) is not None:
            names[kind][m.group(2)] = m.group(3)
        if m.group(1) in ("fl", "fn"):
            cur[m.group(1)] = names[kind][m.group(2)]
            want = m.group(1) == "fn"
        continue
    if line[0].isdigit() and want:
        print(cur["fn"], cur["fl"].replace(sys.argv[2] + "/", "E2E/"), "line", line.split()[0])
        want = False
PY
grep -q '^0 ' "$W/out.cg" && echo "a cost on line 0" | add
section "callgrind_annotate --auto=yes: no warning"
callgrind_annotate --auto=yes --include="$E2E" "$W/out.cg" >"$W/cga.out" 2>"$W/cga.err"
echo "exit $?" | add
[ -s "$W/cga.err" ] && echo "stderr: $(head -c 300 "$W/cga.err")" | add

section "coverage: normalised source paths"
ct coverage d | grep -E '^  /|^  [^ ]' | grep -v 'never called' | sed "s|$E2E/|E2E/|g" | add
ct coverage d --format=json | python3 -c '
import json, sys
for m in json.load(sys.stdin)["modules"]:
    for f in m["files"]:
        if f["file"]:
            print(f["file"].replace(sys.argv[1] + "/", "E2E/"))' "$E2E" | sort | add
