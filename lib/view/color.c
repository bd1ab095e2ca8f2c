/* SPDX-License-Identifier: MIT */
/* Colour in the views' output: see color.h. */
#include "color.h"

#include <stdlib.h>
#include <string.h>

int ct_color_when_of(const char *arg)
{
	if (!strcmp(arg, "auto"))
		return CT_COLOR_AUTO;
	if (!strcmp(arg, "always"))
		return CT_COLOR_ALWAYS;
	if (!strcmp(arg, "never"))
		return CT_COLOR_NEVER;
	return -1;
}

bool ct_color_on(enum ct_color_when when, bool tty)
{
	if (when != CT_COLOR_AUTO)
		return when == CT_COLOR_ALWAYS;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	const char *term = getenv("TERM");
	if (term && !strcmp(term, "dumb"))
		return false;
	return tty;
}

const char *ct_color_duration(uint64_t ns)
{
	if (ns >= 100000000)
		return "\033[1;31m";
	if (ns >= 10000000)
		return "\033[31m";
	if (ns >= 1000000)
		return "\033[33m";
	return NULL;
}
