# Raw clone() children (neither fork nor pthread_create made them), making
# many traced calls at the same time as their parent.  Without CLONE_VM
# (clone() with SIGCHLD, and syscall(SYS_clone) as a fork made by hand) the
# child is a process with its own stream, and the program finishes (it used
# to hang: both wrote into the parent's ring); a clone system call made by
# inline assembly is caught at the child's first buffer switch.  With CLONE_VM and without
# CLONE_SETTLS the child shares the calling thread's TLS: that thread stops
# tracing at the clone (counted); with CLONE_VFORK only while it waits, the
# child's calls are dropped and counted as lost (doc/runtime.md).
# variants: all
# front-ends: few
CT_TIMEOUT=${CT_TIMEOUT_CLONE:-180}
build clone "$E2E/clone.c"
# per process: the calls of each function (the parent is the process that
# called after_wait)
calls_by_process() {
	awk '/^# *thread/ { h = $0; next }
	/_work\(\);|after_wait\(\);/ { n[h " " $NF]++; if ($NF == "after_wait();") p = h }
	END { for (k in n) { split(k, a, ") "); w = (index(k, p) == 1 && p != "") ? "parent" : "child"
		print w ": " a[2] " " n[k] } }' | LC_ALL=C sort
}
for mode in proc raw vm vfork; do
	record "$mode" ./clone "$mode"
	want_rc "record ./clone $mode" $RC 0 "$W/$mode.err"
	section "$mode: stdout (exit $RC)"; add <"$W/$mode.out"
	section "$mode: calls by process"
	ct replay "$mode" --no-duration --per-thread | calls_by_process | add
done
section "vm: the parent's tree (it stopped tracing at the clone)"
ct replay vm --no-duration | normalize | add

# by inline assembly: found at the child's first buffer switch; until then
# it wrote into its parent's buffer (which is garbled there), so only the
# shape is checked: the program finishes, the child has a process and a
# stream of its own from then on, with its calls only
record asm ./clone asm
want_rc "record ./clone asm" $RC 0 "$W/asm.err"
section "asm: stdout (exit $RC)"; add <"$W/asm.out"
section "asm: processes"; ls "$W/asm" | grep -c '\.proc$' | add
section "asm: the child's own stream (its files alone: the parent's stream may be garbled)"
mkdir "$W/asmchild"
cp -r "$W/asm/info" "$W/asm/sym" "$W/asmchild/" 2>/dev/null
for f in $(grep -l '^fork ' "$W"/asm/*.proc); do
	p=$(basename "$f" | cut -d- -f1)
	cp "$W/asm/$p"-* "$W/asmchild/"
done
ct report asmchild --format=csv | csv_calls | sed 's/,[0-9]*$//' | add
