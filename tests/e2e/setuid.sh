# Threads started after setuid(65534), and a child forked then, cannot
# create their rings or .proc file in record's private directories: the
# program completes as untraced, the main thread (whose ring exists) is
# traced throughout, and the runtime says so once per process (not once per
# thread; each is counted in the doorbell for record's summary).  Needs
# root: otherwise the case prints why to its log and passes without checks.
# variants: one
# aarch64: yes patch
# front-ends: few
if [ "$(id -u)" != 0 ]; then
	echo "setuid: skipped: not root (setuid to another user needs it)" >&2
	exit 0
fi
build setuid "$E2E/setuid.c"
guard $EMU ./setuid >"$W/plain.out" 2>"$W/plain.err"
want_rc "./setuid (untraced)" $RC 0 "$W/plain.err"
section "untraced: stdout (exit $RC)"; add <"$W/plain.out"
record d ./setuid
want_rc "record ./setuid" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "lines of the runtime saying a thread is not traced"
grep -c 'is not traced' "$W/d.err" | add
section "lines of the runtime saying a .proc file cannot be created"
grep -c 'cannot create .*\.proc' "$W/d.err" | add
