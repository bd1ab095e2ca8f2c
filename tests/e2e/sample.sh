# record --sample (doc/record.md "Sampling"): each thread's CPU time
# sampled, each sample charged to the call open on the recorded path
# (tests/e2e/sample.c).  one() and three() run the same loop, three()
# three times as long, turn about: their sampled self times must be 1:3
# within +-35 % (some 1,000 samples: that is over 4 standard errors; a
# ratio of two functions' samples in the same run, never an absolute
# time), in the main thread, in two threads at once (each with samples of
# both), in a parent and its forked child (both sampled), in an
# exec'd image, with --flight; with -N three at record time three's
# samples are work's own; the folded export by samples adds up.  At
# 10 kHz, with the program's own SIGPROF handler calling traced code, the
# samples land inside hooks and inside the handler's nested calls: the
# recording must read back whole (replay, info), the program run as
# untraced.  A program that takes the sampling signal for itself
# (sigaction, raise, sigprocmask) keeps its handler and its signals, and
# record says so.  Bad rates exit 2.
# aarch64: yes binfmt
# variants: one
# front-ends: few
build prog "$E2E/sample.c"

# ratio D [--per-thread]: "three/one within bounds" from report's CSV, the
# figures to stderr (the failure's message)
ratio() {
	ct report "$1" --format=csv >"$W/$1.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s[$c["function"]] += $c["samples_self"] }
		END {
			o = s["one"]; t = s["three"]
			if (!(o > 0 && t > 0)) { print "no samples: one " o ", three " t; exit }
			r = t / o
			print (r >= 1.95 && r <= 4.05) ? "three/one: 1:3 within 35 %" : "three/one: " t "/" o " = " r ", not 3 within 35 %"
			printf "one %d, three %d samples: %.2f\n", o, t, r >"/dev/stderr"
		}' "$W/$1.csv" 2>>"$W/figures" | add
}

section "main thread: report's columns, the ratio"
record d --sample=4k ./prog
want_rc "record --sample=4k ./prog" $RC 0 "$W/d.err"
# where perf events are refused (perf_event_paranoid 3, a seccomp filter)
# the samples come from POSIX timers at the kernel's tick: some 250 a
# second of CPU, a twentieth of 4 kHz.  As many samples need 20 times the
# work (doc/record.md "Sampling")
if grep -q '^sample .* timer$' "$W"/d/*.proc; then
	SAMPLE_ROUNDS=800
	export SAMPLE_ROUNDS
	echo "sampled by POSIX timers: 800 rounds" >>"$W/figures"
	record d --sample=4k ./prog
	want_rc "record --sample=4k ./prog" $RC 0 "$W/d.err"
fi
add <"$W/d.out"
ct report d | sed -n 1p | add
ct report d --format=csv | sed -n 1p | add
ratio d
# every sample is charged somewhere: main's sampled total is all of them
ct report d --format=json >"$W/d.json"
python3 - "$W/d.json" <<'PY' | add
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["functions"]}
s = r["samples"]
main = f["main"]["samples_total"]
print("main's samples + outside = all:", main + s["outside"] == s["all"])
print("self samples add up to all:", sum(x["samples_self"] for x in r["functions"]) + s["outside"] == s["all"])
print("work's total >= one's + three's:", f["work"]["samples_total"] >= f["one"]["samples_total"] + f["three"]["samples_total"])
PY
grep -c '^sample 250000 ' "$W"/d/*.proc | sed 's/^.*://; s/^/.proc files with "sample 250000": /' | add
# (which clock, a perf event or a POSIX timer, depends on the machine)
ct info d | sed -n 's/^  \(sampled: *every [^(]*\) (.*/info: \1/p' | add
# without --sample: no such columns, the sort keys refused
record plain ./prog
want_rc "record ./prog" $RC 0 "$W/plain.err"
ct report plain | sed -n 1p | add
guard "$CT" report -d "$W/plain" -s sself >/dev/null 2>"$W/o.err"
echo "report -s sself without samples: exit $RC" | add
sed 's|/[^ ]*/plain|DIR|' "$W/o.err" | add

section "export --format=folded --folded-value=samples"
ct export d --format=folded --folded-value=samples >"$W/d.folded"
# (main or work may have a few samples of their own, from their hooks)
sed -n 's/^\(.*;\(one\|three\)\) [0-9]*$/\1/p' "$W/d.folded" | add
python3 - "$W/d.folded" "$W/d.json" <<'PY' | add
import json, sys
v = {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1])}
s = json.load(open(sys.argv[2]))["samples"]
print("the stacks' samples add up to all but those outside:", sum(v.values()) == s["all"] - s["outside"])
PY
guard "$CT" export -d "$W/plain" --format=folded --folded-value=samples >/dev/null 2>"$W/o.err"
echo "without samples: exit $RC: $(sed 's|/[^ ]*/plain|DIR|' "$W/o.err")" | add

section "threads: the work in two threads"
record th --sample=4k ./prog threads
want_rc "record --sample ./prog threads" $RC 0 "$W/th.err"
ratio th
ct report th --per-thread --format=csv |
	awk -F, 'NR > 1 && ($3 == "one" || $3 == "three") && $13 > 0 { n[$2]++ } END { for (t in n) k += n[t] == 2; print "threads with samples of both one and three: " k }' | add

section "fork: the work in the parent and in its child"
record fk --sample=4k ./prog fork
want_rc "record --sample ./prog fork" $RC 0 "$W/fk.err"
ratio fk
grep -l '^sample 250000 ' "$W"/fk/*.proc | wc -l | sed 's/^ */processes sampled: /' | add
ct report fk --per-thread --format=csv |
	awk -F, 'NR > 1 && $3 == "three" && $13 > 0 { n++ } END { print n " processes with samples of three" }' | add

section "exec: the image it execs samples on its own"
record ex --sample=4k ./prog exec
want_rc "record --sample ./prog exec" $RC 0 "$W/ex.err"
ratio ex
grep -l '^sample 250000 ' "$W"/ex/*.proc | wc -l | sed 's/^ */images sampled: /' | add

section "-N three at record time: its samples are its caller's (work's own)"
record nt --sample=4k -N '^three$' ./prog
want_rc "record --sample -N three ./prog" $RC 0 "$W/nt.err"
ct report nt --format=csv >"$W/nt.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ s[$c["function"]] = $c["samples_self"] }
	END {
		r = (s["one"] > 0) ? s["work"] / s["one"] : 0
		print ("three" in s) ? "three recorded" : "three left out"
		print (r >= 1.95 && r <= 4.05) ? "work/one: 1:3 within 35 %" : "work/one: " s["work"] "/" s["one"] ", not 3 within 35 %"
	}' "$W/nt.csv" | add

section "--flight"
record fl --flight --sample=4k ./prog
want_rc "record --flight --sample ./prog" $RC 0 "$W/fl.err"
ratio fl

section "10 kHz, the program's own SIGPROF handler nested"
record ns --sample=10k ./prog nested
want_rc "record --sample=10k ./prog nested" $RC 0 "$W/ns.err"
add <"$W/ns.out"
ratio ns
ct replay ns >"$W/ns.replay" && echo "replay: read whole" | add
ct info ns >"$W/ns.info"
# (the program's handler's calls that interrupt a buffer switch may be
# dropped, counted: lost; its figure goes to the figures file)
grep -E '^unmatched' "$W/ns.info" | add
grep -E '^lost' "$W/ns.info" >>"$W/figures"

section "the program takes the sampling signal for itself"
record own --sample ./prog own
want_rc "record --sample ./prog own" $RC 0 "$W/own.err"
add <"$W/own.out"
sed -n 's/^calltrace: \(.*own handler.*\)$/\1/p' "$W/own.err" | add
ct report own --format=csv |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "three" { print "three sampled:", ($c["samples_self"] > 0) ? "yes" : "no" }' | add

section "bad values exit 2"
for a in --sample=0 --sample=200k --sample=0.5 --sample=abc --sample=5x --sample=1M '--sample -t 1ms'; do
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/bad" $a ./prog >/dev/null 2>"$W/o.err"
	echo "record $a: exit $RC: $(head -n 1 "$W/o.err")" | add
	[ -e "$W/bad" ] && fail "record $a made a data directory"
done
