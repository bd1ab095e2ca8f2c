# record -d X moves an old recording X to X.old, and removes an older X.old
# only when it is a recording (its info says so and it holds nothing else):
# any other X.old is refused with a message, exit 1, nothing touched.  A
# command that cannot run (resolved through PATH as execvp does) is
# refused before anything is moved: exit 127 (not found) or 126 (not
# runnable), the previous recording as it was.
# variants: one
# aarch64: yes patch
build faults "$E2E/faults.c" -I"$TOP/include"

# the messages, with the work directory's name taken out
errs() { sed "s|$W/|W/|g" "$W/d.err" | add; }
# a listing of d and d.old, with the command each recorded
state() {
	for _x in d d.old; do
		printf '%s: ' "$_x"
		if [ -d "$W/$_x" ]; then
			(cd "$W/$_x" && find . -maxdepth 1 | LC_ALL=C sort | sed 's/[0-9][0-9]*/N/g' |
				tr '\n' ' ')
			printf '(%s)\n' "$(sed -n 's/^command: //p' "$W/$_x/info" 2>/dev/null)"
		else
			echo "(none)"
		fi
	done
}

record d ./faults calls 1
want_rc "record 1" $RC 0 "$W/d.err"

section "d.old holding an unrelated file: refused, nothing touched"
mkdir "$W/d.old" && echo precious >"$W/d.old/notes.txt"
record d ./faults calls 2
want_rc "record over a foreign d.old" $RC 1 "$W/d.err"
errs
[ "$(cat "$W/d.old/notes.txt" 2>/dev/null)" = precious ] || fail "d.old/notes.txt was removed or changed"
state | add

section "d.old a recording with one more file: refused"
rm -rf "$W/d.old"
cp -a "$W/d" "$W/d.old" && echo mine >"$W/d.old/notes.txt"
record d ./faults calls 3
want_rc "record over a recording with notes" $RC 1 "$W/d.err"
errs
[ -f "$W/d.old/notes.txt" ] || fail "d.old/notes.txt was removed"

section "d.old a recording with a link in it: refused, the link's target kept"
rm -rf "$W/d.old" "$W/elsewhere"
mkdir "$W/elsewhere" && echo kept >"$W/elsewhere/file.sym"
cp -a "$W/d" "$W/d.old" && rm -rf "$W/d.old/sym" && ln -s "$W/elsewhere" "$W/d.old/sym"
record d ./faults calls 4
want_rc "record over a recording whose sym/ is a link" $RC 1 "$W/d.err"
errs
[ -f "$W/elsewhere/file.sym" ] || fail "the target of d.old/sym was removed"

section "d.old a link to a recording: refused"
rm -rf "$W/d.old" "$W/other"
cp -a "$W/d" "$W/other" && ln -s other "$W/d.old"
record d ./faults calls 5
want_rc "record over a d.old link" $RC 1 "$W/d.err"
errs
[ -f "$W/other/info" ] || fail "the recording d.old pointed to was removed"

section "d.old a recording: replaced"
rm -f "$W/d.old"
cp -a "$W/d" "$W/d.old"
record d ./faults calls 6
want_rc "record over a recording" $RC 0 "$W/d.err"
state | add

section "a command that cannot run: nothing touched"
: >"$W/notexec"
mkdir -p "$W/adir"
for _c in ./no-such-program no-such-program-in-path ./notexec ./adir; do
	record d "$_c" 1
	echo "$_c: exit $RC" | add
	errs
done
state | add
