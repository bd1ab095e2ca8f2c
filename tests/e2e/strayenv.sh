# The runtime's variables in the user's environment (issue 25, item 10):
# record removes every CALLTRACE_* variable the runtime reads that record
# did not set itself, so that a stray one cannot reach the program
# (CALLTRACE_LIBCALL naming a FIFO hung it in the runtime's open; others
# changed its buffers, its mode or what it loads), and it keeps honouring
# CALLTRACE_LIBCALL=0, the documented default-off switch (tests/lib.sh).
# variants: one
# aarch64: yes patch
build recstate "$E2E/recstate.c"
mkfifo "$W/fifo"
# the hang guard of the runs with stray variables (a second is enough)
CT_TIMEOUT=120
stray() {
	guard env CALLTRACE_FILTER=/nonexistent CALLTRACE_ARGS="$W/fifo" \
		CALLTRACE_LIBCALL="$W/fifo" CALLTRACE_PLUGIN="$W/fifo" CALLTRACE_INJECT="$W/fifo" \
		CALLTRACE_BUFSIZE=4096 CALLTRACE_NBUF=3 CALLTRACE_DROP=1 CALLTRACE_COUNT=1 \
		CALLTRACE_FLIGHT=1 CALLTRACE_CALLSITE=1 CALLTRACE_DIR=/nonexistent \
		CALLTRACE_SHM=/nonexistent "$@"
}

section "the variables the program sees: record's own"
guard "$CT" record -d "$W/e0" ./recstate env >"$W/e0.out" 2>"$W/e0.err"
echo "CALLTRACE_LIBCALL=0 (tests/lib.sh): exit $RC" | add
LC_ALL=C sort "$W/e0.out" | add
stray "$CT" record -d "$W/e1" ./recstate env >"$W/e1.out" 2>"$W/e1.err"
echo "stray variables: exit $RC" | add
LC_ALL=C sort "$W/e1.out" | add
grep '^calltrace' "$W/e1.err" | grep -v '^calltrace: exit' | sed "s|$W/||g" | add

section "a recording with stray variables is the recording without them"
guard env -u CALLTRACE_LIBCALL "$CT" record -d "$W/r0" ./recstate calls 3 >"$W/r0.out" 2>"$W/r0.err"
want_rc "record without stray variables" $RC 0 "$W/r0.err"
stray "$CT" record -d "$W/r1" ./recstate calls 3 >"$W/r1.out" 2>"$W/r1.err"
want_rc "record with stray variables" $RC 0 "$W/r1.err"
ct replay r0 --no-duration | normalize >"$W/r0.tree"
ct replay r1 --no-duration | normalize >"$W/r1.tree"
cmp -s "$W/r0.tree" "$W/r1.tree" || fail "the trees differ: $(diff "$W/r0.tree" "$W/r1.tree" | head -20)"
add <"$W/r1.tree"
ls "$W/r1" | grep -c '\.ev$' | sed 's/^/event streams: /' | add
