# The address recorded for a call is the function's entry (its symbol
# value) under every front end: -finstrument-functions gives it, mcount and
# __fentry__ derive it from the call site (past the prologue, after an
# endbr64), patched entries from the site.  Checked on the raw ENTER
# records of a program with many functions straddling page boundaries,
# with and without -fcf-protection (endbr64).
# variants: all
# front-ends: all
build_tool entries
for cf in "" "-fcf-protection"; do
	name=many$(echo "$cf" | tr -d ' -')
	build "$name" "$E2E/many.c" $cf
	record "d$name" "./$name"
	want_rc "record ./$name" $RC 0 "$W/d$name.err"
	# the load bias of the program, from the module map
	base=$(awk -v exe="$W/$name" '$1 == "module" && $7 == exe { print $3; exit }' "$W/d$name"/*.proc)
	[ -n "$base" ] || die "no module line for $W/$name in $W/d$name/*.proc"
	"$W/tool_entries" "$W/d$name"/*.ev >"$W/$name.addrs" || die "tool_entries failed"
	nm "$W/$name" | awk '$2 ~ /^[TtWw]$/ { print $1 }' | sort -u >"$W/$name.syms"
	awk -v b="$base" 'function hex(s,  i, v, c) { v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
		return v }
		FNR == NR { sym[hex($1)] = 1; next }
		{ n++; o = hex($1) - hex(b); if (!(o in sym)) { bad++; printf "not an entry: %x\n", o } }
		END { printf "addresses %s, not a function entry: %d\n", (n >= 90 ? "90 or more" : n), bad }' \
		"$W/$name.syms" "$W/$name.addrs" >"$W/$name.check"
	section "${cf:-default}"
	tail -n 1 "$W/$name.check" | add
	grep '^not an entry' "$W/$name.check" | head -5 >>"$W/failures"
done
