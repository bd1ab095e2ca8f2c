# Two records into one data directory (issue 25, item 3): the second used
# to move the first's live directory to .old, so that the first's streams
# ended up split across both (it exited 125) and the second said "Nothing
# lost" while holding a foreign thread.  Now a record holds a lock on its
# directory for its life: a second record into it (both with the default
# -d, started in the same directory) is refused with one line and exit 75,
# and moves nothing; nor does a record whose DIR.old is being written.  The
# first record's program waits on a FIFO (no sleeps): the second is run
# while the first is surely recording.
# variants: one
# aarch64: yes patch
build recstate "$E2E/recstate.c"
mkdir "$W/cwd"
mkfifo "$W/ready" "$W/go"
# fifo_read FIFO: its content, with a hang guard (if the writer never came)
fifo_read() { timeout -k 10 "$CT_TIMEOUT" cat "$1"; }
# listing of DIR: its files, with numbers taken out, and its command
listing() {
	if [ -d "$W/cwd/$1" ]; then
		printf '%s: %s(%s)\n' "$1" "$(cd "$W/cwd/$1" && ls | sed 's/[0-9][0-9]*/N/g' | tr '\n' ' ')" \
			"$(sed -n 's/^command: //p' "$W/cwd/$1/info" | sed "s|$W/||g")"
	else
		echo "$1: (none)"
	fi
}
# first CMD...: a record in cwd/ whose program waits on the FIFO go
first() {
	(cd "$W/cwd" && exec timeout -k 10 "$CT_TIMEOUT" "$CT" record "$@" ../recstate fifo ../ready ../go) \
		>"$W/first.out" 2>"$W/first.err" &
	FIRST=$!
	fifo_read "$W/ready" >"$W/ready.1"
	grep -q '^ready ' "$W/ready.1" || die "the first program never got ready: $(cat "$W/first.err")"
}
# second ARGS...: another record in cwd/ meanwhile
second() {
	_here=$(pwd)
	cd "$W/cwd" || die "cd $W/cwd"
	guard "$CT" record "$@" ../recstate calls 3 >"$W/second.out" 2>"$W/second.err"
	cd "$_here" || die "cd $_here"
	echo "second record: exit $RC" | add
	# its messages; of its summary, whether it says "Nothing lost."
	grep -v '^calltrace: exit' "$W/second.err" | sed "s|$W/||g" | add
	grep -o 'Nothing lost\.' "$W/second.err" | add
}
# release: the first program goes on and ends; its record ends
release() {
	echo go >"$W/go"
	fifo_read "$W/ready" >"$W/ready.2"
	wait $FIRST
	echo "first record: exit $?" | add
	grep -o 'Nothing lost\.' "$W/first.err" | add
}

section "the same default directory, the first record still writing"
first
second
listing calltrace.data | add
listing calltrace.data.old | add
release
listing calltrace.data | add
ct replay cwd/calltrace.data --no-duration | normalize | add
ct info cwd/calltrace.data | grep -E '^(complete|processes|threads):' | add

section "calltrace.data.old being written: not removed to make room"
first -d calltrace.data.old
second
listing calltrace.data | add
listing calltrace.data.old | add
release
listing calltrace.data.old | add

section "after both: the recording moved to calltrace.data.old as before"
second
listing calltrace.data | add
listing calltrace.data.old | add
