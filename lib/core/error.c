/* SPDX-License-Identifier: MIT */
/* Setting the reading library's error (error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

#include "output.h"

void ct_set_err(struct ct_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	ct_text_fix(err->msg, sizeof(err->msg));
}
