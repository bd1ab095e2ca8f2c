# The program starts with the signal dispositions and mask it would have
# had without record (issue 25, item 2): record used to reset INT, QUIT,
# TERM, HUP, PIPE, USR1 and CHLD to their defaults before the exec, so that
# "trap '' PIPE; calltrace record ./writer | head -1" died of SIGPIPE (141)
# where the program alone gets EPIPE and exits 0, and under nohup a SIGHUP
# killed it (129).  Each run is compared with the program run alone.
# aarch64: yes binfmt
# variants: one
build recstate "$E2E/recstate.c"

section "SIGPIPE ignored by the caller, the output cut by head -1"
# (bash: the status of the pipeline's first command)
pipe() {
	guard bash -c 'e=$1; shift; trap "" PIPE; "$@" 2>"$e" | head -1; exit "${PIPESTATUS[0]}"' \
		sh "$W/pipe.err" "$@" >"$W/pipe.out"
	echo "$1: exit $RC, stdout $(cat "$W/pipe.out"), stderr $(grep -c '^EPIPE$' "$W/pipe.err") EPIPE"
}
pipe ./recstate write | add
pipe "$CT" record -d "$W/p" ./recstate write | sed "s|^$CT|calltrace|" | add

section "nohup: SIGHUP ignored"
guard nohup ./recstate hup >"$W/h0.out" 2>/dev/null
echo "alone: exit $RC, $(cat "$W/h0.out")" | add
guard nohup "$CT" record -d "$W/h" ./recstate hup >"$W/h.out" 2>"$W/h.err"
echo "record: exit $RC, $(cat "$W/h.out")" | add

section "dispositions and mask: ignored INT QUIT TERM HUP PIPE USR1 CHLD, blocked USR2 and TERM"
sigs="ignore INT,QUIT,TERM,HUP,PIPE,USR1,CHLD block USR2,TERM --"
# shellcheck disable=SC2086
guard ./recstate launch $sigs ./recstate state >"$W/s0.out" 2>&1
echo "alone: exit $RC" | add
add <"$W/s0.out"
# shellcheck disable=SC2086
guard ./recstate launch $sigs "$CT" record -d "$W/s" ./recstate state >"$W/s.out" 2>"$W/s.err"
echo "record: exit $RC" | add
add <"$W/s.out"
# record itself waited for the program (SIGCHLD ignored would have had
# the kernel reap it) and recorded it
grep -q '^calltrace: exit 0: 1 process, 1 thread' "$W/s.err" || fail "record's summary: $(cat "$W/s.err")"

section "nothing ignored or blocked: none"
guard "$CT" record -d "$W/n" ./recstate state >"$W/n.out" 2>"$W/n.err"
echo "record: exit $RC" | add
add <"$W/n.out"
