/* SPDX-License-Identifier: MIT */
/*
 * record -a on an aarch64 module (split from dwarfargs.c, which walks the
 * DWARF and calls these when the module is aarch64's): each parameter's
 * location at -pg's call of _mcount, and the return value as AAPCS64
 * places it.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "calltrace/format.h"
#include "dwarfargs_priv.h"

/*
 * On aarch64, -pg calls _mcount at the end of the prologue, after gcc has
 * put the link register into x0 and moved or stored the parameters it
 * needs after a call: the argument registers are not the arguments there
 * (doc/args.md, "AArch64").  What _mcount can read is memory and the
 * callee-saved registers (x19-x28, d8-d15: tramp.S saves them), and the
 * CFA (hook.c); so each parameter's location is asked of DWARF at the
 * address after the `bl _mcount`, and kept only when it is one of those:
 * a frame slot (DW_OP_fbreg, the frame base being the CFA) or such a
 * register.  Anything else is shown as "?", never read from elsewhere.
 */

/* the address after the function's first `bl` (its call of _mcount, as
 * the runtime finds it: hook.c frame_slot), 0 when there is none in its
 * first 64 instructions */
uint64_t ct_dwa_a64_mcount_ret(Elf *e, uint64_t lo)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || lo < sh.sh_addr ||
		    lo >= sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return 0;
		uint64_t at = lo - sh.sh_addr;
		for (int n = 0; n < 64 && at + 4 <= d->d_size && at + 4 <= sh.sh_size;
		     n++, at += 4) {
			const unsigned char *b = (const unsigned char *)d->d_buf + at;
			uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				     (uint32_t)b[3] << 24;
			if ((w & 0xfc000000u) == 0x94000000u) /* bl */
				return sh.sh_addr + at + 4;
		}
		return 0;
	}
	return 0;
}

/* is the function's frame base its CFA (DW_OP_call_frame_cfa, what gcc
 * writes for aarch64)? */
bool ct_dwa_a64_fb_is_cfa(Dwarf_Die *fn)
{
	Dwarf_Attribute a;
	Dwarf_Op *e;
	size_t n;
	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &a) || dwarf_getlocation(&a, &e, &n) != 0)
		return false;
	return n == 1 && e[0].atom == DW_OP_call_frame_cfa;
}

/* one parameter (DIE p, of type d) of a function whose _mcount returns to
 * site: its format as -a gives it, its location from DWARF */
void ct_dwa_a64_param(struct ct_dwa_ctx *c, Dwarf_Die *p, Dwarf_Die *d, uint64_t site, bool fb_cfa,
		      struct ct_aitem *it)
{
	Dwarf_Die b1, *t = d ? ct_dwa_strip(d, &b1) : NULL;
	Dwarf_Attribute a;
	Dwarf_Op *e = NULL;
	size_t n = 0;
	if (!t || ct_dwa_declared_only(t) || !ct_dwa_scalar_fmt(c, d, it, 0) ||
	    !dwarf_attr(p, DW_AT_location, &a) ||
	    dwarf_getlocation_addr(&a, site, &e, &n, 1) != 1 || n != 1) {
		ct_dwa_set_none(it, "?");
		return;
	}
	Dwarf_Word size = ct_dwa_size_of(t);
	bool fp = it->fmt == CT_AF_FLOAT;
	unsigned atom = e[0].atom;
	it->nloc = 1;
	if (atom == DW_OP_fbreg && fb_cfa && size && size <= CT_SF_STACK_SIZE_MAX &&
	    (int64_t)e[0].number > -CT_SF_CFA_OFF_MAX && (int64_t)e[0].number < CT_SF_CFA_OFF_MAX) {
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_CFA,
					      .size = (uint16_t)size,
					      .off = (uint32_t)(int32_t)(int64_t)e[0].number};
		return;
	}
	unsigned reg = atom >= DW_OP_reg0 && atom <= DW_OP_reg31 ? atom - DW_OP_reg0
		       : atom == DW_OP_regx                      ? (unsigned)e[0].number
								 : 1000;
	if (!fp && size <= 8 && reg >= CT_SF_GP_CS_LO && reg <= CT_SF_GP_CS_HI) {
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_GP, .reg = (uint8_t)reg};
		return;
	}
	/* DWARF's 64 + N is vN: v8..v15's low 8 bytes are callee-saved */
	if (fp && reg >= 64 + 8 && reg <= 64 + 15) {
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_XMM, .reg = (uint8_t)(reg - 64)};
		return;
	}
	/* an argument register (clobbered by the call of _mcount), a
	 * value computed by an expression, pieces: not read */
	ct_dwa_set_none(it, "?");
}

/* the return value on aarch64, as retval() placed it for x86-64: the
 * same where AAPCS64 uses the same registers (scalars in x0 or d0,
 * composites of integers in x0/x1); a composite with floating-point
 * members (AAPCS64 gives each member of an HFA its own register) and a
 * std::string returned through memory (x8, which x0 need not hold at the
 * return) are described, not decoded */
void ct_dwa_a64_retval(struct ct_dwa_ctx *c, struct ct_aitem *it, bool hidden)
{
	bool xmm = false;
	for (unsigned i = 0; i < it->nloc; i++)
		xmm |= it->loc[i].kind == CT_AL_RET && it->loc[i].reg >= 2;
	if (hidden && it->fmt == CT_AF_STDSTR) {
		ct_dwa_set_none(it, "<std::string>");
	} else if (it->fmt == CT_AF_STRUCT && xmm) {
		const struct ct_astruct *st = &c->t->structs[it->table];
		ct_dwa_set_none(it, "<%s %uB>", st->name, st->size);
	} else {
		return;
	}
	it->nloc = 1;
	it->loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
}
