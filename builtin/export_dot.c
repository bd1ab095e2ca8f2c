/* SPDX-License-Identifier: MIT */
/*
 * export --format=dot: the call graph for Graphviz (dot -Tsvg, xdot), as
 * uftrace's `dump --graphviz` gives it: a node per function with its self
 * time, an edge per caller/callee pair with its calls and inclusive time,
 * drawn thicker the more time it holds.  The figures are callgrind's
 * (builtin/export_callgrind.c gathers them): report's corrected times
 * unless --raw, -r's part of each call.
 */
#include <stdio.h>

#include "builtin/export.h"
#include "output.h"
#include "util.h"

void ct_dot_print(struct exporter *x)
{
	FILE *out = x->out;
	char b[64];
	uint64_t most = ct_export_heaviest(x);

	fputs("digraph calltrace {\n\tgraph [label=\"", out);
	ct_export_quoted(out, x->s->command ? x->s->command : "");
	fputs("\\n", out);
	ct_export_quoted(out, ct_export_times_note(x));
	fputs("\", labelloc=t, fontname=\"monospace\"];\n"
	      "\tnode [shape=box, fontname=\"monospace\"];\n"
	      "\tedge [fontname=\"monospace\"];\n",
	      out);
	for (size_t i = 0; i < x->names.n; i++) {
		fprintf(out, "\tf%zu [label=\"", i);
		ct_export_quoted(out, x->names.v[i]);
		fprintf(out, "\\nself %s\"];\n",
			ct_export_dur(x->self ? x->self[i] : 0, b, sizeof(b)));
	}
	for (size_t e = 0; e < x->nedges; e++) {
		const struct edge *ed = &x->edges[e];
		fprintf(out, "\tf%u -> f%u [label=\"%llu call%s\\n%s\", penwidth=%.2f];\n",
			ed->caller, ed->callee, (unsigned long long)ed->calls,
			ed->calls == 1 ? "" : "s", ct_export_dur(ed->incl, b, sizeof(b)),
			1.0 + 4.0 * (double)ed->incl / (double)most);
	}
	fputs("}\n", out);
}
