# inject_errno: record --inject's actions that every front end can do
# (doc/inject.md): errno=E and signal=SIG, with the selectors nth=, every=,
# after= and prob= with --seed (the same faults twice), rules from
# --inject-file; the faults in replay, info and the summary; coverage shows
# that the program's error paths run only under injection.
# variants: all
# front-ends: all
# aarch64: yes patch
build inject "$E2E/inject.c"

# the functions of inject.c that coverage calls or not
cov() {
	ct coverage "$1" >"$W/cov"
	for f in store_failed lookup_failed out_of_memory; do
		grep -qx "    $f" "$W/cov" && echo "never called: $f" || echo "called: $f"
	done
}

section "no rules: the error paths never run"
record p ./inject 4
want_rc "record ./inject" $RC 0 "$W/p.err"
add <"$W/p.out"
cov p | add

section "errno=ENOSPC,nth=2 on store, signal=USR1,every=2 on check"
record e --inject='^store$@errno=ENOSPC,nth=2' --inject='^check$@signal=SIGUSR1,every=2' \
	./inject 4
want_rc "record --inject ./inject" $RC 0 "$W/e.err"
add <"$W/e.out"
ct replay e --no-duration | normalize | grep -B1 'injected' | add
ct info e | grep injected_faults | add
sed -n 's/.*\(Faults injected: [0-9]*\.\).*/\1/p' "$W/e.err" | add
echo "under injection:" | add
cov e | add

section "after=2: every call after the first two"
record a --inject='^store$@errno=EIO,after=2' ./inject 4
want_rc "record --inject after=2" $RC 0 "$W/a.err"
add <"$W/a.out"

section "prob=0.5 --seed=7: the same faults in two runs"
record r1 --inject='^store$@errno=EAGAIN,prob=0.5' --seed=7 ./inject 12
want_rc "record --inject prob=0.5 --seed=7" $RC 0 "$W/r1.err"
record r2 --inject='^store$@errno=EAGAIN,prob=0.5' --seed=7 ./inject 12
cmp -s "$W/r1.out" "$W/r2.out" && echo "same output twice" | add ||
	fail "prob=0.5 --seed=7 differs between runs: $(diff "$W/r1.out" "$W/r2.out" | head -5 | tr '\n' '|')"
grep failed "$W/r1.out" | add
n=$(grep -c failed "$W/r1.out")
[ "$n" -gt 0 ] && [ "$n" -lt 12 ] && echo "some stores failed, not all" | add ||
	fail "prob=0.5: $n of 12 stores failed"

section "--inject-file: comments, blank lines, one rule a line"
cat >"$W/rules" <<'RULES'
# the store fails the third time
^store$@errno=ENOMEM,nth=3

   # and check raises SIGUSR1 the first time
^check$@signal=10,nth=1
RULES
record f --inject-file="$W/rules" ./inject 3
want_rc "record --inject-file" $RC 0 "$W/f.err"
add <"$W/f.out"
