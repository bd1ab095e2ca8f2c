/* SPDX-License-Identifier: MIT */
/* What the spec files for the runtime share: see specout.h */
#include "specout.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "modfind.h"
#include "symtab.h"

FILE *ct_specout_create(const char *dir, int dfd, const char *name, char *path, size_t pathlen,
			struct ct_error *err)
{
	snprintf(path, pathlen, "%s/%s", dir, name);
	/* private, new (the data directory was just made), never through a
	 * link, in the directory record opened and checked */
	int fd = openat(dfd >= 0 ? dfd : AT_FDCWD, dfd >= 0 ? name : path,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

void ct_specout_text(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputs("-", f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

struct ct_symtab *ct_specout_module(FILE *f, const struct ct_modfound *m, struct ct_error *err,
				    int *rc)
{
	struct ct_error e;
	struct ct_symtab *st = ct_symtab_names_from_elf(m->path, &e);
	*rc = 0;
	if (!st) {
		if (m->explicit_ || m->main_) {
			*err = e;
			*rc = -1;
		}
		return NULL;
	}
	fputs("module ", f);
	ct_specout_text(f, st->buildid);
	fputc(' ', f);
	ct_specout_text(f, m->path);
	fputc('\n', f);
	return st;
}
