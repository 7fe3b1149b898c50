// SPDX-License-Identifier: GPL-2.0
/*
 * heat.c - htmmctl hot and heatmap: a session's per-page access counts,
 * read from <debugfs>/htmm/<pid>/pages, one line per tracked page:
 * "0x<vaddr> <count> <bin> <nid> <nr_pages>".
 *
 * The heatmap's columns are address ranges that each hold an equal share
 * of the pages tracked in any snapshot, so that a sparse address space
 * (heap, mappings, stack far apart) still fills the terminal. Ranges are
 * therefore of unequal size; the TSV gives each one's bounds. A cell is
 * the sum of the access counts of the range's pages at that time: counts
 * that htmm cools (halves) every cooling_ms, so a cell is a recent access
 * rate, not a running total.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "htmm.h"
#include "heat.h"
#include "htmmctl.h"

struct page_rec {
	unsigned long addr;
	unsigned int count;
	int nid;
	unsigned int bin;
	unsigned int pages;
};

struct snap {
	double t;
	size_t n;
	struct page_rec *r;
};

struct heatmap {
	pid_t pid;
	size_t nr_snaps;
	struct snap *snaps;
};

/* All records of @pid's session, in address order; -errno on failure. */
static int read_pages(pid_t pid, struct page_rec **out, size_t *nr)
{
	struct page_rec *r = NULL, *bigger;
	size_t n = 0, cap = 0;
	unsigned long addr, count, pages;
	unsigned int bin;
	char path[64];
	int nid, err;
	FILE *f;

	snprintf(path, sizeof(path), HTMM_DEBUGFS "/%d/pages", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%lx %lu %u %d %lu", &addr, &count, &bin, &nid, &pages) == 5) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			bigger = realloc(r, cap * sizeof(*r));
			if (!bigger) {
				fclose(f);
				free(r);
				return -ENOMEM;
			}
			r = bigger;
		}
		r[n++] = (struct page_rec){ addr, count, nid, bin, pages };
	}
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (err) {
		free(r);
		return err;
	}
	*out = r;
	*nr = n;
	return 0;
}

static void read_pages_failed(pid_t pid, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "htmmctl: no %s/%d/pages: no session for pid %d, a kernel without CONFIG_DEBUG_FS, or debugfs not mounted (mount -t debugfs none /sys/kernel/debug)\n",
			HTMM_DEBUGFS, pid, pid);
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "htmmctl: %s is root's only\n", HTMM_DEBUGFS);
	else
		fprintf(stderr, "htmmctl: cannot read %s/%d/pages: %s\n",
			HTMM_DEBUGFS, pid, strerror(-err));
}

/* A value of @pid's session (read_value()), or -1. */
static long long session_value(pid_t pid, const char *name)
{
	unsigned long long v;
	char dir[32];

	snprintf(dir, sizeof(dir), "/sessions/%d", pid);
	return read_value(dir, name, &v) ? -1 : (long long)v;
}

/* Hottest first; equal counts in address order. */
static int hotter(const void *a, const void *b)
{
	const struct page_rec *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

int heat_hot(pid_t pid, long n)
{
	struct page_rec *r;
	size_t nr, i;
	int err;

	err = read_pages(pid, &r, &nr);
	if (err) {
		read_pages_failed(pid, err);
		return 1;
	}
	qsort(r, nr, sizeof(*r), hotter);
	printf("pid %d: %zu pages tracked, hot threshold bin %lld, %lld hot pages\n",
	       pid, nr, session_value(pid, "hot_threshold"),
	       session_value(pid, "nr_hot_pages"));
	printf("%5s  %-18s %6s %4s %5s %6s\n", "rank", "address", "count", "bin",
	       "node", "pages");
	for (i = 0; i < nr && i < (size_t)n; i++)
		printf("%5zu  0x%016lx %6u %4u %5d %6u\n", i + 1, r[i].addr,
		       r[i].count, r[i].bin, r[i].nid, r[i].pages);
	free(r);
	return 0;
}

struct heatmap *heatmap_new(pid_t pid)
{
	struct heatmap *h = calloc(1, sizeof(*h));

	if (h)
		h->pid = pid;
	return h;
}

int heatmap_snap(struct heatmap *h, double t)
{
	struct snap *bigger;
	struct page_rec *r;
	size_t nr;
	int err;

	err = read_pages(h->pid, &r, &nr);
	if (err)
		return err;
	bigger = realloc(h->snaps, (h->nr_snaps + 1) * sizeof(*bigger));
	if (!bigger) {
		free(r);
		return -ENOMEM;
	}
	h->snaps = bigger;
	h->snaps[h->nr_snaps++] = (struct snap){ t, nr, r };
	return 0;
}

void heatmap_free(struct heatmap *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr_snaps; i++)
		free(h->snaps[i].r);
	free(h->snaps);
	free(h);
}

int terminal_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	if (c && atoi(c) >= 20)
		return atoi(c);
	return 80;
}

static int by_addr(const void *a, const void *b)
{
	const struct page_rec *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* One address range of the heatmap. */
struct column {
	unsigned long start, end;	/* [start, end) */
	unsigned long pages;
};

/*
 * The distinct records of every snapshot, in address order, each with
 * the column it falls in. Returns the number of distinct records.
 */
static size_t distinct_records(struct heatmap *h, struct page_rec **out)
{
	struct page_rec *all;
	size_t total = 0, i, k = 0;

	for (i = 0; i < h->nr_snaps; i++)
		total += h->snaps[i].n;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < h->nr_snaps; i++) {
		memcpy(all + k, h->snaps[i].r, h->snaps[i].n * sizeof(*all));
		k += h->snaps[i].n;
	}
	qsort(all, total, sizeof(*all), by_addr);
	for (i = 0, k = 0; i < total; i++) {
		if (k && all[k - 1].addr == all[i].addr)
			continue;
		all[k++] = all[i];
	}
	*out = all;
	return k;
}

/* Which of @cols columns (by address) holds @addr: binary search. */
static int column_of(const struct column *col, int cols, unsigned long addr)
{
	int lo = 0, hi = cols - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (col[mid].start <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static const char ramp[] = " .:-=+*#%@";

int heatmap_report(struct heatmap *h, FILE *out, int width, const char *tsv)
{
	unsigned long long *cell, max = 0, weight = 0, seen = 0;
	struct page_rec *u = NULL;
	struct column *col;
	size_t nu, i, j;
	int cols, c, err = 0;
	FILE *t = NULL;

	nu = h->nr_snaps ? distinct_records(h, &u) : 0;
	if (!nu) {
		fprintf(out, "heatmap: no pages were tracked\n");
		free(u);
		return 0;
	}
	cols = width - 10;
	if (cols < 10)
		cols = 10;
	if ((size_t)cols > nu)
		cols = nu;
	for (i = 0; i < nu; i++)
		weight += u[i].pages;
	col = calloc(cols, sizeof(*col));
	cell = calloc((size_t)cols * h->nr_snaps, sizeof(*cell));
	if (!col || !cell) {
		err = -ENOMEM;
		goto out;
	}
	/* Equal shares of the pages: column c starts at share c/cols. */
	for (i = 0, c = -1; i < nu; i++) {
		int want = seen * cols / weight;

		if (want > c) {
			c = want;
			col[c].start = u[i].addr;
		}
		col[c].pages += u[i].pages;
		col[c].end = u[i].addr + u[i].pages * (unsigned long)getpagesize();
		seen += u[i].pages;
	}
	cols = c + 1;
	for (j = 0; j < h->nr_snaps; j++) {
		for (i = 0; i < h->snaps[j].n; i++) {
			const struct page_rec *r = &h->snaps[j].r[i];
			unsigned long long *v = &cell[j * cols + column_of(col, cols, r->addr)];

			*v += r->count;
			if (*v > max)
				max = *v;
		}
	}

	fprintf(out, "heatmap of pid %d: time down, address across in %d ranges of %llu tracked pages each\n",
		h->pid, cols, (weight + cols - 1) / cols);
	fprintf(out, "(0x%lx .. 0x%lx; ranges skip untracked addresses), shade = accesses in a range,\n",
		col[0].start, col[cols - 1].end);
	fprintf(out, "log scale '%s' (blank: none, '@': %llu)\n", ramp, max);
	for (j = 0; j < h->nr_snaps; j++) {
		fprintf(out, "%7.1fs |", h->snaps[j].t);
		for (c = 0; c < cols; c++) {
			unsigned long long v = cell[j * cols + c];
			int lvl = 0;

			if (v)
				lvl = 1 + (int)(8.999 * log1p(v) / log1p(max));
			fputc(ramp[lvl], out);
		}
		fputs("|\n", out);
	}

	if (!tsv)
		goto out;
	t = fopen(tsv, "w");
	if (!t) {
		err = -errno;
		goto out;
	}
	fprintf(t, "# htmm heatmap of pid %d: %zu snapshots x %d address ranges\n",
		h->pid, h->nr_snaps, cols);
	fprintf(t, "# accesses: sum of the cooled access counts of the range's tracked pages\n");
	fprintf(t, "snap\ttime_s\trange\taddr_start\taddr_end\tpages\taccesses\n");
	for (j = 0; j < h->nr_snaps; j++)
		for (c = 0; c < cols; c++)
			fprintf(t, "%zu\t%.2f\t%d\t0x%lx\t0x%lx\t%lu\t%llu\n", j,
				h->snaps[j].t, c, col[c].start, col[c].end,
				col[c].pages, cell[j * cols + c]);
	if (fclose(t))
		err = -errno;
out:
	free(cell);
	free(col);
	free(u);
	return err;
}
