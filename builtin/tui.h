/* SPDX-License-Identifier: MIT */
/*
 * calltrace tui's model (builtin/tui_model.c): what one pass over the
 * recording gathers, and the rows each view shows, made lazily; the
 * screen and the keys are builtin/tui.c's.
 */
#ifndef CT_BUILTIN_TUI_H
#define CT_BUILTIN_TUI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltree.h"
#include "filter.h"
#include "flat.h"
#include "session.h"
#include "util.h"
#include "view.h"

#define ROOT UINT32_MAX

/* an edge of the callers view: caller calls callee */
struct edge {
	uint32_t caller, callee; /* ROOT: the outermost calls' caller */
	uint64_t calls, time;
	uint32_t active; /* while walking the tree */
};

enum view { V_GRAPH, V_REPORT, V_CALLERS, V_HELP, NVIEWS };

/* report's sort columns */
enum col { C_TOTAL, C_SELF, C_CALLS, C_AVG, C_MIN, C_MAX, C_NAME, NCOLS };

/* a row of the callers view */
struct crow {
	int kind; /* -1 a caller, 0 the function, 1 a callee */
	uint32_t id;
	uint32_t edge;
};

struct tui {
	struct ct_view *v;
	struct ct_filter *filt;
	struct ct_names names;

	/* the flat profile's rows, as report gathers them */
	struct ct_fstat *stats;
	uint32_t *active;
	struct ct_proc **procs; /* per id: where the function was first seen */
	uint64_t *addrs;
	size_t capstats;
	struct ct_fframe *stack;
	size_t depth, capstack;

	/* the call tree, as graph gathers it; per node after reading: its
	 * sorted children (NULL until unfolded first), whether it is open,
	 * whether it is the last of its siblings */
	struct ct_tree tree;
	uint32_t **kids;
	uint32_t *nkids;
	bool *open, *last;
	uint32_t *vis; /* the graph view's rows: the nodes shown */
	size_t nvis, capvis;

	/* the report view's rows: the ids called, sorted by col */
	uint32_t *rows;
	size_t nrows;
	enum col col;

	/* the callers view: made when first asked for */
	bool have_edges;
	struct edge *edges;
	size_t nedges, capedges;
	struct ct_u64map byedge;
	struct crow *crows;
	size_t ncrows, capcrows;
	uint32_t func;     /* the function shown */
	uint32_t *history; /* the functions shown before */
	size_t nhistory, caphistory;

	enum view view, back; /* back: the view the help returns to */
	size_t sel[NVIEWS], top[NVIEWS];
	char search[256];
	char msg[512];
	bool quit;
};

/* reading: the view's callbacks (struct ct_view's unfiltered, and per
 * thread) */
void tui_unfiltered(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n);
int tui_read_thread(void *ctx, struct ct_view *v, struct ct_thread *t);
/* the graph view: names, the rows shown, folding */
const char *tui_name_of(const struct tui *u, uint32_t id);
void tui_rebuild_vis(struct tui *u);
void tui_set_open(struct tui *u, size_t r, bool open);
void tui_set_all(struct tui *u, bool open);
void tui_reveal(struct tui *u, uint32_t node);
uint32_t tui_next_node(struct tui *u, uint32_t node);
/* the report view in the order of u->col */
void tui_sort_rows(struct tui *u);
/* the callers view of function f (remember: the one before goes to
 * the history) */
void tui_show_callers(struct tui *u, uint32_t f, bool remember);

#endif
