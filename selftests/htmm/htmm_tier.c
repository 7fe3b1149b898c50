// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for htmm's tiering: a session with a node and tiering on
 * promotes its hot pages to that node and demotes its cold ones, keeping
 * within fast_pages, without moving a page back and forth, and counts its
 * moves where the kernel counts NUMA balancing's and reclaim's; sessions
 * that tier to one node share it.
 *
 * The guest has two nodes with memory (node 1 without CPUs). Pages are
 * placed with a temporary task policy, reset before sampling starts, so
 * that no VMA policy binds them where they are. The abit source counts
 * the accesses, as on any machine without a PMU.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define NUMA_BALANCING	"/proc/sys/kernel/numa_balancing"
#define THP_SIZES	"/sys/kernel/mm/transparent_hugepage/hugepages-"
#define ACCT_CGROUP	"htmm-tier-acct"

/* Goals of the issue; waits go on longer so a slow host is not a failure. */
#define PROMOTE_GOAL_S	3.0
#define WAIT_S		60.0

FIXTURE(tier) {
	char source[64], cooling[16], quota[16], balancing[16], tiering[16];
	char mthp[32], pmd_thp[32];	/* 64 kB and 2 MiB THP, if changed */
	int offlined;	/* 1 + a memory block of node 1 taken offline */
	char *hot, *cold;
	int nhot, ncold;
	int spread;	/* 0: every page used every round; see toucher() */
	int stop;
	pthread_t thread;
};

#define NODE1_SYSFS	"/sys/devices/system/node/node1"

/* Set memory block @nr "online" or "offline"; 0 or the errno. */
static int block_state(int nr, const char *state)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/memory/memory%d/state",
		 nr);
	return write_file(path, state);
}

FIXTURE_SETUP(tier)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	if (!node_has_memory(0) || !node_has_memory(1))
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	save_file(HTMM_SYSFS "/cooling_ms", self->cooling, sizeof(self->cooling));
	save_file(HTMM_SYSFS "/cpu_quota", self->quota, sizeof(self->quota));
	save_file(HTMM_SYSFS "/tiering", self->tiering, sizeof(self->tiering));
	save_file(NUMA_BALANCING, self->balancing, sizeof(self->balancing));
	/* Only htmm moves pages here. */
	if (self->balancing[0])
		ASSERT_EQ(0, write_file(NUMA_BALANCING, "0"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cooling_ms", "1000"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
}

FIXTURE_TEARDOWN(tier)
{
	if (self->thread) {
		STORE(self->stop, 1);
		pthread_join(self->thread, NULL);
	}
	htmm_end(getpid());
	if (self->offlined)
		block_state(self->offlined - 1, "online");
	cgroup_leave(ACCT_CGROUP);
	write_file(HTMM_SYSFS "/source", self->source);
	write_file(HTMM_SYSFS "/cooling_ms", self->cooling);
	write_file(HTMM_SYSFS "/cpu_quota", self->quota);
	write_file(HTMM_SYSFS "/tiering", self->tiering);
	if (self->mthp[0])
		write_file(THP_SIZES "64kB/enabled", self->mthp);
	if (self->pmd_thp[0])
		write_file(THP_SIZES "2048kB/enabled", self->pmd_thp);
	if (self->balancing[0])
		write_file(NUMA_BALANCING, self->balancing);
}

static int session_write(const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s", getpid(),
		 name);
	return write_file(path, val);
}

/* How many of the @n pages at @p are on @node now. */
static int pages_on_node(char *p, int n, int node)
{
	return pages_on_node_of(0, p, n, node);
}

/*
 * Uses the hot set (read anew each round, so that it can move) every
 * millisecond or so. With a spread, pages are used at different rates:
 * at round k, page i is used if k is a multiple of 1 + i % spread, so
 * that a look of abit finds some pages used and not others, whatever
 * its window, and keeps two looks a pass.
 */
static void *toucher(void *arg)
{
	struct _test_data_tier *t = arg;
	unsigned long k;
	char *hot;
	int i;

	for (k = 0; !LOAD(t->stop); k++) {
		hot = LOAD(t->hot);
		for (i = 0; i < t->nhot; i++)
			if (!t->spread || !(k % (1 + i % t->spread)))
				__atomic_fetch_add(&hot[(size_t)i * page_size], 1,
						   __ATOMIC_RELAXED);
		usleep(1000);
	}
	return NULL;
}

/* Seconds until at least @share of the hot set is on @node, or -1. */
static double wait_share(struct _test_data_tier *t, int node, double share)
{
	double t0 = now();

	while (now() - t0 < WAIT_S) {
		if (pages_on_node(t->hot, t->nhot, node) >= share * t->nhot)
			return now() - t0;
		usleep(100000);
	}
	return -1;
}

TEST_F(tier, settings_refuse_bad_values)
{
	static const char * const bad[][2] = {
		{ "tiering", "2" }, { "tiering", "yes" },
		{ "promote_rate_limit_MiBps", "0" }, { "promote_rate_limit_MiBps", "x" },
		{ "promote_rate_limit_MiBps", "100001" },
		{ "tier_cpu_quota", "1001" }, { "tier_cpu_quota", "x" },
	};
	char buf[16], path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(path, sizeof(path), HTMM_SYSFS "/%s", bad[i][0]);
		EXPECT_EQ(EINVAL, write_file(path, bad[i][1]))
			TH_LOG("%s = %s", bad[i][0], bad[i][1]);
	}
	EXPECT_LT(0, read_ll(HTMM_SYSFS "/promote_rate_limit_MiBps"));
	EXPECT_LE(0, read_ll(HTMM_SYSFS "/tier_cpu_us"));

	/* A session without a node has nowhere to promote to. */
	ASSERT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(EINVAL, session_write("tiering", "1"));
	EXPECT_EQ(0, session_write("tiering", "0"));
	EXPECT_EQ(EINVAL, session_write("fast_pages", "0"));
	EXPECT_EQ(EINVAL, session_write("fast_pages", "junk"));
	EXPECT_EQ(0, htmm_end(0));

	ASSERT_EQ(0, htmm_start(0, 0));
	EXPECT_EQ(0, session_value(getpid(), "tiering"));
	EXPECT_EQ(EINVAL, session_write("tiering", "on"));
	EXPECT_EQ(EINVAL, session_write("tiering", "-1"));
	EXPECT_EQ(0, session_write("tiering", "1"));
	EXPECT_EQ(1, session_value(getpid(), "tiering"));
	EXPECT_EQ(0, htmm_end(0));

	/* The global default applies to new sessions with a node only. */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/tiering", "1"));
	ASSERT_EQ(0, htmm_start(0, 0));
	EXPECT_EQ(1, session_value(getpid(), "tiering"));
	EXPECT_EQ(0, htmm_end(0));
	ASSERT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(0, session_value(getpid(), "tiering"));
	EXPECT_EQ(0, htmm_end(0));
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/tiering", buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
}

/* The hot set starts on node 1; tiering brings it to node 0 and keeps it. */
TEST_F_TIMEOUT(tier, promotes_hot_set_and_stays, 180)
{
	long long promoted, remigrated, failed;
	double secs;
	int i;

	self->nhot = 2048;
	self->hot = pages_on(self->nhot, 1);
	ASSERT_NE(NULL, self->hot);
	ASSERT_EQ(self->nhot, pages_on_node(self->hot, self->nhot, 1));
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, htmm_start(getpid(), 0));
	ASSERT_EQ(0, session_write("fast_pages", "16384"));
	ASSERT_EQ(0, session_write("tiering", "1"));

	secs = wait_share(self, 0, 0.9);
	TH_LOG("90%% of the hot set on node 0 after %.1f s (goal %.0f s)",
	       secs, PROMOTE_GOAL_S);
	ASSERT_LE(0, secs);
	if (secs > PROMOTE_GOAL_S)
		TH_LOG("slower than the goal: a loaded host stretches guest time");
	/*
	 * The pass counts what it moved once the moves are done: the pages
	 * may be seen on node 0 a moment before (measured on the debug guest:
	 * 0 promoted when 90% of the hot set was there).
	 */
	for (i = 0; i < 50; i++) {
		promoted = session_value(getpid(), "nr_promoted");
		if (promoted >= 0.9 * self->nhot)
			break;
		usleep(100000);
	}
	EXPECT_LE(0.9 * self->nhot, promoted);

	/* Stable now: nothing moves back within the remigration window. */
	sleep(12);
	remigrated = session_value(getpid(), "nr_remigrated");
	failed = session_value(getpid(), "nr_migrate_failed");
	TH_LOG("promoted %lld; 12 s later: promoted %lld, demoted %lld,",
	       promoted, session_value(getpid(), "nr_promoted"),
	       session_value(getpid(), "nr_demoted"));
	TH_LOG("failed %lld, remigrated %lld", failed, remigrated);
	EXPECT_EQ(0, remigrated);
	EXPECT_EQ(0, session_value(getpid(), "nr_demoted"));
	EXPECT_LE(0.9 * self->nhot, pages_on_node(self->hot, self->nhot, 0));
}

/*
 * The hot set moves to other pages of the slow node, with room on the
 * fast node for one set only: abit finds the move (nr_shifted), in no
 * pass before it, and the new set takes the old one's place.
 */
TEST_F_TIMEOUT(tier, follows_a_moved_hot_set, 180)
{
	const int fast = 2048 + 1024;
	int on0 = 0, i;
	long long shifted;
	char *first, val[16];
	double secs;

	self->nhot = 2048;
	first = pages_on(self->nhot, 1);
	self->cold = pages_on(self->nhot, 1);
	ASSERT_NE(NULL, first);
	ASSERT_NE(NULL, self->cold);
	self->hot = first;
	self->spread = 64;
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, htmm_start(getpid(), 0));
	snprintf(val, sizeof(val), "%d", fast);
	ASSERT_EQ(0, session_write("fast_pages", val));
	ASSERT_EQ(0, session_write("tiering", "1"));

	secs = wait_share(self, 0, 0.9);
	TH_LOG("first set: 90%% on node 0 after %.1f s", secs);
	ASSERT_LE(0, secs);
	/* Placed and used as before: no pass finds a move. */
	sleep(5);
	shifted = session_value(getpid(), "nr_shifted");
	TH_LOG("nr_shifted %lld before the move, nr_promoted %lld", shifted,
	       session_value(getpid(), "nr_promoted"));
	EXPECT_EQ(0, shifted);

	STORE(self->hot, self->cold);
	self->cold = first;
	secs = wait_share(self, 0, 0.9);
	shifted = session_value(getpid(), "nr_shifted");
	TH_LOG("moved set: 90%% on node 0 after %.1f s; nr_shifted %lld, first set %d/%d on node 0",
	       secs, shifted, pages_on_node(self->cold, self->nhot, 0),
	       self->nhot);
	ASSERT_LE(0, secs);
	EXPECT_LE(1, shifted);
	/* Both sets do not fit: the first makes room (a few pages of slack). */
	for (i = 0; i < 100; i++) {
		on0 = pages_on_node(self->cold, self->nhot, 0) +
		      pages_on_node(self->hot, self->nhot, 0);
		if (on0 <= fast + 64)
			break;
		usleep(100000);
	}
	TH_LOG("both sets: %d pages on node 0, fast_pages %d", on0, fast);
	EXPECT_GE(fast + 64, on0);
}

/*
 * Hot and cold sets both on node 0, more than fast_pages: the cold pages
 * go to node 1 until the session fits, the hot ones stay.
 */
TEST_F_TIMEOUT(tier, demotes_cold_over_fast_pages, 180)
{
	const int fast = 4096;
	int hot0 = 0, cold0 = 0, i;
	double t0 = now();
	char val[16];

	self->nhot = 2048;
	self->ncold = 8192;
	self->cold = pages_on(self->ncold, 0);
	self->hot = pages_on(self->nhot, 0);
	ASSERT_NE(NULL, self->cold);
	ASSERT_NE(NULL, self->hot);
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, htmm_start(getpid(), 0));
	snprintf(val, sizeof(val), "%d", fast);
	ASSERT_EQ(0, session_write("fast_pages", val));
	ASSERT_EQ(0, session_write("tiering", "1"));

	for (i = 0; now() - t0 < WAIT_S; i++) {
		cold0 = pages_on_node(self->cold, self->ncold, 0);
		hot0 = pages_on_node(self->hot, self->nhot, 0);
		if (hot0 + cold0 <= fast)
			break;
		usleep(200000);
	}
	TH_LOG("after %.1f s: hot %d/%d and cold %d/%d on node 0, fast_pages %d; demoted %lld",
	       now() - t0, hot0, self->nhot, cold0, self->ncold, fast,
	       session_value(getpid(), "nr_demoted"));
	/* The sets fit; the rest of the process (a few pages) is the slack. */
	EXPECT_GE(fast, hot0 + cold0);
	EXPECT_EQ(self->nhot, hot0);
	EXPECT_LE(self->ncold - fast, session_value(getpid(), "nr_demoted"));
	/* Only pages of the test's own that came back when used, if any. */
	EXPECT_GE(64, session_value(getpid(), "nr_promoted"));
}

/* What the kernel's counters say of the moves since @base. */
struct moves {
	long long promoted, demoted;		/* /proc/vmstat */
	long long cg_promoted, cg_demoted;	/* memory.stat of ACCT_CGROUP */
};

static void read_moves(struct moves *m, const struct moves *base)
{
	m->promoted = vmstat_value("pgpromote_success");
	m->demoted = vmstat_value("pgdemote_htmm");
	m->cg_promoted = memcg_stat(ACCT_CGROUP, "pgpromote_success");
	m->cg_demoted = memcg_stat(ACCT_CGROUP, "pgdemote_htmm");
	if (!base)
		return;
	m->promoted -= base->promoted;
	m->demoted -= base->demoted;
	m->cg_promoted -= base->cg_promoted;
	m->cg_demoted -= base->cg_demoted;
}

/*
 * htmm's moves are where users read the kernel's: promotions in
 * pgpromote_success, demotions in pgdemote_htmm, both in /proc/vmstat
 * and in the memory.stat of the process's cgroup. Before, promotions
 * reached /proc/vmstat only, and demotions no counter.
 */
TEST_F_TIMEOUT(tier, moves_in_kernel_counters, 180)
{
	const int fast = 4096;
	long long np = 0, nd = 0;
	struct moves base, m;
	const char *why;
	double t0;

	why = cgroup_enter(ACCT_CGROUP);
	if (why)
		SKIP(return, "%s", why);
	/* A pass of an earlier test's session may still be moving pages. */
	sleep(2);
	read_moves(&base, NULL);
	self->nhot = 2048;
	self->ncold = 8192;
	self->cold = pages_on(self->ncold, 0);
	self->hot = pages_on(self->nhot, 1);
	ASSERT_NE(NULL, self->cold);
	ASSERT_NE(NULL, self->hot);
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, htmm_start(getpid(), 0));
	ASSERT_EQ(0, session_write("fast_pages", "4096"));
	ASSERT_EQ(0, session_write("tiering", "1"));
	for (t0 = now(); now() - t0 < WAIT_S; usleep(200000))
		if (pages_on_node(self->hot, self->nhot, 0) == self->nhot &&
		    pages_on_node(self->cold, self->ncold, 0) +
		    self->nhot <= fast)
			break;
	/* No more moves, once a pass under way has ended. */
	ASSERT_EQ(0, session_write("tiering", "0"));
	/* memory.stat and vmstat fold per-CPU deltas every second or two. */
	for (t0 = now(); now() - t0 < 20; usleep(200000)) {
		np = session_value(getpid(), "nr_promoted");
		nd = session_value(getpid(), "nr_demoted");
		read_moves(&m, &base);
		if (m.promoted == np && m.demoted == nd && m.cg_promoted == np)
			break;
	}
	sleep(2);
	read_moves(&m, &base);
	np = session_value(getpid(), "nr_promoted");
	nd = session_value(getpid(), "nr_demoted");
	TH_LOG("promoted %lld: vmstat +%lld, memory.stat +%lld", np,
	       m.promoted, m.cg_promoted);
	TH_LOG("demoted %lld: vmstat +%lld, memory.stat +%lld", nd,
	       m.demoted, m.cg_demoted);
	EXPECT_LE(self->nhot, np);
	EXPECT_LE(self->ncold + self->nhot - fast, nd);
	EXPECT_EQ(np, m.promoted);
	EXPECT_EQ(nd, m.demoted);
	EXPECT_EQ(np, m.cg_promoted);
	/*
	 * Pages the process had before it entered the cgroup (its stack,
	 * its data) are the root's; the cold pages demoted are the cgroup's.
	 */
	EXPECT_LE(self->ncold + self->nhot - fast, m.cg_demoted);
	EXPECT_GE(nd, m.cg_demoted);
	STORE(self->stop, 1);
	pthread_join(self->thread, NULL);
	self->thread = 0;
	htmm_end(getpid());
}

/* The setting in brackets of a THP size's enabled file, in @buf. */
static int thp_setting(const char *path, char *buf, size_t len)
{
	char raw[128], *a, *b;

	if (read_file(path, raw, sizeof(raw)))
		return -1;
	a = strchr(raw, '[');
	b = a ? strchr(a, ']') : NULL;
	if (!b || (size_t)(b - a) > len)
		return -1;
	*b = '\0';
	snprintf(buf, len, "%s", a + 1);
	return 0;
}

/*
 * How many of the @n pages at @p begin a compound page (kpageflags'
 * COMPOUND_HEAD, bit 15, of the frame pagemap gives), or -1.
 */
static int compound_heads(char *p, int n)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	uint64_t e, f;
	int i, heads = 0;

	for (i = 0; pm >= 0 && kf >= 0 && i < n; i++) {
		if (pread(pm, &e, 8, (off_t)((uintptr_t)p / page_size + i) * 8) != 8 ||
		    !(e >> 63) || pread(kf, &f, 8, (off_t)(e & ((1ULL << 55) - 1)) * 8) != 8) {
			heads = -1;
			break;
		}
		heads += (f >> 15) & 1;
	}
	if (pm < 0 || kf < 0)
		heads = -1;
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	return heads;
}

/*
 * A hot set of 64 kB anonymous folios (mTHP, mapped by PTEs) on the slow
 * node moves to the fast one, each folio whole. Before, tiering skipped
 * every page of a large folio mapped by PTEs: none of them moved.
 */
TEST_F_TIMEOUT(tier, promotes_mthp_whole, 180)
{
	const int per = 16;	/* pages in a 64 kB folio */
	unsigned long mask = 1UL << 1;
	long long failed;
	int heads, after;
	double secs;

	if (thp_setting(THP_SIZES "64kB/enabled", self->mthp, sizeof(self->mthp)) ||
	    thp_setting(THP_SIZES "2048kB/enabled", self->pmd_thp,
			sizeof(self->pmd_thp)))
		SKIP(return, "no per-size THP settings (CONFIG_TRANSPARENT_HUGEPAGE=n)");
	ASSERT_EQ(0, write_file(THP_SIZES "64kB/enabled", "always"));
	ASSERT_EQ(0, write_file(THP_SIZES "2048kB/enabled", "never"));
	self->nhot = 16384;
	ASSERT_EQ(0, syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */, &mask,
			     8 * sizeof(mask)));
	self->hot = map_pages(self->nhot);
	ASSERT_NE(NULL, self->hot);
	touch_pages(self->hot, self->nhot);
	ASSERT_EQ(0, syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0));
	heads = compound_heads(self->hot, self->nhot);
	TH_LOG("%d of %d folios of 64 kB", heads, self->nhot / per);
	if (heads < 0.9 * self->nhot / per)
		SKIP(return, "the hot set is not in 64 kB folios");
	ASSERT_EQ(self->nhot, pages_on_node(self->hot, self->nhot, 1));
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, htmm_start(getpid(), 0));
	ASSERT_EQ(0, session_write("fast_pages", "32768"));
	ASSERT_EQ(0, session_write("tiering", "1"));

	secs = wait_share(self, 0, 0.9);
	failed = session_value(getpid(), "nr_migrate_failed");
	after = compound_heads(self->hot, self->nhot);
	TH_LOG("90%% on node 0 after %.1f s: %d pages there, %d folios of 64 kB, %lld failed",
	       secs, pages_on_node(self->hot, self->nhot, 0), after, failed);
	ASSERT_LE(0, secs);
	/* Moved whole: as many compound pages as before. */
	EXPECT_LE(0.9 * heads, after);
}

/* Node 1's memory (its MemTotal), in pages; -1 if unknown. */
static long long node1_pages(void)
{
	char buf[4096], *m;

	if (read_file(NODE1_SYSFS "/meminfo", buf, sizeof(buf)))
		return -1;
	m = strstr(buf, "MemTotal:");
	return m ? strtoll(m + 9, NULL, 10) * 1024 / page_size : -1;
}

static int by_number_down(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/*
 * Take a memory block of node 1 offline, the highest that goes: its
 * number; -1 if none does (pages that cannot move), -2 if there are no
 * memory blocks (CONFIG_MEMORY_HOTPLUG=n).
 */
static int offline_node1_block(void)
{
	DIR *d = opendir(NODE1_SYSFS);
	int nr[256], n = 0, i;
	struct dirent *e;

	while (d && (e = readdir(d)) && n < 256)
		if (!strncmp(e->d_name, "memory", 6) && e->d_name[6] >= '0' &&
		    e->d_name[6] <= '9')
			nr[n++] = atoi(e->d_name + 6);
	if (d)
		closedir(d);
	if (!n)
		return -2;
	qsort(nr, n, sizeof(*nr), by_number_down);
	for (i = 0; i < n; i++)
		if (!block_state(nr[i], "offline"))
			return nr[i];
	return -1;
}

/*
 * Memory hotplug: a session's default fast_pages, all its node has,
 * follows the node's memory as a block goes offline and comes back, and
 * tiering to the smaller node goes on; a fast_pages written stays. Before,
 * fast_pages kept its value from the start, whatever the node had left.
 * Node 1 is the session's node here: its blocks hold no kernel memory.
 */
TEST_F_TIMEOUT(tier, follows_node_memory_hotplug, 180)
{
	long long total, shrunk, back;
	double secs;
	int nr;

	ASSERT_EQ(0, htmm_start(getpid(), 1));
	total = node1_pages();
	ASSERT_LT(0, total);
	EXPECT_EQ(total, session_value(getpid(), "fast_pages"));
	nr = offline_node1_block();
	if (nr == -2)
		SKIP(return, "no memory blocks (CONFIG_MEMORY_HOTPLUG=n)");
	if (nr < 0)
		SKIP(return, "no memory block of node 1 would go offline");
	self->offlined = nr + 1;
	shrunk = node1_pages();
	TH_LOG("memory%d offline: node 1 %lld pages, was %lld; fast_pages %lld",
	       nr, shrunk, total, session_value(getpid(), "fast_pages"));
	EXPECT_GT(total, shrunk);
	EXPECT_EQ(shrunk, session_value(getpid(), "fast_pages"));

	/* Tiering goes on to what the node has left. */
	self->nhot = 2048;
	self->hot = pages_on(self->nhot, 0);
	ASSERT_NE(NULL, self->hot);
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, toucher, self));
	ASSERT_EQ(0, session_write("tiering", "1"));
	secs = wait_share(self, 1, 0.9);
	TH_LOG("90%% of the hot set on node 1 after %.1f s", secs);
	EXPECT_LE(0, secs);

	ASSERT_EQ(0, block_state(nr, "online"));
	self->offlined = 0;
	back = node1_pages();
	TH_LOG("memory%d online: node 1 %lld pages; fast_pages %lld", nr, back,
	       session_value(getpid(), "fast_pages"));
	EXPECT_EQ(back, session_value(getpid(), "fast_pages"));

	/* A value written is the user's limit: it stays. */
	ASSERT_EQ(0, session_write("fast_pages", "4096"));
	nr = offline_node1_block();
	if (nr >= 0) {
		self->offlined = nr + 1;
		EXPECT_EQ(4096, session_value(getpid(), "fast_pages"));
		EXPECT_EQ(0, block_state(nr, "online"));
		self->offlined = 0;
	}
}

/* A child that sleeps until killed: a second process for the node. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (!pid) {
		pause();
		_exit(0);
	}
	return pid;
}

static long long share_of(pid_t pid)
{
	return session_value(pid, "fast_share");
}

/* 0 if @pid's fast_share opens for reading, else the errno. */
static int open_share(pid_t pid)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/fast_share", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * Two sessions tiering to node 0 share it: each one's fast_share comes
 * below its fast_pages (the node's capacity is what they hold there and
 * its free room); alone again, a session's share is its fast_pages. A
 * guarantee is a number of pages, private as the hotness.
 */
TEST_F_TIMEOUT(tier, sessions_share_the_node, 120)
{
	char path[96];
	long long fast;
	double t0;
	pid_t kid;

	ASSERT_EQ(0, ERR(htmm_start(getpid(), 0)));
	ASSERT_EQ(0, session_write("tiering", "1"));
	fast = session_value(getpid(), "fast_pages");
	ASSERT_GT(fast, 0);
	EXPECT_EQ(fast, share_of(getpid()));
	EXPECT_EQ(0, session_value(getpid(), "fast_min_pages"));
	EXPECT_EQ(EINVAL, session_write("fast_min_pages", "many"));
	EXPECT_EQ(0, session_write("fast_min_pages", "1024"));
	EXPECT_EQ(1024, session_value(getpid(), "fast_min_pages"));
	EXPECT_EQ(EACCES, as_nobody(open_share, getpid()));

	kid = sleeper();
	ASSERT_GT(kid, 0);
	ASSERT_EQ(0, ERR(htmm_start(kid, 0)));
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/tiering", kid);
	ASSERT_EQ(0, write_file(path, "1"));
	for (t0 = now(); now() - t0 < WAIT_S; usleep(100000))
		if (share_of(getpid()) < fast && share_of(kid) < fast)
			break;
	EXPECT_LT(share_of(getpid()), fast);
	EXPECT_LT(share_of(kid), fast);
	EXPECT_EQ(0, ERR(htmm_end(kid)));
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	for (t0 = now(); now() - t0 < WAIT_S; usleep(100000))
		if (share_of(getpid()) == fast)
			break;
	EXPECT_EQ(fast, share_of(getpid()));
	EXPECT_EQ(0, ERR(htmm_end(getpid())));
}

TEST_HARNESS_MAIN
