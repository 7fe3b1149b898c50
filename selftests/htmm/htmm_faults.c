// SPDX-License-Identifier: GPL-2.0
/*
 * htmm_start() and htmm_end() under fault injection: failslab and
 * fail_page_alloc fail a share of the allocations of the calling task
 * (the task filter, /proc/<pid>/make-it-fail), so every allocation of
 * the start path may fail in turn. Each call must succeed or fail with
 * a documented errno, a failed start must leave no session behind, and
 * an ended one nothing at all. The kernel's own checkers (KASAN,
 * kmemleak, lockdep in the debug guest) report the rest. Needs
 * CONFIG_FAILSLAB and CONFIG_FAIL_PAGE_ALLOC with their debugfs files;
 * skips without them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc"
#define ROUNDS		300
#define TIMES		100000
#define KNOBS		8
#define KNOB_LEN	24

/* What a faulting child saw, shared with the parent. */
struct faults_report {
	int started, failed, bad_errno, left, ended_bad;
	int errnos[8];
};

FIXTURE(faults) {
	char source[64], pages[16];
	char saved[2][KNOBS][KNOB_LEN];
};

/* The knobs this test sets, restored after it. */
static const char *const knobs[KNOBS] = {
	"task-filter", "probability", "interval", "times", "verbose",
	"ignore-gfp-wait", "reject-start", "reject-end",
};

static int knob(const char *dir, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_file(path, val);
}

static long long injected_left(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/times", dir);
	return read_ll(path);
}

/* Aim @dir at the tasks that ask for it, @pct of their allocations. */
static int aim(const char *dir, const char *pct)
{
	char times[16];

	snprintf(times, sizeof(times), "%d", TIMES);
	return knob(dir, "task-filter", "Y") || knob(dir, "probability", pct) ||
	       knob(dir, "interval", "1") || knob(dir, "times", times) ||
	       knob(dir, "verbose", "0") || knob(dir, "ignore-gfp-wait", "N");
}

/*
 * kmemleak_scan_area(), from its start to the next function's: an
 * allocation of kmemleak's own that fails there makes it print under its
 * object's raw lock, which lockdep reports, a kernel matter and not
 * htmm's: such allocations are spared. (kmemleak's other allocations
 * fall back to its pool.) Returns 1 if found, 0 if the kernel has no
 * kmemleak.
 */
static int kmemleak_text(unsigned long long *lo, unsigned long long *hi)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a;
	char type, name[256];

	*lo = 0;
	*hi = ~0ULL;
	if (!f)
		return 0;
	while (fscanf(f, "%llx %c %255s%*[^\n]", &a, &type, name) == 3)
		if ((type == 't' || type == 'T') &&
		    !strcmp(name, "kmemleak_scan_area"))
			*lo = a;
	if (!*lo) {
		fclose(f);
		return 0;
	}
	rewind(f);
	while (fscanf(f, "%llx %c %255s%*[^\n]", &a, &type, name) == 3)
		if (a > *lo && a < *hi)
			*hi = a;
	fclose(f);
	return 1;
}

/* Spare kmemleak's own allocations in @dir; 0, or -1 if it cannot. */
static int spare_kmemleak(const char *dir)
{
	unsigned long long lo, hi;
	char val[KNOB_LEN];

	if (!kmemleak_text(&lo, &hi))
		return 0;
	snprintf(val, sizeof(val), "0x%llx", lo);
	if (knob(dir, "reject-start", val))
		return -1;
	snprintf(val, sizeof(val), "0x%llx", hi);
	return knob(dir, "reject-end", val);
}

static void disarm(const char *dir)
{
	knob(dir, "probability", "0");
	knob(dir, "times", "1");
}

FIXTURE_SETUP(faults)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	if (access(FAILSLAB "/times", W_OK) || access(FAILPAGE "/times", W_OK))
		SKIP(return, "no failslab, fail_page_alloc in debugfs");
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < KNOBS; k++) {
			char path[128];

			snprintf(path, sizeof(path), "%s/%s",
				 d ? FAILPAGE : FAILSLAB, knobs[k]);
			if (read_file(path, self->saved[d][k], KNOB_LEN))
				self->saved[d][k][0] = '\0';
			self->saved[d][k][strcspn(self->saved[d][k], "\n")] = '\0';
		}
	if (spare_kmemleak(FAILSLAB) || spare_kmemleak(FAILPAGE))
		SKIP(return, "kmemleak, and no fault-injection stack filter to spare it");
	if (read_file(HTMM_SYSFS "/buffer_pages", self->pages, sizeof(self->pages)))
		self->pages[0] = '\0';
	/* One page a CPU: as many allocations on any number of CPUs. */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", "1"));
	ASSERT_EQ(0, knob(FAILPAGE, "ignore-gfp-highmem", "N"));
	ASSERT_EQ(0, knob(FAILPAGE, "min-order", "0"));
}

FIXTURE_TEARDOWN(faults)
{
	disarm(FAILSLAB);
	disarm(FAILPAGE);
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < KNOBS; k++)
			if (self->saved[d][k][0])
				knob(d ? FAILPAGE : FAILSLAB, knobs[k],
				     self->saved[d][k]);
	knob(FAILPAGE, "ignore-gfp-highmem", "Y");
	knob(FAILPAGE, "min-order", "1");
	if (self->pages[0])
		write_file(HTMM_SYSFS "/buffer_pages", self->pages);
	if (self->source[0])
		write_file(HTMM_SYSFS "/source", self->source);
}

/* Set the calling task's own fault injection on or off, as often as it takes. */
static void make_it_fail(const char *on)
{
	int i;

	for (i = 0; i < 1000 && write_file("/proc/self/make-it-fail", on); i++)
		;
}

/*
 * Does @pid have a session? Asked with the faults off: a lookup that
 * failed to allocate would tell neither. Only ENOENT says no.
 */
static int has_session(pid_t pid)
{
	char path[96];
	struct stat st;
	int there;

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d", pid);
	make_it_fail("0");
	there = stat(path, &st) == 0 || errno != ENOENT;
	make_it_fail("1");
	return there;
}

static bool documented(int err)
{
	return err == ENOMEM || err == EAGAIN || err == EINTR ||
	       err == EPERM || err == ENODEV;
}

/*
 * In a child that fails: start and end a session on itself ROUNDS times.
 * It takes no page fault once it fails (a fault that cannot allocate
 * retries, or ends in the OOM killer): its stack and the report are
 * touched first, and nothing is mapped after.
 */
static void faulting_child(struct faults_report *r)
{
	char stack[64 * 1024];
	int i, err;

	memset(stack, 1, sizeof(stack));
	/* Keep the stores: the pages must be faulted in now. */
	__asm__ __volatile__("" : : "r"(stack) : "memory");
	if (write_file("/proc/self/make-it-fail", "1"))
		_exit(100);
	for (i = 0; i < ROUNDS; i++) {
		err = ERR(htmm_start(0, -1));
		if (err) {
			r->failed++;
			if (!documented(err) && r->bad_errno < 8)
				r->errnos[r->bad_errno++] = err;
			r->left += has_session(getpid());
			continue;
		}
		r->started++;
		err = ERR(htmm_end(0));
		/* Ending allocates nothing it needs. */
		r->ended_bad += err != 0;
		r->left += has_session(getpid());
	}
	_exit(0);
}

/*
 * @pct of the child's allocations fail: a perf session's start makes some
 * hundreds (events and buffers per CPU), an abit session's a few.
 */
static void run(struct __test_metadata *_metadata, const char *source,
		const char *pct)
{
	struct faults_report *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long slab0, page0;
	int status, i;
	pid_t child;

	ASSERT_NE(MAP_FAILED, r);
	/* Faulted in here: the child takes no fault on it while failing. */
	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, aim(FAILSLAB, pct));
	ASSERT_EQ(0, aim(FAILPAGE, pct));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", source));
	slab0 = injected_left(FAILSLAB);
	page0 = injected_left(FAILPAGE);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		faulting_child(r);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	TH_LOG("%s: %d starts, %d failed; faults injected: %lld failslab, %lld fail_page_alloc",
	       source, r->started, r->failed, slab0 - injected_left(FAILSLAB),
	       page0 - injected_left(FAILPAGE));
	for (i = 0; i < r->bad_errno; i++)
		TH_LOG("undocumented errno %d (%s)", r->errnos[i],
		       strerror(r->errnos[i]));
	EXPECT_EQ(0, r->bad_errno);
	EXPECT_EQ(0, r->left);
	EXPECT_EQ(0, r->ended_bad);
	EXPECT_EQ(ROUNDS, r->started + r->failed);
	/* Some starts fail and some succeed, or the test tests nothing. */
	EXPECT_LT(0, r->failed);
	EXPECT_LT(0, r->started);
	EXPECT_LT(0, slab0 - injected_left(FAILSLAB));
	EXPECT_FALSE(pid_session_exists(child));
}

TEST_F_TIMEOUT(faults, software_start_end, 300)
{
	run(_metadata, "software", "1");
}

TEST_F_TIMEOUT(faults, abit_start_end, 300)
{
	run(_metadata, "abit", "3");
}

TEST_HARNESS_MAIN
