/* SPDX-License-Identifier: GPL-2.0 */
/*
 * heat.h - htmmctl's view of a session's per-page hotness: the hottest
 * pages, snapshots of them over time (recorded live or read back from a
 * record file), and reports of those: a heatmap, a hot list, placement.
 */
#ifndef HTMMCTL_HEAT_H
#define HTMMCTL_HEAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "htmmctl.h"

/* The first line of a record file; the number is the format's version. */
#define HTMM_RECORD_MAGIC	"# htmm-record 1"

struct heatmap;

/* Print the @n hottest pages of @pid's session now; 0, or 1 on failure. */
int heat_hot(pid_t pid, long n, struct out *o);
/* Say why @pid's pages could not be read (-errno @err). */
void read_pages_failed(pid_t pid, int err);

/* Snapshots of @pid's session, kept in memory. */
struct heatmap *heatmap_new(pid_t pid);
/*
 * Also write each snapshot to @f, a record file, from now on; with
 * @keep false, only there. Writes the file's header; -errno.
 */
int heatmap_record_to(struct heatmap *h, FILE *f, bool keep);
/* Take a snapshot of the session's pages at @t seconds; -errno. */
int heatmap_snap(struct heatmap *h, double t);
/*
 * Read a record file back; NULL with *err set (-errno, or -EINVAL for a
 * file that is not one, with the line number in *line).
 */
struct heatmap *heatmap_load(const char *path, int *err, long *line);
size_t heatmap_nr_snaps(const struct heatmap *h);
void heatmap_free(struct heatmap *h);

/*
 * Heatmap of the snapshots: time down in rows of @bin seconds (0: one
 * per snapshot), address across in @width - 10 ranges. As ASCII on @out
 * (o->kind OUT_HUMAN) or as rows (-x, -j); the rows also to @tsv as TSV
 * (NULL: none). 0, or -errno if the TSV could not be written.
 */
int heatmap_report(struct heatmap *h, FILE *out, int width, double bin,
		   const char *tsv, struct out *o);
/* The @n hottest pages of the last snapshot taken at or before @at. */
int heatmap_hot(struct heatmap *h, long n, double at, struct out *o);
/* Per snapshot: MiB and share of the accesses on each node; @tsv too. */
int heatmap_placement(struct heatmap *h, const char *tsv, struct out *o);

/* The terminal's width, else $COLUMNS, else 80. */
int terminal_width(void);

#endif
