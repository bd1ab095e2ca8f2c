# -fpatchable-function-entry (doc/frontends.md): untraced, the program runs
# its nops with its plain output; traced, the runtime patches the sites and
# every call is recorded, with N,M layouts that leave 5 bytes of nops at
# the entry (N=5; N=7,M=2 with endbr64; N=9,M=3), in the program and in a
# dlopen'ed library.  A layout with fewer than 5 bytes (N=4) gets one clear
# message and runs untraced, unharmed.
# variants: one
for opt in "5" "7,2 -fcf-protection" "9,3" "8"; do
	n=${opt%% *}
	extra=
	case $opt in *" "*) extra=${opt#* } ;; esac
	for cc in gcc clang; do
		# both compilers, each layout
		name=p-$cc-$(echo "$n" | tr , _)
		if ! $cc -g -O2 -fpatchable-function-entry=$n $extra -I"$E2E" -o "$W/$name" "$E2E/basic.c" \
			>"$W/build-$name.log" 2>&1; then
			section "$cc N,M=$n $extra: not supported by the compiler"
			continue
		fi
		guard "$W/$name" >"$W/$name.plain" 2>&1
		record "d-$name" "./$name"
		want_rc "record ./$name" $RC 0 "$W/d-$name.err"
		cmp -s "$W/$name.plain" "$W/d-$name.out" || fail "$name: traced output differs"
		section "$cc -fpatchable-function-entry=$n $extra: calls"
		ct report "d-$name" --format=csv | csv_calls | add
		grep 'patchable function entries' "$W/d-$name.err" | add
	done
done

# too few nops: a message, no calls (record exits 3: nothing recorded),
# the program unharmed
gcc -g -O2 -fpatchable-function-entry=4 -I"$E2E" -o "$W/p4" "$E2E/basic.c" || die "build p4"
guard "$W/p4" >"$W/p4.plain" 2>&1
record d4 ./p4
want_rc "record ./p4" $RC 3 "$W/d4.err"
cmp -s "$W/p4.plain" "$W/d4.out" || fail "p4: traced output differs"
section "N=4: message"
grep 'patchable function entries' "$W/d4.err" | sed "s|$W/||" | add
section "N=4: events recorded"
find "$W/d4" -name '*.ev' -size +32c | wc -l | add

# a dlopen'ed library built with patchable entries is patched at dlopen
gcc -g -O2 -fpatchable-function-entry=5 -I"$E2E" -o "$W/dl" "$E2E/dlopen.c" -ldl || die "build dl"
gcc -g -O2 -fpatchable-function-entry=5 -fPIC -shared -I"$E2E" -o "$W/libplugin.so" "$E2E/plugin.c" ||
	die "build plugin"
record dd ./dl ./libplugin.so
want_rc "record ./dl" $RC 0 "$W/dd.err"
section "dlopen: replay"
ct replay dd --no-duration | normalize | add

# loaded, unloaded and loaded again (most likely at the same address): the
# library is patched each time
gcc -g -O2 -fpatchable-function-entry=5 -I"$E2E" -o "$W/dlreload" "$E2E/dlreload.c" -ldl ||
	die "build dlreload"
record dr ./dlreload ./libplugin.so
want_rc "record ./dlreload" $RC 0 "$W/dr.err"
section "dlopen x3: calls"
ct report dr --format=csv | csv_calls | add
