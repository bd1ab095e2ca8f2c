/* SPDX-License-Identifier: MIT */
/* record --inject's rules (lib/record/injectopt.c): every action and selector, the
 * ways a rule can be wrong, and the text the trace shows for a fault. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "calltrace/format.h"
#include "check.h"
#include "injectopt.h"
#include "injtext.h"

static int parse(const char *text, struct ct_injrule *r, char *why)
{
	why[0] = 0;
	return ct_injrule_parse(text, r, why, 256);
}

static void test_actions(void)
{
	struct ct_injrule r;
	char why[256];
	CHECK(parse("^open_db$@return=-1", &r, why) == 0, "%s", why);
	CHECK(r.acts == CT_INJ_A_RETURN && (int64_t)r.value == -1 && !strcmp(r.regex, "^open_db$"),
	      "return=-1: acts %u value %lld", r.acts, (long long)r.value);
	CHECK(r.cnt == CT_INJ_EVERY_CALL && !r.has_prob && !r.carg, "no selector");
	ct_injrule_free(&r);
	CHECK(parse("f@retval=0x10,errno=ENOMEM", &r, why) == 0, "%s", why);
	CHECK(r.acts == (CT_INJ_A_RETVAL | CT_INJ_A_ERRNO) && r.value == 16 && r.err == ENOMEM,
	      "retval hex with errno name");
	ct_injrule_free(&r);
	CHECK(parse("f@errno=28", &r, why) == 0 && r.err == 28 && r.acts == CT_INJ_A_ERRNO,
	      "errno alone, a number");
	ct_injrule_free(&r);
	CHECK(parse("f@signal=USR1", &r, why) == 0 && r.sig == SIGUSR1, "signal without SIG");
	ct_injrule_free(&r);
	CHECK(parse("f@signal=SIGTERM", &r, why) == 0 && r.sig == SIGTERM, "signal with SIG");
	ct_injrule_free(&r);
	CHECK(parse("f@throw=std::bad_alloc", &r, why) == 0 && r.acts == CT_INJ_A_THROW &&
		      r.value == 1 && !r.msg,
	      "throw=std::bad_alloc: %s", why);
	ct_injrule_free(&r);
	CHECK(parse("f@throw=std::runtime_error(disk on fire),nth=2", &r, why) == 0 &&
		      r.value == 2 && r.msg && !strcmp(r.msg, "disk on fire") && r.n == 2,
	      "throw=std::runtime_error(MSG): %s", why);
	ct_injrule_free(&r);
	CHECK(parse("f@throw=runtime_error", &r, why) == 0 && r.value == 2 && !r.msg,
	      "throw=runtime_error without std:: nor a message");
	ct_injrule_free(&r);
	CHECK(parse("a@b@return=1", &r, why) == 0 && !strcmp(r.regex, "a@b"),
	      "the last '@' ends the regex");
	ct_injrule_free(&r);
}

static void test_selectors(void)
{
	struct ct_injrule r;
	char why[256];
	CHECK(parse("malloc@return=0,nth=100", &r, why) == 0, "%s", why);
	CHECK(r.cnt == CT_INJ_NTH && r.n == 100, "nth");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,every=3", &r, why) == 0 && r.cnt == CT_INJ_EVERY && r.n == 3,
	      "every");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,after=0", &r, why) == 0 && r.cnt == CT_INJ_AFTER && r.n == 0,
	      "after=0");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,prob=0.25", &r, why) == 0 && r.has_prob && r.prob == (1ull << 30),
	      "prob=0.25: %llu", (unsigned long long)r.prob);
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,prob=1", &r, why) == 0 && r.prob == (1ull << 32), "prob=1");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,if=arg1==3", &r, why) == 0 && r.carg == 1 && r.cop == CT_INJ_EQ &&
		      r.cval == 3,
	      "if ==");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,if=arg6!=-2", &r, why) == 0 && r.carg == 6 && r.cop == CT_INJ_NE &&
		      (int64_t)r.cval == -2,
	      "if !=");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,if=arg2<0", &r, why) == 0 && r.cop == CT_INJ_LT, "if <");
	ct_injrule_free(&r);
	CHECK(parse("f@return=0,if=arg2>7,nth=2,prob=0.5", &r, why) == 0 && r.cop == CT_INJ_GT &&
		      r.cnt == CT_INJ_NTH && r.has_prob,
	      "three selectors");
	ct_injrule_free(&r);
}

static void test_bad(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"f", "not REGEX@ACTION"},
		{"@return=1", "not REGEX@ACTION"},
		{"(@return=1", "bad regex '('"},
		{"f@nth=2", "no action"},
		{"f@return=x", "return=x: not an integer"},
		{"f@return=1,retval=2", "one of return=, retval= and throw="},
		{"f@errno=ENOPE", "errno=ENOPE: not an errno name"},
		{"f@errno=0", "errno=0: not an errno name"},
		{"f@signal=SIGNOPE", "signal=SIGNOPE: not a signal name"},
		{"f@signal=65", "signal=65"},
		{"f@return=1,nth=0", "nth=0: not a count"},
		{"f@return=1,every=-1", "every=-1: not a count"},
		{"f@return=1,nth=1,after=2", "one of nth=, every= and after="},
		{"f@return=1,prob=0", "prob=0: not a probability"},
		{"f@return=1,prob=1.5", "prob=1.5: not a probability"},
		{"f@return=1,if=arg7==1", "the condition is argK OP V"},
		{"f@return=1,if=arg1=1", "the operator is one of"},
		{"f@return=1,if=arg1==z", "'z' is not an integer"},
		{"f@return=1,bogus=1", "unknown 'bogus='"},
		{"f@return", "'return' is not KEY=VALUE"},
		{"f@throw=std::logic_error", "throw=std::logic_error: std::bad_alloc or"},
		{"f@throw=bad_alloc,retval=1", "one of return=, retval= and throw="},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_injrule r;
		char why[256];
		int rc = parse(bad[i].text, &r, why);
		CHECK(rc == -1 && strstr(why, bad[i].why), "'%s': rc %d, why '%s'", bad[i].text, rc,
		      why);
	}
}

static void test_text(void)
{
	char buf[128];
	ct_inj_describe(CT_INJ_A_RETURN, (uint64_t)-1, 0, 0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "return -1"), "%s", buf);
	ct_inj_describe(CT_INJ_A_RETVAL | CT_INJ_A_ERRNO, 0, ENOSPC, 0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "retval 0, errno ENOSPC"), "%s", buf);
	ct_inj_describe(CT_INJ_A_SIGNAL, 0, 0, SIGUSR1, buf, sizeof(buf));
	CHECK(!strcmp(buf, "signal SIGUSR1"), "%s", buf);
	ct_inj_describe(CT_INJ_A_THROW, 2, 0, 0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "throw std::runtime_error"), "%s", buf);
	/* the record's payload, as the reader gets it */
	uint32_t w[CT_INJ_PAYLOAD] = {0xfffffffe, 0xffffffff, ENOMEM, 0, 3};
	ct_inj_text(CT_INJ_A_RETURN | CT_INJ_A_ERRNO, (const unsigned char *)w, buf, sizeof(buf));
	CHECK(!strcmp(buf, "injected: return -2, errno ENOMEM"), "%s", buf);
}

int main(void)
{
	test_actions();
	test_selectors();
	test_bad();
	test_text();
	return check_done();
}
