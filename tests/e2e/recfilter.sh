# record-time filters: each recording made with a filter shows the same
# tree as `replay` with that filter on a full recording (doc/record.md,
# "Record-time filters"), in every front end; the summary and info say what
# was left out; bad filters are usage errors before anything starts.
# variants: all
# aarch64: yes patch
# front-ends: all
build recfilter "$E2E/recfilter.c"
record full ./recfilter
want_rc "record ./recfilter" $RC 0 "$W/full.err"
section "stdout (exit $RC)"; add <"$W/full.out"

# the tree of recording D, threads sorted (fork: parent and child); when
# the filters have a -t, without the calls the program makes short (a busy
# machine may make one long: short_kept checks that it was)
SHORT='^(leaf|noisy|wrapper|deep|escape|jumper)$'
tree() {
	case " $f " in
	*" -t "*) ct replay "$@" --no-duration --per-thread | long_only "$SHORT" | normalize_threads ;;
	*) ct replay "$@" --no-duration --per-thread | normalize_threads ;;
	esac
}

n=0
for f in "-F ^work\$" "-N ^noisy\$" "--hide ^wrapper\$" "-D 3" "-F ^deep\$ -D 2" \
	"-N ^escape\$ --hide ^(wrapper|deep)\$" "-F ^slow\$ --hide ^slow\$" \
	"-t 10ms" "-t 10ms --hide ^slow\$" "-F ^work\$ -N ^deep\$ -t 10ms"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	record "f$n" $f ./recfilter
	want_rc "record $f ./recfilter" $RC 0 "$W/f$n.err" || continue
	section "record $f ./recfilter: replay"
	# shellcheck disable=SC2086
	tree "f$n" | tee "$W/f$n.tree" | add
	case " $f " in *" -t "*) short_kept "f$n" 10000000 "$SHORT" ;; esac
	# shellcheck disable=SC2086
	tree full $f >"$W/full$n.tree"
	cmp -s "$W/f$n.tree" "$W/full$n.tree" ||
		fail "record $f differs from replay $f of a full recording: $(diff "$W/full$n.tree" "$W/f$n.tree" | head -8 | tr '\n' '|')"
	grep -q "Record-time filters (.*) left out [0-9][0-9]* calls" "$W/f$n.err" ||
		fail "record $f: the summary does not say what the filters left out: $(cat "$W/f$n.err")"
	grep -q '^record_filters: ' "$W/f$n/info" || fail "record $f: no record_filters in info"
	# calls of functions left unhooked (--hide alone, hooked front ends)
	# are not seen, hence not counted
	case $FRONT:$f in
	instr:* | *:-[!-]* | *-t*) grep -q '^filtered_calls: [1-9]' "$W/f$n/info" ||
		fail "record $f: no filtered_calls in info" ;;
	*) grep -q '^filtered_calls: ' "$W/f$n/info" || fail "record $f: no filtered_calls in info" ;;
	esac
done

section "--hide alone: the hooks of the hidden function are taken out (hooked front ends)"
case $FRONT$TARGET in
instr*) echo "patch-filtered 1" | add ;;
pgaarch64)
	# aarch64 patches no -pg code: the hidden function's _mcount calls
	# stay, and the filter drops its calls at run time (the sections
	# above check the trees); said, as -finstrument-functions' line is.
	# (Its patched entries are left as nops, as on x86-64: below)
	grep -q '^patch-filtered' "$W"/f3/*-0.proc && fail "aarch64 patched -pg code"
	echo "$VARIANT: the hidden function's _mcount calls are not patched out on aarch64 (no -pg patcher there)" >>"$W/skipped"
	echo "patch-filtered 1" | add
	;;
*) sed -n 's/^\(patch-filtered [0-9]*\) .*recfilter$/\1/p' "$W"/f3/*-0.proc | sort -u | add ;;
esac

section "bad filters: usage errors, nothing started"
for f in "-F (" "--hide [" "-N a\\" "-D 0" "-D x" "-D 99999999" "-t 1.2.3ms" "-t -1ms"; do
	rm -rf "$W/bad"
	# shellcheck disable=SC2086
	guard "$CT" record -d "$W/bad" $f ./recfilter >"$W/bad.out" 2>"$W/bad.err"
	echo "$f: exit $RC: $(sed 's/ (.*//' "$W/bad.err" | head -1)" | add
	[ -e "$W/bad" ] && fail "record $f made $W/bad"
	[ -s "$W/bad.out" ] && fail "record $f ran the program"
done
section "a filter that matches nothing: a warning"
record nomatch -N '^no_such_function$' ./recfilter
want_rc "record -N no_such_function" $RC 0 "$W/nomatch.err"
grep 'matches no function' "$W/nomatch.err" | add
