// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - the one output layer of htmmctl's -x SEP and -j: every command
 * that prints a table builds rows of typed fields and prints them here,
 * so that a value is written one way everywhere. A number is a JSON
 * number, anything else a JSON string, a missing value null (-x: an
 * empty field); -x quotes a field that holds SEP, a quote or a newline
 * as CSV does (RFC 4180).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "htmmctl.h"

void row_init(struct row *r)
{
	r->n = 0;
}

static struct field *add(struct row *r, const char *name, enum val_type type)
{
	struct field *f;

	if (r->n >= OUT_MAX_FIELDS) {
		fprintf(stderr, "htmmctl: internal error: a row of more than %d fields\n",
			OUT_MAX_FIELDS);
		exit(1);
	}
	f = &r->f[r->n++];
	f->name = name;
	f->type = type;
	f->s[0] = '\0';
	return f;
}

void row_int(struct row *r, const char *name, long long v)
{
	add(r, name, V_INT)->i = v;
}

void row_uint(struct row *r, const char *name, unsigned long long v)
{
	add(r, name, V_UINT)->u = v;
}

void row_real(struct row *r, const char *name, double v, int prec)
{
	struct field *f = add(r, name, isfinite(v) ? V_REAL : V_NULL);

	f->d = v;
	f->prec = prec;
}

void row_str(struct row *r, const char *name, const char *s)
{
	snprintf(add(r, name, V_STR)->s, OUT_VALUE_LEN, "%s", s);
}

void row_null(struct row *r, const char *name)
{
	add(r, name, V_NULL);
}

/* Only decimal digits, with a '-' in front at most: no hex, no "1 2". */
static bool is_integer(const char *s)
{
	if (*s == '-')
		s++;
	return *s && strspn(s, "0123456789") == strlen(s);
}

void row_text(struct row *r, const char *name, const char *text)
{
	char buf[OUT_VALUE_LEN];

	snprintf(buf, sizeof(buf), "%s", text);
	buf[strcspn(buf, "\n")] = '\0';
	if (!is_integer(buf))
		row_str(r, name, buf);
	else if (buf[0] == '-')
		row_int(r, name, strtoll(buf, NULL, 10));
	else
		row_uint(r, name, strtoull(buf, NULL, 10));
}

const struct field *row_get(const struct row *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].name, name))
			return &r->f[i];
	return NULL;
}

static FILE *out_file(const struct out *o)
{
	return o->f ? o->f : stdout;
}

/* A number as both formats write it; false if @f is not one. */
static bool number(const struct field *f, char *buf, size_t len)
{
	switch (f->type) {
	case V_INT:
		snprintf(buf, len, "%lld", f->i);
		return true;
	case V_UINT:
		snprintf(buf, len, "%llu", f->u);
		return true;
	case V_REAL:
		snprintf(buf, len, "%.*f", f->prec, f->d);
		return true;
	default:
		return false;
	}
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void sep_string(FILE *out, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void out_header(struct out *o, const struct row *r)
{
	FILE *out = out_file(o);
	int i;

	if (o->kind != OUT_SEP || o->header_done)
		return;
	for (i = 0; i < r->n; i++) {
		if (i)
			fputs(o->sep, out);
		sep_string(out, r->f[i].name, o->sep);
	}
	fputc('\n', out);
	o->header_done = true;
}

void out_row(struct out *o, const struct row *r)
{
	FILE *out = out_file(o);
	char num[64];
	int i;

	out_header(o, r);
	for (i = 0; i < r->n; i++) {
		const struct field *f = &r->f[i];

		if (o->kind == OUT_JSON) {
			fputs(i ? "," : "{", out);
			json_string(out, f->name);
			fputc(':', out);
		} else if (i) {
			fputs(o->sep, out);
		}
		if (number(f, num, sizeof(num)))
			fputs(num, out);
		else if (f->type == V_NULL)
			fputs(o->kind == OUT_JSON ? "null" : "", out);
		else if (o->kind == OUT_JSON)
			json_string(out, f->s);
		else
			sep_string(out, f->s, o->sep);
	}
	fputs(o->kind == OUT_JSON ? (r->n ? "}\n" : "{}\n") : "\n", out);
}

void row_copy(struct row *r, const char *name, const struct field *from)
{
	struct field *f = add(r, name, from->type);
	const char *keep = f->name;

	*f = *from;
	f->name = keep;
}
