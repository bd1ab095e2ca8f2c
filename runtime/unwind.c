/* SPDX-License-Identifier: MIT */
/*
 * The runtime's unwinder (unwind.h): the DWARF call frame information of
 * the loaded modules, read where the loader mapped it.
 *
 * The modules: a table sorted by address, each module's executable extent,
 * its .eh_frame_hdr (PT_GNU_EH_FRAME) and, for each of the header's
 * entries, the site of the function's entry hook once a hooked call of it
 * was counted (ct_unwind_note_site): what makes a frame a hooked call.
 * The table is made again when modules come and go (outside any signal
 * handler, under modules.c's lock) and published with one store; a table
 * replaced is unmapped when no step is reading one (steps_running), else
 * at a later refresh.  A site array moves on to the new table with its
 * module.
 *
 * A lookup: the frame description entry whose range holds the pc, by a
 * binary search in the header's sorted table (every linker writes it as
 * 4-byte offsets from the header); a step runs it (cfi.c).  A signal
 * frame is known by the code it returns to (arch.h), its context read
 * from the stack.
 */
#include <link.h>
#include <string.h>
#include <sys/mman.h>

#include "cfi.h"
#include "insn.h"
#include "unwind.h"

#ifdef CT_ARCH_UNWIND

/* ---- the module table ------------------------------------------------------ */

struct uw_module {
	uintptr_t lo, hi;   /* its executable segments' extent */
	const uint8_t *hdr; /* .eh_frame_hdr */
	const uint8_t *tab; /* its table: (start, fde) pairs, 4-byte offsets from hdr */
	size_t nfde;        /* its entries */
	uintptr_t *sites;   /* a site per entry (0: none known); mmap'd */
	size_t sites_len;
};

struct uw_table {
	size_t n, map_len;
	struct uw_module m[];
};

static struct uw_table *table;      /* the table the steps read */
static uint32_t table_gen;          /* its number: one more each time it is made */
static unsigned long steps_running; /* the lookups reading a table now */
static struct uw_table *retired[8]; /* replaced, unmapped when none reads */
static size_t nretired;


struct build {
	struct uw_table *t;
	size_t cap;
};

static int module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct build *b = data;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	const uint8_t *hdr = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			uintptr_t a = info->dlpi_addr + ph->p_vaddr;
			if (a < lo)
				lo = a;
			if (a + ph->p_memsz > hi)
				hi = a + ph->p_memsz;
		} else if (ph->p_type == PT_GNU_EH_FRAME) {
			hdr = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		}
	}
	/* version 1, a table of 4-byte offsets from the header (DW_EH_PE_datarel
	 * | DW_EH_PE_sdata4): what the steps search */
	if (!hdr || lo >= hi || hdr[0] != 1 || hdr[3] != 0x3b || b->t->n >= b->cap)
		return 0;
	const uint8_t *p = hdr + 4;
	bool ok = true;
	ct_cfi_read_enc(&p, p + 16, hdr[1], (uintptr_t)hdr, &ok);
	uintptr_t n = ct_cfi_read_enc(&p, p + 16, hdr[2], (uintptr_t)hdr, &ok);
	if (!ok || !n)
		return 0;
	struct uw_module *m = &b->t->m[b->t->n++];
	m->lo = lo;
	m->hi = hi;
	m->hdr = hdr;
	m->tab = p;
	m->nfde = n;
	m->sites = NULL;
	m->sites_len = 0;
	return 0;
}

static void sort_modules(struct uw_table *t)
{
	for (size_t i = 1; i < t->n; i++) {
		struct uw_module k = t->m[i];
		size_t j = i;
		for (; j > 0 && t->m[j - 1].lo > k.lo; j--)
			t->m[j] = t->m[j - 1];
		t->m[j] = k;
	}
}

static void unmap_table(struct uw_table *t)
{
	munmap(t, t->map_len);
}

void ct_unwind_refresh(void)
{
	/* (the modules' count bounds the table: counted first) */
	size_t cap = 64;
	struct uw_table *t;
	struct build b;
	for (;;) {
		size_t len = sizeof(*t) + cap * sizeof(t->m[0]);
		t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (t == MAP_FAILED)
			return; /* the old table stays */
		t->n = 0;
		t->map_len = len;
		b.t = t;
		b.cap = cap;
		dl_iterate_phdr(module_cb, &b);
		if (t->n < cap)
			break;
		unmap_table(t);
		cap *= 4;
	}
	sort_modules(t);
	struct uw_table *old = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	/* the sites noted move on with their modules; those of modules gone
	 * are unmapped with the table */
	for (size_t i = 0; i < t->n; i++) {
		for (size_t j = 0; old && j < old->n; j++)
			if (old->m[j].hdr == t->m[i].hdr && old->m[j].nfde == t->m[i].nfde &&
			    old->m[j].sites) {
				t->m[i].sites = old->m[j].sites;
				t->m[i].sites_len = old->m[j].sites_len;
				old->m[j].sites = NULL;
			}
		if (!t->m[i].sites) {
			size_t len = (t->m[i].nfde * sizeof(uintptr_t) + 4095) & ~(size_t)4095;
			void *s = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
			if (s != MAP_FAILED) {
				t->m[i].sites = s;
				t->m[i].sites_len = len;
			}
		}
	}
	__atomic_store_n(&table, t, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&table_gen, 1, __ATOMIC_SEQ_CST);
	if (!old)
		return;
	/* a step that began before the store may still read the old table (and
	 * the site arrays of modules gone): kept until none runs */
	if (nretired < sizeof(retired) / sizeof(retired[0]))
		retired[nretired++] = old;
	if (__atomic_load_n(&steps_running, __ATOMIC_SEQ_CST) == 0) {
		for (size_t k = 0; k < nretired; k++) {
			struct uw_table *r = retired[k];
			for (size_t j = 0; j < r->n; j++)
				if (r->m[j].sites)
					munmap(r->m[j].sites, r->m[j].sites_len);
			unmap_table(r);
		}
		nretired = 0;
	}
	/* (more than 8 replaced while steps ran: the oldest are left mapped) */
}

/* ---- finding a function ------------------------------------------------------ */

static const struct uw_module *module_of(const struct uw_table *t, uintptr_t pc)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pc < t->m[mid].lo)
			hi = mid;
		else if (pc >= t->m[mid].hi)
			lo = mid + 1;
		else
			return &t->m[mid];
	}
	return NULL;
}


static bool find_in(const struct uw_module *m, uintptr_t pc, struct ct_uw_func *f)
{
	uintptr_t hdr = (uintptr_t)m->hdr;
	size_t lo = 0, hi = m->nfde;
	/* the last entry starting at or before pc */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (hdr + (uintptr_t)(intptr_t)ct_cfi_s32(m->tab + mid * 8) <= pc)
			lo = mid;
		else
			hi = mid;
	}
	uintptr_t start = hdr + (uintptr_t)(intptr_t)ct_cfi_s32(m->tab + lo * 8);
	if (start > pc)
		return false;
	const uint8_t *fde =
		(const uint8_t *)(hdr + (uintptr_t)(intptr_t)ct_cfi_s32(m->tab + lo * 8 + 4));
	uintptr_t s, range;
	if (!ct_cfi_fde_range(fde, &s, &range) || pc - s >= range)
		return false;
	f->start = s;
	f->site = m->sites ? &m->sites[lo] : NULL;
	f->fde = fde;
	return true;
}

void ct_unwind_hold(void)
{
	__atomic_add_fetch(&steps_running, 1, __ATOMIC_SEQ_CST);
}

void ct_unwind_release(void)
{
	__atomic_sub_fetch(&steps_running, 1, __ATOMIC_SEQ_CST);
}

bool ct_unwind_find(uintptr_t pc, struct ct_uw_func *f)
{
	const struct uw_table *t = __atomic_load_n(&table, __ATOMIC_SEQ_CST);
	const struct uw_module *m = t ? module_of(t, pc) : NULL;
	return m && find_in(m, pc, f);
}

bool ct_unwind_callee(uintptr_t ret, struct ct_uw_func *f)
{
	const struct uw_table *t = __atomic_load_n(&table, __ATOMIC_SEQ_CST);
	const struct uw_module *m = t ? module_of(t, ret - 1) : NULL;
	/* (the call's 5 bytes before ret and the word ct_insn_call_at reads
	 * after them, inside the module's code) */
	if (!m || ret - m->lo < 5 || m->hi - ret < 1)
		return false;
	uintptr_t to;
	unsigned len;
	if (ct_insn_call_at(ret - 5, &to, &len) != CT_INSN_CALL_REL)
		return false;
	const struct uw_module *tm = module_of(t, to);
	return tm && find_in(tm, to, f) && f->start == to;
}

void ct_unwind_note_site(uintptr_t site)
{
	struct ct_uw_func f;
	ct_unwind_hold();
	/* (site: the hook's return address, inside the function) */
	if (ct_unwind_find(site - 1, &f) && f.site && *f.site != site)
		__atomic_store_n(f.site, site, __ATOMIC_RELAXED);
	ct_unwind_release();
}

bool ct_unwind_step(struct ct_uw_regs *r, const struct ct_uw_func *f, bool exact,
		    struct ct_uw_mem *m, struct ct_cfi_rule *rule)
{
	return ct_cfi_step(r, f->fde, f->start, exact, m, rule);
}

uint32_t ct_unwind_gen(void)
{
	return __atomic_load_n(&table_gen, __ATOMIC_SEQ_CST);
}

bool ct_unwind_sigframe(struct ct_uw_regs *r, struct ct_uw_mem *m)
{
	uintptr_t pc = r->r[CT_ARCH_DWARF_RA];
	/* (its code read only inside a module: pc may be any word) */
	const struct uw_table *t = __atomic_load_n(&table, __ATOMIC_SEQ_CST);
	const struct uw_module *mod = t ? module_of(t, pc) : NULL;
	if (!mod || mod->hi - pc < CT_ARCH_UW_SIGRETURN_LEN || !ct_arch_uw_is_sigreturn(pc))
		return false;
	uintptr_t sp = r->r[CT_ARCH_UW_SP];
	struct ct_uw_regs n;
	if (!ct_arch_uw_sigcontext(sp, n.r, m->lo, m->hi))
		return false;
	n.known = (1u << CT_ARCH_UW_NREGS) - 1;
	if (!ct_cfi_move_to(m, n.r[CT_ARCH_UW_SP]))
		return false;
	*r = n;
	return true;
}

#endif
