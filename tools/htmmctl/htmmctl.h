/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htmmctl.h - what htmmctl's files give each other: where the files are
 * (sys.c), the one output layer of -x and -j (out.c).
 */
#ifndef HTMMCTL_H
#define HTMMCTL_H

#include <stdbool.h>
#include <stdio.h>

/* Where htmm lists a session's pages (root only), under the root. */
#define HTMM_DEBUGFS	"/sys/kernel/debug/htmm"

/* sys.c */

/*
 * @fmt's path under $HTMM_ROOT (a testing aid: a directory that holds
 * a fake sys/ and proc/; unset or empty: /), in @buf.
 */
char *path_of(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A value under HTMM_SYSFS@dir; 0, or -errno. */
int read_value(const char *dir, const char *name, unsigned long long *v);
/* The text of file @path (already under the root), NUL-ended; -errno. */
int read_text(const char *path, char *buf, size_t len);
/* Has this kernel htmm? If not, say so, the one way htmmctl says it. */
bool htmm_here(void);
void say_no_htmm(void);
/* Is @node a node with memory (has_memory)? 0, or 1 after saying why. */
int check_node(int node, const char *cmd);
/* Seconds on CLOCK_MONOTONIC; sleep @s seconds, signals or not. */
double now(void);
void sleep_for(double s);

/* out.c: how rows are printed, for people or for programs (-x, -j). */
enum out_kind { OUT_HUMAN, OUT_SEP, OUT_JSON };
struct out {
	enum out_kind kind;
	const char *sep;	/* OUT_SEP's separator */
	FILE *f;		/* where; NULL: stdout */
	bool header_done;
};

#define OUT_VALUE_LEN	256
#define OUT_MAX_FIELDS	80

enum val_type { V_NULL, V_INT, V_UINT, V_REAL, V_STR };
struct field {
	const char *name;
	enum val_type type;
	int prec;		/* V_REAL: decimals */
	long long i;
	unsigned long long u;
	double d;
	char s[OUT_VALUE_LEN];
};
struct row {
	int n;
	struct field f[OUT_MAX_FIELDS];
};

void row_init(struct row *r);
void row_int(struct row *r, const char *name, long long v);
void row_uint(struct row *r, const char *name, unsigned long long v);
void row_real(struct row *r, const char *name, double v, int prec);
void row_str(struct row *r, const char *name, const char *s);
void row_null(struct row *r, const char *name);
/* A sysfs file's text: a decimal integer is a number, else a string. */
void row_text(struct row *r, const char *name, const char *text);
/* A copy of field @from, named @name. */
void row_copy(struct row *r, const char *name, const struct field *from);
/* The field @name of @r, or NULL. */
const struct field *row_get(const struct row *r, const char *name);

/*
 * Print @r: -x, a line of its values separated by o->sep (after a
 * header of its names, before the first row); -j, a JSON object with
 * its fields in order. Null is an empty field, or JSON null.
 */
void out_row(struct out *o, const struct row *r);
/* -x: the header alone, for a table that has no row. */
void out_header(struct out *o, const struct row *r);

#endif
