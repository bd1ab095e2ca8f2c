# nest: the timelines nest and keep cause before effect.  The chrome,
# perfetto and html exports of nest.c (threads, pthread_join, fork,
# waitpid; recorded with and without library calls) and of a C++ program
# (nest_cxx.cc: templates from the headers, an exception, std::thread) are
# read back by tests/e2e/nest_check.py: on every thread any two slices
# either nest or do not overlap, in the arithmetic of each program that
# reads the format (chrome: speedscope's, Perfetto's and ts + dur;
# perfetto: its ns, as decoded by protoc and paired by perfetto_check.py,
# which also checks that they are chrome's slices and marks; html: each
# call of the timeline inside its caller); no thread's slices end after
# the pthread_join that joined it returned, no child process starts before
# its fork() nor ends after its waitpid() returned (nest.c's
# calltrace_mark() texts).  nest_speedscope.sh has speedscope read them.
# variants: all
# aarch64: yes patch
# front-ends: few
command -v protoc >/dev/null || die "protoc not found (Debian package protobuf-compiler; make deps)"

# timelines D NAME: export D as chrome, perfetto and html (W/NAME.*),
# check them, add the summary
timelines() {
	_d=$1 _n=$2
	ct export "$_d" --format=chrome -o "$W/$_n.json" || return
	ct export "$_d" --format=perfetto -o "$W/$_n.pftrace" || return
	ct export "$_d" --format=html -o "$W/$_n.html" || return
	if ! protoc --decode=perfetto.protos.Trace -I"$E2E" "$E2E/perfetto.proto" \
		<"$W/$_n.pftrace" >"$W/$_n.pftxt" 2>"$W/$_n.protoc.err"; then
		fail "protoc --decode of $_n.pftrace: $(head -c 300 "$W/$_n.protoc.err")"
		return
	fi
	python3 "$E2E/perfetto_check.py" "$W/$_n.pftxt" "$W/$_n.json" --slices "$W/$_n.slices" \
		>"$W/$_n.pfcheck" 2>&1
	grep -q '^BAD\|Traceback' "$W/$_n.pfcheck" &&
		fail "$_n: perfetto_check: $(grep -m 3 '^BAD\|Error' "$W/$_n.pfcheck")"
	grep '^same slices as chrome' "$W/$_n.pfcheck" | sed 's/: [0-9]*$//' | add
	for _f in chrome:json html:html perfetto:slices; do
		python3 "$E2E/nest_check.py" "${_f%%:*}" "$W/$_n.${_f#*:}" >"$W/$_n.${_f%%:*}.nest" 2>&1
		add <"$W/$_n.${_f%%:*}.nest"
		grep -q '^BAD\|Traceback' "$W/$_n.${_f%%:*}.nest" &&
			fail "$_n ${_f%%:*}: $(grep -m 3 '^BAD\|Error' "$W/$_n.${_f%%:*}.nest")"
	done
}

build nest "$E2E/nest.c" -I"$TOP/include"
section "nest.c"
record d ./nest
want_rc "record ./nest" $RC 0 "$W/d.err"
add <"$W/d.out"
timelines d nest

section "nest.c, library calls recorded (record's default)"
record dl --libcall ./nest
want_rc "record --libcall ./nest" $RC 0 "$W/dl.err"
timelines dl nest-libcall

section "nest_cxx.cc, library calls recorded"
build nest_cxx "$E2E/nest_cxx.cc"
record dx --libcall ./nest_cxx
want_rc "record --libcall ./nest_cxx" $RC 0 "$W/dx.err"
add <"$W/dx.out"
timelines dx cxx
