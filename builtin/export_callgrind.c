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
		x->rootdef = xrealloc(x->rootdef, x->capfn * sizeof(*x->rootdef));
		memset(x->files + old, 0, (x->capfn - old) * sizeof(*x->files));
		memset(x->lines + old, 0, (x->capfn - old) * sizeof(*x->lines));
		memset(x->self + old, 0, (x->capfn - old) * sizeof(*x->self));
		memset(x->rootdef + old, 0, (x->capfn - old) * sizeof(*x->rootdef));
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

/* a call's costs as the format wants them: its self cost and the
 * inclusive cost on its call edge at least 0, and the inclusive cost its
 * self cost plus its callees' inclusive costs, so that the costs add up
 * (callgrind_annotate's program total is main's inclusive cost).  With
 * corrected times a call's time less its callees' can come out below 0
 * (noise): it then costs 0 itself and its inclusive cost is its callees',
 * which its caller's self cost makes up for; a call's inclusive cost is
 * its corrected time otherwise, so main's is report's total. */
void ct_cg_exit(struct exporter *x, const struct ct_event *ev)
{
	struct frame f = x->stack[--x->depth];
	int64_t incl = ct_export_incl(x, ev);
	int64_t self = ct_wrap_sub(incl, f.child);
	if (self < 0)
		self = 0;
	int64_t out = ct_wrap_add(self, f.child);
	x->self[f.node] = ct_wrap_add(x->self[f.node], self);
	if (!x->depth) {
		/* an outermost call whose callees' costs came out above its
		 * corrected time: cg_settle takes the excess back */
		int64_t want = incl > 0 ? incl : 0;
		if (out > want)
			x->rootdef[f.node] = ct_wrap_add(x->rootdef[f.node], out - want);
		return;
	}
	if (!ct_export_in_range(x, ev))
		return;
	struct frame *caller = &x->stack[x->depth - 1];
	caller->child = ct_wrap_add(caller->child, out);
	bool added;
	uint32_t i = ct_u64map_index(&x->bykey, (uint64_t)caller->node << 32 | f.node, x->nedges,
				     &added);
	if (added)
		*CT_PUSH(x->edges, x->nedges, x->capedges) =
			(struct edge){.caller = caller->node, .callee = f.node};
	struct edge *e = &x->edges[i];
	e->calls++;
	e->incl = ct_wrap_add(e->incl, out);
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

/* the excess of outermost calls (a deficit their callers could not
 * absorb): taken off the root function's call edges, largest first, and
 * off the largest self costs, so that a root's inclusive cost is its
 * corrected time (report's total) and the self costs still add up to the
 * roots' inclusive costs; the functions whose self cost gives the excess
 * show that much less inclusive time than report */
static void cg_settle(struct exporter *x, size_t nfn)
{
	for (size_t r = 0; r < nfn; r++) {
		int64_t d = x->rootdef ? x->rootdef[r] : 0;
		for (int64_t left = d; left > 0;) {
			struct edge *big = NULL;
			for (size_t e = 0; e < x->nedges; e++)
				if (x->edges[e].caller == r && x->edges[e].incl > 0 &&
				    (!big || x->edges[e].incl > big->incl))
					big = &x->edges[e];
			if (!big)
				break;
			int64_t t = big->incl < left ? big->incl : left;
			big->incl -= t;
			left -= t;
		}
		for (int64_t left = d; left > 0;) {
			size_t big = nfn;
			for (size_t i = 0; i < nfn; i++)
				if (x->self[i] > 0 && (big == nfn || x->self[i] > x->self[big]))
					big = i;
			if (big == nfn)
				break;
			int64_t t = x->self[big] < left ? x->self[big] : left;
			x->self[big] -= t;
			left -= t;
		}
	}
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
	if (x->self)
		cg_settle(x, nfn);
	uint64_t total = 0;
	for (size_t i = 0; i < nfn; i++)
		total += x->self ? ct_clamp0(x->self[i]) : 0;
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
		fprintf(out, "%d %llu\n", line,
			(unsigned long long)(x->self ? ct_clamp0(x->self[i]) : 0));
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
				cline, line, (unsigned long long)ct_clamp0(ed->incl));
		}
	}
	free(fn_seen);
	free(fl_seen);
	free(fileid);
	ct_names_free(&files);
}
