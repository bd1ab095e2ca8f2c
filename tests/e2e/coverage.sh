# coverage: per module and per source file, which functions were called and
# which never were (text golden; JSON parsed back); --fail-under exit status.
# variants: all
# front-ends: few
build coverage "$E2E/coverage.c"
record d ./coverage
want_rc "record ./coverage" $RC 0 "$W/d.err"

section "coverage (text)"
ct coverage d | sed "s|$W/||; s|^  /[^ ]*/|  |" | add

section "coverage --format=json (parsed back)"
ct coverage d --format=json >"$W/cov.json"
python3 - "$W/cov.json" <<'PY' 2>&1 | add
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["modules"]:
    print("module", m["path"].rsplit("/", 1)[-1], m["functions"], m["called"], m["percent"])
    print("uncalled", " ".join(m["uncalled"]))
    print("called", " ".join("%s=%d" % (f["name"], f["calls"]) for f in m["called_functions"]))
    for f in m["files"]:
        print("file", (f["file"] or "?").rsplit("/", 1)[-1], f["functions"], f["called"])
PY

section "--fail-under"
"$CT" coverage -d "$W/d" --fail-under=100 >/dev/null 2>&1
echo "--fail-under=100: exit $?" | add
"$CT" coverage -d "$W/d" --fail-under=10 >/dev/null 2>&1
echo "--fail-under=10: exit $?" | add
"$CT" coverage -d "$W/d" --fail-under=x >/dev/null 2>&1
echo "--fail-under=x: exit $?" | add
