/* SPDX-License-Identifier: MIT */
/*
 * Source lines of addresses (lib/read/srcline.c): a call site recorded with
 * record --callsite (an event's site, a return address) to file:line
 * through libdw's line tables, and a function's own declaration line
 * (from the symbol tables, lib/symbols/symtab.c).  Each address is resolved once
 * per process of the session (cached until ct_session_close).
 */
#ifndef CT_SRCLINE_H
#define CT_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

struct ct_session;
struct ct_proc;

/* the source line of the call made from the call site `site` (a return
 * address: the call instruction before it is looked up), "file.c:12"
 * with the file's basename; NULL when the module has no line table for
 * it (or site is 0).  Valid until the session is closed. */
const char *ct_srcline_site(struct ct_session *s, struct ct_proc *p, uint64_t site);
/* ... and the same with the address when there is no line, "0x4011a3";
 * "" for site 0.  Valid until the session is closed. */
const char *ct_srcline_site_or_addr(struct ct_session *s, struct ct_proc *p, uint64_t site);
/* the declaration line of the function at addr, "file.c:3", or NULL */
const char *ct_srcline_func(struct ct_session *s, struct ct_proc *p, uint64_t addr);
/* the comment replay --srcline adds to a call's line: "f.c:3, from
 * main.c:12", "f.c:3", "from main.c:12" (fn: the function's address,
 * site: the event's call site or 0), into buf; its length (0: nothing) */
size_t ct_srcline_note(struct ct_session *s, struct ct_proc *p, uint64_t fn, uint64_t site,
		       char *buf, size_t len);
/* the session's cache (ct_session_close) */
void ct_srcline_free(struct ct_session *s);

#endif
