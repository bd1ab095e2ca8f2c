# C++ names: demangled by default (--demangle=full), qualified names alone
# with --demangle=simple, mangled with --demangle=no (and --no-demangle);
# a function is found by the same names (graph FUNC, callers FUNC, -F) in
# each mode.
# variants: all
# aarch64: yes patch
# front-ends: few
build demangle "$E2E/demangle.cc"
record d ./demangle
want_rc "record ./demangle" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "replay --no-demangle"; ct replay d --no-duration --no-demangle | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
for m in full simple no; do
	section "replay --demangle=$m"
	ct replay d --no-duration --demangle=$m | normalize | add
	section "report --demangle=$m --format=csv (function,calls)"
	ct report d --demangle=$m --format=csv | csv_calls | add
	section "graph --demangle=$m (the tree)"
	ct graph d --demangle=$m --no-time | sed -n '/FUNCTION/,$p' | sed 's/^ *//' | add
	# the same names find the function in every mode
	# (simple names have no parameter list to match)
	fs="get ns::Cls::get"
	[ $m = simple ] || fs="$fs ns::Cls::get\(\)_const"
	for f in $fs; do
		f=$(echo "$f" | tr _ ' ')
		section "graph --demangle=$m '$f' (the backtrace)"
		ct graph d --demangle=$m --no-time "$f" | sed -n '1,/^$/p' | sed 's/^ *//' | add
	done
	section "callers --demangle=$m smethod"
	ct callers d --demangle=$m --no-time smethod | sed 's/^ *//' | add
	section "replay --demangle=$m -F 'Cls::method\\(int, char'"
	ct replay d --no-duration --demangle=$m -F 'Cls::method\(int, char' | normalize | add
	section "replay --demangle=$m -N 'ns::'"
	ct replay d --no-duration --demangle=$m -N 'ns::' | normalize | add
done
section "export folded --demangle=simple"
ct export d --format=folded --demangle=simple -o "$W/f.folded"
sed 's/ [0-9]*$//' "$W/f.folded" | LC_ALL=C sort | add
section "coverage --demangle=simple"
ct coverage d --demangle=simple --format=json | tr ',{' '\n\n' | sed -n 's/^"name":"\(.*\)"$/\1/p' | LC_ALL=C sort | add
section "replay --demangle=bad"
guard "$CT" replay -d "$W/d" --demangle=bad >/dev/null 2>"$W/bad.err"
echo "exit $RC: $(head -n 1 "$W/bad.err")" | add
section "live --demangle=simple ./demangle: replay's options reach the tree"
mkdir -p "$W/tmp"
TMPDIR="$W/tmp" guard "$CT" live -q --demangle=simple --no-pager --color=never \
	--output="$W/l.tree" ./demangle >"$W/l.out" 2>"$W/l.err"
echo "exit $RC" | add
add <"$W/l.out"
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/l.tree" | normalize | add
