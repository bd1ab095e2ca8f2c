/* SPDX-License-Identifier: MIT */
/*
 * Colour in the views' output (--color=auto|always|never): auto colours
 * when stdout is a terminal (or a pager reads it), unless NO_COLOR is set
 * and not empty (https://no-color.org) or TERM is "dumb".
 */
#ifndef CT_COLOR_H
#define CT_COLOR_H

#include <stdbool.h>
#include <stdint.h>

enum ct_color_when {
	CT_COLOR_AUTO,
	CT_COLOR_ALWAYS,
	CT_COLOR_NEVER,
};

/* the value a --color argument names, or -1 */
int ct_color_when_of(const char *arg);

/* colour or not, for when; tty: stdout is a terminal or a pager's input */
bool ct_color_on(enum ct_color_when when, bool tty);

#define CT_COLOR_RESET "\033[0m"

/* the colour of a duration (ns): bold red from 100 ms, red from 10 ms,
 * yellow from 1 ms, else NULL (none) */
const char *ct_color_duration(uint64_t ns);

#endif
