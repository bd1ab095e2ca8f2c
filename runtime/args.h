/* SPDX-License-Identifier: MIT */
/*
 * Argument and return-value capture: the interface between the entry and
 * return paths of the front ends that see registers (mcount, __fentry__,
 * patched entries) and the capture code (runtime/args.c).
 *
 * The front end calls ct_args_entry right after it wrote the function's
 * ENTER record, and ct_args_exit right before it writes the EXIT record,
 * both on the outer (non-nested) path with t->busy held.  When
 * ct_args_enabled is false neither is called, so a run without -A/-R/-a
 * pays one predictable branch.
 */
#ifndef CT_RT_ARGS_H
#define CT_RT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offsets.h"

#include "regs.h"

struct ct_tstate;

#define CT_ARGS_WANT_RET 1u /* ct_args_exit must be called at this call's return */

extern bool ct_args_enabled __attribute__((visibility("hidden")));

/* write fn's argument record if a spec names fn; returns CT_ARGS_* flags
 * that the front end keeps with the frame until the function returns */
unsigned ct_args_entry(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_regs *r)
	__attribute__((visibility("hidden")));
/* write fn's return-value record (called only when the entry said
 * CT_ARGS_WANT_RET) */
void ct_args_exit(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_retregs *r)
	__attribute__((visibility("hidden")));

/*
 * What the trampolines' fast paths (arch/<arch>/tramp.S) capture without
 * calling C, per spec: the common case of at most four register values
 * at entry and two at return.  The address hash (ct_args_keys: address,
 * 0 empty, 1 deleted; ct_args_vals: spec index; ct_args_mask) is the one
 * ct_args_entry uses.  Offsets: CT_AF_* in runtime/offsets.h.
 */
struct ct_args_fast {
	uint32_t ent_hdr; /* the ARGS record's first word; 0: none */
	uint32_t ret_hdr; /* the RETVAL record's first word; 0: none */
	uint8_t ent[4];   /* per value: its slot in struct ct_arch_regs, + 0x80 when
			   * one payload word holds it; 0xff ends the list */
	uint8_t ret[2];   /* the same, slots of struct ct_arch_retregs */
	uint8_t flags;    /* CT_AF_* */
	uint8_t pad;
};
/* flags: CT_AF_WANT_RET, CT_AF_ENT_C, CT_AF_RET_C, CT_AF_ENT_XMM (runtime/offsets.h) */
extern struct ct_args_fast *ct_args_fastv __attribute__((visibility("hidden")));
extern uint64_t *ct_args_keys __attribute__((visibility("hidden")));
extern uint32_t *ct_args_vals __attribute__((visibility("hidden")));
extern uint64_t ct_args_mask __attribute__((visibility("hidden")));
extern uint64_t ct_args_gen_key __attribute__((visibility("hidden")));

/* load $CALLTRACE_ARGS (process start-up); sets ct_args_enabled */
void ct_args_init(void) __attribute__((visibility("hidden")));
/* a module was mapped (added) or unmapped: its functions' specs go into
 * (or out of) the address hash */
void ct_args_module(uintptr_t base, const char *path, const char *buildid, bool added)
	__attribute__((visibility("hidden")));

/* a module's PT_LOAD segments (readable memory for the string copies) are
 * mapped (added) or gone; called with the module map's lock held */
/* alias is a library call's jump to fn (libcall.c): fn's spec is its own */
void ct_args_alias(uintptr_t alias, uintptr_t fn) __attribute__((visibility("hidden")));
void ct_args_segments(uintptr_t base, const void *phdr, unsigned phnum, bool added)
	__attribute__((visibility("hidden")));
/* a dlclose begins (true) or has ended and the module map was read again */
void ct_args_dlclose(bool begin) __attribute__((visibility("hidden")));
/* the program unmaps, protects or moves [addr, addr + len): the direct
 * reads of string arguments stop if the runtime counted on that memory */
void ct_args_unmap(uintptr_t addr, size_t len) __attribute__((visibility("hidden")));

#endif
