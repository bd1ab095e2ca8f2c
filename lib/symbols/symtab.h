/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables: read from an ELF file (libelf, libdw for file:line) and
 * saved to / loaded from DIR/sym/<key>.sym so that a recording can be
 * analysed after its binaries were rebuilt or deleted.
 */
#ifndef CT_SYMTAB_H
#define CT_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct ct_error;
struct ct_msgs;

struct ct_symbol {
	uint64_t value; /* st_value: runtime address = module base + value */
	uint64_t size;
	char *name; /* as in the ELF file (mangled) */
	char *file; /* DWARF decl_file, or NULL */
	int line;
};

struct ct_symtab {
	char *path;
	char *buildid;          /* hex or NULL */
	struct ct_symbol *syms; /* sorted by value */
	size_t nsyms;
};

/* read the build-id of an ELF file: hex string (malloc'd) or NULL */
char *ct_elf_buildid(const char *path);
/* function symbols of an ELF file (.symtab, else .dynsym), with file:line
 * from DWARF where present */
struct ct_symtab *ct_symtab_from_elf(const char *path, struct ct_error *err);
/* the same without file:line (no DWARF read): names and addresses only */
struct ct_symtab *ct_symtab_names_from_elf(const char *path, struct ct_error *err);
int ct_symtab_save(const struct ct_symtab *t, const char *file, struct ct_error *err);
/* a .sym file, read as a file of a recording (util.h ct_read_file: a
 * regular file, not through a link, at most CT_SYM_MAX_BYTES) */
struct ct_symtab *ct_symtab_load(const char *file, struct ct_error *err);
#define CT_SYM_MAX_BYTES (1024u << 20)
/* DIR/sym/<key>.sym, when DIR/sym is a directory (not a link) and the file
 * exists; NULL with err->msg empty when there is none, or with the reason */
struct ct_symtab *ct_symtab_load_saved(const char *dir, const char *key, struct ct_error *err);
const struct ct_symbol *ct_symtab_lookup(const struct ct_symtab *t, uint64_t value);
void ct_symtab_free(struct ct_symtab *t);
/* the key a module is saved under in DIR/sym: its build-id, or
 * "path-<16 hex digits of a hash of the path>" when it has none */
void ct_symtab_key(const char *buildid, const char *path, char *out, size_t outlen);
/* a DWARF source path joined to its compilation directory (when relative)
 * and with ".", ".." and repeated slashes taken out; malloc'd */
char *ct_source_path(const char *file, const char *comp_dir);
/* demangle a C++ name; returns malloc'd string or NULL when not mangled */
char *ct_demangle(const char *name);
/* write DIR/sym/<key>.sym for every module in DIR/ *.proc that has none yet,
 * from the ELF file at the module's path.  Modules whose file is gone or has
 * another build-id are skipped with a warning into warn.  Returns the number
 * of warnings, or -1 (err filled) when DIR/sym cannot be made; *unsaved (if
 * not NULL) gets how many of the warnings were tables that could not be
 * written (a full disk, a write error), not modules that were skipped. */
int ct_save_symbols(const char *dir, int *unsaved, struct ct_msgs *warn, struct ct_error *err);
/* a directory where ct_save_symbols looks for a module that is not at its
 * recorded path with its recorded build-id (ROOT/PATH): the library root of
 * an emulated program (qemu-user's -L: the program saw /lib/libc.so.6 where
 * this machine has ROOT/lib/libc.so.6), or NULL */
void ct_save_symbols_root(const char *root);

#endif
