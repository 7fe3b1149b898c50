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

double bw_interval(void)
{
	unsigned long long ms;

	return read_value("", "bandwidth_interval_ms", &ms) ? 1 : ms / 1000.0;
}

int bw_read(struct bw_reading *r)
{
	static const char *const file[2] = { "read_bytes", "write_bytes" };
	char dir[300];
	struct dirent *e;
	DIR *d = opendir(HTMM_SYSFS "/bandwidth");
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

void bw_print(const struct bw_reading *cur, const struct bw_reading *prev,
	      double dt)
{
	int i, j, k;

	if (cur->err)
		printf("\nbandwidth: cannot read: %s\n", strerror(cur->err));
	if (!cur->n)
		return;
	printf("\n%-8s %12s %12s %14s %14s\n", "node", "read MiB/s", "write MiB/s",
	       "read MiB", "written MiB");
	for (i = 0; i < cur->n; i++) {
		printf("node%-4d", cur->node[i]);
		for (j = 0; prev && j < prev->n && prev->node[j] != cur->node[i]; j++)
			;
		for (k = 0; k < 2; k++) {
			if (prev && j < prev->n && dt > 0)
				/* Unsigned: a count that wrapped still differs right. */
				printf(" %12.1f", (cur->bytes[i][k] - prev->bytes[j][k]) / dt / (1 << 20));
			else
				printf(" %12s", "-");
		}
		printf(" %14.1f %14.1f\n", cur->bytes[i][0] / (double)(1 << 20),
		       cur->bytes[i][1] / (double)(1 << 20));
	}
}
