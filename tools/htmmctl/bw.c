// SPDX-License-Identifier: GPL-2.0
/*
 * bw.c - memory bandwidth per node for htmmctl stat, from htmm's
 * bandwidth/node<N>/read_bytes and write_bytes, cumulative 64-bit
 * counts: rates are differences over the time between two readings.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "htmm.h"
#include "bw.h"
#include "htmmctl.h"
#include "stat.h"

#define MIB	(1024.0 * 1024.0)

double bw_interval(void)
{
	unsigned long long ms;

	return read_value("", "bandwidth_interval_ms", &ms) ? 1 : ms / 1000.0;
}

int bw_read(struct bw_reading *r)
{
	static const char *const file[2] = { "read_bytes", "write_bytes" };
	char dir[300], path[512];
	struct dirent *e;
	DIR *d = opendir(path_of(path, sizeof(path), HTMM_SYSFS "/bandwidth"));
	int node, k, err;

	r->n = 0;
	r->err = 0;
	if (!d)
		return 0;
	while ((e = readdir(d)) && r->n < BW_MAX_NODES) {
		if (sscanf(e->d_name, "node%d", &node) != 1)
			continue;
		snprintf(dir, sizeof(dir), "/bandwidth/%s", e->d_name);
		for (k = 0, err = 0; k < 2 && !err; k++)
			err = read_value(dir, file[k], &r->bytes[r->n][k]);
		if (err) {
			r->err = -err;
			continue;
		}
		r->node[r->n++] = node;
	}
	closedir(d);
	return r->n;
}

/* Node @i of @cur in @prev, or -1. */
static int same_node(const struct bw_reading *cur, int i,
		     const struct bw_reading *prev)
{
	int j;

	for (j = 0; prev && j < prev->n; j++)
		if (prev->node[j] == cur->node[i])
			return j;
	return -1;
}

/* MiB/s of direction @k of node @i; negative if there is no rate. */
static double rate(const struct bw_reading *cur, int i,
		   const struct bw_reading *prev, int k, double dt)
{
	int j = same_node(cur, i, prev);

	if (j < 0 || dt <= 0)
		return -1;
	/* Unsigned: a count that wrapped still differs right. */
	return (cur->bytes[i][k] - prev->bytes[j][k]) / dt / MIB;
}

static void bw_print(const struct bw_reading *cur,
		     const struct bw_reading *prev, double dt)
{
	double v;
	int i, k;

	printf("\n%-8s %12s %12s %14s %14s\n", "node", "read MiB/s", "write MiB/s",
	       "read MiB", "written MiB");
	for (i = 0; i < cur->n; i++) {
		printf("node%-4d", cur->node[i]);
		for (k = 0; k < 2; k++) {
			v = rate(cur, i, prev, k, dt);
			if (v >= 0)
				printf(" %12.1f", v);
			else
				printf(" %12s", "-");
		}
		printf(" %14.1f %14.1f\n", cur->bytes[i][0] / MIB,
		       cur->bytes[i][1] / MIB);
	}
}

static void bw_rows(struct out *o, const struct bw_reading *cur,
		    const struct bw_reading *prev, double dt, double t)
{
	static const char *const names[2][2] = {
		{ "read_bytes", "write_bytes" }, { "read_MiBps", "write_MiBps" },
	};
	char session[32];
	struct row r;
	double v;
	int i, k;

	for (i = 0; i < cur->n; i++) {
		snprintf(session, sizeof(session), "bandwidth/node%d", cur->node[i]);
		row_init(&r);
		for (k = 0; k < 2; k++)
			row_uint(&r, names[0][k], cur->bytes[i][k]);
		for (k = 0; k < 2; k++) {
			v = rate(cur, i, prev, k, dt);
			if (v >= 0)
				row_real(&r, names[1][k], v, 1);
			else
				row_null(&r, names[1][k]);
		}
		values_out(o, session, &r, t);
	}
}

void bw_show(struct out *o, const struct bw_reading *cur,
	     const struct bw_reading *prev, double dt, double t)
{
	if (cur->err)
		fprintf(stderr, "htmmctl: bandwidth: cannot read: %s\n",
			strerror(cur->err));
	if (!cur->n)
		return;
	if (o->kind == OUT_HUMAN)
		bw_print(cur, prev, dt);
	else
		bw_rows(o, cur, prev, dt, t);
}
