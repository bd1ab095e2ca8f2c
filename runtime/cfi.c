/* SPDX-License-Identifier: MIT */
/*
 * DWARF call frame information (cfi.h): a step from a frame to its
 * caller's by the frame description entry that covers its pc, in .eh_frame
 * as the loader mapped it.  The CIE's and then the FDE's instructions run
 * up to the pc, then the CFA, the return address and the registers saved
 * are read back.  The expressions that compilers emit for a CFA or a
 * register (stack realignment, the PLT's stubs, the C library's signal
 * trampoline) are evaluated on a small stack.  Every read of the stack is
 * inside the stack the frame is on (ct_uw_mem); the CFI itself is the
 * loader's, mapped read-only while its module is loaded.  Each loop is
 * bounded, and a step's own frame is small (it runs in a signal handler,
 * maybe on a small signal stack).  Async-signal-safe: no allocation, no
 * lock, no libc call but memcpy and memset.
 */
#include <string.h>

#include "cfi.h"

#ifdef CT_ARCH_UNWIND

/* ---- reading the CFI ------------------------------------------------------- */

static uintptr_t uleb(const uint8_t **pp, const uint8_t *end, bool *ok)
{
	uintptr_t v = 0;
	unsigned shift = 0;
	const uint8_t *p = *pp;
	for (;;) {
		if (p >= end || shift > 63) {
			*ok = false;
			return 0;
		}
		uint8_t b = *p++;
		v |= (uintptr_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	*pp = p;
	return v;
}

static intptr_t sleb(const uint8_t **pp, const uint8_t *end, bool *ok)
{
	uintptr_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;
	const uint8_t *p = *pp;
	do {
		if (p >= end || shift > 63) {
			*ok = false;
			return 0;
		}
		b = *p++;
		v |= (uintptr_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uintptr_t)0 << shift;
	*pp = p;
	return (intptr_t)v;
}

/* an n-byte value at *p (n 1, 2, 4 or 8; little-endian, as every
 * CT_ARCH_UNWIND target), sign-extended if sign; false past end */
static bool fixed(const uint8_t **pp, const uint8_t *end, unsigned n, bool sign, uintptr_t *v)
{
	uint64_t x = 0;
	if (end - *pp < (ptrdiff_t)n)
		return false;
	memcpy(&x, *pp, n);
	if (sign && n < 8 && (x >> (8 * n - 1) & 1))
		x |= ~(uint64_t)0 << (8 * n);
	*v = (uintptr_t)x;
	*pp += n;
	return true;
}

/* DW_EH_PE_*: the value's form (low nibble), what it is relative to
 * (bits 4-6), indirect (0x80) */
uintptr_t ct_cfi_read_enc(const uint8_t **pp, const uint8_t *end, uint8_t enc, uintptr_t datarel,
			  bool *ok)
{
	const uint8_t *p = *pp;
	uintptr_t v;
	if (enc == 0xff)
		return 0; /* DW_EH_PE_omit */
	/* the form: a LEB128, or n bytes (little-endian), signed or not */
	unsigned n = 0;
	bool sign = false;
	switch (enc & 0x0f) {
	case 0x01:
		v = uleb(&p, end, ok);
		break;
	case 0x09:
		v = (uintptr_t)sleb(&p, end, ok);
		break;
	case 0x00: /* absptr */
	case 0x04:
	case 0x0c:
		n = 8;
		break;
	case 0x0a:
		sign = true;
		/* fall through */
	case 0x02:
		n = 2;
		break;
	case 0x0b:
		sign = true;
		/* fall through */
	case 0x03:
		n = 4;
		break;
	default:
		goto bad;
	}
	if (n && !fixed(&p, end, n, sign, &v))
		goto bad;
	switch (enc & 0x70) {
	case 0x00:
		break;
	case 0x10: /* pcrel: from the value's own place */
		v += (uintptr_t)*pp;
		break;
	case 0x30: /* datarel: from the header */
		v += datarel;
		break;
	default:
		goto bad;
	}
	if (enc & 0x80)
		goto bad; /* indirect: only personalities are, which a step skips */
	*pp = p;
	return v;
bad:
	*ok = false;
	return 0;
}


/* a CIE or FDE's length and id at p: its body [*body, *end); false for the
 * terminator or a 64-bit length (never emitted in .eh_frame) */
static bool entry_at(const uint8_t *p, const uint8_t **body, const uint8_t **end)
{
	uint32_t len;
	memcpy(&len, p, 4);
	if (len == 0 || len == 0xffffffffu)
		return false;
	*body = p + 4;
	*end = p + 4 + len;
	return true;
}

/* ---- the CIE and the FDE ------------------------------------------------------ */

struct cie {
	const uint8_t *insn, *end; /* its initial instructions */
	uintptr_t code_align;
	intptr_t data_align;
	unsigned ra;
	uint8_t fde_enc; /* 'R' */
	bool aug_z;      /* 'z': FDEs have augmentation data, sized */
	bool signal;     /* 'S' */
};

static bool parse_cie(const uint8_t *fde_id, struct cie *c)
{
	/* the FDE's id field: the offset back to its CIE */
	uint32_t off;
	memcpy(&off, fde_id, 4);
	if (!off)
		return false; /* (that is a CIE) */
	const uint8_t *cp = fde_id - off, *body, *end;
	if (!entry_at(cp, &body, &end))
		return false;
	const uint8_t *p = body;
	uint32_t id;
	memcpy(&id, p, 4);
	p += 4;
	if (id != 0)
		return false;
	uint8_t version = *p++;
	if (version != 1 && version != 3)
		return false;
	const char *aug = (const char *)p;
	size_t alen = 0;
	while (p + alen < end && aug[alen])
		alen++;
	if (p + alen >= end)
		return false;
	p += alen + 1;
	bool ok = true;
	c->code_align = uleb(&p, end, &ok);
	c->data_align = sleb(&p, end, &ok);
	c->ra = version == 1 ? (p < end ? *p++ : 0) : (unsigned)uleb(&p, end, &ok);
	c->fde_enc = 0; /* absptr */
	c->aug_z = false;
	c->signal = false;
	const uint8_t *aug_end = NULL;
	for (size_t i = 0; i < alen && ok; i++) {
		switch (aug[i]) {
		case 'z': {
			uintptr_t n = uleb(&p, end, &ok);
			c->aug_z = true;
			aug_end = p + n;
			break;
		}
		case 'R':
			c->fde_enc = p < end ? *p++ : 0xff;
			break;
		case 'L':
			p++; /* the LSDA's encoding */
			break;
		case 'P': {
			uint8_t enc = p < end ? *p++ : 0xff;
			/* the personality: skipped (indirect is fine here) */
			ct_cfi_read_enc(&p, end, enc & 0x7f, 0, &ok);
			break;
		}
		case 'S':
			c->signal = true;
			break;
		case 'B': /* aarch64's pointer authentication key: none here */
			break;
		default:
			if (!c->aug_z)
				return false; /* unknown, no size to skip it by */
			i = alen;             /* the rest is skipped by its size */
		}
	}
	if (!ok || (aug_end && aug_end > end))
		return false;
	if (aug_end)
		p = aug_end;
	c->insn = p;
	c->end = end;
	return c->ra < CT_ARCH_UW_NREGS;
}

bool ct_cfi_fde_range(const uint8_t *fde, uintptr_t *start, uintptr_t *range)
{
	const uint8_t *body, *end;
	if (!entry_at(fde, &body, &end))
		return false;
	struct cie c;
	if (!parse_cie(body, &c))
		return false;
	const uint8_t *p = body + 4;
	bool ok = true;
	*start = ct_cfi_read_enc(&p, end, c.fde_enc, 0, &ok);
	*range = ct_cfi_read_enc(&p, end, c.fde_enc & 0x0f, 0, &ok);
	return ok;
}

/* ---- running the instructions ----------------------------------------------- */

enum rule { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };

/* (small: a step runs in a signal handler, maybe on a small signal stack) */
struct reg_rule {
	uint8_t how;
	int32_t off; /* R_OFFSET, R_VAL_OFFSET: from the CFA; R_REG: the register;
		      * R_EXPR, R_VAL_EXPR: the expression's place (a uleb length
		      * first) from the FDE's or CIE's start (ex_base) */
};

struct frame_state {
	struct reg_rule reg[CT_ARCH_UW_NREGS];
	unsigned cfa_reg;
	intptr_t cfa_off;
	const uint8_t *cfa_expr; /* set: the CFA is this expression's value */
};

#define MAX_REMEMBERED 4 /* (GCC's and LLVM's CFI nest one or two) */
#define MAX_INSNS 4096   /* instructions run in one step at most */

struct runner {
	struct frame_state st, init;
	struct frame_state saved[MAX_REMEMBERED];
	unsigned nsaved;
	const struct cie *cie;
	uintptr_t loc;
	uint8_t fde_enc;
	const uint8_t *ex_base;
};

/* reg's rule; false if it does not fit (an expression's place is kept
 * from the FDE's start, ex_base: the CIE's and the FDE's instructions are
 * both in .eh_frame, within 2 GiB) */
static bool set_rule(struct runner *r, uintptr_t reg, uint8_t how, intptr_t off, const uint8_t *ex)
{
	if (reg >= CT_ARCH_UW_NREGS)
		return true; /* a register a step never needs (vector ones) */
	if (ex)
		off = ex - r->ex_base;
	if (off != (int32_t)off)
		return false;
	r->st.reg[reg].how = how;
	r->st.reg[reg].off = (int32_t)off;
	return true;
}

/* skip a block (uleb length, bytes) at *pp; false if past end */
static bool skip_block(const uint8_t **pp, const uint8_t *end)
{
	bool ok = true;
	uintptr_t n = uleb(pp, end, &ok);
	if (!ok || n > (uintptr_t)(end - *pp))
		return false;
	*pp += n;
	return true;
}

/* run [p, end) while the location is at or below pc; false on an
 * instruction the runner does not know */
static bool run(struct runner *r, const uint8_t *p, const uint8_t *end, uintptr_t pc)
{
	const struct cie *c = r->cie;
	bool ok = true;
	for (unsigned n = 0; p < end && ok; n++) {
		if (n > MAX_INSNS)
			return false;
		uint8_t op = *p++;
		uintptr_t a, delta = 0;
		switch (op & 0xc0) {
		case 0x40: /* advance_loc */
			delta = op & 0x3f;
			goto advance;
		case 0x80: /* offset */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, op & 0x3f, R_OFFSET, (intptr_t)a * c->data_align, NULL) &&
			     ok;
			continue;
		case 0xc0: /* restore */
			if ((op & 0x3f) < CT_ARCH_UW_NREGS)
				r->st.reg[op & 0x3f] = r->init.reg[op & 0x3f];
			continue;
		}
		switch (op) {
		case 0x00: /* nop */
			break;
		case 0x01: /* set_loc */
			r->loc = ct_cfi_read_enc(&p, end, r->fde_enc, 0, &ok);
			if (r->loc > pc)
				return ok;
			break;
		case 0x02: /* advance_loc1, 2, 4 */
		case 0x03:
		case 0x04:
			if (!fixed(&p, end, op == 0x02 ? 1 : op == 0x03 ? 2 : 4, false, &delta))
				return false;
			goto advance;
		case 0x05: /* offset_extended */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_OFFSET, (intptr_t)uleb(&p, end, &ok) * c->data_align,
				      NULL) &&
			     ok;
			break;
		case 0x06: /* restore_extended */
			a = uleb(&p, end, &ok);
			if (a < CT_ARCH_UW_NREGS)
				r->st.reg[a] = r->init.reg[a];
			break;
		case 0x07: /* undefined */
			ok = set_rule(r, uleb(&p, end, &ok), R_UNDEF, 0, NULL) && ok;
			break;
		case 0x08: /* same_value */
			ok = set_rule(r, uleb(&p, end, &ok), R_SAME, 0, NULL) && ok;
			break;
		case 0x09: /* register */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_REG, (intptr_t)uleb(&p, end, &ok), NULL) && ok;
			break;
		case 0x0a: /* remember_state */
			if (r->nsaved >= MAX_REMEMBERED)
				return false;
			r->saved[r->nsaved++] = r->st;
			break;
		case 0x0b: /* restore_state (the CFA's rule with the rest, as
			    * GCC's unwinder has it and GCC's epilogues need) */
			if (!r->nsaved)
				return false;
			r->st = r->saved[--r->nsaved];
			break;
		case 0x0c: /* def_cfa */
			r->st.cfa_reg = (unsigned)uleb(&p, end, &ok);
			r->st.cfa_off = (intptr_t)uleb(&p, end, &ok);
			r->st.cfa_expr = NULL;
			break;
		case 0x0d: /* def_cfa_register */
			r->st.cfa_reg = (unsigned)uleb(&p, end, &ok);
			r->st.cfa_expr = NULL;
			break;
		case 0x0e: /* def_cfa_offset */
			r->st.cfa_off = (intptr_t)uleb(&p, end, &ok);
			break;
		case 0x0f: /* def_cfa_expression */
			r->st.cfa_expr = p;
			if (!skip_block(&p, end))
				return false;
			break;
		case 0x10: /* expression */
		case 0x16: /* val_expression */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, op == 0x10 ? R_EXPR : R_VAL_EXPR, 0, p) && ok;
			if (!skip_block(&p, end))
				return false;
			break;
		case 0x11: /* offset_extended_sf */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_OFFSET, sleb(&p, end, &ok) * c->data_align, NULL) &&
			     ok;
			break;
		case 0x12: /* def_cfa_sf */
			r->st.cfa_reg = (unsigned)uleb(&p, end, &ok);
			r->st.cfa_off = sleb(&p, end, &ok) * c->data_align;
			r->st.cfa_expr = NULL;
			break;
		case 0x13: /* def_cfa_offset_sf */
			r->st.cfa_off = sleb(&p, end, &ok) * c->data_align;
			break;
		case 0x14: /* val_offset */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_VAL_OFFSET,
				      (intptr_t)uleb(&p, end, &ok) * c->data_align, NULL) &&
			     ok;
			break;
		case 0x15: /* val_offset_sf */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_VAL_OFFSET, sleb(&p, end, &ok) * c->data_align,
				      NULL) &&
			     ok;
			break;
		case 0x2e: /* GNU_args_size */
			uleb(&p, end, &ok);
			break;
		case 0x2f: /* GNU_negative_offset_extended */
			a = uleb(&p, end, &ok);
			ok = set_rule(r, a, R_OFFSET, -(intptr_t)uleb(&p, end, &ok) * c->data_align,
				      NULL) &&
			     ok;
			break;
		default:
			return false;
		}
		continue;
	advance:
		r->loc += delta * c->code_align;
		if (r->loc > pc)
			return true;
	}
	return ok;
}

/* ---- expressions ------------------------------------------------------------ */

static inline bool read_word(struct ct_uw_mem *m, uintptr_t a, uintptr_t *v)
{
	if (a < m->lo || a > m->hi || m->hi - a < sizeof(uintptr_t) || (a & 7))
		return false;
	*v = *(const uintptr_t *)a;
	return true;
}

#define EXPR_STACK 16
#define EXPR_OPS 64

/* the value of expression ex (a uleb length, then its operations) on the
 * registers r, initial pushed first if push */
static bool eval(const uint8_t *ex, const struct ct_uw_regs *r, struct ct_uw_mem *m, bool push,
		 uintptr_t initial, uintptr_t *out)
{
	const uint8_t *p = ex;
	bool ok = true;
	uintptr_t len = uleb(&p, p + 10, &ok);
	const uint8_t *end = p + len;
	uintptr_t st[EXPR_STACK];
	int sp = 0;
	if (push)
		st[sp++] = initial;
	for (unsigned n = 0; ok && p < end; n++) {
		if (n > EXPR_OPS)
			return false;
		uint8_t op = *p++;
		if (op >= 0x30 && op <= 0x4f) { /* lit0..31 */
			if (sp >= EXPR_STACK)
				return false;
			st[sp++] = op - 0x30;
			continue;
		}
		if (op >= 0x70 && op <= 0x8f) { /* breg0..31 */
			unsigned reg = op - 0x70;
			intptr_t off = sleb(&p, end, &ok);
			if (reg >= CT_ARCH_UW_NREGS || !(r->known & (1u << reg)) ||
			    sp >= EXPR_STACK)
				return false;
			st[sp++] = r->r[reg] + (uintptr_t)off;
			continue;
		}
		switch (op) {
		case 0x06: /* deref */
			if (sp < 1 || !read_word(m, st[sp - 1], &st[sp - 1]))
				return false;
			break;
		case 0x08: /* const1u */
			if (sp >= EXPR_STACK || p >= end)
				return false;
			st[sp++] = *p++;
			break;
		case 0x09: /* const1s */
			if (sp >= EXPR_STACK || p >= end)
				return false;
			st[sp++] = (uintptr_t)(intptr_t)(int8_t)*p++;
			break;
		case 0x10: /* constu */
			if (sp >= EXPR_STACK)
				return false;
			st[sp++] = uleb(&p, end, &ok);
			break;
		case 0x11: /* consts */
			if (sp >= EXPR_STACK)
				return false;
			st[sp++] = (uintptr_t)sleb(&p, end, &ok);
			break;
		case 0x12: /* dup */
			if (sp < 1 || sp >= EXPR_STACK)
				return false;
			st[sp] = st[sp - 1];
			sp++;
			break;
		case 0x23: /* plus_uconst */
			if (sp < 1)
				return false;
			st[sp - 1] += uleb(&p, end, &ok);
			break;
		case 0x1a: /* and */
		case 0x1c: /* minus */
		case 0x21: /* or */
		case 0x22: /* plus */
		case 0x24: /* shl */
		case 0x25: /* shr */
		case 0x2a: /* ge */
		case 0x2b: /* gt */
		case 0x2c: /* le */
		case 0x2d: /* lt */
		case 0x29: /* eq */
		case 0x2e: /* ne */ {
			if (sp < 2)
				return false;
			uintptr_t b = st[--sp], a = st[sp - 1], v;
			switch (op) {
			case 0x1a:
				v = a & b;
				break;
			case 0x1c:
				v = a - b;
				break;
			case 0x21:
				v = a | b;
				break;
			case 0x22:
				v = a + b;
				break;
			case 0x24:
				v = b < 64 ? a << b : 0;
				break;
			case 0x25:
				v = b < 64 ? a >> b : 0;
				break;
			case 0x2a:
				v = (intptr_t)a >= (intptr_t)b;
				break;
			case 0x2b:
				v = (intptr_t)a > (intptr_t)b;
				break;
			case 0x2c:
				v = (intptr_t)a <= (intptr_t)b;
				break;
			case 0x2d:
				v = (intptr_t)a < (intptr_t)b;
				break;
			case 0x29:
				v = a == b;
				break;
			default:
				v = a != b;
				break;
			}
			st[sp - 1] = v;
			break;
		}
		default:
			return false; /* (branches, calls, pieces: not in a frame's rules) */
		}
	}
	if (!ok || sp < 1)
		return false;
	*out = st[sp - 1];
	return true;
}

/* ---- a step -------------------------------------------------------------- */

bool ct_cfi_move_to(struct ct_uw_mem *m, uintptr_t cfa)
{
	if (cfa < m->lo || cfa > m->hi) {
		uintptr_t lo, hi;
		if (!m->stack_of || !m->stack_of(m->ctx, cfa, &lo, &hi))
			return false;
		m->lo = lo;
		m->hi = hi;
	}
	return true;
}

bool ct_cfi_apply(const struct ct_cfi_rule *rule, struct ct_uw_regs *r, struct ct_uw_mem *m)
{
	if (!((r->known >> rule->cfa_reg) & 1))
		return false;
	uintptr_t cfa = r->r[rule->cfa_reg] + (uintptr_t)(intptr_t)rule->cfa_off;
	/* (a stack that goes down is no stack: a loop) */
	if (cfa <= r->r[CT_ARCH_UW_SP])
		return false;
	struct ct_uw_regs n = *r; /* the others: the same values */
	for (unsigned k = 0; k < rule->nsaved; k++) {
		unsigned i = rule->saved[k].reg;
		if (read_word(m, cfa + (uintptr_t)(intptr_t)rule->saved[k].off, &n.r[i]))
			n.known |= 1u << i;
		else
			n.known &= ~(1u << i);
	}
	if (!((n.known >> CT_ARCH_DWARF_RA) & 1))
		return false;
	n.r[CT_ARCH_UW_SP] = cfa;
	n.known |= 1u << CT_ARCH_UW_SP;
	if (!ct_cfi_move_to(m, cfa))
		return false;
	*r = n;
	return true;
}

/* the frame's rules as a ct_cfi_rule, if they fit one: the CFA a
 * register's value plus an offset, each register the same or saved at an
 * offset from the CFA, the return address saved; not a signal frame */
static bool simple_rule(const struct frame_state *s, const struct cie *c, struct ct_cfi_rule *rule)
{
	if (c->signal || s->cfa_expr || s->cfa_reg >= CT_ARCH_UW_NREGS ||
	    c->ra != CT_ARCH_DWARF_RA || s->reg[c->ra].how != R_OFFSET ||
	    s->cfa_off != (int32_t)s->cfa_off)
		return false;
	rule->cfa_reg = (uint8_t)s->cfa_reg;
	rule->cfa_off = (int32_t)s->cfa_off;
	rule->nsaved = 0;
	for (unsigned i = 0; i < CT_ARCH_UW_NREGS; i++) {
		if (s->reg[i].how == R_SAME)
			continue;
		if (s->reg[i].how != R_OFFSET || rule->nsaved >= CT_CFI_RULE_SAVED)
			return false;
		rule->saved[rule->nsaved].reg = (uint8_t)i;
		rule->saved[rule->nsaved].off = s->reg[i].off;
		rule->nsaved++;
	}
	return true;
}

bool ct_cfi_step(struct ct_uw_regs *r, const uint8_t *fde, uintptr_t start, bool exact,
		 struct ct_uw_mem *m, struct ct_cfi_rule *rule)
{
	if (rule)
		rule->nsaved = CT_CFI_NO_RULE;
	const uint8_t *body, *end;
	if (!entry_at(fde, &body, &end))
		return false;
	struct cie c;
	if (!parse_cie(body, &c))
		return false;
	uintptr_t pc = r->r[CT_ARCH_DWARF_RA];
	/* a return address is after its call: the call's own rules are the
	 * ones before it (a signal frame's CIE says its pc is exact) */
	uintptr_t at = exact || c.signal ? pc : pc - 1;
	struct runner run_st;
	memset(&run_st.st, 0, sizeof(run_st.st));
	for (unsigned i = 0; i < CT_ARCH_UW_NREGS; i++)
		run_st.st.reg[i].how = R_SAME;
	run_st.nsaved = 0;
	run_st.cie = &c;
	run_st.fde_enc = c.fde_enc;
	run_st.ex_base = fde;
	run_st.loc = start;
	if (!run(&run_st, c.insn, c.end, UINTPTR_MAX))
		return false;
	run_st.init = run_st.st;
	run_st.nsaved = 0;
	const uint8_t *p = body + 4;
	bool ok = true;
	ct_cfi_read_enc(&p, end, c.fde_enc, 0, &ok);
	ct_cfi_read_enc(&p, end, c.fde_enc & 0x0f, 0, &ok);
	if (c.aug_z && (!ok || !skip_block(&p, end)))
		return false;
	run_st.loc = start;
	if (!run(&run_st, p, end, at))
		return false;
	const struct frame_state *s = &run_st.st;
	/* the common case, as a rule the caller may keep and apply again */
	struct ct_cfi_rule own;
	if (simple_rule(s, &c, rule ? rule : &own))
		return ct_cfi_apply(rule ? rule : &own, r, m);
	if (rule)
		rule->nsaved = CT_CFI_NO_RULE;
	/* the CFA */
	uintptr_t cfa;
	if (s->cfa_expr) {
		if (!eval(s->cfa_expr, r, m, false, 0, &cfa))
			return false;
	} else {
		if (s->cfa_reg >= CT_ARCH_UW_NREGS || !(r->known & (1u << s->cfa_reg)))
			return false;
		cfa = r->r[s->cfa_reg] + (uintptr_t)s->cfa_off;
	}
	/* the caller's registers */
	struct ct_uw_regs n;
	n.known = 0;
	for (unsigned i = 0; i < CT_ARCH_UW_NREGS; i++) {
		const struct reg_rule *rr = &s->reg[i];
		uintptr_t v = 0;
		bool have = false;
		switch (rr->how) {
		case R_SAME:
			have = (r->known >> i) & 1;
			v = r->r[i];
			break;
		case R_UNDEF:
			break;
		case R_OFFSET:
			have = read_word(m, cfa + (uintptr_t)rr->off, &v);
			break;
		case R_VAL_OFFSET:
			v = cfa + (uintptr_t)rr->off;
			have = true;
			break;
		case R_REG:
			if ((uintptr_t)rr->off < CT_ARCH_UW_NREGS && ((r->known >> rr->off) & 1)) {
				v = r->r[rr->off];
				have = true;
			}
			break;
		case R_EXPR: {
			uintptr_t a;
			have = eval(fde + rr->off, r, m, true, cfa, &a) && read_word(m, a, &v);
			break;
		}
		case R_VAL_EXPR:
			have = eval(fde + rr->off, r, m, true, cfa, &v);
			break;
		}
		if (have) {
			n.r[i] = v;
			n.known |= 1u << i;
		}
	}
	/* the return address: the pc's rule is the RA column's */
	if (c.ra != CT_ARCH_DWARF_RA) {
		if (!((n.known >> c.ra) & 1))
			return false;
		n.r[CT_ARCH_DWARF_RA] = n.r[c.ra];
		n.known |= 1u << CT_ARCH_DWARF_RA;
	}
	if (!((n.known >> CT_ARCH_DWARF_RA) & 1) || s->reg[c.ra].how == R_SAME ||
	    s->reg[c.ra].how == R_UNDEF)
		return false; /* the outermost frame (or no rule for it) */
	/* the caller's stack pointer is the CFA; a stack that goes down is
	 * no stack (a loop) */
	if (cfa <= r->r[CT_ARCH_UW_SP] && !c.signal)
		return false;
	n.r[CT_ARCH_UW_SP] = cfa;
	n.known |= 1u << CT_ARCH_UW_SP;
	if (!ct_cfi_move_to(m, cfa))
		return false;
	*r = n;
	return true;
}

#endif
