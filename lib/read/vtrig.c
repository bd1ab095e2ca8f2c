/* SPDX-License-Identifier: MIT */
/*
 * The views' -T triggers (vtrig.h).  Per thread: trace_on and trace_off
 * act from their call on in the thread being read (record's act in every
 * thread of the process; a view reads one thread at a time), the =call
 * forms and depth=N for the call's duration.
 */
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "util.h"
#include "vtrig.h"

static const char actions[] = "trace_on, trace_off, trace_on=call, trace_off=call, depth=N, "
			      "filter, notrace, hide";

int ct_vtrig_parse(const char *arg, struct ct_vtrig *t, char *also, char **re, struct ct_error *err)
{
	memset(t, 0, sizeof(*t));
	*also = 0;
	*re = NULL;
	const char *at = strrchr(arg, '@');
	if (!at || at == arg || !at[1]) {
		ct_set_err(err, "-T: want REGEX@ACTION[,ACTION...], not '%s' (actions: %s)", arg,
			   actions);
		return -1;
	}
	char *acts = xstrdup(at + 1);
	int rc = -1;
	for (char *a = strtok(acts, ","); a; a = strtok(NULL, ",")) {
		unsigned long v;
		if (!strcmp(a, "trace_on") || !strcmp(a, "trace-on"))
			t->on = true;
		else if (!strcmp(a, "trace_off") || !strcmp(a, "trace-off"))
			t->off = true;
		else if (!strcmp(a, "trace_on=call"))
			t->on_call = true;
		else if (!strcmp(a, "trace_off=call"))
			t->off_call = true;
		else if (!strncmp(a, "depth=", 6) && !ct_parse_uint(a + 6, 1000000, &v) && v)
			t->depth = (uint32_t)v;
		else if (!strcmp(a, "filter") || !strcmp(a, "notrace") || !strcmp(a, "hide")) {
			if (*also) {
				ct_set_err(err, "-T '%s': one of filter, notrace, hide at most",
					   arg);
				goto out;
			}
			*also = a[0] == 'f' ? 'F' : a[0] == 'n' ? 'N' : 'H';
		} else {
			ct_set_err(err, "-T '%s': unknown action '%s' (actions: %s)", arg, a,
				   actions);
			goto out;
		}
	}
	if ((t->on || t->on_call) && (t->off || t->off_call)) {
		ct_set_err(err, "-T '%s': trace_on and trace_off together", arg);
		goto out;
	}
	*re = xasprintf("%.*s", (int)(at - arg), arg);
	if (ct_regex_option(&t->re, "-T", *re, err) < 0) {
		free(*re);
		*re = NULL;
		goto out;
	}
	t->text = arg;
	rc = 0;
out:
	free(acts);
	return rc;
}

void ct_vtrig_thread_init(struct ct_vtrig_thread *s)
{
	memset(s, 0, sizeof(*s));
	s->off_d = CT_DEPTH_NONE;
	s->on_d = CT_DEPTH_NONE;
}

void ct_vtrig_thread_free(struct ct_vtrig_thread *s)
{
	free(s->lim);
	ct_vtrig_thread_init(s);
}

bool ct_vtrig_enter(struct ct_vtrig_thread *s, const struct ct_vtrig *tr, uint32_t d, uint32_t sd)
{
	/* calls left by longjmp or unwinding: what they opened is over, as
	 * if they had returned */
	ct_vtrig_exit(s, d);
	/* as record's: trace_on's call shows, trace_off's does not (either
	 * form) */
	if (tr && tr->on)
		s->off = false;
	if (tr && tr->off)
		s->off = true;
	if (tr && tr->off_call && s->off_d == CT_DEPTH_NONE)
		s->off_d = d;
	bool off = (s->off || s->off_d != CT_DEPTH_NONE) && s->on_d == CT_DEPTH_NONE;
	bool out = off && !(tr && tr->on_call);
	if (!out && s->nlim && sd >= s->lim[s->nlim - 1].lim)
		out = true;
	if (tr && tr->on_call && s->on_d == CT_DEPTH_NONE)
		s->on_d = d;
	if (!out && tr && tr->depth) {
		uint32_t lim = sd + tr->depth;
		if (s->nlim && s->lim[s->nlim - 1].lim < lim)
			lim = s->lim[s->nlim - 1].lim; /* the smaller limit holds */
		if (s->nlim == s->limcap) {
			s->limcap = s->limcap ? 2 * s->limcap : 16;
			s->lim = xrealloc(s->lim, s->limcap * sizeof(*s->lim));
		}
		s->lim[s->nlim].d = d;
		s->lim[s->nlim++].lim = lim;
	}
	return out;
}

void ct_vtrig_exit(struct ct_vtrig_thread *s, uint32_t d)
{
	/* (>=: also what calls deeper left open, by longjmp or unwinding) */
	while (s->nlim && s->lim[s->nlim - 1].d >= d)
		s->nlim--;
	if (s->off_d != CT_DEPTH_NONE && s->off_d >= d)
		s->off_d = CT_DEPTH_NONE;
	if (s->on_d != CT_DEPTH_NONE && s->on_d >= d)
		s->on_d = CT_DEPTH_NONE;
}
