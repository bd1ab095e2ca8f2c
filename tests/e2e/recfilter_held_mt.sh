# record -t alone in three threads with library calls (doc/record.md): the
# trampolines' held paths (arch/x86_64/tramp.S) leave short calls out,
# library calls among them, and write the entries of long ones, each
# thread's on its own; the recording shows, thread by thread, the tree that
# replay -t shows of a full recording.  (Library calls: atoi, strtol, which
# glibc's atoi is at -O2, and usleep only, so that how long pthread_join
# waits plays no part.)
# The calls the program makes short are left out of the trees compared:
# a busy machine may make one long (it waits for a CPU), and -t then keeps
# it, which short_kept checks against its recorded duration.
# variants: all
# aarch64: yes patch
# front-ends: all
build held "$E2E/recfilter_held_mt.c"
LC='--libcall=^(atoi|strtol|usleep)$'
SHORT='^(leaf|parse|nested|spans|atoi|strtol)(@|$)'
record full "$LC" ./held
want_rc "record --libcall ./held" $RC 0 "$W/full.err"
ct replay full --no-duration --per-thread -t 50ms | long_only "$SHORT" | normalize >"$W/full.tree"
record t "$LC" -t 50ms ./held
want_rc "record --libcall -t 50ms ./held" $RC 0 "$W/t.err"
section "record --libcall -t 50ms ./held: replay --per-thread"
ct replay t --no-duration --per-thread | long_only "$SHORT" | normalize | tee "$W/t.tree" | add
short_kept t 50000000 "$SHORT"
cmp -s "$W/t.tree" "$W/full.tree" ||
	fail "record -t differs from replay -t of a full recording: $(diff "$W/full.tree" "$W/t.tree" | head -8 | tr '\n' '|')"
section "the short calls are left out, and counted"
grep -q '^filtered_calls: [1-9]' "$W/t/info" && echo yes | add
