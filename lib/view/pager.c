/* SPDX-License-Identifier: MIT */
/* The views' pager: see pager.h. */
#include "pager.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"

static pid_t pager_pid = -1;

/* ^C (or another deadly signal) while the pager runs: the pager's end
 * waited for before dying, so that the shell does not take the terminal
 * back from under it (as git does) */
static void wait_then_die(int sig)
{
	if (pager_pid > 0) {
		close(1);
		while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* is the program (the first word of cmd) in $PATH? */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	char buf[4096];
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		if (n > 0 &&
		    snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, prog) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

static const char *pager_command(void)
{
	const char *cmd = getenv("CALLTRACE_PAGER");
	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd) {
		/* the default: less when there is one */
		if (!in_path("less"))
			return NULL;
		cmd = "less -FRX";
	}
	if (!*cmd || !strcmp(cmd, "cat"))
		return NULL;
	return cmd;
}

bool ct_pager_start(struct ct_msgs *warn)
{
	if (pager_pid > 0)
		return true;
	if (!isatty(1))
		return false;
	const char *cmd = pager_command();
	if (!cmd)
		return false;
	int fds[2];
	if (pipe(fds) < 0) {
		ct_msg_add(warn, CT_MSG_WARN, "no pager: %s", strerror(errno));
		return false;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		ct_msg_add(warn, CT_MSG_WARN, "no pager: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRX", 0);
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], 1);
	close(fds[0]);
	close(fds[1]);
	/* a pager that quits early: writes fail (EPIPE), the view ends */
	signal(SIGPIPE, SIG_IGN);
	pager_pid = pid;
	static const int deadly[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		if (signal(deadly[i], wait_then_die) == SIG_IGN)
			signal(deadly[i], SIG_IGN); /* nohup's stays */
	atexit(ct_pager_end);
	return true;
}

bool ct_pager_active(void)
{
	return pager_pid > 0;
}

void ct_pager_end(void)
{
	if (pager_pid <= 0)
		return;
	fflush(stdout);
	close(1);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}
