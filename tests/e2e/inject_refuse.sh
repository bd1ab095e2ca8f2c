# inject_refuse: what record --inject refuses before the program starts
# (doc/inject.md), each with one line naming the option and exit status 2:
# what -finstrument-functions cannot do (skip a body, replace a return
# value, see arguments, throw), with no data directory made; bad rules
# (--inject and --inject-file FILE:LINE), --seed without rules, --inject
# with --count; a rule that matches no function is a warning, and the
# program runs.
# variants: one
# aarch64: yes
build inject "$E2E/inject.c"

section "-finstrument-functions: return=, retval=, if= and throw= refused"
for r in '^store$@return=-1' '^lookup$@retval=0' '^check$@signal=USR1,if=arg1==2' \
	'^store$@throw=std::bad_alloc'; do
	record x --inject="$r" ./inject 2
	echo "--inject='$r': exit $RC" | add
	sed "s|$W/||g" "$W/x.err" | add
	[ -s "$W/x.out" ] && fail "--inject='$r' ran the program"
	[ -e "$W/x" ] && fail "--inject='$r' made the data directory before refusing"
	rm -rf "$W/x" "$W/x.old"
done

section "bad rules: usage errors, nothing run"
printf '# rules\n^store$@errno=EIO\n\n^lookup$@retval=1,nth=x\n' >"$W/bad.rules"
for o in "--inject=store" "--inject=(@return=1" "--inject=store@nth=2" \
	"--inject=store@return=1,retval=2" "--inject=store@errno=EWHAT" \
	"--inject=store@signal=SIGWHAT" "--inject=store@return=1,prob=2" \
	"--inject=store@return=1,if=arg9==1" "--inject=store@return=1,nth=1,every=2" \
	"--inject=store@return=1,when=now" "--inject=store@throw=int" \
	"--inject=store@throw=std::bad_alloc,return=1" "--inject-file=$W/bad.rules" \
	"--inject-file=$W/none.rules" "--seed=3" "--seed=x --inject=store@errno=EIO" \
	"--count --inject=store@errno=EIO"; do
	# shellcheck disable=SC2086
	record bad $o ./inject 1
	echo "record $o: exit $RC" | sed "s|$W/||g" | add
	sed "s|$W/||g" "$W/bad.err" | add
	[ -s "$W/bad.out" ] && fail "record $o ran the program"
	rm -rf "$W/bad" "$W/bad.old"
done

section "a rule matching no function: a warning, the program runs"
record w --inject='^no_such_function$@errno=EIO' ./inject 1
echo "exit $RC" | add
grep -o 'warning: .*' "$W/w.err" | add
add <"$W/w.out"
