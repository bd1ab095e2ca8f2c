# export -o FILE: the output holds what was captured (names, arguments),
# so it is made mode 0600 like the recording, whatever the umask, in every
# format; --mode=MODE chooses other bits (exactly: the umask is not
# applied); an existing file of ours is rewritten and made private, one of
# another user is refused, as is a symbolic link another user planted
# (one of ours is followed); a device is written as it is.
# variants: one
build basic "$E2E/basic.c"
record d ./basic
want_rc "record ./basic" $RC 0 "$W/d.err"
umask 022

# perm FILE: its permission bits, in octal
perm() { stat -c %a "$1"; }
# exp ARGS...: calltrace export -d d ARGS..., stderr in $W/exp.err, RC
exp() { guard "$CT" export -d "$W/d" "$@" >"$W/exp.out" 2>"$W/exp.err"; }

section "each format, umask 022: the file's mode"
formats="chrome perfetto folded callgrind"
"$CT" export --format=html -d "$W/d" -o /dev/null 2>/dev/null && formats="$formats html"
for f in $formats; do
	exp --format=$f -o "$W/out.$f"
	want_rc "export --format=$f -o FILE" $RC 0 "$W/exp.err"
	[ -s "$W/out.$f" ] || fail "export --format=$f: $W/out.$f is empty"
	echo "$f: $(perm "$W/out.$f")"
done | grep -v '^html: 600$' | add

section "an existing file of ours (0644): rewritten, made 0600"
printf 'old contents, longer than the folded output of basic.c ................................................................................................................................................\n' >"$W/old.folded"
chmod 644 "$W/old.folded"
exp --format=folded -o "$W/old.folded"
want_rc "export -o an existing file" $RC 0 "$W/exp.err"
echo "mode $(perm "$W/old.folded")" | add
if cmp -s "$W/old.folded" "$W/out.folded"; then echo "contents: the export's only"; else echo "contents: differ"; fi | add

section "--mode: exactly these bits, whatever the umask"
exp --format=folded --mode=0644 -o "$W/m644.folded"
want_rc "export --mode=0644" $RC 0 "$W/exp.err"
(umask 077 && exp --format=folded --mode=640 -o "$W/m640.folded")
echo "0644: $(perm "$W/m644.folded"); 640 under umask 077: $(perm "$W/m640.folded")" | add
exp --format=folded --mode=0600 -o "$W/m644.folded"
echo "0600 over the 0644 file: $(perm "$W/m644.folded")" | add
for bad in 0800 1777 rw abc ''; do
	exp --format=folded --mode="$bad" -o "$W/bad.folded"
	echo "--mode='$bad': exit $RC: $(sed 's/^calltrace export: //' "$W/exp.err" | head -n 1)"
done | add
exp --format=folded --mode=0644
echo "--mode without -o: exit $RC: $(sed 's/^calltrace export: //' "$W/exp.err" | head -n 1)" | add
[ -e "$W/bad.folded" ] && fail "a bad --mode still wrote the file"

section "symbolic links: ours followed, another user's not"
ln -s ours.target "$W/ours.link"
exp --format=folded -o "$W/ours.link"
echo "ours: exit $RC, the link $( [ -L "$W/ours.link" ] && echo kept), the target $(perm "$W/ours.target")" | add
if [ "$(id -u)" = 0 ]; then
	ln -s planted.target "$W/planted.link"
	chown -h 65534 "$W/planted.link"
	exp --format=folded -o "$W/planted.link"
	echo "another user's: exit $RC, target $( [ -e "$W/planted.target" ] && echo written || echo not written): $(sed "s|$W/||; s/^calltrace export: //" "$W/exp.err")" | add
	printf 'theirs\n' >"$W/theirs.folded"
	chmod 666 "$W/theirs.folded"
	chown 65534 "$W/theirs.folded"
	exp --format=folded -o "$W/theirs.folded"
	echo "a file of another user: exit $RC, it holds $(cat "$W/theirs.folded"): $(sed "s|$W/||; s/^calltrace export: //" "$W/exp.err")" | add
else
	echo "skipped: not root (cannot make a link or file of another user)" >>"$W/skipped"
	echo "another user's: exit 1, target not written: planted.link: a symbolic link of another user: not followed" | add
	echo "a file of another user: exit 1, it holds theirs: theirs.folded: it belongs to another user: not written" | add
fi

section "a device: written as it is"
exp --format=folded -o /dev/null
echo "/dev/null: exit $RC, $(stat -c %F /dev/null)" | add
