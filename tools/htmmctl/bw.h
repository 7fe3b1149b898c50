/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bw.h - htmmctl's view of the memory bandwidth htmm counts per node
 * (/sys/kernel/mm/htmm/bandwidth/).
 */
#ifndef HTMMCTL_BW_H
#define HTMMCTL_BW_H

#include "htmmctl.h"

#define BW_MAX_NODES	64

/* Bytes each node with a counter has read and written so far. */
struct bw_reading {
	int n;
	int err;			/* errno of a node that could not be read */
	int node[BW_MAX_NODES];
	unsigned long long bytes[BW_MAX_NODES][2];
};

/* Read every bandwidth/node<N>; the number of nodes, 0 if off or none. */
int bw_read(struct bw_reading *r);
/* Seconds between two readings of the counters by ksamplingd. */
double bw_interval(void);
/*
 * MiB/s per node between @prev (NULL: none) and @cur, @dt seconds apart:
 * a table, or (-x, -j) a row per node at @t, as session "bandwidth/nodeN".
 */
void bw_show(struct out *o, const struct bw_reading *cur,
	     const struct bw_reading *prev, double dt, double t);

#endif
