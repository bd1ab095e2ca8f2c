# A record killed with SIGKILL (issue 25, items 11 and 3): info says that
# the recording is incomplete and, instead of "lost: 0" as if it were
# known, that what record had not drained when it stopped is not counted
# (also unmatched and waits, which only the final info has).  The next
# record moves the killed one's directory (its lock went with it) to
# DIR.old as before.  The program waits on a FIFO while record is killed.
# variants: one
# aarch64: yes patch
build recstate "$E2E/recstate.c"
mkfifo "$W/ready" "$W/go"
fifo_read() { timeout -k 10 "$CT_TIMEOUT" cat "$1"; }
timeout -k 10 "$CT_TIMEOUT" "$CT" record -d "$W/d" ./recstate fifo "$W/ready" "$W/go" \
	>"$W/d.out" 2>"$W/d.err" &
bg=$!
fifo_read "$W/ready" >"$W/ready.1"
pid=$(sed -n 's/^ready \([0-9]*\) [0-9]*$/\1/p' "$W/ready.1")
rp=$(sed -n 's/^ready [0-9]* \([0-9]*\)$/\1/p' "$W/ready.1") # its parent: record
[ -n "$rp" ] || die "the program never got ready: $(cat "$W/d.err")"
# (record leaves its ring directory when killed: doc/record.md)
shm=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^CALLTRACE_SHM=//p')
kill -9 "$rp"
wait $bg
want_rc "record killed with SIGKILL" $? 137 "$W/d.err"
section "the program runs on, untraced, to its end"
echo go >"$W/go"
fifo_read "$W/ready" | add
case $shm in /dev/shm/calltrace-*) rm -rf "$shm" ;; esac

section "info of the killed recording"
ct info d | grep -E '^(complete|lost|unmatched|waits):' | add
ct info d | tail -n 1 | add

section "the next record: the killed one moved to d.old"
record d ./recstate calls 1
want_rc "record after the killed one" $RC 0 "$W/d.err"
sed -n 's/^command: //p' "$W/d/info" | sed "s|$W/||g" | add
sed -n 's/^command: //p' "$W/d.old/info" | sed "s|$W/||g" | add
grep -c '^complete: 1$' "$W/d.old/info" | add
