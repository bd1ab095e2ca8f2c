# recal: the hooks' cost measured again on the CPU a thread moves to
# (doc/overhead.md "The CPU a thread runs on").  record is started on one
# CPU (taskset), so the start-up calibration is that CPU's; the program
# moves itself to another and makes 400,000 calls there.  The thread's
# stream must carry that CPU's figures (a CALIB record: info's "recalib"
# line; none before this change), with the measuring taken out, the
# recording's times keeping their invariants (tests/check_times.py); with
# --flight each buffer of the window carries them (a window read alone);
# a thread started on the other CPU that makes fewer calls than fill a
# buffer carries them from its start; with --plugin nothing is measured
# again (the calibration's 3,200 calls reached the plugin: plugin_count
# failed under load); CALLTRACE_RECAL=0 keeps the start-up figures.  Needs two CPUs and
# taskset; otherwise skipped, saying why.
# variants: one
# front-ends: few
build prog "$E2E/recal.c"
cpus=$(./prog probe)
if [ "$cpus" = none ] || ! command -v taskset >/dev/null 2>&1; then
	echo "recal: skipped: needs two CPUs and taskset (have: $cpus)" >>"$W/skipped"
	exit 0
fi
a=${cpus% *}
b=${cpus#* }

# recalib D: 'recalibrated' or not, from info's process line
recalib() {
	ct info "$1" >"$W/$1.info" 2>&1
	awk '$1 == "recalib:" { n += $2 } END { print (n > 0 ? "recalibrated" : "not recalibrated") }' \
		"$W/$1.info"
}

section "moved to another CPU"
guard taskset -c "$a" "$CT" record -d "$W/d" ./prog "$b" >"$W/d.out" 2>"$W/d.err"
want_rc "record ./prog $b" $RC 0 "$W/d.err"
sed "s/CPU $b\$/CPU B/" "$W/d.out" | add
recalib d | add
guard python3 "$TOP/tests/check_times.py" --work "$W/d.views" "$CT" "$W/d" >"$W/d.check" 2>&1
[ $RC -eq 0 ] && echo "invariants: ok" | add ||
	fail "check_times.py d: $(grep -m 10 '^BAD\|Error\|Traceback' "$W/d.check" | tr '\n' '|')"

section "--flight: the window's buffers carry the figures"
guard taskset -c "$a" "$CT" record --flight -d "$W/f" ./prog "$b" >"$W/f.out" 2>"$W/f.err"
want_rc "record --flight ./prog $b" $RC 0 "$W/f.err"
recalib f | add

section "a thread started on another CPU, 100 calls"
guard taskset -c "$a" "$CT" record -d "$W/t" ./prog thread "$b" >"$W/t.out" 2>"$W/t.err"
want_rc "record ./prog thread $b" $RC 0 "$W/t.err"
sed "s/CPU $b\$/CPU B/" "$W/t.out" | add
recalib t | add

section "--plugin: nothing measured again, the plugin sees the program's calls only"
guard taskset -c "$a" "$CT" record -d "$W/p" --plugin="$TOP/build/plugins/count.so:out=$W/p.counts" \
	./prog "$b" >"$W/p.out" 2>"$W/p.err"
want_rc "record --plugin ./prog $b" $RC 0 "$W/p.err"
recalib p | add
awk 'NR > 1 && $2 !~ /@/ { print $2, $1 }' "$W/p.counts" | LC_ALL=C sort | add

section "CALLTRACE_RECAL=0: the start-up figures only"
guard env CALLTRACE_RECAL=0 taskset -c "$a" "$CT" record -d "$W/o" ./prog "$b" >"$W/o.out" 2>"$W/o.err"
want_rc "record ./prog $b (RECAL=0)" $RC 0 "$W/o.err"
recalib o | add
