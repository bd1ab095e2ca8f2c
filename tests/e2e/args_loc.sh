# Argument locations in -A/-R specs, in the reference tool's spelling: a
# named register (arg1%rdi, fparg1%xmm0, retval%rdx), the N-th stack slot
# above the return address (arg1%stack+1, a long double as fparg1/80%stack+1),
# with the formats (i32 x s f /32 /80); the same values with each
# register-seeing front end.  Unknown registers and bad slots: one line,
# exit 2; -finstrument-functions: a warning, no values.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build al.$fr $fr "$E2E/args_loc.c"
	record d.$fr \
		-A '^mixed_add$@arg1/i32%rdi,fparg1/32%xmm0' \
		-A '^mixed_sub$@arg1/x%rdi,arg2%rsi' \
		-A '^mixed_mul$@fparg1%xmm0,arg1/i64' \
		-A '^mixed_div$@arg1/i64,fparg1/80%stack+1' \
		-A '^mixed_str$@arg1/s%rdi,fparg1%xmm0' -R '^mixed_str$@retval/s%rax' \
		-A '^stacked$@arg1/d64%stack+1,arg2/s%stack2,arg3/x%r9,arg4/d%rdx' \
		-R '^wide$@retval/x64%rdx' \
		./al.$fr
	want_rc "record ./al.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration | normalize >"$W/replay.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "replay"; add <"$W/replay.$first"

section "bad locations (exit status, message)"
for spec in '^stacked$@arg1%rzz' '^stacked$@arg1%stack+0' '^stacked$@arg1%stack+' \
	'^stacked$@arg1%stack-1' '^stacked$@arg1%' '^mixed_div$@fparg1/80' \
	'^mixed_div$@fparg1/80%xmm0'; do
	"$CT" record -d "$W/bad" -A "$spec" ./al.$first >/dev/null 2>"$W/bad.err"
	echo "-A '$spec': exit $? $(head -n 1 "$W/bad.err")" | add
	[ "$(wc -l <"$W/bad.err")" -eq 1 ] || fail "-A '$spec': more than one line: $(cat "$W/bad.err")"
done
for spec in '^wide$@retval%rdi' '^wide$@retval%stack+1'; do
	"$CT" record -d "$W/bad" -R "$spec" ./al.$first >/dev/null 2>"$W/bad.err"
	echo "-R '$spec': exit $? $(head -n 1 "$W/bad.err")" | add
done

section "-finstrument-functions: its hooks do not see registers (a warning)"
# shellcheck disable=SC2086
$CC -g $(args_opt) -finstrument-functions -I"$E2E" -o "$W/al.cyg" "$E2E/args_loc.c"
record c -A '^stacked$@arg1/d64%stack+1,arg3/x%r9' ./al.cyg
want_rc "record ./al.cyg" $RC 0 "$W/c.err"
grep -c 'built with -finstrument-functions, whose hooks do not see arguments' "$W/c.err" | add
ct replay c --no-duration -F stacked | normalize | add
