# -L/--loc-filter (issue 30; uftrace's location filter): as -F, for the
# functions whose source file (from DWARF) or module matches; composed
# with -N and -C, on replay and report; one matching nothing: a warning,
# as -F's; a bad regex: exit 2 (tests/e2e/locfilt.c, locfilt_b.c).
# variants: all
# aarch64: yes patch
build locfilt "$E2E/locfilt.c" "$E2E/locfilt_b.c"
record d ./locfilt
want_rc "record ./locfilt" $RC 0 "$W/d.err"
section "replay -L 'locfilt_b\\.c\$'"
ct replay d --no-duration -L 'locfilt_b\.c$' | normalize | add
section "replay --loc-filter='locfilt_b\\.c\$' -N '^a_leaf\$'"
ct replay d --no-duration --loc-filter='locfilt_b\.c$' -N '^a_leaf$' | normalize | add
section "replay -L '^locfilt\$' (the module): everything"
ct replay d --no-duration -L '^locfilt$' | normalize | add
section "report -L 'locfilt_b\\.c\$': functions and calls"
ct report d -L 'locfilt_b\.c$' --format=csv | csv_calls | add
section "graph --no-time -L 'locfilt_b\\.c\$' -C '^a_leaf\$'"
ct graph d --no-time -L 'locfilt_b\.c$' -C '^a_leaf$' | add
section "bad input"
guard "$CT" replay -d "$W/d" --no-duration -L nosuch >"$W/none.out" 2>"$W/none.err"
echo "-L nosuch: exit $RC, $(wc -l <"$W/none.out") line(s); $(cat "$W/none.err")" | add
guard "$CT" report -d "$W/d" -L '(' >/dev/null 2>"$W/bad.err"
echo "-L '(': exit $RC $(head -n 1 "$W/bad.err")" | add
golden
