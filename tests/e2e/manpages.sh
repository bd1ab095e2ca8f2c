# manpages: every man page (tools/man.sh from doc/*.md, as make man builds
# them) renders at 80 columns without "table wider than line width" (man
# said so for coverage, export, graph, info, record and replay: the
# tables were as wide as their longest cells); replay's synopsis lists
# every option of replay --help; troff warns of nothing (lines of code
# blocks that begin with "." were dropped, code blocks inside lists ran
# together, long lines could not be broken).  Skipped without man, groff
# or go-md2man.
# variants: one
missing=
for t in man groff go-md2man; do
	command -v $t >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
	echo "manpages: not checked, missing:$missing" >>"$W/skipped"
	section "man pages"
	echo "skipped" | add
else
	mkdir -p "$W/man"
	section "man pages at 80 columns: tables that do not fit"
	DOC=$E2E/../../doc
	for md in "$DOC/calltrace.md" "$DOC"/*.md; do
		b=$(basename "$md" .md)
		[ "$b" = calltrace ] || "$CT" --help | awk -v c="$b" '$1 == c { f = 1 } END { exit !f }' || continue
		[ -e "$W/man/$b.1" ] && continue
		sh "$E2E/../../tools/man.sh" "$CT" "$md" "$W/man/$b.1" 2>"$W/man/$b.err" ||
			fail "tools/man.sh $md: $(head -c 300 "$W/man/$b.err")"
		MANWIDTH=80 man -l "$W/man/$b.1" 2>&1 >/dev/null | grep -c 'table wider than line width' |
			sed "s/^/$b: /" | add
	done
	# troff's own warnings: a line that begins with "." is a request
	# (a "./prog" or "..." line of a code block vanished), a code block
	# in a list item ran its lines together, a long line cannot be broken
	section "troff warnings at 80 columns"
	for f in "$W"/man/*.1; do
		b=$(basename "$f" .1)
		MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null | grep -c 'warning' |
			sed "s/^/$b: /"
	done | sort | add
	section "a code block's lines that begin with '.' are shown"
	MANWIDTH=80 man -l "$W/man/record.1" 2>/dev/null |
		grep -c '^ *\./prog  *# runs untraced' | add
	section "replay's synopsis names every option of replay --help"
	MANWIDTH=80 man -l "$W/man/replay.1" 2>/dev/null | sed -n '/^SYNOPSIS/,/^[A-Z]/p' >"$W/syn"
	# each option by its short name when it has one
	"$CT" replay --help | sed -n 's/^  \(-[a-zA-Z]\), --.*/\1/p; s/^      \(--[a-z-]*\).*/\1/p' | while read -r o; do
		grep -q -- "\[$o[] =]" "$W/syn" || echo "missing: $o"
	done | add
	echo "checked" | add
fi
