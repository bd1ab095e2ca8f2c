/* SPDX-License-Identifier: MIT */
/* The analysis side's messages to stderr: the one place of their prefix. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "message.h"

static const char *command;

void ct_set_command(const char *cmd)
{
	command = cmd;
}

const char *ct_command(void)
{
	return command;
}

/* "calltrace CMD: " (or "calltrace: " without the command), kind, the
 * message, a newline */
static void vmessage(bool with_command, const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vmessage(bool with_command, const char *kind, const char *fmt, va_list ap)
{
	if (command && with_command)
		fprintf(stderr, "calltrace %s: ", command);
	else
		fputs("calltrace: ", stderr);
	fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ct_verror(const char *fmt, va_list ap)
{
	vmessage(true, "", fmt, ap);
}

int ct_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_verror(fmt, ap);
	va_end(ap);
	return 1;
}

void ct_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(true, "warning: ", fmt, ap);
	va_end(ap);
}

void ct_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_verror(fmt, ap);
	va_end(ap);
	exit(1);
}

void ct_warn_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(false, "warning: ", fmt, ap);
	va_end(ap);
}

void ct_die_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(false, "", fmt, ap);
	va_end(ap);
	exit(1);
}
