// SPDX-License-Identifier: GPL-2.0
/*
 * The third outside review's findings: one user cannot take every
 * session, abit starting and ending in a loop stays within cpu_quota, a
 * session's files are as private as its counters, htmm does not tier
 * beside NUMA balancing's tiering mode, abit leaves the PMD Accessed bit
 * to the multi-gen LRU, and ksamplingd waits for no process's mmap_lock.
 * Each test failed on the series before its fix (see the comment above
 * each).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NUMA_BALANCING	"/proc/sys/kernel/numa_balancing"
#define CHILDREN	16

FIXTURE(third) {
	char paranoid[16], source[64], quota[16], max[16], user_max[16];
	char pages[16], balancing[16], tier_quota[16];
};

FIXTURE_SETUP(third)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, read_file(PARANOID, self->paranoid, sizeof(self->paranoid)));
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	save_file(HTMM_SYSFS "/cpu_quota", self->quota, sizeof(self->quota));
	save_file(HTMM_SYSFS "/tier_cpu_quota", self->tier_quota,
		  sizeof(self->tier_quota));
	save_file(HTMM_SYSFS "/max_sessions", self->max, sizeof(self->max));
	save_file(HTMM_SYSFS "/max_user_sessions", self->user_max,
		  sizeof(self->user_max));
	save_file(HTMM_SYSFS "/buffer_pages", self->pages, sizeof(self->pages));
	save_file(NUMA_BALANCING, self->balancing, sizeof(self->balancing));
	/* Unprivileged users may sample their own processes in user mode. */
	ASSERT_EQ(0, write_file(PARANOID, "1"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_sessions", "16"));
	/* Buffers small enough for nobody's locked-memory limit. */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", "1"));
}

FIXTURE_TEARDOWN(third)
{
	restore_file(PARANOID, self->paranoid);
	restore_file(HTMM_SYSFS "/source", self->source);
	restore_file(HTMM_SYSFS "/cpu_quota", self->quota);
	restore_file(HTMM_SYSFS "/tier_cpu_quota", self->tier_quota);
	restore_file(HTMM_SYSFS "/max_sessions", self->max);
	restore_file(HTMM_SYSFS "/max_user_sessions", self->user_max);
	restore_file(HTMM_SYSFS "/buffer_pages", self->pages);
	restore_file(NUMA_BALANCING, self->balancing);
}

/* What nobody's sessions came to, shared with root. */
struct crowd {
	int started;		/* sessions nobody started */
	int err;		/* errno of the first start refused */
	int ready;		/* nobody holds its sessions now */
};

/* As nobody: start a session on each of CHILDREN sleeping children. */
static void crowd_child(struct crowd *c)
{
	pid_t kids[CHILDREN] = {};
	int i;

	/* Root ends us and our children together. */
	if (setpgid(0, 0))
		_exit(100);
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		_exit(100);
	/* Changing uid made it undumpable: its children could not be traced. */
	if (prctl(PR_SET_DUMPABLE, 1))
		_exit(100);
	for (i = 0; i < CHILDREN; i++) {
		kids[i] = fork();
		if (!kids[i]) {
			pause();
			_exit(0);
		}
		if (kids[i] < 0)
			_exit(101);
		if (htmm_start(kids[i], -1))
			break;
		c->started++;
	}
	c->err = i < CHILDREN ? errno : 0;
	STORE(c->ready, 1);
	/* Hold them until root has tried its own; children go with us. */
	sleep(60);
	for (i = 0; i < CHILDREN; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	_exit(0);
}

/*
 * nobody starts sessions on its children under max_sessions @max and
 * max_user_sessions @mine: it must get @want, then ENOSPC, and root one
 * more beside them.
 */
static void crowd(struct __test_metadata *_metadata, const char *max,
		  const char *mine, int want)
{
	struct crowd *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0 = now();
	int status;
	pid_t child;

	ASSERT_NE(MAP_FAILED, c);
	memset(c, 0, sizeof(*c));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_sessions", max));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_user_sessions", mine));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		crowd_child(c);
	while (!LOAD(c->ready) && now() - t0 < 60)
		usleep(10000);
	EXPECT_TRUE(LOAD(c->ready));
	EXPECT_EQ(want, c->started) TH_LOG("max_sessions %s, max_user_sessions %s",
					   max, mine);
	EXPECT_EQ(ENOSPC, c->err);
	EXPECT_EQ(0, ERR(htmm_start(getpid(), -1)));
	EXPECT_EQ(0, ERR(htmm_end(getpid())));
	kill(-child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	/* The children's sessions end with them. */
	while (nr_sessions() > 0 && now() - t0 < 90)
		usleep(10000);
	munmap(c, sizeof(*c));
}

/*
 * Finding 2: one unprivileged user could take every session. Before the
 * fix nobody started 16 sessions on its own children and root's start
 * failed with ENOSPC. Now nobody gets max_user_sessions, then ENOSPC,
 * and root starts one while nobody holds them; and where users have
 * room, the last eighth of max_sessions is kept for CAP_PERFMON.
 */
TEST_F_TIMEOUT(third, user_session_limit, 300)
{
	EXPECT_EQ(4, read_ll(HTMM_SYSFS "/max_user_sessions"));
	crowd(_metadata, "16", "3", 3);
	crowd(_metadata, "8", "16", 7);
	crowd(_metadata, "2", "16", 1);
}

/*
 * Session files describe the process as its counters do. Before the fix
 * sessions/<pid>/sample_period of a root process opened for nobody.
 */
static int open_period(pid_t pid)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/sample_period",
		 pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

TEST_F(third, session_files_private)
{
	ASSERT_EQ(0, ERR(htmm_start(getpid(), -1)));
	EXPECT_EQ(0, open_period(getpid()));
	EXPECT_EQ(EACCES, as_nobody(open_period, getpid()));
	EXPECT_EQ(0, ERR(htmm_end(getpid())));
}

/*
 * Coexistence: NUMA balancing's tiering mode moves pages by its own
 * rules. Before the fix writing 1 to a session's tiering was accepted
 * with numa_balancing at 2; now it is refused with EBUSY.
 */
TEST_F(third, no_tiering_beside_numa_balancing)
{
	char old[16], path[96];
	int err;

	if (!node_has_memory(0) || !node_has_memory(1))
		SKIP(return, "needs nodes 0 and 1 with memory");
	if (read_file(NUMA_BALANCING, old, sizeof(old)))
		SKIP(return, "no %s (CONFIG_NUMA_BALANCING)", NUMA_BALANCING);
	if (write_file(NUMA_BALANCING, "2"))
		SKIP(return, "numa_balancing refuses 2");
	ASSERT_EQ(0, ERR(htmm_start(getpid(), 0)));
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/tiering",
		 getpid());
	err = write_file(path, "1");
	EXPECT_EQ(EBUSY, err);
	write_file(NUMA_BALANCING, "0");
	EXPECT_EQ(0, write_file(path, "1"));
	EXPECT_EQ(0, ERR(htmm_end(getpid())));
	old[strcspn(old, "\n")] = '\0';
	write_file(NUMA_BALANCING, old);
}

/* ksamplingd's CPU time so far, in ns. */
static long long ksamplingd_ns(void)
{
	char path[64], buf[128];
	pid_t pid = find_ksamplingd();

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (pid < 0 || read_file(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

#define LOOP_S		15
#define SPARSE_PAGES	(1024 * 1024)	/* 4 GiB of read-faulted zero pages */
#define QUOTA		30		/* per-mille of a CPU */
#define BURST_MS	200		/* HTMM_ABIT_BURST_NS */

/*
 * In a child: SPARSE_PAGES of read-faulted zero pages, which cost only
 * page tables; then tell the parent through @ready.
 */
static void sparse_map(int *ready)
{
	unsigned long sum = 0;
	char *p;
	long i;

	p = mmap(NULL, SPARSE_PAGES * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		_exit(101);
	/* One page written gives the VMA its anon_vma: walks look at it. */
	p[0] = 1;
	for (i = 1; i < SPARSE_PAGES; i++)
		sum += p[i * page_size];
	/* Zero pages read 0; the test keeps the reads. */
	if (sum)
		_exit(104);
	STORE(*ready, 1);
}

/* As nobody: a sparse mapping, then start / 300 ms / end for LOOP_S. */
static void loop_child(int *ready)
{
	double t0;

	/* Dumpable, as after an exec: a pass checks perf's ptrace rule. */
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ||
	    prctl(PR_SET_DUMPABLE, 1))
		_exit(100);
	sparse_map(ready);
	for (t0 = now(); now() - t0 < LOOP_S;) {
		if (htmm_start(0, -1))
			_exit(102);
		usleep(300000);
		if (htmm_end(0))
			_exit(103);
	}
	_exit(0);
}

/*
 * Finding 1: cpu_quota did not bound abit. A new session started with a
 * full bucket and walked the whole address space at once, charged to a
 * bucket htmm_end() freed: before the fix, nobody looping start / end on
 * 4 GiB of zero pages held ksamplingd for seconds, where the 3% quota is
 * 0.45 s in 15 s. A user's new session now takes on the debt its last
 * one left, and a walk stops where its bucket is spent: ksamplingd stays
 * within the quota, a first burst and the burst a walk may overrun by.
 */
TEST_F_TIMEOUT(third, abit_loop_within_quota, 300)
{
	int *ready = mmap(NULL, sizeof(*ready), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long before, used, scanned;
	char quota[16];
	double t0, dt;
	int status;
	pid_t child;

	ASSERT_NE(MAP_FAILED, ready);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	snprintf(quota, sizeof(quota), "%d", QUOTA);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", quota));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		loop_child(ready);
	while (!LOAD(*ready) && !waitpid(child, &status, WNOHANG))
		usleep(10000);
	before = ksamplingd_ns();
	scanned = total("nr_scanned");
	t0 = now();
	ASSERT_LE(0, before);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	used = ksamplingd_ns() - before;
	dt = now() - t0;
	scanned = total("nr_scanned") - scanned;
	/*
	 * The quota over the loop's time (longer than LOOP_S on a loaded
	 * host), a first burst and the burst a walk may go into debt by:
	 * twice that, for the drains and wakeups around it. And the walks
	 * must have run at all.
	 */
	TH_LOG("ksamplingd used %lld ms in %.1f s, %lld page-table entries scanned",
	       used / 1000000, dt, scanned);
	EXPECT_LT(0, scanned);
	EXPECT_GT(2e6 * (QUOTA * dt + 2 * BURST_MS), used);
}

#define LRU_GEN		"/sys/kernel/mm/lru_gen/enabled"
#define MGLRU_PAGES	16384

/* Page-table entries our abit session looked at in @secs, after priming. */
static long long scanned_over(double secs)
{
	long long before;

	if (htmm_start(getpid(), -1))
		return -1;
	sleep(2);
	before = session_value(getpid(), "nr_scanned");
	usleep(secs * 1e6);
	before = session_value(getpid(), "nr_scanned") - before;
	htmm_end(getpid());
	return before;
}

/*
 * Finding 3: abit skipped a page table whose PMD Accessed bit was clear,
 * and cleared the bit, as the multi-gen LRU does when it ages: each then
 * skipped the tables of pages in use whose bit the other had cleared.
 * While the multi-gen LRU ages by the bit (enabled 0x0007), abit now
 * leaves it alone and walks every table, with none of its pages used:
 * before, it looked at a few entries a table there too.
 */
TEST_F_TIMEOUT(third, abit_leaves_pmd_bit_to_mglru, 120)
{
	long long off, on;
	char saved[16];
	char *p;

	if (access(LRU_GEN, F_OK))
		SKIP(return, "no multi-gen LRU (CONFIG_LRU_GEN=n)");
	save_file(LRU_GEN, saved, sizeof(saved));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
	p = map_pages(MGLRU_PAGES);
	ASSERT_NE(NULL, p);
	madvise(p, (size_t)MGLRU_PAGES * page_size, MADV_NOHUGEPAGE);
	touch_pages(p, MGLRU_PAGES);

	ASSERT_EQ(0, write_file(LRU_GEN, "n"));
	off = scanned_over(3);
	ASSERT_EQ(0, write_file(LRU_GEN, "y"));
	if (read_ll(LRU_GEN) != 7) {
		restore_file(LRU_GEN, saved);
		SKIP(return, "the multi-gen LRU does not age by the PMD bit here");
	}
	on = scanned_over(3);
	restore_file(LRU_GEN, saved);
	TH_LOG("entries scanned in 3 s: %lld with the multi-gen LRU off, %lld on",
	       off, on);
	ASSERT_LE(0, off);
	/* At least two whole walks; the bit skips most of them when off. */
	EXPECT_LE(2 * MGLRU_PAGES, on);
	EXPECT_LT(off, on / 2);
	munmap(p, (size_t)MGLRU_PAGES * page_size);
}

#define SCHEDSTATS	"/proc/sys/kernel/sched_schedstats"
#define WRITER_PAGES	65536

/* ms @pid spent in uninterruptible sleep so far (schedstats), or -1. */
static double blocked_ms(pid_t pid)
{
	char path[64], buf[8192], *s;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	s = strstr(buf, "sum_block_runtime");
	s = s ? strchr(s, ':') : NULL;
	return s ? strtod(s + 1, NULL) : -1;
}

/* Holds its mmap_lock for writing most of the time: mprotect()s a range. */
static void *mprotect_loop(void *arg)
{
	char *p = arg;

	for (;;) {
		mprotect(p, (size_t)WRITER_PAGES * page_size, PROT_READ);
		mprotect(p, (size_t)WRITER_PAGES * page_size,
			 PROT_READ | PROT_WRITE);
	}
	return NULL;
}

/*
 * A process whose one thread keeps mprotect()ing a large range while
 * another keeps faulting pages in: its samples keep coming (faults take
 * the VMA's lock, not the mmap_lock) while its mmap_lock is mostly
 * write-held.
 */
static void writer_child(void)
{
	char *big = map_pages(WRITER_PAGES), *f = map_pages(256);
	pthread_t t;
	int i;

	if (!big || !f)
		_exit(1);
	for (i = 0; i < WRITER_PAGES; i++)
		(void)LOAD(big[(size_t)i * page_size]);
	if (pthread_create(&t, NULL, mprotect_loop, big))
		_exit(1);
	for (;;) {
		touch_pages(f, 256);
		madvise(f, 256 * page_size, MADV_DONTNEED);
	}
}

/*
 * ksamplingd waited for the mmap_lock of a sampled process in every
 * drain: one that held it for writing stalled the samples of every
 * session. It now leaves that process's samples in their buffer and
 * comes back to them; only readers of a session's files wait.
 */
TEST_F_TIMEOUT(third, drain_never_waits_for_a_writer, 120)
{
	pid_t ks = find_ksamplingd(), child;
	double before, after;
	char stats[16];
	int status;

	ASSERT_LT(0, ks);
	save_file(SCHEDSTATS, stats, sizeof(stats));
	if (write_file(SCHEDSTATS, "1"))
		SKIP(return, "no schedstats (CONFIG_SCHEDSTATS=n)");
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		writer_child();
	sleep(1);
	ASSERT_EQ(0, htmm_start(child, -1));
	sleep(1);
	before = blocked_ms(ks);
	sleep(5);
	after = blocked_ms(ks);
	TH_LOG("ksamplingd blocked %.0f ms in 5 s; the writer's samples: %lld counted, %lld lost",
	       after - before, session_value(child, "nr_sampled"),
	       session_value(child, "nr_lost"));
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	restore_file(SCHEDSTATS, stats);
	ASSERT_LE(0, before);
	EXPECT_GT(250, after - before);
	while (pid_session_exists(child))
		usleep(10000);
}

/* A sparse mapping, then sleep until killed. */
static void sparse_child(int *ready)
{
	sparse_map(ready);
	for (;;)
		pause();
}

#define TIER_LOOP_S	45
#define TIER_BURST_MS	2000	/* HTMM_TIER_BURST_NS */

/*
 * khtmm_tierd's CPU time was outside every budget: a pass walks every
 * page-table entry of the process, and a session whose passes come one
 * after the other (here, fast_pages written every 20 ms, as a page
 * sampled for promotion does too) held it for a fifth of a CPU and more.
 * It now has a bucket of its own at tier_cpu_quota: over the run, the
 * quota, the first burst and 500 ms for the pass that overran it.
 */
TEST_F_TIMEOUT(third, tierd_within_quota, 300)
{
	int *ready = mmap(NULL, sizeof(*ready), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long before, used, passes = 0;
	char quota[16], path[96];
	double t0, dt;
	int status;
	pid_t child;

	ASSERT_NE(MAP_FAILED, ready);
	if (!node_has_memory(0) || !node_has_memory(1))
		SKIP(return, "needs nodes 0 and 1 with memory");
	snprintf(quota, sizeof(quota), "%d", QUOTA);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/tier_cpu_quota", quota));
	ASSERT_EQ(0, write_file(NUMA_BALANCING, "0"));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		sparse_child(ready);
	while (!LOAD(*ready) && !waitpid(child, &status, WNOHANG))
		usleep(10000);
	ASSERT_EQ(0, htmm_start(child, 0));
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/tiering", child);
	ASSERT_EQ(0, write_file(path, "1"));
	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/fast_pages",
		 child);
	before = read_ll(HTMM_SYSFS "/tier_cpu_us");
	for (t0 = now(); now() - t0 < TIER_LOOP_S; usleep(20000))
		if (write_file(path, passes++ & 1 ? "100000" : "100001"))
			break;
	used = read_ll(HTMM_SYSFS "/tier_cpu_us") - before;
	dt = now() - t0;
	TH_LOG("khtmm_tierd used %lld ms in %.1f s (%lld writes of fast_pages)",
	       used / 1000, dt, passes);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	ASSERT_LE(0, before);
	EXPECT_LT(TIER_LOOP_S - 1, dt);
	EXPECT_GT(1e3 * (QUOTA * dt + TIER_BURST_MS + 500), used);
	while (pid_session_exists(child))
		usleep(10000);
}

TEST_HARNESS_MAIN
