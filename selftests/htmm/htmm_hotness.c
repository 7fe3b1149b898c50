// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for htmm's hotness (per-page access counts, histogram, hot
 * threshold) and its PMU-free Accessed-bit source, abit.
 *
 * A process keeps a hot set of pages busy from a thread while a cold set,
 * touched once, sits still; the per-page records in debugfs must then
 * tell the two apart under the threshold fitted to fast_pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define DEBUGFS		"/sys/kernel/debug"
#define NHOT		2048
#define NCOLD		8192
#define FAST_PAGES	"2560"

/* The pages of a test: the hot ones first, then the cold ones. */
struct hotcold {
	char *hot, *cold;
	int nhot, ncold;
	int stop;
	int dontneed;		/* make each touch a fault (software source) */
	char *busy;		/* the set the thread keeps touching */
	pthread_t thread;
};

static void *toucher(void *arg)
{
	struct hotcold *hc = arg;
	char *p;
	int i;

	while (!LOAD(hc->stop)) {
		p = LOAD(hc->busy);
		for (i = 0; i < hc->nhot; i++)
			__atomic_fetch_add(&p[i * page_size], 1,
					   __ATOMIC_RELAXED);
		if (hc->dontneed)
			madvise(p, hc->nhot * page_size, MADV_DONTNEED);
		else
			usleep(1000);
	}
	return NULL;
}

/* Touch the @n pages at @p over and over, for @us microseconds. */
static void touch_for(char *p, int n, long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		touch_pages(p, n);
		usleep(5000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000L +
		 (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/* A tracked page, as the pages file shows it. */
struct page_rec {
	unsigned long addr;
	unsigned long count;
	int bin, nid;
	unsigned long nr_pages;
};

static bool debugfs_ready(void)
{
	struct stat st;

	if (!stat(DEBUGFS "/htmm", &st))
		return true;
	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	return !stat(DEBUGFS "/htmm", &st);
}

/* Read every record of @pid's session; returns how many, or -1. */
static int read_pages(pid_t pid, struct page_rec **recs)
{
	char path[PATH_MAX], line[128];
	int n = 0, max = 0;
	struct page_rec r;
	FILE *f;

	snprintf(path, sizeof(path), DEBUGFS "/htmm/%d/pages", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	*recs = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "0x%lx %lu %d %d %lu", &r.addr, &r.count,
			   &r.bin, &r.nid, &r.nr_pages) != 5)
			continue;
		if (n == max) {
			max = max ? 2 * max : 4096;
			*recs = realloc(*recs, max * sizeof(**recs));
		}
		(*recs)[n++] = r;
	}
	fclose(f);
	return n;
}

static bool in_set(unsigned long addr, const char *p, int n)
{
	return addr >= (unsigned long)p &&
	       addr < (unsigned long)p + n * page_size;
}

/* How well the records tell @hot (n pages) from @cold (m pages). */
struct split {
	int hot_above, cold_above, hot_seen, cold_seen;
	unsigned long min_hot, max_cold;
	int threshold;
};

static void measure(pid_t pid, const char *hot, int n, const char *cold,
		    int m, struct split *sp)
{
	struct page_rec *r = NULL;
	int i, nr;

	memset(sp, 0, sizeof(*sp));
	sp->min_hot = ~0UL;
	sp->threshold = session_value(pid, "hot_threshold");
	nr = read_pages(pid, &r);
	for (i = 0; i < nr; i++) {
		if (in_set(r[i].addr, hot, n)) {
			sp->hot_seen++;
			sp->hot_above += r[i].bin >= sp->threshold;
			if (r[i].count < sp->min_hot)
				sp->min_hot = r[i].count;
		} else if (in_set(r[i].addr, cold, m)) {
			sp->cold_seen++;
			sp->cold_above += r[i].bin >= sp->threshold;
			if (r[i].count > sp->max_cold)
				sp->max_cold = r[i].count;
		}
	}
	free(r);
}

/* ≥ 95% of the hot pages hot, ≥ 95% of the hot bins' pages hot pages. */
static bool split_ok(const struct split *sp, int n)
{
	return sp->hot_above * 100 >= 95 * n &&
	       sp->hot_above * 100 >= 95 * (sp->hot_above + sp->cold_above);
}

static void log_split(struct __test_metadata *_metadata, const char *what,
		      const struct split *sp, double secs)
{
	TH_LOG("%s after %.1f s: threshold %d", what, secs, sp->threshold);
	TH_LOG("hot pages above it %d (of %d seen), cold %d (of %d seen)",
	       sp->hot_above, sp->hot_seen, sp->cold_above, sp->cold_seen);
	TH_LOG("least hot count %lu, most cold count %lu", sp->min_hot,
	       sp->max_cold);
}

/*
 * Wait for the split, at most @limit seconds (a busy host stretches the
 * guest's time; the log says how long it took).
 */
static double wait_split(pid_t pid, const char *hot, int n, const char *cold,
			 int m, struct split *sp, double limit, bool ranked)
{
	double t0 = now();

	do {
		usleep(200000);
		measure(pid, hot, n, cold, m, sp);
		if (split_ok(sp, n) && (!ranked || sp->min_hot > sp->max_cold))
			break;
	} while (now() - t0 < limit);
	return now() - t0;
}

FIXTURE(hot) {
	char source[64], scan[16], cooling[16], max_tracked[16], quota[16];
	struct hotcold hc;
};

static void save(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HTMM_SYSFS "/%s", name);
	save_file(path, buf, len);
}

static void restore(const char *name, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HTMM_SYSFS "/%s", name);
	restore_file(path, val);
}

FIXTURE_SETUP(hot)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	if (!debugfs_ready())
		SKIP(return, "no debugfs at " DEBUGFS);
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	save("scan_interval_ms", self->scan, sizeof(self->scan));
	save("cooling_ms", self->cooling, sizeof(self->cooling));
	save("max_tracked_pages", self->max_tracked,
	     sizeof(self->max_tracked));
	/*
	 * As in the htmm fixture: the tests count samples, which the CPU
	 * budget would thin out on a debug kernel (its own tests set it).
	 */
	save("cpu_quota", self->quota, sizeof(self->quota));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/scan_interval_ms", "100"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cooling_ms", "1000"));
}

FIXTURE_TEARDOWN(hot)
{
	if (self->hc.thread) {
		STORE(self->hc.stop, 1);
		pthread_join(self->hc.thread, NULL);
	}
	htmm_end(getpid());
	restore("source", self->source);
	restore("scan_interval_ms", self->scan);
	restore("cooling_ms", self->cooling);
	restore("max_tracked_pages", self->max_tracked);
	restore("cpu_quota", self->quota);
}

static int set_fast_pages(pid_t pid, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/fast_pages", pid);
	return write_file(path, val);
}

/* Map and touch the cold set, then start the thread on the hot set. */
static int start_hotcold(struct hotcold *hc, int nhot, int ncold,
			 bool dontneed)
{
	hc->hot = map_pages(nhot);
	hc->cold = map_pages(ncold);
	if (!hc->hot || !hc->cold)
		return -1;
	hc->nhot = nhot;
	hc->ncold = ncold;
	hc->dontneed = dontneed;
	hc->busy = hc->hot;
	touch_pages(hc->cold, ncold);
	touch_pages(hc->hot, nhot);
	return pthread_create(&hc->thread, NULL, toucher, hc);
}

/* With @source: the hot and cold sets, a session for us, fast_pages. */
static int start_split(struct hotcold *hc, const char *source, bool dontneed)
{
	if (write_file(HTMM_SYSFS "/source", source) ||
	    start_hotcold(hc, NHOT, NCOLD, dontneed) ||
	    htmm_start(getpid(), -1))
		return -1;
	return set_fast_pages(getpid(), FAST_PAGES);
}

TEST_F_TIMEOUT(hot, abit_splits_hot_from_cold, 120)
{
	struct split sp;
	double secs;

	ASSERT_EQ(0, start_split(&self->hc, "abit", false))
		TH_LOG("%s", strerror(errno));
	secs = wait_split(getpid(), self->hc.hot, NHOT, self->hc.cold, NCOLD,
			  &sp, 60, true);
	log_split(_metadata, "abit", &sp, secs);
	EXPECT_TRUE(split_ok(&sp, NHOT));
	EXPECT_GT(sp.min_hot, sp.max_cold);
	/* Touched before the session began: the first pass only clears. */
	EXPECT_EQ(0, sp.cold_seen);
	EXPECT_LE(NHOT, session_value(getpid(), "nr_tracked_pages"));
	EXPECT_LT(0, session_value(getpid(), "nr_sampled"));
	/* Every pass looks at every mapped page, accessed or not. */
	EXPECT_LE(NHOT + NCOLD, session_value(getpid(), "nr_scanned"));
	EXPECT_LT(session_value(getpid(), "nr_sampled"),
		  session_value(getpid(), "nr_scanned"));
}

/* The hot set moves: within two cooling epochs the new one is hot. */
TEST_F_TIMEOUT(hot, abit_phase_change, 120)
{
	struct split sp;
	char *other;
	double secs;

	other = map_pages(NHOT);
	ASSERT_NE(NULL, other);
	touch_pages(other, NHOT);
	ASSERT_EQ(0, start_split(&self->hc, "abit", false))
		TH_LOG("%s", strerror(errno));
	secs = wait_split(getpid(), self->hc.hot, NHOT, other, NHOT, &sp, 60,
			  false);
	log_split(_metadata, "first set", &sp, secs);
	ASSERT_TRUE(split_ok(&sp, NHOT));

	STORE(self->hc.busy, other);
	secs = wait_split(getpid(), other, NHOT, self->hc.hot, NHOT, &sp, 60,
			  false);
	log_split(_metadata, "after the move", &sp, secs);
	EXPECT_TRUE(split_ok(&sp, NHOT));
	/* 2 x cooling_ms, in the guest's own time, which a busy host stretches. */
	if (secs > 2.0)
		TH_LOG("slower than 2 x cooling_ms: %.1f s", secs);
}

/* The software source sees a page once per fault: DONTNEED makes many. */
TEST_F_TIMEOUT(hot, software_dontneed_splits, 120)
{
	struct split sp;
	double secs;

	ASSERT_EQ(0, start_split(&self->hc, "software", true))
		TH_LOG("%s", strerror(errno));
	/* Cold pages faulted before the start: fault them once more. */
	madvise(self->hc.cold, NCOLD * page_size, MADV_DONTNEED);
	touch_pages(self->hc.cold, NCOLD);
	secs = wait_split(getpid(), self->hc.hot, NHOT, self->hc.cold, NCOLD,
			  &sp, 60, true);
	log_split(_metadata, "software", &sp, secs);
	EXPECT_TRUE(split_ok(&sp, NHOT));
	EXPECT_GT(sp.min_hot, sp.max_cold);
}

TEST_F(hot, abit_refuses_system_wide)
{
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	EXPECT_EQ(-1, htmm_start(-1, -1));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(0, nr_sessions());
}

TEST_F(hot, settings_refuse_bad_values)
{
	char path[PATH_MAX], buf[512];
	int i, n = 0;
	char *p;

	EXPECT_NE(0, write_file(HTMM_SYSFS "/scan_interval_ms", "0"));
	EXPECT_NE(0, write_file(HTMM_SYSFS "/scan_interval_ms", "60001"));
	EXPECT_NE(0, write_file(HTMM_SYSFS "/cooling_ms", "0"));
	EXPECT_NE(0, write_file(HTMM_SYSFS "/cooling_ms", "x"));
	EXPECT_NE(0, write_file(HTMM_SYSFS "/max_tracked_pages", "-1"));
	EXPECT_EQ(100, read_ll(HTMM_SYSFS "/scan_interval_ms"));
	EXPECT_EQ(1000, read_ll(HTMM_SYSFS "/cooling_ms"));

	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, htmm_start(getpid(), -1));
	EXPECT_NE(0, set_fast_pages(getpid(), "lots"));
	EXPECT_LT(0, session_value(getpid(), "fast_pages"));
	p = map_pages(64);
	ASSERT_NE(NULL, p);
	touch_pages(p, 64);
	EXPECT_LE(64, session_value(getpid(), "nr_tracked_pages"));
	/* 0 would leave tiering nothing to keep: refused. */
	EXPECT_EQ(EINVAL, set_fast_pages(getpid(), "0"));
	EXPECT_EQ(0, set_fast_pages(getpid(), "1"));
	/* Nothing fits: no tracked page is in a hot bin. */
	EXPECT_LT(0, session_value(getpid(), "hot_threshold"));
	EXPECT_EQ(0, session_value(getpid(), "nr_hot_pages"));
	EXPECT_EQ(0, set_fast_pages(getpid(), "1000000"));
	EXPECT_EQ(0, session_value(getpid(), "hot_threshold"));
	EXPECT_LE(64, session_value(getpid(), "nr_hot_pages"));
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/hotness",
		 getpid());
	ASSERT_EQ(0, read_file(path, buf, sizeof(buf)));
	for (p = buf, i = 0; i < 32; i++) {
		char *end;

		strtoull(p, &end, 10);
		if (end == p)
			break;
		n++;
		p = end;
	}
	EXPECT_EQ(16, n) TH_LOG("hotness: %s", buf);
}

/*
 * At max_tracked_pages, pages seen in the same epoch as the tracked ones
 * go untracked and a counter says so; later epochs make room for them
 * (the records that cooled to 0, or were not counted since, go).
 */
TEST_F(hot, bound_counts_untracked)
{
	char *p = map_pages(1024);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_tracked_pages", "100"));
	/* Epochs of 500 ms (4 passes take 400). */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cooling_ms", "500"));
	touch_pages(p, 1024);
	ASSERT_EQ(0, htmm_start(getpid(), -1));
	usleep(500000);
	/* abit counts the pages used in a window: keep using them. */
	touch_for(p, 1024, 1000000);
	EXPECT_GE(100, session_value(getpid(), "nr_tracked_pages"));
	EXPECT_LT(0, session_value(getpid(), "nr_untracked"));
	EXPECT_LT(0, session_value(getpid(), "nr_sampled"));
	/*
	 * Five epochs on, touched again: other pages got records. A page
	 * counted at both looks of each of the 10 passes in the second of
	 * touching has a count of 20, which 5 halvings take to 0.
	 */
	usleep(2500000);
	touch_for(p, 1024, 1000000);
	EXPECT_GE(100, session_value(getpid(), "nr_tracked_pages"));
	EXPECT_LT(0, session_value(getpid(), "nr_evicted"));
}

/* The records of one huge page mapped as one: at its start and size. */
static int huge_records(pid_t pid, const char *p, size_t len,
			unsigned long want, int *other)
{
	struct page_rec *r = NULL;
	int i, nr, n = 0;

	*other = 0;
	nr = read_pages(pid, &r);
	for (i = 0; i < nr; i++) {
		if (!in_set(r[i].addr, p, len / page_size))
			continue;
		if (r[i].nr_pages == want &&
		    !(r[i].addr & (want * page_size - 1)))
			n++;
		else
			(*other)++;
	}
	free(r);
	return n;
}

/* Sample @p with abit for 2 s while touching it: huge_records(). */
static int abit_huge_records(char *p, size_t len, int *other)
{
	size_t j;
	int i;

	if (write_file(HTMM_SYSFS "/source", "abit") ||
	    htmm_start(getpid(), -1))
		return -1;
	/* Every huge page, after the passes that only clear. */
	for (i = 0; i < 10; i++) {
		for (j = 0; j < len; j += 512 * page_size)
			p[j + i * page_size] = 2;
		usleep(200000);
	}
	return huge_records(getpid(), p, len, 512, other);
}

/* Whether transparent huge pages are off altogether. */
static bool thp_off(void)
{
	char buf[128];

	return read_file("/sys/kernel/mm/transparent_hugepage/enabled", buf,
			 sizeof(buf)) || strstr(buf, "[never]");
}

/*
 * @len bytes aligned to @align, madvised MADV_HUGEPAGE and touched, in a
 * mapping of @len + @align bytes at *@raw; NULL if it cannot be made.
 */
static char *map_thp(size_t len, size_t align, char **raw)
{
	size_t i;
	char *p;

	*raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*raw == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)*raw + align - 1) & ~(align - 1));
	if (madvise(p, len, MADV_HUGEPAGE)) {
		munmap(*raw, len + align);
		return NULL;
	}
	for (i = 0; i < len; i += page_size)
		p[i] = 1;
	return p;
}

TEST_F_TIMEOUT(hot, thp_tracked_at_its_size, 60)
{
	size_t len = 4UL << 20;
	long long before;
	char *raw, *p;
	int n, other;

	if (thp_off())
		SKIP(return, "transparent huge pages are off");
	p = map_thp(len, len, &raw);
	ASSERT_NE(NULL, p);
	before = anon_huge_kb(p);
	if (before < 2048) {
		munmap(raw, 2 * len);
		SKIP(return, "no huge page was allocated (%lld kB)", before);
	}

	n = abit_huge_records(p, len, &other);
	ASSERT_LE(0, n);
	TH_LOG("%d records of 512 pages, %d others; AnonHugePages %lld -> %lld kB",
	       n, other, before, anon_huge_kb(p));
	EXPECT_LE(before / 2048, n);
	EXPECT_EQ(0, other);
	/* Nothing was split. */
	EXPECT_EQ(before, anon_huge_kb(p));
	munmap(raw, 2 * len);
}

/*
 * Huge pages touched at two rates: the even ones every 100 us, the odd
 * ones every 1.6 ms, from one thread that spins between touches.
 */
#define RANK_HUGE	32
#define RANK_SLOT_US	100
#define RANK_SLOW	16

/* The huge pages at @hc->busy, until @hc->stop. */
static void *paced_toucher(void *arg)
{
	struct hotcold *hc = arg;
	unsigned long slot = 0;
	double t0 = now();
	int i;

	while (!LOAD(hc->stop)) {
		for (i = 0; i < RANK_HUGE; i++)
			if (!(i & 1) || !(slot % RANK_SLOW))
				__atomic_fetch_add(&hc->busy[(i * 512UL + slot % 512) *
							    page_size], 1,
						   __ATOMIC_RELAXED);
		slot++;
		while (now() < t0 + slot * RANK_SLOT_US / 1e6)
			;
	}
	return NULL;
}

/*
 * The least count of an even huge page and the most of an odd one;
 * returns how many even ones have records.
 */
static int rank_counts(const char *p, unsigned long *min_hot,
		       unsigned long *max_cold)
{
	unsigned long huge = 512 * page_size;
	struct page_rec *r = NULL;
	int i, nr, n = 0;

	*min_hot = ~0UL;
	*max_cold = 0;
	nr = read_pages(getpid(), &r);
	for (i = 0; i < nr; i++) {
		if (!in_set(r[i].addr, p, RANK_HUGE * 512) ||
		    r[i].nr_pages != 512)
			continue;
		if ((r[i].addr - (unsigned long)p) / huge % 2) {
			if (r[i].count > *max_cold)
				*max_cold = r[i].count;
		} else {
			n++;
			if (r[i].count < *min_hot)
				*min_hot = r[i].count;
		}
	}
	free(r);
	return n;
}

/*
 * Every huge page is used every 1.6 ms at least, so a window of two
 * ticks or more (at HZ=1000, of 2 ms) finds all of them used at every look
 * and counts them alike: abit must rank the ones used 16 times as often
 * first, with shorter looks.
 */
TEST_F_TIMEOUT(hot, thp_ranked_by_rate, 120)
{
	size_t huge = 512 * page_size, len = RANK_HUGE * huge;
	unsigned long min_hot = 0, max_cold = 0;
	char buf[32], *raw, *p;
	long long kb;
	double t0, secs;
	int n = 0;

	if (thp_off())
		SKIP(return, "transparent huge pages are off");
	/* The toucher runs while ksamplingd looks. */
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU only");
	p = map_thp(len, huge, &raw);
	ASSERT_NE(NULL, p);
	kb = anon_huge_kb(p);
	if (kb < (long long)(len >> 10)) {
		munmap(raw, len + huge);
		SKIP(return, "%lld kB of %zu in huge pages", kb, len >> 10);
	}
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	/* The fixture's teardown stops the thread. */
	self->hc.busy = p;
	ASSERT_EQ(0, pthread_create(&self->hc.thread, NULL, paced_toucher,
				    &self->hc));
	ASSERT_EQ(0, htmm_start(getpid(), -1));
	/* Room for the pages touched often, half of them. */
	snprintf(buf, sizeof(buf), "%d", RANK_HUGE / 2 * 512);
	ASSERT_EQ(0, set_fast_pages(getpid(), buf));

	/* Counted over a few passes: 4 counts or more. */
	t0 = now();
	do {
		usleep(500000);
		n = rank_counts(p, &min_hot, &max_cold);
		if (n == RANK_HUGE / 2 && min_hot >= 4 && min_hot > max_cold)
			break;
	} while (now() - t0 < 60);
	secs = now() - t0;
	TH_LOG("after %.1f s: %d often used tracked, least count %lu; others at most %lu",
	       secs, n, min_hot, max_cold);
	EXPECT_EQ(RANK_HUGE / 2, n);
	EXPECT_LE(4, min_hot);
	EXPECT_GT(min_hot, max_cold);
}

TEST_F_TIMEOUT(hot, hugetlb_tracked_at_its_size, 60)
{
	size_t len = 4UL << 20;
	char old[32] = "";
	int n, other;
	char *p;

	read_file("/proc/sys/vm/nr_hugepages", old, sizeof(old));
	if (write_file("/proc/sys/vm/nr_hugepages", "2"))
		SKIP(return, "cannot reserve huge pages");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		write_file("/proc/sys/vm/nr_hugepages", old);
		SKIP(return, "no hugetlb pages: %s", strerror(errno));
	}
	memset(p, 1, len);
	n = abit_huge_records(p, len, &other);
	ASSERT_LE(0, n);
	TH_LOG("%d records of 512 pages, %d others", n, other);
	EXPECT_EQ(2, n);
	EXPECT_EQ(0, other);
	EXPECT_EQ(0, htmm_end(getpid()));
	munmap(p, len);
	write_file("/proc/sys/vm/nr_hugepages", old);
}

TEST_HARNESS_MAIN
