# progress on stderr: every view that reads the whole trace shows it when
# asked (CALLTRACE_PROGRESS=now: at once, instead of after half a second on
# a terminal), erases its line at the end, and shows nothing with
# CALLTRACE_PROGRESS=0 or when stderr is not a terminal.  Its output on
# stdout is the same either way.
# variants: one
# aarch64: yes patch
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
for sub in replay report graph callers coverage export; do
	extra=
	[ $sub = export ] && extra="--format=folded"
	section "$sub"
	for mode in now 0 unset; do
		if [ $mode = unset ]; then
			# shellcheck disable=SC2086
			guard env -u CALLTRACE_PROGRESS "$CT" $sub -d "$W/d" $extra \
				>"$W/$sub.$mode.out" 2>"$W/$sub.$mode.err"
		else
			# shellcheck disable=SC2086
			CALLTRACE_PROGRESS=$mode guard "$CT" $sub -d "$W/d" $extra \
				>"$W/$sub.$mode.out" 2>"$W/$sub.$mode.err"
		fi
		want_rc "$sub with CALLTRACE_PROGRESS=$mode" $RC 0 "$W/$sub.$mode.err"
		# the progress line, its numbers left out, and the erase at the end
		tr '\r' '\n' <"$W/$sub.$mode.err" | sed -n \
			-e 's/^\(calltrace [a-z]*\): *[0-9.]*% of [0-9.]* MiB, [0-9.]* s.*/\1: PCT% of N MiB, T s/p' \
			-e 's/^\x1b\[K$/(line erased)/p' | LC_ALL=C sort -u |
			sed "s/^/$mode: /" | add
		printf '%s: stderr %s bytes\n' $mode "$(wc -c <"$W/$sub.$mode.err" | tr -d ' ')" |
			sed 's/ [1-9][0-9]* bytes$/ some bytes/' | add
	done
	cmp -s "$W/$sub.now.out" "$W/$sub.0.out" ||
		fail "$sub: stdout differs with and without progress"
	cmp -s "$W/$sub.now.out" "$W/$sub.unset.out" ||
		fail "$sub: stdout differs with and without CALLTRACE_PROGRESS"
done
golden
