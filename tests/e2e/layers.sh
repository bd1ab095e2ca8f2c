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

# lib/ returns its errors (struct ct_error) and hands back what it must say
# without failing (struct ct_msgs, lib/core/error.h): it never prints.  The
# messages go out through lib/core/message.c alone, each in one write(2)
# (tests/unit/test_message.c); the views' scaffold (lib/view/view.c) and
# its progress line (lib/view/progress.c) print through it; lib/core/util.c
# only to say it ran out of memory, and dies.
section "lib/ prints nothing"
for o in "$B"/lib/*/*.o; do
	rel=${o#"$B"/}
	u=$(nm -u "$o" | awk '{ print $2 }')
	case $rel in
	lib/core/message.o) continue ;;
	esac
	# stdio's stderr and libc's own message functions: message.c's alone
	bad=$(printf '%s\n' "$u" | grep -xE 'stderr|perror|psignal|psiginfo|err|errx|verr|verrx|warn|warnx|vwarn|vwarnx|error|error_at_line' | tr '\n' ' ')
	[ -n "$bad" ] && fail "$rel prints: it uses $bad"
	# message.c's functions: the commands' (builtin/) and the scaffold's
	case $rel in
	lib/view/view.o | lib/view/progress.o) continue ;;
	lib/core/util.o) allow=ct_die_plain ;; # out of memory: said, then exit
	*) allow=- ;;
	esac
	bad=$(printf '%s\n' "$u" |
		grep -xE 'ct_error|ct_verror|ct_warn|ct_die|ct_usage_error|ct_warn_plain|ct_die_plain|ct_note_plain|ct_msgs_flush|ct_print_raw' |
		grep -vxF -e "$allow" | tr '\n' ' ')
	[ -n "$bad" ] && fail "$rel prints: it calls message.c's $bad(return a struct ct_error, or a struct ct_msgs, instead)"
done
# the objects that print through message.c, as found
printers=$(for o in "$B"/lib/*/*.o; do
	nm -u "$o" | awk '{ print $2 }' |
		grep -qxE 'ct_error|ct_verror|ct_warn|ct_die|ct_usage_error|ct_warn_plain|ct_die_plain|ct_note_plain|ct_msgs_flush|ct_print_raw' &&
		echo "${o#"$B"/}"
done | LC_ALL=C sort | tr '\n' ' ')
echo "objects of lib/ that call message.c: ${printers% }" | add
# writes to fd 2 by hand, outside message.c
bad=$(grep -nE 'STDERR_FILENO|[^a-z_]write\(2,|dprintf\(2,' "$TOP"/lib/*/*.c | grep -v '^[^:]*/lib/core/message\.c:')
[ -n "$bad" ] && fail "lib/ writes to fd 2 by hand: $bad"

section "the prefix is made in one place"
# "calltrace: " and "calltrace CMD: " come from message.c's prefix();
# export_perfetto.c's "calltrace: %s" is a track's name in the file it
# writes, not a message
bad=$(grep -nE '"calltrace (%s|[a-z]+): |"calltrace: ' "$TOP"/calltrace.c "$TOP"/builtin/*.c "$TOP"/lib/*/*.c |
	grep -v '^[^:]*/lib/core/message\.c:' | grep -v '^[^:]*/builtin/export_perfetto\.c:.*xasprintf("calltrace: %s", note)')
[ -n "$bad" ] && fail "a message prefix written by hand: $bad"
echo "message prefixes outside lib/core/message.c: $(printf '%s' "$bad" | grep -c .)" | add
