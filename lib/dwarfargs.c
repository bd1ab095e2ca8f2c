/* SPDX-License-Identifier: MIT */
/*
 * record -a: the parameters and return type of every function of a module,
 * from its DWARF (libdw), turned into argument specs.  Where each value is
 * follows the x86-64 System V calling convention: integer-class values in
 * rdi rsi rdx rcx r8 r9, floating ones in xmm0..7, the rest on the stack;
 * structs of up to 16 bytes by the classes of their eightbytes, larger
 * ones in memory; a large struct returned by value takes rdi for its hidden
 * pointer.  What cannot be decoded is described, never guessed.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "calltrace/format.h"
#include "symtab.h"
#include "util.h"

enum cls { C_NONE = 0, C_INT, C_SSE, C_MEM };

struct ctx {
	struct ct_argtab *t;
	struct ct_amodule *m;
	const struct ct_symtab *st;
	struct ct_u64map enums;	  /* die offset -> table index + 1 */
	struct ct_u64map structs; /* die offset -> table index + 1 */
	struct ct_u64map done;	  /* function offsets already described */
};

static Dwarf_Die *strip(Dwarf_Die *d, Dwarf_Die *buf)
{
	for (int i = 0; i < 32; i++) {
		int tag = dwarf_tag(d);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return d;
		Dwarf_Attribute a;
		if (!dwarf_attr_integrate(d, DW_AT_type, &a) || !dwarf_formref_die(&a, buf))
			return NULL; /* void */
		d = buf;
	}
	return NULL;
}

static Dwarf_Die *type_of(Dwarf_Die *d, Dwarf_Die *buf)
{
	Dwarf_Attribute a;
	if (!dwarf_attr_integrate(d, DW_AT_type, &a) || !dwarf_formref_die(&a, buf))
		return NULL;
	return buf;
}

static Dwarf_Word size_of(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Word w = 0;
	if (dwarf_attr_integrate(d, DW_AT_byte_size, &a) && dwarf_formudata(&a, &w) == 0)
		return w;
	int tag = dwarf_tag(d);
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	    tag == DW_TAG_rvalue_reference_type)
		return 8;
	return 0;
}

static const char *die_name(Dwarf_Die *d)
{
	const char *n = dwarf_diename(d);
	return n ? n : NULL;
}

/* ---- struct classification --------------------------------------------- */

/* merge the classes of the scalars of type d at offset off into cls[0..1];
 * false when the type cannot be classified (then it is passed in memory) */
static bool classify(Dwarf_Die *d, uint64_t off, enum cls cls[2], unsigned *align, int depth)
{
	Dwarf_Die b1, *t = strip(d, &b1);
	if (!t || depth > 8)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = size_of(t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		Dwarf_Die c;
		if (dwarf_child(t, &c) != 0)
			return size == 0;
		do {
			int ct = dwarf_tag(&c);
			if (ct == DW_TAG_inheritance || ct == DW_TAG_member) {
				Dwarf_Attribute a;
				if (dwarf_hasattr(&c, DW_AT_external) ||
				    (ct == DW_TAG_member && dwarf_hasattr(&c, DW_AT_declaration)))
					continue; /* static member */
				Dwarf_Word moff = 0;
				if (tag != DW_TAG_union_type) {
					if (!dwarf_attr(&c, DW_AT_data_member_location, &a) ||
					    dwarf_formudata(&a, &moff) != 0)
						return false;
				}
				if (dwarf_hasattr(&c, DW_AT_bit_size)) {
					/* a bit-field: INTEGER in its eightbyte */
					uint64_t e = (off + moff) / 8;
					if (e > 1)
						return false;
					cls[e] = cls[e] == C_MEM ? C_MEM : C_INT;
					continue;
				}
				Dwarf_Die mt;
				if (!type_of(&c, &mt) ||
				    !classify(&mt, off + moff, cls, align, depth + 1))
					return false;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		return true;
	}
	if (tag == DW_TAG_array_type) {
		Dwarf_Die et, eb;
		if (!type_of(t, &et))
			return false;
		Dwarf_Die *e = strip(&et, &eb);
		Dwarf_Word es = e ? size_of(e) : 0;
		if (!es || !size)
			return size == 0;
		for (Dwarf_Word k = 0; k < size / es; k++)
			if (!classify(e, off + k * es, cls, align, depth + 1))
				return false;
		return true;
	}
	if (!size || size > 8 || off % size)
		return false; /* long double, __int128, unaligned: memory */
	enum cls c = C_INT;
	if (tag == DW_TAG_base_type) {
		Dwarf_Attribute a;
		Dwarf_Word enc = 0;
		if (dwarf_attr(t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		if (enc == DW_ATE_float)
			c = C_SSE;
		else if (enc == DW_ATE_complex_float)
			return false;
	}
	if (size > *align)
		*align = (unsigned)size;
	uint64_t e = off / 8;
	if (e > 1)
		return false;
	if (cls[e] == C_NONE || cls[e] == C_SSE)
		cls[e] = c == C_INT ? C_INT : (cls[e] == C_NONE ? c : cls[e]);
	return true;
}

/* ---- scalar formats --------------------------------------------------------- */

static int enum_table(struct ctx *c, Dwarf_Die *t)
{
	void **slot = ct_u64map_slot(&c->enums, dwarf_dieoffset(t));
	if (*slot)
		return (int)(uintptr_t)*slot - 1;
	struct ct_argtab *tab = c->t;
	tab->enums = xrealloc(tab->enums, (tab->nenums + 1) * sizeof(*tab->enums));
	struct ct_aenum *e = &tab->enums[tab->nenums];
	memset(e, 0, sizeof(*e));
	Dwarf_Die ch;
	if (dwarf_child(t, &ch) == 0) {
		do {
			if (dwarf_tag(&ch) != DW_TAG_enumerator)
				continue;
			Dwarf_Attribute a;
			Dwarf_Sword v = 0;
			if (!dwarf_attr(&ch, DW_AT_const_value, &a) || dwarf_formsdata(&a, &v) != 0)
				continue;
			e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
			e->v[e->n++] = (struct ct_aenum_val){
			    (int64_t)v, xstrdup(die_name(&ch) ? die_name(&ch) : "?")};
		} while (dwarf_siblingof(&ch, &ch) == 0);
	}
	*slot = (void *)(uintptr_t)(tab->nenums + 1);
	return (int)tab->nenums++;
}

static const char *type_name(Dwarf_Die *t)
{
	const char *n = die_name(t);
	return n ? n : "";
}

static void set_none(struct ct_aitem *it, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_none(struct ct_aitem *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(it->desc);
	if (vasprintf(&it->desc, fmt, ap) < 0)
		it->desc = NULL;
	va_end(ap);
	it->fmt = CT_AF_NONE;
	it->nloc = 0;
}

static int struct_table(struct ctx *c, Dwarf_Die *t, int depth);

/* the format of a scalar of type d (members and parameters); false when
 * it is not a scalar we print */
/* is d (or a typedef it goes through) one of the <stdint.h> names of a
 * byte-sized integer?  Those are numbers, not characters. */
static bool int8_typedef(Dwarf_Die *d)
{
	Dwarf_Die b = *d;
	for (int i = 0; i < 8; i++) {
		int tag = dwarf_tag(&b);
		if (tag == DW_TAG_typedef) {
			const char *n = dwarf_diename(&b);
			if (n && (!strcmp(n, "int8_t") || !strcmp(n, "uint8_t") ||
				  !strcmp(n, "__int8_t") || !strcmp(n, "__uint8_t")))
				return true;
		} else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type) {
			return false;
		}
		Dwarf_Attribute a;
		if (!dwarf_attr(&b, DW_AT_type, &a) || !dwarf_formref_die(&a, &b))
			return false;
	}
	return false;
}

static bool scalar_fmt(struct ctx *c, Dwarf_Die *d, struct ct_aitem *it, int depth)
{
	Dwarf_Die b1, *t = strip(d, &b1);
	if (!t)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = size_of(t);
	switch (tag) {
	case DW_TAG_base_type: {
		Dwarf_Attribute a;
		Dwarf_Word enc = 0;
		if (dwarf_attr(t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return false;
		it->bits = (uint8_t)(size * 8);
		switch (enc) {
		case DW_ATE_signed:
			it->fmt = CT_AF_INT;
			return true;
		case DW_ATE_unsigned:
		case DW_ATE_UTF:
			it->fmt = CT_AF_UINT;
			return true;
		case DW_ATE_signed_char:
		case DW_ATE_unsigned_char:
			it->fmt = size != 1		      ? CT_AF_UINT
				  : !int8_typedef(d)	      ? CT_AF_CHAR
				  : enc == DW_ATE_signed_char ? CT_AF_INT
							      : CT_AF_UINT;
			return true;
		case DW_ATE_boolean:
			it->fmt = CT_AF_BOOL;
			return true;
		case DW_ATE_float:
			if (size != 4 && size != 8)
				return false;
			it->fmt = CT_AF_FLOAT;
			return true;
		default:
			return false;
		}
	}
	case DW_TAG_enumeration_type: {
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return false;
		it->fmt = CT_AF_ENUM;
		it->bits = (uint8_t)(size * 8);
		it->table = enum_table(c, t);
		return true;
	}
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type: {
		it->fmt = CT_AF_PTR;
		it->bits = 64;
		Dwarf_Die pb, pb2, *p = type_of(t, &pb);
		p = p ? strip(p, &pb2) : NULL;
		if (tag == DW_TAG_pointer_type && p && dwarf_tag(p) == DW_TAG_base_type &&
		    size_of(p) == 1) {
			Dwarf_Attribute a;
			Dwarf_Word enc = 0;
			if (dwarf_attr(p, DW_AT_encoding, &a))
				dwarf_formudata(&a, &enc);
			if (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char)
				it->fmt = depth ? CT_AF_PTR : CT_AF_STR;
		}
		return true;
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type: {
		if (!size || size > 256 || depth > 3)
			return false;
		int k = struct_table(c, t, depth + 1);
		if (k < 0)
			return false;
		it->fmt = CT_AF_STRUCT;
		it->table = k;
		return true;
	}
	default:
		return false;
	}
}

static int struct_table(struct ctx *c, Dwarf_Die *t, int depth)
{
	void **slot = ct_u64map_slot(&c->structs, dwarf_dieoffset(t));
	if (*slot)
		return (int)(uintptr_t)*slot - 1;
	struct ct_astruct s;
	memset(&s, 0, sizeof(s));
	s.size = (uint32_t)size_of(t);
	const char *n = die_name(t);
	s.name = xasprintf("%s%s%s", dwarf_tag(t) == DW_TAG_class_type ? "class" : "struct",
			   n ? " " : "", n ? n : "");
	Dwarf_Die ch;
	if (dwarf_child(t, &ch) == 0) {
		do {
			int ct = dwarf_tag(&ch);
			if (ct != DW_TAG_member && ct != DW_TAG_inheritance)
				continue;
			if (dwarf_hasattr(&ch, DW_AT_external) ||
			    dwarf_hasattr(&ch, DW_AT_declaration))
				continue;
			Dwarf_Attribute a;
			Dwarf_Word moff = 0;
			if (!dwarf_attr(&ch, DW_AT_data_member_location, &a) ||
			    dwarf_formudata(&a, &moff) != 0 || moff >= s.size)
				continue;
			struct ct_amember m;
			memset(&m, 0, sizeof(m));
			m.off = (uint32_t)moff;
			const char *mn = die_name(&ch);
			m.it.name = mn ? xstrdup(mn) : NULL;
			Dwarf_Die mt;
			if (dwarf_hasattr(&ch, DW_AT_bit_size) || !type_of(&ch, &mt) ||
			    !scalar_fmt(c, &mt, &m.it, depth)) {
				m.it.fmt = CT_AF_NONE;
				m.it.desc = xstrdup("?");
			}
			s.m = xrealloc(s.m, (s.n + 1) * sizeof(*s.m));
			s.m[s.n++] = m;
		} while (dwarf_siblingof(&ch, &ch) == 0);
	}
	struct ct_argtab *tab = c->t;
	tab->structs = xrealloc(tab->structs, (tab->nstructs + 1) * sizeof(*tab->structs));
	tab->structs[tab->nstructs] = s;
	*slot = (void *)(uintptr_t)(tab->nstructs + 1);
	return (int)tab->nstructs++;
}

/* ---- parameters ------------------------------------------------------------ */

struct alloc {
	unsigned gp, xmm;
	uint32_t stack; /* next stack offset from the entry sp */
};

static void on_stack(struct ct_aitem *it, struct alloc *al, Dwarf_Word size, unsigned align)
{
	if (align > 8)
		al->stack = (al->stack + 15) & ~15u;
	it->nloc = 0;
	if (size && size <= 256 && it->fmt != CT_AF_NONE) {
		it->nloc = 1;
		it->loc[0] =
		    (struct ct_aloc){.kind = CT_AL_STACK, .size = (uint16_t)size, .off = al->stack};
	}
	al->stack += (uint32_t)((size + 7) & ~7ull);
}

/* one parameter of type d: its item, placed by the calling convention */
static void param(struct ctx *c, Dwarf_Die *d, struct alloc *al, struct ct_aitem *it)
{
	Dwarf_Die b1, *t = d ? strip(d, &b1) : NULL;
	if (!t) {
		set_none(it, "?");
		return;
	}
	int tag = dwarf_tag(t);
	Dwarf_Word size = size_of(t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		const char *kind = tag == DW_TAG_union_type   ? "union"
				   : tag == DW_TAG_class_type ? "class"
							      : "struct";
		Dwarf_Attribute a;
		Dwarf_Word cc = 0;
		if (dwarf_attr(t, DW_AT_calling_convention, &a) && dwarf_formudata(&a, &cc) == 0 &&
		    cc == DW_CC_pass_by_reference) {
			/* C++: a copy made by the caller, passed by address */
			it->fmt = CT_AF_PTR;
			it->bits = 64;
			if (al->gp < 6) {
				it->nloc = 1;
				it->loc[0] =
				    (struct ct_aloc){.kind = CT_AL_GP, .reg = (uint8_t)al->gp++};
			} else {
				on_stack(it, al, 8, 8);
			}
			return;
		}
		enum cls cls[2] = {C_NONE, C_NONE};
		unsigned align = 1;
		bool regs = size && size <= 16 && classify(t, 0, cls, &align, 0);
		bool printable = tag != DW_TAG_union_type && scalar_fmt(c, t, it, 0);
		if (!printable)
			set_none(it, "<%s%s%s %" PRIu64 "B>", kind, *type_name(t) ? " " : "",
				 type_name(t), (uint64_t)size);
		unsigned ng = 0, nx = 0, ne = size > 8 ? 2 : 1;
		for (unsigned e = 0; e < ne; e++) {
			if (cls[e] == C_INT)
				ng++;
			else if (cls[e] == C_SSE)
				nx++;
			else
				regs = false; /* padding-only eightbyte: treat as memory */
		}
		if (regs && al->gp + ng <= 6 && al->xmm + nx <= 8) {
			struct ct_aloc l[2];
			for (unsigned e = 0; e < ne; e++)
				l[e] = cls[e] == C_INT
					   ? (struct ct_aloc){.kind = CT_AL_GP,
							      .reg = (uint8_t)al->gp++}
					   : (struct ct_aloc){.kind = CT_AL_XMM,
							      .reg = (uint8_t)al->xmm++};
			if (printable) {
				it->nloc = (uint8_t)ne;
				memcpy(it->loc, l, sizeof(l[0]) * ne);
			}
			return;
		}
		on_stack(it, al, size, align);
		return;
	}
	if (tag == DW_TAG_base_type && size == 16) {
		/* long double (x87, memory), __int128 (two registers),
		 * __float128 (one xmm): not printed, but placed */
		Dwarf_Attribute a;
		Dwarf_Word enc = 0;
		if (dwarf_attr(t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		set_none(it, "<%s>", type_name(t));
		if (enc == DW_ATE_float && !strstr(type_name(t), "128"))
			on_stack(it, al, 16, 16);
		else if (enc == DW_ATE_float)
			al->xmm < 8 ? (void)al->xmm++ : on_stack(it, al, 16, 16);
		else if (al->gp + 2 <= 6)
			al->gp += 2;
		else
			on_stack(it, al, 16, 16);
		return;
	}
	if (!scalar_fmt(c, d, it, 0)) {
		set_none(it, "<%s%s%" PRIu64 "B>", type_name(t), *type_name(t) ? " " : "",
			 (uint64_t)size);
		/* still take its place */
		if (size && size <= 8) {
			if (al->gp < 6)
				al->gp++;
			else
				on_stack(it, al, 8, 8);
		}
		return;
	}
	if (it->fmt == CT_AF_FLOAT) {
		if (al->xmm < 8) {
			it->nloc = 1;
			it->loc[0] = (struct ct_aloc){.kind = CT_AL_XMM, .reg = (uint8_t)al->xmm++};
		} else {
			on_stack(it, al, 8, 8);
		}
	} else if (al->gp < 6) {
		it->nloc = 1;
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_GP, .reg = (uint8_t)al->gp++};
	} else {
		on_stack(it, al, 8, 8);
	}
}

/* the return value of type d (NULL: void); *hidden when it is returned in
 * memory through a pointer in rdi */
static bool retval(struct ctx *c, Dwarf_Die *d, struct ct_aitem *it, bool *hidden)
{
	Dwarf_Die b1, *t = d ? strip(d, &b1) : NULL;
	*hidden = false;
	if (!t)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = size_of(t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		enum cls cls[2] = {C_NONE, C_NONE};
		unsigned align = 1;
		Dwarf_Attribute a;
		Dwarf_Word cc = 0;
		bool byref = dwarf_attr(t, DW_AT_calling_convention, &a) &&
			     dwarf_formudata(&a, &cc) == 0 && cc == DW_CC_pass_by_reference;
		bool regs = !byref && size && size <= 16 && classify(t, 0, cls, &align, 0);
		unsigned ne = size > 8 ? 2 : 1;
		for (unsigned e = 0; e < ne; e++)
			if (cls[e] == C_NONE)
				regs = false;
		bool printable = tag != DW_TAG_union_type && scalar_fmt(c, t, it, 0);
		if (!regs || !printable) {
			*hidden = !regs;
			set_none(it, "<%s%s%s %" PRIu64 "B>",
				 tag == DW_TAG_union_type   ? "union"
				 : tag == DW_TAG_class_type ? "class"
							    : "struct",
				 *type_name(t) ? " " : "", type_name(t), (uint64_t)size);
			/* described, not decoded; rax (its address, or the value
			 * of a union) is recorded so that the return shows */
			it->nloc = 1;
			it->loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
			return true;
		}
		unsigned ni = 0, nx = 0;
		it->nloc = (uint8_t)ne;
		for (unsigned e = 0; e < ne; e++)
			it->loc[e] = (struct ct_aloc){
			    .kind = CT_AL_RET, .reg = (uint8_t)(cls[e] == C_INT ? ni++ : 2 + nx++)};
		return true;
	}
	if ((tag == DW_TAG_base_type && size == 16) || !scalar_fmt(c, t, it, 0)) {
		/* long double, __int128, ...: described; a record is still
		 * made (rax, unused) so that the return shows */
		set_none(it, "<%s>", type_name(t));
		it->nloc = 1;
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
		return true;
	}
	it->nloc = 1;
	it->loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = it->fmt == CT_AF_FLOAT ? 2 : 0};
	return true;
}

/* keep a spec within one record: big stack structs, then strings, give way */
static void fit(struct ct_aspec *s, unsigned strmax)
{
	while (ct_aspec_words(s, false, strmax) > CT_ARGS_MAX_WORDS) {
		struct ct_aitem *big = NULL;
		for (size_t i = 0; i < s->nargs; i++) {
			struct ct_aitem *it = &s->args[i];
			if (it->fmt == CT_AF_STRUCT && it->nloc == 1 &&
			    it->loc[0].kind == CT_AL_STACK &&
			    (!big || it->loc[0].size > big->loc[0].size))
				big = it;
		}
		if (big) {
			set_none(big, "<%s %uB>", "struct", big->loc[0].size);
			continue;
		}
		for (size_t i = s->nargs; i-- > 0;)
			if (s->args[i].fmt == CT_AF_STR) {
				s->args[i].fmt = CT_AF_PTR;
				big = &s->args[i];
				break;
			}
		if (!big)
			break;
	}
}

static const struct ct_symbol *sym_at(const struct ct_symtab *st, uint64_t v)
{
	const struct ct_symbol *s = ct_symtab_lookup(st, v);
	return s && s->value == v ? s : NULL;
}

static void function(struct ctx *c, Dwarf_Die *fn)
{
	Dwarf_Addr lo = 0;
	if (dwarf_hasattr(fn, DW_AT_declaration))
		return;
	const struct ct_symbol *sym = NULL;
	if (dwarf_lowpc(fn, &lo) == 0) {
		sym = sym_at(c->st, lo);
	} else {
		/* in pieces (hot and cold parts): the entry is the piece that
		 * starts the function's own symbol, not a foo.cold */
		Dwarf_Addr base, start, end;
		ptrdiff_t o = 0;
		while ((o = dwarf_ranges(fn, o, &base, &start, &end)) > 0) {
			const struct ct_symbol *y = sym_at(c->st, start);
			if (y && !strchr(y->name, '.')) {
				sym = y;
				lo = start;
				break;
			}
		}
	}
	/* no symbol: not traced; a '.' in the name: a clone (constprop, isra,
	 * part) whose parameters are not those DWARF declares */
	if (!sym || strchr(sym->name, '.'))
		return;
	Dwarf_Attribute a;
	Dwarf_Word cc = 0;
	if (dwarf_attr_integrate(fn, DW_AT_calling_convention, &a) &&
	    dwarf_formudata(&a, &cc) == 0 && cc == DW_CC_nocall)
		return; /* the compiler changed how it is called */
	void **done = ct_u64map_slot(&c->done, lo);
	if (*done)
		return;
	*done = (void *)1;

	/* the declared parameters: of the abstract origin when this is an
	 * out-of-line copy of an inline function */
	Dwarf_Die origin, *decl = fn;
	if (dwarf_attr(fn, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
		decl = &origin;
	Dwarf_Die spec;
	if (!dwarf_haschildren(decl) && dwarf_attr(decl, DW_AT_specification, &a) &&
	    dwarf_formref_die(&a, &spec))
		decl = &spec;

	struct ct_aspec s;
	memset(&s, 0, sizeof(s));
	struct alloc al = {0, 0, 8};
	struct ct_aitem rit;
	memset(&rit, 0, sizeof(rit));
	Dwarf_Die rt;
	bool hidden = false;
	bool has_ret = retval(c, type_of(fn, &rt), &rit, &hidden);
	if (hidden)
		al.gp = 1;
	Dwarf_Die ch;
	if (dwarf_child(decl, &ch) == 0) {
		do {
			int tag = dwarf_tag(&ch);
			if (tag == DW_TAG_unspecified_parameters) {
				s.variadic = true;
				continue;
			}
			if (tag != DW_TAG_formal_parameter)
				continue;
			struct ct_aitem it;
			memset(&it, 0, sizeof(it));
			Dwarf_Die pt;
			const char *n = dwarf_diename(&ch);
			bool art = dwarf_hasattr_integrate(&ch, DW_AT_artificial);
			it.name = xstrdup(n ? n : art ? "this" : "?");
			param(c, type_of(&ch, &pt), &al, &it);
			s.args = xrealloc(s.args, (s.nargs + 1) * sizeof(*s.args));
			s.args[s.nargs++] = it;
		} while (dwarf_siblingof(&ch, &ch) == 0);
	}
	if (has_ret) {
		s.ret = xmalloc(sizeof(*s.ret));
		s.ret[0] = rit;
		s.nret = 1;
	}
	fit(&s, c->t->strmax);
	if (s.nargs || s.nret || s.variadic)
		ct_amodule_add(c->m, lo, ct_argtab_intern(c->t, &s));
	ct_aspec_free(&s);
}

static void walk(struct ctx *c, Dwarf_Die *d, int depth)
{
	Dwarf_Die ch;
	if (depth > 16 || dwarf_child(d, &ch) != 0)
		return;
	do {
		int tag = dwarf_tag(&ch);
		if (tag == DW_TAG_subprogram)
			function(c, &ch);
		else if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
			 tag == DW_TAG_class_type || tag == DW_TAG_union_type)
			walk(c, &ch, depth + 1);
	} while (dwarf_siblingof(&ch, &ch) == 0);
}

int ct_dwarf_specs(const char *path, struct ct_argtab *t, struct ct_amodule *m,
		   const struct ct_symtab *st, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, false, &size, &why);
	if (fd < 0)
		return 0;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		fprintf(stderr,
			"calltrace record: warning: %s: no DWARF; -a gives its functions no "
			"arguments (build with -g)\n",
			path);
		return 0;
	}
	struct ctx c = {.t = t, .m = m, .st = st};
	ct_u64map_init(&c.enums);
	ct_u64map_init(&c.structs);
	ct_u64map_init(&c.done);
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			walk(&c, &cu, 0);
		off = next;
	}
	ct_u64map_free(&c.enums);
	ct_u64map_free(&c.structs);
	ct_u64map_free(&c.done);
	dwarf_end(dw);
	close(fd);
	return 0;
}
