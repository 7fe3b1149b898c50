// SPDX-License-Identifier: GPL-2.0
/*
 * htmm-tierbench - one tiering system on one workload, in the guest.
 *
 * usage: htmm-tierbench --system none|htmm|numab|damon [--moving]
 *                       [--seconds S] [--hot-mib M] [-o FILE.json]
 *
 * Node 0 is first filled with cold data (all its free memory but a
 * margin), so that every promotion needs a demotion; then a hot set of M
 * MiB (default 64) is placed on node 1, by a task policy reset afterwards
 * (NUMA balancing never promotes MPOL_BIND pages), and a thread sweeps it
 * for S seconds (default 60). With --moving, the sweep moves to a second
 * hot set, also on node 1, half-way. The system under test:
 *   none   nothing moves pages
 *   htmm   an htmm session on this process, node 0, abit, tiering on
 *   numab  NUMA balancing's tiering mode (numa_balancing=2,
 *          demotion_enabled=1)
 *   damon  DAMON on physical addresses: a kdamond migrating cold pages of
 *          node 0 to node 1 (young pages filtered out), one migrating hot
 *          pages of node 1 to node 0 (pages not young filtered out),
 *          quotas of 64 MiB/s each
 * Every second: the share of the current hot set on node 0. At the end,
 * JSON: the shares, the times to 50/90/99%, the pages migrated
 * (pgmigrate_success) against the fewest that could do (hot pages
 * promoted, plus the pages that had to be demoted for them: all but the
 * free memory above node 0's high watermarks), the CPU time
 * of the systems' threads (ksamplingd, khtmm_tierd, kdamond.*, kswapd*)
 * and the workload's own system time.
 * Exit status: 0, 1 if the set-up failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/klog.h>
#include <sys/resource.h>

#include "../../selftests/htmm/htmm_util.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DAMON		"/sys/kernel/mm/damon/admin/kdamonds"
#define MARGIN_MIB	48	/* of node 0 left free for the kernel */
#define MAX_SECONDS	600

static const char *const systems[] = { "none", "htmm", "numab", "damon" };

struct sweep {
	char *set[2];
	size_t pages;
	int cur;		/* the set being swept; switched by main */
	int stop;
};

static void die(const char *what)
{
	fprintf(stderr, "htmm-tierbench: %s: %s\n", what, strerror(errno));
	exit(1);
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

/* Share of @pages pages at @p on @node, over at most 4096 of them. */
static double share_on(char *p, size_t pages, int node)
{
	size_t n = pages < 4096 ? pages : 4096, i, on = 0;
	void *addr[4096];
	int status[4096];

	for (i = 0; i < n; i++)
		addr[i] = p + i * (pages / n) * page_size;
	if (syscall(SYS_move_pages, 0, n, addr, NULL, status, 0))
		return -1;
	for (i = 0; i < n; i++)
		on += status[i] == node;
	return (double)on / n;
}

static void *sweeper(void *arg)
{
	struct sweep *s = arg;
	size_t i;
	char *p;

	while (!LOAD(s->stop)) {
		p = s->set[LOAD(s->cur)];
		for (i = 0; i < s->pages; i++)
			p[i * page_size]++;
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

/* Free MiB of node @nid. */
static long node_free_mib(int nid)
{
	char path[64], buf[4096], *s;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	s = strstr(buf, "MemFree:");
	return s ? strtol(s + 8, NULL, 10) / 1024 : -1;
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

/* CPU seconds of the kernel threads doing the systems' work. */
static double daemons_cpu(void)
{
	char path[300], buf[1024], *c;
	unsigned long long ut, st;
	struct dirent *d;
	double sum = 0;
	DIR *dir = opendir("/proc");

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		c = strchr(buf, '(');
		if (!c || (strncmp(c, "(ksamplingd)", 12) &&
			   strncmp(c, "(khtmm_tierd)", 13) &&
			   strncmp(c, "(kdamond.", 9) && strncmp(c, "(kswapd", 7)))
			continue;
		c = strrchr(buf, ')');
		if (sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			   &ut, &st) == 2)
			sum += (double)(ut + st) / sysconf(_SC_CLK_TCK);
	}
	closedir(dir);
	return sum;
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

static void stop_system(const char *sys)
{
	if (!strcmp(sys, "htmm")) {
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

/* First second at which @share[] reached @level, from @from; -1 if never. */
static int time_to(const double *share, int n, int from, double level)
{
	int i;

	for (i = from; i < n; i++)
		if (share[i] >= level)
			return i - from + 1;
	return -1;
}

int main(int argc, char **argv)
{
	int seconds = 60, hot_mib = 64, moving = 0, i, n, half;
	const char *sys = NULL, *json = "/tmp/tierbench.json";
	double share[MAX_SECONDS], t0, cpu0, cpu1, sys0, sys1;
	long long mig0, mig1, minimum, room;
	size_t hot_pages, cold_pages;
	struct rusage ru;
	struct sweep sw = { 0 };
	pthread_t th;
	long free0, high0;
	FILE *out;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--system") && i + 1 < argc)
			sys = argv[++i];
		else if (!strcmp(argv[i], "--moving"))
			moving = 1;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--hot-mib") && i + 1 < argc)
			hot_mib = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			json = argv[++i];
		else
			goto usage;
	}
	for (i = 0; sys && i < (int)ARRAY_SIZE(systems); i++)
		if (!strcmp(sys, systems[i]))
			break;
	if (!sys || i == (int)ARRAY_SIZE(systems) || seconds < 4 || seconds > MAX_SECONDS || hot_mib < 1)
		goto usage;
	page_size = sysconf(_SC_PAGESIZE);

	/* Node 0 full of cold data, then the hot set(s) on node 1. */
	free0 = node_free_mib(0);
	if (free0 < 0)
		die("node 0 meminfo");
	cold_pages = (free0 > MARGIN_MIB ? free0 - MARGIN_MIB : 0) * (1 << 20) / page_size;
	hot_pages = (size_t)hot_mib * (1 << 20) / page_size;
	if (cold_pages)
		place(cold_pages, 0);
	sw.pages = hot_pages;
	sw.set[0] = place(hot_pages, 1);
	sw.set[1] = moving ? place(hot_pages, 1) : sw.set[0];
	/*
	 * The fewest pages any system could move: each hot page once, and
	 * as many out of node 0 as its room lacks. The room is the free
	 * memory above the zones' high watermarks: below them kswapd would
	 * reclaim, and NUMA balancing promotes only above them too.
	 */
	free0 = node_free_mib(0);
	high0 = node_high_pages(0);
	if (high0 < 0)
		die("/proc/zoneinfo");
	room = free0 * (1 << 20) / page_size - high0;
	room = room > 0 ? room : 0;
	minimum = (long long)hot_pages * (moving ? 2 : 1);
	if (minimum > room)
		minimum += minimum - room;
	printf("htmm-tierbench: %s%s: cold %zu MiB on node 0 (%ld MiB free left, %lld MiB above the high watermarks), hot %d MiB on node 1, %d s\n",
	       sys, moving ? " (moving)" : "", cold_pages * page_size >> 20, free0,
	       room * page_size >> 20, hot_mib, seconds);
	fflush(stdout);

	if (pthread_create(&th, NULL, sweeper, &sw))
		die("pthread_create");
	mig0 = vmstat("pgmigrate_success");
	cpu0 = daemons_cpu();
	getrusage(RUSAGE_SELF, &ru);
	sys0 = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	start_system(sys);
	t0 = now();
	half = moving ? seconds / 2 : seconds;
	for (n = 0; n < seconds; n++) {
		while (now() < t0 + n + 1)
			usleep(20000);
		if (n == half)
			STORE(sw.cur, 1);
		share[n] = share_on(sw.set[LOAD(sw.cur)], hot_pages, 0);
		printf("htmm-tierbench: %3d s  hot set %5.1f%% on node 0\n", n + 1,
		       100 * share[n]);
		fflush(stdout);
	}
	mig1 = vmstat("pgmigrate_success");
	cpu1 = daemons_cpu();
	getrusage(RUSAGE_SELF, &ru);
	sys1 = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	stop_system(sys);
	STORE(sw.stop, 1);
	pthread_join(th, NULL);

	out = fopen(json, "w");
	if (!out)
		die(json);
	fprintf(out, "{\"system\": \"%s\", \"variant\": \"%s\", \"seconds\": %d, \"hot_pages\": %zu, "
		"\"t50\": %d, \"t90\": %d, \"t99\": %d, \"t90_after_move\": %d, "
		"\"final_share\": %.4f, \"migrated\": %lld, \"minimum\": %lld, "
		"\"migrated_over_minimum\": %.3f, \"daemon_cpu_s\": %.2f, "
		"\"workload_sys_s\": %.2f, \"share\": [",
		sys, moving ? "moving" : "stable", seconds, hot_pages,
		time_to(share, half, 0, 0.5), time_to(share, half, 0, 0.9),
		time_to(share, half, 0, 0.99),
		moving ? time_to(share, seconds, half, 0.9) : -1, share[seconds - 1],
		mig1 - mig0, minimum, (double)(mig1 - mig0) / minimum, cpu1 - cpu0,
		sys1 - sys0);
	for (i = 0; i < seconds; i++)
		fprintf(out, "%s%.4f", i ? ", " : "", share[i]);
	fprintf(out, "]}\n");
	fclose(out);
	return 0;
usage:
	fprintf(stderr, "usage: htmm-tierbench --system none|htmm|numab|damon [--moving] [--seconds S] [--hot-mib M] [-o FILE.json]\n");
	return 2;
}
