# record -W cpu (the reference tool's watch point): a program pins itself
# with sched_setaffinity to one CPU, calls first(), to another, calls
# second() and third(), starts a thread pinned to the first CPU, and goes
# back there for first() again (watch_cpu.c).  replay shows a line
# "/* watch:cpu (cpu=N) */" right after the entry of the first call on a
# CPU other than the thread's last (and of each thread's first call), never
# for third(); the CPU numbers as A and B.  The same tree without those
# lines as without -W; with -N and -D at record time the line moves to the
# first recorded call on the CPU.  With -t 10ms the short calls are taken
# back, with the CPU records they held: each spin() (20 ms of calls) is
# kept and runs on the CPU the lines say (a short leaf() before it that a
# busy machine made long is kept, with the line: the CPU in force at each
# spin() is compared, not whose entry has the line).  Bad -W values and
# -W cpu --count: one line, exit 2.  Needs two CPUs the test may use;
# skipped otherwise.
# variants: all
# aarch64: yes
# front-ends: all
build watch_cpu "$E2E/watch_cpu.c"
cpus=$($EMU ./watch_cpu probe)
if [ "$cpus" = none ]; then
	echo "watch_cpu: skipped: needs two CPUs (have: $cpus)" >>"$W/skipped"
	exit 0
fi
a=${cpus% *}
b=${cpus#* }
ab() { sed "s/(cpu=$a)/(cpu=A)/; s/(cpu=$b)/(cpu=B)/"; }

section "replay"
record d -W cpu ./watch_cpu "$a" "$b"
want_rc "record -W cpu ./watch_cpu" $RC 0 "$W/d.err"
ct replay d --no-duration | ab | normalize | add
add <"$W/d.out"

section "without its lines, the tree recorded without -W"
record n ./watch_cpu "$a" "$b"
want_rc "record ./watch_cpu" $RC 0 "$W/n.err"
ct replay d --no-duration | grep -v 'watch:cpu' | normalize >"$W/d.tree"
ct replay n --no-duration | normalize >"$W/n.tree"
cmp -s "$W/d.tree" "$W/n.tree" && echo same | add ||
	fail "-W cpu changed the tree: $(diff "$W/n.tree" "$W/d.tree" | head -n 20 | tr '\n' '|')"

section "-W cpu -N ^second\$: third() is the first call recorded on B"
record f -W cpu -N '^second$' ./watch_cpu "$a" "$b"
want_rc "record -W cpu -N ./watch_cpu" $RC 0 "$W/f.err"
ct replay f --no-duration | ab | normalize | add

section "-W cpu -D 1"
record g -W cpu -D 1 ./watch_cpu "$a" "$b"
want_rc "record -W cpu -D 1 ./watch_cpu" $RC 0 "$W/g.err"
ct replay g --no-duration | ab | normalize | add

section "-W cpu -t 10ms: the CPU in force at each spin()"
record t -W cpu -t 10ms ./watch_cpu spin "$a" "$b"
want_rc "record -W cpu -t 10ms ./watch_cpu spin" $RC 0 "$W/t.err"
ct replay t --no-duration | ab | normalize >"$W/t.tree"
awk '/watch:cpu/ { cpu = $0; sub(/.*cpu=/, "", cpu); sub(/\).*/, "", cpu) }
	wait && !/watch:cpu/ { print "spin on " cpu; wait = 0 }
	/spin\(\) \{/ { wait = 1 }
	/spin\(\);/ { print "spin on " cpu }' "$W/t.tree" | add

section "bad -W (exit status, message)"
for o in "-W foo" "-W cpu,foo" "--watch=" "-W cpu --count"; do
	# shellcheck disable=SC2086
	"$CT" record -d "$W/bad" $o ./watch_cpu "$a" "$b" >/dev/null 2>"$W/bad.err"
	echo "$o: exit $? $(head -n 1 "$W/bad.err")" | add
done
[ -e "$W/bad" ] && fail "a refused record made its data directory"
