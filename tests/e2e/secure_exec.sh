# A setuid program run by an ordinary user (issue 25, item 4): the loader
# runs it in secure-execution mode (AT_SECURE) and ignores LD_PRELOAD, so
# it runs untraced although it is instrumented.  record used to say
# "Nothing lost" and "rebuild it with -finstrument-functions" (exit 3);
# now it warns before the run that the program is setuid and will not be
# traced, and says after it that this is why nothing was recorded.  As
# root: user 65534 (setpriv) records a setuid-root copy of a traced
# program; a copy without the bit is traced.  Skipped with a note when not
# root, without setpriv, with no_new_privs, on a nosuid file system or
# where 65534 cannot reach the tree (a checkout under a private directory).
# variants: one
build recstate "$E2E/recstate.c"
why=
if [ "$(id -u)" != 0 ]; then
	why="not root"
elif ! command -v setpriv >/dev/null; then
	why="no setpriv"
elif grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; then
	why="no_new_privs is set"
elif [ -n "$(findmnt -n -o OPTIONS -T "$W" 2>/dev/null | grep -w nosuid)" ]; then
	why="the work directory is on a nosuid file system"
else
	chmod o+x "$(dirname "$W")" "$W" "$(dirname "$CT")"
	# a checkout under a private directory (mktemp -d's 0700) keeps
	# 65534 from calltrace and the work directory
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$CT" -a -x "$W" 2>/dev/null ||
		why="user 65534 cannot reach $CT or $W (a private directory above them)"
fi
if [ -n "$why" ]; then
	echo "setuid program not tested: $why" >>"$W/skipped"
	# (what the golden file holds)
	cat "$E2E/secure_exec.expected" >"$W/actual"
else
	# a directory of its own for 65534
	mkdir "$W/u" && chown 65534:65534 "$W/u"
	cp recstate "$W/u/suid" && chown root:root "$W/u/suid" && chmod 4755 "$W/u/suid"
	cp recstate "$W/u/plain" && chmod 755 "$W/u/plain"
	other() {
		_d=$1; shift
		(cd "$W/u" && guard setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$CT" record -d "$_d" "$@") >"$W/u/$_d.out" 2>"$W/u/$_d.err"
	}
	section "the setuid-root copy, recorded by user 65534"
	other s ./suid calls 3
	echo "exit $? (the program's output: $(cat "$W/u/s.out"))" | add
	sed -e 's/^\(calltrace: exit 0: \).*\(in s\/\.\)/\1... \2/' "$W/u/s.err" | add
	section "the same program without the bit"
	other p ./plain calls 3
	echo "exit $? (the program's output: $(cat "$W/u/p.out"))" | add
	grep -o 'Nothing lost\.' "$W/u/p.err" | add
fi
