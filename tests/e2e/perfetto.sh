# export --format=perfetto: Perfetto's protobuf trace, read back by protoc
# (Debian's protobuf-compiler) with tests/e2e/perfetto.proto, the subset of
# Perfetto's schema calltrace writes, and by protoc --decode_raw; then
# checked by perfetto_check.py: process/thread track descriptors, interned
# names, begin/end equal and nested per track, timestamps non-decreasing per
# sequence, and the same slices (name, start and end in ns, annotations) as
# the chrome export with the same options.  Cases: basic; -F, -N, -D; -r
# inside a call (clipped slices) and -r ~0ns; threads (one sequence each)
# and --tid; longjmp (unwound frames), fork + exec (unfinished frame, one
# track for the thread in two images); captured arguments and return values
# as debug annotations; call sites (record --callsite); the clock snapshot
# (CLOCK_MONOTONIC timestamps).
# variants: all
command -v protoc >/dev/null || die "protoc not found (Debian package protobuf-compiler; make deps)"

# pf D NAME [export options...]: export D as perfetto (W/NAME.pftrace) and
# as chrome (W/NAME.json) with the same options, decode, check, add
# pf_ct: ct, or ct_empty for a range with no call in it
pf_ct=ct
pf() {
	_pd=$1 _pn=$2
	shift 2
	$pf_ct export "$_pd" --format=perfetto -o "$W/$_pn.pftrace" "$@" || return
	$pf_ct export "$_pd" --format=chrome -o "$W/$_pn.json" "$@" || return
	if ! protoc --decode=perfetto.protos.Trace -I"$E2E" "$E2E/perfetto.proto" \
		<"$W/$_pn.pftrace" >"$W/$_pn.txt" 2>"$W/$_pn.protoc.err"; then
		fail "protoc --decode of $_pn.pftrace: $(head -c 300 "$W/$_pn.protoc.err")"
		return
	fi
	python3 "$E2E/perfetto_check.py" "$W/$_pn.txt" "$W/$_pn.json" >"$W/$_pn.check" 2>&1
	add <"$W/$_pn.check"
	grep -q '^BAD\|Traceback' "$W/$_pn.check" && fail "$_pn: $(grep -m 3 '^BAD\|Error' "$W/$_pn.check")"
}

build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

section "export --format=perfetto"
pf d all
section "protoc --decode_raw reads it (no schema)"
protoc --decode_raw <"$W/all.pftrace" >"$W/raw.txt" 2>&1
echo "decode_raw: exit $?, $(grep -c '^1 {' "$W/raw.txt") packets" | add
echo "decoded: $(grep -c '^packet {' "$W/all.txt") packets" | add
# stdout and -o give the same bytes
ct export d --format=perfetto >"$W/stdout.pftrace"
cmp -s "$W/stdout.pftrace" "$W/all.pftrace" && echo "stdout = -o FILE" | add ||
	echo "stdout DIFFERS from -o FILE" | add

section "export --format=perfetto -F middle"
pf d F -F middle
section "export --format=perfetto -N inner -D 3"
pf d ND -N inner -D 3

# the ranges below are taken from the recorded times (--raw): corrected
# times may put a call's start on its caller's (the correction takes the
# hooks' cost out), where a range 1 ns into the caller would take it in or
# not by chance; recorded, a callee starts the hooks' cost after its caller
ct export d --format=chrome --raw -o "$W/raw.json" || fail "export --raw"
section "export --format=perfetto --raw -r inside main (clipped)"
# a range strictly inside main, from the chrome export: main and outer are
# clipped at both ends.  Chrome's times give back their ns exactly when
# read as Perfetto reads them, ts and dur each times 1000 rounded
# (builtin/export.c)
set -- $(python3 -c 'import json,sys
r = lambda us: int(us * 1000.0 + 0.5)
d = json.load(open(sys.argv[1]))
m = [e for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == "main"][0]
b = r(m["ts"]); e = b + r(m["dur"])
print(b + 1, e - 1)' "$W/raw.json")
pf d r --raw -r "${1}ns~${2}ns"
section "export --format=perfetto --raw -r from inside middle to inside loop"
# main and outer clipped at both ends, middle at its start, loop at its end
set -- $(python3 -c 'import json,sys
r = lambda us: int(us * 1000.0 + 0.5)
x = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
t = {e["name"]: r(e["ts"]) for e in x}
print(t["middle"] + 1, t["loop"] + 1)' "$W/raw.json")
pf d r2 --raw -r "${1}~${2}"
section "export --format=perfetto -r ~0ns (nothing)"
pf_ct=ct_empty
pf d r0 -r '~0ns'
pf_ct=ct

section "threads: one sequence per thread; --tid"
build threads "$E2E/threads.c"
record dt ./threads
want_rc "record ./threads" $RC 0 "$W/dt.err"
pf dt threads
pid=$(sed -n 's/^pid \([0-9]*\)$/\1/p' "$W"/dt/*.proc | head -n 1)
section "threads --tid (main thread)"
pf dt tid --tid "$pid"

section "longjmp: unwound frames end their slices"
build longjmp "$E2E/longjmp.c"
record dl ./longjmp
want_rc "record ./longjmp" $RC 0 "$W/dl.err"
pf dl longjmp

section "fork + exec: the unfinished main of the child before its exec"
build target "$E2E/target.c"
build forkexec "$E2E/forkexec.c"
record df ./forkexec ./target
want_rc "record ./forkexec ./target" $RC 0 "$W/df.err"
pf df forkexec

section "captured arguments and return values (-A/-R, a -pg -mfentry build)"
# the arguments on the begin and the return value on the end, as the
# chrome export's "arguments" and "return"
cc=gcc
[ "$FAMILY" = clang ] && cc=clang
$cc -g -O2 -pg -mfentry -I"$E2E" -o "$W/gcd" "$E2E/args.c" >"$W/build-gcd.log" 2>&1 ||
	die "build of args.c with -pg -mfentry failed: $(head -5 "$W/build-gcd.log")"
record da -A 'gcd@arg1/d,arg2/d' -R 'gcd@retval/d' ./gcd
want_rc "record -A -R ./gcd" $RC 0 "$W/da.err"
pf da args -F gcd

section "call sites (record --callsite) as the annotation callsite, as chrome's args"
record dc --callsite ./basic
want_rc "record --callsite ./basic" $RC 0 "$W/dc.err"
pf dc callsite -F outer
