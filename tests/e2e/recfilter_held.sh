# record -t alone: the entries held back until a call proves long are
# written in the right places (at the call's exit, at an entry TIME after
# it, forty at once from a deep recursion, after a longjmp out of held
# calls): the recording shows the tree `replay -t` shows of a full one.
# A program killed inside a long call full of short ones: the long call's
# entry was written at an entry TIME after it (every front end).  The
# same through a script that runs the program.
# The calls the program makes short are left out of the trees compared:
# a busy machine may make one long (it waits for a CPU), and -t then keeps
# it, which short_kept checks against its recorded duration.
# variants: all
# front-ends: few
build held "$E2E/recfilter_held.c"
SHORT='^(leaf|shorts|jumper|held_jump|quick|quick2)$'
record full ./held
want_rc "record ./held" $RC 0 "$W/full.err"
record t -t 10ms ./held
want_rc "record -t 10ms ./held" $RC 0 "$W/t.err"
section "record -t 10ms ./held: replay"
ct replay t --no-duration | long_only "$SHORT" | normalize | tee "$W/t.tree" | add
short_kept t 10000000 "$SHORT"
ct replay full --no-duration -t 10ms | long_only "$SHORT" | normalize >"$W/full.tree"
cmp -s "$W/t.tree" "$W/full.tree" ||
	fail "record -t differs from replay -t of a full recording: $(diff "$W/full.tree" "$W/t.tree" | head -8 | tr '\n' '|')"
section "the short calls are left out, and counted"
grep -q '^filtered_calls: [1-9]' "$W/t/info" && echo yes | add
# through a script that runs the program: -t needs no function names, so
# that record has no modules to read in a script (#!) does not matter
printf '#!/bin/sh\nexec ./held "$@"\n' >"$W/run.sh"
chmod +x "$W/run.sh"
record ts -t 10ms ./run.sh
want_rc "record -t 10ms ./run.sh" $RC 0 "$W/ts.err"
section "record -t 10ms ./run.sh (a script that runs ./held): the same tree"
ct replay ts --no-duration | long_only "$SHORT" | normalize >"$W/ts.tree"
short_kept ts 10000000 "$SHORT"
if cmp -s "$W/t.tree" "$W/ts.tree"; then
	echo same | add
else
	fail "record -t through a script differs: $(diff "$W/t.tree" "$W/ts.tree" | head -8 | tr '\n' '|')"
fi
# the deadline a returned call left behind (-t 100ms: wide margins)
record sfull ./held stale
want_rc "record ./held stale" $RC 0 "$W/sfull.err"
record st -t 100ms ./held stale
want_rc "record -t 100ms ./held stale" $RC 0 "$W/st.err"
section "record -t 100ms ./held stale: replay"
ct replay st --no-duration | long_only "$SHORT" | normalize | tee "$W/st.tree" | add
short_kept st 100000000 "$SHORT"
ct replay sfull --no-duration -t 100ms | long_only "$SHORT" | normalize >"$W/sfull.tree"
cmp -s "$W/st.tree" "$W/sfull.tree" ||
	fail "record -t differs from replay -t of a full recording (stale): $(diff "$W/sfull.tree" "$W/st.tree" | head -8 | tr '\n' '|')"
# killed inside a long call (-t 50ms); its short calls are left out of
# the view (a loaded machine's preemption may make one long)
record k -t 50ms ./held kill
want_rc "record -t 50ms ./held kill" $RC 137 "$W/k.err"
section "record -t 50ms ./held kill (SIGKILL): replay -N '^shorts\$'"
ct replay k --no-duration -N '^shorts$' | normalize | add
