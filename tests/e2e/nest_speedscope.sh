# nest_speedscope: speedscope reads calltrace's chrome JSON without a word.
# The demo (demo/demo.c, built as `make demo` builds it), a C++ program
# (nest_cxx.cc) and a multi-threaded one that forks (nest.c), recorded as
# by default (library calls too) and exported with --format=chrome and no
# other option, are loaded by speedscope's own importer, in its page, in
# headless Chromium (tests/browser/speedscope.js, speedscope pinned in
# web/package.json): it must import each, with no console warning ("Tried
# to end X when Y was on the top of the stack", "... still open at end of
# profile") and no error; nest_check.py must find that their slices nest
# in speedscope's, Perfetto's and chrome's arithmetic.  A copy of nest.c's
# export with one slice made to end 1 us after its caller must fail both.
# Without Chromium the browser part is skipped, and said so.
# variants: one
gcc -g -O2 -pthread -finstrument-functions -o "$W/demo" "$TOP/demo/demo.c" >"$W/build-demo.log" 2>&1 ||
	die "build of demo.c failed: $(head -5 "$W/build-demo.log")"
g++ -g -O2 -finstrument-functions -I"$E2E" -o "$W/nest_cxx" "$E2E/nest_cxx.cc" -lpthread \
	>"$W/build-cxx.log" 2>&1 || die "build of nest_cxx.cc failed: $(head -5 "$W/build-cxx.log")"
gcc -g -O2 -finstrument-functions -I"$E2E" -I"$TOP/include" -o "$W/nest" "$E2E/nest.c" -lpthread \
	>"$W/build-nest.log" 2>&1 || die "build of nest.c failed: $(head -5 "$W/build-nest.log")"

for p in demo nest_cxx nest; do
	section "$p: export --format=chrome"
	record "d-$p" --libcall "./$p"
	want_rc "record --libcall ./$p" $RC 0 "$W/d-$p.err"
	ct export "d-$p" --format=chrome -o "$W/$p.json"
	python3 "$E2E/nest_check.py" chrome "$W/$p.json" >"$W/$p.nest" 2>&1
	add <"$W/$p.nest"
	grep -q '^BAD\|Traceback' "$W/$p.nest" && fail "$p: $(grep -m 3 '^BAD\|Error' "$W/$p.nest")"
done

section "nest.c's export with a slice that ends after its caller"
# the first mid inside a worker's top made to end 1 us after that top
python3 - "$W/nest.json" "$W/broken.json" <<'PY' 2>&1 | add
import json, sys
d = json.load(open(sys.argv[1]))
x = [e for e in d["traceEvents"] if e["ph"] == "X"]
top = [e for e in x if e["name"] == "top" and e["pid"] != e["tid"]][0]
mid = [e for e in x if e["name"] == "mid" and e["tid"] == top["tid"] and
       top["ts"] <= e["ts"] and e["ts"] + e["dur"] <= top["ts"] + top["dur"]][0]
mid["dur"] = top["ts"] + top["dur"] + 1 - mid["ts"]
json.dump(d, open(sys.argv[2], "w"))
print("mid made to end 1 us after top")
PY
python3 "$E2E/nest_check.py" chrome "$W/broken.json" 2>&1 | grep -v '^BAD' | add

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
	echo "speedscope not run: no Chromium at ${CHROMIUM:-/usr/bin/chromium} (sh tools/install-deps.sh)" >>"$W/skipped"
	return 0
fi
command -v node >/dev/null 2>&1 || die "node not found (sh tools/install-deps.sh)"
# one browser for the four files; the broken one must fail, the others not
guard node "$TOP/tests/browser/speedscope.js" "$W/demo.json" "$W/nest_cxx.json" "$W/nest.json" \
	"$W/broken.json" >"$W/speedscope.out" 2>&1
[ $RC -eq 1 ] || fail "tests/browser/speedscope.js: exit status $RC, expected 1 (the broken file)"
for p in demo nest_cxx nest; do
	# a profile for each thread with slices
	n=$(sed -n 's/^chrome: \([0-9]*\) threads with slices.*/\1/p' "$W/$p.nest")
	grep -q "^ok   $p.json: imported, $n threads, 0 warnings, 0 errors$" "$W/speedscope.out" ||
		fail "speedscope on $p.json: $(sed -n "/^[A-Z]* *$p.json:/,/^[a-zA-Z]/p" "$W/speedscope.out" | head -n 8)"
done
grep -q '^FAIL broken.json: imported, .* [1-9][0-9]* warnings' "$W/speedscope.out" &&
	grep -q '^ *[1-9][0-9]* "Tried to end" warnings' "$W/speedscope.out" ||
	fail "speedscope said nothing of broken.json: $(grep -A3 'broken.json' "$W/speedscope.out")"
