# graph: the call tree aggregated by call path, backtraces and callee tree
# of a function (tests/e2e/basic.c); -F/-N/--hide/-D; bad usage.
# variants: all
# aarch64: yes
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
section "graph --no-time"; ct graph d --no-time | add
section "graph --no-time middle"; ct graph d --no-time middle | add
section "graph --no-time leaf"; ct graph d --no-time leaf | add
# the call filters, as report and replay take them (issue 30): a hidden
# call's callees under its nearest shown caller
for f in "-F ^middle\$" "-N ^inner\$" "--hide ^middle\$" "-D 2" "-F ^outer\$ -D 2" \
	"--hide ^outer\$ -N ^loop\$"; do
	# shellcheck disable=SC2086
	section "graph --no-time $f"; ct graph d --no-time $f | add
done
section "graph -N ^inner\$ leaf"; ct graph d --no-time -N '^inner$' leaf | add
section "graph (with times) has the same calls (lines sorted: the order depends on times)"
# the marks of lines mostly the tracer's cost (and their legend) depend on
# the times too: the sure case checks them
ct graph d | sed -e 's/^ *[0-9.]* *[mun]*s  *[0-9.]* *[mun]*s  //' -e 's/ \*$//' -e '/^\* mostly/d' |
	LC_ALL=C sort | add
section "graph --bogus"
guard "$CT" graph -d "$W/d" --bogus >"$W/bogus.out" 2>"$W/bogus.err"
want_rc "graph --bogus" $RC 2 "$W/bogus.err"
printf 'exit %s, stdout %s bytes\n' "$RC" "$(wc -c <"$W/bogus.out" | tr -d ' ')" | add
head -n 1 "$W/bogus.err" | add
section "graph nosuchfunc"
guard "$CT" graph -d "$W/d" nosuchfunc >/dev/null 2>"$W/nf.err"
want_rc "graph nosuchfunc" $RC 1 "$W/nf.err"
cat "$W/nf.err" | add
