/* SPDX-License-Identifier: MIT */
/* Unit tests for lib/read/filter.c: the -F/-N/-D/-t state machine and the option
 * helpers.  Prints "N passed, N failed" last; exits non-zero on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

static int passed, failed;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (cond) {                                                              \
			passed++;                                                        \
		} else {                                                                 \
			failed++;                                                        \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                        \
	} while (0)

#define CHECK_STR(got, want)                                                                \
	do {                                                                                \
		if (!strcmp((got), (want))) {                                               \
			passed++;                                                           \
		} else {                                                                    \
			failed++;                                                           \
			fprintf(stderr, "%s:%d: FAIL:\n  got:  %s\n  want: %s\n", __FILE__, \
				__LINE__, (got), (want));                                   \
		}                                                                           \
	} while (0)

/* functions by name: the address is the index */
static const char *fnames[] = {"main", "a",      "b", "c", "std::vector<int>::push_back",
			       "leaf", "handler"};
#define NFUNCS (sizeof(fnames) / sizeof(fnames[0]))
static struct ct_func funcs[NFUNCS];

static int func_index(const char *name)
{
	for (size_t i = 0; i < NFUNCS; i++)
		if (!strcmp(fnames[i], name))
			return (int)i;
	fprintf(stderr, "no function %s\n", name);
	exit(2);
}

static char outbuf[4096];

static void emit(void *ctx, const struct ct_fevent *fe)
{
	(void)ctx;
	size_t len = strlen(outbuf);
	snprintf(outbuf + len, sizeof(outbuf) - len, "%s%c%s%u", len ? " " : "",
		 fe->ev.kind == CT_ENTER ? '+' : '-', fe->fn->name, fe->depth);
}

/*
 * Run a trace through a filter.  The trace is a string of tokens:
 *   +name@time   an entry at the current depth
 *   -@time       the exit of the innermost open call
 * Returns the emitted events as "+name<depth> -name<depth> ...".
 */
static const char *run(struct ct_filter *f, const char *trace)
{
	struct ct_filter_thread t;
	struct {
		int fn;
		uint64_t time;
	} stack[64];
	uint32_t depth = 0;

	for (size_t i = 0; i < NFUNCS; i++) {
		funcs[i].name = fnames[i];
		funcs[i].user = -1;
		ct_filter_match(f, &funcs[i]);
	}
	ct_filter_thread_init(&t);
	outbuf[0] = '\0';
	char *copy = strdup(trace);
	for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
		char *at = strchr(tok, '@');
		uint64_t time = at ? strtoull(at + 1, NULL, 10) : 0;
		if (at)
			*at = '\0';
		struct ct_event ev = {0};
		ev.time = time;
		if (tok[0] == '+') {
			int fi = func_index(tok + 1);
			ev.kind = CT_ENTER;
			ev.addr = (uint64_t)fi;
			ev.depth = depth;
			stack[depth].fn = fi;
			stack[depth].time = time;
			depth++;
		} else {
			depth--;
			ev.kind = CT_EXIT;
			ev.addr = (uint64_t)stack[depth].fn;
			ev.start = stack[depth].time;
			ev.depth = depth;
			if (tok[1] == 'u')
				ev.flags = CT_EVF_UNFINISHED;
		}
		ct_filter_push_fn(f, &t, &ev, &funcs[ev.addr], emit, NULL);
	}
	ct_filter_thread_end(f, &t, emit, NULL);
	ct_filter_thread_free(&t);
	free(copy);
	return outbuf;
}

static const char *trace1 = "+main@0 +a@10 +b@20 -@30 +c@40 +b@50 -@55 -@60 -@70 "
			    "+b@80 +leaf@85 -@86 -@90 -@100";

static void test_nofilter(void)
{
	struct ct_filter f;
	ct_filter_init(&f, NULL);
	CHECK(!ct_filter_active(&f));
	CHECK_STR(run(&f, trace1), "+main0 +a1 +b2 -b2 +c2 +b3 -b3 -c2 -a1 +b1 +leaf2 -leaf2 "
				   "-b1 -main0");
	ct_filter_free(&f);
}

static void test_include(void)
{
	struct ct_filter f;
	struct ct_error err;
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "^c$", &err) == 0);
	CHECK(ct_filter_active(&f));
	CHECK_STR(run(&f, trace1), "+c0 +b1 -b1 -c0");
	ct_filter_free(&f);

	/* nested matches: the outermost one sets the root */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "^(a|b)$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+a0 +b1 -b1 +c1 +b2 -b2 -c1 -a0 +b0 +leaf1 -leaf1 -b0");
	ct_filter_free(&f);

	/* two -F options */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "^c$", &err) == 0);
	CHECK(ct_filter_add_regex(&f, false, "leaf", &err) == 0);
	CHECK_STR(run(&f, trace1), "+c0 +b1 -b1 -c0 +leaf0 -leaf0");
	ct_filter_free(&f);
}

/* -C: the paths that lead to a matching call, the call a leaf */
static void test_caller(void)
{
	struct ct_filter f;
	struct ct_error err;
	struct ct_msgs msgs = {0};
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'C', "^c$", &err) == 0);
	CHECK(ct_filter_active(&f));
	CHECK_STR(run(&f, trace1), "+main0 +a1 +c2 -c2 -a1 -main0");
	CHECK(!ct_filter_caller_empty(&f, &msgs));
	ct_filter_free(&f);

	/* each call of b, its callees left out; the second -C adds leaf */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'C', "^b$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+main0 +a1 +b2 -b2 +c2 +b3 -b3 -c2 -a1 +b1 -b1 -main0");
	ct_filter_free(&f);

	/* after -F (the paths inside a), before -t (b and leaf too short) */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'F', "^a$", &err) == 0);
	CHECK(ct_filter_option(&f, 'C', "^c$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+a0 +c1 -c1 -a0");
	ct_filter_free(&f);
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'C', "^leaf$", &err) == 0);
	CHECK(ct_filter_option(&f, 't', "15", &err) == 0);
	CHECK_STR(run(&f, trace1), "+main0 -main0");
	ct_filter_free(&f);

	/* nothing leads to it: said, and the views exit 1 */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'C', "^nosuch$", &err) == 0);
	CHECK_STR(run(&f, trace1), "");
	CHECK(ct_filter_caller_empty(&f, &msgs));
	ct_msgs_free(&msgs);
	CHECK(ct_filter_option(&f, 'C', "(", &err) < 0);
	ct_filter_free(&f);
}

static void test_exclude(void)
{
	struct ct_filter f;
	struct ct_error err;
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, true, "^c$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+main0 +a1 +b2 -b2 -a1 +b1 +leaf2 -leaf2 -b1 -main0");
	ct_filter_free(&f);

	/* -N wins over -F, also for a -F match under a -N one */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "^b$", &err) == 0);
	CHECK(ct_filter_add_regex(&f, true, "^c$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+b0 -b0 +b0 +leaf1 -leaf1 -b0");
	ct_filter_free(&f);

	/* excluding the root hides everything */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, true, "main", &err) == 0);
	CHECK_STR(run(&f, trace1), "");
	ct_filter_free(&f);

	/* C++ names with regex metacharacters */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, true, "^std::", &err) == 0);
	CHECK_STR(run(&f, "+main@0 +std::vector<int>::push_back@1 +a@2 -@3 -@4 +a@5 -@6 -@7"),
		  "+main0 +a1 -a1 -main0");
	ct_filter_free(&f);
}

static void test_depth(void)
{
	struct ct_filter f;
	struct ct_error err;
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'D', "2", &err) == 0);
	CHECK(f.max_depth == 2);
	CHECK_STR(run(&f, trace1), "+main0 +a1 -a1 +b1 -b1 -main0");
	ct_filter_free(&f);

	/* with -F the depth counts from the match */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 'D', "1", &err) == 0);
	CHECK(ct_filter_add_regex(&f, false, "^c$", &err) == 0);
	CHECK_STR(run(&f, trace1), "+c0 -c0");
	ct_filter_free(&f);
}

static void test_time(void)
{
	struct ct_filter f;
	struct ct_error err;
	ct_filter_init(&f, NULL);
	f.min_time = 10;
	/* main 100, a 60, b 10, c 20, b 5, b 10, leaf 1 */
	CHECK_STR(run(&f, trace1), "+main0 +a1 +b2 -b2 +c2 -c2 -a1 +b1 -b1 -main0");
	ct_filter_free(&f);

	f.min_time = 0;
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_option(&f, 't', "15ns", &err) == 0);
	CHECK(f.min_time == 15);
	CHECK_STR(run(&f, trace1), "+main0 +a1 +c2 -c2 -a1 -main0");
	ct_filter_free(&f);

	/* everything short: nothing */
	ct_filter_init(&f, NULL);
	f.min_time = 1000;
	CHECK_STR(run(&f, trace1), "");
	ct_filter_free(&f);

	/* an unfinished call that lasted long enough is shown; its entry is
	 * released as soon as the time has passed (here at b's exit) */
	ct_filter_init(&f, NULL);
	f.min_time = 50;
	CHECK_STR(run(&f, "+main@0 +a@10 +b@20 -@30 +b@100 -@101 -u@200 -u@200"),
		  "+main0 +a1 -a1 -main0");
	ct_filter_free(&f);

	/* -t with -F and -D */
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "^a$", &err) == 0);
	f.min_time = 10;
	f.max_depth = 2;
	CHECK_STR(run(&f, trace1), "+a0 +b1 -b1 +c1 -c1 -a0");
	ct_filter_free(&f);
}

/* one event of a thread into the filter, by hand: fn's index, its time,
 * depth, and for an exit its entry's time */
static void push1(struct ct_filter *f, struct ct_filter_thread *t, bool enter, const char *fn,
		  uint64_t time, uint32_t depth, uint64_t start)
{
	int fi = func_index(fn);
	struct ct_event ev = {.kind = enter ? CT_ENTER : CT_EXIT,
			      .addr = (uint64_t)fi,
			      .time = time,
			      .start = start,
			      .depth = depth};
	ct_filter_push_fn(f, t, &ev, &funcs[fi], emit, NULL);
}

/* ct_filter_thread_advance: where a merge of threads has come to decides
 * the entries held back, as the thread's own next event would */
static void test_advance(void)
{
	struct ct_filter f;
	struct ct_filter_thread t;
	for (size_t i = 0; i < NFUNCS; i++) {
		funcs[i].name = fnames[i];
		funcs[i].user = -1;
	}

	/* -t 50: main@0 and a@10 held; released one by one as time passes */
	ct_filter_init(&f, NULL);
	f.min_time = 50;
	ct_filter_thread_init(&t);
	outbuf[0] = '\0';
	CHECK(ct_filter_thread_held(&t) == UINT64_MAX);
	push1(&f, &t, true, "main", 0, 0, 0);
	push1(&f, &t, true, "a", 10, 1, 0);
	CHECK(ct_filter_thread_held(&t) == 0);
	ct_filter_thread_advance(&f, &t, 49, emit, NULL);
	CHECK_STR(outbuf, "");
	ct_filter_thread_advance(&f, &t, 50, emit, NULL);
	CHECK_STR(outbuf, "+main0");
	CHECK(ct_filter_thread_held(&t) == 10);
	ct_filter_thread_advance(&f, &t, 60, emit, NULL);
	CHECK_STR(outbuf, "+main0 +a1");
	CHECK(ct_filter_thread_held(&t) == UINT64_MAX);
	/* a short call after it still vanishes; the exits of the long ones
	 * come as usual */
	push1(&f, &t, true, "b", 70, 2, 0);
	ct_filter_thread_advance(&f, &t, 100, emit, NULL);
	push1(&f, &t, false, "b", 110, 2, 70);
	push1(&f, &t, false, "a", 200, 1, 10);
	push1(&f, &t, false, "main", 210, 0, 0);
	CHECK_STR(outbuf, "+main0 +a1 -a1 -main0");
	ct_filter_thread_end(&f, &t, emit, NULL);
	ct_filter_thread_free(&t);
	ct_filter_free(&f);

	/* -r 100~: entries before the range held until the time is past its
	 * start (then they reach into it); one that ended before it is gone */
	ct_filter_init(&f, NULL);
	f.r_ranged = true;
	f.r.lo = 100;
	f.r.hi = UINT64_MAX;
	ct_filter_thread_init(&t);
	outbuf[0] = '\0';
	push1(&f, &t, true, "main", 0, 0, 0);
	push1(&f, &t, true, "b", 20, 1, 0);
	push1(&f, &t, false, "b", 30, 1, 20);
	push1(&f, &t, true, "a", 50, 1, 0);
	CHECK(ct_filter_thread_held(&t) == 0);
	ct_filter_thread_advance(&f, &t, 100, emit, NULL);
	CHECK_STR(outbuf, "");
	ct_filter_thread_advance(&f, &t, 101, emit, NULL);
	CHECK_STR(outbuf, "+main0 +a1");
	CHECK(ct_filter_thread_held(&t) == UINT64_MAX);
	push1(&f, &t, false, "a", 150, 1, 50);
	CHECK_STR(outbuf, "+main0 +a1 -a1");
	ct_filter_thread_end(&f, &t, emit, NULL);
	ct_filter_thread_free(&t);
	ct_filter_free(&f);

	/* -r 100~: a call entered right at START releases the calls held
	 * open around it first (they reach into the range); an exit at
	 * START ends a call that does not */
	ct_filter_init(&f, NULL);
	f.r_ranged = true;
	f.r.lo = 100;
	f.r.hi = UINT64_MAX;
	ct_filter_thread_init(&t);
	outbuf[0] = '\0';
	push1(&f, &t, true, "main", 0, 0, 0);
	push1(&f, &t, true, "b", 20, 1, 0);
	push1(&f, &t, false, "b", 100, 1, 20);
	CHECK_STR(outbuf, "");
	push1(&f, &t, true, "a", 100, 1, 0);
	CHECK_STR(outbuf, "+main0 +a1");
	ct_filter_thread_end(&f, &t, emit, NULL);
	ct_filter_thread_free(&t);
	ct_filter_free(&f);
}

/* -r's sides: a time with a unit (or whole ns) since the start, or a
 * timestamp SEC.NSEC; resolved against the recording's start */
static void test_range(void)
{
	struct ct_range r;
	CHECK(ct_range_parse("1.5ms~2s", &r) == 0);
	CHECK(r.lo == 1500000 && r.hi == 2000000000ULL && !r.lo_abs && !r.hi_abs);
	CHECK(ct_range_parse("~", &r) == 0);
	CHECK(r.lo == 0 && r.hi == UINT64_MAX);
	CHECK(ct_range_parse("250~", &r) == 0); /* a whole number: ns, as -t */
	CHECK(r.lo == 250 && !r.lo_abs && r.hi == UINT64_MAX);
	CHECK(ct_range_parse("5230.123456789~5230.5", &r) == 0);
	CHECK(r.lo_abs && r.hi_abs);
	CHECK(r.lo == 5230123456789ULL && r.hi == 5230500000000ULL);
	CHECK(ct_range_parse("~12.000000001", &r) == 0);
	CHECK(!r.lo_abs && r.hi_abs && r.hi == 12000000001ULL);
	CHECK(ct_range_parse("2.5~1.5", &r) < 0); /* END before START */
	CHECK(ct_range_parse("2s~1s", &r) < 0);
	CHECK(ct_range_parse("5ms", &r) < 0);
	CHECK(ct_range_parse("1~2~3", &r) < 0);
	CHECK(ct_range_parse("1.5xs~", &r) < 0);
	struct ct_error err;
	CHECK(ct_range_option("x~", &r, &err) < 0);
	CHECK(strstr(err.msg, "'x~'") != NULL);
}

static void test_bad_options(void)
{
	struct ct_filter f;
	struct ct_error err;
	ct_filter_init(&f, NULL);
	CHECK(ct_filter_add_regex(&f, false, "a(", &err) < 0);
	CHECK(strstr(err.msg, "a(") != NULL);
	CHECK(f.ninc == 0);
	CHECK(ct_filter_option(&f, 'D', "0", &err) < 0);
	CHECK_STR(err.msg, "-D: want a depth >= 1, not '0'");
	CHECK(ct_filter_option(&f, 'D', "-1", &err) < 0);
	CHECK(ct_filter_option(&f, 'D', "x", &err) < 0);
	CHECK_STR(err.msg, "-D: want a depth >= 1, not 'x'");
	CHECK(ct_filter_option(&f, 't', "fast", &err) < 0);
	CHECK_STR(err.msg, "-t: want a time such as 10us, 1.5ms, 2s, not 'fast'");
	CHECK(ct_filter_option(&f, 'N', "[", &err) < 0);
	CHECK(strncmp(err.msg, "-N: bad regex '[': ", 19) == 0);
	CHECK(ct_filter_option(&f, 'H', "(", &err) < 0);
	CHECK(strncmp(err.msg, "--hide: bad regex '(': ", 23) == 0);
	/* a byte that must not reach a terminal comes back escaped */
	CHECK(ct_filter_option(&f, 'D', "\x1b[2J", &err) < 0);
	CHECK_STR(err.msg, "-D: want a depth >= 1, not '\\x1b[2J'");
	CHECK(ct_filter_option(&f, 't', "1.5us", &err) == 0);
	CHECK(f.min_time == 1500);
	ct_filter_free(&f);
}

static void test_tid_list(void)
{
	int *tids = NULL;
	size_t n = 0;
	CHECK(ct_parse_tid_list("42", &tids, &n) == 0);
	CHECK(n == 1 && tids[0] == 42);
	CHECK(ct_parse_tid_list("1,2,3", &tids, &n) == 0);
	CHECK(n == 4 && tids[1] == 1 && tids[3] == 3);
	CHECK(ct_parse_tid_list("", &tids, &n) < 0);
	CHECK(ct_parse_tid_list("1,", &tids, &n) < 0);
	CHECK(ct_parse_tid_list(",1", &tids, &n) < 0);
	CHECK(ct_parse_tid_list("1;2", &tids, &n) < 0);
	CHECK(ct_parse_tid_list("-3", &tids, &n) < 0);
	CHECK(ct_parse_tid_list("0", &tids, &n) < 0);
	CHECK(ct_parse_tid_list("99999999999", &tids, &n) < 0);
	free(tids);

	unsigned long v;
	CHECK(ct_parse_uint("10", 100, &v) == 0 && v == 10);
	CHECK(ct_parse_uint("101", 100, &v) < 0);
	CHECK(ct_parse_uint("+1", 100, &v) < 0);
	CHECK(ct_parse_uint("1x", 100, &v) < 0);
	CHECK(ct_parse_uint("", 100, &v) < 0);
}

static void test_select_threads(void)
{
	struct ct_proc p = {.pid = 10};
	struct ct_thread t0 = {.proc = &p, .tid = 10, .index = 0};
	struct ct_thread t1 = {.proc = &p, .tid = 11, .index = 1};
	struct ct_thread *threads[] = {&t0, &t1};
	struct ct_session s = {.dir = "d", .threads = threads, .nthreads = 2};
	int tids[] = {11, 99};
	struct ct_msgs m = {0};
	size_t missing = 7;
	CHECK(ct_select_threads(&s, tids, 0, &missing, &m) == NULL && missing == 0);
	CHECK(m.n == 0);
	bool *want = ct_select_threads(&s, tids, 2, &missing, &m);
	CHECK(want && !want[0] && want[1] && missing == 1);
	/* the tid that names no thread: counted, and said as an error,
	 * handed back */
	CHECK(m.n == 1 && m.v[0].kind == CT_MSG_ERROR);
	CHECK_STR(m.v[0].text, "no thread 99 in d");
	ct_msgs_free(&m);
	free(want);
	want = ct_select_threads(&s, tids, 1, &missing, &m);
	CHECK(want && missing == 0 && m.n == 0);
	free(want);
}

/* a name with its parameter list gets no "()" in the views: also a
 * library call's ("f(int)@lib.so.6") and a clone's ("f(int) [clone
 * .isra.0]"); a name without one does ("f@lib.so.6", "f [clone .cold]",
 * C's "f.isra.0") */
static bool params(const char *n)
{
	return ct_name_has_params(n, strlen(n));
}

static void test_has_params(void)
{
	CHECK(params("f(int)"));
	CHECK(params("A::f() const"));
	CHECK(params("A::f() const &&"));
	CHECK(!params("main"));
	CHECK(!params(""));
	CHECK(params("operator new(unsigned long)@libstdc++.so.6"));
	CHECK(params("std::runtime_error::runtime_error(char const*)@libstdc++.so.6"));
	CHECK(!params("malloc@libc.so.6"));
	CHECK(!params("operator new@libstdc++.so.6"));
	CHECK(params("f(int) [clone .isra.0]"));
	CHECK(params("f(int) [clone .isra.0] [clone .cold]"));
	CHECK(params("A::f() const [clone .constprop.0]"));
	CHECK(!params("f [clone .isra.0]"));
	CHECK(!params("f.isra.0"));
	CHECK(!params("f(int)+0x1f"));
	CHECK(!params("g [x]"));
	CHECK(!params("g[clone .x]"));
}

int main(void)
{
	test_nofilter();
	test_include();
	test_exclude();
	test_caller();
	test_depth();
	test_time();
	test_advance();
	test_range();
	test_bad_options();
	test_tid_list();
	test_select_threads();
	test_has_params();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
