// SPDX-License-Identifier: GPL-2.0
/*
 * heat.c - htmmctl hot, heatmap, record and report: a session's per-page
 * access counts, read from <debugfs>/htmm/<pid>/pages, one line per
 * tracked page: "0x<vaddr> <count> <bin> <nid> <nr_pages>".
 *
 * Snapshots of those over time are kept in memory, or written to a
 * record file (htmmctl(8), "RECORD FILE") and read back, so that one
 * recording can be reported later at any resolution; every report goes
 * through the same functions, live or from a file.
 *
 * The heatmap's columns are address ranges that each hold an equal share
 * of the pages tracked in any snapshot, so that a sparse address space
 * (heap, mappings, stack far apart) still fills the terminal. Ranges are
 * therefore of unequal size; the TSV gives each one's bounds. A cell is
 * the sum of the access counts of the range's pages at that time (the
 * mean over the snapshots of a time bin): counts that htmm cools (halves)
 * every cooling_ms, so a cell is a recent access rate, not a total.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "htmm.h"
#include "heat.h"

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
	long page_size;
	size_t nr_snaps;
	struct snap *snaps;
	FILE *rec;		/* record file, or NULL */
	bool keep;		/* keep snapshots in memory too */
};

/* Append @rec to @r (@n of @cap); -ENOMEM. */
static int push(struct page_rec **r, size_t *n, size_t *cap,
		const struct page_rec *rec)
{
	struct page_rec *bigger;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		bigger = realloc(*r, *cap * sizeof(**r));
		if (!bigger)
			return -ENOMEM;
		*r = bigger;
	}
	(*r)[(*n)++] = *rec;
	return 0;
}

/* All records of @pid's session, in address order; -errno on failure. */
static int read_pages(pid_t pid, struct page_rec **out, size_t *nr)
{
	struct page_rec *r = NULL, rec;
	size_t n = 0, cap = 0;
	unsigned long addr, count, pages;
	unsigned int bin;
	char path[64];
	int nid, err = 0;
	FILE *f;

	snprintf(path, sizeof(path), HTMM_DEBUGFS "/%d/pages", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!err && fscanf(f, "%lx %lu %u %d %lu", &addr, &count, &bin, &nid,
			      &pages) == 5) {
		rec = (struct page_rec){ addr, count, nid, bin, pages };
		err = push(&r, &n, &cap, &rec);
	}
	if (!err && ferror(f))
		err = -EIO;
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
		fprintf(stderr, "htmmctl: %s: root's only; run htmmctl as root\n",
			HTMM_DEBUGFS);
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

static const char *const hot_cols[] = {
	"time", "rank", "address", "count", "bin", "node", "pages",
};
#define NR_HOT_COLS	(sizeof(hot_cols) / sizeof(hot_cols[0]))

/* The @n hottest of @r (sorted here), taken at @t, printed as @o says. */
static void print_hot(struct page_rec *r, size_t nr, long n, double t,
		      const struct out *o)
{
	char v[NR_HOT_COLS][OUT_VALUE_LEN];
	size_t i;

	qsort(r, nr, sizeof(*r), hotter);
	if (o->kind == OUT_HUMAN)
		printf("%5s  %-18s %6s %4s %5s %6s\n", "rank", "address", "count",
		       "bin", "node", "pages");
	else
		out_header(stdout, o, NR_HOT_COLS, hot_cols);
	for (i = 0; i < nr && i < (size_t)n; i++) {
		if (o->kind == OUT_HUMAN) {
			printf("%5zu  0x%016lx %6u %4u %5d %6u\n", i + 1, r[i].addr,
			       r[i].count, r[i].bin, r[i].nid, r[i].pages);
			continue;
		}
		snprintf(v[0], sizeof(v[0]), "%.3f", t);
		snprintf(v[1], sizeof(v[1]), "%zu", i + 1);
		snprintf(v[2], sizeof(v[2]), "0x%lx", r[i].addr);
		snprintf(v[3], sizeof(v[3]), "%u", r[i].count);
		snprintf(v[4], sizeof(v[4]), "%u", r[i].bin);
		snprintf(v[5], sizeof(v[5]), "%d", r[i].nid);
		snprintf(v[6], sizeof(v[6]), "%u", r[i].pages);
		out_row(stdout, o, NR_HOT_COLS, hot_cols, v);
	}
	fflush(stdout);
}

int heat_hot(pid_t pid, long n, const struct out *o)
{
	struct page_rec *r;
	size_t nr;
	int err;

	err = read_pages(pid, &r, &nr);
	if (err) {
		read_pages_failed(pid, err);
		return 1;
	}
	if (o->kind == OUT_HUMAN)
		printf("pid %d: %zu pages tracked, hot threshold bin %lld, %lld hot pages\n",
		       pid, nr, session_value(pid, "hot_threshold"),
		       session_value(pid, "nr_hot_pages"));
	print_hot(r, nr, n, 0, o);
	free(r);
	return 0;
}

struct heatmap *heatmap_new(pid_t pid)
{
	struct heatmap *h = calloc(1, sizeof(*h));

	if (h) {
		h->pid = pid;
		h->page_size = sysconf(_SC_PAGESIZE);
		h->keep = true;
	}
	return h;
}

size_t heatmap_nr_snaps(const struct heatmap *h)
{
	return h->nr_snaps;
}

static const char record_cols[] = "time_s\taddr\tpages\tcount\tbin\tnode\n";

int heatmap_record_to(struct heatmap *h, FILE *f, bool keep)
{
	h->rec = f;
	h->keep = keep;
	fprintf(f, HTMM_RECORD_MAGIC "\n# pid %d\n# page_size %ld\n# start %lld\n",
		h->pid, h->page_size, (long long)time(NULL));
	fputs(record_cols, f);
	return fflush(f) ? -errno : 0;
}

/* Keep a snapshot of @nr records @r (taken over) at @t; -ENOMEM. */
static int add_snap(struct heatmap *h, double t, struct page_rec *r, size_t nr)
{
	struct snap *bigger;

	bigger = realloc(h->snaps, (h->nr_snaps + 1) * sizeof(*bigger));
	if (!bigger) {
		free(r);
		return -ENOMEM;
	}
	h->snaps = bigger;
	h->snaps[h->nr_snaps++] = (struct snap){ t, nr, r };
	return 0;
}

int heatmap_snap(struct heatmap *h, double t)
{
	struct page_rec *r;
	size_t nr, i;
	int err;

	err = read_pages(h->pid, &r, &nr);
	if (err)
		return err;
	if (h->rec) {
		for (i = 0; i < nr; i++)
			fprintf(h->rec, "%.3f\t0x%lx\t%u\t%u\t%u\t%d\n", t, r[i].addr,
				r[i].pages, r[i].count, r[i].bin, r[i].nid);
		if (fflush(h->rec)) {
			free(r);
			return -errno;
		}
	}
	/* A snapshot of nothing has no lines in a record: none here either. */
	if (!h->keep || !nr) {
		free(r);
		return 0;
	}
	return add_snap(h, t, r, nr);
}

/* The value of a "# KEY VALUE" header line @s, if it is one. */
static bool header_value(const char *s, const char *key, long long *v)
{
	size_t len = strlen(key);

	if (strncmp(s, "# ", 2) || strncmp(s + 2, key, len) || s[2 + len] != ' ')
		return false;
	*v = strtoll(s + 3 + len, NULL, 10);
	return true;
}

struct heatmap *heatmap_load(const char *path, int *err, long *line)
{
	struct page_rec *r = NULL, rec;
	size_t n = 0, cap = 0;
	struct heatmap *h;
	char buf[512];
	double t, snap_t = -1;
	long long v;
	FILE *f;

	*line = 0;
	f = fopen(path, "r");
	if (!f) {
		*err = -errno;
		return NULL;
	}
	h = heatmap_new(0);
	if (!h) {
		fclose(f);
		*err = -ENOMEM;
		return NULL;
	}
	*err = 0;
	while (!*err && fgets(buf, sizeof(buf), f)) {
		++*line;
		if (*line == 1) {
			if (strncmp(buf, HTMM_RECORD_MAGIC, strlen(HTMM_RECORD_MAGIC)))
				*err = -EINVAL;
			continue;
		}
		if (header_value(buf, "pid", &v))
			h->pid = v;
		else if (header_value(buf, "page_size", &v) && v > 0)
			h->page_size = v;
		if (buf[0] == '#' || !strncmp(buf, "time_s", 6) || buf[0] == '\n')
			continue;
		/* Six columns; readers ignore any that a later version adds. */
		if (sscanf(buf, "%lf %lx %u %u %u %d", &t, &rec.addr, &rec.pages,
			   &rec.count, &rec.bin, &rec.nid) != 6 || t < snap_t) {
			*err = -EINVAL;
			break;
		}
		if (t != snap_t && n) {
			*err = add_snap(h, snap_t, r, n);
			r = NULL;
			n = cap = 0;
		}
		snap_t = t;
		if (!*err)
			*err = push(&r, &n, &cap, &rec);
	}
	if (!*err && ferror(f))
		*err = -EIO;
	if (!*err && *line == 0)
		*err = -EINVAL;
	if (!*err && n) {
		*err = add_snap(h, snap_t, r, n);
		r = NULL;
	}
	fclose(f);
	free(r);
	if (*err) {
		heatmap_free(h);
		return NULL;
	}
	return h;
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

/* One row of the heatmap: the snapshots of a time bin. */
struct time_row {
	double t;
	size_t first, n;
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

/* Group the snapshots into rows of @bin seconds (0: one each). */
static size_t time_rows(const struct heatmap *h, double bin, struct time_row *row)
{
	size_t j, n = 0;
	double key, last = -1;

	for (j = 0; j < h->nr_snaps; j++) {
		key = bin > 0 ? floor(h->snaps[j].t / bin) * bin : h->snaps[j].t;
		if (!n || key != last) {
			row[n++] = (struct time_row){ key, j, 0 };
			last = key;
		}
		row[n - 1].n++;
	}
	return n;
}

static const char ramp[] = " .:-=+*#%@";

static const char *const cell_cols[] = {
	"snap", "time_s", "range", "addr_start", "addr_end", "pages", "accesses",
};
#define NR_CELL_COLS	(sizeof(cell_cols) / sizeof(cell_cols[0]))

/* The heatmap's cells as rows, to @f. */
static void print_cells(FILE *f, const struct out *o, const struct time_row *row,
			size_t nrows, const struct column *col, int cols,
			const unsigned long long *cell)
{
	char v[NR_CELL_COLS][OUT_VALUE_LEN];
	size_t j;
	int c;

	out_header(f, o, NR_CELL_COLS, cell_cols);
	for (j = 0; j < nrows; j++)
		for (c = 0; c < cols; c++) {
			snprintf(v[0], sizeof(v[0]), "%zu", j);
			snprintf(v[1], sizeof(v[1]), "%.2f", row[j].t);
			snprintf(v[2], sizeof(v[2]), "%d", c);
			snprintf(v[3], sizeof(v[3]), "0x%lx", col[c].start);
			snprintf(v[4], sizeof(v[4]), "0x%lx", col[c].end);
			snprintf(v[5], sizeof(v[5]), "%lu", col[c].pages);
			snprintf(v[6], sizeof(v[6]), "%llu", cell[j * cols + c]);
			out_row(f, o, NR_CELL_COLS, cell_cols, v);
		}
}

int heatmap_report(struct heatmap *h, FILE *out, int width, double bin,
		   const char *tsv, const struct out *o)
{
	unsigned long long *cell = NULL, max = 0, weight = 0, seen = 0;
	const struct out tab = { OUT_SEP, "\t" };
	struct time_row *row = NULL;
	struct page_rec *u = NULL;
	struct column *col = NULL;
	size_t nu, i, j, k, nrows;
	int cols, c, err = 0;
	FILE *t;

	nu = h->nr_snaps ? distinct_records(h, &u) : 0;
	if (!nu) {
		if (o->kind == OUT_HUMAN)
			fprintf(out, "heatmap: no pages were tracked\n");
		else
			out_header(out, o, NR_CELL_COLS, cell_cols);
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
	row = calloc(h->nr_snaps, sizeof(*row));
	cell = calloc((size_t)cols * h->nr_snaps, sizeof(*cell));
	if (!col || !row || !cell) {
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
		col[c].end = u[i].addr + u[i].pages * (unsigned long)h->page_size;
		seen += u[i].pages;
	}
	cols = c + 1;
	nrows = time_rows(h, bin, row);
	for (j = 0; j < nrows; j++) {
		unsigned long long *rc = &cell[j * cols];

		for (k = row[j].first; k < row[j].first + row[j].n; k++)
			for (i = 0; i < h->snaps[k].n; i++) {
				const struct page_rec *r = &h->snaps[k].r[i];

				rc[column_of(col, cols, r->addr)] += r->count;
			}
		/* A row of several snapshots shows their mean. */
		for (c = 0; c < cols; c++) {
			rc[c] = (rc[c] + row[j].n / 2) / row[j].n;
			if (rc[c] > max)
				max = rc[c];
		}
	}

	if (o->kind != OUT_HUMAN) {
		print_cells(out, o, row, nrows, col, cols, cell);
	} else {
		fprintf(out, "heatmap of pid %d: time down, address across in %d ranges of %llu tracked pages each\n",
			h->pid, cols, (weight + cols - 1) / cols);
		fprintf(out, "(0x%lx .. 0x%lx; ranges skip untracked addresses), shade = accesses in a range,\n",
			col[0].start, col[cols - 1].end);
		fprintf(out, "log scale '%s' (blank: none, '@': %llu)\n", ramp, max);
		for (j = 0; j < nrows; j++) {
			fprintf(out, "%7.1fs |", row[j].t);
			for (c = 0; c < cols; c++) {
				unsigned long long v = cell[j * cols + c];
				int lvl = 0;

				if (v)
					lvl = 1 + (int)(8.999 * log1p(v) / log1p(max));
				fputc(ramp[lvl], out);
			}
			fputs("|\n", out);
		}
	}

	if (!tsv)
		goto out;
	t = fopen(tsv, "w");
	if (!t) {
		err = -errno;
		goto out;
	}
	fprintf(t, "# htmm heatmap of pid %d: %zu rows x %d address ranges\n",
		h->pid, nrows, cols);
	fprintf(t, "# accesses: sum of the cooled access counts of the range's tracked pages\n");
	print_cells(t, &tab, row, nrows, col, cols, cell);
	if (fclose(t))
		err = -errno;
out:
	free(cell);
	free(row);
	free(col);
	free(u);
	return err;
}

int heatmap_hot(struct heatmap *h, long n, double at, const struct out *o)
{
	struct page_rec *r;
	const struct snap *s = NULL;
	size_t j;

	for (j = 0; j < h->nr_snaps; j++)
		if (h->snaps[j].t <= at)
			s = &h->snaps[j];
	if (!s) {
		fprintf(stderr, "htmmctl: no snapshot at or before %.3f s\n", at);
		return 1;
	}
	r = malloc(s->n * sizeof(*r));
	if (!r)
		return 1;
	memcpy(r, s->r, s->n * sizeof(*r));
	if (o->kind == OUT_HUMAN)
		printf("pid %d at %.3f s: %zu pages tracked\n", h->pid, s->t, s->n);
	print_hot(r, s->n, n, s->t, o);
	free(r);
	return 0;
}

#define MAX_NODES	64

int heatmap_placement(struct heatmap *h, const char *tsv, const struct out *o)
{
	const struct out tab = { OUT_SEP, "\t" };
	char names[2 * MAX_NODES + 1][OUT_VALUE_LEN];
	char v[2 * MAX_NODES + 1][OUT_VALUE_LEN];
	const char *np[2 * MAX_NODES + 1];
	unsigned long long pages[MAX_NODES], acc[MAX_NODES], all;
	bool used[MAX_NODES] = { false };
	int node[MAX_NODES], nn = 0, i, k, ret = 0;
	FILE *f[2] = { stdout, NULL };
	size_t j, p;

	for (j = 0; j < h->nr_snaps; j++)
		for (p = 0; p < h->snaps[j].n; p++) {
			int nid = h->snaps[j].r[p].nid;

			if (nid >= 0 && nid < MAX_NODES)
				used[nid] = true;
		}
	for (i = 0; i < MAX_NODES; i++)
		if (used[i])
			node[nn++] = i;
	snprintf(names[0], sizeof(names[0]), "time_s");
	for (k = 0; k < nn; k++) {
		snprintf(names[1 + k], sizeof(names[0]), "node%d_mib", node[k]);
		snprintf(names[1 + nn + k], sizeof(names[0]), "node%d_access_pct",
			 node[k]);
	}
	for (k = 0; k < 1 + 2 * nn; k++)
		np[k] = names[k];
	if (tsv) {
		f[1] = fopen(tsv, "w");
		if (!f[1]) {
			fprintf(stderr, "htmmctl: cannot write %s: %s\n", tsv,
				strerror(errno));
			return 1;
		}
		out_header(f[1], &tab, 1 + 2 * nn, np);
	}
	if (o->kind == OUT_HUMAN) {
		printf("pid %d: memory (MiB) and share of the accesses (%%) per node, of the tracked pages\n",
		       h->pid);
		for (k = 0; k < 1 + 2 * nn; k++)
			printf("%*s", k ? 18 : 8, names[k]);
		printf("\n");
	} else {
		out_header(stdout, o, 1 + 2 * nn, np);
	}
	for (j = 0; j < h->nr_snaps; j++) {
		memset(pages, 0, sizeof(pages));
		memset(acc, 0, sizeof(acc));
		all = 0;
		for (p = 0; p < h->snaps[j].n; p++) {
			const struct page_rec *r = &h->snaps[j].r[p];

			if (r->nid < 0 || r->nid >= MAX_NODES)
				continue;
			pages[r->nid] += r->pages;
			acc[r->nid] += r->count;
			all += r->count;
		}
		snprintf(v[0], sizeof(v[0]), "%.3f", h->snaps[j].t);
		for (k = 0; k < nn; k++) {
			snprintf(v[1 + k], sizeof(v[0]), "%.1f",
				 pages[node[k]] * (double)h->page_size / (1 << 20));
			snprintf(v[1 + nn + k], sizeof(v[0]), "%.1f",
				 all ? 100.0 * acc[node[k]] / all : 0.0);
		}
		if (o->kind == OUT_HUMAN) {
			for (k = 0; k < 1 + 2 * nn; k++)
				printf("%*s", k ? 18 : 8, v[k]);
			printf("\n");
		} else {
			out_row(stdout, o, 1 + 2 * nn, np, v);
		}
		if (f[1])
			out_row(f[1], &tab, 1 + 2 * nn, np, v);
	}
	if (f[1] && fclose(f[1])) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", tsv, strerror(errno));
		ret = 1;
	}
	fflush(stdout);
	return ret;
}
