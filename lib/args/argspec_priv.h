/* SPDX-License-Identifier: MIT */
/*
 * What lib/args/argspec.c (the -A/-R spec language) shares with argtab.c
 * (the table of specs and the args.spec file).
 */
#ifndef CT_ARGSPEC_PRIV_H
#define CT_ARGSPEC_PRIV_H

#include <stddef.h>

#include "argspec.h"

/* it appended to the items *v (*n of them, grown by one) */
void ct_aspec_push_item(struct ct_aitem **v, size_t *n, const struct ct_aitem *it);

#endif
