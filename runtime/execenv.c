/* SPDX-License-Identifier: MIT */
/*
 * The environment of exec'd images: calltrace's variables as this image
 * got them, put back into the environment of an image the program execs or
 * spawns without them (the interposers are wrap.c's).
 */
#include <dlfcn.h>
#include <string.h>

#include "internal.h"

/* calltrace's variables as this image got them from `record` ("NAME=value",
 * or empty), put back into the environment of an image that the program
 * execs or spawns without them (wrap.c), so that it is traced too */
static const char *const exec_names[] = {
	"LD_PRELOAD",  CT_ENV_DIR,    CT_ENV_SHM,      CT_ENV_CLOCK,  CT_ENV_BUFSIZE, CT_ENV_NBUF,
	CT_ENV_DROP,   CT_ENV_ARGS,   CT_ENV_FILTER,   CT_ENV_FLIGHT, CT_ENV_LIBCALL, CT_ENV_COUNT,
	CT_ENV_PLUGIN, CT_ENV_INJECT, CT_ENV_CALLSITE, CT_ENV_SAMPLE,
};
#define NEXEC (sizeof(exec_names) / sizeof(exec_names[0]))
static char exec_vals[NEXEC][4200];
static char self_lib[4096]; /* this library's path, as LD_PRELOAD names it */

void ct_exec_env_save(void)
{
	Dl_info di;
	if (dladdr((void *)ct_process_ready, &di) && di.dli_fname &&
	    strlen(di.dli_fname) < sizeof(self_lib))
		strcpy(self_lib, di.dli_fname);
	for (size_t i = 0; i < NEXEC; i++) {
		const char *v = ct_getenv(exec_names[i]);
		exec_vals[i][0] = 0;
		if (!v || strlen(exec_names[i]) + strlen(v) + 2 > sizeof(exec_vals[i]))
			continue;
		ct_fmt(exec_vals[i], sizeof(exec_vals[i]), "%s=%s", exec_names[i], v);
	}
	/* an LD_PRELOAD too long to keep: our library alone */
	if (!exec_vals[0][0] && self_lib[0] && ct_getenv("LD_PRELOAD"))
		ct_fmt(exec_vals[0], sizeof(exec_vals[0]), "LD_PRELOAD=%s", self_lib);
}

/* envp's entry NAME=..., or NULL */
static char *env_find(char *const envp[], const char *name)
{
	size_t l = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, l) && envp[i][l] == '=')
			return envp[i];
	return NULL;
}

/* does the LD_PRELOAD value v name our library (as an element)? */
static bool preload_has_self(const char *v)
{
	size_t l = strlen(self_lib);
	while (*v) {
		size_t n = strcspn(v, ": ");
		if (n == l && !strncmp(v, self_lib, l))
			return true;
		v += n;
		v += strspn(v, ": ");
	}
	return false;
}

size_t ct_exec_env_extra(void)
{
	return NEXEC + 1;
}

size_t ct_exec_env_buf(char *const envp[])
{
	const char *p = env_find(envp, "LD_PRELOAD");
	return strlen(self_lib) + (p ? strlen(p) : 0) + 16;
}

char *const *ct_exec_env(char *const envp[], char **out, char *buf, size_t buflen, bool *changed)
{
	*changed = false;
	if (!exec_vals[1][0] || !exec_vals[2][0]) /* not under record */
		return envp;
	size_t n = 0;
	bool missing[NEXEC] = {false};
	char *preload = NULL; /* a new LD_PRELOAD entry */
	for (size_t i = 0; i < NEXEC; i++) {
		if (!exec_vals[i][0])
			continue;
		char *e = env_find(envp, exec_names[i]);
		if (!e) {
			missing[i] = *changed = true;
		} else if (i == 0 && self_lib[0] && !preload_has_self(e + 11)) {
			/* the program's own LD_PRELOAD: ours first, then its */
			size_t l = strlen(self_lib);
			if (l + strlen(e) + 2 > buflen)
				continue;
			memcpy(buf, "LD_PRELOAD=", 11);
			memcpy(buf + 11, self_lib, l);
			buf[11 + l] = ':';
			strcpy(buf + 12 + l, e + 11);
			preload = buf;
			*changed = true;
		}
	}
	if (!*changed)
		return envp;
	for (size_t i = 0; envp && envp[i]; i++)
		out[n++] = preload && !strncmp(envp[i], "LD_PRELOAD=", 11) ? preload : envp[i];
	for (size_t i = 0; i < NEXEC; i++)
		if (missing[i])
			out[n++] = exec_vals[i];
	out[n] = NULL;
	ct_untraced(CT_UNTRACED_EXEC_ENV);
	return out;
}
