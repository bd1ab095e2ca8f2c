# ^C to record (SIGINT to its process group) while a traced process that
# left the session (setsid) runs on (issue 10, item 3): record stops,
# names that process in its summary ("still running when record stopped",
# never "Nothing lost") and in info, and exits; the process is neither
# killed nor hung: it fills its rings, finds record gone, and runs to its
# end untraced, as does a child it forks then, and the image that child
# execs (record has removed its doorbell: no .proc file is added to the
# recording after record finished).  Twice: ^C while record
# waits for the left-over process after the program ended (before the fix
# the process then slept on a full ring for ever), and ^C that ends the
# program itself (before the fix record went on waiting).
# variants: one
# front-ends: few
build gone "$E2E/gone.c"
wait_for() {
	_i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $_i -lt $CT_POLLS ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q "$2" "$1" 2>/dev/null
}
# gone_after_int NAME exit|wait EXPECTED-STATUS
gone_after_int() {
	mkdir "$W/$1"
	# record leads its own process group, as under a shell with job control
	# (setsid -w: should setsid fork, it waits for record and passes on its
	# status; record's pid is the program's parent), and with SIGINT and
	# SIGQUIT not ignored as this shell without job control makes them for
	# a command run with & (record passes them on to the program ignored,
	# as they would be without it: the sigkeep case)
	env --default-signal=INT,QUIT setsid -w "$CT" record -b 4K --buffers=3 -d "$W/$1.d" ./gone setsid "$W/$1" "$2" \
		</dev/null >"$W/$1.out" 2>"$W/$1.err" &
	_sp=$!
	if ! wait_for "$W/$1.out" '^ready'; then
		kill -9 $_sp 2>/dev/null
		die "$1: the program never printed ready: $(head -c 600 "$W/$1.err" | tr '\n' '|')"
	fi
	_pid=$(sed -n 's/^ready \([0-9]*\) [0-9]* [0-9]*$/\1/p' "$W/$1.out")
	_child=$(sed -n 's/^ready [0-9]* \([0-9]*\) [0-9]*$/\1/p' "$W/$1.out")
	_rp=$(sed -n 's/^ready [0-9]* [0-9]* \([0-9]*\)$/\1/p' "$W/$1.out")
	if [ "$2" = exit ]; then
		# record has reaped the program: it waits for the child now
		_i=0
		while [ -e "/proc/$_pid" ] && [ $_i -lt $CT_POLLS ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
	fi
	kill -INT "-$_rp"
	_i=0
	while kill -0 $_rp 2>/dev/null && [ -e "/proc/$_rp/stat" ] &&
		[ "$(sed 's/.*) //' "/proc/$_rp/stat" | cut -c1)" != Z ] && [ $_i -lt $CT_POLLS ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_stopped=yes
	if [ "$(sed 's/.*) //' "/proc/$_rp/stat" 2>/dev/null | cut -c1)" != Z ] &&
		[ -e "/proc/$_rp" ]; then
		_stopped=no
		fail "$1: record did not stop on ^C"
	fi
	touch "$W/$1/go"
	wait $_sp
	want_rc "$1: record after ^C" $? "$3" "$W/$1.err"
	if ! wait_for "$W/$1/marker" '^done'; then
		kill -9 "-$_child" 2>/dev/null # its session, with its child
		fail "$1: the process left running hung once record was gone"
	fi
	section "$1: record stopped on ^C"; echo "$_stopped" | add
	section "$1: the program's output"; sed 's/^ready [0-9]* [0-9]* [0-9]*$/ready PID CHILD RECORD/' "$W/$1.out" | add
	section "$1: the marker of the process left running"; add <"$W/$1/marker"
	section "$1: record's summary names it, and does not say nothing was lost"
	grep '^calltrace: ' "$W/$1.err" | grep -v 'the recorder' |
		sed -n "s/.*\( [0-9]* process[a-z ]* still running [^.]*\.\).*/\1/p; s/Nothing lost/&/p" |
		sed "s/$_child gone/CHILD gone/" | add
	section "$1: info"; sed -n "s/^still_running: 1 $_child$/still_running: 1 CHILD/p" "$W/$1.d/info" | add
	section "$1: the runtime says so, once in each process (the one left running, its child) and image (the child's exec)"
	grep -c "^calltrace: the recorder (pid $_rp) is gone; tracing stopped, the program runs on$" \
		"$W/$1.err" | add
	grep -c "^calltrace: the recorder is gone (no doorbell in .*); tracing stopped, the program runs on$" \
		"$W/$1.err" | add
	section "$1: the processes in the recording"
	(cd "$W/$1.d" && ls | sed -n 's/^[0-9]*-\([0-9]*\)\.proc$/proc gen \1/p' | sort) | add
	section "$1: calls recorded (before: the program's; after: none, made once record was gone)"
	ct report "$1.d" --format=csv >"$W/$1.csv"
	echo "before: $(calls_of before "$W/$1.csv"), after: $(calls_of after "$W/$1.csv")" | add
}
gone_after_int ended exit 0
gone_after_int killed wait 130
