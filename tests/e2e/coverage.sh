# coverage: per module and per source file, which functions were called and
# which never were (text golden; JSON parsed back); with -F/-N/--hide/-D;
# --fail-under exit status;
# C++ constructors and destructors (their variants one function).
# variants: all
# aarch64: yes patch
# front-ends: few
build coverage "$E2E/coverage.c"
record d ./coverage
want_rc "record ./coverage" $RC 0 "$W/d.err"

section "coverage (text)"
ct coverage d | sed "s|$W/||; s|^  /[^ ]*/|  |" | add

# the call filters: a function is called when a call they show entered it
for f in "-D 1" "-F ^used_twice\$" "-N ^main\$" "--hide ^main\$"; do
	section "coverage $f"
	# shellcheck disable=SC2086
	ct coverage d $f | sed "s|$W/||; s|^  /[^ ]*/|  |" | add
done

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

# C++: a constructor's and a destructor's variants (C1/C2, D0/D1/D2, the
# virtual thunks) are one function, called when one of them was (they were
# listed as called and never called); under -pg the atexit stub that
# libc_nonshared links in is not the program's own (it made 3/7)
build coverage_cxx "$E2E/coverage_cxx.cc"
record dx ./coverage_cxx
want_rc "record ./coverage_cxx" $RC 0 "$W/dx.err"
section "coverage, C++ (text)"
ct coverage dx | sed "s|$W/||; s|^  /[^ ]*/|  |" | add
section "coverage, C++: the called functions (JSON)"
ct coverage dx --format=json >"$W/covx.json"
python3 - "$W/covx.json" <<'PY' 2>&1 | add
import json, sys
for m in json.load(open(sys.argv[1]))["modules"]:
    print("\n".join(f["name"] for f in m["called_functions"]))
PY
