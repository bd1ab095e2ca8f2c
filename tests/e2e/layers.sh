# layers: lib/ by job (doc/architecture.md, "lib/ by job").  Each folder
# includes the headers of the folders the Makefile lets it see
# (LIB_SEES_*: core; symbols; args; read; view; record) and no others, so
# that the reading side never includes what only record needs and no folder
# includes one above it; and libcalltrace-reader.so is built from the
# reading side only: none of the functions of lib/record/ or lib/view/ is
# in it (their global symbols, hidden in the library, are not in its
# symbol table).
# variants: one
B=$TOP/${CT_BUILD:-build}
section "each folder's includes"
for dir in core symbols args read view record; do
	sees=$(sed -n "s/^LIB_SEES_$dir := //p" "$TOP/Makefile")
	[ -n "$sees" ] || die "Makefile: no LIB_SEES_$dir"
	for f in "$TOP"/lib/$dir/*.[ch]; do
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
			case $h in calltrace/* | arch.h) continue ;; esac
			found=
			for d in core symbols args read view record; do
				[ -f "$TOP/lib/$d/$h" ] && found=$d
			done
			[ -n "$found" ] || { fail "lib/$dir/$(basename "$f"): \"$h\" is in no folder of lib/"; continue; }
			case " $sees " in
			*" $found "*) ;;
			*) fail "lib/$dir/$(basename "$f") includes lib/$found/$h: $dir sees only $sees" ;;
			esac
		done
	done
	echo "lib/$dir sees: $sees" | add
done

section "libcalltrace-reader.so holds the reading side only"
RLIB=$B/libcalltrace-reader.so.0
[ -f "$RLIB" ] || die "$RLIB not built (make all)"
nm --defined-only "$RLIB" | awk '{ print $3 }' | LC_ALL=C sort -u >"$W/reader.syms"
for dir in record view; do
	ls "$B"/lib/$dir/*.o >/dev/null 2>&1 || die "no objects in $B/lib/$dir (make all)"
	nm --defined-only "$B"/lib/$dir/*.o | awk '$2 ~ /^[TDBR]$/ { print $3 }' |
		grep -v '^\.' | LC_ALL=C sort -u >"$W/$dir.syms"
	[ -s "$W/$dir.syms" ] || die "no symbols in lib/$dir's objects"
	LC_ALL=C comm -12 "$W/reader.syms" "$W/$dir.syms" >"$W/$dir.both"
	echo "functions and data of lib/$dir in it: $(wc -l <"$W/$dir.both")" | add
	[ -s "$W/$dir.both" ] && fail "lib/$dir in the reader: $(head -5 "$W/$dir.both" | tr '\n' ' ')"
done
