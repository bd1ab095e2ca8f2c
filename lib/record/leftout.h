/* SPDX-License-Identifier: MIT */
/*
 * record's warning, at the end, about threads that started in a function
 * -N leaves out and so recorded nothing (leftout.c).
 */
#ifndef CT_LEFTOUT_H
#define CT_LEFTOUT_H

#include "error.h"

/* the start routines the .proc files of the recording DIR note
 * ("thread-left-out ADDR"), named, as warnings into warn */
void ct_leftout_warn(const char *dir, struct ct_msgs *warn);

#endif
