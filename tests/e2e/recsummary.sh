# record's summary and info say the same things the same way: what
# --hide's count counts, sizes in KiB (as info), processes by pid with
# their program images, complete: no beside unwritten events, and a
# parent only when it is a traced process (record adopts daemon()'s
# children: it is not their parent); -N's count: the -N calls and those
# under them.
# aarch64: yes binfmt
# variants: one
# front-ends: few
build recsummary "$E2E/recsummary.c"
record d --hide '^sum_squares$' ./recsummary
want_rc "record --hide ./recsummary" $RC 0 "$W/d.err"
add <"$W/d.out"
# the pids: the program's first (P), its child (C), any other (N)
C=$(ls "$W/d" | sed -n 's/^\([0-9]*\)-1\.proc$/\1/p')
P=$(ls "$W/d" | sed -n 's/^\([0-9]*\)-0\.proc$/\1/p' | grep -vx "$C")
pids() { sed -E "s/\b$P\b/P/g; s/\b$C\b/C/g; s/(not traced \(|said )[0-9]+/\1N/"; }
section "the summary (the counts that vary as N)"
grep '^calltrace: exit' "$W/d.err" | sed -E "s|$W/||; s/[0-9]+ events \([0-9]+ calls\)/N events (N calls)/;
	s/ in [0-9.]+ / in N /; s/[0-9.]+ bytes per/N bytes per/; s/left out [0-9]+/left out N/" | add
section "info: processes and parents"
ct info d >"$W/i.out"
grep -E '^(complete|processes):|^process ' "$W/i.out" | pids | add
section "a child whose parent exited before it started (daemon()): no parent named"
cp -r "$W/d" "$W/dd"
rp=$(sed -n 's/^ppid //p' "$W/dd/$P-0.proc")
sed -i "s/^ppid .*/ppid $rp/" "$W/dd/$C-0.proc"
ct info dd | grep '^process ' | pids | add
section "unwritten events: complete is no"
cp -r "$W/d" "$W/du"
printf 'write_errors: 1\nunwritten_events: 163\nunwritten_bytes: 4096\n' >>"$W/du/info"
ct info du 2>/dev/null | grep -E '^(complete|unwritten):' | add

# -N's count: the calls of the -N function itself (15) and those under it
# (3000); it said 3000, the -N calls not counted
section "-N: the calls left out (summary, info)"
build notrace_count "$E2E/notrace_count.c"
record n -N '^hidden$' ./notrace_count
want_rc "record -N ./notrace_count" $RC 0 "$W/n.err"
grep -o 'left out [0-9]* calls' "$W/n.err" | add
grep '^filtered_calls:' "$W/n/info" | add
