/* SPDX-License-Identifier: MIT */
/* record's descendants still running when it stops draining: see descend.h. */
#include "descend.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calltrace/procstat.h"
#include "util.h"

struct proc_link {
	int pid, ppid;
	bool live;
};

static int cmp_link(const void *a, const void *b)
{
	int x = ((const struct proc_link *)a)->pid, y = ((const struct proc_link *)b)->pid;
	return (x > y) - (x < y);
}

size_t ct_running_descendants(struct ct_running **out)
{
	struct ct_running *run = NULL;
	size_t nrun = 0;
	*out = NULL;
	siginfo_t si;
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
		return 0; /* no child, hence no descendant: the usual end */
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct proc_link *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int self = (int)getpid();
	while ((e = readdir(d))) {
		char *end, buf[1024];
		long pid = strtol(e->d_name, &end, 10);
		struct ct_procstat ps;
		if (*end || pid <= 0 || pid == self ||
		    ct_procstat_read((int)pid, &ps, buf, sizeof(buf)) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			struct proc_link *nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = (struct proc_link){(int)pid, ps.ppid, ps.state != 'Z' && ps.state != 'X'};
	}
	closedir(d);
	ct_qsort(v, n, sizeof(*v), cmp_link);
	for (size_t i = 0; i < n; i++) {
		if (!v[i].live)
			continue;
		int p = v[i].ppid;
		for (int hops = 0; p > 1 && p != self && hops < 4096; hops++) {
			struct proc_link key = {p, 0, false};
			struct proc_link *up = bsearch(&key, v, n, sizeof(*v), cmp_link);
			p = up ? up->ppid : 0;
		}
		if (p != self)
			continue;
		struct ct_procstat ps;
		char buf[1024];
		if (ct_procstat_read(v[i].pid, &ps, buf, sizeof(buf)) < 0)
			continue; /* it has just ended */
		struct ct_running *nr = realloc(run, (nrun + 1) * sizeof(*nr));
		if (!nr)
			break;
		run = nr;
		struct ct_running *x = &run[nrun++];
		x->pid = v[i].pid;
		size_t k = 0;
		for (unsigned j = 0; j < ps.comm_len && k + 1 < sizeof(x->name); j++)
			x->name[k++] = ps.comm[j] > ' ' && ps.comm[j] < 127 ? ps.comm[j] : '?';
		x->name[k] = 0;
	}
	free(v);
	*out = run;
	return nrun;
}
