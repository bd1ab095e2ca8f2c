/* SPDX-License-Identifier: MIT */
/* The modules a program will trace, found before it runs; see modfind.h. */
#include "modfind.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <grp.h>
#include <libelf.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "error.h"
#include "util.h"

char *ct_find_program(const char *name)
{
	char buf[PATH_MAX];
	if (strchr(name, '/'))
		return realpath(name, buf) ? xstrdup(buf) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);
		char cand[2 * PATH_MAX];
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, n ? path : ".", name);
		if (access(cand, X_OK) == 0 && realpath(cand, buf))
			return xstrdup(buf);
		path += n + (c ? 1 : 0);
	}
	return NULL;
}

bool ct_program_secure(const char *path, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	struct statvfs vfs;
	char magic[4];
	bool elf = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, magic, 4, 0) == 4 &&
		   !memcmp(magic, "\177ELF", 4);
	/* (the kernel ignores the bits of a script; no_new_privs and nosuid
	 * make it ignore them and the capabilities) */
	bool honoured = elf && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 &&
			!(fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOSUID));
	ssize_t caps = honoured ? fgetxattr(fd, "security.capability", NULL, 0) : -1;
	close(fd);
	if (!honoured)
		return false;
	if ((st.st_mode & S_ISUID) && st.st_uid != getuid()) {
		struct passwd *pw = getpwuid(st.st_uid);
		if (st.st_uid == 0)
			snprintf(why, len, "setuid root");
		else
			snprintf(why, len, "setuid to user %u%s%s%s", (unsigned)st.st_uid,
				 pw ? " (" : "", pw ? pw->pw_name : "", pw ? ")" : "");
		return true;
	}
	if ((st.st_mode & S_ISGID) && st.st_gid != getgid()) {
		struct group *gr = getgrgid(st.st_gid);
		snprintf(why, len, "setgid to group %u%s%s%s", (unsigned)st.st_gid, gr ? " (" : "",
			 gr ? gr->gr_name : "", gr ? ")" : "");
		return true;
	}
	if (caps > 0 && getuid() != 0) {
		snprintf(why, len, "has file capabilities");
		return true;
	}
	return false;
}

struct modinfo {
	bool instrumented;
	bool regs;
	unsigned fe; /* CT_MOD_FE_* */
	char **needed;
	size_t nneeded;
	char *runpath, *rpath;
};

static void modinfo_free(struct modinfo *m)
{
	for (size_t i = 0; i < m->nneeded; i++)
		free(m->needed[i]);
	free(m->needed);
	free(m->runpath);
	free(m->rpath);
}

static const char *const hooks[] = {"__cyg_profile_func_enter", "mcount", "_mcount", "__fentry__",
				    NULL};

static void dynamic_entry(Elf *e, const GElf_Shdr *sh, const GElf_Dyn *dyn, struct modinfo *mi)
{
	if (dyn->d_tag != DT_NEEDED && dyn->d_tag != DT_RUNPATH && dyn->d_tag != DT_RPATH)
		return;
	const char *v = elf_strptr(e, sh->sh_link, dyn->d_un.d_val);
	if (!v)
		return;
	if (dyn->d_tag == DT_NEEDED) {
		mi->needed = xrealloc(mi->needed, (mi->nneeded + 1) * sizeof(char *));
		mi->needed[mi->nneeded++] = xstrdup(v);
	} else {
		char **to = dyn->d_tag == DT_RUNPATH ? &mi->runpath : &mi->rpath;
		free(*to);
		*to = xstrdup(v);
	}
}

static int read_modinfo(const char *path, struct modinfo *mi)
{
	memset(mi, 0, sizeof(*mi));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return -1;
	}
	size_t shstrndx = 0;
	elf_getshdrstrndx(e, &shstrndx);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *sname = elf_strptr(e, shstrndx, sh.sh_name);
		if (sname && !strcmp(sname, "__patchable_function_entries"))
			mi->instrumented = mi->regs = true, mi->fe |= CT_MOD_FE_PATCH;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n && (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB);
		     i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF)
				continue;
			const char *nm = elf_strptr(e, sh.sh_link, sym.st_name);
			for (int k = 0; nm && hooks[k]; k++)
				if (!strcmp(nm, hooks[k])) {
					mi->instrumented = true;
					mi->regs |= k > 0;
					mi->fe |= k == 0  ? CT_MOD_FE_CYG
						  : k < 3 ? CT_MOD_FE_MCOUNT
							  : CT_MOD_FE_FENTRY;
				}
		}
		for (size_t i = 0; i < n && sh.sh_type == SHT_DYNAMIC; i++) {
			GElf_Dyn dyn;
			if (gelf_getdyn(d, (int)i, &dyn))
				dynamic_entry(e, &sh, &dyn, mi);
		}
	}
	elf_end(e);
	close(fd);
	return 0;
}

/* look for lib in the ':'-separated dirs ($ORIGIN = origin) */
static char *search_dirs(const char *dirs, const char *origin, const char *lib)
{
	while (dirs && *dirs) {
		const char *c = strchr(dirs, ':');
		size_t n = c ? (size_t)(c - dirs) : strlen(dirs);
		char d[PATH_MAX], cand[2 * PATH_MAX + 16], real[PATH_MAX];
		snprintf(d, sizeof(d), "%.*s", (int)n, dirs);
		if (!strncmp(d, "$ORIGIN", 7))
			snprintf(cand, sizeof(cand), "%s%s/%s", origin, d + 7, lib);
		else if (!strncmp(d, "${ORIGIN}", 9))
			snprintf(cand, sizeof(cand), "%s%s/%s", origin, d + 9, lib);
		else
			snprintf(cand, sizeof(cand), "%s/%s", *d ? d : ".", lib);
		if (access(cand, R_OK) == 0 && realpath(cand, real))
			return xstrdup(real);
		dirs += n + (c ? 1 : 0);
	}
	return NULL;
}

/* the emulated program's library root (ct_modules_root), or "" */
static char lib_root[PATH_MAX];

void ct_modules_root(const char *root)
{
	snprintf(lib_root, sizeof(lib_root), "%s", root ? root : "");
}

static char *find_lib(const char *lib, const char *from, const struct modinfo *mi)
{
	char origin[PATH_MAX];
	snprintf(origin, sizeof(origin), "%s", from);
	char *sl = strrchr(origin, '/');
	if (sl)
		*sl = 0;
	char real[PATH_MAX];
	if (strchr(lib, '/'))
		return realpath(lib, real) ? xstrdup(real) : NULL;
	char *r = NULL;
	if (!mi->runpath && mi->rpath)
		r = search_dirs(mi->rpath, origin, lib);
	if (!r)
		r = search_dirs(getenv("LD_LIBRARY_PATH"), origin, lib);
	if (!r && mi->runpath)
		r = search_dirs(mi->runpath, origin, lib);
	if (!r && *lib_root) {
		/* an emulated program's loader looks in the library root
		 * (qemu-user -L; aarch64 is the one emulated), never in this
		 * machine's directories */
		char d[8 * PATH_MAX];
		snprintf(d, sizeof(d),
			 "%s/lib/aarch64-linux-gnu:%s/usr/lib/aarch64-linux-gnu:%s/lib64:%s/usr/"
			 "lib64:%s/lib:%s/usr/lib",
			 lib_root, lib_root, lib_root, lib_root, lib_root, lib_root);
		return search_dirs(d, origin, lib);
	}
	if (!r)
		r = search_dirs("/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
				"/lib:/usr/lib:/usr/local/lib",
				origin, lib);
	return r;
}

int ct_module_frontends(const char *path)
{
	struct modinfo mi;
	if (read_modinfo(path, &mi) < 0)
		return -1;
	int r = (int)mi.fe;
	modinfo_free(&mi);
	return r;
}

int ct_module_instrumented(const char *path)
{
	struct modinfo mi;
	if (read_modinfo(path, &mi) < 0)
		return -1;
	int r = mi.instrumented;
	modinfo_free(&mi);
	return r;
}

/* does the file at path begin with "#!" */
static bool is_script(const char *path)
{
	char b[2] = {0, 0};
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, b, 2);
	close(fd);
	return n == 2 && b[0] == '#' && b[1] == '!';
}

int ct_modules_walk(const char *prog, char *const *libs, size_t nlibs, const char *libopt,
		    int (*fn)(void *ctx, const struct ct_modfound *m), void *ctx,
		    struct ct_error *err)
{
	int rc = 0;
	char **paths = NULL;
	/* the name each was needed by ("libstdc++.so.6", which the loader
	 * names it by), NULL for the command line's */
	char **needed = NULL;
	size_t npaths = 0;
	char *exe = ct_find_program(prog);
	if (!exe)
		return 0; /* running it fails the same way: record says so */
	paths = xmalloc(sizeof(char *));
	needed = xcalloc(1, sizeof(char *));
	paths[npaths++] = exe;
	for (size_t i = 0; i < nlibs; i++) {
		char real[PATH_MAX];
		if (!realpath(libs[i], real)) {
			snprintf(err->msg, sizeof(err->msg), "%s %s: %s", libopt, libs[i],
				 strerror(errno));
			rc = -1;
			goto out;
		}
		paths = xrealloc(paths, (npaths + 1) * sizeof(char *));
		needed = xrealloc(needed, (npaths + 1) * sizeof(char *));
		needed[npaths] = NULL;
		paths[npaths++] = xstrdup(real);
	}
	size_t nexplicit = npaths;
	for (size_t i = 0; i < npaths && npaths < 512; i++) {
		struct modinfo mi;
		if (read_modinfo(paths[i], &mi) < 0) {
			if (i == 0 && is_script(paths[i]))
				continue; /* (ct_modules_walk's comment) */
			if (i < nexplicit) {
				snprintf(err->msg, sizeof(err->msg), "%s: not an ELF file",
					 paths[i]);
				rc = -1;
				goto out;
			}
			continue;
		}
		struct ct_modfound m = {paths[i],
					i > 0 && i < nexplicit,
					mi.instrumented,
					mi.regs,
					i == 0,
					mi.fe,
					needed[i] ? needed[i] : ct_basename(paths[i])};
		rc = fn(ctx, &m);
		for (size_t k = 0; rc >= 0 && k < mi.nneeded; k++) {
			char *l = find_lib(mi.needed[k], paths[i], &mi);
			if (!l)
				continue;
			bool seen = false;
			for (size_t j = 0; j < npaths && !seen; j++)
				seen = !strcmp(paths[j], l);
			if (seen) {
				free(l);
				continue;
			}
			paths = xrealloc(paths, (npaths + 1) * sizeof(char *));
			needed = xrealloc(needed, (npaths + 1) * sizeof(char *));
			needed[npaths] = xstrdup(ct_basename(mi.needed[k]));
			paths[npaths++] = l;
		}
		modinfo_free(&mi);
		if (rc < 0)
			goto out;
	}
out:
	for (size_t i = 0; i < npaths; i++) {
		free(paths[i]);
		free(needed[i]);
	}
	free(paths);
	free(needed);
	return rc;
}
