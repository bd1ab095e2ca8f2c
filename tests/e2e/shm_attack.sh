# Trust between record and the runtime (doc/record.md "Trust and files"):
# (a) record's ring directory is a new private one (mkdtemp: not the old
#     predictable /dev/shm/calltrace-PID, mode 0700, ours; its doorbell
#     0600), gone at the end; as root, a directory planted by another user
#     (65534, with setpriv) at the old name of record's very pid, holding a
#     .doorbell link to a file of ours, is neither used nor followed;
# (b) the runtime maps only the doorbell its record made: an empty one, a
#     link, a directory, another user's, one with group/other bits, one
#     without the magic: the program runs untraced, with its own output and
#     status, and one message naming the file and the cause (an empty
#     one killed it with SIGBUS when its ring was half full); the files
#     pointed at are untouched.
# variants: one
build faults "$E2E/faults.c" -I"$TOP/include"

root=
if [ "$(id -u)" != 0 ]; then
	echo "planting skipped: not root" >>"$W/skipped"
elif ! command -v setpriv >/dev/null; then
	echo "planting skipped: no setpriv" >>"$W/skipped"
else
	root=1
fi

section "(a) record's ring directory"
printf 'secret\n' >"$W/target" && chmod 600 "$W/target"
cat >"$W/plant.sh" <<'PLANT'
# plant.sh TARGET CT DIR GO: plant the name record used to take for this
# very pid (it keeps the pid through exec) as user 65534, then run record
d=/dev/shm/calltrace-$$
if [ -n "$PLANT" ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c 'mkdir -m 777 "$1" && ln -s "$2" "$1/.doorbell"' sh "$d" "$1" || exit 99
	echo "$d" >"$4.planted"
fi
exec "$2" record -d "$3" ./faults wait "$4"
PLANT
PLANT=$root guard sh "$W/plant.sh" "$W/target" "$CT" "$W/d" "$W/go" >"$W/d.out" 2>"$W/d.err" &
bg=$!
i=0
while [ ! -s "$W/go.shm" ] && [ $i -lt $CT_POLLS ]; do
	sleep 0.1
	i=$((i + 1))
done
shm=$(cat "$W/go.shm" 2>/dev/null)
case $shm in
/dev/shm/calltrace-??????) echo "name: /dev/shm/calltrace-XXXXXX" | add ;;
*) echo "name: $shm" | add ;;
esac
[ -n "$root" ] && [ "$shm" = "$(cat "$W/go.planted")" ] && fail "record used the planted $shm"
[ -d "$shm" ] && stat -c 'directory: %a, owner %u' "$shm" | sed "s/owner $(id -u)\$/owner us/" | add
[ -f "$shm/.doorbell" ] && stat -c 'doorbell: %a %F, owner %u' "$shm/.doorbell" |
	sed "s/owner $(id -u)\$/owner us/" | add
touch "$W/go"
wait $bg
want_rc "record ./faults wait" $? 0 "$W/d.err"
[ -e "$shm" ] && fail "record left its ring directory $shm"
[ "$(cat "$W/target")" = secret ] || fail "the target of the planted link was written"
if [ -n "$root" ]; then
	planted=$(cat "$W/go.planted")
	[ -L "$planted/.doorbell" ] || fail "the planted link was removed or replaced"
	rm -rf "$planted"
fi
grep -q '^done$' "$W/d.out" || fail "the program's output is missing"
ct replay d --no-duration | grep -c 'leaf' | sed 's/^/leaf calls traced: /' | add

section "(b) hostile doorbells"
lib=$(dirname "$CT")/libcalltrace.so
mkdir -p "$W/rt"
# a doorbell that looks right (magic, version 1) but is not record's
good_looking() { { printf '\000\000\000\000\000\000\000\000CDB1\001\000\000\000'; head -c 4080 /dev/zero; } >"$1"; }
# hostile NAME [CALLS]: run the program with $W/evil as its ring directory
# (a traced run with more than 10 calls would fill its ring and wait for a
# drainer that is not there)
hostile() {
	guard env LD_PRELOAD="$lib" CALLTRACE_DIR="$W/rt" CALLTRACE_SHM="$W/evil" ./faults calls "${2:-10}" \
		>"$W/h.out" 2>"$W/h.err"
	echo "$1: exit $RC, output: $(cat "$W/h.out")" | add
	sed "s|$W/||g" "$W/h.err" | add
	rm -rf "$W/evil"
	mkdir -m 700 "$W/evil"
}
mkdir -m 700 "$W/evil"

: >"$W/evil/.doorbell" && chmod 600 "$W/evil/.doorbell"
# enough calls to fill half the ring: the runtime rings the doorbell
hostile "empty" 400000

good_looking "$W/dbtarget" && chmod 600 "$W/dbtarget"
cp "$W/dbtarget" "$W/dbtarget.orig"
ln -s "$W/dbtarget" "$W/evil/.doorbell"
hostile "a link"
cmp -s "$W/dbtarget" "$W/dbtarget.orig" || fail "the file the .doorbell link pointed at was written"

mkdir "$W/evil/.doorbell"
hostile "a directory"

good_looking "$W/evil/.doorbell" && chmod 644 "$W/evil/.doorbell"
hostile "mode 644"

head -c 4096 /dev/zero >"$W/evil/.doorbell" && chmod 600 "$W/evil/.doorbell"
hostile "no magic"

if [ -n "$root" ]; then
	good_looking "$W/evil/.doorbell" && chmod 600 "$W/evil/.doorbell" &&
		chown 65534:65534 "$W/evil/.doorbell"
	cp "$W/evil/.doorbell" "$W/other.orig"
	guard env LD_PRELOAD="$lib" CALLTRACE_DIR="$W/rt" CALLTRACE_SHM="$W/evil" ./faults calls 10 \
		>"$W/h.out" 2>"$W/h.err"
	cmp -s "$W/evil/.doorbell" "$W/other.orig" || fail "another user's doorbell was written"
	hostile "another user's"
else
	echo "another user's: exit 0, output: done" | add
	echo "calltrace: evil/.doorbell: it belongs to another user; this process is not traced" | add
fi
