# inject_return: record --inject's actions on return values, in the
# front ends that see registers (doc/inject.md): retval=V (the function
# runs, its return value replaced), if=argK (a condition on an argument),
# return=V (the body skipped: -pg -mfentry and patchable entries; plain -pg
# refuses it before the program starts), and a library function through
# the library-call hook: malloc@return=0,nth=3.  On aarch64 (patched
# entries and -pg): the same, but -pg refuses if= too (_mcount's registers
# are not the arguments; inject_return.aarch64-pg.expected), and its
# retval= is checked without it.
# variants: one
# front-ends: only
# aarch64: yes patch
build inject "$E2E/inject.c"

# an aarch64 -pg build: RULE's if= refused (exit 2, nothing made), then the
# rule is recorded without it
a64pg_if() {
	[ "${TARGET:-}-$FRONT" = aarch64-pg ] || return 1
	record x --inject="$1" ./inject 6
	echo "if= with aarch64 -pg: exit $RC" | add
	sed "s|$W/||g" "$W/x.err" | add
	[ -s "$W/x.out" ] && fail "--inject='$1' ran the program"
	[ -e "$W/x" ] && fail "--inject='$1' made the data directory before refusing"
	return 0
}

section "retval=0 on lookup when its second argument is 0"
rule='^lookup$@retval=0,if=arg2==0'
a64pg_if "$rule" && rule='^lookup$@retval=0,every=3'
record v --inject="$rule" ./inject 6
want_rc "record --inject retval" $RC 0 "$W/v.err"
add <"$W/v.out"
ct replay v --no-duration | normalize | grep -B1 'injected' | add

section "retval=-1,errno=ENOSPC on store when its first argument is > 2, every 2nd such call"
rule='^store$@retval=-1,errno=ENOSPC,if=arg1>2,every=2'
a64pg_if "$rule" && rule='^store$@retval=-1,errno=ENOSPC,every=2'
record s --inject="$rule" ./inject 6
want_rc "record --inject retval errno" $RC 0 "$W/s.err"
add <"$W/s.out"

section "malloc@return=0,nth=3: the library function not called"
record m --libcall --inject='^malloc$@return=0,nth=3' ./inject 4
want_rc "record --inject malloc" $RC 0 "$W/m.err"
add <"$W/m.out"
ct replay m --no-duration | normalize | grep -B1 -A1 'injected' | add
ct info m | grep injected_faults | add
record n --inject='^malloc$@return=0' ./inject 1
echo "without library calls: exit $RC" | add
grep -o "warning: .*" "$W/n.err" | add
# --no-libcall='^malloc$' leaves malloc unhooked: the rule is said never
# to act (and does not); --libcall='^malloc$' takes it
record nl --libcall --no-libcall='^malloc$' --inject='^malloc$@return=0' ./inject 1
echo "--no-libcall='^malloc\$': exit $RC" | add
grep -o "warning: .*" "$W/nl.err" | add
ct info nl | grep injected_faults | add
record al --libcall='^malloc$' --inject='^malloc$@return=0,nth=1' ./inject 1
echo "--libcall='^malloc\$': exit $RC" | add
grep -c "warning: " "$W/al.err" | sed 's/^/warnings: /' | add
ct info al | grep injected_faults | add

section "return=-1,errno=EBADF on store: the body skipped"
record r --inject='^store$@return=-1,errno=EBADF,nth=2' ./inject 3
echo "exit $RC" | add
sed "s|$W/||g" "$W/r.err" | grep -v '^calltrace: exit' | add
add <"$W/r.out"
[ $RC = 0 ] && ct replay r --no-duration | normalize | grep -A2 'store() {' | add
