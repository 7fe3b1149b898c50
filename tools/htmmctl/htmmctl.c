// SPDX-License-Identifier: GPL-2.0
/*
 * htmmctl - start, stop and watch htmm sampling sessions.
 *
 * See "htmmctl --help" and Documentation/admin-guide/mm/htmm.rst.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "htmm.h"
#include "heat.h"
#include "bw.h"
#include "htmmctl.h"

#ifndef HTMMCTL_VERSION
#define HTMMCTL_VERSION "unknown"
#endif

/* Each command: its synopsis, what it does, and the options it takes. */
static const struct command {
	const char *name;
	const char *synopsis;
	const char *text;
	const char *opts;	/* short options it takes, as in long_opts */
} commands[] = {
	{ "start", "start PID|all [-n NODE [-t] [-f MIB]] [-s SOURCE] [-p PERIOD]",
	  "Put process PID (all: every task) under sampling. NODE is its fast\n"
	  "memory node (default: none). -s and -p choose the sample source and\n"
	  "period of this session only (default: " HTMM_SYSFS "/source and\n"
	  "sample_period, which are restored after the start).\n", "ntfsp" },
	{ "stop", "stop PID|all", "End the session of PID (all: the system-wide one).\n", "" },
	{ "run", "run [-n NODE [-t] [-f MIB]] [-s SOURCE] [-p PERIOD] [-i SECONDS]\n"
	  "           [-r FILE] [--heatmap TSV] [--] CMD [ARGS...]",
	  "Run CMD under sampling from before it execs; print the session's\n"
	  "counters every SECONDS and at the end. The session ends with CMD's\n"
	  "process; the summary is its last reading. -r records CMD's per-page\n"
	  "hotness every SECONDS (default 1) into FILE, as 'record' does;\n"
	  "--heatmap also draws CMD's heatmap at the end and writes it to TSV.\n"
	  "Exits with CMD's status (128+N if a signal N killed it, 127 if it\n"
	  "could not run), or 1 if CMD succeeded and htmmctl could not do its\n"
	  "part.\n", "ntfspirH" },
	{ "stat", "stat [PID|all] [-i SECONDS [-c COUNT]] [-x SEP | -j] [-v]",
	  "Show the totals and the live sessions (or one), what tiering moved and\n"
	  "each process's memory per node (MiB), and each node's memory bandwidth\n"
	  "if htmm counts it (MiB/s); with -i, again every SECONDS, COUNT times\n"
	  "(default: until interrupted), with rates per second; -v: every\n"
	  "counter (the default table fits 100 columns). Root only: the counters\n"
	  "are mode 0400. -x SEP: every value of the totals and of each session\n"
	  "as 'time SEP session SEP name SEP value' lines after a header (CSV\n"
	  "with -x ,); -j: one JSON object per reading and session, with every\n"
	  "value; time is seconds since the first reading.\n", "icxjv" },
	{ "hot", "hot PID [-N ROWS] [-x SEP | -j]",
	  "The ROWS (default 20) hottest pages of PID's session: address, access\n"
	  "count, bin, node, size in pages. Root only (reads debugfs).\n", "Nxj" },
	{ "heatmap", "heatmap PID [-i SECONDS] [-c COUNT] [-o TSV] [-x SEP | -j]",
	  "Record PID's accesses per address range every SECONDS (default 1),\n"
	  "COUNT times (default 10) or until the session ends or Ctrl-C; draw\n"
	  "time x address as ASCII and write the data as TSV to TSV (default\n"
	  "heatmap-PID.tsv; plot: tools/htmm-plot). Root only.\n", "icoxj" },
	{ "record", "record [-o FILE] [-i SECONDS] [-c COUNT] [-n NODE [-t] [-f MIB]]\n"
	  "           [-s SOURCE] [-p PERIOD] PID | [--] CMD [ARGS...]",
	  "Write snapshots of a session's per-page hotness (time, address,\n"
	  "pages, count, bin, node) to FILE (default htmm.rec) every SECONDS\n"
	  "(default 1), COUNT times, until the session ends, or Ctrl-C. PID: a\n"
	  "process's session, started here (and ended at the end) if it has\n"
	  "none; CMD: run it as 'run' does, exiting with its status. Report\n"
	  "later with 'htmmctl report FILE'. Root only (reads debugfs).\n",
	  "ocintfsp" },
	{ "report", "report FILE heatmap|hot|placement [-w WIDTH] [-i SECONDS] [-N ROWS]\n"
	  "           [--at SECONDS] [-o TSV] [-x SEP | -j]",
	  "Report a record file. heatmap: time x address, in rows of SECONDS\n"
	  "(default: one per snapshot) and WIDTH columns (default: the\n"
	  "terminal's), -o writes its TSV (plot: tools/htmm-plot). hot: the ROWS\n"
	  "(default 20) hottest pages of the last snapshot (at or before --at).\n"
	  "placement: per snapshot, the MiB and the share of the accesses of the\n"
	  "tracked pages on each node; -o writes them as TSV.\n", "wiNAoxj" },
};
#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const struct option long_opts[] = {
	{ "node", required_argument, NULL, 'n' },
	{ "tier", no_argument, NULL, 't' },
	{ "fast-mib", required_argument, NULL, 'f' },
	{ "source", required_argument, NULL, 's' },
	{ "period", required_argument, NULL, 'p' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "rows", required_argument, NULL, 'N' },
	{ "output", required_argument, NULL, 'o' },
	{ "record", required_argument, NULL, 'r' },
	{ "heatmap", required_argument, NULL, 'H' },
	{ "width", required_argument, NULL, 'w' },
	{ "at", required_argument, NULL, 'A' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "json", no_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char options_text[] =
"  -n, --node NODE       the process's fast memory node (-1: none)\n"
"  -t, --tier            move its hot pages to NODE and cold ones away\n"
"  -f, --fast-mib MIB    the most it may keep on NODE (default: all of it)\n"
"  -s, --source SOURCE   auto, software, pebs, ibs or abit\n"
"  -p, --period PERIOD   sample period (0: the source's default)\n"
"  -i, --interval SECS   print (record; report: a row) every SECS seconds\n"
"  -c, --count COUNT     that many times\n"
"  -N, --rows ROWS       how many pages to list\n"
"  -o, --output FILE     where to write the data\n"
"  -r, --record FILE     run: record per-page hotness into FILE\n"
"      --heatmap TSV     run: draw a heatmap at the end, its data to TSV\n"
"  -w, --width WIDTH     report heatmap: columns in all\n"
"      --at SECONDS      report hot: the snapshot at that time\n"
"  -x, --field-separator SEP  values as SEP-separated lines, a header first\n"
"  -j, --json            values as JSON, an object per line\n"
"  -v, --verbose         stat: every counter\n"
"  -h, --help            this help (after a command: that command's)\n"
"  -V, --version         htmmctl's version\n";

static const char status_text[] =
"Exit status: 0 on success, 1 if htmmctl failed (a system call or a file\n"
"it needed), 2 on bad usage; run exits with CMD's status.\n";

static void usage(FILE *f)
{
	size_t i;

	fputs("usage:", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "%s htmmctl %s\n", i ? "      " : "", commands[i].synopsis);
	fputs("       htmmctl --version\n\n", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "%s:\n%s\n", commands[i].name, commands[i].text);
	fputs(options_text, f);
	fputc('\n', f);
	fputs(status_text, f);
}

static void command_usage(const struct command *c, FILE *f)
{
	fprintf(f, "usage: htmmctl %s\n\n%s\n", c->synopsis, c->text);
	fputs(status_text, f);
}

static const struct command *cur;	/* the command being parsed */

/* A usage error: what was wrong, and where to look; exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "htmmctl%s%s: ", cur ? " " : "", cur ? cur->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'htmmctl %s%s--help'.\n", cur ? cur->name : "",
		cur ? " " : "");
	exit(2);
}

static const char *const counters[] = {
	"nr_sampled", "nr_throttled", "nr_unthrottled",
	"nr_lost", "nr_invalid", "nr_unknown",
	"nr_loads", "nr_stores", "nr_near", "nr_far",
};
#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

/*
 * Tiering's, in pages, and the abit passes that found the pages in use
 * moved; absent in kernels before tiering, then shown as 0.
 */
static const char *const tier_counters[] = {
	"nr_promoted", "nr_demoted", "nr_migrate_failed", "nr_remigrated",
	"nr_shifted",
};
#define NR_TIER		(sizeof(tier_counters) / sizeof(tier_counters[0]))

static const struct {
	int err;
	const char *name;
	const char *hint;
} hints[] = {
	{ ENOSYS, "ENOSYS", "this kernel was built without CONFIG_HTMM" },
	{ EACCES, "EACCES", "perf's rules refuse it: perf_event_paranoid, ptrace rights over the process or CAP_PERFMON (system-wide: CAP_PERFMON); only the session's owner ends it; counters are root's" },
	{ EPERM, "EPERM", "the ring buffers exceed RLIMIT_MEMLOCK past perf_event_mlock_kb; lower " HTMM_SYSFS "/buffer_pages or raise the limit" },
	{ EAGAIN, "EAGAIN", "the process kept creating threads during the start; try again" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "the selected sample source is unavailable here, see " HTMM_SYSFS "/source" },
	{ ESRCH, "ESRCH", "no such process, it is exiting, or it has no session" },
	{ EBUSY, "EBUSY", "it already has a session; stop that one first" },
	{ ENOSPC, "ENOSPC", "too many live sessions, see " HTMM_SYSFS "/max_sessions" },
	{ EINVAL, "EINVAL", "pid below -1, or the node is not an online node with memory" },
	{ ENOMEM, "ENOMEM", "out of memory" },
	{ ENOENT, "ENOENT", "no htmm sysfs files: kernel without CONFIG_HTMM, or sysfs not mounted" },
};

/* Print "htmmctl: WHAT: strerror (ENAME): hint" for errno @err. */
static void report(const char *what, int err)
{
	size_t i;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		if (hints[i].err == err) {
			fprintf(stderr, "htmmctl: %s: %s (%s): %s\n", what,
				strerror(err), hints[i].name, hints[i].hint);
			return;
		}
	}
	fprintf(stderr, "htmmctl: %s: %s\n", what, strerror(err));
}

/* Say that @what is root's only, and what to do. */
static void not_root(const char *what)
{
	fprintf(stderr, "htmmctl: %s: root's only (mode 0400); run htmmctl as root\n",
		what);
}

/* A number as JSON has it: -?digits(.digits)? (no hex, no exponent). */
static bool is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s || *s == '.')
		return false;
	s += strspn(s, "0123456789");
	if (*s == '.' && s[1])
		s += 1 + strspn(s + 1, "0123456789");
	return !*s;
}

void out_header(FILE *f, const struct out *o, int n, const char *const *names)
{
	int i;

	if (o->kind != OUT_SEP)
		return;
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? o->sep : "", names[i]);
	fputc('\n', f);
}

void out_row(FILE *f, const struct out *o, int n, const char *const *names,
	     char (*vals)[OUT_VALUE_LEN])
{
	const char *c;
	int i;

	for (i = 0; i < n; i++) {
		if (o->kind == OUT_SEP) {
			fprintf(f, "%s%s", i ? o->sep : "", vals[i]);
			continue;
		}
		fprintf(f, "%s\"%s\":", i ? "," : "{", names[i]);
		if (is_number(vals[i])) {
			fputs(vals[i], f);
			continue;
		}
		fputc('"', f);
		for (c = vals[i]; *c; c++)
			fprintf(f, *c == '"' || *c == '\\' ? "\\%c" :
				(unsigned char)*c < 0x20 ? "\\u%04x" : "%c", *c);
		fputc('"', f);
	}
	fputs(o->kind == OUT_JSON ? "}\n" : "\n", f);
}

/* PID as the command's argument: a process id, or "all" (-1). */
static pid_t parse_pid(const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "all"))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 0x7fffffff)
		bad_usage("invalid PID '%s': a process id, or 'all'", s);
	if (!v)
		bad_usage("PID 0 would be htmmctl itself: give the process's id");
	return v;
}

/* A whole number from @min to @max, for option @opt. */
static long parse_long(const char *s, const char *opt, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		bad_usage("invalid value '%s' for %s: a whole number from %ld to %ld",
			  s, opt, min, max);
	return v;
}

static double parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v > 0) || v > 86400)
		bad_usage("invalid value '%s' for --interval: seconds, more than 0 and at most 86400",
			  s);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read a counter file under HTMM_SYSFS/@dir; -errno on failure. */
int read_value(const char *dir, const char *name, unsigned long long *v)
{
	char path[512], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), HTMM_SYSFS "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	*v = strtoull(buf, NULL, 0);
	return 0;
}

struct row {
	char name[32];			/* "total", a pid or "all" */
	unsigned long long v[NR_COUNTERS];
	unsigned long long t[NR_TIER];
	int tiering;			/* the session's tiering file, -1: none */
};

static int read_row(struct row *r, const char *name)
{
	unsigned long long v;
	char dir[64];
	size_t i;
	int err;

	snprintf(r->name, sizeof(r->name), "%s", name);
	if (strcmp(name, "total"))
		snprintf(dir, sizeof(dir), "/sessions/%s", name);
	else
		dir[0] = '\0';
	for (i = 0; i < NR_COUNTERS; i++) {
		err = read_value(dir, counters[i], &r->v[i]);
		if (err)
			return err;
	}
	for (i = 0; i < NR_TIER; i++)
		if (read_value(dir, tier_counters[i], &r->t[i]))
			r->t[i] = 0;
	r->tiering = read_value(dir, "tiering", &v) ? -1 : (int)v;
	return 0;
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
	char path[64], *line = NULL, *w, *save;
	unsigned long page_kb;
	size_t cap = 0, n = 0;
	unsigned int nid;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%s/numa_maps", pid);
	f = fopen(path, "r");
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

static int by_name(const void *a, const void *b)
{
	return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

/*
 * Rows for the totals and the sessions selected by @only (NULL: all),
 * allocated in *@out; how many, or -1 with errno set.
 */
static int read_rows(struct row **out, const char *only)
{
	char **names = NULL, **more;
	struct row *rows;
	struct dirent *d;
	int n = 0, i, k = 0;
	DIR *dir;

	dir = opendir(HTMM_SYSFS "/sessions");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || (only && strcmp(only, d->d_name)))
			continue;
		more = realloc(names, (n + 1) * sizeof(*names));
		if (!more)
			break;
		names = more;
		names[n++] = strdup(d->d_name);
	}
	closedir(dir);
	rows = calloc(n + 1, sizeof(*rows));
	if (!rows || read_row(&rows[k++], "total")) {
		i = errno;
		free(rows);
		rows = NULL;
		errno = i;
	}
	if (n)
		qsort(names, n, sizeof(names[0]), by_name);
	for (i = 0; i < n; i++) {
		/* A session that ended meanwhile is simply not shown. */
		if (rows && names[i] && !read_row(&rows[k], names[i]))
			k++;
		free(names[i]);
	}
	free(names);
	*out = rows;
	return rows ? k : -1;
}

static const struct row *find_row(const struct row *rows, int n,
				  const char *name)
{
	int i;

	for (i = 0; rows && i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

/* The counters the table shows without -v, of counters[]. */
static const bool brief[NR_COUNTERS] = {
	[0] = true, [1] = true, [3] = true, [4] = true, [6] = true, [7] = true,
};

/* A counter's column: its name without "nr_", at least 10 wide. */
static int width(size_t c)
{
	int w = strlen(counters[c] + 3);

	return w > 10 ? w : 10;
}

static void print_rows(const struct row *rows, int n, const struct row *prev,
		       int nprev, double dt, bool verbose)
{
	const struct row *p;
	int i;
	size_t c;

	/* Without -v, 8 + 6 * 11 + 2 * 11 columns: fits 100. */
	printf("%-8s", "session");
	for (c = 0; c < NR_COUNTERS; c++)
		if (verbose || brief[c])
			printf(" %*s", width(c), counters[c] + 3);
	if (prev)
		printf(" %10s %10s", "sampled/s", "lost/s");
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%-8s", rows[i].name);
		for (c = 0; c < NR_COUNTERS; c++)
			if (verbose || brief[c])
				printf(" %*llu", width(c), rows[i].v[c]);
		p = prev ? find_row(prev, nprev, rows[i].name) : NULL;
		if (p)
			printf(" %10.0f %10.0f", (rows[i].v[0] - p->v[0]) / dt,
			       (rows[i].v[3] - p->v[3]) / dt);
		printf("\n");
	}
	/* Tiering: what moved, and where each process's memory is now. */
	printf("\n%-8s %4s %10s %10s %10s %10s %10s  %s\n", "session", "tier",
	       "promoted", "demoted", "failed", "remigrated", "shifted",
	       "MiB per node");
	for (i = 0; i < n; i++) {
		char nodes[256] = "";

		if (strcmp(rows[i].name, "total") && strcmp(rows[i].name, "all"))
			mib_per_node(rows[i].name, nodes, sizeof(nodes));
		printf("%-8s %4s", rows[i].name, rows[i].tiering < 0 ? "-" :
		       rows[i].tiering ? "on" : "off");
		for (c = 0; c < NR_TIER; c++)
			printf(" %10llu", rows[i].t[c]);
		printf("  %s\n", nodes);
	}
	fflush(stdout);
}

/*
 * Every value of one directory (the totals: HTMM_SYSFS itself, or a
 * session's) at @t, as "t SEP name SEP key SEP value" lines (@sep), or as
 * one JSON object. Files of one number are numbers; of one word, strings;
 * others (hotness's 16 numbers) a string too; unreadable ones are left
 * out. -errno if the directory cannot be read.
 */
static int emit_values(const char *path, const char *name, double t,
		       const char *sep)
{
	char file[512], buf[256], *end;
	struct dirent *d;
	bool first = true;
	ssize_t n;
	DIR *dir;
	int fd;

	dir = opendir(path);
	if (!dir)
		return -errno;
	if (!sep)
		printf("{\"time\":%.3f,\"session\":\"%s\"", t, name);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type == DT_DIR)
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		fd = open(file, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		/* No sysfs value of htmm's has them; keep the JSON valid. */
		for (end = buf; *end; end++)
			if (*end == '"' || *end == '\\')
				*end = '\'';
		strtoll(buf, &end, 0);
		if (sep)
			printf("%.3f%s%s%s%s%s%s\n", t, sep, name, sep,
			       d->d_name, sep, buf);
		else if (*buf && !*end)
			printf(",\"%s\":%s", d->d_name, buf);
		else
			printf(",\"%s\":\"%s\"", d->d_name, buf);
		first = false;
	}
	closedir(dir);
	if (!sep)
		printf("}\n");
	return first ? -EACCES : 0;
}

/* stat -x / -j: the totals and each session (or @only), no cap. */
static int stat_values(const char *only, double interval, long count,
		       const char *sep)
{
	char path[512];
	struct dirent *d;
	double t0 = now(), t;
	long i;
	DIR *dir;
	int err;

	if (sep)
		printf("time%ssession%sname%svalue\n", sep, sep, sep);
	for (i = 0; !count || i < count; i++) {
		if (i)
			sleep_for(interval);
		t = now() - t0;
		err = emit_values(HTMM_SYSFS, "total", t, sep);
		if (err == -EACCES || err == -EPERM) {
			not_root(HTMM_SYSFS);
			return 1;
		}
		if (err) {
			report("cannot read " HTMM_SYSFS, -err);
			return 1;
		}
		if (only) {
			snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%s", only);
			if (emit_values(path, only, t, sep)) {
				fprintf(stderr, "htmmctl: no session %s\n", only);
				return 1;
			}
		} else {
			dir = opendir(HTMM_SYSFS "/sessions");
			while (dir && (d = readdir(dir))) {
				if (d->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%s",
					 d->d_name);
				/* A session that ended meanwhile is not shown. */
				emit_values(path, d->d_name, t, sep);
			}
			if (dir)
				closedir(dir);
		}
		fflush(stdout);
		if (!interval)
			break;
	}
	return 0;
}

static int cmd_stat(const char *only, double interval, long count, bool verbose)
{
	struct row *rows[2] = { NULL, NULL };
	struct bw_reading bw[2];
	int n[2] = { 0, 0 }, cur = 0, ret = 0;
	double t[2], tb;
	long i;

	for (i = 0; !count || i < count; i++) {
		if (i)
			sleep_for(interval);
		t[cur] = now();
		free(rows[cur]);
		n[cur] = read_rows(&rows[cur], only);
		if (n[cur] < 0 && (errno == EACCES || errno == EPERM)) {
			not_root(HTMM_SYSFS);
			ret = 1;
			break;
		}
		if (n[cur] < 0) {
			report("cannot read " HTMM_SYSFS, errno);
			ret = 1;
			break;
		}
		if (only && !find_row(rows[cur], n[cur], only)) {
			fprintf(stderr, "htmmctl: no session %s\n", only);
			ret = 1;
			break;
		}
		if (i)
			printf("\n");
		print_rows(rows[cur], n[cur], i ? rows[!cur] : NULL, n[!cur],
			   t[cur] - t[!cur], verbose);
		/*
		 * Bandwidth per node: once, two readings of ksamplingd apart
		 * (at least a second), to have a rate.
		 */
		tb = now();
		if (bw_read(&bw[cur]) && !interval) {
			sleep_for(bw_interval() * 2 > 1 ? bw_interval() * 2 : 1);
			bw_read(&bw[!cur]);
			bw_print(&bw[!cur], &bw[cur], now() - tb);
		} else {
			bw_print(&bw[cur], i ? &bw[!cur] : NULL, t[cur] - t[!cur]);
		}
		if (!interval)
			break;
		cur = !cur;
	}
	free(rows[0]);
	free(rows[1]);
	return ret;
}

/* Options of a new session (start, run, record). */
static bool tier;
static long fast_mib;
static const char *source;	/* -s, NULL: the global setting */
static long period = -1;	/* -p, -1: the global setting */

static const char *const sources[] = { "auto", "software", "pebs", "ibs", "abit" };

static int session_write(pid_t pid, const char *name, const char *val)
{
	char path[128], what[160];
	int fd, err = 0;

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s", pid, name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err) {
		snprintf(what, sizeof(what), "%s = %s", path, val);
		report(what, err);
	}
	return err;
}

/*
 * Set the global setting HTMM_SYSFS/@name to @val; with @old, first
 * keep its value there (for source, the word in brackets). 0, or 1 with
 * the reason on stderr.
 */
static int knob_set(const char *name, const char *val, char *old, size_t len)
{
	char path[128], buf[128], *b, *e;
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), HTMM_SYSFS "/%s", name);
	if (old) {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (n < 0)
			err = errno;
		if (fd >= 0)
			close(fd);
		if (!err) {
			buf[n] = '\0';
			b = strchr(buf, '[');
			b = b ? b + 1 : buf;
			e = b + strcspn(b, "]\n");
			*e = '\0';
			snprintf(old, len, "%s", b);
		}
	}
	if (!err) {
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, val, strlen(val)) < 0)
			err = errno;
		if (fd >= 0)
			close(fd);
	}
	if (err == EACCES || err == EPERM) {
		fprintf(stderr, "htmmctl: %s: root's only (mode 0644): run htmmctl as root to choose a session's %s\n",
			path, name);
		return 1;
	}
	if (err) {
		fprintf(stderr, "htmmctl: %s = %s: %s%s\n", path, val, strerror(err),
			err == EINVAL ? " (see htmmctl(8) for the values it takes)" : "");
		return 1;
	}
	return 0;
}

/*
 * Start a session for @pid (not 0), with --source and --period for it
 * alone (the global settings are put back at once: a start between
 * would use them too) and --fast-mib and --tier applied.
 */
static int start(pid_t pid, int node)
{
	char what[64], val[32], old_source[128], old_period[128];
	int ret = 0, err = 0;

	if (source && knob_set("source", source, old_source, sizeof(old_source)))
		return 1;
	snprintf(val, sizeof(val), "%ld", period);
	if (period >= 0 && knob_set("sample_period", val, old_period, sizeof(old_period))) {
		if (source)
			knob_set("source", old_source, NULL, 0);
		return 1;
	}
	if (htmm_start(pid, node))
		err = errno;
	if (period >= 0)
		ret |= knob_set("sample_period", old_period, NULL, 0);
	if (source)
		ret |= knob_set("source", old_source, NULL, 0);
	if (err) {
		snprintf(what, sizeof(what), "htmm_start(%d, %d)", pid, node);
		report(what, err);
		return 1;
	}
	snprintf(val, sizeof(val), "%ld", (fast_mib << 20) / sysconf(_SC_PAGESIZE));
	if ((fast_mib && session_write(pid, "fast_pages", val)) ||
	    (tier && session_write(pid, "tiering", "1"))) {
		htmm_end(pid);
		return 1;
	}
	return ret;
}

static int stop(pid_t pid)
{
	char what[64];

	if (!htmm_end(pid))
		return 0;
	snprintf(what, sizeof(what), "htmm_end(%d)", pid);
	report(what, errno);
	return 1;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Draw @h, @width columns (0: the terminal's) in rows of @bin seconds,
 * and write its TSV to @tsv (NULL: none); 0, or 1 if the TSV failed.
 */
static int heatmap_done(struct heatmap *h, FILE *out, int width, double bin,
			const char *tsv, const struct out *o)
{
	int err = heatmap_report(h, out, width ? width : terminal_width(), bin,
				 tsv, o);

	if (err) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", tsv, strerror(-err));
		return 1;
	}
	if (tsv && o->kind == OUT_HUMAN)
		fprintf(out, "heatmap: data in %s (plot: tools/htmm-plot %s OUT.png)\n",
			tsv, tsv);
	return 0;
}

/* A record file, opened for writing; NULL after saying why. */
static FILE *record_open(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

/* Close record file @f; 0, or 1 after saying why. */
static int record_close(FILE *f, const char *path)
{
	if (fclose(f)) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(stderr, "htmmctl: recorded in %s (htmmctl report %s heatmap|hot|placement)\n",
		path, path);
	return 0;
}

/* What run records besides the counters. */
struct run_rec {
	double interval;
	long count;		/* snapshots at most, 0: no limit */
	const char *tsv;	/* --heatmap */
	const char *file;	/* --record */
	bool quiet;		/* no counters every interval */
};

static int cmd_run(int node, const struct run_rec *rr, char **argv)
{
	double t0, next, next_read, last_read = 0, interval = rr->interval;
	const struct out human = { OUT_HUMAN, NULL };
	struct heatmap *heat = NULL;
	bool have_row = false;
	struct row r, last;
	int status, ret = 0, go[2], read_err = 0;
	long snaps = 0;
	FILE *rec = NULL;
	char name[32];
	pid_t child, w;
	size_t c;

	if (rr->file) {
		rec = record_open(rr->file);
		if (!rec)
			return 1;
	}
	if (pipe2(go, O_CLOEXEC)) {
		perror("htmmctl: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("htmmctl: fork");
		return 1;
	}
	if (!child) {
		char x;

		/* Wait for the session; no byte means it failed to start. */
		close(go[1]);
		if (read(go[0], &x, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "htmmctl: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (start(child, node)) {
		close(go[1]);
		waitpid(child, &status, 0);
		return 1;
	}
	if (rr->tsv || rec) {
		heat = heatmap_new(child);
		if (!heat || (rec && heatmap_record_to(heat, rec, rr->tsv))) {
			perror("htmmctl: record");
			close(go[1]);
			htmm_end(child);
			waitpid(child, &status, 0);
			return 1;
		}
		if (!interval)
			interval = 1;
	}
	snprintf(name, sizeof(name), "%d", child);
	/* A first reading before CMD runs: one that exits at once has it. */
	if (!read_row(&r, name)) {
		have_row = true;
		last_read = now();
	} else {
		read_err = errno;
	}
	t0 = now();
	if (write(go[1], "x", 1) != 1)
		perror("htmmctl: pipe");
	close(go[1]);
	/* Let the command take Ctrl-C; we still print the summary. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);

	memset(&last, 0, sizeof(last));
	next = t0 + interval;
	next_read = t0;
	for (;;) {
		/*
		 * The session ends with CMD: keep its last counters, read
		 * before looking whether CMD is done, so that even a CMD
		 * that exits at once has a reading.
		 */
		if (now() >= next_read) {
			if (!read_row(&r, name)) {
				have_row = true;
				last_read = now();
				next_read = last_read + 0.2;
			} else if (!have_row && !read_err) {
				read_err = errno;	/* the first says why */
			}
		}
		w = waitpid(child, &status, WNOHANG);
		if (w == child || (w < 0 && errno != EINTR))
			break;
		if (!interval || now() < next) {
			sleep_for(0.05);
			continue;
		}
		if (have_row && !rr->quiet) {
			fprintf(stderr, "htmmctl: %6.1f s  sampled %llu (+%.0f/s)  lost %llu  throttled %llu",
				now() - t0, r.v[0], (r.v[0] - last.v[0]) / interval,
				r.v[3], r.v[1]);
			if (r.tiering > 0)
				fprintf(stderr, "  promoted %llu  demoted %llu  failed %llu",
					r.t[0], r.t[1], r.t[2]);
			fputc('\n', stderr);
			last = r;
		}
		if (heat && (!rr->count || snaps < rr->count)) {
			int err = heatmap_snap(heat, now() - t0);

			if (err == -EACCES || err == -EPERM) {
				not_root(HTMM_DEBUGFS);
				ret = 1;
			} else if (err && err != -ENOENT && err != -EIO) {
				/* ENOENT, EIO: the session ended with CMD. */
				fprintf(stderr, "htmmctl: snapshot: %s\n", strerror(-err));
				ret = 1;
			}
			snaps++;
		}
		next += interval;
	}

	fprintf(stderr, "htmmctl: session of pid %s (%s), %.2f s:\n", name, argv[0],
		now() - t0);
	if (!have_row && (read_err == EACCES || read_err == EPERM)) {
		not_root("its counters");
		ret = 1;
	} else if (!have_row) {
		fprintf(stderr, "htmmctl: its counters could not be read: %s\n",
			strerror(read_err ? read_err : ENOENT));
		ret = 1;
	} else {
		fprintf(stderr, "htmmctl:   (counters as read %.2f s before the end)\n",
			now() - last_read);
		for (c = 0; c < NR_COUNTERS; c++)
			fprintf(stderr, "htmmctl:   %-16s %llu\n", counters[c], r.v[c]);
		for (c = 0; r.tiering > 0 && c < NR_TIER; c++)
			fprintf(stderr, "htmmctl:   %-16s %llu\n", tier_counters[c], r.t[c]);
	}
	/* Normally gone with CMD; ESRCH is the expected answer. */
	if (htmm_end(child) && errno != ESRCH) {
		report("htmm_end", errno);
		ret = 1;
	}
	if (rec)
		ret |= record_close(rec, rr->file);
	if (heat && rr->tsv)
		ret |= heatmap_done(heat, stderr, 0, 0, rr->tsv, &human);
	heatmap_free(heat);
	/* CMD's status first, as perf stat and time give it; else ours. */
	if (w != child)
		return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status))
		return WEXITSTATUS(status);
	return ret;
}

/*
 * Snapshots of @pid's session every @interval, @count times, until the
 * session ends or Ctrl-C, into @h. 0, or 1 if not even one was taken.
 */
static int snapshots(struct heatmap *h, pid_t pid, double interval, long count)
{
	bool tty = isatty(STDERR_FILENO);
	double t0, next;
	long i;
	int err = 0;

	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	t0 = now();
	next = t0;
	for (i = 0; (!count || i < count) && !interrupted; i++) {
		next += interval;
		while (now() < next && !interrupted)
			sleep_for(next - now() < 0.1 ? next - now() : 0.1);
		if (interrupted)
			break;
		err = heatmap_snap(h, now() - t0);
		if (err)
			break;
		if (tty && count)
			fprintf(stderr, "\rhtmmctl: pid %d: %ld/%ld", pid, i + 1, count);
		else if (tty)
			fprintf(stderr, "\rhtmmctl: pid %d: %ld", pid, i + 1);
	}
	if (tty)
		fputc('\n', stderr);
	if (err == -EACCES || err == -EPERM) {
		not_root(HTMM_DEBUGFS);
		return 1;
	}
	if (err && !i) {
		fprintf(stderr, "htmmctl: cannot read %s/%d/pages: %s%s\n", HTMM_DEBUGFS,
			pid, strerror(-err), err == -ENOENT ?
			" (no such session, or debugfs not mounted)" : "");
		return 1;
	}
	if (err)
		fprintf(stderr, "htmmctl: the session ended after %ld snapshots\n", i);
	return 0;
}

static int cmd_heatmap(pid_t pid, double interval, long count, const char *tsv,
		       const struct out *o)
{
	struct heatmap *h = heatmap_new(pid);
	char def[64];
	int ret;

	if (!h) {
		perror("htmmctl: heatmap");
		return 1;
	}
	if (!tsv) {
		snprintf(def, sizeof(def), "heatmap-%d.tsv", pid);
		tsv = def;
	}
	ret = snapshots(h, pid, interval, count);
	if (!ret)
		ret = heatmap_done(h, stdout, 0, 0, tsv, o);
	heatmap_free(h);
	return ret;
}

/* record PID: its session's, or one started here for the recording. */
static int cmd_record(pid_t pid, int node, double interval, long count,
		      const char *path)
{
	struct heatmap *h = heatmap_new(pid);
	char dir[64];
	bool started = false;
	FILE *f;
	int ret;

	snprintf(dir, sizeof(dir), HTMM_SYSFS "/sessions/%d", pid);
	if (!h) {
		perror("htmmctl: record");
		return 1;
	}
	if (access(dir, F_OK)) {
		if (start(pid, node)) {
			heatmap_free(h);
			return 1;
		}
		started = true;
	}
	f = record_open(path);
	ret = !f || heatmap_record_to(h, f, false);
	if (!ret)
		ret = snapshots(h, pid, interval, count);
	if (f)
		ret |= record_close(f, path);
	if (started)
		htmm_end(pid);
	heatmap_free(h);
	return ret;
}

static const char *const views[] = { "heatmap", "hot", "placement" };

/* The parsed command line. */
struct args {
	int node;
	double interval, at;
	long count, rows, width;
	const char *output, *heatmap, *record;
	struct out out;
	bool verbose;
	pid_t pid;
	bool have_pid;
	const char *file, *view;	/* report */
	char **rest;		/* run, record: CMD and its arguments */
};

static int cmd_report(const struct args *a)
{
	struct heatmap *h;
	long line;
	int err, ret;

	h = heatmap_load(a->file, &err, &line);
	if (!h && err == -EINVAL) {
		fprintf(stderr, "htmmctl: %s:%ld: not an htmm record file (htmmctl record writes them)\n",
			a->file, line);
		return 1;
	}
	if (!h) {
		fprintf(stderr, "htmmctl: cannot read %s: %s\n", a->file, strerror(-err));
		return 1;
	}
	if (!heatmap_nr_snaps(h) && a->out.kind == OUT_HUMAN)
		fprintf(stderr, "htmmctl: %s holds no snapshot with a tracked page\n",
			a->file);
	if (!strcmp(a->view, "hot")) {
		ret = heatmap_nr_snaps(h) ?
		      heatmap_hot(h, a->rows ? a->rows : 20, a->at, &a->out) : 1;
	} else if (!strcmp(a->view, "placement")) {
		ret = heatmap_placement(h, a->output, &a->out);
	} else {
		ret = heatmap_done(h, stdout, a->width, a->interval, a->output,
				   &a->out);
	}
	heatmap_free(h);
	return ret;
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The option as the user typed it, for messages. */
static const char *opt_name(int c, char *buf, size_t len)
{
	size_t i;

	for (i = 0; long_opts[i].name; i++)
		if (long_opts[i].val == c) {
			snprintf(buf, len, "--%s", long_opts[i].name);
			return buf;
		}
	snprintf(buf, len, "-%c", c);
	return buf;
}

/* @s is one of the @n words of @set. */
static bool one_of(const char *s, const char *const *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, set[i]))
			return true;
	return false;
}

static double parse_at(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= 0))
		bad_usage("invalid value '%s' for --at: seconds from the recording's start",
			  s);
	return v;
}

/* Parse the options and arguments of command @cur in @argv. */
static void parse(int argc, char **argv, struct args *a)
{
	static const char opts[] = ":n:tf:s:p:i:c:N:o:r:w:x:jvhV";
	/* run and record stop at CMD; the others take options around PID. */
	bool cmd = !strcmp(cur->name, "run") || !strcmp(cur->name, "record");
	char optstring[sizeof(opts) + 1], name[32];
	int c;

	snprintf(optstring, sizeof(optstring), "%s%s", cmd ? "+" : "", opts);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, optstring, long_opts, NULL)) != -1) {
		if (c == '?') {
			if (optopt)
				bad_usage("unknown option '-%c'", optopt);
			bad_usage("unknown option '%s'", argv[optind - 1]);
		}
		if (c == ':')
			bad_usage("option '%s' needs a value", argv[optind - 1]);
		if (c == 'h') {
			command_usage(cur, stdout);
			exit(0);
		}
		if (c == 'V') {
			printf("htmmctl %s\n", HTMMCTL_VERSION);
			exit(0);
		}
		if (!strchr(cur->opts, c))
			bad_usage("option '%s' is not one of %s's",
				  opt_name(c, name, sizeof(name)), cur->name);
		switch (c) {
		case 'n':
			a->node = parse_long(optarg, "--node", -1, 0x7fffffff);
			break;
		case 't':
			tier = true;
			break;
		case 'f':
			fast_mib = parse_long(optarg, "--fast-mib", 1, 1L << 30);
			break;
		case 's':
			if (!one_of(optarg, sources, sizeof(sources) / sizeof(sources[0])))
				bad_usage("invalid value '%s' for --source: auto, software, pebs, ibs or abit",
					  optarg);
			source = optarg;
			break;
		case 'p':
			period = parse_long(optarg, "--period", 0, 0x7fffffffffffffffL);
			break;
		case 'i':
			a->interval = parse_seconds(optarg);
			break;
		case 'c':
			a->count = parse_long(optarg, "--count", 1, 0x7fffffff);
			break;
		case 'N':
			a->rows = parse_long(optarg, "--rows", 1, 0x7fffffff);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'r':
			a->record = optarg;
			break;
		case 'H':
			a->heatmap = optarg;
			break;
		case 'w':
			a->width = parse_long(optarg, "--width", 20, 100000);
			break;
		case 'A':
			a->at = parse_at(optarg);
			break;
		case 'x':
			if (!*optarg)
				bad_usage("--field-separator needs a separator");
			if (a->out.kind == OUT_JSON)
				bad_usage("-x and -j: one output format at a time");
			a->out = (struct out){ OUT_SEP, optarg };
			break;
		case 'j':
			if (a->out.kind == OUT_SEP)
				bad_usage("-x and -j: one output format at a time");
			a->out.kind = OUT_JSON;
			break;
		case 'v':
			a->verbose = true;
			break;
		}
	}
	if (!strcmp(cur->name, "run")) {
		a->rest = argv + optind;
		if (optind >= argc)
			bad_usage("no command to run: htmmctl run [OPTIONS] -- CMD [ARGS...]");
		return;
	}
	if (!strcmp(cur->name, "record")) {
		if (optind >= argc)
			bad_usage("what to record? htmmctl %s", cur->synopsis);
		/* A number alone, not after "--", is a PID; else CMD. */
		if (optind == argc - 1 && strcmp(argv[optind - 1], "--") &&
		    argv[optind][strspn(argv[optind], "0123456789")] == '\0') {
			a->pid = parse_pid(argv[optind]);
			a->have_pid = true;
		} else {
			a->rest = argv + optind;
		}
		return;
	}
	if (!strcmp(cur->name, "report")) {
		if (argc - optind != 2)
			bad_usage("which file and which view? htmmctl %s", cur->synopsis);
		a->file = argv[optind];
		a->view = argv[optind + 1];
		if (!one_of(a->view, views, sizeof(views) / sizeof(views[0])))
			bad_usage("unknown view '%s'; one of heatmap, hot, placement",
				  a->view);
		return;
	}
	if (optind < argc) {
		a->pid = parse_pid(argv[optind++]);
		a->have_pid = true;
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
}

#define COMMAND_NAMES	"start, stop, run, stat, hot, heatmap, record, report"

int main(int argc, char **argv)
{
	struct args a = { .node = -1, .at = 1e300 };
	struct run_rec rr = { 0 };

	if (argc < 2)
		bad_usage("no command; one of " COMMAND_NAMES);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("htmmctl %s\n", HTMMCTL_VERSION);
		return 0;
	}
	cur = find_command(argv[1]);
	if (!cur)
		bad_usage("unknown command '%s'; one of " COMMAND_NAMES, argv[1]);
	parse(argc - 1, argv + 1, &a);

	if (tier && a.node < 0)
		bad_usage("--tier needs --node NODE: the fast node to promote to");
	if (a.count && !a.interval && !strcmp(cur->name, "stat"))
		bad_usage("--count needs --interval");
	if ((tier || fast_mib) && a.have_pid && a.pid < 0)
		bad_usage("--tier and --fast-mib need a process, not 'all'");
	if (!strcmp(cur->name, "report"))
		return cmd_report(&a);
	if (!strcmp(cur->name, "run")) {
		rr = (struct run_rec){ a.interval, 0, a.heatmap, a.record, false };
		return cmd_run(a.node, &rr, a.rest);
	}
	if (!strcmp(cur->name, "record") && a.rest) {
		rr = (struct run_rec){ a.interval ? a.interval : 1, a.count, NULL,
				       a.output ? a.output : "htmm.rec", true };
		return cmd_run(a.node, &rr, a.rest);
	}
	if (!strcmp(cur->name, "stat")) {
		char only[32] = "all";

		if (a.have_pid && a.pid > 0)
			snprintf(only, sizeof(only), "%d", a.pid);
		if (a.out.kind != OUT_HUMAN)
			return stat_values(a.have_pid ? only : NULL, a.interval,
					   a.count, a.out.kind == OUT_SEP ? a.out.sep : NULL);
		return cmd_stat(a.have_pid ? only : NULL, a.interval, a.count,
				a.verbose);
	}
	if (!a.have_pid)
		bad_usage("which process? htmmctl %s", cur->synopsis);
	if (!strcmp(cur->name, "start"))
		return start(a.pid, a.node);
	if (!strcmp(cur->name, "stop"))
		return stop(a.pid);
	if (a.pid < 0)
		bad_usage("%s needs a process's PID, not 'all'", cur->name);
	if (!strcmp(cur->name, "hot"))
		return heat_hot(a.pid, a.rows ? a.rows : 20, &a.out);
	if (!strcmp(cur->name, "record"))
		return cmd_record(a.pid, a.node, a.interval ? a.interval : 1, a.count,
				  a.output ? a.output : "htmm.rec");
	return cmd_heatmap(a.pid, a.interval ? a.interval : 1,
			   a.count ? a.count : 10, a.output, &a.out);
}
