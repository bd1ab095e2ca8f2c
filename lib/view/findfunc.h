/* SPDX-License-Identifier: MIT */
/*
 * The function a user names on the command line (`graph FUNC`, `callers
 * FUNC`), among the names of a recording: the name as shown
 * (`ns::Cls::method(int)`), the name without its parameters
 * (`ns::Cls::method`), the plain name (`method`), or a POSIX extended
 * regex.  When nothing matches, the closest names are suggested; when
 * several do, they are listed.
 */
#ifndef CT_FINDFUNC_H
#define CT_FINDFUNC_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "util.h"

/* the id in t of the one function query names (ok(ctx, id), when given,
 * says which ids count: those with calls); -1 with a message in err */
int64_t ct_find_function(const struct ct_names *t, const char *query,
			 bool (*ok)(void *ctx, uint32_t id), void *ctx, struct ct_error *err);

#endif
