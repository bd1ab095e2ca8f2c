/* SPDX-License-Identifier: MIT */
/*
 * calltrace report's -f columns (uftrace report's field names) and
 * --task's table, one row per thread (doc/report.md): apart from the
 * aggregation and the usual table in report.c.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "report.h"

/* -f's names (uftrace report's), the text table's headings */
static const char *const field_names[RF_NUM] = {"total",     "total-avg", "total-min",
						"total-max", "self",      "self-avg",
						"self-min",  "self-max",  "call"};
static const char *const field_heads[RF_NUM] = {"Total time", "Total avg", "Total min",
						"Total max",  "Self time", "Self avg",
						"Self min",   "Self max",  "Calls"};
/* the usual columns, as -f names them */
static const enum rfield default_fields[] = {RF_TOTAL, RF_SELF, RF_CALL, RF_TAVG, RF_TMIN, RF_TMAX};

/* -f FIELD[,FIELD..]: "+FIELDS" adds to the usual columns, "none" shows
 * none, "all" every one; -1 on an unknown name */
int ct_report_parse_fields(struct report *r, const char *arg)
{
	r->fields_set = true;
	r->nfields = 0;
	if (!strcmp(arg, "none"))
		return 0;
	if (*arg == '+') {
		memcpy(r->fields, default_fields, sizeof(default_fields));
		r->nfields = sizeof(default_fields) / sizeof(default_fields[0]);
		arg++;
	}
	if (!strcmp(arg, "all")) {
		for (size_t i = 0; i < RF_NUM; i++)
			r->fields[i] = (enum rfield)i;
		r->nfields = RF_NUM;
		return 0;
	}
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		size_t k;
		for (k = 0; k < RF_NUM; k++)
			if (strlen(field_names[k]) == len && !strncmp(p, field_names[k], len))
				break;
		if (k == RF_NUM)
			return -1;
		bool dup = false;
		for (size_t i = 0; i < r->nfields; i++)
			dup |= r->fields[i] == (enum rfield)k;
		if (!dup)
			r->fields[r->nfields++] = (enum rfield)k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static uint64_t field_value(const struct ct_fstat *st, enum rfield f)
{
	switch (f) {
	case RF_TOTAL:
		return st->total;
	case RF_TAVG:
		return ct_avg(st);
	case RF_TMIN:
		return st->min;
	case RF_TMAX:
		return st->max;
	case RF_SELF:
		return st->self;
	case RF_SAVG:
		return st->calls ? st->self / st->calls : 0;
	case RF_SMIN:
		return st->smin;
	case RF_SMAX:
		return st->smax;
	case RF_CALL:
		return st->calls;
	}
	return 0;
}

/* the text table with -f's columns */
void ct_report_print_fields(struct report *r, const struct ct_thread *t, const uint32_t *rows,
			    size_t n, int pid)
{
	FILE *out = r->out;
	if (t)
		fprintf(out, "%s# thread %d%s%s (process %d)\n", r->first_table ? "" : "\n", t->tid,
			t->name ? " " : "", t->name ? ct_tx(t->name) : "", pid);
	for (size_t i = 0; i < r->nfields; i++)
		fprintf(out, "  %10s", field_heads[r->fields[i]]);
	fputs(r->sampled ? "   Smp total    Smp self    Samples  Function" : "  Function", out);
	fputs(r->srcline ? " [Source]\n" : "\n", out);
	for (size_t i = 0; i < r->nfields; i++)
		fputs("  ==========", out);
	fputs(r->sampled ? "  ==========  ==========  =========  ====================\n"
			 : "  ====================\n",
	      out);
	bool marked = false, times = false; /* marks only beside a time */
	for (size_t k = 0; k < r->nfields; k++)
		times |= r->fields[k] != RF_CALL;
	for (size_t i = 0; i < n; i++) {
		const struct ct_fstat *st = &r->stats[rows[i]];
		char b[64];
		for (size_t k = 0; k < r->nfields; k++) {
			uint64_t v = field_value(st, r->fields[k]);
			if (r->fields[k] == RF_CALL)
				fprintf(out, "  %10llu", (unsigned long long)v);
			else
				fprintf(out, "  %s", ct_format_duration(v, b, sizeof(b)));
		}
		if (r->sampled) {
			char sb[2][64];
			fprintf(out, "  %s  %s  %9llu",
				ct_format_duration(st->stotal_ns, sb[0], sizeof(sb[0])),
				ct_format_duration(st->sself_ns, sb[1], sizeof(sb[1])),
				(unsigned long long)st->sself);
		}
		bool mark = times && mostly_cost(st);
		marked |= mark;
		fprintf(out, "  %s%s%s\n", ct_tx(r->names.v[rows[i]]),
			ct_report_src_note(r, rows[i]), mark ? COST_MARK : "");
	}
	if (marked)
		fputs(COST_LEGEND, out);
}

/* --task: the thread's row from what was gathered for it */
void ct_report_task_row(struct report *r, const struct ct_thread *t)
{
	struct task_row w = {.pid = t->proc ? t->proc->pid : 0,
			     .tid = t->tid,
			     .name = ct_thread_name(t)};
	for (size_t i = 0; i < r->names.n; i++) {
		w.calls += r->stats[i].calls;
		w.self += r->stats[i].self; /* the calls' self times cover its calls' time */
	}
	w.total = w.self;
	r->tasks = xrealloc(r->tasks, (r->ntasks + 1) * sizeof(*r->tasks));
	r->tasks[r->ntasks++] = w;
	if (r->names.n)
		memset(r->stats, 0, r->names.n * sizeof(*r->stats));
}

static int cmp_tasks(const void *a, const void *b)
{
	const struct task_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* --task: one row per thread, as uftrace report --task */
void ct_report_print_tasks(struct report *r)
{
	FILE *out = r->out;
	ct_qsort(r->tasks, r->ntasks, sizeof(*r->tasks), cmp_tasks);
	size_t n = r->limit && r->ntasks > r->limit ? r->limit : r->ntasks;
	switch (r->fmt) {
	case FMT_TEXT:
		fputs("  Total time   Self time   Num funcs       TID  Task name\n"
		      "  ==========  ==========  ==========  ========  ================\n",
		      out);
		for (size_t i = 0; i < n; i++) {
			const struct task_row *w = &r->tasks[i];
			char b[2][64];
			fprintf(out, "  %s  %s  %10llu  %8d  %s\n",
				ct_format_duration(w->total, b[0], sizeof(b[0])),
				ct_format_duration(w->self, b[1], sizeof(b[1])),
				(unsigned long long)w->calls, w->tid, ct_tx(w->name));
		}
		break;
	case FMT_CSV:
		fputs("pid,tid,task,calls,total_ns,self_ns\n", out);
		for (size_t i = 0; i < n; i++) {
			const struct task_row *w = &r->tasks[i];
			fprintf(out, "%d,%d,", w->pid, w->tid);
			ct_csv_string(out, w->name);
			fprintf(out, ",%llu,%llu,%llu\n", (unsigned long long)w->calls,
				(unsigned long long)w->total, (unsigned long long)w->self);
		}
		break;
	case FMT_JSON:
		fputs("{\"tasks\":[", out);
		for (size_t i = 0; i < n; i++) {
			const struct task_row *w = &r->tasks[i];
			fprintf(out, "%s\n{\"pid\":%d,\"tid\":%d,\"name\":", i ? "," : "", w->pid,
				w->tid);
			ct_json_string(out, w->name);
			fprintf(out, ",\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu}",
				(unsigned long long)w->calls, (unsigned long long)w->total,
				(unsigned long long)w->self);
		}
		fputs("]", out); /* closed by end(), after the tracer's cost */
		break;
	}
}
