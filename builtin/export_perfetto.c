/* SPDX-License-Identifier: MIT */
/*
 * calltrace export --format=perfetto: Perfetto's native trace format, a
 * protobuf `Trace` message (repeated TracePacket packet = 1), written one
 * packet at a time with lib/view/protobuf.c.  The field numbers are those of
 * Perfetto's public protos (protos/perfetto/trace/trace_packet.proto,
 * track_event/track_event.proto, track_event/track_descriptor.proto,
 * track_event/process_descriptor.proto, track_event/thread_descriptor.proto,
 * interned_data/interned_data.proto); tests/e2e/perfetto.proto is the
 * subset used here.
 *
 * The trace holds:
 *   - on sequence 1, one TrackDescriptor per process (uuid, ProcessDescriptor
 *     with pid, cmdline and process_name) and per thread (uuid, parent_uuid =
 *     its process's track, ThreadDescriptor with pid, tid, thread_name);
 *   - per thread of the recording, a sequence of its own
 *     (trusted_packet_sequence_id 2, 3, ...): one TracePacket per slice begin
 *     and end (TrackEvent TYPE_SLICE_BEGIN / TYPE_SLICE_END on the thread's
 *     track), timestamps in ns since the start of the recording.  A begin
 *     names its function by name_iid; the name itself is sent once per
 *     sequence, in the InternedData (event_names) of the first packet that
 *     uses it.  The first packet of a sequence says
 *     SEQ_INCREMENTAL_STATE_CLEARED, the later ones
 *     SEQ_NEEDS_INCREMENTAL_STATE.
 * A slice that ends in an exit the program never made (unwound by longjmp
 * or an exception, or still open at the end) or that -r cut carries debug
 * annotations "end" and "clipped", and a call whose arguments or return
 * value were captured (record -A/-R/-a) "arguments" on its begin and
 * "return" on its end: the same names and text as the chrome format's args.
 *
 * Clocks: when the recording has the system clocks read at a process's
 * start (the .proc "clock" line), timestamps are CLOCK_MONOTONIC ns (each
 * sequence's first packet says so in its TracePacketDefaults), and a
 * ClockSnapshot on sequence 1 gives CLOCK_MONOTONIC and CLOCK_REALTIME at
 * the start of the recording, with MONOTONIC as the trace's clock: the
 * trace can be aligned with a system trace of the same boot.  Without
 * them, ns since the start of the recording, in the default clock.
 *
 * Memory: one packet buffer, the stack of open calls of the thread being
 * written, and one iid per distinct function name (iids are the names' ids
 * for the whole trace; per sequence, only which were sent is kept).
 *
 * -r START~END: a call [start, end) is exported iff it overlaps [lo, hi)
 * (as in export.c), from max(start, lo) to min(end, hi).  A call that
 * started before lo is known to overlap only once the thread's clock
 * passes lo; until then its begin is held back ("pending"), and written
 * (at lo) before anything later, so that begins and ends still nest.
 */
#include "builtin/export_perfetto.h"

#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "output.h"
#include "protobuf.h"
#include "srcline.h"
#include "util.h"

/* field numbers (Perfetto's protos) */
enum {
	TRACE_PACKET = 1, /* Trace */

	TP_CLOCK_SNAPSHOT = 6, /* TracePacket */
	TP_TIMESTAMP = 8,
	TP_SEQUENCE_ID = 10,
	TP_TRACK_EVENT = 11,
	TP_INTERNED_DATA = 12,
	TP_SEQUENCE_FLAGS = 13,
	TP_TRACE_PACKET_DEFAULTS = 59,
	TP_TRACK_DESCRIPTOR = 60,
	TP_FIRST_PACKET_ON_SEQUENCE = 87,

	TE_DEBUG_ANNOTATIONS = 4, /* TrackEvent */
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,
	TE_NAME = 23,

	TPD_TIMESTAMP_CLOCK_ID = 58, /* TracePacketDefaults */

	CS_CLOCKS = 1, /* ClockSnapshot */
	CS_PRIMARY_TRACE_CLOCK = 2,
	CSC_CLOCK_ID = 1, /* ClockSnapshot.Clock */
	CSC_TIMESTAMP = 2,

	DA_UINT_VALUE = 3, /* DebugAnnotation */
	DA_STRING_VALUE = 6,
	DA_NAME = 10,

	TD_UUID = 1, /* TrackDescriptor */
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_THREAD = 4,
	TD_PARENT_UUID = 5,

	PD_PID = 1, /* ProcessDescriptor */
	PD_CMDLINE = 2,
	PD_PROCESS_NAME = 6,

	THD_PID = 1, /* ThreadDescriptor */
	THD_TID = 2,
	THD_THREAD_NAME = 5,

	ID_EVENT_NAMES = 2, /* InternedData */
	EN_IID = 1,         /* EventName */
	EN_NAME = 2,
};

enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
enum { CLOCK_REALTIME_ID = 1, CLOCK_MONOTONIC_ID = 3 }; /* BuiltinClocks */
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };

#define DESCRIPTOR_SEQ 1

/* an open call of the current thread */
enum { F_BEGUN, F_PENDING, F_SKIP };
struct pf_frame {
	uint64_t start;
	const struct ct_callargs *args; /* captured at the entry, or NULL */
	uint64_t site;                  /* its call site (record --callsite), or 0 */
	uint32_t name;
	uint8_t state; /* F_BEGUN: its begin is written; F_PENDING: it started
			* at or before lo and may yet overlap the range (begin
			* held back); F_SKIP: it started at or after hi */
};

struct ct_perfetto {
	FILE *out;
	struct ct_session *s;
	uint64_t lo, hi;
	struct ct_pb buf; /* packets not yet written */

	struct ct_names names; /* function names; iid = id + 1 */
	uint32_t *sent;        /* by name id: the sequence it was last sent on */
	size_t capsent;

	struct ct_u64map threads; /* (pid << 32 | tid) -> thread track uuid */
	uint32_t nextseq;
	bool mono;          /* timestamps are CLOCK_MONOTONIC ns: ns + base_mono */
	uint64_t base_mono; /* CLOCK_MONOTONIC at the start of the recording */

	/* the thread being written */
	struct ct_thread *t;
	uint32_t seq;
	bool first;
	uint64_t track;
	uint64_t now;  /* its clock: the latest event time seen */
	uint64_t last; /* the latest timestamp written on its sequence */
	struct pf_frame *stack;
	size_t depth, cap;
	size_t npending;
};

static uint64_t thread_key(int pid, int tid)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
}

/* packets are built one after the other in pf->buf, written out when it
 * holds FLUSH_AT bytes */
#define FLUSH_AT (1 << 16)

static size_t packet_begin(struct ct_perfetto *pf)
{
	return ct_pb_begin(&pf->buf, TRACE_PACKET);
}

static void packet_end(struct ct_perfetto *pf, size_t mark)
{
	ct_pb_end(&pf->buf, mark);
	if (pf->buf.len >= FLUSH_AT)
		ct_pb_flush(&pf->buf, pf->out);
}

/* ---- descriptors ------------------------------------------------------ */

/* start a packet on the descriptors' sequence; its mark */
static size_t descriptor_packet(struct ct_perfetto *pf, bool first)
{
	size_t mark = packet_begin(pf);
	ct_pb_uint(&pf->buf, TP_SEQUENCE_ID, DESCRIPTOR_SEQ);
	if (first) {
		ct_pb_uint(&pf->buf, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
		ct_pb_uint(&pf->buf, TP_FIRST_PACKET_ON_SEQUENCE, 1);
	}
	return mark;
}

/* a track descriptor: its packet on the descriptors' sequence (*first:
 * the sequence's first, then no longer) and its uuid; track_end ends it */
struct track {
	size_t pkt, td; /* the packet's and the descriptor's marks */
};

static struct track track_begin(struct ct_perfetto *pf, bool *first, uint64_t uuid)
{
	struct track k;
	k.pkt = descriptor_packet(pf, *first);
	*first = false;
	k.td = ct_pb_begin(&pf->buf, TP_TRACK_DESCRIPTOR);
	ct_pb_uint(&pf->buf, TD_UUID, uuid);
	return k;
}

static void track_end(struct ct_perfetto *pf, struct track k)
{
	ct_pb_end(&pf->buf, k.td);
	packet_end(pf, k.pkt);
}

/* some thread of p is exported */
static bool proc_wanted(const struct ct_session *s, const struct ct_proc *p, const bool *want)
{
	for (size_t j = 0; j < s->nthreads; j++)
		if (s->threads[j]->proc == p && (!want || want[s->threads[j]->index]))
			return true;
	return false;
}

/* the system clocks at the start of the recording, from the first
 * process that has them: the first packet of sequence 1 */
static bool write_clock_snapshot(struct ct_perfetto *pf)
{
	struct ct_session *s = pf->s;
	struct ct_proc *p = NULL;
	for (size_t i = 0; i < s->nprocs && !p; i++)
		if (s->procs[i]->clock_ref)
			p = s->procs[i];
	if (!p)
		return false;
	uint64_t since = ct_session_ns(s, p->start_clock);
	if (p->start_mono < since || p->start_real < since)
		return false;
	pf->mono = true;
	pf->base_mono = p->start_mono - since;
	struct ct_pb *b = &pf->buf;
	size_t pkt = descriptor_packet(pf, true);
	size_t cs = ct_pb_begin(b, TP_CLOCK_SNAPSHOT);
	static const int ids[2] = {CLOCK_MONOTONIC_ID, CLOCK_REALTIME_ID};
	for (int k = 0; k < 2; k++) {
		size_t c = ct_pb_begin(b, CS_CLOCKS);
		ct_pb_uint(b, CSC_CLOCK_ID, (uint64_t)ids[k]);
		ct_pb_uint(b, CSC_TIMESTAMP, (k ? p->start_real : p->start_mono) - since);
		ct_pb_end(b, c);
	}
	ct_pb_uint(b, CS_PRIMARY_TRACE_CLOCK, CLOCK_MONOTONIC_ID);
	ct_pb_end(b, cs);
	packet_end(pf, pkt);
	return true;
}

static void write_descriptors(struct ct_perfetto *pf, const bool *want, const char *note)
{
	struct ct_session *s = pf->s;
	struct ct_pb *b = &pf->buf;
	struct ct_u64map procs; /* pid -> process track uuid */
	ct_u64map_init(&procs);
	uint64_t uuid = 0;
	bool first = !write_clock_snapshot(pf);

	for (size_t i = 0; i < s->nprocs; i++) {
		struct ct_proc *p = s->procs[i];
		if (!proc_wanted(s, p, want))
			continue;
		/* after an exec, the same pid: named after its last image */
		bool later = false;
		for (size_t j = i + 1; j < s->nprocs && !later; j++)
			later = s->procs[j]->pid == p->pid && proc_wanted(s, s->procs[j], want);
		if (later)
			continue;
		*ct_u64map_slot(&procs, (uint32_t)p->pid) = (void *)(uintptr_t)++uuid;
		struct track tk = track_begin(pf, &first, uuid);
		size_t pd = ct_pb_begin(b, TD_PROCESS);
		ct_pb_int(b, PD_PID, p->pid);
		for (int k = 0; k < p->argc && p->argv && p->argv[k]; k++)
			ct_pb_string(b, PD_CMDLINE, p->argv[k]);
		ct_pb_string(b, PD_PROCESS_NAME, ct_basename(p->exe));
		ct_pb_end(b, pd);
		track_end(pf, tk);
	}
	/* the earlier images of a pid share its process track, and a thread
	 * that is in several of them (the one that exec'd) has one track */
	for (size_t j = 0; j < s->nthreads; j++) {
		struct ct_thread *t = s->threads[j];
		if (want && !want[t->index])
			continue;
		int pid = t->proc ? t->proc->pid : 0;
		void **slot = ct_u64map_slot(&pf->threads, thread_key(pid, t->tid));
		if (*slot)
			continue;
		*slot = (void *)(uintptr_t)++uuid;
		uintptr_t parent = t->proc ? (uintptr_t)ct_u64map_get(&procs, (uint32_t)pid) : 0;
		char name[300];
		ct_thread_label(t, name, sizeof(name));
		struct track tk = track_begin(pf, &first, uuid);
		if (parent)
			ct_pb_uint(b, TD_PARENT_UUID, parent);
		size_t thd = ct_pb_begin(b, TD_THREAD);
		ct_pb_int(b, THD_PID, pid);
		ct_pb_int(b, THD_TID, t->tid);
		ct_pb_string(b, THD_THREAD_NAME, name);
		ct_pb_end(b, thd);
		track_end(pf, tk);
	}
	/* which times these are: a global track named so, which
	 * trace_processor keeps in its track table and the UI lists */
	if (note) {
		char *name = xasprintf("calltrace: %s", note);
		struct track tk = track_begin(pf, &first, ++uuid);
		ct_pb_string(b, TD_NAME, name);
		track_end(pf, tk);
		free(name);
	}
	ct_u64map_free(&procs);
}

struct ct_perfetto *ct_perfetto_start(FILE *out, struct ct_session *s, const bool *want,
				      uint64_t lo, uint64_t hi, const char *note)
{
	struct ct_perfetto *pf = xcalloc(1, sizeof(*pf));
	pf->out = out;
	pf->s = s;
	pf->lo = lo;
	pf->hi = hi;
	ct_pb_init(&pf->buf);
	ct_names_init(&pf->names);
	ct_u64map_init(&pf->threads);
	pf->nextseq = DESCRIPTOR_SEQ + 1;
	write_descriptors(pf, want, note);
	return pf;
}

/* ---- slices ----------------------------------------------------------- */

/* start a TrackEvent packet at ts on the current sequence: *pkt is the
 * mark of the packet (for packet_end), the mark of the TrackEvent (for
 * ct_pb_end) is returned */
static size_t event_packet(struct ct_perfetto *pf, size_t *pkt, uint64_t ts, int type, int64_t name)
{
	struct ct_pb *b = &pf->buf;
	if (ts < pf->last)
		ts = pf->last;
	pf->last = ts;
	*pkt = packet_begin(pf);
	ct_pb_uint(b, TP_TIMESTAMP, pf->mono ? ts + pf->base_mono : ts);
	ct_pb_uint(b, TP_SEQUENCE_ID, pf->seq);
	if (pf->first) {
		ct_pb_uint(b, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
		ct_pb_uint(b, TP_FIRST_PACKET_ON_SEQUENCE, 1);
		if (pf->mono) {
			size_t d = ct_pb_begin(b, TP_TRACE_PACKET_DEFAULTS);
			ct_pb_uint(b, TPD_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC_ID);
			ct_pb_end(b, d);
		}
		pf->first = false;
	} else {
		ct_pb_uint(b, TP_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	}
	if (name >= 0 && pf->sent[name] != pf->seq) {
		/* the name's first use on this sequence: intern it */
		pf->sent[name] = pf->seq;
		size_t id = ct_pb_begin(b, TP_INTERNED_DATA);
		size_t en = ct_pb_begin(b, ID_EVENT_NAMES);
		ct_pb_uint(b, EN_IID, (uint64_t)name + 1);
		ct_pb_string(b, EN_NAME, pf->names.v[name]);
		ct_pb_end(b, en);
		ct_pb_end(b, id);
	}
	size_t te = ct_pb_begin(b, TP_TRACK_EVENT);
	ct_pb_uint(b, TE_TYPE, (uint64_t)type);
	ct_pb_uint(b, TE_TRACK_UUID, pf->track);
	if (name >= 0)
		ct_pb_uint(b, TE_NAME_IID, (uint64_t)name + 1);
	return te;
}

static void annotation(struct ct_pb *b, const char *name, const char *value)
{
	size_t da = ct_pb_begin(b, TE_DEBUG_ANNOTATIONS);
	ct_pb_string(b, DA_NAME, name);
	ct_pb_string(b, DA_STRING_VALUE, value);
	ct_pb_end(b, da);
}

static void uint_annotation(struct ct_pb *b, const char *name, uint64_t value)
{
	size_t da = ct_pb_begin(b, TE_DEBUG_ANNOTATIONS);
	ct_pb_string(b, DA_NAME, name);
	ct_pb_uint(b, DA_UINT_VALUE, value);
	ct_pb_end(b, da);
}

/* "arguments" or "return": a call's captured values, as text */
static void args_annotation(struct ct_perfetto *pf, const struct ct_callargs *a, bool ret)
{
	char text[1024];
	if (!a || !(ret ? a->has_ret : a->has_args) || !pf->t)
		return;
	ct_event_args_text(pf->s, pf->t->proc, a, ret, text, sizeof(text));
	if (ret && !*text)
		return;
	annotation(&pf->buf, ret ? "return" : "arguments", text);
}

static void write_begin(struct ct_perfetto *pf, struct pf_frame *f)
{
	uint64_t ts = f->start > pf->lo ? f->start : pf->lo;
	size_t pkt, te = event_packet(pf, &pkt, ts, TYPE_SLICE_BEGIN, f->name);
	args_annotation(pf, f->args, false);
	f->args = NULL;       /* not needed any more (and not kept alive) */
	if (f->site && pf->t) /* record --callsite (lib/read/srcline.h) */
		annotation(&pf->buf, "callsite",
			   ct_srcline_site_or_addr(pf->s, pf->t->proc, f->site));
	ct_pb_end(&pf->buf, te);
	packet_end(pf, pkt);
	f->state = F_BEGUN;
}

/* end at time end (not yet clipped); flags and captured values of the
 * exit event; times its time and self time as report counts them (NULL:
 * none, a call the reader did not close) */
static void write_end(struct ct_perfetto *pf, const struct pf_frame *f, uint64_t end,
		      unsigned flags, const struct ct_callargs *args, const uint64_t *times)
{
	bool cut_start = f->start<pf->lo, cut_end = end> pf->hi;
	size_t pkt, te = event_packet(pf, &pkt, cut_end ? pf->hi : end, TYPE_SLICE_END, -1);
	if (times) {
		uint_annotation(&pf->buf, "time_ns", times[0]);
		uint_annotation(&pf->buf, "self_ns", times[1]);
	}
	if (flags & CT_EVF_UNFINISHED)
		annotation(&pf->buf, "end", "unfinished");
	else if (flags & CT_EVF_SYNTHETIC)
		annotation(&pf->buf, "end", "unwound");
	if (cut_start || cut_end)
		annotation(&pf->buf, "clipped",
			   cut_start && cut_end ? "both"
			   : cut_start          ? "start"
						: "end");
	if (!(flags & (CT_EVF_UNFINISHED | CT_EVF_SYNTHETIC)))
		args_annotation(pf, args, true);
	ct_pb_end(&pf->buf, te);
	packet_end(pf, pkt);
}

/* the thread's clock passed lo: the calls held back overlap the range */
static void flush_pending(struct ct_perfetto *pf)
{
	for (size_t i = 0; i < pf->depth && pf->npending; i++) {
		if (pf->stack[i].state == F_PENDING) {
			write_begin(pf, &pf->stack[i]);
			pf->npending--;
		}
	}
}

/* the end of the current thread's events: what is still open (only after
 * a read error: the reader closes every call) ends now */
static void end_thread(struct ct_perfetto *pf)
{
	while (pf->depth) {
		struct pf_frame *f = &pf->stack[--pf->depth];
		if (f->state == F_BEGUN)
			write_end(pf, f, pf->now, CT_EVF_UNFINISHED, NULL, NULL);
	}
	pf->npending = 0;
	pf->t = NULL;
}

static void start_thread(struct ct_perfetto *pf, struct ct_thread *t)
{
	end_thread(pf);
	pf->t = t;
	pf->seq = pf->nextseq++;
	pf->first = true;
	pf->now = pf->last = 0;
	int pid = t->proc ? t->proc->pid : 0;
	pf->track = (uintptr_t)ct_u64map_get(&pf->threads, thread_key(pid, t->tid));
}

static uint32_t name_id(struct ct_perfetto *pf, struct ct_func *fn)
{
	if (fn->user < 0) {
		fn->user = ct_names_intern(&pf->names, fn->name);
		if (pf->names.cap > pf->capsent) {
			size_t old = pf->capsent;
			pf->capsent = pf->names.cap;
			pf->sent = xrealloc(pf->sent, pf->capsent * sizeof(*pf->sent));
			memset(pf->sent + old, 0, (pf->capsent - old) * sizeof(*pf->sent));
		}
	}
	return (uint32_t)fn->user;
}

void ct_perfetto_event(struct ct_perfetto *pf, const struct ct_fevent *fe, uint64_t time,
		       uint64_t self)
{
	const struct ct_event *ev = &fe->ev;
	if (ev->thread != pf->t)
		start_thread(pf, ev->thread);
	/* the thread's clock, never going back */
	uint64_t t = ev->time > pf->now ? ev->time : pf->now;
	pf->now = t;
	if (t > pf->lo && pf->npending)
		flush_pending(pf);

	if (ev->kind == CT_MARK) { /* calltrace_mark(): an instant event */
		if (t < pf->lo || t >= pf->hi)
			return;
		size_t pkt, te = event_packet(pf, &pkt, t, TYPE_INSTANT, -1);
		ct_pb_string(&pf->buf, TE_NAME, ct_tx((const char *)(uintptr_t)ev->addr));
		ct_pb_end(&pf->buf, te);
		packet_end(pf, pkt);
		return;
	}
	if (ev->kind == CT_ENTER) {
		CT_GROW(pf->stack, pf->depth, pf->cap);
		struct pf_frame *f = &pf->stack[pf->depth++];
		f->start = t;
		f->name = name_id(pf, fe->fn);
		f->args = ev->args;
		f->site = ev->site;
		if (t >= pf->hi) {
			f->state = F_SKIP;
		} else if (t <= pf->lo) {
			f->state = F_PENDING;
			pf->npending++;
		} else {
			write_begin(pf, f);
		}
		return;
	}
	if (!pf->depth)
		return;
	struct pf_frame *f = &pf->stack[--pf->depth];
	if (f->state == F_PENDING) {
		/* it ended at or before lo (else flush_pending begun it): it
		 * overlaps the range only as a call of no duration at lo */
		pf->npending--;
		if (f->start < pf->lo)
			return;
		write_begin(pf, f);
	}
	if (f->state == F_BEGUN)
		write_end(pf, f, t, ev->flags, ev->args, (const uint64_t[]){time, self});
}

void ct_perfetto_finish(struct ct_perfetto *pf)
{
	if (!pf)
		return;
	end_thread(pf);
	ct_pb_flush(&pf->buf, pf->out);
	ct_pb_free(&pf->buf);
	ct_names_free(&pf->names);
	ct_u64map_free(&pf->threads);
	free(pf->sent);
	free(pf->stack);
	free(pf);
}
