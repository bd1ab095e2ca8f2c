/* SPDX-License-Identifier: MIT */
/*
 * Threads that a record-time -N left without a call (doc/record.md, "A
 * filter that swallows a thread").  record warns before the run about the
 * functions where threads are known to start (main, std::thread's
 * _M_run); a pthread_create start routine is known only when the program
 * calls it.  The runtime then notes each start routine that -N leaves out
 * in the process's .proc file ("thread-left-out ADDR", once per function
 * and process), which the reader keeps (session.h); here, at the end of
 * the recording, each is named as the views name it.
 */
#include <stdlib.h>
#include <string.h>

#include "leftout.h"
#include "session.h"
#include "util.h"

#define MAX_NAMES 16 /* functions named at most (the rest are counted) */

void ct_leftout_warn(const char *dir, struct ct_msgs *warn)
{
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0)
		return; /* (record has said what is wrong with it) */
	struct found {
		char *name;
		size_t procs; /* processes whose threads started there */
	} f[MAX_NAMES];
	size_t n = 0, more = 0;
	for (size_t pi = 0; pi < s->nprocs; pi++) {
		struct ct_proc *p = s->procs[pi];
		for (size_t k = 0; k < p->nleft_out; k++) {
			const char *name = ct_session_resolve(s, p, p->left_out[k])->name;
			size_t i = 0;
			while (i < n && strcmp(f[i].name, name))
				i++;
			if (i < n)
				f[i].procs++;
			else if (n < MAX_NAMES)
				f[n++] = (struct found){xstrdup(name), 1};
			else
				more++;
		}
	}
	ct_session_close(s);
	for (size_t i = 0; i < n; i++) {
		ct_msg_add(warn, CT_MSG_WARN,
			   "-N leaves out %s, where threads started (in %zu process%s): they "
			   "recorded nothing (--hide leaves out the function's own frame)",
			   f[i].name, f[i].procs, f[i].procs == 1 ? "" : "es");
		free(f[i].name);
	}
	if (more)
		ct_msg_add(warn, CT_MSG_WARN,
			   "-N leaves out %zu more functions where threads started", more);
}
