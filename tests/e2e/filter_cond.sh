# Conditions on record-time filters, in the reference tool's spelling:
# -F/-N 'REGEX@if:argN OP VALUE' hold only for the calls whose N-th integer
# argument compares so (==, !=, >, >=, <, <=; signed, decimal or 0x), with
# each register-seeing front end; -A shows the arguments.  Bad conditions:
# one line, exit 2; -finstrument-functions (its hooks do not see the
# arguments) and --hide refused, exit 2.
# variants: all
. "$E2E/args_lib.inc"
A="-A ^fib\$@arg1/d -A ^step\$@arg1/d64 -A ^leaf\$@arg1/d"
n=0
for fr in $(args_fronts); do
	args_build fc.$fr $fr "$E2E/filter_cond.c"
	for opts in "-F ^fib\$@if:arg1==2" "-N ^step\$@if:arg1<0" "-N ^step\$@if:arg1!=0x1" \
		"-F ^step\$@if:arg1>=1 -F ^fib\$@if:arg1>3" "-N ^fib\$@if:arg1<=3 -N ^step\$@if:arg1>-2"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		record "d$n" $A $opts ./fc.$fr
		want_rc "record $opts ./fc.$fr" $RC 0 "$W/d$n.err"
		{
			echo "== record $opts"
			ct replay "d$n" --no-duration | normalize
		} >>"$W/trees.$fr"
	done
	args_same $fr "$W/trees.$fr"
	[ -z "$first" ] && first=$fr
done
add <"$W/trees.$first"

section "bad conditions (exit status, message)"
for spec in '^fib$@if:arg7==1' '^fib$@if:arg1=1' '^fib$@if:arg1==x' '@if:arg1==1' \
	'^fib$@if:arg1==' '^fib$@if:ret==1'; do
	"$CT" record -d "$W/bad" -F "$spec" ./fc.$first >/dev/null 2>"$W/bad.err"
	echo "-F '$spec': exit $? $(head -n 1 "$W/bad.err")" | add
done
"$CT" record -d "$W/bad" --hide '^fib$@if:arg1==1' ./fc.$first >/dev/null 2>"$W/bad.err"
echo "--hide: exit $? $(head -n 1 "$W/bad.err")" | add

section "-finstrument-functions: refused (its hooks do not see the arguments)"
# shellcheck disable=SC2086
$CC -g $(args_opt) -finstrument-functions -I"$E2E" -o "$W/fc.cyg" "$E2E/filter_cond.c"
"$CT" record -d "$W/cyg" -N '^step$@if:arg1<0' ./fc.cyg >/dev/null 2>"$W/cyg.err"
echo "exit $? $(head -n 1 "$W/cyg.err" | sed "s|$W/||")" | add
