/* SPDX-License-Identifier: MIT */
/*
 * export --format=callgrind: the Callgrind profile format (KCachegrind,
 * callgrind_annotate): per function its self time, per (caller, callee)
 * pair the number of calls and their inclusive time, both in hash maps, so
 * memory is bounded by the number of distinct functions and pairs.  A
 * recursive call's inclusive time is counted on its own call edge, as
 * callgrind does.  builtin/export.c reads the calls and hands each enter
 * and exit here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/export.h"
#include "output.h"
#include "session.h"
#include "util.h"

/* ---- callgrind ------------------------------------------------------- */

void ct_cg_enter(struct exporter *x, struct ct_func *fn)
{
	if (fn->user < 0)
		fn->user = ct_names_intern(&x->names, fn->name);
	uint32_t id = (uint32_t)fn->user;
	if (x->names.n > x->capfn) {
		size_t old = x->capfn;
		x->capfn = x->names.cap;
		x->files = xrealloc(x->files, x->capfn * sizeof(*x->files));
		x->lines = xrealloc(x->lines, x->capfn * sizeof(*x->lines));
		x->self = xrealloc(x->self, x->capfn * sizeof(*x->self));
		memset(x->files + old, 0, (x->capfn - old) * sizeof(*x->files));
		memset(x->lines + old, 0, (x->capfn - old) * sizeof(*x->lines));
		memset(x->self + old, 0, (x->capfn - old) * sizeof(*x->self));
	}
	if (!x->files[id] && fn->addr && x->proc) {
		const struct ct_sym_info *si = ct_session_resolve(x->s, x->proc, fn->addr);
		if (si && si->file) {
			x->files[id] = si->file;
			x->lines[id] = si->line > 0 ? si->line : 0;
		}
	}
	*CT_PUSH(x->stack, x->depth, x->capstack) = (struct frame){.node = id, .child = 0};
}

/* a call's costs: its self cost (its time less its callees'), and its
 * time on the edge from its caller, so that the self costs add up to the
 * outermost calls' inclusive costs (callgrind_annotate's program total is
 * main's inclusive cost, report's total) */
void ct_cg_exit(struct exporter *x, const struct ct_event *ev)
{
	struct frame f = x->stack[--x->depth];
	uint64_t incl = ct_export_incl(x, ev);
	x->self[f.node] += ct_call_self(incl, f.child);
	if (!x->depth || !ct_export_in_range(x, ev))
		return;
	struct frame *caller = &x->stack[x->depth - 1];
	caller->child += incl;
	bool added;
	uint32_t i = ct_u64map_index(&x->bykey, (uint64_t)caller->node << 32 | f.node, x->nedges,
				     &added);
	if (added)
		*CT_PUSH(x->edges, x->nedges, x->capedges) =
			(struct edge){.caller = caller->node, .callee = f.node};
	struct edge *e = &x->edges[i];
	e->calls += ct_call_counted(ev);
	e->incl += incl;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;
	if (p->caller != q->caller)
		return p->caller < q->caller ? -1 : 1;
	if (p->callee != q->callee)
		return p->callee < q->callee ? -1 : 1;
	return 0;
}

/* a name on one line, as text (output.h: no newline or other control
 * character is left to end it) */
static void cg_name(FILE *out, const char *s)
{
	ct_text_put(out, s);
	putc_unlocked('\n', out);
}

/* "key=(id)", with the name the first time (name compression) */
static void cg_ref(FILE *out, const char *key, uint32_t id, bool *seen, const char *name)
{
	fprintf(out, "%s=(%u)", key, id + 1);
	if (seen[id]) {
		putc_unlocked('\n', out);
		return;
	}
	seen[id] = true;
	putc_unlocked(' ', out);
	cg_name(out, name);
}

void ct_cg_print(struct exporter *x)
{
	FILE *out = x->out;
	size_t nfn = x->names.n;
	/* file ids: one per distinct file name, interned after the functions */
	uint32_t *fileid = xmalloc((nfn ? nfn : 1) * sizeof(*fileid));
	struct ct_names files;
	ct_names_init(&files);
	for (size_t i = 0; i < nfn; i++)
		fileid[i] = ct_names_intern(&files, x->files && x->files[i] ? x->files[i] : "???");
	const char **filenames = files.v;
	bool *fn_seen = xcalloc(nfn ? nfn : 1, sizeof(*fn_seen));
	bool *fl_seen = xcalloc(files.n ? files.n : 1, sizeof(*fl_seen));

	fputs("# callgrind format\nversion: 1\ncreator: calltrace\n", out);
	fprintf(out, "# calltrace: %s\n", ct_export_times_note(x));
	fprintf(out, "desc: Times: %s\n",
		x->raw ? "as recorded (calltrace export --raw)"
		       : "corrected for the tracer's own cost (calltrace export --raw: as "
			 "recorded)");
	fputs("cmd: ", out);
	cg_name(out, x->s->command ? x->s->command : "");
	fputs("positions: line\nevents: ns\n", out);
	uint64_t total = 0;
	for (size_t i = 0; i < nfn; i++)
		total += x->self ? x->self[i] : 0;
	fprintf(out, "summary: %llu\n", (unsigned long long)total);

	ct_qsort(x->edges, x->nedges, sizeof(*x->edges), cmp_edge);
	size_t e = 0;
	for (uint32_t i = 0; i < nfn; i++) {
		/* costs sit on the function's own line (its declaration): the
		 * trace has no lines within it, and line 0 makes
		 * callgrind_annotate complain */
		int line = x->lines && x->lines[i] > 0 ? x->lines[i] : 1;
		putc_unlocked('\n', out);
		cg_ref(out, "fl", fileid[i], fl_seen, filenames[fileid[i]]);
		cg_ref(out, "fn", i, fn_seen, x->names.v[i]);
		fprintf(out, "%d %llu\n", line, (unsigned long long)(x->self ? x->self[i] : 0));
		for (; e < x->nedges && x->edges[e].caller == i; e++) {
			const struct edge *ed = &x->edges[e];
			/* as callgrind: the callee's file only when it differs
			 * (callgrind_annotate strips the cwd from fl= but not
			 * from cfi=, so a needless cfi= would split a function) */
			if (fileid[ed->callee] != fileid[i])
				cg_ref(out, "cfi", fileid[ed->callee], fl_seen,
				       filenames[fileid[ed->callee]]);
			cg_ref(out, "cfn", ed->callee, fn_seen, x->names.v[ed->callee]);
			int cline = x->lines && x->lines[ed->callee] > 0 ? x->lines[ed->callee] : 1;
			fprintf(out, "calls=%llu %d\n%d %llu\n", (unsigned long long)ed->calls,
				cline, line, (unsigned long long)ed->incl);
		}
	}
	free(fn_seen);
	free(fl_seen);
	free(fileid);
	ct_names_free(&files);
}
