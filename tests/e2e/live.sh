# calltrace live: record and replay in one step (issue 13's item 7); the
# temporary recording is removed, -d keeps one; `calltrace ./prog` says
# what to type.
# variants: one
# front-ends: few
build basic "$E2E/basic.c"
mkdir -p "$W/tmp"
section "live ./basic: the program's output, then its tree"
TMPDIR="$W/tmp" guard "$CT" live -q ./basic >"$W/l.out" 2>"$W/l.err"
echo "exit $RC" | add
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/l.out" | normalize | add
section "the temporary recording is gone"
ls "$W/tmp" | wc -l | add
section "live -F middle -d kept ./basic"
TMPDIR="$W/tmp" guard "$CT" live -q -F middle -d "$W/kept" ./basic >"$W/k.out" 2>"$W/k.err"
echo "exit $RC" | add
sed 's/^[ 0-9.]*[mun]*s  *\[/[/; s/^ *\[/[/' "$W/k.out" | normalize | add
[ -f "$W/kept/info" ] && echo "kept: info" | add
section "calltrace ./basic"
guard "$CT" ./basic >/dev/null 2>"$W/p.err"
echo "exit $RC: $(cat "$W/p.err")" | add
section "live --help"
guard "$CT" live --help >/dev/null 2>&1
echo "exit $RC" | add
