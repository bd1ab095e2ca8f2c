# --with-syms DIR (issue 30, uftrace's option): the views take a module's
# symbols from an ELF file of DIR before the tables saved in the recording.
# basic.c recorded stripped (objcopy --strip-all keeps the build-id note:
# record saves no names, replay shows basic+0x...); its unstripped twin
# (the same build-id) in DIR names every function in replay, report,
# graph, callers, coverage, export, info (the file each module took) and
# live and top (which record the stripped program themselves); the same
# from a separate debug file (DIR/basic.debug), a .build-id/xx/yyyy.debug
# tree, and a file of another name with the module's build-id; DIR's file
# wins over the saved symbols (a twin with a function renamed by objcopy
# --redefine-sym); a file of the module's name with another build-id
# (linked with --build-id=md5) is not used (-v says so once); a missing
# DIR, a file as DIR: one line naming it, exit 2, in every view.
# variants: all
# front-ends: all
build basic "$E2E/basic.c"
cp "$W/basic" "$W/basic.full"
objcopy --strip-all "$W/basic" || die "objcopy --strip-all failed"
bid() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
[ -n "$(bid "$W/basic")" ] && [ "$(bid "$W/basic")" = "$(bid "$W/basic.full")" ] ||
	die "the stripped program's build-id is not its twin's: $(bid "$W/basic") $(bid "$W/basic.full")"
# the per-user cache could hold the twin's table under the same build-id
CALLTRACE_NO_CACHE=1 record d ./basic
want_rc "record ./basic (stripped)" $RC 0 "$W/d.err"

# a tree's unnamed functions: basic+0x1159 -> basic+ADDR
addrs() { sed -E 's/\+0x[0-9a-f]+/+ADDR/g'; }

section "replay: the stripped program's functions are not named"
ct replay d --no-duration | normalize | addrs | add

mkdir "$W/syms"
cp "$W/basic.full" "$W/syms/basic"
section "replay --with-syms DIR (the unstripped twin): named"
ct replay d --no-duration --with-syms "$W/syms" | normalize | add
section "report --with-syms"
ct report d --with-syms "$W/syms" --format=csv | csv_calls | add
section "graph --with-syms --no-time"
ct graph d --with-syms "$W/syms" --no-time | add
section "callers --with-syms --no-time leaf"
ct callers d --with-syms "$W/syms" --no-time leaf | add
section "coverage --with-syms: the functions called"
ct coverage d --with-syms "$W/syms" | sed "s|$W/||; s|$E2E/||" | add
section "export --format=folded --value=calls --with-syms"
ct export d --with-syms "$W/syms" --format=folded --folded-value=calls | LC_ALL=C sort | add
section "info --with-syms: the file the program's symbols came from"
ct info d --with-syms "$W/syms" | grep -- '--with-syms' | sed "s|$W/||" | add
section "-v: the file used, said once"
ct replay d --no-duration --with-syms "$W/syms" -v >/dev/null
sed "s|$W/||g" "$W/last.err" | add

section "a separate debug file, DIR/basic.debug"
mkdir "$W/dbg"
objcopy --only-keep-debug "$W/basic.full" "$W/dbg/basic.debug"
ct replay d --no-duration --with-syms "$W/dbg" | normalize | add

section "a .build-id tree: DIR/.build-id/xx/yyyy.debug"
_b=$(bid "$W/basic")
mkdir -p "$W/bid/.build-id/$(echo "$_b" | cut -c1-2)"
cp "$W/dbg/basic.debug" "$W/bid/.build-id/$(echo "$_b" | cut -c1-2)/$(echo "$_b" | cut -c3-).debug"
ct replay d --no-duration --with-syms "$W/bid" | normalize | add

section "a file of another name with the module's build-id"
mkdir "$W/other"
cp "$W/basic.full" "$W/other/renamed-program"
ct replay d --no-duration --with-syms "$W/other" | normalize | add

section "DIR's symbols win over those saved (leaf renamed in the twin)"
CALLTRACE_NO_CACHE=1 record full ./basic.full
want_rc "record ./basic.full" $RC 0 "$W/full.err"
mkdir "$W/ren"
objcopy --redefine-sym leaf=renamed_leaf "$W/basic.full" "$W/ren/basic.full"
[ "$(bid "$W/ren/basic.full")" = "$_b" ] || fail "objcopy --redefine-sym changed the build-id"
ct replay full --no-duration --with-syms "$W/ren" | normalize | add

section "a file of the module's name with another build-id: not used, -v says so once"
mkdir "$W/bad"
# shellcheck disable=SC2086
$CC $CFLAGS -I"$E2E" -Wl,--build-id=md5 -o "$W/bad/basic" "$E2E/basic.c" -lpthread -ldl ||
	die "build of the md5 build-id twin failed"
[ "$(bid "$W/bad/basic")" != "$_b" ] || fail "the md5 twin has the same build-id"
ct replay d --no-duration --with-syms "$W/bad" | normalize | addrs | add
echo "without -v, stderr: $(wc -l <"$W/last.err") lines" | add
ct replay d --no-duration --with-syms "$W/bad" -v >/dev/null
sed "s|$W/||g; s/[0-9a-f]\{32,40\}/ID/g" "$W/last.err" | add

section "live and top record the stripped program and name its functions"
TMPDIR="$W" guard "$CT" live -q --with-syms "$W/syms" --output="$W/live.out" ./basic \
	>"$W/live.p" 2>"$W/live.err"
want_rc "live --with-syms" $RC 0 "$W/live.err"
echo "live, calls: $(grep -oE '(main|outer|middle|inner|leaf|loop)\(\)' "$W/live.out" |
	LC_ALL=C sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }')" | add
TMPDIR="$W" guard "$CT" top -q --with-syms "$W/syms" --output="$W/top.out" ./basic \
	>"$W/top.p" 2>"$W/top.err"
want_rc "top --with-syms" $RC 0 "$W/top.err"
echo "top, functions: $(grep -oE '(main|outer|middle|inner|leaf|loop)$' "$W/top.out" |
	LC_ALL=C sort -u | tr '\n' ' ')" | add

section "bad DIR: one line naming it, exit 2"
: >"$W/afile"
for _v in replay report graph callers coverage info export; do
	_x=
	[ $_v = export ] && _x=--format=folded
	for _dir in "$W/missing" "$W/afile"; do
		guard "$CT" $_v -d "$W/d" $_x --with-syms "$_dir" >/dev/null 2>"$W/bad.err"
		echo "$_v: exit $RC, $(wc -l <"$W/bad.err") line: $(sed "s|$W/||g" "$W/bad.err")" | add
	done
done
for _v in live top; do
	guard "$CT" $_v --with-syms "$W/missing" ./basic >"$W/bad.out" 2>"$W/bad.err"
	echo "$_v: exit $RC, $(wc -l <"$W/bad.err") line, the program run: $(wc -c <"$W/bad.out") bytes: $(sed "s|$W/||g" "$W/bad.err")" | add
done
