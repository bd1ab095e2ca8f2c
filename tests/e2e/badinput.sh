# Bad input to replay, report and info: missing, empty and info-less
# directories, truncated, corrupted and foreign .ev files, garbage in .proc
# and info.  Never a crash (exit status >= 128); clear errors naming the
# file (and the offset, for stream data).
# variants: one
build basic "$E2E/basic.c"
build_tool corrupt
record good ./basic
want_rc "record ./basic" $RC 0 "$W/good.err" || die "no trace to corrupt"
ev=$(ls "$W/good" | grep '\.ev$' | head -n 1)
proc=$(ls "$W/good" | grep '\.proc$' | head -n 1)
[ -n "$ev" ] && [ -n "$proc" ] || die "no .ev or .proc file in the recording: $(ls "$W/good")"
evsize=$(wc -c <"$W/good/$ev")

# copy NAME: a fresh copy of the good recording in $W/NAME
copy() { rm -rf "${W:?}/$1"; cp -r "$W/good" "$W/$1"; }

# try SUB DIR: run calltrace SUB -d DIR; R is its status, $W/try.err stderr
try() {
	guard "$CT" "$1" -d "$W/$2" >"$W/try.out" 2>"$W/try.err"
	R=$RC
	if [ $R -ge 124 ]; then
		fail "calltrace $1 -d $2: exit status $R (crash or hang); stderr: $(head -c 300 "$W/try.err" | tr '\n' '|')"
		return 1
	fi
}

# expect SUBS DIR RULE [WORDS...]: check each subcommand's behaviour on DIR
# and print what was checked (for the golden file).
#   err:    exit 1 with a message on stderr containing every WORD
#   ok:     exit 0
#   either: exit 0, or exit 1 with a message containing every WORD
expect() {
	_subs=$1 _dir=$2 _rule=$3
	shift 3
	echo "$_dir: $_subs: $_rule${*:+ (naming $*)}" | sed "s/$ev/FILE.ev/g; s/$proc/FILE.proc/g"
	for _s in $_subs; do
		try "$_s" "$_dir" || continue
		case $_rule:$R in
		ok:0 | either:0) continue ;;
		err:1 | either:1) ;;
		*) fail "calltrace $_s -d $_dir: exit status $R, expected $_rule; stderr: $(head -c 300 "$W/try.err" | tr '\n' '|')"
		   continue ;;
		esac
		[ -s "$W/try.err" ] || fail "calltrace $_s -d $_dir: exit 1 without a message"
		for _w in "$@"; do
			grep -qF -- "$_w" "$W/try.err" ||
				fail "calltrace $_s -d $_dir: message does not name '$_w': $(head -c 300 "$W/try.err" | tr '\n' '|')"
		done
	done
}

ALL="replay report info"
READERS="replay report"   # the subcommands that read the event streams

section "good recording"
expect "$ALL" good ok | add

section "directories"
expect "$ALL" missing err missing | add
mkdir -p "$W/empty"
expect "$ALL" empty err empty | add
copy noinfo; rm -f "$W/noinfo/info"
expect "$ALL" noinfo err info | add

section "truncated .ev (the header: exit 0 or 1; after it the stream just stops: exit 0)"
for off in 0 1 8 12 20 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 \
	$((evsize / 2)) $((evsize / 2 + 1)) $((evsize / 2 + 2)) $((evsize / 2 + 3)) \
	$((evsize - 5)) $((evsize - 3)) $((evsize - 2)) $((evsize - 1)); do
	[ $off -ge 0 ] && [ $off -lt $evsize ] || continue
	copy "trunc$off"
	truncate -s $off "$W/trunc$off/$ev"
	if [ $off -lt 32 ]; then
		expect "$ALL" "trunc$off" either "$ev"
	else
		expect "$ALL" "trunc$off" ok
	fi
	rm -rf "$W/trunc$off"
done | sed 's/trunc[0-9]*/truncN/' | sort -u | add

section "garbage in the .ev stream (exit 1 naming the file and offset)"
for seed in 1 2 3 4 5; do
	copy "garbage$seed"
	"$W/tool_corrupt" "$W/garbage$seed/$ev" 40 4096 $seed
	expect "$READERS" "garbage$seed" err "$ev" offset | add
	expect info "garbage$seed" either "$ev" | add
done

section "a bad .ev header"
copy badversion
printf '\377' | dd of="$W/badversion/$ev" bs=1 seek=8 conv=notrunc 2>/dev/null
expect "$READERS" badversion err "$ev" | add
expect info badversion either "$ev" | add
copy badmagic
printf 'XX' | dd of="$W/badmagic/$ev" bs=1 seek=0 conv=notrunc 2>/dev/null
expect "$READERS" badmagic err "$ev" | add
expect info badmagic either "$ev" | add

section "foreign files renamed to .ev (bad magic: exit 1 naming the file)"
copy foreign_elf; cp /bin/true "$W/foreign_elf/$ev"
expect "$READERS" foreign_elf err "$ev" | add
expect info foreign_elf either "$ev" | add
copy foreign_text; echo "hello" >"$W/foreign_text/$ev"
expect "$READERS" foreign_text err "$ev" | add
expect info foreign_text either "$ev" | add

section "garbage lines in the .proc file"
copy procgarbage
printf 'garbage line\nmodule zz\nmodule 1 2 3\nclock x y z\n\n\001\002\377\n' >>"$W/procgarbage/$proc"
expect "$ALL" procgarbage either "$proc" | add
copy procbinary
"$W/tool_corrupt" "$W/procbinary/$proc" 0 2000 9
expect "$ALL" procbinary either "$proc" | add
copy procempty; : >"$W/procempty/$proc"
expect "$ALL" procempty either "$proc" | add

section "garbage in info"
copy infogarbage
printf 'garbage\nclock_hz: zero\nstart_clock: -1\n\377\376\n' >>"$W/infogarbage/info"
expect "$ALL" infogarbage either info | add
copy infobinary
"$W/tool_corrupt" "$W/infobinary/info" 0 600 11
expect "$ALL" infobinary either info | add

# view DIR ARGS...: calltrace ARGS -d DIR, stdout in $W/view.out, stderr in
# $W/view.err; R is its status (a crash or hang fails the case)
view() {
	_d=$1
	shift
	guard "$CT" "$@" -d "$W/$_d" >"$W/view.out" 2>"$W/view.err"
	R=$RC
	[ $R -lt 124 ] || fail "calltrace $* -d $_d: exit status $R (crash or hang); stderr: $(head -c 300 "$W/view.err" | tr '\n' '|')"
}

# Hostile recordings (issue 10): a data file is opened only if it is a
# regular file, never through a link (the directory itself may be one),
# without blocking, and read no further than its size and a cap.  Before,
# a link to /dev/zero was read until memory ran out and a FIFO blocked for
# ever; a short guard makes a hang a failure here.
CT_TIMEOUT_SAVED=$CT_TIMEOUT
CT_TIMEOUT=60
section "data files that are links, FIFOs or too large (exit 1 at once, naming the file and the cause)"
copy evzero; rm "$W/evzero/$ev"; ln -s /dev/zero "$W/evzero/$ev"
expect "$ALL" evzero err "$ev" "symbolic link" | add
copy evrandom; rm "$W/evrandom/$ev"; ln -s /dev/urandom "$W/evrandom/$ev"
expect "$ALL" evrandom err "$ev" "symbolic link" | add
copy evlink; mv "$W/evlink/$ev" "$W/evlink.target"; ln -s "$W/evlink.target" "$W/evlink/$ev"
expect "$ALL" evlink err "$ev" "symbolic link" | add
copy evfifo; rm "$W/evfifo/$ev"; mkfifo "$W/evfifo/$ev"
expect "$ALL" evfifo err "$ev" FIFO | add
copy proczero; rm "$W/proczero/$proc"; ln -s /dev/zero "$W/proczero/$proc"
expect "$ALL" proczero err "$proc" "symbolic link" | add
copy procfifo; rm "$W/procfifo/$proc"; mkfifo "$W/procfifo/$proc"
expect "$ALL" procfifo err "$proc" FIFO | add
copy prochuge; truncate -s +100M "$W/prochuge/$proc"
expect "$ALL" prochuge err "$proc" "too large" | add
copy inforandom; rm "$W/inforandom/info"; ln -s /dev/urandom "$W/inforandom/info"
expect "$ALL" inforandom err info "symbolic link" | add
copy infofifo; rm "$W/infofifo/info"; mkfifo "$W/infofifo/info"
expect "$ALL" infofifo err info FIFO | add
copy infohuge; truncate -s 2G "$W/infohuge/info"
expect "$ALL" infohuge err info "too large" | add
# the directory itself may be a link the user made
ln -s "$W/good" "$W/dirlink"
expect "$ALL" dirlink ok | add

section "args.spec and sym/ files that are not regular files (a warning; the names or values are left out)"
for what in argsfifo argszero symzero symfifo symdirlink; do
	copy $what
	case $what in
	argsfifo) mkfifo "$W/$what/args.spec"; word=args.spec ;;
	argszero) ln -s /dev/zero "$W/$what/args.spec"; word=args.spec ;;
	symzero | symfifo)
		for f in "$W/$what"/sym/*.sym; do
			rm "$f"
			if [ $what = symzero ]; then ln -s /dev/zero "$f"; else mkfifo "$f"; fi
		done
		word=.sym ;;
	symdirlink) mv "$W/$what/sym" "$W/$what.sym"; ln -s "$W/$what.sym" "$W/$what/sym"; word=sym ;;
	esac
	for s in replay report; do
		view $what $s
		[ $R = 0 ] || fail "calltrace $s -d $what: exit status $R, expected 0; stderr: $(head -c 300 "$W/view.err" | tr '\n' '|')"
		grep -q "warning: .*$word.*\(not a regular file\|symbolic link\|not a directory\)" "$W/view.err" ||
			fail "calltrace $s -d $what: no warning naming $word; stderr: $(head -c 300 "$W/view.err" | tr '\n' '|')"
	done
	echo "$what: replay report: ok, with a warning naming $word" | add
done

section "a module named by a FIFO, with call sites (replay --srcline: no line for it, no hang)"
# a call site's line is looked up in the DWARF of the module holding it:
# that file is opened as a regular one only, as every file a recording names
record goodcs --callsite ./basic
want_rc "record --callsite ./basic" $RC 0 "$W/goodcs.err"
rm -rf "$W/srcfifo" && cp -r "$W/goodcs" "$W/srcfifo" && mkfifo "$W/srcfifo.fifo"
p=$(ls "$W/srcfifo"/*.proc | head -n 1)
# the program's module: no build id, its path the FIFO
awk -v f="$W/srcfifo.fifo" '$1 == "module" && !done { $6 = "-"; $7 = f; done = 1 } { print }' \
	"$p" >"$p.new" && mv "$p.new" "$p"
view srcfifo replay --srcline --no-duration
[ $R = 0 ] || fail "replay --srcline -d srcfifo: exit status $R, expected 0"
echo "srcfifo: replay --srcline: exit $R" | add
CT_TIMEOUT=$CT_TIMEOUT_SAVED

section "deep nesting: 16384 nested calls in a few hundred KB (every view's output linear in the calls)"
build deep "$E2E/deep.c"
build_tool depth
record deepd ./deep
want_rc "record ./deep" $RC 0 "$W/deepd.err" || die "no deep recording"
# before the caps, replay wrote 0.5 GB here and the folded export 2 GB
LIMIT=60000000
for v in replay "replay --no-duration" "report" "graph" "graph leaf" "callers" "coverage" \
	"export --format=folded" "export --format=folded --folded-value=calls" \
	"export --format=chrome" "export --format=callgrind" "export --format=perfetto" \
	"export --format=html"; do
	# shellcheck disable=SC2086
	n=$(guard "$CT" $v -d "$W/deepd" 2>"$W/deepd.view.err" | head -c $LIMIT | wc -c)
	if [ "$n" -ge $LIMIT ]; then
		fail "calltrace $v -d deepd: $LIMIT bytes of output or more"
		echo "$v: $LIMIT bytes or more"
	else
		echo "$v: under $LIMIT bytes"
	fi
done | add
ct replay deepd --no-duration | "$W/tool_depth" | add
ct export deepd --format=folded --folded-value=calls |
	awk '{ n++ } /\[… [0-9]+ frames\];/ { c++; if (match($0, /\[… [0-9]+ frames\]/)) { k = substr($0, RSTART + 4, RLENGTH - 12) + 0; if (k > m) m = k } }
	END { print "folded: " n " stacks, " c " cut, at most " m " frames left out" }' | add
ct export deepd --format=folded --folded-value=calls --folded-frames=8 |
	awk -F';' 'NF > m { m = NF } END { print "folded --folded-frames=8: at most " m " frames (4 + [...] + 4)" }' | add
ct graph deepd leaf | awk '/ > \[… [0-9]+ frames\] > / { c++ } END { print "graph leaf: " c " backtraces cut" }' | add

section "control characters in names, paths and the command line (no ESC, BEL or C1 byte reaches the output)"
copy esc
exe_sym=$(grep -l "^path .*/basic\$" "$W/esc"/sym/*.sym | head -n 1)
[ -n "$exe_sym" ] || die "no sym file for basic in $(ls "$W/esc/sym")"
# every name of the program gets an OSC sequence, BEL and the C1 CSI (as a
# lone byte and as UTF-8); every source file an ESC
awk 'NR > 3 && NF >= 3 { $3 = "%1B]0;owned%07" $3 "%9B%C2%9B"; if (NF >= 4) $4 = "%1B[2J" $4 } { print }' \
	"$exe_sym" >"$W/esc.sym" && mv "$W/esc.sym" "$exe_sym"
printf 'command: ./basic \033[31mred\007\nx-key\033[1m: v\007\n' >>"$W/esc/info"
printf 'exe /tmp/\033[2Jx\narg \033]0;title\007\nmodule 1 0 7f0000000000 7f0000001000 - /lib/\033[5mblink\233\n' >>"$W/esc/$proc"
# (coverage's text lists the functions never called: none here, the crt's
# having no debug info, doc/coverage.md; its JSON has the called ones)
for v in replay "replay --no-duration" report "report --format=csv" graph callers coverage \
	"coverage --format=json" info "export --format=folded" "export --format=callgrind" "export --format=chrome"; do
	# shellcheck disable=SC2086
	view esc $v
	[ $R = 0 ] || fail "calltrace $v -d esc: exit status $R; stderr: $(head -c 300 "$W/view.err" | tr '\n' '|')"
	grep -q 'owned' "$W/view.out" || [ "$v" = info ] || [ "$v" = coverage ] ||
		fail "calltrace $v -d esc: the names are not in the output"
	n=$(cat "$W/view.out" "$W/view.err" | LC_ALL=C tr -dc '\033\007\233' | wc -c)
	[ "$n" = 0 ] || fail "calltrace $v -d esc: $n raw ESC, BEL or C1 bytes in the output"
	echo "$v: no raw control character"
done | add
ct replay esc --no-duration | grep -m 1 'owned' | normalize | add
ct export esc --format=chrome >"$W/esc.json" &&
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); print("chrome export: valid JSON, a name:", ascii([e["name"] for e in d["traceEvents"] if "owned" in e.get("name", "")][0]))' "$W/esc.json" | add
# perfetto is binary (any byte may be in a varint): its strings are text
ct export esc --format=perfetto >"$W/esc.pftrace" &&
	if grep -q 'owned' "$W/esc.pftrace" && ! LC_ALL=C grep -q "$(printf '\033]0;owned')" "$W/esc.pftrace"; then
		echo "perfetto: names escaped"
	else
		fail "perfetto: the names are not there, or not escaped"
	fi | add

section "no event streams (nothing to sort: no qsort(NULL, 0) under UBSan)"
copy nostreams; rm -f "$W/nostreams"/*.ev
for v in replay report graph callers coverage info "export --format=callgrind" \
	"export --format=folded" "export --format=chrome" "export --format=perfetto"; do
	# shellcheck disable=SC2086
	view nostreams $v
	[ $R = 0 ] || fail "calltrace $v -d nostreams: exit status $R; stderr: $(head -c 300 "$W/view.err" | tr '\n' '|')"
	! grep -q "runtime error" "$W/view.err" ||
		fail "calltrace $v -d nostreams: $(grep -m 1 'runtime error' "$W/view.err")"
	echo "$v: ok"
done | add

section "60000 modules, as many unmodule lines, 300000 distinct addresses (no look-up quadratic in the modules)"
# manymods N A: a copy of the good recording with N more modules, N
# unmodule lines and A ENTER/EXIT pairs at A distinct addresses among them.
# The modules share one (missing) file, so that the reader warns once: the
# look-up is what is measured here, not the warnings (whose list grows by
# one slot a warning: under ASan, whose realloc always copies, 60000 of them
# took 115 s of CPU time, against 5 s for the rest of the work)
manymods() {
	copy "manymods$1"
	python3 - "$W/manymods$1/$proc" "$W/manymods$1/$ev" "$1" "$2" <<'END'
import struct, sys
proc, ev, N, A = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(proc, "a") as f:
    for i in range(N):
        lo = 0x100000000 + i * 0x1000
        f.write("module 1 100000000 %x %x - /nonexistent/lib.so\n" % (lo, lo + 0x1000))
    for i in range(N):
        f.write("unmodule 2 100000000 /nonexistent/none\n")
hdr = open(ev, "rb").read(32)
out = bytearray(hdr)
for k in range(A):  # ENTER (delta 1, address) and EXIT (delta 1)
    addr = 0x100000000 + (k * 7919) % N * 0x1000 + (k // N) * 16
    out += struct.pack("<QI", 2 | 1 << 2 | addr << 24, 1 | 1 << 2)
open(ev, "wb").write(out)
END
}
# cputime DIR: report -d DIR's CPU time (user + system, in s) on stdout,
# its output in DIR.out; under the hang guard, "hung" if it ran that long
cputime() {
	python3 - "$CT_TIMEOUT" "$W/$1.out" "$W/$1.err" "$CT" report -d "$W/$1" --format=csv <<'END'
import resource, subprocess, sys
t, out, err, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
try:
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=open(out, "w"),
                       stderr=open(err, "w"), timeout=t).returncode
except subprocess.TimeoutExpired:
    print("hung")
    sys.exit(0)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %d" % (u.ru_utime + u.ru_stime, r))
END
}
# Before, the modules were searched one by one for each address (37 s
# here) and each unmodule line searched them all again: the work grows
# with modules x addresses and modules x unmodule lines.  It must grow
# with their sum: twenty times the input, 20 to 32 times the CPU time
# (measured: 19 under ASan; the former look-up took 232 times).  CPU time
# against CPU time in the same test, not wall time against a limit: a
# loaded machine (or ASan) makes both slower alike
manymods 3000 15000
manymods 60000 300000
small=$(cputime manymods3000)
big=$(cputime manymods60000)
echo "3000 modules: $small; 60000: $big (CPU s, exit status)" >>"$W/manymods.time"
for r in "$small" "$big"; do
	case $r in
	hung) fail "report -d manymods: still running after $CT_TIMEOUT s" ;;
	*" 0") ;;
	*) fail "report -d manymods: exit status ${r#* }; stderr: $(head -c 300 "$W/manymods60000.err" "$W/manymods3000.err" | tr '\n' '|')" ;;
	esac
done
echo "report: $(($(wc -l <"$W/manymods60000.out") - 1)) functions" | add
awk -v s="${small% *}" -v b="${big% *}" 'BEGIN {
	# (the small run: at least 10 ms, not to divide by a clock tick)
	r = b / (s > 0.01 ? s : 0.01)
	print (r < 80) ? "twenty times the input: less than 80 times the CPU time" : "twenty times the input: " r " times the CPU time"
}' | add
