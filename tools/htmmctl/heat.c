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
	char path[512];
	int nid, err = 0;
	FILE *f;

	path_of(path, sizeof(path), HTMM_DEBUGFS "/%d/pages", pid);
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

void read_pages_failed(pid_t pid, int err)
{
	char dir[512];
	int dir_err;

	path_of(dir, sizeof(dir), HTMM_DEBUGFS);
	dir_err = access(dir, X_OK) ? errno : 0;
	if (err == -EACCES || err == -EPERM || dir_err == EACCES)
		fprintf(stderr, "htmmctl: %s: root's only (debugfs); run htmmctl as root\n",
			dir);
	else if (!htmm_here())
		say_no_htmm();
	else if (dir_err == ENOENT)
		fprintf(stderr, "htmmctl: no %s: debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)\n",
			dir);
	else if (err == -ENOENT)
		fprintf(stderr, "htmmctl: no session for pid %d (no %s/%d/pages)\n",
			pid, dir, pid);
	else
		fprintf(stderr, "htmmctl: cannot read %s/%d/pages: %s\n", dir, pid,
			strerror(-err));
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

/* Page @rank, @r, of a snapshot at @t as a row of hot's. */
static void hot_row(struct row *row, double t, size_t rank,
		    const struct page_rec *r)
{
	char addr[32];

	snprintf(addr, sizeof(addr), "0x%lx", r->addr);
	row_init(row);
	row_real(row, "time", t, 3);
	row_uint(row, "rank", rank);
	row_str(row, "address", addr);
	row_uint(row, "count", r->count);
	row_uint(row, "bin", r->bin);
	row_int(row, "node", r->nid);
	row_uint(row, "pages", r->pages);
}

/* The @n hottest of @r (sorted here), taken at @t, printed as @o says. */
static void print_hot(struct page_rec *r, size_t nr, long n, double t,
		      struct out *o)
{
	struct row row;
	size_t i;

	qsort(r, nr, sizeof(*r), hotter);
	if (o->kind == OUT_HUMAN)
		printf("%5s  %-18s %6s %4s %5s %6s\n", "rank", "address", "count",
		       "bin", "node", "pages");
	for (i = 0; i < nr && i < (size_t)n; i++) {
		if (o->kind == OUT_HUMAN) {
			printf("%5zu  0x%016lx %6u %4u %5d %6u\n", i + 1, r[i].addr,
			       r[i].count, r[i].bin, r[i].nid, r[i].pages);
			continue;
		}
		hot_row(&row, t, i + 1, &r[i]);
		out_row(o, &row);
	}
	if (!nr && o->kind != OUT_HUMAN) {
		struct page_rec none = { 0 };

		hot_row(&row, t, 0, &none);
		out_header(o, &row);
	}
	fflush(stdout);
}

int heat_hot(pid_t pid, long n, struct out *o)
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

/*
 * Which of @cols columns holds @addr: the last one that starts at or
 * below it (binary search; every column has a start, in address order).
 */
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

/* Is @r a share of @weight pages in @cols columns, or more? */
static bool big(const struct page_rec *r, int cols, unsigned long long weight)
{
	return (unsigned long long)r->pages * cols >= weight;
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

/* Cell (@j, @c) of the heatmap as a row. */
static void cell_row(struct row *r, size_t j, double t, int c,
		     const struct column *col, unsigned long long v)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "0x%lx", col->start);
	snprintf(b, sizeof(b), "0x%lx", col->end);
	row_init(r);
	row_uint(r, "snap", j);
	row_real(r, "time_s", t, 2);
	row_int(r, "range", c);
	row_str(r, "addr_start", a);
	row_str(r, "addr_end", b);
	row_uint(r, "pages", col->pages);
	row_uint(r, "accesses", v);
}

/* The heatmap's cells as rows of @o. */
static void print_cells(struct out *o, const struct time_row *row,
			size_t nrows, const struct column *col, int cols,
			const unsigned long long *cell)
{
	struct column none = { 0, 0, 0 };
	struct row r;
	size_t j;
	int c;

	cell_row(&r, 0, 0, 0, &none, 0);
	out_header(o, &r);
	for (j = 0; j < nrows; j++)
		for (c = 0; c < cols; c++) {
			cell_row(&r, j, row[j].t, c, &col[c], cell[j * cols + c]);
			out_row(o, &r);
		}
}

int heatmap_report(struct heatmap *h, FILE *out, int width, double bin,
		   const char *tsv, struct out *o)
{
	unsigned long long *cell = NULL, max = 0, weight = 0, seen = 0;
	struct out tab = { OUT_SEP, "\t", NULL, false };
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
			print_cells(o, NULL, 0, NULL, 0, NULL);
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
	/*
	 * Equal shares of the pages: a column starts where share c/cols is
	 * passed. A page of a share or more (a huge page) has a column of its
	 * own; it passes several shares at once but opens one column only,
	 * so that no column is left empty.
	 */
	for (i = 0, c = -1; i < nu; i++) {
		int want = seen * cols / weight;
		bool alone = big(&u[i], cols, weight) ||
			     (i && big(&u[i - 1], cols, weight));

		if (c < 0 || (c + 1 < cols && (want > c || alone))) {
			c++;
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
		print_cells(o, row, nrows, col, cols, cell);
	} else {
		fprintf(out, "heatmap of pid %d: time down, address across in %d ranges of about 1/%d of the %llu tracked pages each\n",
			h->pid, cols, cols, weight);
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
	tab.f = t;
	print_cells(&tab, row, nrows, col, cols, cell);
	if (fclose(t))
		err = -errno;
out:
	free(cell);
	free(row);
	free(col);
	free(u);
	return err;
}

int heatmap_hot(struct heatmap *h, long n, double at, struct out *o)
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

/* The nodes that hold a page in any snapshot, in @node; how many. */
static int used_nodes(const struct heatmap *h, int *node)
{
	bool used[MAX_NODES] = { false };
	int i, nn = 0;
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
	return nn;
}

/* Snapshot @s as a row of placement's: MiB and share of accesses per node. */
static void placement_row(struct row *row, const struct heatmap *h,
			  const struct snap *s, const int *node, int nn,
			  char (*names)[24])
{
	unsigned long long pages[MAX_NODES] = { 0 }, acc[MAX_NODES] = { 0 }, all = 0;
	size_t p;
	int k;

	for (p = 0; s && p < s->n; p++) {
		const struct page_rec *r = &s->r[p];

		if (r->nid < 0 || r->nid >= MAX_NODES)
			continue;
		pages[r->nid] += r->pages;
		acc[r->nid] += r->count;
		all += r->count;
	}
	row_init(row);
	row_real(row, "time_s", s ? s->t : 0, 3);
	for (k = 0; k < nn; k++)
		row_real(row, names[k], pages[node[k]] * (double)h->page_size / (1 << 20), 1);
	for (k = 0; k < nn; k++)
		row_real(row, names[nn + k], all ? 100.0 * acc[node[k]] / all : 0.0, 1);
}

int heatmap_placement(struct heatmap *h, const char *tsv, struct out *o)
{
	static char names[2 * MAX_NODES][24];
	struct out tab = { OUT_SEP, "\t", NULL, false };
	int node[MAX_NODES], nn, k, ret = 0;
	struct row row;
	size_t j;

	nn = used_nodes(h, node);
	for (k = 0; k < nn; k++) {
		snprintf(names[k], sizeof(names[k]), "node%d_mib", node[k]);
		snprintf(names[nn + k], sizeof(names[k]), "node%d_access_pct", node[k]);
	}
	if (tsv) {
		tab.f = fopen(tsv, "w");
		if (!tab.f) {
			fprintf(stderr, "htmmctl: cannot write %s: %s\n", tsv,
				strerror(errno));
			return 1;
		}
	}
	placement_row(&row, h, NULL, node, nn, names);
	if (tab.f)
		out_header(&tab, &row);
	if (o->kind == OUT_HUMAN) {
		printf("pid %d: memory (MiB) and share of the accesses (%%) per node, of the tracked pages\n",
		       h->pid);
		for (k = 0; k < row.n; k++)
			printf("%*s", k ? 18 : 8, row.f[k].name);
		printf("\n");
	} else {
		out_header(o, &row);
	}
	for (j = 0; j < h->nr_snaps; j++) {
		placement_row(&row, h, &h->snaps[j], node, nn, names);
		if (o->kind == OUT_HUMAN) {
			for (k = 0; k < row.n; k++)
				printf("%*.*f", k ? 18 : 8, row.f[k].prec, row.f[k].d);
			printf("\n");
		} else {
			out_row(o, &row);
		}
		if (tab.f)
			out_row(&tab, &row);
	}
	if (tab.f && fclose(tab.f)) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", tsv, strerror(errno));
		ret = 1;
	}
	fflush(stdout);
	return ret;
}
