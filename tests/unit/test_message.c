/* SPDX-License-Identifier: MIT */
/* lib/core/message.c: each message (prefix, text, newline) is one write(2)
 * on fd 2, so that it is never cut into by the traced program's output on
 * a shared stderr; the prefix made in one place; the messages lib/ hands
 * back (error.h's struct ct_msgs) printed by their kind, made safe to
 * print.  fd 2 is a SOCK_SEQPACKET socket here: each write is one record
 * and each recv takes exactly one, so the writes can be counted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "error.h"
#include "message.h"

static int rd = -1, saved = -1;

/* fd 2 to a socket whose every write is a record */
static void capture(void)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0) {
		perror("socketpair");
		exit(1);
	}
	/* room for the long message below in one record */
	int big = 1 << 20;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	fflush(stderr);
	saved = dup(2);
	dup2(sv[0], 2);
	close(sv[0]);
	rd = sv[1];
}

static void release(void)
{
	dup2(saved, 2);
	close(saved);
	close(rd);
}

/* the next write on fd 2, whole (NUL-terminated in buf), or "" when none
 * is waiting */
static const char *next_write(char *buf, size_t len)
{
	ssize_t n = recv(rd, buf, len - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static char buf[1 << 17];

static void test_one_write(void)
{
	capture();
	ct_set_command("cmd");
	errno = ENOENT;
	int rc = ct_error("cannot open %s: %s", "f.ev", strerror(errno));
	CHECK(rc == 1, "ct_error's status %d", rc);
	CHECK(errno == ENOENT, "errno kept: %d", errno);
	const char *w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace cmd: cannot open f.ev: No such file or directory\n"),
	      "one write, the whole error: '%s'", w);
	ct_warn("%d regexes matched nothing", 2);
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace cmd: warning: 2 regexes matched nothing\n"),
	      "one write, the whole warning: '%s'", w);
	ct_warn_plain("%s: build-id mismatch", "/lib/x.so");
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace: warning: /lib/x.so: build-id mismatch\n"),
	      "a recording's warning, without the command: '%s'", w);
	ct_note_plain("exit 0: 1 process. Nothing lost.");
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace: exit 0: 1 process. Nothing lost.\n"), "a note: '%s'", w);
	rc = ct_usage_error("unknown option '%s'", "--nope");
	CHECK(rc == 2, "ct_usage_error's status %d", rc);
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace cmd: unknown option '--nope'\n"
			 "Try 'calltrace cmd --help' for more.\n"),
	      "a usage error and where the help is, in one write: '%s'", w);
	/* longer than message.c's own buffer: still one write */
	static char text[20000];
	memset(text, 'x', sizeof(text) - 1);
	ct_error("%s", text);
	w = next_write(buf, sizeof(buf));
	CHECK(strlen(w) == strlen("calltrace cmd: ") + sizeof(text) - 1 + 1 &&
		      !strncmp(w, "calltrace cmd: xxx", 18) && w[strlen(w) - 1] == '\n',
	      "a long message in one write: %zu bytes", strlen(w));
	/* before a command is set: "calltrace: " */
	ct_set_command(NULL);
	ct_error("'%s' is not a calltrace command", "frob");
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace: 'frob' is not a calltrace command\n"), "no command: '%s'", w);
	w = next_write(buf, sizeof(buf));
	CHECK(!*w, "no write left over: '%s'", w);
	release();
}

static void test_msgs(void)
{
	struct ct_msgs m = {0};
	ct_msg_add(&m, CT_MSG_WARN, "-F '%s' matches no function", "nope");
	ct_msg_add(&m, CT_MSG_ERROR, "no thread %d in %s", 99, "d");
	ct_msg_add(&m, CT_MSG_WARN_PLAIN, "%s: not saved", "a\x1b]0;owned\x07.so");
	ct_msg_add(NULL, CT_MSG_WARN, "dropped: the caller wants none");
	CHECK(m.n == 3 && !strcmp(m.v[1].text, "no thread 99 in d"), "kept: %zu", m.n);
	capture();
	ct_set_command("view");
	ct_msgs_flush(&m);
	CHECK(m.n == 0 && !m.v, "flushed: emptied");
	const char *w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace view: warning: -F 'nope' matches no function\n"), "'%s'", w);
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace view: no thread 99 in d\n"), "'%s'", w);
	w = next_write(buf, sizeof(buf));
	CHECK(!strcmp(w, "calltrace: warning: a\\x1b]0;owned\\x07.so: not saved\n"),
	      "escaped, as every message about a recording: '%s'", w);
	w = next_write(buf, sizeof(buf));
	CHECK(!*w, "three writes: '%s'", w);
	release();
	ct_set_command(NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_one_write();
	test_msgs();
	return check_done();
}
