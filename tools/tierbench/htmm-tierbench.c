// SPDX-License-Identifier: GPL-2.0
/*
 * htmm-tierbench - one tiering system on one workload, in the guest.
 *
 * usage: htmm-tierbench --system none|htmm|numab|damon [--variant V]
 *                       [--seconds S] [--hot-mib M] [--seed N]
 *                       [--skew A] [--size X] [--verbose] [-o FILE.json]
 *
 * Node 0's room is its free memory above the zones' high watermarks when
 * the program starts (below them kswapd reclaims, and NUMA balancing
 * does not promote there either). The variants (default stable):
 *   stable     node 0 first filled with cold data (all its free memory
 *              but a margin), so that every promotion needs a demotion;
 *              a hot set of M MiB (default 64) on node 1, swept by one
 *              thread
 *   moving     the same; the sweep moves to a second hot set, also on
 *              node 1, half-way
 *   zipf-0.8, zipf-0.99, zipf-1.2
 *              1.25x node 0's memory in 4 KiB pages (more than its
 *              room; rounded up to 32 MiB), interleaved over nodes 0
 *              and 1; one thread adds to a random word of a page drawn
 *              from a Zipf distribution of that skew over the pages in a
 *              random order (hot pages scattered, as in a hash table);
 *              an alias table draws a page in constant time
 *   zipf-phase zipf-0.99, the order drawn again half-way
 *   gups-hotset
 *              node 0's memory / 0.6 in 4 KiB pages (ditto); random
 *              8-byte updates, 90% of them to a hot set of 20% of the
 *              pages, contiguous, the
 *              rest to the others; the hot set starts on node 1, with
 *              the part it moves to half-way, the other pages fill the
 *              room on node 0
 *   gups-scattered
 *              the same, the hot pages scattered (a random permutation)
 *   thp        zipf-0.99 on memory madvised MADV_HUGEPAGE (THP enabled
 *              set to madvise if it was never): popularity per 4 KiB
 *              page, placement per 2 MiB page, interleaved per huge page
 * The tenant variants run several processes (tenants), each with its
 * own set and one thread doing random 8-byte updates over it as fast as
 * it can, arriving at the start or at a third or two thirds of the run;
 * node 0 is shared. Sizes are for a node 0 of 512 MiB, scaled with its
 * MemTotal (to 128 MiB). "Node 0 first": bound to node 0 as far as its
 * room goes (less ROOM_SLACK pages), the rest to node 1:
 *   tenant-noisy  A 448 MiB uniform, node 0 first; B 128 MiB uniform on
 *                 node 1 at a third
 *   tenant-late   A 320 MiB Zipf 0.8, node 0 first; B 192 MiB Zipf 0.99
 *                 on node 1 at a third; C 64 MiB uniform on node 1 at two
 *                 thirds
 *   tenant-equal  A and B 320 MiB uniform each, from the start, each
 *                 interleaved (half its pages on node 0)
 *   tenant-guard  G 128 MiB uniform on node 0, its thread busy 1/8 of the
 *                 time, its pages guaranteed on node 0 (htmm:
 *                 fast_min_pages, where the kernel has it); N 384 MiB
 *                 uniform on node 1 at a third
 * Each tenant's rate R is its updates over the last 5 s; the score is
 * the hit rate (the sum over tenants of R times the probability of its
 * pages on node 0) against the best placement's (the pages of the
 * highest R x probability that fit the room when the first tenant
 * arrives); the minimum of migrations counts from the last arrival.
 * --skew A sets the Zipf skew of zipf-* and thp (0.1 to 3); --size X
 * the set's size, X times node 0's memory (0.5 to 4) in place of the
 * variant's 1.25 (zipf, thp) or 1/0.6 (gups). Where node 1 cannot hold
 * the pages bound to it, the program says so and exits with 1 (a set of
 * 2 needs a larger node 1: tools/vm-run --node-mib 512:1536). --skew
 * and --size leave the tenant variants alone.
 * The system under test:
 *   none   nothing moves pages
 *   htmm   an htmm session on this process, node 0, abit, tiering on
 *   numab  NUMA balancing's tiering mode (numa_balancing=2,
 *          demotion_enabled=1)
 *   damon  DAMON on physical addresses: a kdamond migrating cold pages of
 *          node 0 to node 1 (young pages filtered out), one migrating hot
 *          pages of node 1 to node 0 (pages not young filtered out),
 *          quotas of 64 MiB/s each
 *
 * Every second, move_pages(2) tells the node of every page of the set.
 * The hit share is the sum of the access probabilities of the pages on
 * node 0; the best placement's is that of the most probable pages that
 * fit the room (huge pages for thp). Its JSON: the share against the
 * best's, per second; the times to 90% and 95% of it (and again after a
 * change half-way); the final share (mean of the last 10 s, and of the
 * 10 s before a change); the pages migrated (pgmigrate_success) against
 * the fewest that could do (the pages of the best placement that are
 * not on node 0 at the start, plus after a change the new ones, and as
 * many pages of node 0 as must leave to make room for them: both
 * directions count in pgmigrate_success); the CPU
 * of the system threads (ksamplingd, khtmm_tierd, kdamond.*, kswapd*,
 * kworker/N, khugepaged, kcompactdN) and the workload thread's own.
 * --verbose adds, every second, for every system: the set's pages on
 * node 0, and how many of the best placement's pages are not there; and
 * for htmm: the session's hotness histogram, hot threshold, pages
 * promoted and demoted, page-table entries scanned and passes that
 * started afresh (nr_shifted) so far.
 * Exit status: 0, 1 if the set-up failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <signal.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "../../selftests/htmm/htmm_util.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DAMON		"/sys/kernel/mm/damon/admin/kdamonds"
#define THP		"/sys/kernel/mm/transparent_hugepage/enabled"
#define MARGIN_MIB	48	/* of node 0 left free for the kernel (stable, moving) */
#define ROOM_SLACK	2048	/* pages of the room gups leaves free */
#define SET_ROUND	8192	/* zipf, gups, thp: pages in 32 MiB */
#define MAX_SECONDS	600
#define HUGE_PAGES	512	/* base pages per PMD page */
#define MPOL_DEFAULT_	0
#define MPOL_BIND_	2
#define COIN_BITS	23	/* precision of the alias table's coin */

static const char *const systems[] = { "none", "htmm", "numab", "damon" };
static double skew_opt, size_opt;	/* --skew, --size; 0: the variant's */

enum kind { SWEEP, ZIPF, GUPS, TENANTS };

enum place { ON_NODE0, ON_NODE1, INTERLEAVED };

/*
 * A tenant: a process of its own with a set of @mib MiB (for a node 0 of
 * 512 MiB, scaled with it), used uniformly or by a Zipf of @skew, placed
 * as @place says when it arrives, at @at thirds of the run; its one
 * thread busy 1 in @pace of the time; @guard: its pages guaranteed on
 * node 0 (htmm's fast_min_pages).
 */
struct tenant_def {
	const char *name;
	int mib;
	double skew;		/* 0: uniform */
	enum place place;
	int at;
	int pace;
	int guard;
};

#define MAX_TENANTS	4
#define TENANT_EPS	0.05	/* values within 5% count as equal in a tenant's best */
#define RATE_WINDOW	5	/* seconds a tenant's rate is measured over */

static const struct tenant_def noisy[] = {
	{ "A", 448, 0,    ON_NODE0,    0, 1, 0 },
	{ "B", 128, 0,    ON_NODE1,    1, 1, 0 },
};
static const struct tenant_def late[] = {
	{ "A", 320, 0.8,  ON_NODE0,    0, 1, 0 },
	{ "B", 192, 0.99, ON_NODE1,    1, 1, 0 },
	{ "C", 64,  0,    ON_NODE1,    2, 1, 0 },
};
static const struct tenant_def equal[] = {
	{ "A", 320, 0,    INTERLEAVED, 0, 1, 0 },
	{ "B", 320, 0,    INTERLEAVED, 0, 1, 0 },
};
static const struct tenant_def guarded[] = {
	{ "G", 128, 0,    ON_NODE0,    0, 8, 1 },
	{ "N", 384, 0,    ON_NODE1,    1, 1, 0 },
};

static const struct variant {
	const char *name;
	enum kind kind;
	double skew;		/* zipf */
	int phase;		/* the popularity changes half-way */
	int scattered;		/* gups: hot pages by a permutation */
	int thp;
	const struct tenant_def *tenants;
	int nr_tenants;
} variants[] = {
	{ "stable",		SWEEP,	0,	0, 0, 0, NULL, 0 },
	{ "moving",		SWEEP,	0,	1, 0, 0, NULL, 0 },
	{ "zipf-0.8",		ZIPF,	0.8,	0, 0, 0, NULL, 0 },
	{ "zipf-0.99",		ZIPF,	0.99,	0, 0, 0, NULL, 0 },
	{ "zipf-1.2",		ZIPF,	1.2,	0, 0, 0, NULL, 0 },
	{ "zipf-phase",		ZIPF,	0.99,	1, 0, 0, NULL, 0 },
	{ "gups-hotset",	GUPS,	0,	1, 0, 0, NULL, 0 },
	{ "gups-scattered",	GUPS,	0,	1, 1, 0, NULL, 0 },
	{ "thp",		ZIPF,	0.99,	0, 0, 1, NULL, 0 },
	{ "tenant-noisy",	TENANTS, 0,	0, 0, 0, noisy, ARRAY_SIZE(noisy) },
	{ "tenant-late",	TENANTS, 0,	0, 0, 0, late, ARRAY_SIZE(late) },
	{ "tenant-equal",	TENANTS, 0,	0, 0, 0, equal, ARRAY_SIZE(equal) },
	{ "tenant-guard",	TENANTS, 0,	0, 0, 0, guarded, ARRAY_SIZE(guarded) },
};

/* Kernel threads whose CPU time is reported, by the start of their name. */
static const char *const kthreads[] = {
	"ksamplingd", "khtmm_tierd", "kdamond", "kswapd", "kworker",
	"khugepaged", "kcompactd",
};
#define NR_DAEMONS	4	/* the first four are the systems' own */

struct bench {
	const struct variant *v;
	size_t n;		/* pages in the set */
	char *base;		/* zipf, gups: the set; page i at base + i pages */
	char *sets[2];		/* sweep: the hot set of each phase */
	size_t hot;		/* sweep, gups: pages of a hot set */
	void **addr;		/* of each page, for move_pages */
	void **heads;		/* thp: of each huge page */
	int *status, *prev;	/* node of each page, this second and the last */
	double *prob[2];	/* access probability of each page, per phase */
	size_t unit;		/* pages placed as one: 1, or HUGE_PAGES */
	size_t room;		/* node 0's room, pages */
	double best[2];		/* the best placement's hit share, per phase */
	double edge[2];		/* the lowest unit probability in it */
	size_t above[2];	/* units in it more probable than edge */
	/* the workload */
	uint32_t *perm[2];	/* zipf: page of each rank; gups: of each slot */
	uint32_t *thr, *alias;	/* zipf: alias table over the ranks */
	size_t hot_at[2];	/* gups: first slot of the hot set */
	int phase;		/* read by the worker */
	int stop;
	unsigned long long done;/* accesses, published by the worker */
	pid_t tid;		/* the worker's */
	uint64_t seed;
};

static void die(const char *what)
{
	fprintf(stderr, "htmm-tierbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("calloc");
	return p;
}

static void put(const char *path, const char *val)
{
	if (write_file(path, val)) {
		fprintf(stderr, "htmm-tierbench: cannot write %s to %s\n", val, path);
		exit(1);
	}
}

static void putf(const char *val, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	put(path, val);
}

/* @pages pages placed on @node (pages_on()), or exit. */
static char *place(size_t pages, int node)
{
	char *p = pages_on(pages, node);

	if (!p)
		die("placing pages");
	return p;
}

static void set_policy(int mode, unsigned long mask)
{
	if (syscall(SYS_set_mempolicy, mode, mode ? &mask : NULL,
		    mode ? 8 * sizeof(mask) : 0))
		die("set_mempolicy");
}

/* xorshift64*: one 64-bit draw; the high bits are the best. */
static inline uint64_t rnd(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

/* A number in [0, @n) from the high 32 bits of @r. */
static inline uint32_t below(uint64_t r, uint32_t n)
{
	return (uint32_t)(((r >> 32) * n) >> 32);
}

static void shuffle(uint32_t *a, size_t n, uint64_t *x)
{
	size_t i, j;
	uint32_t t;

	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = below(rnd(x), i + 1);
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

/*
 * Alias table (Vose) for the distribution @p over @n outcomes: draw a
 * column c uniformly, take c if a coin of COIN_BITS bits is below thr[c],
 * else alias[c].
 */
static void alias_build(const double *p, size_t n, uint32_t *thr, uint32_t *alias)
{
	double *q = xcalloc(n, sizeof(*q));
	uint32_t *small = xcalloc(n, sizeof(*small)), *large = xcalloc(n, sizeof(*large));
	size_t ns = 0, nl = 0, i;
	uint32_t s, l;

	for (i = 0; i < n; i++) {
		q[i] = p[i] * n;
		if (q[i] < 1)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while (ns && nl) {
		s = small[--ns];
		l = large[nl - 1];
		thr[s] = (uint32_t)(q[s] * (1 << COIN_BITS) + 0.5);
		alias[s] = l;
		q[l] -= 1 - q[s];
		if (q[l] < 1) {
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left has probability 1 up to rounding. */
	while (nl) {
		l = large[--nl];
		thr[l] = 1 << COIN_BITS;
		alias[l] = l;
	}
	while (ns) {
		s = small[--ns];
		thr[s] = 1 << COIN_BITS;
		alias[s] = s;
	}
	free(q);
	free(small);
	free(large);
}

#define LN2	0.69314718055994530942

/* @x to the power -@s, for x >= 1, s >= 0 (no libm in a static tool). */
static double pow_neg(double x, double s)
{
	double m = x, z, z2, term, ln, y, f, e = 1;
	int k, i, ex = 0;

	while (m >= 2) {
		m /= 2;
		ex++;
	}
	/* ln m = 2 atanh((m - 1) / (m + 1)), m in [1, 2) */
	z = (m - 1) / (m + 1);
	z2 = z * z;
	term = z;
	ln = 0;
	for (i = 1; i < 60; i += 2) {
		ln += term / i;
		term *= z2;
	}
	y = -s * (2 * ln + ex * LN2);
	/* e^y = 2^k e^f, |f| < ln 2 */
	k = (int)(y / LN2);
	f = y - k * LN2;
	term = 1;
	for (i = 1; i < 30; i++) {
		term *= f / i;
		e += term;
	}
	for (; k < 0; k++)
		e /= 2;
	for (; k > 0; k--)
		e *= 2;
	return e;
}

static void publish(struct bench *b, unsigned long long done)
{
	__atomic_store_n(&b->done, done, __ATOMIC_RELAXED);
}

static void *sweeper(void *arg)
{
	struct bench *b = arg;
	unsigned long long done = 0;
	size_t i;
	char *p;

	STORE(b->tid, gettid());
	while (!LOAD(b->stop)) {
		p = b->sets[LOAD(b->phase)];
		for (i = 0; i < b->hot; i++)
			p[i * page_size]++;
		done += b->hot;
		publish(b, done);
	}
	return NULL;
}

static void *zipf_worker(void *arg)
{
	struct bench *b = arg;
	const uint32_t *thr = b->thr, *alias = b->alias, *perm;
	unsigned long long done = 0;
	uint32_t n = b->n, col, rank;
	uint64_t x = b->seed * 0x9e3779b97f4a7c15ULL | 1, r;
	int k;

	STORE(b->tid, gettid());
	while (!LOAD(b->stop)) {
		perm = b->perm[LOAD(b->phase)];
		for (k = 0; k < 65536; k++) {
			r = rnd(&x);
			col = below(r, n);
			rank = ((r >> 9) & ((1 << COIN_BITS) - 1)) < thr[col] ? col : alias[col];
			((uint64_t *)(b->base + (size_t)perm[rank] * page_size))[r & 511]++;
		}
		done += k;
		publish(b, done);
	}
	return NULL;
}

static void *gups_worker(void *arg)
{
	struct bench *b = arg;
	const uint32_t *perm = b->perm[0];
	unsigned long long done = 0;
	uint32_t n = b->n, hot = b->hot, cold = n - hot, at, slot, page;
	uint32_t hot_coin = (uint32_t)(0.9 * (1 << COIN_BITS));
	uint64_t x = b->seed * 0x9e3779b97f4a7c15ULL | 1, r;
	int k;

	STORE(b->tid, gettid());
	while (!LOAD(b->stop)) {
		at = b->hot_at[LOAD(b->phase)];
		for (k = 0; k < 65536; k++) {
			r = rnd(&x);
			if (((r >> 9) & ((1 << COIN_BITS) - 1)) < hot_coin) {
				slot = at + below(r, hot);
			} else {
				slot = below(r, cold);
				slot += slot >= at ? hot : 0;
			}
			page = perm ? perm[slot] : slot;
			((uint64_t *)(b->base + (size_t)page * page_size))[r & 511] ^= r;
		}
		done += k;
		publish(b, done);
	}
	return NULL;
}

static long long vmstat(const char *key)
{
	char buf[16384], *s;
	size_t len = strlen(key);

	if (read_file("/proc/vmstat", buf, sizeof(buf)))
		return -1;
	for (s = buf; s; s = strchr(s, '\n')) {
		if (*s == '\n')
			s++;
		if (!strncmp(s, key, len) && s[len] == ' ')
			return strtoll(s + len + 1, NULL, 10);
	}
	return 0;
}

/* Free pages of node @nid. */
static long node_free_pages(int nid)
{
	char path[64], buf[4096], *s;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	s = strstr(buf, "MemFree:");
	return s ? strtol(s + 8, NULL, 10) / (page_size / 1024) : -1;
}

/* Pages of the high watermarks of node @nid's zones, from /proc/zoneinfo. */
static long node_high_pages(int nid)
{
	char line[256];
	long high = 0, v;
	int node = -1;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d,", &node) == 1)
			continue;
		if (node == nid && sscanf(line, " high %ld", &v) == 1)
			high += v;
	}
	fclose(f);
	return high;
}

/* Node 0's free pages above its high watermarks. */
static long room_now(void)
{
	long free0 = node_free_pages(0), high0 = node_high_pages(0);

	if (free0 < 0 || high0 < 0)
		die("node 0 meminfo, /proc/zoneinfo");
	return free0 > high0 ? free0 - high0 : 0;
}

/* CPU ticks (user + system) in /proc/@dir/stat, and the name in @comm. */
static long long stat_ticks(const char *dir, char *comm, size_t len, long long *sys)
{
	char path[300], buf[1024], *c, *e;
	unsigned long long ut, st;

	snprintf(path, sizeof(path), "/proc/%s/stat", dir);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	c = strchr(buf, '(');
	e = strrchr(buf, ')');
	if (!c || !e)
		return -1;
	if (comm) {
		snprintf(comm, len, "%.*s", (int)(e - c - 1), c + 1);
	}
	if (sscanf(e + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &ut, &st) != 2)
		return -1;
	if (sys)
		*sys = st;
	return ut + st;
}

struct kthread_cpu {
	int pid;
	int cls;
	long long ticks;
};

/* The CPU ticks of every reported kernel thread now; returns how many. */
static int kthreads_snapshot(struct kthread_cpu *t, int max)
{
	struct dirent *d;
	char comm[64];
	long long ticks;
	DIR *dir = opendir("/proc");
	int n = 0, c;

	if (!dir)
		die("/proc");
	while ((d = readdir(dir)) && n < max) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		ticks = stat_ticks(d->d_name, comm, sizeof(comm), NULL);
		if (ticks < 0)
			continue;
		for (c = 0; c < (int)ARRAY_SIZE(kthreads); c++)
			if (!strncmp(comm, kthreads[c], strlen(kthreads[c])))
				break;
		if (c == (int)ARRAY_SIZE(kthreads))
			continue;
		t[n].pid = atoi(d->d_name);
		t[n].cls = c;
		t[n].ticks = ticks;
		n++;
	}
	closedir(dir);
	return n;
}

/* Seconds per class from @a (before, @na) to @z (after, @nz). */
static void kthreads_delta(const struct kthread_cpu *a, int na,
			   const struct kthread_cpu *z, int nz, double *sec)
{
	long long before;
	int i, j;

	for (i = 0; i < nz; i++) {
		before = 0;
		for (j = 0; j < na; j++)
			if (a[j].pid == z[i].pid) {
				before = a[j].ticks;
				break;
			}
		sec[z[i].cls] += (double)(z[i].ticks - before) / sysconf(_SC_CLK_TCK);
	}
}

/* The worker thread's system and user CPU ticks. */
static void thread_ticks(pid_t tid, long long *sys, long long *user)
{
	char dir[64];
	long long all;

	snprintf(dir, sizeof(dir), "self/task/%d", tid);
	all = stat_ticks(dir, NULL, 0, sys);
	if (all < 0)
		die("thread stat");
	*user = all - *sys;
}

/*
 * The physical range of node @nid's memory, from the boot log line
 * "Initmem setup node N [mem 0xA-0xB]" (memory block directories need
 * memory hotplug, which the guest lacks).
 */
static int node_range(int nid, unsigned long long *start, unsigned long long *end)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char key[64], *buf, *s;
	int ret = -1;

	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len > 0) {
		buf[len] = '\0';
		snprintf(key, sizeof(key), "Initmem setup node %d [mem ", nid);
		s = strstr(buf, key);
		if (s && sscanf(s + strlen(key), "%llx-%llx", start, end) == 2) {
			(*end)++;
			ret = 0;
		}
	}
	free(buf);
	return ret;
}

/* kdamond @k: @action on node @nid's memory, to @target, filtering young pages out or in. */
static void damon_kdamond(int k, int nid, const char *action, int target,
			  const char *nr_min, const char *nr_max,
			  const char *age_min, const char *young_matching)
{
	unsigned long long start, end;
	char v[64];
	const char *c = DAMON "/%d/contexts/0/%s";

	if (node_range(nid, &start, &end))
		die("node memory range");
	putf("1", DAMON "/%d/contexts/nr_contexts", k);
	putf("paddr", c, k, "operations");
	putf("5000", c, k, "monitoring_attrs/intervals/sample_us");
	putf("100000", c, k, "monitoring_attrs/intervals/aggr_us");
	putf("1000000", c, k, "monitoring_attrs/intervals/update_us");
	putf("1", c, k, "targets/nr_targets");
	putf("1", c, k, "targets/0/regions/nr_regions");
	snprintf(v, sizeof(v), "%llu", start);
	putf(v, c, k, "targets/0/regions/0/start");
	snprintf(v, sizeof(v), "%llu", end);
	putf(v, c, k, "targets/0/regions/0/end");
	putf("1", c, k, "schemes/nr_schemes");
	putf(action, c, k, "schemes/0/action");
	snprintf(v, sizeof(v), "%d", target);
	putf(v, c, k, "schemes/0/target_nid");
	/* Every range defaults to 0..0 in DAMON's sysfs: set both ends. */
	putf("0", c, k, "schemes/0/access_pattern/sz/min");
	putf("18446744073709551615", c, k, "schemes/0/access_pattern/sz/max");
	putf(nr_min, c, k, "schemes/0/access_pattern/nr_accesses/min");
	putf(nr_max, c, k, "schemes/0/access_pattern/nr_accesses/max");
	putf(age_min, c, k, "schemes/0/access_pattern/age/min");
	putf("4294967295", c, k, "schemes/0/access_pattern/age/max");
	putf("67108864", c, k, "schemes/0/quotas/bytes");
	putf("1000", c, k, "schemes/0/quotas/reset_interval_ms");
	/*
	 * Where the quota binds, the regions that go first: the hottest
	 * for migrate_hot, the coldest for migrate_cold, by access rate
	 * and age (all weights default to 0: regions in address order).
	 */
	putf("0", c, k, "schemes/0/quotas/weights/sz_permil");
	putf("100", c, k, "schemes/0/quotas/weights/nr_accesses_permil");
	putf("100", c, k, "schemes/0/quotas/weights/age_permil");
	putf("1", c, k, "schemes/0/filters/nr_filters");
	putf("young", c, k, "schemes/0/filters/0/type");
	putf(young_matching, c, k, "schemes/0/filters/0/matching");
}

static void start_system(const char *sys)
{
	char val[128];

	if (!strcmp(sys, "htmm")) {
		put(HTMM_SYSFS "/source", "abit");
		if (htmm_start(0, 0))
			die("htmm_start");
		snprintf(val, sizeof(val), HTMM_SYSFS "/sessions/%d/tiering", getpid());
		put(val, "1");
	} else if (!strcmp(sys, "numab")) {
		put("/sys/kernel/mm/numa/demotion_enabled", "1");
		put("/proc/sys/kernel/numa_balancing", "2");
	} else if (!strcmp(sys, "damon")) {
		put(DAMON "/nr_kdamonds", "2");
		/* Cold: no access in 20 aggregations (2 s); young pages stay. */
		damon_kdamond(0, 0, "migrate_cold", 1, "0", "0", "20", "Y");
		/* Hot: at least 2 of 20 samples; pages not young stay. */
		damon_kdamond(1, 1, "migrate_hot", 0, "2", "20", "0", "N");
		put(DAMON "/0/state", "on");
		put(DAMON "/1/state", "on");
	}
}

/* --verbose: the htmm session's hotness and what tiering moved so far. */
static void print_session(pid_t pid)
{
	static const char * const f[] = {
		"hotness", "hot_threshold", "nr_promoted", "nr_demoted",
		"nr_scanned", "nr_shifted", "fast_share", "sample_period",
	};
	char path[128], buf[256], *nl;
	size_t i;

	printf("htmm-tierbench:   ");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s",
			 pid, f[i]);
		if (read_file(path, buf, sizeof(buf)))
			strcpy(buf, "?");
		nl = strchr(buf, '\n');
		if (nl)
			*nl = 0;
		printf(" %s %s", f[i], buf);
	}
	printf("\n");
}

static void stop_system(const char *sys)
{
	if (!strcmp(sys, "htmm")) {
		char path[128], buf[256];

		snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/hotness", getpid());
		if (!read_file(path, buf, sizeof(buf)))
			printf("htmm-tierbench: hotness %s", buf);
		htmm_end(0);
	} else if (!strcmp(sys, "numab")) {
		write_file("/proc/sys/kernel/numa_balancing", "0");
	} else if (!strcmp(sys, "damon")) {
		static const char * const st[] = {
			"nr_tried", "sz_tried", "nr_applied", "sz_applied", "qt_exceeds",
		};
		char path[256], buf[64];
		int k, i;

		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), DAMON "/%d/state", k);
			write_file(path, "update_schemes_stats");
			printf("htmm-tierbench: kdamond %d scheme:", k);
			for (i = 0; i < (int)ARRAY_SIZE(st); i++) {
				snprintf(path, sizeof(path),
					 DAMON "/%d/contexts/0/schemes/0/stats/%s", k, st[i]);
				if (read_file(path, buf, sizeof(buf)))
					strcpy(buf, "?");
				buf[strcspn(buf, "\n")] = '\0';
				printf(" %s %s", st[i], buf);
			}
			printf("\n");
		}
		write_file(DAMON "/0/state", "off");
		write_file(DAMON "/1/state", "off");
	}
}

/*
 * The node of every page of the set into b->status. While every page of
 * a thp set is huge, one look per huge page does.
 */
static void query(struct bench *b)
{
	size_t units = b->n / b->unit, u, i;

	if (b->unit > 1 && anon_huge_kb(b->base) == (long long)(b->n * page_size >> 10)) {
		for (u = 0; u < units; u++)
			b->heads[u] = b->addr[u * b->unit];
		if (syscall(SYS_move_pages, 0, units, b->heads, NULL, b->status, 0))
			die("move_pages");
		for (u = units; u-- > 0;)
			for (i = 0; i < b->unit; i++)
				b->status[u * b->unit + i] = b->status[u];
		return;
	}
	if (syscall(SYS_move_pages, 0, b->n, b->addr, NULL, b->status, 0))
		die("move_pages");
}

/* Hit share of the current placement against the best's, in phase @ph. */
static double share_of(const struct bench *b, int ph)
{
	const double *p = b->prob[ph];
	double s = 0;
	size_t i;

	for (i = 0; i < b->n; i++)
		s += b->status[i] == 0 ? p[i] : 0;
	return s / b->best[ph];
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Probability of unit @u in phase @ph. */
static double unit_prob(const struct bench *b, int ph, size_t u)
{
	double s = 0;
	size_t i;

	for (i = u * b->unit; i < (u + 1) * b->unit && i < b->n; i++)
		s += b->prob[ph][i];
	return s;
}

/* The best placement of phase @ph: the most probable units that fit the room. */
static void best_placement(struct bench *b, int ph)
{
	size_t units = (b->n + b->unit - 1) / b->unit, fit = b->room / b->unit, u, k;
	double *p = xcalloc(units, sizeof(*p));

	for (u = 0; u < units; u++)
		p[u] = unit_prob(b, ph, u);
	qsort(p, units, sizeof(*p), cmp_desc);
	if (fit > units)
		fit = units;
	b->best[ph] = 0;
	for (k = 0; k < fit; k++)
		b->best[ph] += p[k];
	b->edge[ph] = fit ? p[fit - 1] : 1;
	for (k = 0; k < fit && p[k] > b->edge[ph]; k++)
		;
	b->above[ph] = k;
	free(p);
}

/*
 * Pages of the best placement of phase @ph that are not on node 0 now
 * (b->status), choosing among equally probable units those on node 0.
 */
static long long missing(const struct bench *b, int ph)
{
	size_t units = (b->n + b->unit - 1) / b->unit, fit = b->room / b->unit, u;
	long long off = 0, edge_on = 0, need;
	double p;
	int on;

	if (fit > units)
		fit = units;
	for (u = 0; u < units; u++) {
		p = unit_prob(b, ph, u);
		on = b->status[u * b->unit] == 0;
		if (p > b->edge[ph])
			off += !on;
		else if (p == b->edge[ph])
			edge_on += on;
	}
	/* Pages never accessed are no part of the best placement. */
	need = b->edge[ph] > 0 ? (long long)(fit - b->above[ph]) - edge_on : 0;
	return (off + (need > 0 ? need : 0)) * b->unit;
}

/* First second at which @share[] reached @level, from @from; -1 if never. */
static int time_to(const double *share, int n, int from, double level)
{
	int i;

	for (i = from; i < n; i++)
		if (share[i] >= level)
			return i - from + 1;
	return -1;
}

static double mean_last(const double *share, int end, int len)
{
	double s = 0;
	int i, from = end - len > 0 ? end - len : 0;

	for (i = from; i < end; i++)
		s += share[i];
	return end > from ? s / (end - from) : 0;
}

/*
 * Node 1 must hold the @need pages of the set bound to it, above its high
 * watermarks, with ROOM_SLACK pages to spare: a page bound to a full node
 * gets the program killed, with no word of why. Node 0 takes no more than
 * its room by construction. Called once this program's tables are
 * allocated, before the set is touched.
 */
static void check_node1(size_t need)
{
	long free1 = node_free_pages(1), high1 = node_high_pages(1), room;

	if (free1 < 0 || high1 < 0)
		die("node 1 meminfo, /proc/zoneinfo");
	room = free1 - high1 - ROOM_SLACK;
	if ((long)need <= room)
		return;
	fprintf(stderr, "htmm-tierbench: node 1 must hold %zu MiB of the set and has %ld MiB free above its watermarks: a smaller --size or --hot-mib, or a larger node 1 (tools/vm-run --node-mib 512:1536)\n",
		need * page_size >> 20, room > 0 ? (long)(room * page_size >> 20) : 0L);
	exit(1);
}

/* Base pages of the set, and the page addresses for move_pages. */
static void set_pages(struct bench *b, size_t n)
{
	int ph;

	b->n = n;
	b->addr = xcalloc(n, sizeof(*b->addr));
	b->status = xcalloc(n, sizeof(*b->status));
	b->prev = xcalloc(n, sizeof(*b->prev));
	for (ph = 0; ph < 2; ph++)
		b->prob[ph] = xcalloc(n, sizeof(double));
}

/* A mapping of @n pages, 2 MiB aligned, huge or not as @thp says. */
static char *map_set(size_t n, int thp)
{
	size_t len = n * page_size, align = HUGE_PAGES * page_size, head;
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	head = (align - (uintptr_t)p % align) % align;
	if (head)
		munmap(p, head);
	munmap(p + head + len, align - head);
	p += head;
	if (madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		die("madvise");
	return p;
}

static void set_addr(struct bench *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		b->addr[i] = b->base + i * page_size;
}

static void touch(char *p, size_t first, size_t n)
{
	size_t i;

	for (i = first; i < first + n; i++)
		p[i * page_size] = 1;
}

static char thp_setting[64] = "-";

/* THP for madvised memory: say what the guest has, turn it on if it was off. */
static void thp_on(void)
{
	char *s, *e;

	if (read_file(THP, thp_setting, sizeof(thp_setting)))
		die(THP " (no THP in this kernel)");
	s = strchr(thp_setting, '[');
	e = s ? strchr(s, ']') : NULL;
	if (!e)
		die(THP);
	*e = '\0';
	memmove(thp_setting, s + 1, strlen(s + 1) + 1);
	printf("htmm-tierbench: " THP ": %s\n", thp_setting);
	if (!strcmp(thp_setting, "never"))
		put(THP, "madvise");
}

/* stable, moving: cold data fills node 0, then the hot set(s) on node 1. */
static void setup_sweep(struct bench *b, size_t hot_pages)
{
	size_t i, cold_pages;
	long free0 = node_free_pages(0);
	int ph, sets = b->v->phase ? 2 : 1;

	if (free0 < 0)
		die("node 0 meminfo");
	cold_pages = free0 > (long)(MARGIN_MIB << 20) / page_size ?
		     free0 - (MARGIN_MIB << 20) / page_size : 0;
	b->hot = hot_pages;
	set_pages(b, hot_pages * sets);
	check_node1(hot_pages * sets);
	if (cold_pages)
		place(cold_pages, 0);
	b->sets[0] = place(hot_pages, 1);
	b->sets[1] = sets == 2 ? place(hot_pages, 1) : b->sets[0];
	for (ph = 0; ph < sets; ph++)
		for (i = 0; i < hot_pages; i++) {
			b->addr[ph * hot_pages + i] = b->sets[ph] + i * page_size;
			b->prob[ph][ph * hot_pages + i] = 1.0 / hot_pages;
		}
	if (sets == 1)
		memcpy(b->prob[1], b->prob[0], b->n * sizeof(double));
}

/*
 * @num/@den of node 0's memory (MemTotal, more than its room), rounded
 * up to SET_ROUND: the room differs by thousands of pages from boot to
 * boot, the set (and so its permutation and placement) must not, so
 * that every system gets the same workload.
 */
static size_t set_size(size_t num, size_t den)
{
	char buf[4096], *s;
	size_t pages;

	if (size_opt) {
		num = (size_t)(size_opt * 1000 + 0.5);
		den = 1000;
	}

	if (read_file("/sys/devices/system/node/node0/meminfo", buf, sizeof(buf)) ||
	    !(s = strstr(buf, "MemTotal:")))
		die("node 0 meminfo");
	pages = strtoull(s + 9, NULL, 10) / (page_size / 1024) * num / den;
	return (pages + SET_ROUND - 1) / SET_ROUND * SET_ROUND;
}

/* zipf, thp: 1.25x the room, interleaved; ranks to pages at random. */
static void setup_zipf(struct bench *b)
{
	size_t n = set_size(5, 4), r, ph, u, on0;
	uint64_t x = b->seed;
	double *p, sum = 0;

	if (b->v->thp) {
		thp_on();
		b->unit = HUGE_PAGES;
	}
	set_pages(b, n);
	b->heads = xcalloc(n / b->unit, sizeof(*b->heads));
	p = xcalloc(n, sizeof(*p));
	for (r = 0; r < n; r++)
		sum += p[r] = pow_neg(r + 1, skew_opt ? skew_opt : b->v->skew);
	for (r = 0; r < n; r++)
		p[r] /= sum;
	b->thr = xcalloc(n, sizeof(*b->thr));
	b->alias = xcalloc(n, sizeof(*b->alias));
	alias_build(p, n, b->thr, b->alias);
	for (ph = 0; ph < 2; ph++) {
		b->perm[ph] = xcalloc(n, sizeof(uint32_t));
		shuffle(b->perm[ph], n, &x);
		for (r = 0; r < n; r++)
			b->prob[ph][b->perm[ph][r]] = p[r];
	}
	free(p);
	b->room = room_now();	/* less what the tables took */
	b->base = map_set(n, b->v->thp);
	set_addr(b);
	/*
	 * Interleaved: even pages (huge pages) on node 0, odd ones on node 1,
	 * whatever the address (the interleave policy goes by the address);
	 * a set of more than twice the room (--size) fills node 0 up to
	 * ROOM_SLACK pages below its room, the even pages past that too go
	 * to node 1.
	 */
	on0 = b->room > ROOM_SLACK ? (b->room - ROOM_SLACK) / b->unit : 0;
	u = (n / b->unit + 1) / 2;	/* the even units */
	check_node1(n - (on0 < u ? on0 : u) * b->unit);
	set_policy(MPOL_BIND_, 1);
	for (u = 0; u < n / b->unit && u / 2 < on0; u += 2)
		touch(b->base, u * b->unit, b->unit);
	set_policy(MPOL_BIND_, 2);
	for (u = 1; u < n / b->unit; u += 2)
		touch(b->base, u * b->unit, b->unit);
	for (u = 2 * on0; u < n / b->unit; u += 2)
		touch(b->base, u * b->unit, b->unit);
	set_policy(MPOL_DEFAULT_, 0);
}

/*
 * gups: the room / 0.6 pages, a hot set of a fifth of them at slot 0,
 * later at the last slots; both on node 1, the other slots on node 0
 * but for ROOM_SLACK pages.
 */
static void setup_gups(struct bench *b)
{
	size_t n = set_size(5, 3), hot = n / 5, i, s, on0;
	uint64_t x = b->seed;
	uint32_t *perm = NULL;
	int ph;

	set_pages(b, n);
	b->hot = hot;
	b->hot_at[0] = 0;
	b->hot_at[1] = n - hot;
	if (b->v->scattered) {
		perm = xcalloc(n, sizeof(*perm));
		shuffle(perm, n, &x);
	}
	b->perm[0] = b->perm[1] = perm;
	for (ph = 0; ph < 2; ph++)
		for (s = 0; s < n; s++) {
			i = perm ? perm[s] : s;
			b->prob[ph][i] = s >= b->hot_at[ph] && s < b->hot_at[ph] + hot ?
					 0.9 / hot : 0.1 / (n - hot);
		}
	b->room = room_now();	/* less what the tables took */
	on0 = b->room > ROOM_SLACK ? b->room - ROOM_SLACK : 0;
	check_node1(2 * hot + (n - 2 * hot > on0 ? n - 2 * hot - on0 : 0));
	b->base = map_set(n, 0);
	set_addr(b);
	set_policy(MPOL_BIND_, 2);
	for (s = 0; s < hot; s++) {
		touch(b->base, perm ? perm[s] : s, 1);
		touch(b->base, perm ? perm[n - hot + s] : n - hot + s, 1);
	}
	set_policy(MPOL_BIND_, 1);
	for (s = hot; s < n - hot; s++) {
		if (s - hot == on0)
			set_policy(MPOL_BIND_, 2);
		touch(b->base, perm ? perm[s] : s, 1);
	}
	set_policy(MPOL_DEFAULT_, 0);
}

/*
 * tenant-*: several processes, each with its own set, arriving at
 * different times, sharing node 0. The parent maps each set before it
 * forks the tenant (so it knows the addresses for move_pages) and never
 * touches it; the tenant places its pages by first touch when it is
 * told to arrive, then updates them as fast as its pace lets it,
 * counting its updates in a shared page.
 */
enum { T_WAIT, T_GO, T_WORKING };

struct tenant_shm {
	unsigned long long done;	/* updates so far, by the tenant */
	int state;			/* T_*: the parent sets T_GO */
	int stop;
	char pad[48];			/* one cache line each */
};

struct tenant {
	const struct tenant_def *d;
	size_t n;		/* pages of its set */
	char *base;
	void **addr;
	int *status, *prev;	/* node of each page, this second and the last */
	int *at_last;		/* ... at the last arrival */
	double *prob;		/* access probability of each page */
	double *sorted;		/* the same, most probable first */
	uint32_t *perm, *thr, *alias;	/* zipf: page of each rank, alias table */
	struct tenant_shm *shm;
	pid_t pid;
	uint64_t seed;
	int alive;		/* the second it started working in; -1 before */
	double *t_at, rate;	/* readings' times; updates/s over RATE_WINDOW */
	unsigned long long *done_at;	/* updates at each reading */
	int readings;
	long long ticks0, sys0;	/* its CPU ticks when it started working */
	int *on0;		/* pages on node 0, per second */
	double *mass, *rates;	/* probability on node 0, updates/s, per second */
	size_t best_k;		/* pages in the final best placement */
	double best_mass;	/* their probability */
};

static struct tenant tenants[MAX_TENANTS];
static int nr_tenants;
static pid_t parent_pid;

/* The tenants die with the parent, whatever ends it. */
static void tenants_kill(void)
{
	int i;

	if (getpid() != parent_pid)
		return;
	for (i = 0; i < nr_tenants; i++)
		if (tenants[i].pid > 0)
			kill(tenants[i].pid, SIGKILL);
}

/* @mib MiB for a node 0 of 512 MiB, scaled to this one (MemTotal to 128 MiB). */
static size_t tenant_pages(int mib)
{
	char buf[4096], *s;
	size_t node0;

	if (read_file("/sys/devices/system/node/node0/meminfo", buf, sizeof(buf)) ||
	    !(s = strstr(buf, "MemTotal:")))
		die("node 0 meminfo");
	node0 = (strtoull(s + 9, NULL, 10) / 1024 + 64) / 128 * 128;
	if (!node0)
		node0 = 128;
	return (size_t)mib * node0 / 512 * ((1 << 20) / page_size);
}

/* The set, its probabilities, a Zipf's alias table; mapped, not touched. */
static void tenant_setup(struct tenant *t, const struct tenant_def *d, uint64_t seed)
{
	size_t n = tenant_pages(d->mib), r;
	uint64_t x = seed;
	double sum = 0;

	t->d = d;
	t->n = n;
	t->seed = seed;
	t->alive = -1;
	t->addr = xcalloc(n, sizeof(*t->addr));
	t->status = xcalloc(n, sizeof(*t->status));
	t->prev = xcalloc(n, sizeof(*t->prev));
	t->at_last = xcalloc(n, sizeof(*t->at_last));
	t->prob = xcalloc(n, sizeof(*t->prob));
	t->sorted = xcalloc(n, sizeof(*t->sorted));
	t->on0 = xcalloc(MAX_SECONDS, sizeof(*t->on0));
	t->mass = xcalloc(MAX_SECONDS, sizeof(*t->mass));
	t->rates = xcalloc(MAX_SECONDS, sizeof(*t->rates));
	t->t_at = xcalloc(MAX_SECONDS + 1, sizeof(*t->t_at));
	t->done_at = xcalloc(MAX_SECONDS + 1, sizeof(*t->done_at));
	for (r = 0; r < n; r++)
		sum += t->sorted[r] = d->skew ? pow_neg(r + 1, d->skew) : 1;
	for (r = 0; r < n; r++)
		t->sorted[r] /= sum;
	if (d->skew) {
		t->thr = xcalloc(n, sizeof(*t->thr));
		t->alias = xcalloc(n, sizeof(*t->alias));
		alias_build(t->sorted, n, t->thr, t->alias);
		t->perm = xcalloc(n, sizeof(*t->perm));
		shuffle(t->perm, n, &x);
		for (r = 0; r < n; r++)
			t->prob[t->perm[r]] = t->sorted[r];
	} else {
		memcpy(t->prob, t->sorted, n * sizeof(double));
	}
	t->base = map_set(n, 0);
	for (r = 0; r < n; r++)
		t->addr[r] = t->base + r * page_size;
}

/*
 * In the tenant, when it arrives: node 0 as far as it has room (all its
 * free memory above the high watermarks but ROOM_SLACK pages), or half
 * of it there by interleaving (even pages), the rest on node 1; or all
 * on node 1. A page bound to a full node 1 would get it killed: it
 * refuses first (check_node1()).
 */
static void tenant_place(struct tenant *t)
{
	long avail = room_now() - ROOM_SLACK;
	size_t n = t->n, on0 = 0, i;

	if (avail < 0)
		avail = 0;
	if (t->d->place == ON_NODE0)
		on0 = n < (size_t)avail ? n : (size_t)avail;
	else if (t->d->place == INTERLEAVED)
		on0 = (n + 1) / 2 < (size_t)avail ? (n + 1) / 2 : (size_t)avail;
	check_node1(n - on0);
	if (t->d->place == INTERLEAVED) {
		set_policy(MPOL_BIND_, 1);
		for (i = 0; i < n && i / 2 < on0; i += 2)
			touch(t->base, i, 1);
		set_policy(MPOL_BIND_, 2);
		for (i = 1; i < n; i += 2)
			touch(t->base, i, 1);
		for (i = 2 * on0; i < n; i += 2)
			touch(t->base, i, 1);
	} else {
		set_policy(MPOL_BIND_, 1);
		touch(t->base, 0, on0);
		set_policy(MPOL_BIND_, 2);
		touch(t->base, on0, n - on0);
	}
	set_policy(MPOL_DEFAULT_, 0);
}

/* In the tenant: random 8-byte updates, uniform or by its alias table. */
static void tenant_work(const struct tenant *t)
{
	struct tenant_shm *s = t->shm;
	uint64_t x = t->seed * 0x9e3779b97f4a7c15ULL | 1, r;
	unsigned long long done = 0;
	uint32_t n = t->n, col;
	double t0;
	int k;

	while (!LOAD(s->stop)) {
		t0 = now();
		for (k = 0; k < 65536; k++) {
			r = rnd(&x);
			col = below(r, n);
			if (t->thr)
				col = t->perm[((r >> 9) & ((1 << COIN_BITS) - 1)) < t->thr[col] ?
					      col : t->alias[col]];
			((uint64_t *)(t->base + (size_t)col * page_size))[r & 511] ^= r;
		}
		done += k;
		__atomic_store_n(&s->done, done, __ATOMIC_RELAXED);
		if (t->d->pace > 1)
			usleep((useconds_t)((now() - t0) * (t->d->pace - 1) * 1e6));
	}
}

/* A tenant's process: it waits to arrive, places its set, works until told. */
static void tenant_fork(struct tenant *t)
{
	fflush(NULL);
	t->pid = fork();
	if (t->pid < 0)
		die("fork");
	if (t->pid)
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent_pid)
		_exit(1);
	while (LOAD(t->shm->state) != T_GO && !LOAD(t->shm->stop))
		usleep(5000);
	if (!LOAD(t->shm->stop)) {
		tenant_place(t);
		STORE(t->shm->state, T_WORKING);
		tenant_work(t);
	}
	_exit(0);
}

static void tenant_query(struct tenant *t)
{
	if (syscall(SYS_move_pages, t->pid, t->n, t->addr, NULL, t->status, 0))
		die("move_pages of a tenant");
}

/* A tenant's set ended or failed to be placed: the run is void. */
static void tenant_check(const struct tenant *t)
{
	int st;

	if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
		fprintf(stderr, "htmm-tierbench: tenant %s (pid %d) ended before the run did\n",
			t->d->name, t->pid);
		exit(1);
	}
}

/* htmm: a session of its own for a tenant that started working. */
static int tenant_session(const struct tenant *t)
{
	char path[128], val[32];

	if (htmm_start(t->pid, 0))
		die("htmm_start of a tenant");
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/tiering", t->pid);
	put(path, "1");
	if (!t->d->guard)
		return 0;
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/fast_min_pages", t->pid);
	if (access(path, F_OK)) {
		printf("tenant-guard: no fast_min_pages (kernel without guarantees)\n");
		return 0;
	}
	snprintf(val, sizeof(val), "%zu", t->n);
	put(path, val);
	printf("htmm-tierbench: tenant %s: fast_min_pages %zu\n", t->d->name, t->n);
	return 1;
}

/*
 * The best hit rate of the tenants alive: the @fit pages of the highest
 * rate x probability (a merge of the tenants' sorted probabilities);
 * the lowest value taken into @edge.
 */
static double tenants_best(size_t fit, double *edge)
{
	size_t at[MAX_TENANTS] = { 0 }, k;
	double best = 0, v, top;
	int i, pick;

	*edge = 0;
	for (k = 0; k < fit; k++) {
		pick = -1;
		top = -1;
		for (i = 0; i < nr_tenants; i++) {
			if (tenants[i].alive < 0 || at[i] == tenants[i].n)
				continue;
			v = tenants[i].rate * tenants[i].sorted[at[i]];
			if (v > top) {
				top = v;
				pick = i;
			}
		}
		if (pick < 0)
			break;
		best += top;
		at[pick]++;
		*edge = top;
	}
	return best;
}

/*
 * Each tenant's part of the best placement at the rates in t->rate:
 * the pages of a value above the edge's (by more than TENANT_EPS), and
 * of those within TENANT_EPS of it, the same fraction of every tenant's
 * (measured rates differ by a few percent: a tenant a hair faster would
 * otherwise take all the room at the edge).
 */
static void tenants_split(size_t fit)
{
	size_t above[MAX_TENANTS], band[MAX_TENANTS], sa = 0, sb = 0, j, k;
	double edge, v, frac;
	int i;

	tenants_best(fit, &edge);
	for (i = 0; i < nr_tenants; i++) {
		struct tenant *t = &tenants[i];

		above[i] = band[i] = 0;
		for (j = 0; j < t->n; j++) {
			v = t->rate * t->sorted[j];
			if (v > edge * (1 + TENANT_EPS))
				above[i]++;
			else if (v >= edge / (1 + TENANT_EPS))
				band[i]++;
		}
		sa += above[i];
		sb += band[i];
	}
	frac = sb && fit > sa ? (double)(fit - sa) / sb : 0;
	if (frac > 1)
		frac = 1;
	for (i = 0; i < nr_tenants; i++) {
		struct tenant *t = &tenants[i];

		t->best_k = above[i] + (size_t)(frac * band[i] + 0.5);
		if (t->best_k > t->n)
			t->best_k = t->n;
		t->best_mass = 0;
		for (k = 0; k < t->best_k; k++)
			t->best_mass += t->sorted[k];
	}
}

/*
 * Pages of tenant @t's part of the best placement not on node 0 in
 * @status, choosing among equally probable pages those on node 0.
 */
static long long tenant_missing(const struct tenant *t, const int *status)
{
	long long off = 0, edge_on = 0, above = 0, need;
	double edge;
	size_t j;

	if (!t->best_k)
		return 0;
	edge = t->sorted[t->best_k - 1];
	for (j = 0; j < t->n; j++) {
		if (t->prob[j] > edge) {
			above++;
			off += status[j] != 0;
		} else if (t->prob[j] == edge) {
			edge_on += status[j] == 0;
		}
	}
	need = (long long)t->best_k - above - edge_on;
	return off + (need > 0 ? need : 0);
}

/* Mean of @a[from..end) over its last @len entries at most. */
static double mean_of(const double *a, int from, int end, int len)
{
	double s = 0;
	int i;

	if (end - from > len)
		from = end - len;
	for (i = from; i < end; i++)
		s += a[i];
	return end > from ? s / (end - from) : 0;
}

static double mean_on0(const struct tenant *t, int end, int len)
{
	double s = 0;
	int i, from = end - len > t->alive ? end - len : t->alive;

	for (i = from; i < end; i++)
		s += t->on0[i];
	return end > from ? s / (end - from) : 0;
}

static int run_tenants(const struct variant *v, const char *sys, int seconds,
		       bool verbose, const char *json, uint64_t seed)
{
	double share[MAX_SECONDS], best_frac[MAX_SECONDS], thread_sec[ARRAY_SIZE(kthreads)] = { 0 };
	double t0, tnow, q0, busy = 0, daemons = 0, hit, best, edge, total, wl_sys = 0, wl_user = 0;
	double rate_all = 0, split_min = -1, guarded = -1;
	long long mig0, mig1, mig_last = -1, promotions = 0, demotions, minimum;
	long long obs0, obs1, unused, promoted = 0, demoted = 0, ticks, st, room_last = 0;
	static struct kthread_cpu k0[4096], k1[4096];
	size_t room, node1 = 0, pages = 0, j, on0, avail0;
	int i, n, nk0, nk1, alive = 0, last_n = -1, guard_set = 0;
	struct tenant_shm *shm;
	char dir[32];
	FILE *out;

	nr_tenants = v->nr_tenants;
	parent_pid = getpid();
	shm = mmap(NULL, MAX_TENANTS * sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		die("mmap");
	for (i = 0; i < nr_tenants; i++) {
		tenant_setup(&tenants[i], &v->tenants[i], seed + 0x9e3779b9ULL * i);
		tenants[i].shm = &shm[i];
		pages += tenants[i].n;
	}
	/* The room when the first tenant arrives: all the best placement has. */
	room = room_now();
	/* Node 1 must hold what the plan binds to it, or the run is refused. */
	avail0 = room > ROOM_SLACK ? room - ROOM_SLACK : 0;
	for (i = 0; i < nr_tenants; i++) {
		const struct tenant_def *d = &v->tenants[i];
		size_t n_i = tenants[i].n;

		on0 = d->place == ON_NODE0 ? n_i : d->place == INTERLEAVED ? (n_i + 1) / 2 : 0;
		if (on0 > avail0 || d->at)
			on0 = d->at ? 0 : avail0;
		avail0 -= on0;
		node1 += n_i - on0;
	}
	check_node1(node1);
	atexit(tenants_kill);
	for (i = 0; i < nr_tenants; i++)
		tenant_fork(&tenants[i]);

	/* The first tenants arrive before the clock starts, one at a time. */
	for (i = 0; i < nr_tenants; i++) {
		if (v->tenants[i].at)
			continue;
		STORE(shm[i].state, T_GO);
		while (LOAD(shm[i].state) != T_WORKING) {
			tenant_check(&tenants[i]);
			usleep(10000);
		}
	}
	printf("htmm-tierbench: %s, %s: %d tenants, %zu pages (%zu MiB), node 0's room %zu MiB, %d s\n",
	       sys, v->name, nr_tenants, pages, pages * page_size >> 20,
	       room * page_size >> 20, seconds);
	for (i = 0; i < nr_tenants; i++)
		printf("htmm-tierbench:   tenant %s: pid %d, %zu MiB, %s, %s, arrives at %d s%s\n",
		       v->tenants[i].name, tenants[i].pid, tenants[i].n * page_size >> 20,
		       v->tenants[i].skew ? "zipf" : "uniform",
		       v->tenants[i].place == ON_NODE0 ? "node 0 first" :
		       v->tenants[i].place == ON_NODE1 ? "on node 1" : "interleaved",
		       v->tenants[i].at * seconds / 3,
		       v->tenants[i].pace > 1 ? ", paced" : "");
	fflush(stdout);

	mig0 = vmstat("pgmigrate_success");
	nk0 = kthreads_snapshot(k0, ARRAY_SIZE(k0));
	thread_ticks(gettid(), &unused, &obs0);
	obs0 += unused;
	if (!strcmp(sys, "htmm"))
		put(HTMM_SYSFS "/source", "abit");
	else
		start_system(sys);
	t0 = now();
	for (n = 0; n < seconds; n++) {
		do {
			tnow = now();
			for (i = 0; i < nr_tenants; i++) {
				struct tenant *t = &tenants[i];

				tenant_check(t);
				if (LOAD(t->shm->state) == T_WAIT &&
				    tnow >= t0 + t->d->at * seconds / 3)
					STORE(t->shm->state, T_GO);
				if (t->alive >= 0 || LOAD(t->shm->state) != T_WORKING)
					continue;
				/* It started working: its clock, CPU, session. */
				t->alive = n;
				t->t_at[0] = now();
				t->done_at[0] = LOAD(t->shm->done);
				t->readings = 1;
				snprintf(dir, sizeof(dir), "%d", t->pid);
				t->ticks0 = stat_ticks(dir, NULL, 0, &t->sys0);
				if (!strcmp(sys, "htmm"))
					guard_set |= tenant_session(t);
				tenant_query(t);
				memcpy(t->prev, t->status, t->n * sizeof(int));
				printf("htmm-tierbench: tenant %s arrives in second %d\n",
				       t->d->name, n + 1);
				alive++;
			}
			if (last_n < 0 && alive == nr_tenants) {
				/* The last arrival: where the minimum starts from. */
				last_n = n;
				mig_last = vmstat("pgmigrate_success");
				room_last = room_now();
				for (i = 0; i < nr_tenants; i++) {
					tenant_query(&tenants[i]);
					memcpy(tenants[i].at_last, tenants[i].status,
					       tenants[i].n * sizeof(int));
				}
			}
			if (tnow < t0 + n + 1)
				usleep(20000);
		} while (tnow < t0 + n + 1);
		q0 = now();
		hit = 0;
		total = 0;
		for (i = 0; i < nr_tenants; i++) {
			struct tenant *t = &tenants[i];
			double mass = 0;
			int k, from;

			if (t->alive < 0)
				continue;
			tenant_query(t);
			/*
			 * Its rate over the last RATE_WINDOW s (since it
			 * arrived, if later): a second's count swings by a
			 * factor of 3 or more with the scheduling of 2 vCPUs.
			 */
			k = t->readings++;
			t->t_at[k] = now();
			t->done_at[k] = LOAD(t->shm->done);
			from = k > RATE_WINDOW ? k - RATE_WINDOW : 0;
			t->rate = t->t_at[k] > t->t_at[from] ?
				  (t->done_at[k] - t->done_at[from]) / (t->t_at[k] - t->t_at[from]) : 0;
			on0 = 0;
			for (j = 0; j < t->n; j++) {
				if (t->status[j] == 0) {
					on0++;
					mass += t->prob[j];
				}
				promoted += t->prev[j] != 0 && t->status[j] == 0;
				demoted += t->prev[j] == 0 && t->status[j] != 0;
			}
			memcpy(t->prev, t->status, t->n * sizeof(int));
			t->on0[n] = on0;
			t->mass[n] = mass;
			t->rates[n] = t->rate;
			hit += t->rate * mass;
			total += t->rate;
		}
		best = tenants_best(room, &edge);
		share[n] = best > 0 ? hit / best : 0;
		best_frac[n] = total > 0 ? best / total : 0;
		busy += now() - q0;
		printf("htmm-tierbench: %3d s  %5.1f%% of the best hit rate; on node 0:", n + 1,
		       100 * share[n]);
		for (i = 0; i < nr_tenants; i++)
			if (tenants[i].alive >= 0)
				printf(" %s %d", tenants[i].d->name, tenants[i].on0[n]);
		printf("\n");
		if (verbose) {
			printf("htmm-tierbench:    updates/s:");
			for (i = 0; i < nr_tenants; i++)
				if (tenants[i].alive >= 0)
					printf(" %s %.0f", tenants[i].d->name, tenants[i].rate);
			printf("\n");
			for (i = 0; i < nr_tenants && !strcmp(sys, "htmm"); i++)
				if (tenants[i].alive >= 0)
					print_session(tenants[i].pid);
		}
		fflush(stdout);
	}
	mig1 = vmstat("pgmigrate_success");
	nk1 = kthreads_snapshot(k1, ARRAY_SIZE(k1));
	thread_ticks(gettid(), &unused, &obs1);
	obs1 += unused;
	for (i = 0; i < nr_tenants; i++) {
		struct tenant *t = &tenants[i];

		snprintf(dir, sizeof(dir), "%d", t->pid);
		ticks = stat_ticks(dir, NULL, 0, &st);
		if (t->alive >= 0 && ticks >= 0) {
			wl_sys += (double)(st - t->sys0) / sysconf(_SC_CLK_TCK);
			wl_user += (double)(ticks - st - (t->ticks0 - t->sys0)) / sysconf(_SC_CLK_TCK);
		}
	}
	if (!strcmp(sys, "htmm")) {
		for (i = 0; i < nr_tenants; i++) {
			char path[128], buf[256];

			snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/hotness",
				 tenants[i].pid);
			if (!read_file(path, buf, sizeof(buf)))
				printf("htmm-tierbench: tenant %s: hotness %s", tenants[i].d->name, buf);
			htmm_end(tenants[i].pid);
		}
	} else {
		stop_system(sys);
	}
	for (i = 0; i < nr_tenants; i++)
		STORE(shm[i].stop, 1);
	for (i = 0; i < nr_tenants; i++) {
		waitpid(tenants[i].pid, NULL, 0);
		tenants[i].pid = 0;
	}
	kthreads_delta(k0, nk0, k1, nk1, thread_sec);
	for (i = 0; i < NR_DAEMONS; i++)
		daemons += thread_sec[i];
	if (last_n < 0)
		die("the last tenant never arrived");

	/*
	 * The final best placement, at each tenant's rate at the end (t->rate,
	 * from the last reading); the fewest moves to it from the placement
	 * at the last arrival.
	 */
	for (i = 0; i < nr_tenants; i++)
		rate_all += tenants[i].rate;
	tenants_split(room);
	for (i = 0; i < nr_tenants; i++)
		promotions += tenant_missing(&tenants[i], tenants[i].at_last);
	demotions = promotions > room_last ? promotions - room_last : 0;
	minimum = promotions + demotions;
	if (!strcmp(v->name, "tenant-equal")) {
		double lo = -1, hi = 0, x;

		for (i = 0; i < nr_tenants; i++) {
			x = mean_on0(&tenants[i], seconds, 10);
			lo = lo < 0 || x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		split_min = hi > 0 ? lo / hi : 0;
	}
	printf("htmm-tierbench: final %.1f%% of the best hit rate;", 100 * mean_last(share, seconds, 10));
	for (i = 0; i < nr_tenants; i++) {
		struct tenant *t = &tenants[i];
		double sh = t->best_mass > 0 ?
			    mean_of(t->mass, t->alive, seconds, 10) / t->best_mass : 0;

		printf(" %s %.1f%% of its best (%zu pages), %.0f on node 0;", t->d->name,
		       100 * sh, t->best_k, mean_on0(t, seconds, 10));
		if (t->d->guard) {
			guarded = mean_on0(t, seconds, 10) / t->n;
			printf(" guaranteed %zu, %.3f of them on node 0;", t->n, guarded);
		}
	}
	if (split_min >= 0)
		printf(" node 0 fewest/most %.3f", split_min);
	printf("\n");

	out = fopen(json, "w");
	if (!out)
		die(json);
	fprintf(out, "{\"system\": \"%s\", \"variant\": \"%s\", \"seconds\": %d, \"seed\": %llu, "
		"\"pages\": %zu, \"room_pages\": %zu, \"unit_pages\": 1, \"hot_pages\": 0, "
		"\"skew\": 0, \"best_hit_share\": [%.4f, %.4f], \"start_share\": %.4f, "
		"\"phase_s\": %d, \"t50\": %d, \"t90\": %d, \"t95\": %d, \"t99\": %d, "
		"\"t90_after\": %d, \"t95_after\": %d, \"final_share\": %.4f, "
		"\"final_share_before\": %.4f, \"migrated\": %lld, \"migrated_before\": %lld, "
		"\"migrated_total\": %lld, "
		"\"minimum\": %lld, \"minimum_before\": -1, \"migrated_over_minimum\": %.3f, "
		"\"promotions_needed\": %lld, \"demotions_needed\": %lld, "
		"\"promoted_seen\": %lld, \"demoted_seen\": %lld, "
		"\"last_arrival_s\": %d, \"guarantee_written\": %s, \"guarded_fraction\": %.4f, "
		"\"node0_fewest_over_most\": %.4f, \"thread_cpu_s\": {",
		sys, v->name, seconds, (unsigned long long)seed, pages, room,
		best_frac[0], best_frac[seconds - 1], share[0],
		last_n > 0 ? last_n : -1,
		time_to(share, seconds, 0, 0.5), time_to(share, seconds, 0, 0.9),
		time_to(share, seconds, 0, 0.95), time_to(share, seconds, 0, 0.99),
		last_n > 0 ? time_to(share, seconds, last_n, 0.9) : -1,
		last_n > 0 ? time_to(share, seconds, last_n, 0.95) : -1,
		mean_last(share, seconds, 10),
		last_n > 0 ? mean_last(share, last_n, 10) : -1,
		mig1 - mig_last, mig_last - mig0, mig1 - mig0, minimum,
		(double)(mig1 - mig_last) / (minimum ? minimum : 1),
		promotions, demotions, promoted, demoted, last_n,
		guard_set ? "true" : "false", guarded, split_min);
	for (i = 0; i < (int)ARRAY_SIZE(kthreads); i++)
		fprintf(out, "%s\"%s\": %.2f", i ? ", " : "", kthreads[i], thread_sec[i]);
	fprintf(out, "}, \"daemon_cpu_s\": %.2f, \"workload_sys_s\": %.2f, "
		"\"workload_user_s\": %.2f, \"observer_cpu_s\": %.2f, \"observer_query_s\": %.2f, "
		"\"accesses_per_s\": %.0f, \"thp_enabled\": \"-\", "
		"\"anon_huge_kb_start\": -1, \"anon_huge_kb_end\": -1, \"share\": [",
		daemons, wl_sys, wl_user, (double)(obs1 - obs0) / sysconf(_SC_CLK_TCK), busy,
		rate_all);
	for (i = 0; i < seconds; i++)
		fprintf(out, "%s%.4f", i ? ", " : "", share[i]);
	fprintf(out, "], \"best_of_accesses\": [");
	for (i = 0; i < seconds; i++)
		fprintf(out, "%s%.4f", i ? ", " : "", best_frac[i]);
	fprintf(out, "], \"tenants\": [");
	for (i = 0; i < nr_tenants; i++) {
		struct tenant *t = &tenants[i];
		const struct tenant_def *d = t->d;

		fprintf(out, "%s{\"name\": \"%s\", \"mib\": %zu, \"pages\": %zu, \"skew\": %g, "
			"\"placement\": \"%s\", \"arrival_s\": %d, \"alive_s\": %d, \"pace\": %d, "
			"\"accesses_per_s\": %.0f, \"best_pages\": %zu, \"best_mass\": %.4f, "
			"\"share\": %.4f, \"node0_final\": %.0f, \"guaranteed_pages\": %zu, "
			"\"guarded_fraction\": %.4f, \"node0_pages\": [",
			i ? ", " : "", d->name, t->n * page_size >> 20, t->n, d->skew,
			d->place == ON_NODE0 ? "node0" : d->place == ON_NODE1 ? "node1" : "interleaved",
			d->at * seconds / 3, t->alive, d->pace, t->rate, t->best_k, t->best_mass,
			t->best_mass > 0 ? mean_of(t->mass, t->alive, seconds, 10) / t->best_mass : 0,
			mean_on0(t, seconds, 10), d->guard ? t->n : 0,
			d->guard ? mean_on0(t, seconds, 10) / t->n : -1);
		for (n = 0; n < seconds; n++)
			fprintf(out, "%s%d", n ? ", " : "", t->on0[n]);
		fprintf(out, "]}");
	}
	fprintf(out, "]}\n");
	fclose(out);
	return 0;
}

static void usage(void)
{
	size_t i;

	fprintf(stderr, "usage: htmm-tierbench --system none|htmm|numab|damon [--variant V] [--seconds S] [--hot-mib M] [--seed N] [--skew A] [--size X] [--verbose] [-o FILE.json]\nvariants:");
	for (i = 0; i < ARRAY_SIZE(variants); i++)
		fprintf(stderr, " %s", variants[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int seconds = 60, hot_mib = 64, i, n, half, nk0, nk1;
	bool verbose = false;
	const char *sys = NULL, *vname = "stable", *json = "/tmp/tierbench.json";
	double share[MAX_SECONDS], t0, t1, thread_sec[ARRAY_SIZE(kthreads)] = { 0 };
	long long mig0, mig1, mig_half = -1, min0, min1 = 0, demote0, demote1 = 0;
	long long minimum;
	long long sys0, sys1, user0, user1, obs0, obs1, unused, promoted = 0, demoted = 0;
	long long huge0 = -1, huge1 = -1, done0, done1;
	static struct kthread_cpu k0[4096], k1[4096];
	struct bench b = { .unit = 1, .seed = 1 };
	double start_share, daemons = 0, busy = 0, q0;
	void *(*worker)(void *);
	size_t u;
	pthread_t th;
	long room;
	FILE *out;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--system") && i + 1 < argc)
			sys = argv[++i];
		else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
			vname = argv[++i];
		else if (!strcmp(argv[i], "--moving"))
			vname = "moving";
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--hot-mib") && i + 1 < argc)
			hot_mib = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			b.seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--skew") && i + 1 < argc)
			skew_opt = atof(argv[++i]);
		else if (!strcmp(argv[i], "--size") && i + 1 < argc)
			size_opt = atof(argv[++i]);
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			json = argv[++i];
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else
			usage();
	}
	for (i = 0; sys && i < (int)ARRAY_SIZE(systems); i++)
		if (!strcmp(sys, systems[i]))
			break;
	if (!sys || i == (int)ARRAY_SIZE(systems) || seconds < 4 ||
	    seconds > MAX_SECONDS || hot_mib < 1 || !b.seed ||
	    (skew_opt && (skew_opt < 0.1 || skew_opt > 3)) ||
	    (size_opt && (size_opt < 0.5 || size_opt > 4)))
		usage();
	for (u = 0; u < ARRAY_SIZE(variants); u++)
		if (!strcmp(vname, variants[u].name))
			b.v = &variants[u];
	if (!b.v)
		usage();
	page_size = sysconf(_SC_PAGESIZE);
	if (b.v->kind == TENANTS)
		return run_tenants(b.v, sys, seconds, verbose, json, b.seed);

	/* Node 0's room, then the set and its placement. */
	room = room_now();
	b.room = room;
	if (b.v->kind == SWEEP) {
		setup_sweep(&b, (size_t)hot_mib * (1 << 20) / page_size);
		worker = sweeper;
	} else if (b.v->kind == ZIPF) {
		setup_zipf(&b);
		worker = zipf_worker;
	} else {
		setup_gups(&b);
		worker = gups_worker;
	}
	for (i = 0; i < 2; i++)
		best_placement(&b, i);
	if (b.v->thp)
		huge0 = anon_huge_kb(b.base);
	query(&b);
	start_share = share_of(&b, 0);
	min0 = missing(&b, 0);
	room = room_now();
	demote0 = min0 > room ? min0 - room : 0;
	printf("htmm-tierbench: %s, %s: %zu pages (%zu MiB), node 0's room %zu MiB (%ld MiB free now), best hit share %.3f, start %.3f of it, %lld pages to promote, %d s\n",
	       sys, b.v->name, b.n, b.n * page_size >> 20, b.room * page_size >> 20,
	       room * page_size >> 20, b.best[0], start_share, min0, seconds);
	if (b.v->thp)
		printf("htmm-tierbench: AnonHugePages %lld kB of %zu kB\n", huge0,
		       b.n * page_size >> 10);
	fflush(stdout);

	if (pthread_create(&th, NULL, worker, &b))
		die("pthread_create");
	while (!LOAD(b.tid))
		usleep(1000);
	memcpy(b.prev, b.status, b.n * sizeof(int));
	mig0 = vmstat("pgmigrate_success");
	nk0 = kthreads_snapshot(k0, ARRAY_SIZE(k0));
	thread_ticks(b.tid, &sys0, &user0);
	thread_ticks(gettid(), &unused, &obs0);
	obs0 += unused;
	done0 = LOAD(b.done);
	start_system(sys);
	t0 = now();
	half = b.v->phase ? seconds / 2 : seconds;
	for (n = 0; n < seconds; n++) {
		/*
		 * Half-way, right after the sample of second @half: share[n]
		 * is then n + 1 - half s after the change, as share[n] is
		 * n + 1 s after the start (time_to()).
		 */
		if (n == half) {
			/* The new popularity's pages not on node 0 now. */
			query(&b);
			mig_half = vmstat("pgmigrate_success");
			min1 = missing(&b, 1);
			room = room_now();
			demote1 = min1 > room ? min1 - room : 0;
			STORE(b.phase, 1);
			printf("htmm-tierbench: the popularity changes: %lld pages to promote\n", min1);
		}
		while (now() < t0 + n + 1)
			usleep(20000);
		q0 = now();
		query(&b);
		busy += now() - q0;
		share[n] = share_of(&b, n >= half);
		for (u = 0; u < b.n; u++) {
			promoted += b.prev[u] != 0 && b.status[u] == 0;
			demoted += b.prev[u] == 0 && b.status[u] != 0;
		}
		memcpy(b.prev, b.status, b.n * sizeof(int));
		printf("htmm-tierbench: %3d s  %5.1f%% of the best hit share\n", n + 1,
		       100 * share[n]);
		if (verbose) {
			size_t on = 0;

			for (u = 0; u < b.n; u++)
				on += b.status[u] == 0;
			printf("htmm-tierbench:    on node 0 %zu, of the best missing %lld\n",
			       on, missing(&b, n >= half));
		}
		if (verbose && !strcmp(sys, "htmm"))
			print_session(getpid());
		fflush(stdout);
	}
	t1 = now();
	mig1 = vmstat("pgmigrate_success");
	nk1 = kthreads_snapshot(k1, ARRAY_SIZE(k1));
	thread_ticks(b.tid, &sys1, &user1);
	thread_ticks(gettid(), &unused, &obs1);
	obs1 += unused;
	done1 = LOAD(b.done);
	if (b.v->thp)
		huge1 = anon_huge_kb(b.base);
	stop_system(sys);
	STORE(b.stop, 1);
	pthread_join(th, NULL);
	kthreads_delta(k0, nk0, k1, nk1, thread_sec);
	for (i = 0; i < NR_DAEMONS; i++)
		daemons += thread_sec[i];

	/* Pages to promote, and to demote to make room for them. */
	minimum = min0 + min1 + demote0 + demote1;
	out = fopen(json, "w");
	if (!out)
		die(json);
	fprintf(out, "{\"system\": \"%s\", \"variant\": \"%s\", \"seconds\": %d, \"seed\": %llu, "
		"\"pages\": %zu, \"room_pages\": %zu, \"unit_pages\": %zu, \"hot_pages\": %zu, "
		"\"skew\": %g, \"best_hit_share\": [%.4f, %.4f], \"start_share\": %.4f, "
		"\"phase_s\": %d, \"t50\": %d, \"t90\": %d, \"t95\": %d, \"t99\": %d, "
		"\"t90_after\": %d, \"t95_after\": %d, \"final_share\": %.4f, "
		"\"final_share_before\": %.4f, \"migrated\": %lld, \"migrated_before\": %lld, "
		"\"minimum\": %lld, \"minimum_before\": %lld, \"migrated_over_minimum\": %.3f, "
		"\"promotions_needed\": %lld, \"demotions_needed\": %lld, "
		"\"promoted_seen\": %lld, \"demoted_seen\": %lld, "
		"\"thread_cpu_s\": {",
		sys, b.v->name, seconds, (unsigned long long)b.seed, b.n, b.room, b.unit,
		b.hot, skew_opt ? skew_opt : b.v->skew, b.best[0], b.best[1], start_share,
		b.v->phase ? half : -1,
		time_to(share, half, 0, 0.5), time_to(share, half, 0, 0.9),
		time_to(share, half, 0, 0.95), time_to(share, half, 0, 0.99),
		b.v->phase ? time_to(share, seconds, half, 0.9) : -1,
		b.v->phase ? time_to(share, seconds, half, 0.95) : -1,
		mean_last(share, seconds, 10),
		b.v->phase ? mean_last(share, half, 10) : -1,
		mig1 - mig0, b.v->phase ? mig_half - mig0 : -1,
		minimum, min0 + demote0, (double)(mig1 - mig0) / (minimum ? minimum : 1),
		min0 + min1, demote0 + demote1, promoted, demoted);
	for (i = 0; i < (int)ARRAY_SIZE(kthreads); i++)
		fprintf(out, "%s\"%s\": %.2f", i ? ", " : "", kthreads[i], thread_sec[i]);
	fprintf(out, "}, \"daemon_cpu_s\": %.2f, \"workload_sys_s\": %.2f, "
		"\"workload_user_s\": %.2f, \"observer_cpu_s\": %.2f, \"observer_query_s\": %.2f, "
		"\"accesses_per_s\": %.0f, \"thp_enabled\": \"%s\", "
		"\"anon_huge_kb_start\": %lld, \"anon_huge_kb_end\": %lld, \"share\": [",
		daemons, (double)(sys1 - sys0) / sysconf(_SC_CLK_TCK),
		(double)(user1 - user0) / sysconf(_SC_CLK_TCK),
		(double)(obs1 - obs0) / sysconf(_SC_CLK_TCK), busy,
		(done1 - done0) / (t1 - t0), thp_setting, huge0, huge1);
	for (i = 0; i < seconds; i++)
		fprintf(out, "%s%.4f", i ? ", " : "", share[i]);
	fprintf(out, "]}\n");
	fclose(out);
	return 0;
}
