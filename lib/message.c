/* SPDX-License-Identifier: MIT */
/* The analysis side's messages to stderr: the one place of their prefix. */
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

static void prefix(void)
{
	if (command)
		fprintf(stderr, "calltrace %s: ", command);
	else
		fputs("calltrace: ", stderr);
}

void ct_verror(const char *fmt, va_list ap)
{
	prefix();
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	prefix();
	fputs("warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ct_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_verror(fmt, ap);
	va_end(ap);
	exit(1);
}
