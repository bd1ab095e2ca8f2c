# overhead-hook: the hooked front ends (-pg, -pg -mfentry, patched entries)
# are calibrated too ("overhead-hook" line), every process notes the front
# end it recorded through ("frontend" line), and report takes out the
# figures of that front end: the expected corrected times are computed here
# from the raw ones and the .proc figures, with the arithmetic of
# lib/read/overhead.h (no timing thresholds).
# variants: one
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
ct report d --format=csv >"$W/corr.csv"
ct report d --raw --format=csv >"$W/raw.csv"
# per process: the figures in ps per call (lib/read/overhead.c), and the leaf
# calls parent made (100000 in the first process, 1000 in the forked child)
for f in "$W"/d/*.proc; do
	awk -v l="$want_line" -v hz="$hz" '$1 == l { i = int($3 * 1e12 / hz / $2 + 0.5); o = int($4 * 1e12 / hz / $2 + 0.5) }
		$1 == "fork" { child = 1 }
		END { if (o < i) o = i; print i, o, child ? 1000 : 100000 }' "$f"
done >"$W/figures"
awk -F, 'FNR == 1 { f++; if (f > 1) next }
	f == 1 { fig[++np] = $0; next }
	f == 2 { raw[$1] = $3; calls[$1] = $2; next }
	f == 3 { corr[$1] = $3 }
	END {
		# leaf: no callees, so each call loses inner; parent: one call per
		# process, each losing inner + below * outer (rounded per call)
		leaf = raw["leaf"]; parent = raw["parent"]
		for (k = 1; k <= np; k++) {
			split(fig[k], a, " ")
			leaf -= a[3] * int((a[1] + 500) / 1000)
			parent -= int((a[3] * a[2] + a[1] + 500) / 1000)
		}
		# a sum below 0 shows as 0 (ct_clamp_sum): when the calibration
		# came out above what the calls really cost (a loaded machine)
		if (leaf < 0) leaf = 0
		if (parent < 0) parent = 0
		if (calls["leaf"] != 101000) print "leaf calls " calls["leaf"]
		if (corr["leaf"] == leaf) print "leaf total: as computed"
		else print "leaf total: got " corr["leaf"] ", computed " leaf " from raw " raw["leaf"]
		if (corr["parent"] == parent) print "parent total: as computed"
		else print "parent total: got " corr["parent"] ", computed " parent " from raw " raw["parent"]
	}' "$W/figures" "$W/raw.csv" "$W/corr.csv" | add
golden
