/* SPDX-License-Identifier: MIT */
/* The views' scaffold: shared options, open, read each thread, end; see view.h. */
#include "view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "counts.h"
#include "message.h"
#include "pager.h"
#include "sizefilt.h"
#include "util.h"

void ct_view_usage(const struct ct_view *v, FILE *f)
{
	fputs(v->head, f);
	ct_opt_usage(v->opts, f);
	if (v->tail)
		fputs(v->tail, f);
}

int ct_view_option(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *err)
{
	struct ct_view *v = ctx;
	int c = o->val;
	switch (c) {
	case 'd':
		v->dir = arg;
		return 0;
	case CT_OPT_TID:
		if (ct_parse_tid_list(arg, &v->tids, &v->ntids) < 0) {
			ct_set_err(err, "--tid: bad thread list '%s'", arg);
			return -1;
		}
		return 0;
	case CT_OPT_PER_THREAD:
		v->per_thread = true;
		return 0;
	case 'F':
	case 'N':
	case 'L':
	case 'C':
	case 'D':
	case 't':
	case 'T':
	case 'Z':
		return ct_filter_option(&v->filt, c, arg, err);
	case 'r':
		if (v->own_range && v->option)
			return v->option(v, c, arg, err);
		return ct_filter_option(&v->filt, c, arg, err);
	case CT_OPT_HIDE:
		return ct_filter_option(&v->filt, 'H', arg, err);
	case CT_OPT_NO_LIBCALL:
		v->filt.no_libcall = true;
		return 0;
	case CT_OPT_NO_DEMANGLE:
		v->demangle = CT_DEMANGLE_NO;
		return 0;
	case CT_OPT_DEMANGLE_MODE: {
		int m = ct_demangle_mode_of(arg);
		if (m < 0) {
			ct_set_err(err, "--demangle: want full, simple or no, not '%s'", arg);
			return -1;
		}
		v->demangle = (enum ct_demangle_mode)m;
		return 0;
	}
	case CT_OPT_WITH_SYMS:
		v->with_syms = arg;
		return 0;
	case 'v':
		v->verbose = true;
		return 0;
	case CT_OPT_NO_PAGER:
		v->no_pager = true;
		return 0;
	case CT_OPT_COLOR: {
		int w = ct_color_when_of(arg);
		if (w < 0) {
			ct_set_err(err, "--color: want auto, always or never, not '%s'", arg);
			return -1;
		}
		v->color_when = w;
		return 0;
	}
	case CT_OPT_RAW:
		v->raw = true;
		return 0;
	}
	if (c >= CT_OPT_SETS) {
		*(bool *)((char *)v->ctx + (c - CT_OPT_SETS)) = true;
		return 0;
	}
	if (v->option)
		return v->option(v, c, arg, err);
	ct_set_err(err, "unknown option '--%s'", o->name); /* (not reached) */
	return -1;
}

void ct_view_options_init(struct ct_view *v)
{
	v->dir = "calltrace.data";
	v->demangle = CT_DEMANGLE_FULL;
	v->color_when = CT_COLOR_AUTO;
	ct_filter_init(&v->filt, NULL);
}

int ct_view_parse(struct ct_view *v, int argc, char **argv)
{
	struct ct_opt_table t = {v->opts, ct_view_option, v};
	struct ct_opt_cmd c = {.head = v->head, .tail = v->tail, .tabs = &t, .ntabs = 1};

	struct ct_error err;
	ct_view_options_init(v);
	int status = ct_opt_parse(&c, argc, argv, &err);
	if (status == 2)
		return ct_usage_error("%s", err.msg);
	if (status == 1)
		return ct_error("%s", err.msg);
	if (status >= 0)
		return status;
	int next = c.next;
	if (v->takes_arg && next < argc)
		v->arg = argv[next++];
	if (next < argc)
		return ct_usage_error("unexpected argument '%s'", argv[next]);
	return -1;
}

/* does the view offer the option of code val? */
static bool offers(const struct ct_view *v, int val)
{
	for (const struct ct_opt *o = v->opts; o->name || o->help; o++)
		if (o->name && o->val == val)
			return true;
	return false;
}

int ct_view_start(struct ct_view *v, int argc, char **argv)
{
	int status = ct_view_parse(v, argc, argv);
	if (status < 0 && v->check && (status = v->check(v)) == 0)
		status = -1;
	if (status >= 0)
		return status;
	if (v->outbuf)
		setvbuf(stdout, v->outbuf, _IOFBF, v->outbuf_len);
	int o = ct_view_open(v);
	if (o)
		return o;
	bool to_stdout = !v->out_path && (!v->out || v->out == stdout);
	v->color = ct_color_on(v->color_when, to_stdout && isatty(1));
	struct ct_msgs warn = {0};
	if (to_stdout && !v->no_pager && offers(v, CT_OPT_NO_PAGER) && ct_pager_start(&warn)) {
		v->paged = true;
		/* the progress line would draw over the pager's screen */
		v->progress.on = false;
	}
	ct_msgs_flush(&warn);
	return -1;
}

int ct_view_choice(const char *opt, const char *arg, const char *const *names, size_t n,
		   const char *want, struct ct_error *err)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(arg, names[i]))
			return (int)i;
	ct_set_err(err, "%s: want %s, not '%s'", opt, want, arg);
	return -1;
}

int ct_view_open(struct ct_view *v)
{
	if (v->with_syms && ct_withsyms_check(v->with_syms, &v->err) < 0) {
		ct_error("%s", v->err.msg);
		return 2;
	}
	if (ct_session_open(&v->s, v->dir, &v->err) < 0)
		return ct_error("%s", v->err.msg);
	v->s->demangle = v->demangle;
	v->s->with_syms = v->with_syms;
	v->s->verbose = v->verbose;
	v->s->raw = v->raw;
	v->filt.s = v->s;
	v->counts = ct_counts_only(v->dir);
	if (v->counts && !v->counts_ok)
		return ct_error("%s holds call counts only (record --count): %s needs a full "
				"recording; report, callers, graph, coverage and export "
				"--format=folded or callgrind read counts",
				v->dir, ct_command() ? ct_command() : "this view");
	if (v->counts && ct_filter_active(&v->filt))
		return ct_error("%s holds call counts only (record --count): the filters "
				"(-F, -N, --hide, -D, -t, -r, -Z) need a full recording",
				v->dir);
	if (v->filt.min_size && ct_size_filter_check(v->s, &v->err) < 0) {
		/* one line: it says what the warning of the missing file would */
		ct_msgs_free(ct_session_warnings(v->s));
		ct_error("%s", v->err.msg);
		return 2;
	}
	if (v->filt.r_ranged && ct_range_resolve(&v->filt.r, v->s, v->filt.r_text, &v->err) < 0)
		return ct_usage_error("%s", v->err.msg);
	if (!v->counts) {
		struct ct_msgs msgs = {0};
		size_t missing;
		v->want = ct_select_threads(v->s, v->tids, v->ntids, &missing, &msgs);
		ct_msgs_flush(&msgs);
		if (missing)
			return 1; /* each named */
	}
	snprintf(v->what, sizeof(v->what), "calltrace %s", ct_command() ? ct_command() : "view");
	ct_progress_start(&v->progress, v->what, v->s->ev_bytes);
	return 0;
}

void ct_view_range_empty(const struct ct_view *v, const char *range)
{
	const struct ct_session *s = v->s;
	char span[64] = "";
	if (s->end_clock > s->start_clock) {
		char d[32];
		const char *e = ct_format_duration(ct_session_ns(s, s->end_clock), d, sizeof(d));
		while (*e == ' ')
			e++;
		snprintf(span, sizeof(span), " (the recording lasts %s)", e);
	}
	ct_error("-r %s: no call in the range%s", range ? range : "", span);
}

int ct_view_counts_load(struct ct_view *v, struct ct_counts *c)
{
	struct ct_msgs msgs = {0};
	int rc = ct_counts_load(v->s, v->tids, v->ntids, c, &msgs, &v->err);
	ct_msgs_flush(&msgs);
	return rc < 0 ? ct_error("%s", v->err.msg) : rc;
}

void ct_view_print_taken(uint64_t all, uint64_t over, bool blank, FILE *out)
{
	uint64_t taken = ct_view_taken(all, over);
	if (taken == all)
		return; /* (each one period, or a damaged count) */
	double w = (double)all / (double)taken;
	fprintf(out,
		"%s# taken: %llu of the samples, by the POSIX timer's clock at the kernel's tick, "
		"each standing for %.1f periods on average: a count's relative error is about "
		"1/sqrt(count/%.1f), not 1/sqrt(count)\n",
		blank ? "\n" : "", (unsigned long long)taken, w, w);
}

void ct_view_counts_lost(const struct ct_counts *c)
{
	struct ct_msgs warn = {0};
	ct_counts_warn_lost(c, &warn);
	ct_msgs_flush(&warn);
}

bool ct_view_wants(const struct ct_view *v, const struct ct_thread *t)
{
	return !v->want || v->want[t->index];
}

int ct_view_read_thread(struct ct_view *v, struct ct_thread *t, struct ct_filter_thread *ft,
			ct_filter_emit_fn emit, void *ctx)
{
	struct ct_filter_thread own;
	struct ct_stream *st;
	struct ct_event evs[256];
	int rc = 0;

	if (ct_stream_open(v->s, t, &st, &v->err) < 0)
		return -1;
	if (!ft) {
		ct_filter_thread_init(&own);
		ft = &own;
	}
	bool batch = v->unfiltered && !ct_filter_active(&v->filt);
	while (!(v->stop && *v->stop) && (rc = ct_stream_read(st, evs, 256, &v->err)) > 0) {
		ct_progress_update(&v->progress, v->s->bytes_read);
		if (batch) {
			v->unfiltered(ctx, t, evs, rc);
			continue;
		}
		if (v->prefilter)
			v->prefilter(ctx, t, evs, rc);
		for (int i = 0; i < rc; i++)
			ct_filter_push(&v->filt, ft, &evs[i], emit, ctx);
	}
	/* held entries first: they point to the stream's data */
	if (!batch)
		ct_filter_thread_end(&v->filt, ft, emit, ctx);
	if (v->thread_end)
		v->thread_end(ctx, t);
	struct ct_cost c;
	ct_stream_cost(st, &c);
	ct_cost_add(&v->cost, &c);
	uint64_t sa, so, sv, per = t->proc ? t->proc->sample_ns : 0;
	ct_stream_samples(st, &sa, &so, &sv);
	v->samples += sa;
	v->samples_over += sv;
	v->samples_out += so;
	v->samples_ns += sa * per;
	v->samples_out_ns += so * per;
	ct_stream_close(st);
	if (ft == &own)
		ct_filter_thread_free(&own);
	return rc < 0 ? -1 : 0;
}

int ct_view_read(struct ct_view *v, int (*fn)(void *ctx, struct ct_view *v, struct ct_thread *t),
		 void *ctx)
{
	int rc = 0;
	for (size_t i = 0; i < v->s->nthreads && rc == 0; i++) {
		struct ct_thread *t = v->s->threads[i];
		if (!ct_view_wants(v, t))
			continue;
		rc = fn(ctx, v, t);
		ct_progress_end(&v->progress);
	}
	return rc;
}

int ct_view_finish(struct ct_view *v, int rc, FILE *out, const char *path)
{
	int status = 0;
	/* a pager that was quit early (q) is no error */
	if (out && (fflush(out) != 0 || ferror(out)) && !(v->paged && out == stdout))
		status = ct_error("writing the output: %s", strerror(errno));
	if (path && fclose(out) != 0 && status == 0)
		status = ct_error("writing %s: %s", path, strerror(errno));
	if (rc < 0)
		return ct_error("%s", v->err.msg);
	struct ct_msgs warn = {0};
	ct_filter_warn_unused(&v->filt, &warn);
	ct_msgs_flush(&warn);
	if (!v->counts && ct_filter_caller_empty(&v->filt, &warn))
		status = 1;
	ct_msgs_flush(&warn);
	if (v->filt.r_ranged && !v->filt.r_kept && !v->counts) {
		ct_view_range_empty(v, v->filt.r_text);
		status = 1;
	}
	if (v->s->lost)
		ct_error("%llu events were lost while recording; %s",
			 (unsigned long long)v->s->lost,
			 v->lost_note ? v->lost_note : "times around them are wrong");
	return status;
}

void ct_view_close(struct ct_view *v)
{
	free(v->want);
	v->want = NULL;
	ct_filter_free(&v->filt);
	free(v->tids);
	v->tids = NULL;
	if (v->s) {
		ct_msgs_flush(ct_session_warnings(v->s));
		ct_session_close(v->s);
	}
	v->s = NULL;
	if (v->paged)
		ct_pager_end();
	v->paged = false;
}

int ct_view_run(struct ct_view *v, int argc, char **argv)
{
	int status = ct_view_start(v, argc, argv);
	if (status < 0 && v->begin && (status = v->begin(v->ctx, v)) == 0)
		status = -1;
	if (status < 0) {
		int rc = ct_view_read(v, v->read, v->ctx);
		status = v->end ? v->end(v->ctx, v, rc) : 0;
		if (ct_view_finish(v, rc, v->out ? v->out : stdout, v->out_path))
			status = 1;
	}
	ct_view_close(v);
	return status;
}
