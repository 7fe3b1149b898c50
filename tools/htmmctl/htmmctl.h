/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htmmctl.h - what htmmctl.c gives its other files.
 */
#ifndef HTMMCTL_H
#define HTMMCTL_H

#include <stdio.h>

/* A value under HTMM_SYSFS@dir; 0, or -errno. */
int read_value(const char *dir, const char *name, unsigned long long *v);

/* How rows are printed: a table for people, or for programs (-x, -j). */
enum out_kind { OUT_HUMAN, OUT_SEP, OUT_JSON };
struct out {
	enum out_kind kind;
	const char *sep;	/* OUT_SEP's separator */
};

#define OUT_VALUE_LEN	40

/* OUT_SEP: the column names, once, before the first row. */
void out_header(FILE *f, const struct out *o, int n, const char *const *names);
/*
 * One row of @n values: @sep-separated, or a JSON object of name: value,
 * a number where the value is one, else a string.
 */
void out_row(FILE *f, const struct out *o, int n, const char *const *names,
	     char (*vals)[OUT_VALUE_LEN]);

#endif
