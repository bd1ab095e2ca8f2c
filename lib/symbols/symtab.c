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
#include "symtab_priv.h"
#include "util.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

/* the C++ ABI's demangler (libstdc++) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);


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
		ct_set_err(err, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	/* a module named by a recording: a regular file (a FIFO or a device
	 * in its place must neither block nor be read without end) */
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, false, &size, &why);
	if (fd < 0) {
		ct_set_err(err, "%s: %s", path, why);
		return NULL;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ct_set_err(err, "%s: not an ELF file", path);
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

/* a function's DW_AT_decl_file: also file 0 of a DWARF 5 line table (the
 * primary source file, which clang names by 0 and libdw 0.188's
 * dwarf_decl_file does not give) */
static const char *decl_file(Dwarf_Die *die)
{
	const char *f = dwarf_decl_file(die);
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t n;
	if (f || !dwarf_attr_integrate(die, DW_AT_decl_file, &a) ||
	    dwarf_formudata(&a, &idx) != 0 || !dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &n) != 0 || idx >= n)
		return f;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static void walk_dies(Dwarf_Die *parent, const char *comp_dir, struct linevec *lv, int level)
{
	Dwarf_Die die;
	if (level > 64 || dwarf_child(parent, &die) != 0)
		return;
	do {
		int tag = dwarf_tag(&die);
		if (tag == DW_TAG_subprogram) {
			const char *file = decl_file(&die);
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
			/* a local class's members, a lambda's body: described
			 * inside the function that holds them */
			walk_dies(&die, comp_dir, lv, level + 1);
		} else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
			   tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			   tag == DW_TAG_module || tag == DW_TAG_lexical_block) {
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
/*
 * How far after its symbol a function's DWARF low_pc may be and still give
 * the symbol its file and line: aarch64 gcc's -fpatchable-function-entry=N
 * puts the symbol at the first of the N nops and the low_pc after them
 * (8 bytes on for N=2); 16 bytes cover 4 nops.
 */
#define DWARF_ENTRY_SLACK 16

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
			/* the first function to start at the symbol or just after it */
			uint64_t off = lo < lv.n ? lv.v[lo].addr - s->value : UINT64_MAX;
			if (off <= DWARF_ENTRY_SLACK && (!off || off < s->size) && !s->file) {
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
char *ct_debug_file_path(const char *buildid)
{
	if (!buildid || strlen(buildid) <= 2)
		return NULL;
	return xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", buildid, buildid + 2);
}

static struct ct_symtab *from_elf(const char *path, bool lines, struct ct_error *err);

struct ct_symtab *ct_symtab_from_elf(const char *path, struct ct_error *err)
{
	return from_elf(path, true, err);
}

struct ct_symtab *ct_symtab_names_from_elf(const char *path, struct ct_error *err)
{
	return from_elf(path, false, err);
}

static struct ct_symtab *from_elf(const char *path, bool lines, struct ct_error *err)
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
	char *dpath = ct_debug_file_path(t->buildid);
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
	if (lines && (!has_section(elf, ".debug_info") || !add_dwarf(elf, t))) {
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
void ct_sym_put_enc(FILE *f, const char *s)
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

char *ct_sym_dec(const char *s, size_t n)
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
FILE *ct_sym_fopen_private(const char *path)
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
	FILE *f = ct_sym_fopen_private(tmp);
	if (!f) {
		ct_set_err(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "calltrace-sym 1\nbuildid %s\npath ", t->buildid ? t->buildid : "-");
	ct_sym_put_enc(f, t->path ? t->path : "");
	putc('\n', f);
	for (size_t i = 0; i < t->nsyms; i++) {
		const struct ct_symbol *s = &t->syms[i];
		fprintf(f, "%" PRIx64 " %" PRIx64 " ", s->value, s->size);
		ct_sym_put_enc(f, s->name);
		if (s->file) {
			putc(' ', f);
			ct_sym_put_enc(f, s->file);
			fprintf(f, ":%d", s->line);
		}
		putc('\n', f);
	}
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0)
		bad = true;
	if (bad || rename(tmp, file) < 0) {
		ct_set_err(err, "%s: %s", file, strerror(errno ? errno : EIO));
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
		ct_set_err(err, "%s: not a directory%s", sdir,
			   S_ISLNK(st.st_mode)
				   ? " (a symbolic link; the files of a recording never are)"
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
	char *text = ct_read_file(file, true, CT_SYM_MAX_BYTES, &flen, err);
	if (!text)
		return NULL;
	FILE *f = flen ? fmemopen(text, flen, "r") : NULL;
	if (!f) {
		if (flen)
			ct_set_err(err, "%s: %s", file, strerror(errno));
		else
			ct_set_err(err, "%s: not a calltrace symbol file (empty)", file);
		free(text);
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = getline(&line, &cap, f);
	if (len < 0 || strncmp(line, "calltrace-sym ", 14)) {
		ct_set_err(err, "%s: not a calltrace symbol file (bad magic)", file);
		free(line);
		fclose(f);
		free(text);
		return NULL;
	}
	if (atoi(line + 14) != 1) {
		ct_set_err(err, "%s: unsupported symbol file version", file);
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
			t->path = ct_sym_dec(line + 5, strlen(line + 5));
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
		struct ct_symbol s = {value, size, ct_sym_dec(p, nlen), NULL, 0};
		if (sp) {
			char *fl = sp + 1;
			char *colon = strrchr(fl, ':');
			if (colon && colon > fl) {
				s.file = ct_sym_dec(fl, (size_t)(colon - fl));
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
		ct_set_err(err, "%s: line %ld: bad symbol line", file, lineno);
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
