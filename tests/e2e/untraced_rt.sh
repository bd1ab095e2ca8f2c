# What the runtime cannot trace is counted in the doorbell (for record's
# summary and info): tool_doorbell stands in for record and prints the
# counters after a program that disables the TSC in a thread (which creates
# another), enters strict seccomp in a thread, installs a filter in a thread
# (which creates another: no ring under the filter), clones with CLONE_VM |
# CLONE_VFORK and with CLONE_VM, and spawns an image with an empty
# environment (put back, counted).
# variants: one
build_tool doorbell
build untraced_rt "$E2E/untraced_rt.c"
mkdir -m 700 "$W/db"
guard "$W/tool_doorbell" "$W/db" "$(dirname "$CT")/libcalltrace.so" ./untraced_rt \
	>"$W/db.out" 2>"$W/db.err"
want_rc "tool_doorbell ./untraced_rt" $RC 0 "$W/db.err"
section "stdout and the doorbell's counters"; add <"$W/db.out"

section "under record: the summary and info name the counts"
record d ./untraced_rt
want_rc "record ./untraced_rt" $RC 0 "$W/d.err"
grep '^calltrace: exit' "$W/d.err" | sed 's/\. /.\n/g' | grep -i 'traced\|environment' | grep -v '^calltrace: exit' | add
grep -c 'Nothing lost' "$W/d.err" | sed 's/^/"Nothing lost" lines: /' | add
grep '^untraced_' "$W/d/info" | sort | add
