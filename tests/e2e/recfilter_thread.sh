# -N leaving out a pthread start routine: the threads started there record
# nothing, and record says so at the end, naming the function and how many
# processes started threads there (issue 28, item 2: record knows start
# routines only when the program calls pthread_create, so the runtime
# notes them in the .proc file).  A function -N leaves out that no thread
# starts in, and --hide of the start routine, warn of nothing.
# variants: all
# aarch64: yes patch
# front-ends: few
build recfilter_thread "$E2E/recfilter_thread.c" -pthread
for f in "-N ^worker\$" "-N ^work\$" "--hide ^worker\$"; do
	rm -rf "$W/f"
	# shellcheck disable=SC2086
	record f $f ./recfilter_thread
	want_rc "record $f" $RC 0 "$W/f.err" || continue
	section "record $f: warnings"
	grep 'warning' "$W/f.err" | add
	section "record $f: report (function,calls)"
	ct report f --format=csv | csv_calls | add
done
