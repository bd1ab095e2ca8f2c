# replay -r START~END: the calls that overlap the range (issue 13's item 9).
# Each phase spins 100 ms or more; the times are taken from the recording
# (P2: phase2's start, since the start of the recording, from the chrome
# export), not assumed: a busy machine may start main late and stretch a
# phase.  P2+50ms falls inside phase2, as does P2+51ms, after phase1 and
# before phase3.
# variants: one
# aarch64: yes patch
# front-ends: few
build range "$E2E/range.c"
record d ./range
want_rc "record ./range" $RC 0 "$W/d.err"
ct export d --format=chrome -D 2 -o "$W/d.json"
# chrome's ts: us on the recorded clock, which -r counts in too
p2=$(python3 -c 'import json, math, sys
print([math.ceil(e["ts"] * 1000) for e in json.load(open(sys.argv[1]))["traceEvents"]
       if e.get("ph") == "X" and e["name"] == "phase2"][0])' "$W/d.json") ||
	die "no phase2 in the chrome export"
a=$((p2 + 50000000))ns
b=$((p2 + 51000000))ns
for r in "$a~$b=P2+50ms~P2+51ms" "$a~=P2+50ms~" "~$b=~P2+51ms"; do
	section "replay -r ${r#*=}"
	ct replay d --no-duration -r "${r%%=*}" | normalize | add
done
section "replay -r 1h~: nothing, a message, exit 1"
guard "$CT" replay -d "$W/d" --no-duration -r 1h~ >"$W/late.tree" 2>"$W/late.err"
normalize <"$W/late.tree" | add
echo "exit $RC: $(sed 's/lasts [0-9.]* [mun]*s/lasts T/' "$W/late.err")" | add
# the same ranges in timestamps, as replay -f time prints them: phase2's
# entry line gives the recording's clock there, P2 the same place since
# the start (both on the recorded clock)
ct replay d --no-duration -f time -F '^phase2$' >"$W/p2.tree"
t2=$(awk '/phase2\(\) \{/ { print $1; exit }' "$W/p2.tree")
[ -n "$t2" ] || die "no phase2 in replay -f time: $(head -3 "$W/p2.tree")"
ts() { # ts NS: the timestamp NS after phase2's entry
	python3 -c 'import sys; s, f = sys.argv[1].split("."); t = int(s) * 10**9 + int(f) + int(sys.argv[2])
print("%d.%09d" % (t // 10**9, t % 10**9))' "$t2" "$1"
}
ta=$(ts 50000000) tb=$(ts 51000000)
section "replay -r in timestamps: the same trees as in times since the start"
for r in "$ta~$tb=$a~$b" "$ta~=$a~" "~$tb=~$b"; do
	ct replay d --no-duration -r "${r%%=*}" >"$W/abs.tree"
	ct replay d --no-duration -r "${r#*=}" >"$W/rel.tree"
	n=$(grep -c '()' "$W/abs.tree")
	cmp -s "$W/abs.tree" "$W/rel.tree" && echo "same tree ($n calls)" | add ||
		echo "DIFFERENT trees: $(diff "$W/rel.tree" "$W/abs.tree" | head -5 | tr '\n' '|')" | add
done
section "replay -r with -t: both"
ct replay d --no-duration -r "$a~" -t 50ms | tee "$W/rt.tree" | long_only '^tick$' | normalize | add
# (tick is short, but a busy machine may make one long, which -t then
# shows: left out of the golden file, and only if one lasted 50 ms)
if grep -q 'tick()' "$W/rt.tree"; then
	ct report d --raw --format=csv >"$W/raw.csv"
	awk -F, '$1 == "tick" && $7 < 50000000 { print "replay -t 50ms shows tick, whose longest call is " $7 " ns" }' \
		"$W/raw.csv" >"$W/rt.bad"
	[ -s "$W/rt.bad" ] && fail "$(cat "$W/rt.bad")"
fi
section "bad ranges"
for r in 5ms 2s~1s '~~'; do
	guard "$CT" replay -d "$W/d" -r "$r" >/dev/null 2>"$W/r.err"
	echo "-r $r: exit $RC: $(head -1 "$W/r.err")" | add
done
