# spec_fifo: the spec files the runtime reads from its environment
# (CALLTRACE_LIBCALL, _ARGS, _FILTER, _PLUGIN, _INJECT: doc/runtime.md
# "Spec files") are opened never waiting and never through a link, and
# must be regular files: a FIFO named there made the program wait in
# open(2) for ever (record too).  Now each gets one line naming the file
# and the cause, and the program runs as untraced would, with the feature
# that file was for off.  Run with the runtime preloaded and CALLTRACE_DIR
# (record may set these variables itself), then under record.
# variants: one
build basic "$E2E/basic.c"
LIB=$(dirname "$CT")/libcalltrace.so
guard ./basic >"$W/plain.out" 2>"$W/plain.err"
want_rc "./basic (untraced)" $RC 0 "$W/plain.err"
mkfifo "$W/fifo" || die "mkfifo failed"
mkdir "$W/adir"
printf 'deny\n' >"$W/real"
ln -s "$W/real" "$W/link"

# run NAME VAR FILE: ./basic with the runtime and VAR=FILE, ended (and
# failed) if it still runs after the hang guard
run() {
	timeout -k 10 120 env LD_PRELOAD="$LIB" CALLTRACE_DIR="$W/rt.$1" "$2=$3" ./basic \
		>"$W/$1.out" 2>"$W/$1.err"
	rc=$?
	[ $rc = 124 ] || [ $rc = 137 ] && fail "$2=$3: the program hung"
	section "$2=${3#"$W/"}: exit $rc"
	sed "s|$W/||g" "$W/$1.err" | add
	cmp -s "$W/plain.out" "$W/$1.out" || fail "$2=$3: stdout differs from the untraced run's"
}
for v in CALLTRACE_LIBCALL CALLTRACE_ARGS CALLTRACE_FILTER CALLTRACE_PLUGIN CALLTRACE_INJECT; do
	run "$v" "$v" "$W/fifo"
done
run args-link CALLTRACE_ARGS "$W/link"
run libcall-dir CALLTRACE_LIBCALL "$W/adir"
run inject-dev CALLTRACE_INJECT /dev/zero

# (record passes CALLTRACE_LIBCALL on when not given --libcall or
# --no-libcall; the others it sets or unsets itself)
section "record with CALLTRACE_LIBCALL naming the FIFO"
CALLTRACE_LIBCALL=$W/fifo record d ./basic
echo "exit $RC" | add
cmp -s "$W/plain.out" "$W/d.out" || fail "record: stdout differs from the untraced run's"
