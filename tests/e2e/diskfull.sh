# What record cannot write is lost, and said so: with a file size limit
# (ulimit -f: write() fails with EFBIG; record ignores SIGXFSZ) and on a
# full file system (a 200 KiB tmpfs, when mount is permitted), the summary
# and info count the events and bytes not written, never "Nothing lost";
# what was written stays readable (the views warn); no .info.tmp is left;
# record exits 125 while the program's own status is in the summary and
# info.
# variants: one
# aarch64: yes patch
build faults "$E2E/faults.c" -I"$TOP/include"
XDG_CACHE_HOME=$W/cache
export XDG_CACHE_HOME

# check D OUT: the summary in OUT.err, D/info, what is left in D
check() {
	_d=$1 _o=$2
	want_rc "record -d $_d" "$RC" 125 "$W/$_o.err"
	grep -q '^done$' "$W/$_o.out" || fail "$_d: the program's output is missing"
	_sum=$(grep '^calltrace: exit' "$W/$_o.err")
	case $_sum in
	"calltrace: exit 0: "*) ;;
	*) fail "$_d: no summary with the program's status: $_sum" ;;
	esac
	case $_sum in *"Nothing lost"*) fail "$_d: the summary says Nothing lost: $_sum" ;; esac
	echo "$_sum" | grep -q "LOST: [1-9][0-9]* events (.*) could not be written" ||
		fail "$_d: the summary does not count what was not written: $_sum"
	echo "$_sum" | grep -q "calltrace record failed: exit 125 (the program's: exit 0)" ||
		fail "$_d: the summary does not say record failed: $_sum"
	echo "$_sum" | grep -q "changed on disk" && fail "$_d: a write failure reported as modules changed: $_sum"
	[ -e "$W/$_d/.info.tmp" ] && fail "$_d: .info.tmp left behind"
	grep -q '^complete: 1$' "$W/$_d/info" || fail "$_d: info is not the final one"
	grep -q '^exit_status: exit 0$' "$W/$_d/info" || fail "$_d: info has not the program's status"
	grep -q '^write_errors: [1-9]' "$W/$_d/info" || fail "$_d: info has no write_errors"
	grep -q '^unwritten_events: [1-9]' "$W/$_d/info" || fail "$_d: info has no unwritten_events"
	grep -q '^unwritten_bytes: [1-9]' "$W/$_d/info" || fail "$_d: info has no unwritten_bytes"
	ct info "$_d" | grep '^unwritten:' | sed 's/[0-9][0-9]*/N/g' | add
	# what was written is read, with a warning
	ct report "$_d" >/dev/null
	sed "s|$W/||; s/[0-9][0-9]*/N/g" "$W/last.err" | add
}

section "ulimit -f"
# small buffers: the program's own ring must fit the limit
(ulimit -f 1000 && record d -b 4K --buffers=3 ./faults calls 200000)
RC=$?
grep "^calltrace record: writing .*failed" "$W/d.err" | sed "s|$W/||; s/[0-9][0-9]*/N/g" | add
check d d

section "a full file system"
if [ "$(id -u)" != 0 ]; then
	echo "skipped: not root (cannot mount a tmpfs)" >>"$W/skipped"
	printf '%s\n' "calltrace record: writing full/d/N-N-N.ev failed: No space left on device; the rest of its stream is lost" \
		"unwritten:      N events, N bytes: record could not write them (N write errors)" \
		"calltrace: warning: full/d: calltrace record could not write all of it: N events (N bytes) lost" | add
else
	mkdir -p "$W/full"
	if ! mount -t tmpfs -o size=200k tmpfs "$W/full" 2>"$W/mount.err"; then
		echo "skipped: mount -t tmpfs not permitted: $(cat "$W/mount.err")" >>"$W/skipped"
		printf '%s\n' "calltrace record: writing full/d/N-N-N.ev failed: No space left on device; the rest of its stream is lost" \
			"unwritten:      N events, N bytes: record could not write them (N write errors)" \
			"calltrace: warning: full/d: calltrace record could not write all of it: N events (N bytes) lost" | add
	else
		# the program's output and record's messages outside the full tmpfs
		guard "$CT" record -d "$W/full/d" -b 4K --buffers=3 ./faults calls 200000 \
			</dev/null >"$W/full-d.out" 2>"$W/full-d.err"
		grep "^calltrace record: writing .*failed" "$W/full-d.err" |
			sed "s|$W/||; s/[0-9][0-9]*/N/g" | add
		check full/d full-d
		grep -q "The symbol tables of [0-9]* modules* could not be written" "$W/full-d.err" ||
			fail "full/d: the summary does not say the symbol tables could not be written"
		grep -q '^symbols_unsaved: [1-9]' "$W/full/d/info" || fail "full/d: info has no symbols_unsaved"
		umount "$W/full"
	fi
fi
