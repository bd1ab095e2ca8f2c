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
# record says so, SIGTRAP (the trap clock's) and SIGRTMAX-2 (rt's).  The
# clock is the first of trap, rt and timer the kernel gives (from the one
# CALLTRACE_SAMPLE_CLOCK names), each gives samples, trap's handler makes
# no PERF_EVENT_IOC_REFRESH, rt's one per 8 samples.  Bad rates exit 2.
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
# (SIGTRAP with the trap clock, SIGRTMAX-2 with the others: the .proc's)
SIG=$(sed -n 's/^sample [0-9]* \([0-9]*\) .*/\1/p' "$W"/d/*.proc | head -n 1)
record own --sample ./prog own "$SIG"
want_rc "record --sample ./prog own $SIG" $RC 0 "$W/own.err"
add <"$W/own.out"
sed -n 's/^calltrace: \(.*own handler.*\)$/\1/p' "$W/own.err" |
	sed "s/signal $SIG ([A-Z0-9-]*)/signal SIG/" | add
ct report own --format=csv |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "three" { print "three sampled:", ($c["samples_self"] > 0) ? "yes" : "no" }' | add
# the real-time signal (the rt and timer clocks') where the default is
# SIGTRAP
export CALLTRACE_SAMPLE_CLOCK=rt
record ownrt --sample ./prog own 62
unset CALLTRACE_SAMPLE_CLOCK
want_rc "record --sample ./prog own 62 (rt)" $RC 0 "$W/ownrt.err"
add <"$W/ownrt.out"
sed -n 's/^calltrace: \(.*own handler.*\)$/\1/p' "$W/ownrt.err" | add

section "the clock: the first of trap, rt, timer the kernel gives"
# tool_sigclock says which perf events this kernel gives, without
# calltrace; CALLTRACE_SAMPLE_CLOCK names the first to try (the others
# after it, in that order); the .proc says which one ran: SIGTRAP (5) and
# perf for trap, 62 and perf for rt, 62 and timer for timer
# (for aarch64 built by the variant's compiler and run under the emulator,
# which has no perf events: timer)
if [ -n "$EMU" ]; then
	$CC -O2 -o "$W/tool_sigclock" "$E2E/tool_sigclock.c" >"$W/build-tool_sigclock.log" 2>&1 ||
		die "build of tool_sigclock failed: $(head -5 "$W/build-tool_sigclock.log")"
	K=$($EMU "$W/tool_sigclock")
else
	build_tool sigclock
	K=$("$W/tool_sigclock")
fi
echo "kernel: $K" >>"$W/figures"
# clock D: trap, rt or timer, from D's .proc files
clock() {
	sed -n 's/^sample [0-9]* \([0-9]*\) \([a-z]*\)$/\1 \2/p' "$W/$1"/*.proc | sort -u |
		sed 's/^5 perf$/trap/; s/^62 perf$/rt/; s/^62 timer$/timer/' | tr '\n' ' ' | sed 's/ $//'
}
# want C: the clock a run that starts at C should take here
want() {
	case $1:$K in
	*:timer | timer:*) echo timer ;;
	rt:* | *:rt) echo rt ;;
	*) echo trap ;;
	esac
}
echo "default: $([ "$(clock d)" = "$(want trap)" ] && echo "the kernel's first" || echo "$(clock d), not $(want trap)")" | add
# each clock forced, its samples (the ratio with the perf events; a POSIX
# timer's tick-bound samples are too few at 40 rounds), and the system
# calls its handler makes: PERF_EVENT_IOC_REFRESH never with trap (the
# event runs on), once every 8 samples with rt (and once as it starts)
for c in trap rt timer; do
	if command -v strace >/dev/null 2>&1; then
		guard env CALLTRACE_SAMPLE_CLOCK=$c strace -f -qq -e trace=ioctl -e signal=none -o "$W/st.$c" \
			"$CT" record -d "$W/ck$c" --sample=4k ./prog >"$W/ck$c.out" 2>"$W/ck$c.err"
	else
		echo "no strace: the handler's system calls not counted" >>"$W/figures"
		export CALLTRACE_SAMPLE_CLOCK=$c
		record "ck$c" --sample=4k ./prog
		unset CALLTRACE_SAMPLE_CLOCK
		: >"$W/st.$c"
	fi
	want_rc "CALLTRACE_SAMPLE_CLOCK=$c record --sample=4k ./prog" $RC 0 "$W/ck$c.err"
	echo "$c: $([ "$(clock "ck$c")" = "$(want $c)" ] && echo "as wanted" || echo "$(clock "ck$c"), not $(want $c)")" | add
	ct report "ck$c" --format=json >"$W/ck$c.json"
	n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples"]["all"])' "$W/ck$c.json")
	r=$(grep -c PERF_EVENT_IOC_REFRESH "$W/st.$c")
	echo "$c: $n samples, $r PERF_EVENT_IOC_REFRESH" >>"$W/figures"
	case $(want $c) in
	trap) ok=$([ "$r" -eq 0 ] && echo yes || echo "no: $r") ;;
	rt) ok=$([ "$r" -le $((n / 8 + 1)) ] && echo yes || echo "no: $r for $n samples") ;;
	timer) ok=yes ;;
	esac
	echo "$c: samples: $([ "$n" -gt 0 ] && echo yes || echo no), refreshes at most 1 in 8: $ok" | add
	[ $c = timer ] || ratio "ck$c"
done
# --sample-clock: tick is the timer, perf the kernel's first perf event;
# the option wins over CALLTRACE_SAMPLE_CLOCK
guard env CALLTRACE_SAMPLE_CLOCK=trap "$CT" record -d "$W/sctick" --sample=4k --sample-clock=tick ./prog \
	>/dev/null 2>"$W/sctick.err"
want_rc "record --sample-clock=tick" $RC 0 "$W/sctick.err"
echo "--sample-clock=tick: $([ "$(clock sctick)" = "$(want timer)" ] && echo "as wanted" || echo "$(clock sctick), not $(want timer)")" | add
guard env CALLTRACE_SAMPLE_CLOCK=timer "$CT" record -d "$W/scperf" --sample=4k --sample-clock=perf ./prog \
	>/dev/null 2>"$W/scperf.err"
want_rc "record --sample-clock=perf" $RC 0 "$W/scperf.err"
echo "--sample-clock=perf: $([ "$(clock scperf)" = "$(want trap)" ] && echo "as wanted" || echo "$(clock scperf), not $(want trap)")" | add
# a tick's signal stands for the periods since the last (at 4 kHz more
# than one with any tick up to 1000 Hz): the samples' counts stand on
# fewer takings, which report, callers and graph say, with the factor; each of
# the perf event's samples is one taken, and nothing is said (where the
# kernel refuses perf events, scperf's clock is the timer too)
record sctickc --count --sample=4k --sample-clock=tick ./prog
want_rc "record --count --sample-clock=tick" $RC 0 "$W/sctickc.err"
for d in sctick sctickc scperf; do
	ct report $d --format=json >"$W/$d.tj"
	ct report $d >"$W/$d.tt"
	ct callers $d one >"$W/$d.tc"
	ct graph $d >"$W/$d.tg"
	# (fewer, all or bad; the figures to stderr)
	t=$(python3 - "$W/$d.tj" "$d" <<'PY' 2>>"$W/figures"
import json, sys
s = json.load(open(sys.argv[1]))["samples"]
print(sys.argv[2] + ": taken", s["taken"], "of", s["all"], file=sys.stderr)
print("fewer" if 0 < s["taken"] < s["all"] else "all" if s["taken"] == s["all"] else "bad")
PY
)
	l=$(grep -c '^# taken: [0-9]* of the samples, .* about 1/sqrt(count/[0-9.]*), not' "$W/$d.tt")
	c=$(grep -c '^# taken: ' "$W/$d.tc")
	g=$(grep -c '^# taken: ' "$W/$d.tg")
	# (taken: fewer than the samples, and report's, callers' and graph's
	# lines)
	want="fewer 1 1 1"
	[ $d = scperf ] && [ "$(clock scperf)" != timer ] && want="all 0 0 0"
	echo "$d: taken and said as its clock takes them: $([ "$t $l $c $g" = "$want" ] && echo yes ||
		echo "no: taken $t samples; report's lines $l, callers' $c, graph's $g")" | add
done
guard env CALLTRACE_SAMPLE_CLOCK=fast "$CT" record -d "$W/ckbad" --sample ./prog >/dev/null 2>"$W/ckbad.err"
want_rc "CALLTRACE_SAMPLE_CLOCK=fast record --sample ./prog" $RC 0 "$W/ckbad.err"
grep -m1 -o 'CALLTRACE_SAMPLE_CLOCK=fast: .*' "$W/ckbad.err" | add

section "bad values exit 2"
for a in --sample=0 --sample=200k --sample=0.5 --sample=abc --sample=5x --sample=1M '--sample -t 1ms' \
	'--sample --sample-clock=fast' --sample-clock=tick; do
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/bad" $a ./prog >/dev/null 2>"$W/o.err"
	echo "record $a: exit $RC: $(head -n 1 "$W/o.err")" | add
	[ -e "$W/bad" ] && fail "record $a made a data directory"
done
