/* SPDX-License-Identifier: MIT */
/*
 * Offsets into the runtime's per-thread state (struct ct_tstate), its
 * shadow-stack entries (struct ct_frame) and its settings (struct
 * ct_config), for the assembly fast paths of arch/<arch>/tramp.S.  LP64.
 * runtime/hook.c checks every one against the structs with _Static_assert,
 * so a change of layout fails the build rather than the traced program.
 */
#ifndef CT_RT_OFFSETS_H
#define CT_RT_OFFSETS_H

/* the functions that want the general path (--inject, a --plugin limited by
 * --plugin-filter): the multiplier of ct_sel_bloom's hash (internal.h,
 * ct_sel_bloom_of: the high 12 bits of the address times it) */
#define CT_SEL_HASH_MUL 0x9e3779b97f4a7c15
#define CT_SEL_BLOOM_SHIFT 52

/* struct ct_tstate */
#define CT_T_CUR 0
#define CT_T_LIMIT 8
#define CT_T_LAST 16
#define CT_T_HI 24
#define CT_T_BUSY 32
#define CT_T_DEPTH 36
#define CT_T_CAP 40
#define CT_T_STK 48
#define CT_T_HOOK 424
#define CT_T_ARGS_FN 432
#define CT_T_ARGS_AF 440
#define CT_T_PLUG_IN 540

/* -t alone (ct_held_fast): the trampolines' held entries and returns
 * (tramp_held.inc: HELD_ENTER, RET_HELD) */
#define CT_T_FL_TP 456       /* struct ct_tstate: fl_tp */
#define CT_T_FL_TCAP 464     /* fl_tcap */
#define CT_T_FL_FILTERED 480 /* fl_filtered */
#define CT_T_FL_PLO 504      /* fl_plo */
#define CT_T_FL_DUE 512      /* fl_due */
#define CT_TP_SIZE 72        /* struct ct_tpend */
#define CT_TP_T0 32          /* its t0 */
#define CT_FILT_MIN_TIME 8   /* struct ct_filt_conf: min_time */
/* a hooked frame whose entry is held back (hook.c HELD_HOOKED: CT_FR_HOOKED
 * | CT_FR_FILT | CT_FR_FIN | CT_FR_NOREC | CT_FR_PEND) */
#define CT_FR_HELD_HOOKED 0x9a000001

/* struct ct_frame: 32 bytes */
#define CT_FRAME_SHIFT 5
#define CT_FR_FN 0
#define CT_FR_CFA 8
#define CT_FR_RET 16
#define CT_FR_FLAGS 24
#define CT_FR_HOOKED_BIT 0x80000000 /* CT_FR_HOOKED */

/* the first word of a HI record (format.h: ct_ext_word(CT_EXT_HI, 1, 0)),
 * its payload, the address bits 40..63, in the next */
#define CT_EXT_HI_WORD 0x10b
/* the first word of a CT_EXT_CALLSITE of length 0 and 1 (ct_ext_word(
 * CT_EXT_CALLSITE, len, 0)), its small argument in bits 16..31 (runtime/
 * callsite.c checks them) */
#define CT_EXT_CS_SHORT_WORD 0x3b
#define CT_EXT_CS_LONG_WORD 0x13b

/* struct ct_config */
#define CT_CFG_USE_TSC 4

/* struct ct_args_fast (runtime/args.h): 16 bytes */
#define CT_AF_SHIFT 4
#define CT_AF_ENT_HDR 0
#define CT_AF_RET_HDR 4
#define CT_AF_ENT 8
#define CT_AF_RET 12
#define CT_AF_FLAGS 14
#define CT_AF_WANT_RET 1                  /* flags: the return value is wanted (CT_ARGS_WANT_RET) */
#define CT_AF_ENT_C 2                     /* the entry's capture needs ct_args_entry (C) */
#define CT_AF_RET_C 4                     /* the return's capture needs ct_args_exit (C) */
#define CT_AF_ENT_XMM 8                   /* the entry's values include xmm registers */
#define CT_AF_HASH_MUL 0x9e3779b97f4a7c15 /* args.c's hash: (a * this) >> 20 */

/* the mcount call-site cache of hook.c: entries, and the bits of one that
 * hold the call site (the low 16 hold the distance to the function) */
#define CT_MC_CACHE 4096

#endif
