/* SPDX-License-Identifier: MIT */
/*
 * The call tree aggregated by call path (graph, tui): every distinct path
 * from an outermost frame down to a call is one node, keyed by (parent
 * node, function name id), with its calls, total (inclusive) and self
 * time.  It grows while a thread's well-nested events are handed to
 * ct_tree_enter and ct_tree_exit, is bounded by the number of distinct
 * paths, and is walked without recursion by its users.
 */
#ifndef CT_CALLTREE_H
#define CT_CALLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "overhead.h"
#include "session.h"
#include "util.h"

#define CT_TREE_NONE UINT32_MAX
/* a node's top: its ancestor at this depth (graph's backtraces show the
 * outermost CT_TREE_TOP frames of a deep path) */
#define CT_TREE_TOP 32

struct ct_tnode {
	uint32_t parent, name;                          /* name: id; NONE for the root */
	uint32_t first_child, last_child, next_sibling; /* in order of creation */
	uint32_t depth;                                 /* 0 for the root */
	uint32_t top;                                   /* its ancestor (or itself) at depth
					* CT_TREE_TOP; 0 while it is shallower */
	uint64_t calls, total, self;
	uint64_t rtotal; /* total on the recorded clock */
	/* record --sample: sampled total and self (ns), self's samples */
	uint64_t stotal, sself, sself_n;
	uint64_t offcpu; /* record --sched: off-CPU time in its calls */
};

struct ct_tframe {
	uint32_t node;
	uint64_t child;  /* inclusive time of direct callees */
	uint64_t schild; /* their samples */
};

struct ct_tree {
	struct ct_tnode *n; /* n[0] is the root (no function) */
	size_t len, cap;
	struct ct_u64map map; /* parent << 32 | name -> index + 1 */
	/* the open calls of the thread being read */
	struct ct_tframe *stack;
	size_t depth, capstack;
};

void ct_tree_init(struct ct_tree *t);
void ct_tree_free(struct ct_tree *t);
/* the node of function name under parent, made if new */
uint32_t ct_tree_child(struct ct_tree *t, uint32_t parent, uint32_t name);

/* a call of function name entered on the thread being read */
static inline void ct_tree_enter(struct ct_tree *t, uint32_t name)
{
	uint32_t parent = t->depth ? t->stack[t->depth - 1].node : 0;
	uint32_t node = ct_tree_child(t, parent, name);
	*CT_PUSH(t->stack, t->depth, t->capstack) =
		(struct ct_tframe){.node = node, .child = 0, .schild = 0};
}

/* the exit ev of the innermost open call (none open: nothing) */
static inline void ct_tree_exit(struct ct_tree *t, const struct ct_event *ev)
{
	if (!t->depth)
		return;
	/* well nested: the exit of the call on top */
	struct ct_tframe f = t->stack[--t->depth];
	uint64_t incl = ct_event_dur(ev);
	struct ct_tnode *n = &t->n[f.node];
	n->calls += ct_call_counted(ev);
	n->total += incl;
	n->rtotal += ct_event_raw_dur(ev);
	n->offcpu += ev->offcpu;
	n->self += ct_call_self(incl, f.child);
	if (t->depth)
		t->stack[t->depth - 1].child += incl;
	if (__builtin_expect(ev->samples != 0, 0)) {
		/* record --sample: the samples the same way */
		uint64_t per = ev->thread->proc->sample_ns, smp = ev->samples;
		uint64_t sself = smp - (f.schild < smp ? f.schild : smp);
		n->stotal += smp * per;
		n->sself += sself * per;
		n->sself_n += sself;
		if (t->depth)
			t->stack[t->depth - 1].schild += smp;
	}
}
/* at a thread's start or end: forget its open calls */
static inline void ct_tree_thread_reset(struct ct_tree *t)
{
	t->depth = 0;
}

/* the order graph shows siblings in: total time descending, then name
 * (names[]), then first created */
int ct_tree_cmp(const struct ct_tree *t, const char *const *names, uint32_t a, uint32_t b);
/* node's children in that order: *n of them, malloc'ed (NULL when none) */
uint32_t *ct_tree_sorted_children(const struct ct_tree *t, const char *const *names, uint32_t node,
				  size_t *n);

#endif
