# record --count across processes and deaths: a forked child counts its own
# calls, and so does an exec'd image; counts survive a SIGSEGV and a SIGKILL (the tables are shared
# memory that record reads when the program is gone); a dlopen'd module's
# functions are resolved, and count as a full recording counts them.
# aarch64: yes binfmt
# variants: all
# front-ends: few
build fork "$E2E/fork.c"
build target "$E2E/target.c"
build forkexec "$E2E/forkexec.c"
build crash "$E2E/crash.c"
build libplugin.so "$E2E/plugin.c" -shared -fPIC
build dlopen "$E2E/dlopen.c"

# callers_of D FUNC: FUNC's callers and FUNC (not its callees: with -pg,
# -mfentry and patched entries a tail call counts from the caller's caller)
callers_of() {
	ct callers "$1" "$2" | awk 'NR <= 2 { print; next } { print } /^ +[0-9]+  [^ ]/ { exit }'
}

section "fork: each process its own counts (functions=calls per process)"
record cfork --count ./fork
want_rc "record --count ./fork" $RC 0 "$W/cfork.err"
add <"$W/cfork.out"
ls "$W/cfork" | grep -c '\.cnt$' | sed 's/^/.cnt files: /' | add
ct report cfork --per-thread --format=csv |
	awk -F, 'NR > 1 { a[$1] = a[$1] " " $3 "=" $4 } END { for (p in a) print a[p] }' |
	LC_ALL=C sort | add
section "fork: callers of child_work (main, whose call was in the parent)"
callers_of cfork child_work | add

section "fork + exec: the new image counts its calls (its own .cnt, gen 1)"
record cfe --count ./forkexec ./target
want_rc "record --count ./forkexec ./target" $RC 0 "$W/cfe.err"
add <"$W/cfe.out"
(cd "$W/cfe" && ls | sed -n 's/^[0-9]*-\([0-9]*\)-[0-9]*\.cnt$/cnt gen \1/p' | LC_ALL=C sort) | add
ct report cfe --format=csv | tail -n +2 | LC_ALL=C sort | add

section "SIGSEGV: exit status and the counts up to the crash"
record csegv --count ./crash segv
want_rc "record --count ./crash segv" $RC 139 "$W/csegv.err"
echo "exit $RC" | add
ct report csegv --format=csv | LC_ALL=C sort | add

section "SIGKILL: every spin() call the program counted is counted"
timeout -k 10 "$CT_TIMEOUT" "$CT" record --count -d "$W/ckill" ./crash kill "$W/count" \
	</dev/null >"$W/ckill.out" 2>"$W/ckill.err" &
rp=$!
i=0
while ! grep -q '^ready' "$W/ckill.out" && kill -0 $rp 2>/dev/null && [ $i -lt 3000 ]; do
	sleep 0.2
	i=$((i + 1))
done
pid=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$W/ckill.out")
if [ -z "$pid" ]; then
	kill -9 $rp 2>/dev/null
	wait $rp
	die "the program never printed ready (record exit status $?): $(head -c 600 "$W/ckill.err" | tr '\n' '|')"
fi
kill -9 "$pid"
wait $rp
RC=$?
want_rc "record --count ./crash kill" $RC 137 "$W/ckill.err"
echo "exit $RC" | add
count=$(od -An -t d8 -N 8 "$W/count" | tr -d ' ')
ct report ckill --format=csv >"$W/ckill.csv"
LC_ALL=C sort "$W/ckill.csv" | grep -v '^spin,' | add
calls=$(calls_of spin "$W/ckill.csv")
# spin() counts itself after its entry hook: one more if killed in between
if [ "$calls" = "$count" ] || [ "$calls" = "$((count + 1))" ]; then
	echo "spin: all counted" | add
else
	echo "spin: $calls counted, the program counted $count" | add
fi

section "dlopen: the module's functions, as a full recording counts them"
record fdl ./dlopen ./libplugin.so
want_rc "record ./dlopen" $RC 0 "$W/fdl.err"
record cdl --count ./dlopen ./libplugin.so
want_rc "record --count ./dlopen" $RC 0 "$W/cdl.err"
ct report cdl --format=csv | tail -n +2 | LC_ALL=C sort >"$W/cdl.calls"
add <"$W/cdl.calls"
ct report fdl --format=csv | csv_calls >"$W/fdl.calls"
if cmp -s "$W/fdl.calls" "$W/cdl.calls"; then
	echo "same as the full recording" | add
else
	echo "differ from the full recording" | add
	fail "dlopen counts differ: $(diff "$W/fdl.calls" "$W/cdl.calls" | tr '\n' '|')"
fi
callers_of cdl plugin_helper | add
