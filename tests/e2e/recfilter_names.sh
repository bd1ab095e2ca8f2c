# record-time -F/-N/--hide regexes match the names the views match: the
# qualified name with and without its parameters, and the simple name,
# never the return type (doc/record.md, "Which names a regex sees"); -N
# matching main or std::thread's entry warns before the run (issue 28,
# items 1 and 2)
# variants: one
# aarch64: yes patch
# front-ends: few
build recfilter_names "$E2E/recfilter_names.cc"
record full ./recfilter_names
want_rc "record ./recfilter_names" $RC 0 "$W/full.err"
for f in "--hide ^ns::" "-N bar2\$" "--hide ^ns:: -N bar2\$" "-F ^ns::twice<int>\$" \
	"-N ^ns::twice\$" "-F work\\(int\\)\$ -N leaf"; do
	rm -rf "$W/f"
	# shellcheck disable=SC2086
	record f $f ./recfilter_names
	want_rc "record $f" $RC 0 "$W/f.err" || continue
	section "record $f: report (function,calls)"
	ct report f --format=csv | csv_calls >"$W/f.calls"
	# (the std:: helpers a build instruments differ by compiler and level)
	sed '/std::/d' "$W/f.calls" | add
	# shellcheck disable=SC2086
	ct report full $f --format=csv | csv_calls >"$W/full.calls"
	cmp -s "$W/f.calls" "$W/full.calls" ||
		fail "record $f differs from report $f of a full recording: $(diff "$W/full.calls" "$W/f.calls" | tr '\n' '|')"
	grep 'matches no function' "$W/f.err" | add
	# and with --demangle=simple
	# shellcheck disable=SC2086
	ct report full --demangle=simple $f --format=csv | csv_calls | sed '/std::/d' | add
done

section "-N matching where threads start: a warning before the run"
for f in "-N ^main\$" "-N std::" "-N ^std::thread::_State_impl<.*>::_M_run\$" "--hide std::"; do
	rm -rf "$W/f"
	# shellcheck disable=SC2086
	record f $f ./recfilter_names
	want_rc "record $f" $RC 0 "$W/f.err" || continue
	echo "record $f:" | add
	grep 'warning' "$W/f.err" | add
done

section "-T sees the same names"
rm -rf "$W/f"
record f -T 'bar2$@depth=1' -T '^ns::twice<long>$@depth=1' ./recfilter_names
want_rc "record -T" $RC 0 "$W/f.err"
grep 'matches no function' "$W/f.err" | add
ct report f --format=csv | csv_calls | sed '/std::/d' | add
