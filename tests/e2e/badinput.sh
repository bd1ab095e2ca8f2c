# Bad input to replay, report and info: missing, empty and info-less
# directories, truncated, corrupted and foreign .ev files, garbage in .proc
# and info.  Never a crash (exit status >= 128); clear errors naming the
# file (and the offset, for stream data).
# variants: one
build basic "$E2E/basic.c"
build_tool corrupt
record good ./basic
want_rc "record ./basic" $RC 0 "$W/good.err" || die "no trace to corrupt"
ev=$(ls "$W/good" | grep '\.ev$' | head -n 1)
proc=$(ls "$W/good" | grep '\.proc$' | head -n 1)
[ -n "$ev" ] && [ -n "$proc" ] || die "no .ev or .proc file in the recording: $(ls "$W/good")"
evsize=$(wc -c <"$W/good/$ev")

# copy NAME: a fresh copy of the good recording in $W/NAME
copy() { rm -rf "${W:?}/$1"; cp -r "$W/good" "$W/$1"; }

# try SUB DIR: run calltrace SUB -d DIR; R is its status, $W/try.err stderr
try() {
	guard "$CT" "$1" -d "$W/$2" >"$W/try.out" 2>"$W/try.err"
	R=$RC
	if [ $R -ge 124 ]; then
		fail "calltrace $1 -d $2: exit status $R (crash or hang); stderr: $(head -c 300 "$W/try.err" | tr '\n' '|')"
		return 1
	fi
}

# expect SUBS DIR RULE [WORDS...]: check each subcommand's behaviour on DIR
# and print what was checked (for the golden file).
#   err:    exit 1 with a message on stderr containing every WORD
#   ok:     exit 0
#   either: exit 0, or exit 1 with a message containing every WORD
expect() {
	_subs=$1 _dir=$2 _rule=$3
	shift 3
	echo "$_dir: $_subs: $_rule${*:+ (naming $*)}" | sed "s/$ev/FILE.ev/g; s/$proc/FILE.proc/g"
	for _s in $_subs; do
		try "$_s" "$_dir" || continue
		case $_rule:$R in
		ok:0 | either:0) continue ;;
		err:1 | either:1) ;;
		*) fail "calltrace $_s -d $_dir: exit status $R, expected $_rule; stderr: $(head -c 300 "$W/try.err" | tr '\n' '|')"
		   continue ;;
		esac
		[ -s "$W/try.err" ] || fail "calltrace $_s -d $_dir: exit 1 without a message"
		for _w in "$@"; do
			grep -qF -- "$_w" "$W/try.err" ||
				fail "calltrace $_s -d $_dir: message does not name '$_w': $(head -c 300 "$W/try.err" | tr '\n' '|')"
		done
	done
}

ALL="replay report info"
READERS="replay report"   # the subcommands that read the event streams

section "good recording"
expect "$ALL" good ok | add

section "directories"
expect "$ALL" missing err missing | add
mkdir -p "$W/empty"
expect "$ALL" empty err empty | add
copy noinfo; rm -f "$W/noinfo/info"
expect "$ALL" noinfo err info | add

section "truncated .ev (the header: exit 0 or 1; after it the stream just stops: exit 0)"
for off in 0 1 8 12 20 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 \
	$((evsize / 2)) $((evsize / 2 + 1)) $((evsize / 2 + 2)) $((evsize / 2 + 3)) \
	$((evsize - 5)) $((evsize - 3)) $((evsize - 2)) $((evsize - 1)); do
	[ $off -ge 0 ] && [ $off -lt $evsize ] || continue
	copy "trunc$off"
	truncate -s $off "$W/trunc$off/$ev"
	if [ $off -lt 32 ]; then
		expect "$ALL" "trunc$off" either "$ev"
	else
		expect "$ALL" "trunc$off" ok
	fi
	rm -rf "$W/trunc$off"
done | sed 's/trunc[0-9]*/truncN/' | sort -u | add

section "garbage in the .ev stream (exit 1 naming the file and offset)"
for seed in 1 2 3 4 5; do
	copy "garbage$seed"
	"$W/tool_corrupt" "$W/garbage$seed/$ev" 40 4096 $seed
	expect "$READERS" "garbage$seed" err "$ev" offset | add
	expect info "garbage$seed" either "$ev" | add
done

section "a bad .ev header"
copy badversion
printf '\377' | dd of="$W/badversion/$ev" bs=1 seek=8 conv=notrunc 2>/dev/null
expect "$READERS" badversion err "$ev" | add
expect info badversion either "$ev" | add
copy badmagic
printf 'XX' | dd of="$W/badmagic/$ev" bs=1 seek=0 conv=notrunc 2>/dev/null
expect "$READERS" badmagic err "$ev" | add
expect info badmagic either "$ev" | add

section "foreign files renamed to .ev (bad magic: exit 1 naming the file)"
copy foreign_elf; cp /bin/true "$W/foreign_elf/$ev"
expect "$READERS" foreign_elf err "$ev" | add
expect info foreign_elf either "$ev" | add
copy foreign_text; echo "hello" >"$W/foreign_text/$ev"
expect "$READERS" foreign_text err "$ev" | add
expect info foreign_text either "$ev" | add

section "garbage lines in the .proc file"
copy procgarbage
printf 'garbage line\nmodule zz\nmodule 1 2 3\nclock x y z\n\n\001\002\377\n' >>"$W/procgarbage/$proc"
expect "$ALL" procgarbage either "$proc" | add
copy procbinary
"$W/tool_corrupt" "$W/procbinary/$proc" 0 2000 9
expect "$ALL" procbinary either "$proc" | add
copy procempty; : >"$W/procempty/$proc"
expect "$ALL" procempty either "$proc" | add

section "garbage in info"
copy infogarbage
printf 'garbage\nclock_hz: zero\nstart_clock: -1\n\377\376\n' >>"$W/infogarbage/info"
expect "$ALL" infogarbage either info | add
copy infobinary
"$W/tool_corrupt" "$W/infobinary/info" 0 600 11
expect "$ALL" infobinary either info | add
