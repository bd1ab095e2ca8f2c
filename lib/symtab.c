/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables from ELF files (libelf) with file:line from DWARF (libdw),
 * and their text copies in DIR/sym/<key>.sym (see doc/format.md).
 */
#include "symtab.h"

#include <dirent.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "output.h"
#include "util.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

/* the C++ ABI's demangler (libstdc++) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static void set_err(struct ct_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct ct_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	ct_text_fix(err->msg, sizeof(err->msg));
}

char *ct_demangle(const char *name)
{
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	int status = 0;
	char *r = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(r);
		return NULL;
	}
	return r;
}

void ct_symtab_key(const char *buildid, const char *path, char *out, size_t outlen)
{
	/* a build-id names a file: lowercase hex only, else a key from the
	 * path (a hostile .proc cannot point outside DIR/sym) */
	if (buildid && *buildid && strlen(buildid) <= 200 &&
	    strspn(buildid, "0123456789abcdef") == strlen(buildid)) {
		snprintf(out, outlen, "%s", buildid);
		return;
	}
	snprintf(out, outlen, "path-%016" PRIx64, ct_hash_str(path ? path : ""));
}

/* ---- ELF ------------------------------------------------------------ */

static Elf *open_elf(const char *path, int *fdp, struct ct_error *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		set_err(err, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	/* a module named by a recording: a regular file (a FIFO or a device
	 * in its place must neither block nor be read without end) */
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, false, &size, &why);
	if (fd < 0) {
		set_err(err, "%s: %s", path, why);
		return NULL;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		set_err(err, "%s: not an ELF file", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return elf;
}

static void close_elf(Elf *elf, int fd)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static char *buildid_hex(Elf *elf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	if (n <= 0)
		return NULL;
	char *hex = xmalloc((size_t)n * 2 + 1);
	for (ssize_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", ((const unsigned char *)id)[i]);
	return hex;
}

char *ct_elf_buildid(const char *path)
{
	int fd = -1;
	Elf *elf = open_elf(path, &fd, NULL);
	if (!elf)
		return NULL;
	char *r = buildid_hex(elf);
	close_elf(elf, fd);
	return r;
}

static int sym_rank(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
		return 0;
	case STB_WEAK:
		return 1;
	case STB_LOCAL:
		return 2;
	default:
		return 3;
	}
}

struct rawsym {
	struct ct_symbol s;
	int rank;
};

static int cmp_raw(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;
	if (x->s.value != y->s.value)
		return x->s.value < y->s.value ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if ((x->s.size != 0) != (y->s.size != 0))
		return x->s.size ? -1 : 1;
	return strcmp(x->s.name, y->s.name);
}

/* function symbols of one symbol table section type; returns -1 if the
 * file has no section of that type */
static int read_syms(Elf *elf, Elf64_Word type, struct rawsym **out, size_t *nout)
{
	Elf_Scn *scn = NULL;
	int found = -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		found = 0;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			int t = GELF_ST_TYPE(sym.st_info);
			if ((t != STT_FUNC && t != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
			    !sym.st_value)
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
			struct rawsym *r = &(*out)[(*nout)++];
			memset(r, 0, sizeof(*r));
			r->s.value = sym.st_value;
			r->s.size = sym.st_size;
			r->s.name = xstrdup(name);
			r->rank = sym_rank(GELF_ST_BIND(sym.st_info));
		}
	}
	return found;
}

struct lineinfo {
	uint64_t addr;
	char *file; /* normalised, malloc'd */
	int line;
};

struct linevec {
	struct lineinfo *v;
	size_t n, cap;
};

/* a source path as a reader wants it: a relative one joined to the
 * compilation directory, and "." and ".." components and repeated slashes
 * taken out lexically ("/a/./b/../c" is "/a/c"; a ".." at the top of a
 * relative path stays) */
char *ct_source_path(const char *file, const char *comp_dir)
{
	char *full = file[0] != '/' && comp_dir && *comp_dir ? xasprintf("%s/%s", comp_dir, file)
							       : xstrdup(file);
	bool abs = full[0] == '/';
	char *out = xmalloc(strlen(full) + 2), *o = out;
	size_t keep = 0; /* bytes of leading ".." components that stay */
	if (abs)
		*o++ = '/';
	for (char *p = full; *p;) {
		while (*p == '/')
			p++;
		char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			size_t base = (size_t)abs + keep;
			if ((size_t)(o - out) > base) {
				/* drop the last component */
				o--;
				while ((size_t)(o - out) > base && o[-1] != '/')
					o--;
			} else if (!abs) {
				memcpy(o, "../", 3);
				o += 3;
				keep += 3;
			}
		} else {
			memcpy(o, p, n);
			o += n;
			*o++ = '/';
		}
		p = e;
	}
	if (o > out + 1 || (o == out + 1 && !abs))
		o--; /* the last slash */
	if (o == out)
		*o++ = '.';
	*o = 0;
	free(full);
	return out;
}

static void add_line(struct linevec *lv, uint64_t addr, const char *file, const char *comp_dir,
		     int line)
{
	if (lv->n == lv->cap) {
		lv->cap = lv->cap ? lv->cap * 2 : 256;
		lv->v = xrealloc(lv->v, lv->cap * sizeof(*lv->v));
	}
	lv->v[lv->n++] = (struct lineinfo){addr, ct_source_path(file, comp_dir), line};
}

static void walk_dies(Dwarf_Die *parent, const char *comp_dir, struct linevec *lv, int level)
{
	Dwarf_Die die;
	if (level > 64 || dwarf_child(parent, &die) != 0)
		return;
	do {
		int tag = dwarf_tag(&die);
		if (tag == DW_TAG_subprogram) {
			const char *file = dwarf_decl_file(&die);
			int line = 0;
			dwarf_decl_line(&die, &line);
			Dwarf_Addr lo;
			if (!file) {
				/* nothing to say */
			} else if (dwarf_lowpc(&die, &lo) == 0 || dwarf_entrypc(&die, &lo) == 0) {
				add_line(lv, lo, file, comp_dir, line);
			} else {
				/* DW_AT_ranges without a low pc: a function split
				 * into hot and cold parts (usual at -O2); each part
				 * starts a symbol (main, main.cold) */
				Dwarf_Addr base, start, end;
				ptrdiff_t off = 0;
				int n = 0;
				while (n++ < 64 &&
				       (off = dwarf_ranges(&die, off, &base, &start, &end)) > 0)
					add_line(lv, start, file, comp_dir, line);
			}
		} else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
			   tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			   tag == DW_TAG_module) {
			walk_dies(&die, comp_dir, lv, level + 1);
		}
	} while (dwarf_siblingof(&die, &die) == 0);
}

static int cmp_line(const void *a, const void *b)
{
	const struct lineinfo *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* fill in file:line from the DWARF of elf; false if it has none */
static bool add_dwarf(Elf *elf, struct ct_symtab *t)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw)
		return false;
	struct linevec lv = {0};
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;
	while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Attribute a;
		const char *comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &a));
		if (unit_type == DW_UT_compile || unit_type == DW_UT_partial)
			walk_dies(&cudie, comp_dir, &lv, 0);
		else if (unit_type == DW_UT_skeleton)
			walk_dies(&subdie, comp_dir, &lv, 0);
	}
	if (lv.n) {
		ct_qsort(lv.v, lv.n, sizeof(*lv.v), cmp_line);
		for (size_t i = 0; i < t->nsyms; i++) {
			struct ct_symbol *s = &t->syms[i];
			size_t lo = 0, hi = lv.n;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (lv.v[mid].addr < s->value)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < lv.n && lv.v[lo].addr == s->value && !s->file) {
				s->file = xstrdup(lv.v[lo].file);
				s->line = lv.v[lo].line;
			}
		}
	}
	for (size_t i = 0; i < lv.n; i++)
		free(lv.v[i].file);
	free(lv.v);
	dwarf_end(dw);
	return true;
}

static bool has_section(Elf *elf, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name) && sh.sh_type != SHT_NOBITS)
			return true;
	}
	return false;
}

static void finish_syms(struct ct_symtab *t, struct rawsym *raw, size_t n)
{
	if (n)
		ct_qsort(raw, n, sizeof(*raw), cmp_raw);
	t->syms = xcalloc(n ? n : 1, sizeof(*t->syms));
	t->nsyms = 0;
	for (size_t i = 0; i < n; i++) {
		if (t->nsyms && t->syms[t->nsyms - 1].value == raw[i].s.value) {
			free(raw[i].s.name);
			continue;
		}
		t->syms[t->nsyms++] = raw[i].s;
	}
}

/* the separate debug file of a build-id, as installed by -dbgsym/-dbg
 * packages (malloc'd), or NULL without a usable build-id */
static char *debug_file_path(const char *buildid)
{
	if (!buildid || strlen(buildid) <= 2)
		return NULL;
	return xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", buildid, buildid + 2);
}

struct ct_symtab *ct_symtab_from_elf(const char *path, struct ct_error *err)
{
	int fd = -1;
	Elf *elf = open_elf(path, &fd, err);
	if (!elf)
		return NULL;
	struct ct_symtab *t = xcalloc(1, sizeof(*t));
	t->path = xstrdup(path);
	t->buildid = buildid_hex(elf);

	/* a separate debug file, as installed by -dbgsym/-dbg packages */
	int dfd = -1;
	Elf *delf = NULL;
	char *dpath = debug_file_path(t->buildid);
	if (dpath && access(dpath, R_OK) == 0)
		delf = open_elf(dpath, &dfd, NULL);
	free(dpath);

	struct rawsym *raw = NULL;
	size_t n = 0;
	if (read_syms(elf, SHT_SYMTAB, &raw, &n) < 0) {
		if (!delf || read_syms(delf, SHT_SYMTAB, &raw, &n) < 0)
			read_syms(elf, SHT_DYNSYM, &raw, &n);
	}
	finish_syms(t, raw, n);
	free(raw);
	if (!has_section(elf, ".debug_info") || !add_dwarf(elf, t)) {
		if (delf)
			add_dwarf(delf, t);
	}
	close_elf(delf, dfd);
	close_elf(elf, fd);
	return t;
}

const struct ct_symbol *ct_symtab_lookup(const struct ct_symtab *t, uint64_t value)
{
	if (!t || !t->nsyms)
		return NULL;
	size_t lo = 0, hi = t->nsyms;
	while (lo < hi) { /* first symbol with value > v */
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].value <= value)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct ct_symbol *s = &t->syms[lo - 1];
	if (value == s->value || value - s->value < s->size)
		return s;
	return NULL;
}

void ct_symtab_free(struct ct_symtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nsyms; i++) {
		free(t->syms[i].name);
		free(t->syms[i].file);
	}
	free(t->syms);
	free(t->path);
	free(t->buildid);
	free(t);
}

/* ---- the .sym text format ------------------------------------------------ */

/* bytes that are spaces, control characters, DEL or '%' become %XX */
static void put_enc(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= 0x20 || c == 0x7f || c == '%')
			fprintf(f, "%%%02X", c);
		else
			putc(c, f);
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *dec(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		int a, b;
		if (s[i] == '%' && i + 2 < n && (a = hexval(s[i + 1])) >= 0 &&
		    (b = hexval(s[i + 2])) >= 0) {
			*o++ = (char)(a << 4 | b);
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = 0;
	return out;
}

/* a new file, mode 0600, never through a link (a stale one is replaced) */
static FILE *fopen_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && unlink(path) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f && fd >= 0)
		close(fd);
	return f;
}

int ct_symtab_save(const struct ct_symtab *t, const char *file, struct ct_error *err)
{
	char *tmp = xasprintf("%s.tmp%d", file, (int)getpid());
	FILE *f = fopen_private(tmp);
	if (!f) {
		set_err(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "calltrace-sym 1\nbuildid %s\npath ", t->buildid ? t->buildid : "-");
	put_enc(f, t->path ? t->path : "");
	putc('\n', f);
	for (size_t i = 0; i < t->nsyms; i++) {
		const struct ct_symbol *s = &t->syms[i];
		fprintf(f, "%" PRIx64 " %" PRIx64 " ", s->value, s->size);
		put_enc(f, s->name);
		if (s->file) {
			putc(' ', f);
			put_enc(f, s->file);
			fprintf(f, ":%d", s->line);
		}
		putc('\n', f);
	}
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0)
		bad = true;
	if (bad || rename(tmp, file) < 0) {
		set_err(err, "%s: %s", file, strerror(errno ? errno : EIO));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ct_symbol *x = a, *y = b;
	return x->value < y->value ? -1 : x->value > y->value;
}

struct ct_symtab *ct_symtab_load_saved(const char *dir, const char *key, struct ct_error *err)
{
	err->msg[0] = 0;
	char *sdir = xasprintf("%s/sym", dir);
	struct stat st;
	bool ok = lstat(sdir, &st) == 0;
	if (ok && !S_ISDIR(st.st_mode)) {
		set_err(err, "%s: not a directory%s", sdir,
			S_ISLNK(st.st_mode) ? " (a symbolic link; the files of a recording never are)"
					    : "");
		ok = false;
	}
	char *file = xasprintf("%s/%s.sym", sdir, key);
	free(sdir);
	struct ct_symtab *t = NULL;
	if (ok && lstat(file, &st) == 0)
		t = ct_symtab_load(file, err);
	free(file);
	return t;
}

struct ct_symtab *ct_symtab_load(const char *file, struct ct_error *err)
{
	size_t flen;
	char *text = ct_read_file(file, true, CT_SYM_MAX_BYTES, &flen, err->msg, sizeof(err->msg));
	if (!text)
		return NULL;
	FILE *f = flen ? fmemopen(text, flen, "r") : NULL;
	if (!f) {
		if (flen)
			set_err(err, "%s: %s", file, strerror(errno));
		else
			set_err(err, "%s: not a calltrace symbol file (empty)", file);
		free(text);
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = getline(&line, &cap, f);
	if (len < 0 || strncmp(line, "calltrace-sym ", 14)) {
		set_err(err, "%s: not a calltrace symbol file (bad magic)", file);
		free(line);
		fclose(f);
		free(text);
		return NULL;
	}
	if (atoi(line + 14) != 1) {
		set_err(err, "%s: unsupported symbol file version", file);
		free(line);
		fclose(f);
		free(text);
		return NULL;
	}
	struct ct_symtab *t = xcalloc(1, sizeof(*t));
	size_t scap = 0;
	long lineno = 1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		if (!strncmp(line, "buildid ", 8)) {
			free(t->buildid);
			t->buildid = strcmp(line + 8, "-") ? xstrdup(line + 8) : NULL;
			continue;
		}
		if (!strncmp(line, "path ", 5)) {
			free(t->path);
			t->path = dec(line + 5, strlen(line + 5));
			continue;
		}
		if (!len)
			continue;
		char *p = line, *end;
		errno = 0;
		uint64_t value = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			goto bad;
		p = end + 1;
		uint64_t size = strtoull(p, &end, 16);
		if (end == p || *end != ' ' || errno)
			goto bad;
		p = end + 1;
		char *sp = strchr(p, ' ');
		size_t nlen = sp ? (size_t)(sp - p) : strlen(p);
		if (!nlen)
			goto bad;
		struct ct_symbol s = {value, size, dec(p, nlen), NULL, 0};
		if (sp) {
			char *fl = sp + 1;
			char *colon = strrchr(fl, ':');
			if (colon && colon > fl) {
				s.file = dec(fl, (size_t)(colon - fl));
				s.line = atoi(colon + 1);
			}
		}
		if (t->nsyms == scap) {
			scap = scap ? scap * 2 : 256;
			t->syms = xrealloc(t->syms, scap * sizeof(*t->syms));
		}
		t->syms[t->nsyms++] = s;
		continue;
	bad:
		set_err(err, "%s: line %ld: bad symbol line", file, lineno);
		free(line);
		fclose(f);
		free(text);
		ct_symtab_free(t);
		return NULL;
	}
	free(line);
	fclose(f);
	free(text);
	if (t->nsyms)
		ct_qsort(t->syms, t->nsyms, sizeof(*t->syms), cmp_sym);
	else
		t->syms = xcalloc(1, sizeof(*t->syms));
	if (!t->path)
		t->path = xstrdup("");
	return t;
}

/* ---- the per-user cache of .sym files -------------------------------------- */

/* $XDG_CACHE_HOME/calltrace/symN (default ~/.cache/calltrace/symN), created
 * if needed (malloc'd); NULL when CALLTRACE_NO_CACHE is set (and not "0")
 * or the directory cannot be made.  N counts the changes to what a table
 * holds (CT_SYM_CACHE_GEN): tables an older calltrace made (without
 * file:line for split functions, say) are not reused. */
#define CT_SYM_CACHE_GEN "2"
static char *cache_dir(void)
{
	const char *no = getenv("CALLTRACE_NO_CACHE");
	if (no && *no && strcmp(no, "0"))
		return NULL;
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *dir;
	if (xdg && xdg[0] == '/') { /* the spec ignores a relative one */
		dir = xasprintf("%s/calltrace/sym" CT_SYM_CACHE_GEN, xdg);
	} else {
		const char *home = getenv("HOME");
		if (!home || home[0] != '/')
			return NULL;
		dir = xasprintf("%s/.cache/calltrace/sym" CT_SYM_CACHE_GEN, home);
	}
	/* mkdir -p; the levels we create are private to the user */
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = 0;
		int r = mkdir(dir, 0700);
		*p = c;
		if (r < 0 && errno != EEXIST)
			break;
		if (!c)
			break;
	}
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* copy src to dst through a temporary name in dst's directory and rename;
 * with newpath, the "path" line (the third) is replaced by one for newpath */
static int copy_sym(const char *src, const char *dst, const char *newpath)
{
	FILE *in = fopen(src, "re");
	if (!in)
		return -1;
	char *tmp = xasprintf("%s.tmp%d", dst, (int)getpid());
	FILE *out = fopen_private(tmp);
	if (!out) {
		fclose(in);
		free(tmp);
		return -1;
	}
	bool bad = false;
	if (newpath) {
		char *line = NULL;
		size_t cap = 0;
		for (int i = 0; i < 3; i++) {
			if (getline(&line, &cap, in) < 0) {
				bad = true;
				break;
			}
			if (i < 2) {
				fputs(line, out);
			} else {
				fputs("path ", out);
				put_enc(out, newpath);
				putc('\n', out);
			}
		}
		free(line);
	}
	char buf[65536];
	size_t n;
	while (!bad && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			bad = true;
	if (ferror(in))
		bad = true;
	fclose(in);
	if (ferror(out))
		bad = true;
	if (fclose(out) != 0)
		bad = true;
	if (bad || rename(tmp, dst) < 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* whether a cached file is a usable table for buildid: the header and
 * build-id lines are right, it ends with a newline (was written whole), and
 * it is newer than the separate debug file (a -dbg package installed after
 * it was made would give more symbols and file:line).  *pathp gets the
 * decoded "path" value (malloc'd). */
static bool cache_valid(const char *file, const char *buildid, char **pathp)
{
	*pathp = NULL;
	FILE *f = fopen(file, "re");
	if (!f)
		return false;
	bool ok = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct stat st, dst;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	if (getline(&line, &cap, f) < 0 || strcmp(line, "calltrace-sym 1\n"))
		goto out;
	if ((len = getline(&line, &cap, f)) < 9 || strncmp(line, "buildid ", 8) ||
	    line[len - 1] != '\n' || (size_t)len - 9 != strlen(buildid) ||
	    strncmp(line + 8, buildid, (size_t)len - 9))
		goto out;
	if ((len = getline(&line, &cap, f)) < 6 || strncmp(line, "path ", 5) ||
	    line[len - 1] != '\n')
		goto out;
	if (fseek(f, -1, SEEK_END) != 0 || getc(f) != '\n')
		goto out;
	char *dpath = debug_file_path(buildid);
	if (dpath && stat(dpath, &dst) == 0 &&
	    (dst.st_mtime >= st.st_mtime || dst.st_ctime >= st.st_mtime)) {
		free(dpath);
		goto out;
	}
	free(dpath);
	*pathp = dec(line + 5, (size_t)len - 6);
	ok = true;
out:
	free(line);
	fclose(f);
	return ok;
}

/* put the cached table of buildid into out (link, else a copy; the path
 * line rewritten if the module is elsewhere now); false if there is none */
static bool from_cache(const char *cdir, const char *buildid, const char *path, const char *out)
{
	char *cfile = xasprintf("%s/%s.sym", cdir, buildid);
	char *cpath;
	bool ok = false;
	if (cache_valid(cfile, buildid, &cpath)) {
		/* a link only to a private cache file (older ones may not be) */
		struct stat st;
		if (!strcmp(cpath, path) && lstat(cfile, &st) == 0 && !(st.st_mode & 077))
			ok = link(cfile, out) == 0 || errno == EEXIST ||
			     copy_sym(cfile, out, NULL) == 0;
		else if (!strcmp(cpath, path))
			ok = copy_sym(cfile, out, NULL) == 0;
		else
			ok = copy_sym(cfile, out, path) == 0;
		free(cpath);
	}
	free(cfile);
	return ok;
}

/* store DIR/sym/<buildid>.sym (file) in the cache; failures are ignored */
static void to_cache(const char *cdir, const char *buildid, const char *file)
{
	char *cfile = xasprintf("%s/%s.sym", cdir, buildid);
	char *tmp = xasprintf("%s.tmp%d", cfile, (int)getpid());
	unlink(tmp);
	if (link(file, tmp) == 0) {
		if (rename(tmp, cfile) < 0)
			unlink(tmp);
	} else {
		copy_sym(file, cfile, NULL);
	}
	free(tmp);
	free(cfile);
}

/* ---- saving the symbols of a recording ------------------------------------- */

/* modules with no code of interest: the kernel's vdso and the runtime */
static bool skip_module(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !*path || path[0] == '[' || !strncmp(base, "linux-vdso", 10) ||
	       !strncmp(base, "linux-gate", 10) || !strcmp(base, "libcalltrace.so");
}

/* write out (DIR/sym/<key>.sym) for the module at path recorded with
 * build-id recbid (or NULL); cdir is the cache or NULL.  Returns the number
 * of warnings (0 or 1). */
static int save_module(const char *out, const char *recbid, const char *path, const char *cdir,
		       int *unsaved)
{
	if (recbid && cdir && from_cache(cdir, recbid, path, out))
		return 0;
	char *fbid = ct_elf_buildid(path);
	if (recbid && (!fbid || strcmp(fbid, recbid))) {
		if (access(path, F_OK) < 0)
			fprintf(stderr, "calltrace: warning: %s: %s; its symbols were not saved\n",
				path, strerror(errno));
		else
			fprintf(stderr,
				"calltrace: warning: %s: build-id mismatch (recorded %s, file has %s); "
				"its symbols were not saved\n",
				path, recbid, fbid ? fbid : "none");
		free(fbid);
		return 1;
	}
	free(fbid);
	struct ct_error e;
	struct ct_symtab *t = ct_symtab_from_elf(path, &e);
	if (!t) {
		fprintf(stderr, "calltrace: warning: %s; its symbols were not saved\n", e.msg);
		return 1;
	}
	int warnings = 0;
	if (ct_symtab_save(t, out, &e) < 0) {
		fprintf(stderr, "calltrace: warning: cannot write %s; its symbols were not saved\n",
			e.msg);
		warnings++;
		(*unsaved)++;
	} else if (recbid && cdir && t->buildid && !strcmp(t->buildid, recbid)) {
		to_cache(cdir, recbid, out);
	}
	ct_symtab_free(t);
	return warnings;
}

int ct_save_symbols(const char *dir, int *unsaved, struct ct_error *err)
{
	int unsaved_ = 0;
	if (!unsaved)
		unsaved = &unsaved_;
	*unsaved = 0;
	char *symdir = xasprintf("%s/sym", dir);
	if (mkdir(symdir, 0700) < 0 && errno != EEXIST) {
		set_err(err, "%s: %s", symdir, strerror(errno));
		free(symdir);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		set_err(err, "%s: %s", dir, strerror(errno));
		free(symdir);
		return -1;
	}
	int warnings = 0;
	char *cdir = NULL;
	bool cdir_tried = false;
	struct ct_u64map done;
	ct_u64map_init(&done);
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl < 6 || strcmp(de->d_name + nl - 5, ".proc"))
			continue;
		char *ppath = xasprintf("%s/%s", dir, de->d_name);
		FILE *f = fopen(ppath, "re");
		free(ppath);
		if (!f)
			continue;
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		while ((len = getline(&line, &cap, f)) >= 0) {
			if (len == 0 || line[len - 1] != '\n')
				break; /* cut short */
			line[--len] = 0;
			if (strncmp(line, "module ", 7))
				continue;
			/* module CLOCK BASE LO HI BUILDID PATH */
			char *fld[5], *p = line + 7;
			int i;
			for (i = 0; i < 5; i++) {
				char *sp = strchr(p, ' ');
				if (!sp)
					break;
				*sp = 0;
				fld[i] = p;
				p = sp + 1;
			}
			if (i < 5)
				continue;
			const char *bid = fld[4];
			const char *path = p;
			if (skip_module(path))
				continue;
			const char *recbid = strcmp(bid, "-") ? bid : NULL;
			/* a build-id names a file in the cache: hex only */
			bool cacheable = recbid && *recbid && strlen(recbid) <= 200 &&
					 strspn(recbid, "0123456789abcdef") == strlen(recbid);
			char key[256];
			ct_symtab_key(recbid, path, key, sizeof(key));
			void **slot = ct_u64map_slot(&done, ct_hash_str(key));
			if (*slot)
				continue;
			*slot = (void *)1;
			char *out = xasprintf("%s/%s.sym", symdir, key);
			if (access(out, F_OK) == 0) {
				free(out);
				continue;
			}
			if (cacheable && !cdir_tried) {
				cdir = cache_dir();
				cdir_tried = true;
			}
			warnings +=
				save_module(out, recbid, path, cacheable ? cdir : NULL, unsaved);
			free(out);
		}
		free(line);
		fclose(f);
	}
	closedir(d);
	ct_u64map_free(&done);
	free(cdir);
	free(symdir);
	return warnings;
}
