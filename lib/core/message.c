/* SPDX-License-Identifier: MIT */
/* The analysis side's messages to stderr: the one place of their prefix,
 * each written whole in one write(2) (message.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"
#include "output.h"

static const char *command;

void ct_set_command(const char *cmd)
{
	command = cmd;
}

const char *ct_command(void)
{
	return command;
}

/* all of buf to stderr: one write(2) but where the kernel takes less (a
 * pipe takes up to PIPE_BUF bytes whole); errno as it was */
static void put(const char *buf, size_t len)
{
	int saved = errno;
	while (len) {
		ssize_t n = write(2, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf += n;
		len -= (size_t)n;
	}
	errno = saved;
}

void ct_print_raw(const char *text, size_t len)
{
	put(text, len);
}

/* the prefix, the one place it is made: "calltrace CMD: " (with_command,
 * once a command is set) or "calltrace: " */
static int prefix(char *buf, size_t size, bool with_command)
{
	if (command && with_command)
		return snprintf(buf, size, "calltrace %s: ", command);
	return snprintf(buf, size, "calltrace: ");
}

/* prefix, kind, the message, a newline and then tail (or nothing),
 * formatted into one buffer and written at once */
static void vmessage(bool with_command, const char *kind, const char *tail, const char *fmt,
		     va_list ap) __attribute__((format(printf, 4, 0)));
static void vmessage(bool with_command, const char *kind, const char *tail, const char *fmt,
		     va_list ap)
{
	char small[4096], head[256];
	int saved = errno; /* (for a %m, and the caller's errno after) */
	int h = prefix(head, sizeof(head), with_command);
	size_t hl = h < 0 ? 0 : (size_t)h < sizeof(head) ? (size_t)h : sizeof(head) - 1;
	size_t kl = strlen(kind), tl = tail ? strnlen(tail, 256) : 0;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	size_t body = n < 0 ? 0 : (size_t)n;
	size_t need = hl + kl + body + 1 + tl;
	char *buf = need < sizeof(small) ? small : malloc(need + 1);
	if (!buf) {
		/* (not xmalloc: out of memory is said here) cut short rather
		 * than not said */
		buf = small;
		body = sizeof(small) - 1 - (hl + kl + 1 + tl);
	}
	memcpy(buf, head, hl);
	memcpy(buf + hl, kind, kl);
	errno = saved;
	vsnprintf(buf + hl + kl, body + 1, fmt, again);
	va_end(again);
	size_t at = hl + kl + body;
	buf[at++] = '\n';
	memcpy(buf + at, tail ? tail : "", tl);
	at += tl;
	put(buf, at);
	if (buf != small)
		free(buf);
	errno = saved;
}

static void message(bool with_command, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void message(bool with_command, const char *kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(with_command, kind, NULL, fmt, ap);
	va_end(ap);
}

int ct_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(true, "", NULL, fmt, ap);
	va_end(ap);
	return 1;
}

void ct_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(true, "warning: ", NULL, fmt, ap);
	va_end(ap);
}

void ct_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(true, "", NULL, fmt, ap);
	va_end(ap);
	exit(1);
}

int ct_usage_error(const char *fmt, ...)
{
	char tail[256];
	snprintf(tail, sizeof(tail), "Try 'calltrace %s%s--help' for more.\n",
		 command ? command : "", command ? " " : "");
	va_list ap;
	va_start(ap, fmt);
	vmessage(true, "", tail, fmt, ap);
	va_end(ap);
	return 2;
}

void ct_warn_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(false, "warning: ", NULL, fmt, ap);
	va_end(ap);
}

void ct_die_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(false, "", NULL, fmt, ap);
	va_end(ap);
	exit(1);
}

void ct_note_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(false, "", NULL, fmt, ap);
	va_end(ap);
}

void ct_msgs_flush(struct ct_msgs *m)
{
	/* each kind's prefix and word (error.h) */
	static const struct {
		bool with_command;
		const char *kind;
	} how[] = {[CT_MSG_ERROR] = {true, ""},
		   [CT_MSG_WARN] = {true, "warning: "},
		   [CT_MSG_WARN_PLAIN] = {false, "warning: "}};
	for (size_t i = 0; i < m->n; i++) {
		/* (not ct_tx, whose buffers are shared: live's and top's
		 * follower prints from its own thread) */
		char *text = ct_text_dup(m->v[i].text);
		unsigned k =
			m->v[i].kind < sizeof(how) / sizeof(how[0]) ? m->v[i].kind : CT_MSG_ERROR;
		message(how[k].with_command, how[k].kind, "%s", text);
		free(text);
	}
	if (m->dropped)
		ct_error("%zu more message%s not kept (out of memory)", m->dropped,
			 m->dropped == 1 ? " was" : "s were");
	ct_msgs_free(m);
}
