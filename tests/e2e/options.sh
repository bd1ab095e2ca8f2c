# Command-line handling: --help exits 0 on every command, unknown options
# and bad values exit 2.
# variants: one
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"

# expect_status WANT ARGS...: calltrace ARGS exits WANT
expect_status() {
	_want=$1; shift
	echo "calltrace $*: $_want" | add
	guard "$CT" "$@" >"$W/o.out" 2>"$W/o.err"
	if [ $RC -ne "$_want" ]; then
		fail "calltrace $*: exit status $RC, expected $_want; stderr: $(head -c 300 "$W/o.err" | tr '\n' '|')"
	elif [ "$_want" = 0 ] && [ ! -s "$W/o.out" ]; then
		fail "calltrace $*: printed nothing on stdout"
	elif [ "$_want" = 2 ] && [ ! -s "$W/o.err" ]; then
		fail "calltrace $*: exit 2 without a message on stderr"
	fi
}

section "--help"
expect_status 0 --help
for sub in record replay report info; do
	expect_status 0 $sub --help
done

section "bad usage"
expect_status 2
expect_status 2 no-such-command
expect_status 2 record --no-such-option ./basic
expect_status 2 record
expect_status 2 replay -d d --no-such-option
expect_status 2 report -d d --no-such-option
expect_status 2 info -d d --no-such-option
expect_status 2 replay -d
expect_status 2 replay -d d -D
expect_status 2 replay -d d -D notanumber
expect_status 2 replay -d d -F '('
expect_status 2 report -d d --format=xml
expect_status 2 report -d d -s no-such-key

section "record: bad input"
expect_status 127 record -d d2 ./no-such-program
grep -q "no-such-program" "$W/o.err" || fail "record of a missing program: stderr does not name it"
: >"$W/plainfile"
expect_status 1 record -d plainfile ./basic
mkdir -p "$W/foreign" && echo data >"$W/foreign/notes.txt"
expect_status 1 record -d foreign ./basic
grep -q "not a calltrace data directory" "$W/o.err" || fail "record into a foreign directory: no clear message"
expect_status 2 record -b 12 ./basic
expect_status 2 record --buffers=1 ./basic
expect_status 2 record --clock=sundial ./basic
section "record: an old recording is kept as DIR.old"
expect_status 0 record -q -d d ./basic
[ -f "$W/d.old/info" ] || fail "record -d d over a recording: no d.old/info"
section "a usage error: the message and where the help is, not the whole help"
for c in "replay --bogus" "report -D" "record --bogus ./basic" "record -F" "export --format=nope" "record"; do
	# shellcheck disable=SC2086
	guard "$CT" $c >"$W/u.out" 2>"$W/u.err"
	echo "calltrace $c: exit $RC, $(wc -l <"$W/u.err") lines: $(tail -1 "$W/u.err")" | add
done
section "calltrace help CMD is CMD --help"
for c in replay record info; do
	guard "$CT" help $c >"$W/h1.out" 2>&1
	guard "$CT" $c --help >"$W/h2.out" 2>&1
	cmp -s "$W/h1.out" "$W/h2.out" && echo "help $c: the same" | add || fail "calltrace help $c differs from $c --help"
done
expect_status 2 help no_such_command
