/* SPDX-License-Identifier: MIT */
/* The corrected clock of a timeline (lib/read/tclock.h): where entries, exits
 * and marks land once the tracer's cost is taken out, on synthetic events:
 * the cost of the calls before (shown or hidden), of the open ones, the
 * waits; a call as long as ct_overhead_net says; the clock holding rather
 * than going back; the recorded times with zero figures. */
#include <inttypes.h>
#include <string.h>

#include "check.h"
#include "overhead.h"
#include "session.h"
#include "tclock.h"

/* an entry carries the calls its stream entered before it in below */
static struct ct_event enter(uint64_t t, uint32_t depth, uint64_t entered)
{
	return (struct ct_event){.kind = CT_ENTER,
				 .time = t,
				 .start = t,
				 .depth = depth,
				 .below = entered};
}

static struct ct_event leave(uint64_t start, uint64_t t, uint32_t depth, uint64_t below)
{
	return (struct ct_event){.kind = CT_EXIT,
				 .time = t,
				 .start = start,
				 .depth = depth,
				 .below = below};
}

/* inner 10 ns, outer 30 ns */
static const struct ct_overhead ovh = {.inner_ps = 10000, .outer_ps = 30000, .waits = true};

static void test_calls(void)
{
	struct ct_tclock c;
	ct_tclock_init(&c);
	ct_tclock_thread(&c, &ovh);
	uint64_t b, e;
	int64_t net;
	struct ct_event ev = enter(0, 0, 0); /* main */
	CHECK(ct_tclock_enter(&c, &ev) == 0, "main enters at 0");
	ev = enter(100, 1, 1); /* leaf: main's inner before it */
	CHECK(ct_tclock_enter(&c, &ev) == 90, "leaf enters at 90");
	ev = leave(100, 120, 1, 0);
	ct_tclock_exit(&c, &ev, &b, &e, &net);
	CHECK(b == 90 && e == 100 && net == 10, "leaf %" PRIu64 "-%" PRIu64 " net %" PRId64, b, e,
	      net);
	ev = enter(200, 1, 2); /* leaf 2: one call done (outer), main open (inner) */
	CHECK(ct_tclock_enter(&c, &ev) == 160, "leaf 2 enters at 160");
	ev = leave(200, 205, 1, 0); /* 5 ns: less than inner */
	ct_tclock_exit(&c, &ev, &b, &e, &net);
	CHECK(b == 160 && e == 160 && net == -5,
	      "a call shorter than its cost: %" PRIu64 "-%" PRIu64 " (held), net %" PRId64, b, e,
	      net);
	/* 100 calls a filter hides, then a mark and a shown call */
	ev = (struct ct_event){.kind = CT_MARK, .time = 5000, .depth = 1, .below = 103};
	CHECK(ct_tclock_mark(&c, &ev) == 5000 - 10 - 102 * 30, "the mark after hidden calls");
	ev = enter(6000, 1, 103);
	uint64_t s = ct_tclock_enter(&c, &ev);
	CHECK(s == 6000 - 10 - 102 * 30, "a call after 102 others: %" PRIu64, s);
	ev = leave(6000, 6100, 1, 0);
	ct_tclock_exit(&c, &ev, &b, &e, &net);
	CHECK(e - b == 90 && net == 90, "its duration %" PRIu64, e - b);
	/* main: as long as report says, 10 + 104 * 30 out of it */
	ev = leave(0, 10000, 0, 103);
	ev.waited = 500;
	ct_tclock_exit(&c, &ev, &b, &e, &net);
	CHECK(b == 0 && net == 10000 - 500 - 10 - 103 * 30 && e == (uint64_t)net,
	      "main %" PRIu64 "-%" PRIu64 " net %" PRId64, b, e, net);
	CHECK(net == ct_overhead_net(&ovh, &ev), "net is ct_overhead_net's");
	ct_tclock_free(&c);
}

static void test_waits(void)
{
	struct ct_tclock c;
	ct_tclock_init(&c);
	ct_tclock_thread(&c, &ovh);
	struct ct_event ev = enter(1000, 0, 0);
	ev.waited = 300; /* waited before the call */
	CHECK(ct_tclock_enter(&c, &ev) == 700, "a wait before an entry moves it earlier");
	/* a callee after 400 ns more of waits, one call done, its caller open */
	ev = enter(2000, 1, 2);
	ev.waited = 700;
	CHECK(ct_tclock_enter(&c, &ev) == 2000 - 700 - 30 - 10, "the waits so far are taken out");
	ct_tclock_free(&c);
}

static void test_raw(void)
{
	struct ct_tclock c;
	ct_tclock_init(&c);
	ct_tclock_thread(&c, NULL);
	uint64_t b, e;
	struct ct_event ev = enter(100, 0, 0);
	CHECK(ct_tclock_enter(&c, &ev) == 100, "raw entry");
	ev = enter(150, 1, 1);
	ev.waited = 20;
	CHECK(ct_tclock_enter(&c, &ev) == 150, "raw: no cost, no waits taken out");
	ev = leave(150, 160, 1, 0);
	ev.waited = 5;
	ct_tclock_exit(&c, &ev, &b, &e, NULL);
	CHECK(b == 150 && e == 160, "raw exit %" PRIu64 "-%" PRIu64, b, e);
	ev = leave(100, 900, 0, 1);
	ct_tclock_exit(&c, &ev, &b, &e, NULL);
	CHECK(b == 100 && e == 900, "raw outer exit %" PRIu64 "-%" PRIu64, b, e);
	ct_tclock_free(&c);
}

int main(void)
{
	test_calls();
	test_waits();
	test_raw();
	return check_done();
}
