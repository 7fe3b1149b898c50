/* SPDX-License-Identifier: GPL-2.0 */
/*
 * heat.h - htmmctl's view of a session's per-page hotness: the hottest
 * pages, and a heatmap of accesses over time and address.
 */
#ifndef HTMMCTL_HEAT_H
#define HTMMCTL_HEAT_H

#include <stdio.h>
#include <sys/types.h>

/* Where htmm lists a session's pages (root only). */
#define HTMM_DEBUGFS	"/sys/kernel/debug/htmm"

struct heatmap;

/* Print the @n hottest pages of @pid's session; 0, or 1 on failure. */
int heat_hot(pid_t pid, long n);

struct heatmap *heatmap_new(pid_t pid);
/* Take a snapshot of the session's pages at @t seconds; -errno. */
int heatmap_snap(struct heatmap *h, double t);
/*
 * Draw the snapshots as ASCII (time down, address across, @width
 * columns in all) on @out and write them as TSV to @tsv (NULL: none);
 * 0, or -errno if the TSV could not be written.
 */
int heatmap_report(struct heatmap *h, FILE *out, int width, const char *tsv);
void heatmap_free(struct heatmap *h);

/* The terminal's width, else $COLUMNS, else 80. */
int terminal_width(void);

#endif
