# overhead-hook: the hooked front ends (-pg, -pg -mfentry, patched entries)
# are calibrated too ("overhead-hook" line), every process notes the front
# end it recorded through ("frontend" line), and report takes out the
# figures of that front end: a copy of the recording whose figures of that
# front end are made unbelievable is shown as recorded, one whose other
# front end's figures are is still corrected (no timing thresholds).
# variants: one
# aarch64: yes patch
# front-ends: few
build prog "$E2E/overhead.c"
record d ./prog
want_rc "record ./prog" $RC 0 "$W/d.err"

# the figures this build's front end must be corrected with
case $FRONT in
instr) want_fe=cyg want_line=overhead ;;
*) want_fe=hook want_line=overhead-hook ;;
esac

section "the figures of both front ends in every process, 0 < inner <= outer"
for f in "$W"/d/*.proc; do
	awk '$1 == "overhead" || $1 == "overhead-hook" {
		n[$1]++; if (!(NF == 4 && $2 > 0 && $3 > 0 && $3 <= $4)) bad = bad " " $0 }
	     END { ok = n["overhead"] == 1 && n["overhead-hook"] == 1 && bad == ""
		   print ok ? "sane" : "missing or insane: " n["overhead"] " " n["overhead-hook"] bad }' "$f"
done | LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

section "the front end noted: the one the program was built for"
for f in "$W"/d/*.proc; do
	got=$(awk '$1 == "frontend" { printf "%s%s", s, $2; s = "," }' "$f")
	if [ "$got" = "$want_fe" ]; then echo "as built"; else echo "frontend lines: '$got', want $want_fe"; fi
done | LC_ALL=C sort | uniq -c | sed 's/^ *//' | add

section "info"
ct info d | sed -n 's/^ *\(front end:\).*/\1 F/p; s/^ *measured: *-finstrument-functions [0-9.]* ns inner, [0-9.]* ns outer; hooked [0-9.]* ns inner, [0-9.]* ns outer$/measured: both/p' |
	LC_ALL=C sort | uniq -c | sed 's/^ *//' | add
# the overhead line shows the figures in use
hz=$(sed -n 's/^clock_hz: *//p' "$W/d/info")
for f in "$W"/d/*.proc; do
	awk -v l="$want_line" -v hz="$hz" '$1 == l { printf "%.1f ns inner, %.1f ns outer\n",
		int($3 * 1e12 / hz / $2 + 0.5) / 1000, int($4 * 1e12 / hz / $2 + 0.5) / 1000 }' "$f"
done | LC_ALL=C sort >"$W/want.info"
ct info d | sed -n 's/^ *overhead: *\([0-9.]* ns inner, [0-9.]* ns outer\) per call.*/\1/p' |
	LC_ALL=C sort >"$W/got.info"
cmp -s "$W/want.info" "$W/got.info" ||
	fail "info shows $(cat "$W/got.info"), the $want_line figures are $(cat "$W/want.info")"

section "report: corrected with the figures of the front end used"
# the reader's corrected clock takes out the figures of the front end the
# process used (lib/read/overhead.c, lib/read/stream.c): made unbelievable
# (over 10 us a call) in a copy of the recording, those figures make the
# times as recorded (with a warning), the other front end's do not matter
case $want_line in
overhead) other=overhead-hook ;;
*) other=overhead ;;
esac
for bad in $want_line $other; do
	rm -rf "$W/bad" && cp -r "$W/d" "$W/bad" || die "copy"
	for f in "$W"/bad/*.proc; do
		awk -v l="$bad" '$1 == l { $3 = sprintf("%.0f", $2 * 1000000000); $4 = sprintf("%.0f", $2 * 2000000000) } { print }' \
			"$f" >"$f.new" && mv "$f.new" "$f"
	done
	guard "$CT" report -d "$W/bad" --format=csv >"$W/bad.csv" 2>"$W/bad.err"
	guard "$CT" report -d "$W/bad" --format=csv --raw >"$W/badraw.csv" 2>/dev/null
	what=used
	[ $bad = $want_line ] || what=other
	if cmp -s "$W/bad.csv" "$W/badraw.csv"; then r="as recorded"; else r="corrected"; fi
	grep -q 'not believable' "$W/bad.err" && r="$r, said so"
	echo "the $what front end's figures made unbelievable: $r" | add
done
golden
