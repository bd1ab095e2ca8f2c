/* SPDX-License-Identifier: MIT */
/*
 * record -a: the parameters and return type of every function of a module,
 * from its DWARF (libdw), turned into argument specs.  On aarch64 each
 * parameter is where DWARF says it is at -pg's call of _mcount
 * (dwarfargs_a64.c; dwarfargs_priv.h is what the two files share);
 * on x86-64 where each value is
 * follows the x86-64 System V calling convention: integer-class values in
 * rdi rsi rdx rcx r8 r9, floating ones in xmm0..7, the rest on the stack;
 * structs of up to 16 bytes by the classes of their eightbytes, larger
 * ones in memory; a large struct returned by value takes rdi for its hidden
 * pointer.  What cannot be decoded is described, never guessed.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argrecord.h"
#include "dwarfargs_priv.h"
#include "calltrace/format.h"
#include "error.h"
#include "symtab.h"
#include "util.h"

enum cls { C_NONE = 0, C_INT, C_SSE, C_MEM };

Dwarf_Die *ct_dwa_strip(Dwarf_Die *d, Dwarf_Die *buf)
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

Dwarf_Word ct_dwa_size_of(Dwarf_Die *d)
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
	Dwarf_Die b1, *t = ct_dwa_strip(d, &b1);
	if (!t || depth > 8)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = ct_dwa_size_of(t);
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
		Dwarf_Die *e = ct_dwa_strip(&et, &eb);
		Dwarf_Word es = e ? ct_dwa_size_of(e) : 0;
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

static int enum_table(struct ct_dwa_ctx *c, Dwarf_Die *t)
{
	void **slot = ct_u64map_slot(&c->enums, dwarf_dieoffset(t));
	if (*slot)
		return (int)(uintptr_t)*slot - 1;
	struct ct_argtab *tab = c->t;
	tab->enums = xrealloc(tab->enums, (tab->nenums + 1) * sizeof(*tab->enums));
	struct ct_aenum *e = &tab->enums[tab->nenums];
	memset(e, 0, sizeof(*e));
	/* DW_FORM_data1/2/4 carry no sign, and dwarf_formsdata sign-extends
	 * them from the form's width: an enumerator 0x80 written as data1
	 * would read as -128.  The enum's own encoding, or its underlying
	 * type's, says whether the bits are signed, at the enum's width. */
	bool is_unsigned = false;
	Dwarf_Word esize = ct_dwa_size_of(t);
	unsigned bits = esize >= 1 && esize < 8 ? (unsigned)esize * 8 : 64;
	Dwarf_Attribute ea;
	Dwarf_Word enc = 0;
	Dwarf_Die ub, ub2, *u = NULL;
	if (dwarf_attr(t, DW_AT_encoding, &ea) && dwarf_formudata(&ea, &enc) == 0) {
		is_unsigned = enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char ||
			      enc == DW_ATE_boolean;
	} else if ((u = type_of(t, &ub)) && (u = ct_dwa_strip(u, &ub2)) &&
		   dwarf_tag(u) == DW_TAG_base_type && dwarf_attr(u, DW_AT_encoding, &ea) &&
		   dwarf_formudata(&ea, &enc) == 0) {
		is_unsigned = enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char ||
			      enc == DW_ATE_boolean;
	}
	Dwarf_Die ch;
	if (dwarf_child(t, &ch) == 0) {
		do {
			if (dwarf_tag(&ch) != DW_TAG_enumerator)
				continue;
			Dwarf_Attribute a;
			Dwarf_Sword v = 0;
			Dwarf_Word uv = 0;
			if (!dwarf_attr(&ch, DW_AT_const_value, &a))
				continue;
			unsigned form = dwarf_whatform(&a);
			if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
				if (dwarf_formsdata(&a, &v) != 0)
					continue;
			} else {
				if (dwarf_formudata(&a, &uv) != 0)
					continue;
				/* a fixed-size form holds the value's bits at the
				 * enum's width: signed only in a signed enum */
				if (!is_unsigned && bits < 64 && (uv >> (bits - 1) & 1))
					uv |= ~0ull << bits;
				v = (Dwarf_Sword)uv;
			}
			e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
			e->v[e->n++] =
				(struct ct_aenum_val){(int64_t)v,
						      xstrdup(die_name(&ch) ? die_name(&ch) : "?")};
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

void ct_dwa_set_none(struct ct_aitem *it, const char *fmt, ...)
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

static int struct_table(struct ct_dwa_ctx *c, Dwarf_Die *t, int depth);

/* is the base type t the type `char` (not `signed char` nor `unsigned
 * char`, whatever its signedness on this target)? */
static bool is_plain_char(Dwarf_Die *t)
{
	const char *n = dwarf_diename(t);
	return n && !strcmp(n, "char");
}

static bool is_std_string(Dwarf_Die *t);

/* the format of a scalar of type d (members, parameters, return values);
 * false when it is not a scalar we print */
bool ct_dwa_scalar_fmt(struct ct_dwa_ctx *c, Dwarf_Die *d, struct ct_aitem *it, int depth)
{
	Dwarf_Die b1, *t = ct_dwa_strip(d, &b1);
	if (!t)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = ct_dwa_size_of(t);
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
			/* one rule for arguments, members and return values: a
			 * character only for `char` itself (and its typedefs);
			 * `signed char`, `unsigned char`, int8_t and uint8_t
			 * are numbers */
			it->fmt = size == 1 && is_plain_char(t) ? CT_AF_CHAR
				  : enc == DW_ATE_signed_char   ? CT_AF_INT
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
		p = p ? ct_dwa_strip(p, &pb2) : NULL;
		if (tag == DW_TAG_pointer_type && p && dwarf_tag(p) == DW_TAG_base_type &&
		    ct_dwa_size_of(p) == 1) {
			Dwarf_Attribute a;
			Dwarf_Word enc = 0;
			if (dwarf_attr(p, DW_AT_encoding, &a))
				dwarf_formudata(&a, &enc);
			if (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char)
				it->fmt = depth ? CT_AF_PTR : CT_AF_STR;
		}
		/* a reference to a std::string: its text */
		if (tag != DW_TAG_pointer_type && p && !depth &&
		    (dwarf_tag(p) == DW_TAG_class_type || dwarf_tag(p) == DW_TAG_structure_type) &&
		    is_std_string(p))
			it->fmt = CT_AF_STDSTR;
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

static int struct_table(struct ct_dwa_ctx *c, Dwarf_Die *t, int depth)
{
	void **slot = ct_u64map_slot(&c->structs, dwarf_dieoffset(t));
	if (*slot)
		return (int)(uintptr_t)*slot - 1;
	struct ct_astruct s;
	memset(&s, 0, sizeof(s));
	s.size = (uint32_t)ct_dwa_size_of(t);
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
			    !ct_dwa_scalar_fmt(c, &mt, &m.it, depth)) {
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

/* ---- passing classes by invisible reference --------------------------------- */

/* Is t libstdc++'s std::string (std::__cxx11::basic_string<char>): a
 * pointer to its text (_M_dataplus._M_p) at offset 0 and its length
 * (_M_string_length) at offset 8?  Then its text can be shown. */
static bool is_std_string(Dwarf_Die *t)
{
	const char *n = dwarf_diename(t);
	if (!n || strncmp(n, "basic_string<char,", 18))
		return false;
	if (dwarf_hasattr(t, DW_AT_declaration)) {
		/* only declared here (clang's -fno-standalone-debug: the class
		 * is libstdc++'s extern template): the new-ABI class is the
		 * one in namespace std::__cxx11 */
		Dwarf_Die *sc = NULL;
		int n_sc = dwarf_getscopes_die(t, &sc);
		bool cxx11 = false;
		for (int i = 1; i < n_sc; i++) {
			const char *sn = dwarf_tag(&sc[i]) == DW_TAG_namespace
						 ? dwarf_diename(&sc[i])
						 : NULL;
			if (sn && !strcmp(sn, "__cxx11") && i + 1 < n_sc &&
			    dwarf_tag(&sc[i + 1]) == DW_TAG_namespace &&
			    dwarf_diename(&sc[i + 1]) && !strcmp(dwarf_diename(&sc[i + 1]), "std"))
				cxx11 = true;
		}
		free(sc);
		return cxx11;
	}
	if (ct_dwa_size_of(t) != 32)
		return false;
	bool p = false, len = false;
	Dwarf_Die ch;
	if (dwarf_child(t, &ch) != 0)
		return false;
	do {
		if (dwarf_tag(&ch) != DW_TAG_member)
			continue;
		const char *m = dwarf_diename(&ch);
		Dwarf_Attribute a;
		Dwarf_Word off = UINT64_MAX;
		if (!m || !dwarf_attr(&ch, DW_AT_data_member_location, &a) ||
		    dwarf_formudata(&a, &off) != 0)
			continue;
		p |= !strcmp(m, "_M_dataplus") && off == 0;
		len |= !strcmp(m, "_M_string_length") && off == 8;
	} while (dwarf_siblingof(&ch, &ch) == 0);
	return p && len;
}

/* Is class t "non-trivial for the purposes of calls" (Itanium C++ ABI):
 * passed and returned through a hidden pointer to a copy, never in
 * registers?  True when DWARF says DW_CC_pass_by_reference; gcc 12 never
 * writes it, so also from the type itself: a user-provided copy or move
 * constructor or destructor (in a class template's instance "Q<int>", the
 * constructors are named "Q"), a virtual function or base (their copy
 * constructor is never trivial), or a base or member of class type that is
 * itself non-trivial (std::string in a struct). */
static bool nontrivial_class(Dwarf_Die *t, int depth)
{
	Dwarf_Attribute a;
	Dwarf_Word cc = 0;
	if (dwarf_attr_integrate(t, DW_AT_calling_convention, &a) && dwarf_formudata(&a, &cc) == 0)
		return cc == DW_CC_pass_by_reference;
	if (is_std_string(t))
		return true;
	if (depth > 8)
		return false;
	const char *cname = dwarf_diename(t);
	Dwarf_Die ch;
	if (dwarf_child(t, &ch) != 0)
		return false;
	do {
		int tag = dwarf_tag(&ch);
		if (tag == DW_TAG_subprogram) {
			if (dwarf_hasattr(&ch, DW_AT_virtuality))
				return true;
			if (dwarf_hasattr(&ch, DW_AT_artificial))
				continue; /* implicitly declared: trivial unless a
					   * member or base makes it not */
			Dwarf_Word dflt = 0;
			if (dwarf_attr(&ch, DW_AT_defaulted, &a) &&
			    dwarf_formudata(&a, &dflt) == 0 && dflt == DW_DEFAULTED_in_class)
				continue; /* "= default" on its first declaration */
			const char *n = dwarf_diename(&ch);
			if (!n || !cname)
				continue;
			if (n[0] == '~')
				return true; /* a user-provided destructor */
			/* a constructor has the class's name without its
			 * template arguments: "Q" in "Q<int>" */
			size_t cl = strcspn(cname, "<");
			if (strlen(n) != cl || strncmp(n, cname, cl))
				continue;
			/* a constructor: a copy or move one takes (this, T& / T&&) */
			Dwarf_Die p, pb, rb;
			int np = 0;
			bool copy = false;
			if (dwarf_child(&ch, &p) == 0) {
				do {
					if (dwarf_tag(&p) != DW_TAG_formal_parameter)
						continue;
					if (++np != 2)
						continue;
					Dwarf_Die *r = type_of(&p, &pb);
					int rt = r ? dwarf_tag(r) : 0;
					if (rt != DW_TAG_reference_type &&
					    rt != DW_TAG_rvalue_reference_type)
						continue;
					Dwarf_Die *target = type_of(r, &rb);
					target = target ? ct_dwa_strip(target, &rb) : NULL;
					copy = target &&
					       dwarf_dieoffset(target) == dwarf_dieoffset(t);
				} while (dwarf_siblingof(&p, &p) == 0);
			}
			if (copy && np == 2)
				return true;
		} else if (tag == DW_TAG_inheritance ||
			   (tag == DW_TAG_member && !dwarf_hasattr(&ch, DW_AT_declaration))) {
			if (tag == DW_TAG_inheritance && dwarf_hasattr(&ch, DW_AT_virtuality))
				return true;
			Dwarf_Die mb, mb2, *m = type_of(&ch, &mb);
			m = m ? ct_dwa_strip(m, &mb2) : NULL;
			/* arrays of class type count as the class */
			for (int k = 0; m && k < 8 && dwarf_tag(m) == DW_TAG_array_type; k++) {
				Dwarf_Die eb;
				Dwarf_Die *e = type_of(m, &eb);
				m = e ? ct_dwa_strip(e, &mb2) : NULL;
				if (m == &eb) {
					mb2 = eb;
					m = &mb2;
				}
			}
			int mt = m ? dwarf_tag(m) : 0;
			if ((mt == DW_TAG_structure_type || mt == DW_TAG_class_type ||
			     mt == DW_TAG_union_type) &&
			    nontrivial_class(m, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&ch, &ch) == 0);
	return false;
}

/* ---- parameters ------------------------------------------------------------ */

struct alloc {
	unsigned gp, xmm;
	uint32_t stack; /* next stack offset from the entry sp */
	bool unknown;   /* a class only declared here came first: where the
			 * rest are cannot be told */
};

/* a class type only declared in this module's DWARF (clang's default
 * -fno-standalone-debug): its size and how it is passed are unknown */
bool ct_dwa_declared_only(Dwarf_Die *t)
{
	int tag = dwarf_tag(t);
	return (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
		tag == DW_TAG_union_type) &&
	       dwarf_hasattr(t, DW_AT_declaration) && !is_std_string(t);
}

static void on_stack(struct ct_aitem *it, struct alloc *al, Dwarf_Word size, unsigned align)
{
	if (align > 8)
		al->stack = (al->stack + 15) & ~15u;
	it->nloc = 0;
	if (size && size <= 256 && it->fmt != CT_AF_NONE) {
		it->nloc = 1;
		it->loc[0] = (struct ct_aloc){.kind = CT_AL_STACK,
					      .size = (uint16_t)size,
					      .off = al->stack};
	}
	al->stack += (uint32_t)((size + 7) & ~7ull);
}

/* one parameter of type d: its item, placed by the calling convention */
static void param(struct ct_dwa_ctx *c, Dwarf_Die *d, struct alloc *al, struct ct_aitem *it)
{
	Dwarf_Die b1, *t = d ? ct_dwa_strip(d, &b1) : NULL;
	if (!t || al->unknown) {
		ct_dwa_set_none(it, "?");
		return;
	}
	int tag = dwarf_tag(t);
	Dwarf_Word size = ct_dwa_size_of(t);
	if (ct_dwa_declared_only(t)) {
		/* neither its size nor whether it comes in registers, on the
		 * stack or by reference is known: it and the parameters after
		 * it are shown as "?" rather than read from the wrong place */
		ct_dwa_set_none(it, "?");
		al->unknown = true;
		return;
	}
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		const char *kind = tag == DW_TAG_union_type   ? "union"
				   : tag == DW_TAG_class_type ? "class"
							      : "struct";
		if (tag != DW_TAG_union_type && nontrivial_class(t, 0)) {
			/* C++: a copy made by the caller, passed by address
			 * (a std::string: its text) */
			it->fmt = is_std_string(t) ? CT_AF_STDSTR : CT_AF_PTR;
			it->bits = 64;
			if (al->gp < 6) {
				it->nloc = 1;
				it->loc[0] = (struct ct_aloc){.kind = CT_AL_GP,
							      .reg = (uint8_t)al->gp++};
			} else {
				on_stack(it, al, 8, 8);
			}
			return;
		}
		enum cls cls[2] = {C_NONE, C_NONE};
		unsigned align = 1;
		bool regs = size && size <= 16 && classify(t, 0, cls, &align, 0);
		bool printable = tag != DW_TAG_union_type && ct_dwa_scalar_fmt(c, t, it, 0);
		if (!printable)
			ct_dwa_set_none(it, "<%s%s%s %" PRIu64 "B>", kind, *type_name(t) ? " " : "",
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
		ct_dwa_set_none(it, "<%s>", type_name(t));
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
	if (!ct_dwa_scalar_fmt(c, d, it, 0)) {
		ct_dwa_set_none(it, "<%s%s%" PRIu64 "B>", type_name(t), *type_name(t) ? " " : "",
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
static bool retval(struct ct_dwa_ctx *c, Dwarf_Die *d, struct ct_aitem *it, bool *hidden)
{
	Dwarf_Die b1, *t = d ? ct_dwa_strip(d, &b1) : NULL;
	*hidden = false;
	if (!t)
		return false;
	int tag = dwarf_tag(t);
	Dwarf_Word size = ct_dwa_size_of(t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
		enum cls cls[2] = {C_NONE, C_NONE};
		unsigned align = 1;
		bool byref = tag != DW_TAG_union_type && nontrivial_class(t, 0);
		bool regs = !byref && size && size <= 16 && classify(t, 0, cls, &align, 0);
		unsigned ne = size > 8 ? 2 : 1;
		for (unsigned e = 0; e < ne; e++)
			if (cls[e] == C_NONE)
				regs = false;
		if (byref && is_std_string(t)) {
			/* returned through the hidden pointer, whose value rax
			 * holds at the return: the string's text */
			*hidden = true;
			it->fmt = CT_AF_STDSTR;
			it->bits = 64;
			it->nloc = 1;
			it->loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
			return true;
		}
		bool printable = tag != DW_TAG_union_type && ct_dwa_scalar_fmt(c, t, it, 0);
		if (!regs || !printable) {
			*hidden = !regs;
			ct_dwa_set_none(it, "<%s%s%s %" PRIu64 "B>",
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
			it->loc[e] = (struct ct_aloc){.kind = CT_AL_RET,
						      .reg = (uint8_t)(cls[e] == C_INT ? ni++
										       : 2 + nx++)};
		return true;
	}
	if ((tag == DW_TAG_base_type && size == 16) || !ct_dwa_scalar_fmt(c, t, it, 0)) {
		/* long double, __int128, ...: described; a record is still
		 * made (rax, unused) so that the return shows */
		ct_dwa_set_none(it, "<%s>", type_name(t));
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
			    ct_sf_in_memory(&it->loc[0]) &&
			    (!big || it->loc[0].size > big->loc[0].size))
				big = it;
		}
		if (big) {
			ct_dwa_set_none(big, "<%s %uB>", "struct", big->loc[0].size);
			continue;
		}
		for (size_t i = s->nargs; i-- > 0;)
			if (ct_sf_has_text(s->args[i].fmt)) {
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

static void function(struct ct_dwa_ctx *c, Dwarf_Die *fn)
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
	/* but the concrete function's own parameter list when it has one:
	 * the declaration of a constructor or destructor also lists the
	 * artificial __in_chrg / __vtt_parm that only some of its variants
	 * (C1, C2, D1, D2) take; each variant's DIE lists what it takes */
	Dwarf_Die fc;
	if (decl != fn && dwarf_child(fn, &fc) == 0) {
		do {
			if (dwarf_tag(&fc) == DW_TAG_formal_parameter) {
				decl = fn;
				break;
			}
		} while (dwarf_siblingof(&fc, &fc) == 0);
	}

	/* aarch64: where _mcount returns to, where the locations are asked */
	uint64_t site = c->a64 ? ct_dwa_a64_mcount_ret(c->elf, lo) : 0;
	bool fb_cfa = c->a64 && ct_dwa_a64_fb_is_cfa(fn);
	if (c->a64 && !site)
		return; /* no call of _mcount: not a -pg function */

	struct ct_aspec s;
	memset(&s, 0, sizeof(s));
	struct alloc al = {0, 0, 8, false};
	struct ct_aitem rit;
	memset(&rit, 0, sizeof(rit));
	Dwarf_Die rt;
	bool hidden = false;
	bool has_ret = retval(c, type_of(fn, &rt), &rit, &hidden);
	if (has_ret && c->a64)
		ct_dwa_a64_retval(c, &rit, hidden);
	if (hidden)
		al.gp = 1;
	Dwarf_Die rb, *rs = has_ret ? ct_dwa_strip(&rt, &rb) : NULL;
	if (rs && ct_dwa_declared_only(rs))
		al.unknown = true; /* rdi may or may not be a hidden pointer */
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
			Dwarf_Attribute na;
			const char *n =
				dwarf_formstring(dwarf_attr_integrate(&ch, DW_AT_name, &na));
			bool art = dwarf_hasattr_integrate(&ch, DW_AT_artificial);
			it.name = xstrdup(n ? n : art ? "this" : "?");
			if (c->a64)
				ct_dwa_a64_param(c, &ch, type_of(&ch, &pt), site, fb_cfa, &it);
			else
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

static void walk(struct ct_dwa_ctx *c, Dwarf_Die *d, int depth)
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
		   const struct ct_symtab *st, struct ct_msgs *warn, struct ct_error *err)
{
	(void)err;
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, false, &size, &why);
	if (fd < 0)
		return 0;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		ct_msg_add(warn, CT_MSG_WARN,
			   "%s: no DWARF; -a gives its functions no "
			   "arguments (build with -g)",
			   path);
		return 0;
	}
	struct ct_dwa_ctx c = {.t = t, .m = m, .st = st};
	GElf_Ehdr eh;
	c.elf = dwarf_getelf(dw);
	c.a64 = c.elf && gelf_getehdr(c.elf, &eh) && eh.e_machine == EM_AARCH64;
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
