# callsite_fast: record --callsite's call sites in every encoding, written
# by the entry trampolines' fast path (arch/x86_64/tramp_callsite.inc) in
# the return-hooking front ends and by cyg.c's with -finstrument-functions:
# near ones, before and after the function (the short form), far ones, a
# library calling back into the program and the program calling it (the
# long form, the address's high bits changing between them), library calls
# (--libcall), with arguments captured (-a).  replay --srcline against the
# golden file; then each call's call site, address for address, against a
# recording whose entries all take the C paths (--clock=mono turns the fast
# paths off), both without address-space randomisation.
# variants: all
# front-ends: all
# shellcheck disable=SC2086
$CC $CFLAGS -fPIC -shared -I"$E2E" -o "$W/libcsfast.so" "$E2E/callsite_fast_lib.c" \
	>"$W/build-lib.log" 2>&1 || die "build of libcsfast.so failed: $(head -5 "$W/build-lib.log")"
build callsite_fast "$E2E/callsite_fast.c" -L"$W" -lcsfast -Wl,-rpath,"$W"
# main's call site is in libc: its line (if libc's debug information is
# installed) is not part of the golden file
srcnorm() {
	normalize | sed -E 's#, from (callsite_fast(_lib)?\.c:)#, FROM \1#; s#, from [^ ]+##; s#, FROM #, from #'
}

record d --callsite --libcall ./callsite_fast
want_rc "record --callsite --libcall ./callsite_fast" $RC 0 "$W/d.err"
section "the hooks' cost measured with --callsite too (its times corrected)"
# the calibration's batches hold a CALLSITE after each ENTER
grep -q '^overhead' "$W"/d/*.proc && echo "calibration figures: yes" | add ||
	echo "calibration figures: none ($(grep -h overhead "$W/d.err" | head -1))" | add
ct report d >/dev/null
grep -q 'no calibration figures' "$W/last.err" && echo "report: warned of no figures" | add
section "replay --srcline, recorded with --callsite --libcall"
ct replay d --no-duration --srcline -F '^main$' | srcnorm | add

record a --callsite --libcall -a ./callsite_fast
want_rc "record --callsite --libcall -a ./callsite_fast" $RC 0 "$W/a.err"
section "replay --srcline, recorded with --callsite --libcall -a"
ct replay a --no-duration --srcline -F '^main$' | srcnorm | sed -E 's/^(.*main\(1, )0x[0-9a-f]+/\1ARGV/' | add

# every entry's call site, as an address, from the reading library
RLIB=$(dirname "$CT")/libcalltrace-reader.so.0
[ -f "$RLIB" ] || RLIB=$TOP/${CT_BUILD:-build}/libcalltrace-reader.so.0
sites() {
	guard env CALLTRACE_READER_LIB="$RLIB" PYTHONPATH="$TOP/python" python3 - "$W/$1" \
		>"$W/$1.sites" 2>&1 <<'PY'
import sys, calltrace
with calltrace.Recording(sys.argv[1]) as rec:
    for ev in rec.events(callsites=True):
        if ev.kind == calltrace.ENTRY:
            print(ev.name, hex(ev.callsite))
PY
	want_rc "python events(callsites=True) of $1" $RC 0 "$W/$1.sites"
}
section "each call site against the C paths' (--clock=mono), without ASLR"
for c in tsc mono; do
	guard setarch -R "$CT" record -d "$W/$c" --clock=$c --callsite --libcall -a ./callsite_fast \
		</dev/null >"$W/$c.out" 2>"$W/$c.err"
	want_rc "setarch -R record --clock=$c --callsite" $RC 0 "$W/$c.err"
	sites $c
done
# (not vacuous: every call but main's has its call site)
n=$(grep -cv ' 0x0$' "$W/tsc.sites")
[ "$n" -ge 12 ] || fail "only $n entries with a call site: $(head -20 "$W/tsc.sites" | tr '\n' '|')"
if cmp -s "$W/tsc.sites" "$W/mono.sites"; then
	echo same | add
else
	echo differ | add
	diff "$W/mono.sites" "$W/tsc.sites" | head -40 | add
fi
