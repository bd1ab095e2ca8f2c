/* SPDX-License-Identifier: MIT */
/*
 * export --format=mermaid: the call graph as a Mermaid flowchart (a
 * Markdown ```mermaid block on GitHub and GitLab, mermaid.live, the
 * mermaid npm package), as uftrace's `dump --mermaid` gives it: the same
 * graph as --format=dot (builtin/export_dot.c) from the same aggregates
 * (builtin/export_callgrind.c gathers them): a node per function with its
 * self time, an edge per caller/callee pair with its calls and inclusive
 * time, drawn thicker the more time it holds.
 */
#include <stdio.h>

#include "builtin/export.h"
#include "output.h"
#include "util.h"

/* s inside a quoted Mermaid label: what Mermaid or the HTML it makes of
 * a label would read as markup (quotes, '#' which starts Mermaid's
 * entities, '<', '>', '&', '|', '`') written as Mermaid's "#NN;"
 * entities; control characters shown as '?' */
static void mm_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '#' || c == '<' || c == '>' || c == '&' || c == '|' ||
		    c == '`' || c == '\\')
			fprintf(out, "#%u;", c);
		else
			putc_unlocked(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

void ct_mermaid_print(struct exporter *x)
{
	FILE *out = x->out;
	char b[64];
	uint64_t most = ct_export_heaviest(x);

	fputs("---\ntitle: \"", out);
	ct_export_quoted(out, x->s->command ? x->s->command : "");
	fputs("\"\n---\n%% ", out);
	/* a comment runs to the end of its line */
	const char *note = ct_export_times_note(x);
	for (; *note; note++)
		putc_unlocked(*note == '\n' ? ' ' : *note, out);
	fputs("\nflowchart TD\n", out);
	for (size_t i = 0; i < x->names.n; i++) {
		fprintf(out, "    f%zu[\"", i);
		mm_text(out, x->names.v[i]);
		fprintf(out, "<br>self %s\"]\n",
			ct_export_dur(x->self ? x->self[i] : 0, b, sizeof(b)));
	}
	for (size_t e = 0; e < x->nedges; e++) {
		const struct edge *ed = &x->edges[e];
		fprintf(out, "    f%u -->|\"%llu call%s<br>%s\"| f%u\n", ed->caller,
			(unsigned long long)ed->calls, ed->calls == 1 ? "" : "s",
			ct_export_dur(ed->incl, b, sizeof(b)), ed->callee);
	}
	/* the edges in the order written: linkStyle's numbers */
	for (size_t e = 0; e < x->nedges; e++)
		fprintf(out, "    linkStyle %zu stroke-width:%.1fpx\n", e,
			1.0 + 4.0 * (double)x->edges[e].incl / (double)most);
}
