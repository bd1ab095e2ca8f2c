#!/bin/sh
# SPDX-License-Identifier: MIT
# A man page from a doc/ page, so that the docs are the one source of both:
#
#   sh tools/man.sh CALLTRACE doc/PAGE.md OUT
#
# doc/calltrace.md gives calltrace(1), doc/CMD.md calltrace-CMD(1).  The
# page's title line goes; NAME is the command's line of `calltrace --help`
# (CALLTRACE is the built binary); SYNOPSIS is the page's "## Synopsis"
# section or the code block it opens with; DESCRIPTION the text before its
# first section; then its sections, their headings in capitals; links to
# other pages become their names (calltrace-graph(1)); SEE ALSO at the end.
# go-md2man (Debian's go-md2man package) writes the roff.
set -e
CT=$1 SRC=$2 OUT=$3
command -v go-md2man >/dev/null 2>&1 || {
	echo "man.sh: go-md2man is needed (apt-get install go-md2man, or make deps)" >&2
	exit 1
}
base=$(basename "$SRC" .md)
cmds=$("$CT" --help | awk '/^commands:/ { f = 1; next } f && /^   [a-z]/ { print $1 } f && /^$/ { exit }')
version=$("$CT" --version | awk '{ print $2 }')
if [ "$base" = calltrace ]; then
	name=calltrace
	summary="record every function call of a C or C++ program, and show it"
else
	name=calltrace-$base
	summary=$("$CT" --help | awk -v c="$base" '$1 == c { sub(/^ *[a-z]+ +/, ""); print; exit }')
	[ -n "$summary" ] || { echo "man.sh: '$base' is not in '$CT --help'" >&2; exit 1; }
fi
upper=$(echo "$name" | tr a-z A-Z)
TMP=$OUT.md
awk -v name="$name" -v summary="$summary" -v upper="$upper" -v version="$version" \
	-v cmds=" $(echo $cmds) " '
# [text](page.md#anchor): the text, with the page'"'"'s man name when it has one
function links(s,    out, m, text, target, page) {
	out = ""
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		m = substr(s, RSTART, RLENGTH)
		text = m; sub(/\]\(.*/, "", text); text = substr(text, 2)
		target = m; sub(/^\[[^]]*\]\(/, "", target); sub(/\)$/, "", target)
		page = target; sub(/#.*/, "", page)
		if (page ~ /^https?:/) {
			out = out substr(s, 1, RSTART - 1) text " <" target ">"
		} else if (page ~ /\.md$/) {
			sub(/\.md$/, "", page); sub(/.*\//, "", page)
			if (text ~ /\.md$/ && index(cmds, " " page " "))
				text = "calltrace-" page "(1)"
			else if (text ~ /\.md$/ && page == "calltrace")
				text = "calltrace(1)"
			else if (page == "calltrace")
				text = text " (calltrace(1))"
			else if (index(cmds, " " page " ") && text !~ ("calltrace " page))
				text = text " (calltrace-" page "(1))"
			else if (index(cmds, " " page " "))
				text = text "(1)"
			out = out substr(s, 1, RSTART - 1) text
		} else {
			out = out substr(s, 1, RSTART - 1) text
		}
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}
function add(where, line) {
	if (where == "syn") syn = syn line "\n"
	else if (where == "intro") intro = intro line "\n"
	else body = body line "\n"
}
NR == 1 && /^# / { next }
{
	line = $0
	if (line ~ /^```/) {
		# a synopsis block opening the page
		if (where == "" && intro !~ /[^ \n]/ && syn == "") where = "synblock"
		fence = !fence
		add(where == "synblock" ? "syn" : (where == "" ? "intro" : where), line)
		if (!fence && where == "synblock") where = ""
		next
	}
	if (fence) { add(where == "synblock" ? "syn" : (where == "" ? "intro" : where), line); next }
	if (line ~ /^## /) {
		h = substr(line, 4)
		if (tolower(h) == "synopsis") { where = "syn"; next }
		where = "body"
		add("body", "## " toupper(h))
		next
	}
	if (where == "syn" && line ~ /^[^ \t`]/ && line !~ /^$/) {
		# prose in a Synopsis section belongs to the description
		add("intro", links(line)); next
	}
	add(where == "" ? "intro" : where, links(line))
}
END {
	printf "%% %s 1 \"\" \"calltrace %s\" \"calltrace manual\"\n\n", upper, version
	printf "# NAME\n%s - %s\n\n", name, summary
	if (syn ~ /[^ \n]/) printf "# SYNOPSIS\n%s\n", syn
	printf "# DESCRIPTION\n%s\n%s\n", intro, body
	printf "# SEE ALSO\n"
	n = split(cmds, c, " ")
	out = (name == "calltrace") ? "" : "calltrace(1)"
	for (i = 1; i <= n; i++)
		if ("calltrace-" c[i] != name) out = out (out == "" ? "" : ", ") "calltrace-" c[i] "(1)"
	printf "%s.\n\nThe full documentation (data format, runtime, front ends, testing) is in\nshare/doc/calltrace/ under the installation prefix, and in doc/ of the\nsources.\n", out
}' "$SRC" >"$TMP"
go-md2man -in "$TMP" -out "$OUT.tmp"
rm -f "$TMP"
# go-md2man's tables are as wide as their longest cells ("table wider than
# line width" from man at 80 columns): the last column takes the width the
# others leave (x) and its cells become text blocks (T{ ... T}) that tbl
# wraps, left-aligned (.na: a narrow column cannot be adjusted); a long
# cell of another column too (tbl gives it a share of the width)
#
# A text line that begins with "." or "'" is a request to troff, which
# drops it ("./prog" in a code block, "..." standing for lines left out):
# such lines get "\&" first; the requests go-md2man writes stay.
awk '
/^\.TS$/ { tbl = 1; fmt = 1; print; next }
/^\.TE$/ { tbl = 0; print; next }
/^[.'"'"']/ && !/^\.(TH|SH|SS|PP|IP|TP|RS|RE|nf|fi|na|nh|ad|sp|br|EX|EE|B|I|BR|IR|RB|RI)( |$)/ {
	$0 = "\\&" $0
}
# a fenced block inside a list item or an option'"'"'s text comes out as one
# code span over several lines ("\fB\fC" alone on its line ... "\fR"):
# filled into a paragraph, its lines run together; they stay lines
!tbl && /^\\fB\\fC$/ { print ".RS\n.nf"; code = 1; nf = 1; next }
code && /^\\fR$/ { print ".fi\n.RE"; code = 0; nf = 0; next }
/^\.nf$/ { nf = 1 }
/^\.fi$/ { nf = 0 }
# a list item'"'"'s later paragraph keeps its markdown indent, and a text
# line that begins with a space breaks the line there: filled text loses it
!tbl && !nf && /^[ \t]+[^ \t]/ { sub(/^[ \t]+/, "") }
!tbl { print; next }
fmt && /;$/ { print; next }
fmt {
	# a format line ("l l " or "l l ."): each column expands and wraps
	last = / *\.$/
	line = $0; sub(/ *\.?$/, "", line)
	n = split(line, c, / +/); out = ""
	for (i = 1; i <= n; i++) out = out (i > 1 ? " " : "") c[i] (i == n ? "x" : "")
	print out (last ? " ." : "")
	if (last) fmt = 0
	next
}
inblock { if ($0 !~ /^T}/) { print; next } inblock = 0; sub(/^T}/, ""); pre = "T}" }
{
	n = split($0, f, "\t"); out = pre; pre = ""
	for (i = 1; i <= n; i++) {
		if (i == 1 && out != "" && f[i] == "") { continue }
		cell = f[i]
		if (cell == "T{") { inblock = 1; cell = "T{\n.na" }
		else if (cell != "" && (i == n || length(cell) > 24)) { cell = "T{\n.na\n" cell "\nT}" }
		out = out (out != "" || i > 1 ? "\t" : "") cell
	}
	print out
}' "$OUT.tmp" >"$OUT"
rm -f "$OUT.tmp"
