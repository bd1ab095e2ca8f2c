# basic: nested calls, a leaf, a loop; report CSV call counts; filters.
# variants: all
# front-ends: all
# aarch64: check patch
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "replay -F middle"; ct replay d --no-duration -F middle | normalize | add
section "replay -F '^(inner|loop)\$'"; ct replay d --no-duration -F '^(inner|loop)$' | normalize | add
section "replay -N leaf"; ct replay d --no-duration -N leaf | normalize | add
section "replay -N '^middle\$'"; ct replay d --no-duration -N '^middle$' | normalize | add
section "replay -D 2"; ct replay d --no-duration -D 2 | normalize | add
section "replay -t 1000s (hides everything)"; ct replay d --no-duration -t 1000s | normalize | add
section "replay (with durations) has the same calls"
ct replay d | sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' | normalize | add
