/* SPDX-License-Identifier: MIT */
/*
 * export's state, shared by the driver (builtin/export.c: options, reading,
 * chrome) and the aggregated formats written at the end
 * (builtin/export_folded.c, builtin/export_callgrind.c).
 */
#ifndef CT_BUILTIN_EXPORT_H
#define CT_BUILTIN_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "filter.h"
#include "overhead.h"
#include "session.h"
#include "util.h"

struct ct_perfetto;
struct ct_html;
struct ct_filter;

enum fmt {
	FMT_NONE,
	FMT_CHROME,
	FMT_FOLDED,
	FMT_CALLGRIND,
	FMT_PERFETTO,
	FMT_HTML,
	FMT_DOT,
	FMT_MERMAID
};

/* a stack in the folded output: a node of the tree of stacks */
struct node {
	uint32_t parent; /* node id + 1, 0 for a root */
	uint32_t name;   /* name id */
	uint32_t depth;  /* 0 for a root */
	uint32_t top;    /* node id + 1 of its ancestor (or itself) at depth
			  * outer - 1 (the innermost frame of a cut stack's
			  * outer part); 0 while it is shallower */
	uint64_t calls;
	uint64_t self;
	uint64_t samples; /* record --sample: its self samples */
};

/* callgrind: a (caller, callee) pair */
struct edge {
	uint32_t caller, callee; /* name ids */
	uint64_t calls;
	uint64_t incl;
};

struct frame {
	uint32_t node;   /* folded: node id; callgrind: name id */
	uint64_t child;  /* inclusive time of the direct callees */
	uint64_t schild; /* folded: their samples (record --sample) */
};

struct exporter {
	struct ct_session *s;
	struct ct_filter *filt;
	const char *output; /* -o FILE, or NULL: stdout */
	unsigned mode;      /* --mode: FILE's permission bits (0600) */
	bool mode_given;
	enum fmt fmt;
	bool value_calls;
	bool value_samples;    /* --folded-value=samples */
	uint32_t outer, inner; /* folded: the frames kept of a deep stack;
				* both 0: all of them */
	FILE *out;
	int argc; /* the command line, named in the HTML report */
	char **argv;

	/* -r: the range [lo, hi) in ns; 0 and UINT64_MAX when open (range
	 * as given, its timestamps resolved by begin) */
	uint64_t lo, hi;
	struct ct_range range;
	const char *range_text;
	uint64_t in_range; /* calls that overlap it (none: a message, exit 1) */

	/* the times (doc/overhead.md): timelines place calls on the recorded
	 * clock; durations are on the threads' corrected clocks (the recorded
	 * one with --raw).  The exit being handled: its duration and self
	 * time as report counts them, within the range */
	bool raw;
	uint64_t net, self_net;
	uint64_t *tchild; /* chrome, perfetto: by depth, the callees' time */
	size_t tdepth, tcap;
	/* -r on the thread's corrected clock: where lo and hi fall on it
	 * (UINT64_MAX: not reached yet), and the last event's corrected time */
	uint64_t c_lo, c_hi, c_prev;

	struct ct_perfetto *perfetto;
	bool callsite; /* --callsite: html's edges split by call site */

	/* chrome */
	bool first_event;
	int pid, tid;

	/* folded: names by hash (chained), nodes by (parent, name) */
	struct ct_names names; /* function names and their ids */
	struct node *nodes;
	size_t nnodes, capnodes;
	struct ct_u64map bykey; /* (parent << 32 | name) -> node id + 1 */

	/* callgrind: by name id its source file, line and self time; the
	 * edges, found by (caller << 32 | callee) in bykey */
	const char **files;
	int *lines;
	uint64_t *self;
	size_t capfn;
	struct edge *edges;
	size_t nedges, capedges;
	struct ct_proc *proc; /* the thread's process, to resolve files */

	struct frame *stack;
	size_t depth, capstack;

	struct ct_html *html; /* html */
};

/* a call [start, end) overlaps the range -r (builtin/export.c) */
bool ct_export_in_range(const struct exporter *x, const struct ct_event *ev);
/* what a call counts in the aggregates: its corrected duration, or the
 * part of it inside the range -r */
uint64_t ct_export_incl(const struct exporter *x, const struct ct_event *ev);
/* the times the outputs say they hold */
const char *ct_export_times_note(const struct exporter *x);
/* a duration as "1.234 ms", without the table's padding, in b[n] */
const char *ct_export_dur(uint64_t ns, char *b, size_t n);
/* the largest inclusive time of an edge (at least 1): the graphs' scale */
uint64_t ct_export_heaviest(const struct exporter *x);
/* s inside a double-quoted string of DOT or YAML: '"' and '\\' escaped
 * with a backslash (in DOT a lone one would start a label escape),
 * control characters shown as '?' */
void ct_export_quoted(FILE *out, const char *s);

/* folded (builtin/export_folded.c) */
void ct_folded_enter(struct exporter *x, struct ct_func *fn);
void ct_folded_exit(struct exporter *x, const struct ct_event *ev);
void ct_folded_print(struct exporter *x);

/* callgrind (builtin/export_callgrind.c) */
void ct_cg_enter(struct exporter *x, struct ct_func *fn);
void ct_cg_exit(struct exporter *x, const struct ct_event *ev);
void ct_cg_print(struct exporter *x);
/* dot (builtin/export_dot.c): the same aggregates as callgrind's, as a
 * Graphviz call graph */
void ct_dot_print(struct exporter *x);
/* mermaid (builtin/export_mermaid.c): the same call graph as a Mermaid
 * flowchart */
void ct_mermaid_print(struct exporter *x);

#endif
