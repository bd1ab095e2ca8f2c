/* SPDX-License-Identifier: MIT */
/* The text of an injected fault: see injtext.h */
#include "injtext.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "calltrace/format.h"

void ct_inj_describe(unsigned acts, uint64_t value, int err, int sig, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
#define PUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	if (acts & (CT_INJ_A_RETURN | CT_INJ_A_RETVAL))
		PUT("%s %" PRId64, acts & CT_INJ_A_RETURN ? "return" : "retval", (int64_t)value);
	if (acts & CT_INJ_A_THROW)
		PUT("throw std::%s", value == 1 ? "bad_alloc" : "runtime_error");
	if (acts & CT_INJ_A_ERRNO) {
		const char *nm = err > 0 ? strerrorname_np(err) : NULL;
		if (nm)
			PUT("%serrno %s", n ? ", " : "", nm);
		else
			PUT("%serrno %d", n ? ", " : "", err);
	}
	if (acts & CT_INJ_A_SIGNAL) {
		const char *nm = sig > 0 && sig < 32 ? sigabbrev_np(sig) : NULL;
		if (nm)
			PUT("%ssignal SIG%s", n ? ", " : "", nm);
		else
			PUT("%ssignal %d", n ? ", " : "", sig);
	}
#undef PUT
}

void ct_inj_text(unsigned arg, const unsigned char *p, char *buf, size_t len)
{
	uint32_t w[CT_INJ_PAYLOAD];
	memcpy(w, p, sizeof(w));
	char d[112];
	ct_inj_describe(arg, (uint64_t)w[1] << 32 | w[0], (int)w[2], (int)w[3], d, sizeof(d));
	snprintf(buf, len, "injected: %s", d);
}
