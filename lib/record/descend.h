/* SPDX-License-Identifier: MIT */
/*
 * The processes still running when `record` stops draining (after ^C, once
 * the program ended): those whose later calls will not be recorded.  They
 * are record's descendants (it is their subreaper: each one's chain of
 * parents leads to it), zombies not counted.
 */
#ifndef CT_DESCEND_H
#define CT_DESCEND_H

#include <stddef.h>

#include "datadir.h"

/* *out gets them (malloc'd, NULL for none); returns how many */
size_t ct_running_descendants(struct ct_running **out);

#endif
