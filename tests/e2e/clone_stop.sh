# A thread that stops tracing for good at a clone(CLONE_VM) (the child
# shares its state) while hooked frames are open: every frame still returns
# to its caller, 5 deep and 300 deep.  On aarch64 a patched entry's or a
# library call's return address was a register, saved where the function's
# code put it: the runtime gives it back through the unwinder's walk (it
# aborted, "returned to a frame the tracer does not know", when it looked
# for it below the frame's CFA; and 300 frames are more than the orphans
# it could keep instead).
# variants: all
# front-ends: few
# aarch64: check patch
build clone_stop "$E2E/clone_stop.c"
for depth in 5 300; do
	arg=; [ $depth = 300 ] && arg=deep
	record "d$depth" ./clone_stop $arg
	want_rc "record ./clone_stop $depth" $RC 0 "$W/d$depth.err"
	section "depth $depth: stdout (exit $RC)"; add <"$W/d$depth.out"
	section "depth $depth: the summary counts the task"
	grep -o '1 task not traced: made by clone() sharing their parent.s thread state' \
		"$W/d$depth.err" | add
done
section "depth 5: main's tree up to the clone"
ct replay d5 --no-duration -F main | normalize | add
