# The function named on the command line of graph and callers: as shown,
# without its parameters, its plain name, or a regex; several match: they
# are listed; none: the closest names are suggested.  A -F/-N/--hide regex
# that matches no function is a warning (issue 13's item 3).
# variants: one
build demangle "$E2E/demangle.cc"
record d ./demangle
want_rc "record ./demangle" $RC 0 "$W/d.err"
# q CMD NAME: the first line of CMD -d d NAME, or its message
q() {
	guard "$CT" "$1" -d "$W/d" "$2" >"$W/q.out" 2>"$W/q.err"
	printf '%s %s: exit %s: %s\n' "$1" "$2" "$RC" "$( (head -1 "$W/q.out"; cat "$W/q.err") | head -1)" | add
}
section "graph"
for n in 'ns::Cls::get() const' 'ns::Cls::get' get smethod twice 'ns::Cls::method(int)' 't.ke' method smethd zzzz; do
	q graph "$n"
done
section "callers"
for n in ns::Cls::take take metod; do
	q callers "$n"
done
section "filters that match nothing: warnings"
guard "$CT" replay -d "$W/d" -F nothing_here --no-duration >/dev/null 2>"$W/w.err"
add <"$W/w.err"
guard "$CT" report -d "$W/d" -N zzz --hide yyy >/dev/null 2>"$W/w.err"
add <"$W/w.err"
