/* SPDX-License-Identifier: MIT */
/*
 * The module map: each loaded module's "module" line in the .proc file
 * (its base, range, build-id and absolute path), at start-up and again at
 * each dlopen and dlclose ("unmodule"), and the tables of the other parts
 * (arguments, filters, plugins, injection, patched entries, library calls)
 * told of it.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "internal.h"
#include "unwind.h"

static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

#define MAX_MODULES 4096
struct module {
	uintptr_t base;
	uint64_t key; /* a hash of its name as the loader gives it */
	char name[256];
	int seen;
};
static struct module modules[MAX_MODULES];
static int nmodules;
char ct_exe_path[4096]; /* the main program, /proc/self/exe at start-up */

static void hex_buildid(const ElfW(Phdr) * ph, uintptr_t base, char *out, size_t outlen)
{
	const char *p = (const char *)(base + ph->p_vaddr);
	const char *end = p + ph->p_memsz;
	strcpy(out, "-");
	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
		size_t namesz = (nh->n_namesz + 3) & ~3u, descsz = (nh->n_descsz + 3) & ~3u;
		const char *name = p + sizeof(*nh);
		const unsigned char *desc = (const unsigned char *)name + namesz;
		if ((const char *)desc + nh->n_descsz > end)
			break;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    nh->n_descsz * 2 + 1 <= outlen) {
			for (unsigned i = 0; i < nh->n_descsz; i++) {
				out[2 * i] = "0123456789abcdef"[desc[i] >> 4];
				out[2 * i + 1] = "0123456789abcdef"[desc[i] & 15];
			}
			out[2 * nh->n_descsz] = 0;
			return;
		}
		p = (const char *)desc + descsz;
	}
}

bool ct_elf_extent(const void *ehdr, bool exec_only, uintptr_t *lo, uintptr_t *hi)
{
	const ElfW(Ehdr) *eh = ehdr;
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return false;
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff);
	uintptr_t bias = 0, l = UINTPTR_MAX, h = 0;
	bool first = true;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (first) /* the header is at the start of the first */
			bias = (uintptr_t)eh - (ph[i].p_vaddr - ph[i].p_offset);
		first = false;
		if (exec_only && !(ph[i].p_flags & PF_X))
			continue;
		if (bias + ph[i].p_vaddr < l)
			l = bias + ph[i].p_vaddr;
		if (bias + ph[i].p_vaddr + ph[i].p_memsz > h)
			h = bias + ph[i].p_vaddr + ph[i].p_memsz;
	}
	if (h <= l)
		return false;
	*lo = l;
	*hi = h;
	return true;
}

static uint64_t name_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* the file mapped at addr, as the kernel names it in /proc/self/maps (an
 * absolute path; "\012" there is a newline), into out: 1; 0 if there is
 * none (the vDSO's "[vdso]"), -1 if /proc cannot be read */
static int mapped_file(uintptr_t addr, char *out, size_t len)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[8192];
	size_t have = 0;
	bool found = false, eof = false;
	while (!found && !eof) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (r <= 0)
			eof = true;
		else
			have += (size_t)r;
		buf[have] = 0;
		char *line = buf, *nl;
		while (!found && ((nl = strchr(line, '\n')) || (eof && *line))) {
			if (nl)
				*nl = 0;
			char *e;
			unsigned long lo = strtoul(line, &e, 16),
				      hi = *e == '-' ? strtoul(e + 1, &e, 16) : 0;
			if (addr >= lo && addr < hi) {
				/* "lo-hi perms offset dev inode   path" */
				for (int f = 0; f < 4 && *e; f++) {
					e += strspn(e, " ");
					e += strcspn(e, " ");
				}
				e += strspn(e, " ");
				size_t n = 0;
				for (; *e && n + 1 < len; e++)
					out[n++] = strncmp(e, "\\012", 4) ? *e : (e += 3, '\n');
				out[n] = 0;
				found = out[0] == '/';
				eof = true; /* (and not found: no file there) */
			}
			if (!nl)
				break;
			line = nl + 1;
		}
		/* what is left of a line that did not fit moves to the front */
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0; /* a line longer than the buffer: not a module's */
	}
	close(fd);
	return found;
}

/* a module the loader names by a relative path ("./libx.so", or found
 * through a relative LD_LIBRARY_PATH): relative to the working directory
 * of the dlopen, which the program may change at any time (another thread
 * even before this scan).  The kernel knows which file it mapped at addr:
 * that name, or, without /proc, the working directory now */
static const char *absolute_name(const char *name, uintptr_t addr, char *out, size_t len)
{
	if (name[0] == '/')
		return name;
	int m = mapped_file(addr, out, len);
	if (m >= 0)
		return m ? out : name;
	char cwd[4096];
	struct stat st;
	if (stat(name, &st) == 0 && getcwd(cwd, sizeof(cwd)) &&
	    strlen(cwd) + strlen(name) + 2 <= len) {
		ct_fmt(out, len, "%s/%s", cwd, name[0] == '.' && name[1] == '/' ? name + 2 : name);
		return out;
	}
	return name;
}

static int module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uint64_t now = *(uint64_t *)data;
	const char *name = info->dlpi_name;
	if (!name || !*name)
		name = ct_exe_path;
	uint64_t key = name_key(name);
	for (int i = 0; i < nmodules; i++) {
		if (modules[i].base == info->dlpi_addr && modules[i].key == key) {
			modules[i].seen = 1;
			return 0;
		}
	}
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	char bid[128] = "-";
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD) {
			uintptr_t a = info->dlpi_addr + ph->p_vaddr;
			if (a < lo)
				lo = a;
			if (a + ph->p_memsz > hi)
				hi = a + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && bid[0] == '-') {
			hex_buildid(ph, info->dlpi_addr, bid, sizeof(bid));
		}
	}
	if (lo == UINTPTR_MAX)
		lo = hi = info->dlpi_addr;
	char abs[4096];
	name = absolute_name(name, lo, abs, sizeof(abs));
	char head[256];
	ct_fmt(head, sizeof(head), "module %lu %lx %lx %lx %s", (unsigned long)now,
	       (unsigned long)info->dlpi_addr, (unsigned long)lo, (unsigned long)hi, bid);
	ct_proc_path_line(head, name);
	ct_args_module(info->dlpi_addr, name, bid, true);
	ct_filt_module(info->dlpi_addr, name, bid, true);
	ct_plug_module(info->dlpi_addr, name, bid, true);
	ct_inj_module(info->dlpi_addr, name, bid, true);
	ct_args_segments(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, true);
	if (nmodules < MAX_MODULES) {
		modules[nmodules].base = info->dlpi_addr;
		modules[nmodules].key = key;
		size_t l = strlen(name);
		if (l > 255)
			l = 255;
		memcpy(modules[nmodules].name, name, l);
		modules[nmodules].name[l] = 0;
		modules[nmodules].seen = 1;
		nmodules++;
	}
	/* -fpatchable-function-entry: patch the module's sites (once); its
	 * library calls after the walk (libcall.c) */
	bool sites =
		ct_patch_module(name, name, info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum);
	ct_libcall_note(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, sites);
	return 0;
}

static int main_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && *info->dlpi_name)
		return 0; /* the executable has no name here */
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_NOTE && ((char *)data)[0] == '-')
			hex_buildid(&info->dlpi_phdr[i], info->dlpi_addr, data, 128);
	return 1;
}

void ct_modules_main_buildid(char *out, size_t len)
{
	char bid[128] = "-";
	dl_iterate_phdr(main_cb, bid);
	ct_fmt(out, len, "%s", bid);
}

void ct_modules_rescan(void)
{
	uint64_t now = ct_clock();
	pthread_mutex_lock(&mod_lock);
	for (int i = 0; i < nmodules; i++)
		modules[i].seen = 0;
	dl_iterate_phdr(module_cb, &now);
	ct_libcall_flush();
	for (int i = 0; i < nmodules;) {
		if (!modules[i].seen) {
			char head[64];
			ct_fmt(head, sizeof(head), "unmodule %lu %lx", (unsigned long)now,
			       (unsigned long)modules[i].base);
			ct_proc_path_line(head, modules[i].name);
			ct_patch_forget(modules[i].base);
			ct_libcall_forget(modules[i].base);
			ct_args_module(modules[i].base, modules[i].name, NULL, false);
			ct_filt_module(modules[i].base, modules[i].name, NULL, false);
			ct_plug_module(modules[i].base, modules[i].name, NULL, false);
			ct_inj_module(modules[i].base, modules[i].name, NULL, false);
			ct_args_segments(modules[i].base, NULL, 0, false);
			modules[i] = modules[--nmodules];
		} else {
			i++;
		}
	}
#ifdef CT_ARCH_UNWIND
	if (ct_count_stack) /* --count --sample: where the samples unwind */
		ct_unwind_refresh();
#endif
	pthread_mutex_unlock(&mod_lock);
}

/* a new .proc file (start-up, a forked child): every module is new to it */
void ct_modules_reset(void)
{
	pthread_mutex_lock(&mod_lock);
	nmodules = 0;
	pthread_mutex_unlock(&mod_lock);
}
