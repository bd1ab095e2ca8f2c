# linked_trust: the runtime linked into a program (-lcalltrace) trusts
# neither what its arguments hold nor, in a set-user-ID program, its
# environment (doc/runtime.md, "Trust").
# (a) Arguments with a newline, spaces and a backslash: info's command
#     escapes them as record's writer does (\n, \x20, \\); a newline used
#     to add a line of its own to info ("exit_status: 0" here).
# (b) As root: the program installed set-user-ID root and run by user
#     65534 (setpriv) with CALLTRACE=1 and CALLTRACE_DIR naming a root-only
#     directory, existing (with an info) or not: nothing is created or
#     replaced there, one line says why.  It used to make root's files
#     there and replace info.  Skipped, with the reason, when not root,
#     without setpriv, or where set-user-ID has no effect.
# variants: one
LIBDIR=$(dirname "$CT")
build prog "$E2E/linked_trust.c" -L"$LIBDIR" -lcalltrace -Wl,-rpath,"$LIBDIR"

section "(a) arguments with a newline, spaces and a backslash"
nl='a
exit_status: 0'
guard env CALLTRACE_DIR="$W/d" ./prog "$nl" 'two words' 'back\slash' >"$W/d.out" 2>"$W/d.err"
want_rc "CALLTRACE_DIR=d ./prog ..." $RC 0 "$W/d.err"
add <"$W/d.out"
echo "info's lines: $(wc -l <"$W/d/info")" | add
grep '^command: ' "$W/d/info" | add
grep -c '^exit_status' "$W/d/info" | sed 's/^/exit_status lines: /' | add
ct info d | grep '^ *[Cc]ommand' | add
section "(a) replay"; ct replay d --no-duration | normalize | add

# (b) nothing below adds to actual: what is checked fails the case
if [ "$(id -u)" != 0 ]; then
	echo "set-user-ID part skipped: not root" >>"$W/skipped"
	exit 0
fi
if ! command -v setpriv >/dev/null; then
	echo "set-user-ID part skipped: no setpriv" >>"$W/skipped"
	exit 0
fi
# a directory user 65534 can reach (the work directory is private)
T=$(mktemp -d /tmp/calltrace-setuid.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
cp "$LIBDIR/libcalltrace.so" "$T/"
$CC $CFLAGS -I"$E2E" -o "$T/prog" "$E2E/linked_trust.c" -L"$T" -lcalltrace -Wl,-rpath,"$T" \
	>"$W/build-suid.log" 2>&1 || die "build of the set-user-ID program failed"
chown root:root "$T/prog" && chmod 4755 "$T/prog"
mkdir -m 700 "$T/secret"
printf 'original\n' >"$T/secret/info"
chmod 600 "$T/secret/info"
before=$(ls -la --time-style=+%s.%N "$T/secret")
as_nobody() {
	guard setpriv --reuid=65534 --regid=65534 --clear-groups env CALLTRACE=1 \
		CALLTRACE_DIR="$1" "$T/prog" euid >"$W/s.out" 2>"$W/s.err"
}
as_nobody "$T/secret"
if ! grep -q '^euid 0$' "$W/s.out"; then
	echo "set-user-ID part skipped: the set-user-ID bit had no effect in $T ($(cat "$W/s.out" "$W/s.err" | head -c 200))" >>"$W/skipped"
	exit 0
fi
want_rc "set-user-ID prog, CALLTRACE_DIR=secret" $RC 0 "$W/s.err"
grep -q 'privileges its caller does not have' "$W/s.err" ||
	fail "set-user-ID prog, CALLTRACE_DIR=secret: no message; stderr: $(head -c 300 "$W/s.err")"
[ "$(cat "$T/secret/info")" = original ] || fail "secret/info was replaced: $(head -c 200 "$T/secret/info")"
[ "$before" = "$(ls -la --time-style=+%s.%N "$T/secret")" ] ||
	fail "secret/ changed: $(ls -la "$T/secret" | tr '\n' '|')"
as_nobody "$T/secret/new"
want_rc "set-user-ID prog, CALLTRACE_DIR=secret/new" $RC 0 "$W/s.err"
[ -e "$T/secret/new" ] && fail "secret/new was created: $(ls -la "$T/secret/new" | tr '\n' '|')"
[ "$before" = "$(ls -la --time-style=+%s.%N "$T/secret")" ] ||
	fail "secret/ changed: $(ls -la "$T/secret" | tr '\n' '|')"
