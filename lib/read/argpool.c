/* SPDX-License-Identifier: MIT */
/*
 * The store of a stream's decoded arguments (lib/read/argpool.h).
 */
#include "argpool.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct ct_callargs *ct_args_new(uint32_t spec, const uint32_t *w, uint32_t n)
{
	struct ct_callargs *a = xcalloc(1, sizeof(*a) + n * sizeof(uint32_t));
	uint32_t *d = (uint32_t *)(a + 1);
	a->spec = spec;
	if (w) {
		memcpy(d, w, n * sizeof(uint32_t));
		a->has_args = true;
		a->args = d;
		a->nargs = n;
	}
	return a;
}

void ct_args_set_ret(struct ct_callargs *a, const uint32_t *w, uint32_t n)
{
	uint32_t *d = xmalloc((n ? n : 1) * sizeof(uint32_t));
	memcpy(d, w, n * sizeof(uint32_t));
	free((void *)a->ret);
	a->ret = d;
	a->nret = n;
	a->has_ret = true;
}

void ct_args_release(struct ct_callargs *a)
{
	if (!a)
		return;
	free((void *)a->ret);
	free(a);
}

void ct_args_retire(struct ct_args_pool *p, struct ct_callargs *a)
{
	if (p->n == p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 256;
		struct ct_callargs **q = xmalloc(nc * sizeof(*q));
		uint64_t *qr = xmalloc(nc * sizeof(*qr)), *qe = xmalloc(nc * sizeof(*qe));
		for (size_t i = 0; i < p->n; i++) {
			size_t j = (p->head + i) % (p->cap ? p->cap : 1);
			q[i] = p->q[j];
			qr[i] = p->q_read[j];
			qe[i] = p->q_event[j];
		}
		free(p->q);
		free(p->q_read);
		free(p->q_event);
		p->q = q;
		p->q_read = qr;
		p->q_event = qe;
		p->head = 0;
		p->cap = nc;
	}
	size_t j = (p->head + p->n) % p->cap;
	p->q[j] = a;
	p->q_read[j] = p->reads;
	p->q_event[j] = p->events;
	p->n++;
}

/* a read of the stream begins: free what is old enough */
void ct_args_tick(struct ct_args_pool *p, uint64_t events)
{
	p->reads++;
	p->events += events;
	while (p->n && p->q_read[p->head] + CT_ARGS_KEEP_READS <= p->reads &&
	       p->q_event[p->head] + CT_ARGS_KEEP_EVENTS <= p->events) {
		ct_args_release(p->q[p->head]);
		p->head = (p->head + 1) % p->cap;
		p->n--;
	}
}

void ct_args_pool_free(struct ct_args_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		ct_args_release(p->q[(p->head + i) % p->cap]);
	free(p->q);
	free(p->q_read);
	free(p->q_event);
	memset(p, 0, sizeof(*p));
}
