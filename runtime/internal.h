/* SPDX-License-Identifier: MIT */
/*
 * libcalltrace.so internals.  The runtime depends on libc alone, is never
 * instrumented itself, and keeps everything but the hooks and the public
 * API hidden.
 */
#ifndef CT_RT_INTERNAL_H
#define CT_RT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch.h"
#include "args.h"
#include "calltrace/format.h"
#include "offsets.h"

#define CT_EXPORT __attribute__((visibility("default")))
#define CT_HIDDEN __attribute__((visibility("hidden")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

enum ct_rt_state { CT_RT_UNINIT = 0, CT_RT_INITIALIZING, CT_RT_ACTIVE, CT_RT_OFF };

/* a thread's state (struct ct_tstate's; count.c's counting threads too) */
enum ct_thread_state {
	CT_TS_NONE = 0, /* not set up: at its first traced call (again after
			 * its end, should a later destructor trace) */
	CT_TS_ACTIVE,   /* tracing: it has its ring (count.c: its table) */
	CT_TS_DONE,     /* never again: stopped, untraced, or no ring to be had */
};

/* one setjmp seen by this thread: where the shadow stack stood */
struct ct_jmp_note {
	void *env;
	uint32_t depth;
};
#define CT_JMP_NOTES 16

/* a shadow-stack entry: the function, and the stack pointer of its frame
 * when it called the entry hook (the hook's CFA), which orders frames */
struct ct_frame {
	uintptr_t fn;
	uintptr_t cfa;
	/* return-hooked front ends (runtime/hook.c): the original return
	 * address (0 for -finstrument-functions frames) and CT_FR_* flags;
	 * such a frame's return-address slot is at cfa - 8 */
	uintptr_t ret;
	uintptr_t flags;
};
#define CT_FR_HOOKED (1ul << 31) /* the slot holds the return trampoline */
#define CT_FR_ATRET (1ul << 32)  /* --inject or a limited --plugin acts at its return */
/* a read= trigger's call: its values are read at the entry and the exit
 * (readtrig.c; bit 33 is also the lowest of a parked hooked frame's
 * generation, hook.c: the exit looks the function's reads up) */
#define CT_FR_READ (1ul << 33)
/* record-time filters (filter.c): a frame pushed while filtering holds the
 * filter's state above it in bits 1..28 of its flags */
#define CT_FR_FILT (1ul << 28)  /* pushed by the filtering path */
#define CT_FR_NOREC (1ul << 27) /* not in the stream (no ENTER, no EXIT) */
#define CT_FR_NIN (1ul << 26)   /* inside a -N call */
#define CT_FR_FIN (1ul << 25)   /* inside a -F call (always, without -F) */
#define CT_FR_TOFF (1ul << 24)  /* inside a trace_off=call call */
#define CT_FR_TON (1ul << 23)   /* inside a trace_on=call call */
#define CT_FR_TP (1ul << 22)    /* triggers: its limits are in fl_tp[depth] */
#define CT_FR_SD_SHIFT 1        /* bits 1..21: the shown depth above it */
#define CT_FR_SD_MASK (((1ul << 21) - 1) << CT_FR_SD_SHIFT)
#define CT_FR_FSTATE (CT_FR_NIN | CT_FR_FIN | CT_FR_TOFF | CT_FR_TON | CT_FR_SD_MASK)
/* bit 0 of a -finstrument-functions frame left out (CT_FR_NOREC): with -t
 * alone, its ENTER is held back until the call proves long (then written,
 * and the bits cleared); with --hide, the function's hook calls are jumped
 * over (runtime/patch.c ct_patch_cyg_call).  (Hooked frames use bit 0 for
 * CT_ARGS_WANT_RET.) */
#define CT_FR_PEND 1ul
#define CT_PEND_NONE UINT32_MAX
#define CT_FR_FBITS (CT_FR_FILT | CT_FR_NOREC | CT_FR_TP | CT_FR_FSTATE)

/* -t: where a recorded call's records began, to take them back */
struct ct_tpend {
	uintptr_t pos;  /* the write position before them */
	uint64_t last;  /* the delta base then */
	uint64_t hi;    /* the address bits then */
	uint64_t seq;   /* the buffer they are in */
	uint64_t t0;    /* the call's entry */
	uint64_t epoch; /* t->fl_epoch then */
	uint64_t thr;   /* -t or time=: its threshold (0: none) */
	uint32_t lim;   /* triggers (CT_FR_TP): the shown depth it allows */
	uint32_t pad;
	uint64_t site; /* record --callsite: the call site of an entry held
			* back (ct_filt_hold_at), for its ENTER */
};

struct ct_hook_area; /* hook.c: nested-path frames and orphans */

/* per-thread state: initial-exec TLS, so the hooks reach it with one
 * %fs-relative access */
/* readtrig.c: a thread's hardware counters of one pmu- kind (read=) */
struct ct_read_pmu {
	bool open;   /* fd holds the thread's counters */
	bool failed; /* the kernel refused them to this thread */
	int fd[2];   /* leader, member */
	int tid;     /* the thread that opened them (a forked child's are its parent's) */
	uint64_t id; /* the leader's id: still ours? */
};

struct ct_tstate {
	uintptr_t cur;        /* next write position (reserved with one xadd)   */
	uintptr_t limit;      /* a record ending past here hands the buffer over */
	uint64_t last;        /* clock of the last delta-coded record            */
	uint64_t hi;          /* address bits 40..63 in effect                   */
	uint32_t busy;        /* hooks of this thread in progress (signals nest) */
	uint32_t depth;       /* open frames on the shadow stack                  */
	uint32_t cap;         /* shadow stack capacity; 0 = not set up           */
	uint32_t ndepth;      /* open frames recorded by the nested path          */
	struct ct_frame *stk; /* shadow stack                                   */
	uintptr_t stride;     /* bytes from one buffer to the next (with slack)    */
	uint64_t nested_lost;

	struct ct_ring_header *ring;
	char *bufs;
	size_t map_len;
	uint32_t slot;               /* buffer being written */
	uint32_t prev_slot;          /* the one before: still open while switching */
	uint32_t in_wait;            /* waiting for a free buffer, no switch half done */
	uint32_t dropping;           /* --drop: the ring is full, events are discarded  */
	uint32_t drop_d0, drop_dmin; /* depth when dropping began; lowest since */
	uintptr_t drop_pos;          /* where the kept data of the buffer ends          */
	uint64_t dropped;            /* events discarded since dropping began           */
	uint32_t resyncing;          /* writing the frames open after dropping: wait    */
	uint64_t seq;
	int tid;
	enum ct_thread_state state;
	struct ct_jmp_note jmp[CT_JMP_NOTES];
	uint32_t jmp_next;
	struct ct_hook_area *hook; /* hook.c, set up on first use */
	/* the trampolines' argument capture (arch/<arch>/tramp.S): the
	 * function looked up last (its address | ct_args_gen_key) and its
	 * recipe (struct ct_args_fast *, 0 when no spec names it) */
	uintptr_t args_fn;
	void *args_af;
	/* tracing of this thread stopped for good (enum ct_untraced + 1, 0 =
	 * no): it entered seccomp, lost its TSC, shares its state with a clone
	 * child.  busy then stays at CT_BUSY_OFF, so that every hook takes the
	 * nested path, which drops the event without reading the clock or
	 * making a system call (thread.c ct_thread_stop) */
	uint32_t off;
	/* record-time filters (filter.c) */
	struct ct_tpend *fl_tp; /* -t, by depth */
	uint32_t fl_tcap;
	uint64_t fl_epoch;    /* moves on when records that cannot be taken
				 * back were written (a signal handler's) */
	uint64_t fl_filtered; /* calls left out */
	uint64_t fl_thr;      /* the threshold ct_filt_enter found in force */
	uint32_t fl_lim;      /* the depth limit it found (triggers) */
	uint32_t fl_tb;       /* -t: records are being taken back: a signal
				 * handler's hooks drop their events (counted) */
	uint32_t fl_plo;      /* -t alone, -finstrument-functions: no frame
				 * below this one has its entry held back
				 * (CT_FR_PEND), or CT_PEND_NONE: none has.
				 * The held frames are the top ones from the
				 * lowest; the hooks' short path leaves this
				 * as it is when a held call returns */
	uint64_t fl_due;      /* the clock when the call of the lowest frame
				 * held back is TIME old (UINT64_MAX with
				 * CT_PEND_NONE): perhaps that of a call that
				 * returned since (cyg.c time_enter_due_rel) */
	uint32_t drop_r0;     /* --drop: recorded frames when dropping began */
	/* record --plugin (plugin.c): the selected calls open, by depth, and
	 * whether a callback of this thread runs (its calls are not traced) */
	struct ct_plug_frame *plug_fr;
	uint32_t plug_cap;
	uint32_t plug_in;
	/* record --callsite (callsite.c): the call site of the entry this
	 * thread's hook is making (busy held), for the paths that write its
	 * ENTER (ct_enter_slow) */
	uintptr_t cs_site;
	/* the return-address slot of the call a hooked entry is deciding
	 * on (hook.c enter_slow, with triggers; else NULL): the backtrace
	 * trigger's start when the unwinder cannot get past the trampoline
	 * of a library call */
	uintptr_t *bt_slot;
	/* record --sample (sample.c): this thread's CPU-time timer (the
	 * kernel's id) while sample_on is 1, its perf event's descriptor
	 * while 2; samples its handler could not write
	 * (the ring dropping or being taken back), added to the next one */
	int sample_timer;
	uint32_t sample_on;
	uint32_t sample_owed;
	/* the CPU (+ 1) whose calibration figures this thread's stream
	 * carries (calibrate.c ct_recalibrate); 0: the process's, measured
	 * at its start */
	uint32_t cal_cpu;
	/* the argument registers of the call a hooked entry is deciding on
	 * (hook.c enter_slow, with filters; else NULL): the conditions of
	 * -F/-N 'REGEX@if:...' read them */
	const struct ct_arch_regs *fl_regs;
	/* read= triggers (readtrig.c): the pmu- kinds' counters */
	struct ct_read_pmu rd_pmu[3];
	/* a record of several stores being written by the outer path
	 * (reserved, payload first, header last: ct_wr_begin/ct_wr_end), or
	 * 0: a signal handler that interrupts it and jumps out of the hook
	 * (siglongjmp) leaves it half written, a payload behind a zero
	 * header, which the jump's wrapper turns into padding */
	uintptr_t wr_p, wr_end;
	/* record -W cpu (watch.c): the CPU (+ 1) the stream stated last, 0:
	 * none yet; the thread's fl_filtered then */
	uint32_t w_cpu;
	uint64_t w_filt;
};

/* around a record written in several stores by the outer path (see
 * wr_p): the area is known before the first store and forgotten after
 * the last */
static inline __attribute__((always_inline)) void ct_wr_begin(struct ct_tstate *t, uintptr_t p,
							      uintptr_t n)
{
	t->wr_end = p + n;
	t->wr_p = p;
	__asm__ volatile("" ::: "memory");
}

static inline __attribute__((always_inline)) void ct_wr_end(struct ct_tstate *t)
{
	__asm__ volatile("" ::: "memory");
	t->wr_p = 0;
}
#define CT_BUSY_OFF (1u << 30)

extern __thread struct ct_tstate ct_self __attribute__((tls_model("initial-exec")));

/* process-wide settings, fixed at start-up */
struct ct_config {
	int state; /* enum ct_rt_state */
	bool use_tsc;
	bool linked; /* no `calltrace record`: own writer thread */
	bool drop;   /* drop events (counted) rather than wait */
	bool flight; /* record --flight: the ring is used circularly,
			       * never drained while the program runs */
	char dir[4096];
	char shm[4096];
	size_t buf_size;
	uint32_t nslots;
	int pid;
	int gen;
	int proc_fd; /* -1: the .proc file is procfile.c's held descriptor */
	uint64_t start_clock;
	struct ct_doorbell *doorbell; /* record mode: wakes the drainer */
	/* CLOCK_MONOTONIC may be read through the vDSO: set at start-up unless
	 * the TSC is disabled (PR_SET_TSC), which makes the vDSO fault too;
	 * until then, and without it, by system call */
	bool clock_vdso;
	/* the TSC is disabled in this process, which was forked by a thread
	 * that had it: the clock is CLOCK_MONOTONIC turned into TSC ticks with
	 * the rate measured before the TSC went away (clock.c), so that its
	 * times are on the recording's scale */
	bool tsc_synth;
	uint64_t synth_tsc0, synth_mono0, synth_mult; /* ticks per ns, 32.32 */
	/* a seccomp filter was installed on every thread (TSYNC): each thread
	 * stops at its next buffer switch, start or end, without a system call
	 * (enum ct_untraced + 1, 0 = no) */
	uint32_t stop_all;
};
extern struct ct_config ct_cfg CT_HIDDEN;

/* CLOCK_MONOTONIC in ns (stream.c; the rest of the clock is clock.c's) */
uint64_t ct_clock_mono(void) CT_HIDDEN;

static inline __attribute__((always_inline)) uint64_t ct_clock(void)
{
	if (likely(ct_cfg.use_tsc))
		return ct_arch_cycles();
	if (unlikely(ct_cfg.tsc_synth))
		return ct_cfg.synth_tsc0 +
		       (uint64_t)((unsigned __int128)(ct_clock_mono() - ct_cfg.synth_mono0) *
					  ct_cfg.synth_mult >>
				  32);
	return ct_clock_mono();
}

/* fds.c: a descriptor the runtime keeps, at a high number, whose identity
 * is checked before each use (the program may close it and reuse the number) */
struct ct_held_fd {
	int fd;
	bool gone; /* lost and not opened again: said once */
	dev_t dev;
	ino_t ino;
};
/* take fd (closed on failure) as the held descriptor: false if it is not a
 * regular file */
bool ct_fd_hold(struct ct_held_fd *h, int fd) CT_HIDDEN;
/* the descriptor if it still is that file (else opened again by its path,
 * which must be the same file), or -1 */
int ct_fd_get(struct ct_held_fd *h, const char *path) CT_HIDDEN;
void ct_fd_close(struct ct_held_fd *h) CT_HIDDEN; /* only if still ours */
void ct_fd_forget(struct ct_held_fd *h) CT_HIDDEN;

/* count something the runtime could not trace (the doorbell, for record) */
static inline void ct_untraced(enum ct_untraced why)
{
	if (ct_cfg.doorbell)
		__atomic_fetch_add(&ct_cfg.doorbell->untraced[why], 1, __ATOMIC_RELAXED);
}

/* cyg.c: the -finstrument-functions hooks (the compiler's names, declared
 * by no header) */
void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

/* thread.c: a thread's tracing state */
/* make this thread's ring (its first traced call) */
void ct_thread_start(struct ct_tstate *t) CT_HIDDEN;
/* thread_exit, the thread-specific key's destructor, set up at start-up;
 * a thread that traces sets its key (so that its end runs it) */
void ct_thread_key_init(void) CT_HIDDEN;
void ct_thread_key_set(void) CT_HIDDEN;
/* the thread ends (or forks away from its ring): hand over what is
 * written; unmap: let the ring, shadow stack and hook area go */
void ct_thread_release(struct ct_tstate *t, bool unmap) CT_HIDDEN;
/* this thread records no more (a forked child that cannot): hooked frames
 * get their return addresses back, its hooks return at once */
void ct_thread_untrace(struct ct_tstate *t) CT_HIDDEN;
/* stop tracing this thread for good: hand its ring over, give hooked frames
 * their return addresses back; its later hooks read no clock and make no
 * system call.  Counted as why. */
void ct_thread_stop(struct ct_tstate *t, enum ct_untraced why) CT_HIDDEN;
/* a forked child that could not start its own files: its thread's ring
 * was the parent's and is gone; it stops (counted as CT_UNTRACED_RING) */
void ct_thread_orphaned(struct ct_tstate *t) CT_HIDDEN;
/* stop this thread without a single system call (a filter is on it that
 * the runtime did not see coming: TSYNC): the ring is handed over by
 * stores, nothing is unmapped */
void ct_thread_stop_quiet(struct ct_tstate *t, enum ct_untraced why) CT_HIDDEN;
/* a stopped thread ends: what it kept (shadow stack, hook area) goes */
void ct_thread_stopped_exit(struct ct_tstate *t) CT_HIDDEN;
/* a thread created by a stopped one starts stopped (no clock, no ring) */
void ct_thread_born_off(struct ct_tstate *t, uint32_t off) CT_HIDDEN;
/* ct_buffer_full: is this still the task the state was made for?  A raw
 * clone child is set up here (true: the buffer is not ours to switch) */
bool ct_task_changed(struct ct_tstate *t) CT_HIDDEN;
/* a thread that got no ring: counted, said once per process */
void ct_ring_failed(struct ct_tstate *t, const char *what, const char *path, int err) CT_HIDDEN;

/* stream.c: writing the thread's records (outer path) */
/* is this thread recording?  sets it up on first use */
bool ct_thread_ready(struct ct_tstate *t) CT_HIDDEN;
/* a record of n words (header first), reserved at once; outer path only */
void ct_put_words(struct ct_tstate *t, const uint32_t *w, unsigned n) CT_HIDDEN;
void ct_put_time(struct ct_tstate *t, uint64_t now) CT_HIDDEN;
/* (site: the call site, for its CALLSITE record with --callsite; 0: none) */
void ct_put_enter(struct ct_tstate *t, uintptr_t fn, uint64_t when, uintptr_t site) CT_HIDDEN;
/* an EXIT record at now, leaving depth frames open (slow paths) */
void ct_put_exit(struct ct_tstate *t, uint64_t now, uint32_t depth) CT_HIDDEN;
/* a LOST record of n events */
void ct_put_lost(struct ct_tstate *t, uint64_t n) CT_HIDDEN;
/* a LOST record for the events the nested path dropped since the last one */
void ct_put_nested_lost(struct ct_tstate *t) CT_HIDDEN;
void ct_emit_unwind(struct ct_tstate *t, uint32_t n) CT_HIDDEN;
/* the calls open now in one FRAMES record (the innermost CT_FRAMES_MAX) */
void ct_put_frames(struct ct_tstate *t) CT_HIDDEN;
/* enter the frames stk[from..depth) again, at the current time */
void ct_reenter_frames(struct ct_tstate *t, uint32_t from) CT_HIDDEN;
/* shared with the register-seeing front ends (hook.c) */
void ct_enter_slow(struct ct_tstate *t, uintptr_t fn, uint64_t now, uintptr_t cfa) CT_HIDDEN;
/* watch.c: record -W cpu.  ct_watch_cpu turns ct_filt_on on (filter.c),
 * so that every recorded ENTER is written by ct_enter_slow, which states
 * the thread's CPU before it when it is not the one stated last */
extern bool ct_watch_cpu CT_HIDDEN;
void ct_watch_init(void) CT_HIDDEN;
void ct_watch_check(struct ct_tstate *t) CT_HIDDEN;
/* push a frame that writes no record (record-time filters) */
bool ct_push_quiet(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa, uintptr_t flags) CT_HIDDEN;
/* the shadow stack, twice as big (mapped on first use) */
void ct_grow_stack(struct ct_tstate *t) CT_HIDDEN;

/* nested.c: the nested path (a signal handler interrupted a hook) */
void ct_nested(struct ct_tstate *t, unsigned type, void *fn) CT_HIDDEN;
/* nested.c: a SAMPLE record of n samples at the current depth, from the
 * sampling timer's signal handler, whatever the thread was doing */
void ct_sample_put(struct ct_tstate *t, uint32_t n) CT_HIDDEN;

/* sample.c: record --sample.  The period (ns of a thread's CPU time; 0:
 * off), from $CALLTRACE_SAMPLE at start-up, and the signal */
extern uint64_t ct_sample_ns CT_HIDDEN;
extern int ct_sample_sig CT_HIDDEN;
extern bool ct_sample_perf CT_HIDDEN; /* perf events, else POSIX timers */
void ct_sample_init(void) CT_HIDDEN;
/* this thread's timer made and started (its ring was just made) */
void ct_sample_thread_start(struct ct_tstate *t) CT_HIDDEN;
/* ... and deleted (its ring is handed over; after a fork, forgotten: the
 * child has no timers) */
void ct_sample_thread_stop(struct ct_tstate *t) CT_HIDDEN;
void ct_sample_after_fork(struct ct_tstate *t) CT_HIDDEN;
void ct_nested_drop(struct ct_tstate *t) CT_HIDDEN;

/* stream.c: the current buffer is full (a record ended past its nominal
 * size): hand it over and go on in the next one */
void ct_buffer_full(struct ct_tstate *t) CT_HIDDEN;
/* the drainer's doorbell (record mode), and waits on a futex word */
void ct_ring_doorbell(void) CT_HIDDEN;
void ct_futex_wait(uint32_t *addr, uint32_t val, long timeout_ns) CT_HIDDEN;
void ct_futex_wake(uint32_t *addr) CT_HIDDEN;

/* fork.c: a new process that shares nothing with its parent but copies of
 * memory (fork, clone without CLONE_VM): its own .proc file and rings */
void ct_process_after_fork(void) CT_HIDDEN;
void ct_fork_init(void) CT_HIDDEN; /* pthread_atfork, at start-up */
/* the thread of a forked child: a ring of its own, its stream begun with
 * the frames it inherited */
void ct_thread_after_fork(struct ct_tstate *t) CT_HIDDEN;

/* hook.c: may the trampolines take their fast paths (arch/<arch>/
 * tramp.S), and the -finstrument-functions hooks theirs (cyg.c)?  The TSC
 * is the clock and no record-time filter is on: set at start-up, cleared
 * when filters come on (one byte tested, for the two conditions) */
extern bool ct_hook_fast CT_HIDDEN;
/* record --count: the hooks count (set once, before any traced call; count.c) */
extern bool ct_count_on CT_HIDDEN;
/* ... and --sample is on too: the x86-64 hooked front ends' calls are
 * found by unwinding at each sample (stackwalk.c: their sites noted when
 * counted), aarch64's patch.S and _mcount push theirs on the counting
 * stack with their CFAs (count.c), where the samples find the calls open;
 * plain --count keeps nothing */
extern bool ct_count_stack CT_HIDDEN;
/* fnextent.c: the sorted starts of a module's functions (patched entries
 * and symbols) in its code [lo, hi); is pc in the function holding at? */
void ct_fnextent_add(uintptr_t lo, uintptr_t hi, const uintptr_t *entries, size_t nentries,
		     const uintptr_t *syms, size_t nsyms) CT_HIDDEN;
bool ct_fnextent_within(uintptr_t at, uintptr_t pc) CT_HIDDEN;
/* cyg.c: -t alone, and the TSC is the clock: the -finstrument-functions
 * hooks hold entries back on their own short path (one byte tested) */
extern bool ct_cyg_held CT_HIDDEN;
/* ... and neither --inject, a limited --plugin nor --callsite: the
 * -finstrument-functions hooks' inline -t path */
extern bool ct_cyg_held_alone CT_HIDDEN;
/* hook.c: -t alone, and nothing else that the trampolines' C path must see
 * (argument capture, --inject, a plugin, --callsite): their assembly paths
 * hold entries back and end short held calls (tramp.S; one byte tested,
 * after ct_enter_fast, and by the return trampoline after ct_hook_fast) */
extern bool ct_held_fast CT_HIDDEN;

/* hook.c: frames removed from the shadow stack by other means (longjmp,
 * a catch): give hooked ones their return addresses back if still live */
void ct_hook_dropping(struct ct_tstate *t, uint32_t from, uintptr_t sp) CT_HIDDEN;
/* hook.c: a thread that stops for good: every hooked frame above sp */
void ct_hook_give_back(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
/* hook.c: after a catch, the frames above sp get the return trampoline again */
void ct_hook_catch(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
/* hook.c, for wrap.c's interposers: real return addresses for a call that
 * reads them (begin: whether there was anything to do, then end), and the
 * frames of a stack being left by swapcontext (park: a number, 0 for none;
 * unpark when it runs again) or by setcontext (leave: for good) */
bool ct_hook_begin_real(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
void ct_hook_end_real(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
uint32_t ct_hook_park(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
void ct_hook_unpark(struct ct_tstate *t, uintptr_t sp, uint32_t gen) CT_HIDDEN;
void ct_hook_leave(struct ct_tstate *t, uintptr_t sp) CT_HIDDEN;
void ct_hook_reset_nested(struct ct_tstate *t) CT_HIDDEN;
void ct_hook_release(struct ct_tstate *t) CT_HIDDEN;

/* procfile.c: the .proc file */
/* a line of it (one write(2)) */
void ct_proc_printf(const char *fmt, ...) CT_HIDDEN __attribute__((format(printf, 1, 2)));
/* a line "HEAD PATH", the path (an executable's, a module's) escaped as
 * arg lines are (\\ and \n): a newline in it cannot make a line */
void ct_proc_path_line(const char *head, const char *path) CT_HIDDEN;
/* make this image's file and write its header and module map (false: it
 * cannot be made); close it in a forked child */
bool ct_proc_file_start(void) CT_HIDDEN;
/* the image's command line (/proc/self/cmdline) as read before main: NUL
 * separated, n bytes (a fork's copy keeps its parent's) */
const char *ct_start_cmdline(size_t *n) CT_HIDDEN;
void ct_proc_file_close(void) CT_HIDDEN;
/* thread names for the views: "thread-name" lines of the .proc file */
void ct_thread_name_note(int tid) CT_HIDDEN;          /* tid's name now */
void ct_thread_name_start(int tid) CT_HIDDEN;         /* a new thread, if not the default name */
void ct_thread_name_find(const char *name) CT_HIDDEN; /* the tasks with that name */
/* is this the process the runtime set up (not a copy made by a raw clone)? */
int ct_proc_pid(void) CT_HIDDEN;

/* modules.c: the module map ("module" lines), again at dlopen/dlclose */
extern char ct_exe_path[4096] CT_HIDDEN; /* the main program */
void ct_modules_rescan(void) CT_HIDDEN;
/* the executable's build id in hex ("-": none) */
void ct_modules_main_buildid(char *out, size_t len) CT_HIDDEN;
void ct_modules_reset(void) CT_HIDDEN; /* a new .proc file: all modules new */
/* the addresses a loaded module spans, from its ELF header as mapped (all
 * its loadable segments, or only the executable ones); false if ehdr is not
 * an ELF header or the module has no such segment */
bool ct_elf_extent(const void *ehdr, bool exec_only, uintptr_t *lo, uintptr_t *hi) CT_HIDDEN;

/* start.c: start-up */
/* getenv, also in a .preinit_array function (before libc set environ) */
const char *ct_getenv(const char *name) CT_HIDDEN;
bool ct_process_ready(void) CT_HIDDEN; /* initialise on first use; false = off */

/* clock.c (ct_clock above) */
/* may this process read the TSC (PR_SET_TSC)?  At start-up, in a child */
void ct_clock_check_tsc(void) CT_HIDDEN;
/* ... if not, the clock is CLOCK_MONOTONIC (scaled to TSC ticks when the
 * rate was noted) */
void ct_clock_no_tsc(void) CT_HIDDEN;
/* a thread is about to lose its TSC: note the TSC's rate against
 * CLOCK_MONOTONIC while it can still be read (for a child it forks) */
void ct_clock_note_rate(void) CT_HIDDEN;
/* the process's start: ct_cfg.start_clock set, CLOCK_MONOTONIC returned */
uint64_t ct_clock_start(void) CT_HIDDEN;
uint64_t ct_clock_realtime(void) CT_HIDDEN; /* CLOCK_REALTIME in ns */

/* execenv.c: exec and spawn: the environment of a new image, with
 * calltrace's variables put back if it lacks them (wrap.c).  out has room
 * for ct_exec_env_extra() more entries than envp; strings are built in buf
 * (ct_exec_env_buf() bytes).  Returns out (or envp itself when nothing is
 * missing) and sets *changed.  Async-signal-safe.  save: the variables as
 * this image got them, at start-up. */
void ct_exec_env_save(void) CT_HIDDEN;
size_t ct_exec_env_extra(void) CT_HIDDEN;
size_t ct_exec_env_buf(char *const envp[]) CT_HIDDEN;
char *const *ct_exec_env(char *const envp[], char **out, char *buf, size_t buflen,
			 bool *changed) CT_HIDDEN;

/* patch.c: -fpatchable-function-entry sites of a module just seen (true:
 * it has some, the first time it is seen) */
struct dl_phdr_info;
bool ct_patch_module(const char *path, const char *name, uintptr_t bias, const void *phdr,
		     int phnum) CT_HIDDEN;
void ct_patch_forget(uintptr_t base) CT_HIDDEN;
/* patch.c: the -finstrument-functions hook call that returns to ret, made
 * for a function nothing of which is recorded: jumped over from now on */
void ct_patch_cyg_call(uintptr_t ret) CT_HIDDEN;

/* libcall.c: library calls (PLT/GOT slots of traced modules).  init at
 * start-up; note a module seen by dl_iterate_phdr (traced: it has patched
 * entries), flush after it (outside the loader's lock), forget an unloaded
 * one; lines: the "libcall" lines of every hooked slot again (a new .proc
 * file: a fork child) */
void ct_libcall_init(void) CT_HIDDEN;
void ct_libcall_note(uintptr_t bias, const void *phdr, int phnum, bool traced) CT_HIDDEN;
void ct_libcall_flush(void) CT_HIDDEN;
void ct_libcall_forget(uintptr_t base) CT_HIDDEN;
void ct_libcall_lines(void) CT_HIDDEN;

/* filter.c: record-time filters */
struct ct_filt_conf {
	uint32_t max_depth; /* -D; 0: none */
	uint64_t min_time;  /* -t, in clock ticks; 0: none */
	bool has_inc;       /* some -F */
	bool has_trig;      /* some -T trigger */
	bool timed;         /* -t, or a time= trigger */
	bool gated;         /* record opens and closes the doorbell's gate */
	bool only_time;     /* -t alone: every call is recorded, then decided */
	bool has_nohook;    /* some function needs no hook (--hide alone) */
};

extern bool ct_filt_on CT_HIDDEN; /* a filter file is loaded: every hook
				   * takes the filtering path */
extern struct ct_filt_conf ct_filt CT_HIDDEN;
/* is tracing on (trace_on/trace_off, --trace=off, the API, signals, the
 * gate)?  finish turns it off for good */
extern uint32_t ct_filt_gon CT_HIDDEN;
extern uint32_t ct_filt_done CT_HIDDEN;
static inline bool ct_filt_live(void)
{
	return __atomic_load_n(&ct_filt_gon, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&ct_filt_done, __ATOMIC_RELAXED) &&
	       (!ct_filt.gated || !ct_cfg.doorbell ||
		__atomic_load_n(&ct_cfg.doorbell->gate, __ATOMIC_RELAXED) == CT_GATE_OPEN);
}
/* turn the filtering path on (the API may, at any time) */
void ct_filt_enable(void) CT_HIDDEN;
/* plugin.c: record --plugin (doc/plugins.md).  A loaded plugin marks its
 * functions in ct_sel_bloom (every byte when it takes every function, no
 * --plugin-filter): their calls go the C way, which asks ct_plug_enter
 * (busy held), and a frame whose exit the plugin wants is marked
 * CT_FR_ATRET, so that its return asks ct_plug_exit.  The other calls, and
 * the returns of a plugin with no exit callback, stay on the fast paths */
extern bool ct_plug_on CT_HIDDEN;
/* ... and the trampolines' fast paths call it themselves, after the ENTER
 * (ct_plug_tramp_enter; no --inject, whose rules need the general path) */
extern bool ct_plug_fast CT_HIDDEN;
/* ... and they call calltrace_plugin_enter_fn themselves, with no look-up
 * (it takes every function, and no exits): NULL when not so, or done */
extern void (*ct_plug_fn_cb)(const void *) CT_HIDDEN;
/* a plugin's calltrace_plugin_enter_fn(fn) from a C path (busy held), the
 * calls it makes untraced (plug_in), as tramp.S's CALL_PLUG_FN */
static inline void ct_plug_call_fn(struct ct_tstate *t, void (*cb)(const void *), uintptr_t fn)
{
	t->plug_in = 1;
	__asm__ volatile("" ::: "memory");
	cb((const void *)fn);
	__asm__ volatile("" ::: "memory");
	t->plug_in = 0;
}
/* the entry trampolines' fast paths have more to do after the ENTER:
 * arguments to capture, or ct_plug_fast (one byte tested for both) */
extern bool ct_enter_more CT_HIDDEN;
struct ct_arch_regs;
struct ct_arch_retregs;
void ct_plug_init(void) CT_HIDDEN; /* $CALLTRACE_PLUGIN's table, at start-up */
void ct_plug_load(void) CT_HIDDEN; /* the constructor: dlopen, its init */
void ct_plug_module(uintptr_t base, const char *path, const char *buildid, bool added) CT_HIDDEN;
/* a library call (libcall.c): fn (target, or an alias's jump to it) was
 * called by name: named NAME@LIBRARY as replay names it, with target's
 * selection */
void ct_plug_libcall(uintptr_t fn, uintptr_t target, const char *name) CT_HIDDEN;
/* the call of fn whose frame is stk[d] entered at now (its ENTER written);
 * r: its registers (NULL: -finstrument-functions).  True when the plugin
 * selects it and wants its exit */
bool ct_plug_enter(struct ct_tstate *t, uint32_t d, uintptr_t fn, uint64_t now,
		   const struct ct_arch_regs *r) CT_HIDDEN;
/* ... returns at now, its frame still stk[d] (before its EXIT); r: its
 * return registers or NULL */
void ct_plug_exit(struct ct_tstate *t, uint32_t d, uintptr_t fn, uint64_t now,
		  const struct ct_arch_retregs *r) CT_HIDDEN;
void ct_plug_release(struct ct_tstate *t) CT_HIDDEN; /* the thread ends */
/* ct_plug_enter from the trampolines' fast paths (tramp.S), the ENTER of
 * the frame on top written; marks it CT_FR_ATRET when the plugin wants
 * its exit.  Returns 0 (the flags tramp.S ORs into the frame's) */
unsigned ct_plug_tramp_enter(struct ct_tstate *t, uintptr_t fn,
			     const struct ct_arch_regs *r) CT_HIDDEN;
/* the functions a consumer of calls selects (an injection rule, a plugin
 * limited by --plugin-filter) set their byte of ct_sel_bloom (addrtab.c),
 * which the fast paths test when ct_sel_on is set (tramp.S with the same
 * hash, cyg.c): a byte set sends the call the general way, where each
 * consumer looks the function up.  A frame such a consumer acts on at its
 * return is marked CT_FR_ATRET, so that its return takes the C path. */
#define CT_SEL_BLOOM 4096 /* 1 << (64 - CT_SEL_BLOOM_SHIFT) (offsets.h) */
static inline uint32_t ct_sel_bloom_of(uintptr_t fn)
{
	return (uint32_t)(((uint64_t)fn * (uint64_t)CT_SEL_HASH_MUL) >> CT_SEL_BLOOM_SHIFT);
}
extern bool ct_sel_on CT_HIDDEN;
/* ... and one of them acts at the exits too (--inject; a plugin with an
 * exit callback): without it, the -finstrument-functions exit hook stays
 * on its fast path */
extern bool ct_sel_exits CT_HIDDEN;
extern uint8_t ct_sel_bloom[CT_SEL_BLOOM] CT_HIDDEN;
/* fn is selected: its byte set (and the fast paths told to look) */
static inline void ct_sel_mark(uintptr_t fn)
{
	__atomic_store_n(&ct_sel_bloom[ct_sel_bloom_of(fn)], 1, __ATOMIC_RELAXED);
}
/* record --inject (inject.c): the C paths ask ct_inj_enter (busy held, ENTER written,
 * frame stk[d]): bit 0 of its answer, skip the body (return=V, %rax set in
 * the trampoline's saved registers), bit 1 throw instead (%rdi, %rsi set
 * for ct_inj_thrower), bits 8.. a signal to raise once busy
 * is let go.  A frame marked CT_FR_ATRET returns through ct_inj_exit. */
extern bool ct_inj_on CT_HIDDEN;
void ct_inj_init(void) CT_HIDDEN;
void ct_inj_load(void) CT_HIDDEN; /* the constructor: throw='s C++ half */
extern void (*ct_inj_thrower)(long kind, const char *msg) CT_HIDDEN;
void ct_inj_module(uintptr_t base, const char *path, const char *buildid, bool added) CT_HIDDEN;
void ct_inj_alias(uintptr_t alias, uintptr_t fn) CT_HIDDEN; /* as ct_filt_alias */
int ct_inj_enter(struct ct_tstate *t, uint32_t d, uintptr_t fn, struct ct_arch_regs *regs,
		 int kind) CT_HIDDEN;
void ct_inj_exit(struct ct_tstate *t, uint32_t d, uintptr_t fn,
		 const struct ct_arch_retregs *r) CT_HIDDEN;
void ct_inj_errno_now(void) CT_HIDDEN; /* errno= of a return, set last */
void ct_inj_raise(int sig) CT_HIDDEN;
void ct_inj_cyg_enter(struct ct_tstate *t, uintptr_t fn) CT_HIDDEN;
void ct_inj_cyg_exit(struct ct_tstate *t, uintptr_t fn) CT_HIDDEN;
void ct_inj_release(void) CT_HIDDEN; /* the thread ends */
/* spec.c: the spec files record names in the environment (filters,
 * plugins, injection, library calls, argument specs).  ct_spec_load: the
 * regular file path (not a link, not waited for), at most max bytes, read
 * whole into a NUL-terminated private mapping of *len + 1 bytes (freed with
 * ct_spec_free); else NULL after one line, "cannot read WHAT PATH: CAUSE;
 * THEN" */
#define CT_SPEC_MAX (256u << 20) /* bytes of a filter, plugin or injection file */
char *ct_spec_load(const char *path, const char *what, const char *then, size_t max,
		   size_t *len) CT_HIDDEN;
void ct_spec_free(char *buf, size_t len) CT_HIDDEN;
/* each line to fn, its words from *p to end (fn takes those it knows:
 * anything left on the line makes it bad); false at the first bad line,
 * its number in *bad */
typedef bool (*ct_spec_line_fn)(void *ctx, uint32_t line, const char **p, const char *end);
bool ct_spec_lines(const char *buf, size_t len, ct_spec_line_fn fn, void *ctx,
		   uint32_t *bad) CT_HIDDEN;
/* the lines that start "f " and "module ", to size the tables */
void ct_spec_count(const char *buf, size_t len, uint32_t *nf, uint32_t *nm) CT_HIDDEN;
/* the words of a line: any, a number in base 10 or 16, a text with %XX
 * escapes (NUL-terminated into out), a given keyword */
bool ct_spec_word(const char **p, const char *end, const char **w, size_t *n) CT_HIDDEN;
bool ct_spec_number(const char **p, const char *end, unsigned base, uint64_t *v) CT_HIDDEN;
bool ct_spec_text(const char **p, const char *end, char *out, size_t len) CT_HIDDEN;
bool ct_spec_keyword(const char **p, const char *end, const char *kw) CT_HIDDEN;

/* ct_hook_fast and ct_cyg_held, from the clock, the filters, --count and a
 * plugin (at start-up, in a forked child, when filters come on, when the
 * plugin is loaded) */
/* callsite.c: record --callsite (set once, before any traced call): every
 * recorded ENTER is followed by its CT_EXT_CALLSITE, written by the C paths
 * of the hooks (the fast paths are off) */
extern bool ct_callsite_on CT_HIDDEN;
void ct_callsite_init(void) CT_HIDDEN;  /* $CALLTRACE_CALLSITE, at start-up */
extern uintptr_t ct_cs_tramp CT_HIDDEN; /* hook.c's return trampoline */
/* the CALLSITE words of a call of fn from site into w: their number, 0
 * without --callsite or without a call site (0, or a tail call's slot) */
static inline unsigned ct_cs_words(uintptr_t fn, uintptr_t site, uint32_t *w)
{
	if (!ct_callsite_on || !site || site == ct_cs_tramp)
		return 0;
	return ct_callsite_encode(fn, site, w);
}
/* an ENTER (delta from t->last, fn) at p, and after it the n - 8 bytes of
 * CALLSITE words cs (ct_cs_words) */
static inline void ct_write_enter_cs(uintptr_t p, uint64_t delta, uintptr_t fn, const uint32_t *cs,
				     unsigned n)
{
	*(uint64_t *)p = CT_REC_ENTER | delta << 2 | (uint64_t)fn << 24;
	for (unsigned i = 8; i < n; i += 4)
		*(uint32_t *)(p + i) = cs[(i - 8) / 4];
}
/* ... in one reservation of n bytes: where they begin */
static inline uintptr_t ct_put_enter_cs(struct ct_tstate *t, uint64_t delta, uintptr_t fn,
					const uint32_t *cs, unsigned n)
{
	uintptr_t p = ct_arch_reserve(&t->cur, n);
	ct_write_enter_cs(p, delta, fn, cs, n);
	return p;
}
/* -finstrument-functions, --callsite: an ENTER and its CALLSITE (call site
 * t->cs_site) at now, as cyg.c's enter_at (busy held; let go) */
void ct_cs_enter(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, uint64_t now) CT_HIDDEN;

/* callsite.c: may the entries take their fast paths (ct_hook_fast, and no
 * --callsite: the byte the entry hooks test; the exits test ct_hook_fast),
 * and the -finstrument-functions entry its --callsite one (cyg.c)? */
extern bool ct_enter_fast CT_HIDDEN;
extern bool ct_cyg_enter_fast, ct_cyg_sel_fast, ct_cyg_exit_fast CT_HIDDEN;
extern bool ct_cs_fast CT_HIDDEN;

static inline void ct_hook_modes(void)
{
	ct_hook_fast = ct_cfg.use_tsc && !ct_filt_on && !ct_count_on;
	ct_enter_fast = ct_hook_fast && !ct_callsite_on;
	ct_cs_fast = ct_hook_fast && ct_callsite_on;
	/* -finstrument-functions' hooks: their own bytes, so that --inject and
	 * a plugin (ct_sel_on) add nothing to their plain paths */
	ct_cyg_enter_fast = ct_enter_fast && !ct_sel_on;
	ct_cyg_sel_fast = ct_enter_fast && ct_sel_on;
	ct_cyg_exit_fast = ct_hook_fast && !ct_sel_exits;
	ct_cyg_held = ct_cfg.use_tsc && ct_filt_on && ct_filt.only_time;
	ct_cyg_held_alone = ct_cyg_held && !ct_sel_on && !ct_callsite_on && !ct_count_on;
	ct_plug_fast = ct_hook_fast && ct_plug_on && !ct_inj_on;
	ct_enter_more = ct_args_enabled || ct_plug_fast;
	/* (ct_cyg_held_alone: no --inject and no plugin, ct_sel_on) */
	ct_held_fast = ct_cyg_held_alone && !ct_args_enabled;
}
/* hook.c: the backtrace trigger's BACKTRACE record (busy held) */
void ct_hook_backtrace(struct ct_tstate *t, uintptr_t fn) CT_HIDDEN;
/* wrap.c: glibc's backtrace() */
int ct_backtrace_real(void **buf, int size) CT_HIDDEN;
/* api.c: a MARK record (after a TIME record), never taken back by -t */
void ct_put_mark(struct ct_tstate *t, const char *text, size_t n) CT_HIDDEN;
/* api.c: the snapshot trigger, in an entry hook (busy held) */
void ct_api_snapshot_trigger(struct ct_tstate *t) CT_HIDDEN;
/* fds.c: fd moved to a high number (close-on-exec), where the program's own
 * rarely go */
int ct_fd_move_high(int fd) CT_HIDDEN;
/* rings.c: the list of this process's rings */
void ct_rings_add(struct ct_ring_header *r, size_t len, int fd) CT_HIDDEN;
/* unmap a ring this process is done with (record mode), out of the list */
void ct_rings_unmap(struct ct_ring_header *r, size_t len) CT_HIDDEN;
void ct_rings_forget_all(void) CT_HIDDEN; /* in a forked child */
void ct_rings_writer_start(void) CT_HIDDEN;
void ct_rings_flush_all(void) CT_HIDDEN;
void ct_linked_info(bool done) CT_HIDDEN;

/* calibrate.c: measure the hooks' own cost (first call only) and write the
 * "overhead" line of the .proc file */
void ct_calibrate_note(void) CT_HIDDEN;
/* calibrate.c: the front ends a process uses, each noted once in its .proc
 * file ("frontend cyg" / "frontend hook") the first time a thread records
 * through it */
#define CT_FE_CYG 1u  /* __cyg_profile_func_enter/exit */
#define CT_FE_HOOK 2u /* hook.c: __fentry__, mcount, patched entries */
void ct_frontend_seen(struct ct_tstate *t, unsigned fe) CT_HIDDEN; /* procfile.c */
bool ct_calibrating(const struct ct_tstate *t) CT_HIDDEN;
/* calibrate.c, at a buffer switch: on a CPU whose calibration figures the
 * thread's stream does not carry yet, write them (CT_EXT_CALIB), measured
 * first if the process has none for it; restate: write them again if they
 * are not the process's (a flight recorder's buffer is read alone) */
void ct_recalibrate(struct ct_tstate *t, bool restate) CT_HIDDEN;
/* hook.c: a zeroed hook area for the calibration's scratch thread state */
struct ct_hook_area *ct_hook_scratch_area(void) CT_HIDDEN;

/* log.c: async-signal-safe formatting and messages to stderr */
size_t ct_vfmt(char *buf, size_t len, const char *fmt, va_list ap) CT_HIDDEN;
size_t ct_fmt(char *buf, size_t len, const char *fmt, ...) CT_HIDDEN
	__attribute__((format(printf, 3, 4)));
void ct_log(const char *fmt, ...) CT_HIDDEN __attribute__((format(printf, 1, 2)));

/* recorder.c: is `record`, which drains our rings, gone (killed, or it
 * stopped draining)?  `stuck`: the caller cannot go on without it, so look
 * at its heartbeat and /proc too.  Never true in linked mode. */
bool ct_recorder_gone(bool stuck) CT_HIDDEN;

/* the record-time filters' part */
#include "filter.h"

#endif
