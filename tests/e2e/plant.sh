# What another local user plants where record will make its data
# directory (issue 25, item 6): record used to stat the name, and then
# took mkdir's EEXIST for success and wrote through whatever was there.
# Now it makes the directory with mkdir and, when it exists, opens it
# without following a link and checks that it is ours and writable by
# nobody else; it writes everything relative to that open directory.  As
# root, user 65534 (setpriv) plants in a shared sticky directory: a link
# to an empty directory of ours (record used to record into it), a link to
# a directory of ours that holds an info file (record used to move the
# link), a directory of its own with mode 0777.  Each is refused with one
# line and exit 1, nothing behind it touched.  Without root (or setpriv)
# the links are planted by ourselves: the same refusals.
# variants: one
# aarch64: yes patch
build recstate "$E2E/recstate.c"
as_other=
if [ "$(id -u)" != 0 ]; then
	echo "planting as user 65534 skipped: not root (links planted as ourselves)" >>"$W/skipped"
elif ! command -v setpriv >/dev/null; then
	echo "planting as user 65534 skipped: no setpriv (links planted as ourselves)" >>"$W/skipped"
else
	as_other=1
	# (for 65534: the way to the shared directory below)
	chmod o+x "$(dirname "$W")" "$W"
fi
# plant CMD...: as user 65534 when root, else as ourselves
plant() {
	if [ -n "$as_other" ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
mkdir -m 1777 "$W/pub"
# a checkout under a private directory (mktemp -d's 0700) keeps user 65534
# out of the whole tree: then the links are planted by ourselves
if [ -n "$as_other" ] &&
	! setpriv --reuid=65534 --regid=65534 --clear-groups test -w "$W/pub" 2>/dev/null; then
	echo "planting as user 65534 skipped: $W is out of its reach (links planted as ourselves)" >>"$W/skipped"
	as_other=
fi
mkdir -m 700 "$W/empty" "$W/docs"
echo "my notes" >"$W/docs/info"
# try NAME: record into pub/NAME; its status and message
try() {
	record "pub/$1" ./recstate calls 1
	echo "pub/$1: exit $RC" | add
	sed "s|$W/||g" "$W/pub/$1.err" | add
}

section "a link to an empty directory of ours"
plant ln -s "$W/empty" "$W/pub/d1" || die "cannot plant pub/d1"
try d1
echo "empty/ holds: $(ls -A "$W/empty" | tr '\n' ' ')" | add

section "a link to a directory of ours with an info file"
plant ln -s "$W/docs" "$W/pub/d2" || die "cannot plant pub/d2"
try d2
[ -L "$W/pub/d2" ] && [ ! -e "$W/pub/d2.old" ] || fail "the link pub/d2 was moved"
echo "docs/ holds: $(ls -A "$W/docs" | tr '\n' ' '); info: $(cat "$W/docs/info")" | add

section "a directory writable by others"
if [ -n "$as_other" ]; then
	plant mkdir -m 777 "$W/pub/d3" || die "cannot plant pub/d3"
	try d3
else
	echo "pub/d3: exit 1" | add
	echo "calltrace record: pub/d3 belongs to another user; choose another directory with -d" | add
fi
mkdir -m 777 "$W/pub/d4"
chmod 777 "$W/pub/d4"
try d4
echo "d4 holds: $(ls -A "$W/pub/d4" | tr '\n' ' ')" | add
