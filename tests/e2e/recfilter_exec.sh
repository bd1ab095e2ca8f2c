# Record-time filters (-F, -N, --hide, -T) reach the programs that the
# traced program execs (fork + execl, posix_spawn, a shell running two):
# the exec'd image, which filter.spec does not cover, asks record through
# the doorbell, and record matches the regexes against its functions
# (DIR/filter.xN.spec; the same program again: a copy).  Each tree is the
# one the same filter gives in a view on a full recording.  Before, the
# exec'd program recorded nothing of its own, silently (issue 28, item 3).
# variants: all
# front-ends: few
build target "$E2E/target.c"
build forkexec "$E2E/forkexec.c"
build spawn "$E2E/spawn.c"
n=0
run() {
	_view=$1
	shift
	n=$((n + 1))
	record "f$n" "$@"
	want_rc "record $*" $RC 0 "$W/f$n.err" || return
	section "record $*"
	ct replay "f$n" --no-duration --per-thread | normalize_threads | tee "$W/rec$n.txt" | add
	# the same filter in the view, on a full recording of the same run
	record "full$n" "$@"
	# shellcheck disable=SC2086
	ct replay "full$n" --no-duration --per-thread $_view | normalize_threads >"$W/view$n.txt"
	cmp -s "$W/rec$n.txt" "$W/view$n.txt" ||
		fail "record $*: another tree than replay $_view: $(diff "$W/rec$n.txt" "$W/view$n.txt" | head -20 | tr '\n' '|')"
	grep "exec'd" "$W/f$n.err" | add
	(cd "$W/f$n" && ls | grep -c '^filter\.x.*\.spec$' | sed 's/^/filter files of exec.d programs: /') | add
}
run "-F ^main$" -F '^main$' ./forkexec ./target
run "-F ^target_a$" -F '^target_a$' ./spawn ./target
run "-N ^target_b$" -N '^target_b$' ./forkexec ./target
run "--hide ^target_a$" --hide '^target_a$' ./spawn ./target
# a trigger in the exec'd program turns tracing on
section "record --trace=off -T '^target_a\$@trace_on' ./forkexec ./target"
record t --trace=off -T '^target_a$@trace_on' ./forkexec ./target
want_rc "record -T target_a@trace_on" $RC 0 "$W/t.err"
ct replay t --no-duration --per-thread | normalize_threads | add
# the same program exec'd twice: matched once, then a copy
run "-F ^target_a$" -F '^target_a$' sh -c './target x; ./target y; exit 0'
# a program record cannot read (fexecve of a file deleted since): a
# warning names it, never a silent loss
build recfilter_fexec "$E2E/recfilter_fexec.c"
cp "$W/target" "$W/gone_target"
section "record -F '^target_a\$' ./recfilter_fexec ./gone_target"
record g -F '^target_a$' ./recfilter_fexec ./gone_target
want_rc "record ./recfilter_fexec" $RC 0 "$W/g.err"
grep "exec'd" "$W/g.err" | sed "s|$W/||; s/pid [0-9]*/pid N/" | add
