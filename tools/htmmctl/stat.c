// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - htmmctl stat: the totals and the live sessions, as tables for
 * people or as every value for programs (-x, -j, through out.c), with
 * each node's memory bandwidth (bw.c).
 *
 * A value that cannot be read (the counters are root's, mode 0400) is
 * shown as '-' or null and counted; stat then says so on stderr and
 * exits 1. A documented file that this kernel lacks is null, and no
 * error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "htmm.h"
#include "bw.h"
#include "stat.h"

/* The documented files of the totals' directory, in the output's order. */
static const char *const total_keys[] = {
	"source", "source_resolved", "pebs_events", "sample_period",
	"sample_period_min", "sample_period_max", "cpu_quota", "buffer_pages",
	"max_sessions", "max_user_sessions", "scan_interval_ms", "cooling_ms",
	"max_tracked_pages", "tiering", "promote_rate_limit_MiBps",
	"tier_cpu_quota", "bandwidth_interval_ms",
	"nr_sampled", "nr_throttled", "nr_unthrottled", "nr_lost", "nr_invalid",
	"nr_unknown", "nr_loads", "nr_stores", "nr_near", "nr_far",
	"nr_untracked", "nr_evicted", "nr_scanned", "nr_promoted", "nr_demoted",
	"nr_migrate_failed", "nr_remigrated", "nr_shifted", "cpu_used",
	"tier_cpu_us", NULL
};

/* And of a session's. */
static const char *const session_keys[] = {
	"node", "source", "sample_period", "tiering", "fast_pages",
	"nr_sampled", "nr_throttled", "nr_unthrottled", "nr_lost", "nr_invalid",
	"nr_unknown", "nr_loads", "nr_stores", "nr_near", "nr_far",
	"nr_untracked", "nr_evicted", "nr_scanned", "nr_promoted", "nr_demoted",
	"nr_migrate_failed", "nr_remigrated", "nr_shifted", "hotness",
	"hot_threshold", "nr_hot_pages", "nr_tracked_pages", NULL
};

/* Files that are no value of stat's: a table of settings. */
static const char *const not_values[] = { "bandwidth_events", NULL };

const struct counter table_counters[] = {
	{ "nr_sampled", true }, { "nr_throttled", true },
	{ "nr_unthrottled", false }, { "nr_lost", true },
	{ "nr_invalid", true }, { "nr_unknown", false },
	{ "nr_loads", true }, { "nr_stores", true },
	{ "nr_near", false }, { "nr_far", false },
	{ "nr_untracked", false }, { "nr_evicted", false },
	{ "nr_scanned", false },
};
const int nr_table_counters = sizeof(table_counters) / sizeof(table_counters[0]);

static const char *const tier_counters[] = {
	"nr_promoted", "nr_demoted", "nr_migrate_failed", "nr_remigrated",
	"nr_shifted",
};
#define NR_TIER		(sizeof(tier_counters) / sizeof(tier_counters[0]))

static bool listed(const char *const *keys, const char *name)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, name))
			return true;
	return false;
}

/* Add the value of file @key in @dir to @r, null if it cannot be read. */
static void add_value(struct reading *r, const char *dir, const char *key)
{
	char path[600], buf[OUT_VALUE_LEN];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	err = read_text(path, buf, sizeof(buf));
	if (!err) {
		row_text(&r->vals, key, buf);
		return;
	}
	row_null(&r->vals, key);
	/* A kernel without the file: a documented null, no error. */
	if (err == -ENOENT)
		return;
	if (!r->unreadable++)
		r->err = -err;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of @dir that no list names, sorted; how many (at most @max). */
static int other_files(const char *dir, const char *const *keys, char **names,
		       int max)
{
	struct dirent *d;
	DIR *dh = opendir(dir);
	int n = 0;

	while (dh && (d = readdir(dh)) && n < max) {
		if (d->d_name[0] == '.' || d->d_type == DT_DIR ||
		    listed(keys, d->d_name) || listed(not_values, d->d_name))
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	if (dh)
		closedir(dh);
	qsort(names, n, sizeof(*names), by_str);
	return n;
}

/* The names of extra files live as long as the program: few, and kept. */
static const char *keep_name(char *name)
{
	static char *kept[OUT_MAX_FIELDS];
	static int nkept;
	int i;

	for (i = 0; i < nkept; i++)
		if (!strcmp(kept[i], name)) {
			free(name);
			return kept[i];
		}
	if (nkept < OUT_MAX_FIELDS)
		kept[nkept++] = name;
	return name;
}

int reading_read(struct reading *r, const char *name)
{
	const char *const *keys = strcmp(name, "total") ? session_keys : total_keys;
	char dir[512], *other[16];
	DIR *probe;
	int i, n;

	snprintf(r->name, sizeof(r->name), "%s", name);
	if (strcmp(name, "total"))
		path_of(dir, sizeof(dir), HTMM_SYSFS "/sessions/%s", name);
	else
		path_of(dir, sizeof(dir), HTMM_SYSFS);
	probe = opendir(dir);
	if (!probe)
		return -errno;
	closedir(probe);
	row_init(&r->vals);
	r->unreadable = r->err = 0;
	for (i = 0; keys[i]; i++)
		add_value(r, dir, keys[i]);
	n = other_files(dir, keys, other, 16);
	for (i = 0; i < n; i++)
		add_value(r, dir, keep_name(other[i]));
	return 0;
}

bool reading_u64(const struct reading *r, const char *name, unsigned long long *v)
{
	const struct field *f = row_get(&r->vals, name);

	if (!f || (f->type != V_UINT && f->type != V_INT))
		return false;
	*v = f->type == V_UINT ? f->u : (unsigned long long)f->i;
	return true;
}

void values_out(struct out *o, const char *session, const struct row *vals,
		double t)
{
	struct row row;
	int i;

	if (o->kind == OUT_JSON) {
		row_init(&row);
		row_real(&row, "time", t, 3);
		row_str(&row, "session", session);
		for (i = 0; i < vals->n; i++)
			row_copy(&row, vals->f[i].name, &vals->f[i]);
		out_row(o, &row);
		return;
	}
	for (i = 0; i < vals->n; i++) {
		row_init(&row);
		row_real(&row, "time", t, 3);
		row_str(&row, "session", session);
		row_str(&row, "name", vals->f[i].name);
		row_copy(&row, "value", &vals->f[i]);
		out_row(o, &row);
	}
}

void reading_out(struct out *o, const struct reading *r, double t)
{
	values_out(o, r->name, &r->vals, t);
}

int reading_warn(const struct reading *r, int n)
{
	int i, bad = 0, err = 0;

	for (i = 0; i < n; i++) {
		if (r[i].unreadable && !err)
			err = r[i].err;
		bad += r[i].unreadable;
	}
	if (!bad)
		return 0;
	fprintf(stderr, "htmmctl: %d values could not be read (%s)%s; shown as %s\n",
		bad, strerror(err), err == EACCES || err == EPERM ?
		": the counters are root's only (mode 0400), run htmmctl as root" : "",
		"'-' in tables, null in JSON, empty with -x");
	return 1;
}

static int by_pid(const void *a, const void *b)
{
	return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

/* The names of the live sessions (or @only), sorted; how many, or -1. */
static int session_names(char ***out, const char *only)
{
	char path[512], **names = NULL, **more;
	struct dirent *d;
	int n = 0;
	DIR *dir;

	dir = opendir(path_of(path, sizeof(path), HTMM_SYSFS "/sessions"));
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || (only && strcmp(only, d->d_name)))
			continue;
		more = realloc(names, (n + 1) * sizeof(*names));
		if (!more)
			break;
		names = more;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), by_pid);
	*out = names;
	return n;
}

/*
 * The totals and the sessions selected by @only (NULL: all), in *@out;
 * how many, or -1 with errno set.
 */
static int read_all(struct reading **out, const char *only)
{
	struct reading *r;
	char **names = NULL;
	int n, i, k = 0, err;

	*out = NULL;
	n = session_names(&names, only);
	if (n < 0)
		return -1;
	r = calloc(n + 1, sizeof(*r));
	err = r ? reading_read(&r[k++], "total") : -ENOMEM;
	for (i = 0; i < n; i++) {
		/* A session that ended meanwhile is simply not shown. */
		if (!err && !reading_read(&r[k], names[i]))
			k++;
		free(names[i]);
	}
	free(names);
	if (err) {
		free(r);
		errno = -err;
		return -1;
	}
	*out = r;
	return k;
}

static const struct reading *find_reading(const struct reading *r, int n,
					  const char *name)
{
	int i;

	for (i = 0; r && i < n; i++)
		if (!strcmp(r[i].name, name))
			return &r[i];
	return NULL;
}

/* A counter's column: its name without "nr_", at least 10 wide. */
static int width(const char *name)
{
	int w = strlen(name + 3);

	return w > 10 ? w : 10;
}

/* @name of @r in a column of @w, '-' if it has no number. */
static void print_u64(const struct reading *r, const char *name, int w)
{
	unsigned long long v;

	if (reading_u64(r, name, &v))
		printf(" %*llu", w, v);
	else
		printf(" %*s", w, "-");
}

/* The rate of @name between @p and @r, @dt seconds apart. */
static void print_rate(const struct reading *r, const struct reading *p,
		       const char *name, double dt)
{
	unsigned long long a, b;

	if (reading_u64(r, name, &a) && reading_u64(p, name, &b) && dt > 0)
		printf(" %10.0f", (a - b) / dt);
	else
		printf(" %10s", "-");
}

static void print_counters(const struct reading *r, int n,
			   const struct reading *prev, int nprev, double dt,
			   bool verbose)
{
	const struct reading *p;
	int i, c;

	/* Without -v, 8 + 6 * 11 + 2 * 11 columns: fits 100. */
	printf("%-8s", "session");
	for (c = 0; c < nr_table_counters; c++)
		if (verbose || table_counters[c].brief)
			printf(" %*s", width(table_counters[c].name),
			       table_counters[c].name + 3);
	if (prev)
		printf(" %10s %10s", "sampled/s", "lost/s");
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%-8s", r[i].name);
		for (c = 0; c < nr_table_counters; c++)
			if (verbose || table_counters[c].brief)
				print_u64(&r[i], table_counters[c].name,
					  width(table_counters[c].name));
		p = prev ? find_reading(prev, nprev, r[i].name) : NULL;
		if (p) {
			print_rate(&r[i], p, "nr_sampled", dt);
			print_rate(&r[i], p, "nr_lost", dt);
		}
		printf("\n");
	}
}

/*
 * Memory of process @pid per node in MiB, from /proc/PID/numa_maps, as
 * "N0=.. N1=..": each mapping's Nx= counts pages of its
 * kernelpagesize_kB (hugetlb pages are 2048 or 1048576 kB).
 */
static void mib_per_node(const char *pid, char *out, size_t len)
{
	double kib[64] = { 0 };
	unsigned long long pages[64], v;
	char path[512], *line = NULL, *w, *save;
	unsigned long page_kb;
	size_t cap = 0, n = 0;
	unsigned int nid;
	FILE *f;

	out[0] = '\0';
	f = fopen(path_of(path, sizeof(path), "/proc/%s/numa_maps", pid), "r");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		memset(pages, 0, sizeof(pages));
		page_kb = 4;
		for (w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
			if (sscanf(w, "N%u=%llu", &nid, &v) == 2 && nid < 64)
				pages[nid] += v;
			else
				sscanf(w, "kernelpagesize_kB=%lu", &page_kb);
		}
		for (nid = 0; nid < 64; nid++)
			kib[nid] += (double)pages[nid] * page_kb;
	}
	free(line);
	fclose(f);
	for (nid = 0; nid < 64 && n < len; nid++)
		if (kib[nid])
			n += snprintf(out + n, len - n, "%sN%u=%.1f", n ? " " : "",
				      nid, kib[nid] / 1024);
}

/* Tiering: what moved, and where each process's memory is now. */
static void print_tiering(const struct reading *r, int n)
{
	unsigned long long on;
	const char *tier;
	size_t c;
	int i;

	printf("\n%-8s %4s %10s %10s %10s %10s %10s  %s\n", "session", "tier",
	       "promoted", "demoted", "failed", "remigrated", "shifted",
	       "MiB per node");
	for (i = 0; i < n; i++) {
		char nodes[256] = "";

		if (strcmp(r[i].name, "total") && strcmp(r[i].name, "all"))
			mib_per_node(r[i].name, nodes, sizeof(nodes));
		tier = !reading_u64(&r[i], "tiering", &on) ? "-" : on ? "on" : "off";
		printf("%-8s %4s", r[i].name, tier);
		for (c = 0; c < NR_TIER; c++)
			print_u64(&r[i], tier_counters[c], 10);
		printf("  %s\n", nodes);
	}
}

/* -v: htmm's own CPU time, which only the totals have. */
static void print_cpu(const struct reading *total)
{
	printf("\nhtmm's CPU use:");
	print_u64(total, "cpu_used", 0);
	printf(" per mille of a CPU (cpu_used), khtmm_tierd");
	print_u64(total, "tier_cpu_us", 0);
	printf(" us since boot (tier_cpu_us)\n");
}

/* One reading of everything, as @o says; prev: the one before, or NULL. */
static void print_reading(struct out *o, const struct reading *r, int n,
			  const struct reading *prev, int nprev, double dt,
			  double t, bool verbose)
{
	int i;

	if (o->kind != OUT_HUMAN) {
		for (i = 0; i < n; i++)
			reading_out(o, &r[i], t);
		return;
	}
	print_counters(r, n, prev, nprev, dt, verbose);
	print_tiering(r, n);
	if (verbose)
		print_cpu(&r[0]);
}


/*
 * Bandwidth per node: with -i, between two readings of stat's; once,
 * two readings of ksamplingd apart (at least a second), to have a rate.
 */
static void bandwidth(struct out *o, struct bw_reading *bw, bool again,
		      double t, double dt, double t0, bool interval)
{
	double tb = now();

	if (bw_read(&bw[0]) && !interval) {
		sleep_for(bw_interval() * 2 > 1 ? bw_interval() * 2 : 1);
		bw_read(&bw[1]);
		bw_show(o, &bw[1], &bw[0], now() - tb, now() - t0);
	} else {
		bw_show(o, &bw[0], again ? &bw[1] : NULL, dt, t);
	}
}

int cmd_stat(const char *only, double interval, long count, bool verbose,
	     struct out *o)
{
	struct reading *r[2] = { NULL, NULL };
	struct bw_reading bw[2];
	int n[2] = { 0, 0 }, cur = 0, ret = 0;
	double t[2], t0 = now();
	long i;

	for (i = 0; !count || i < count; i++) {
		if (i)
			sleep_for(interval);
		t[cur] = now();
		free(r[cur]);
		n[cur] = read_all(&r[cur], only);
		if (n[cur] < 0) {
			fprintf(stderr, "htmmctl: cannot read %s: %s\n", HTMM_SYSFS,
				strerror(errno));
			ret = 1;
			break;
		}
		if (only && !find_reading(r[cur], n[cur], only)) {
			fprintf(stderr, "htmmctl: no session %s\n", only);
			ret = 1;
			break;
		}
		if (i && o->kind == OUT_HUMAN)
			printf("\n");
		print_reading(o, r[cur], n[cur], i ? r[!cur] : NULL, n[!cur],
			      t[cur] - t[!cur], t[cur] - t0, verbose);
		if (i)
			bw[1] = bw[0];
		bandwidth(o, bw, i, t[cur] - t0, t[cur] - t[!cur], t0, interval);
		fflush(stdout);
		if (!ret)	/* once */
			ret = reading_warn(r[cur], n[cur]);
		if (!interval)
			break;
		cur = !cur;
	}
	free(r[0]);
	free(r[1]);
	return ret;
}
