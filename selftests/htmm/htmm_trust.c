// SPDX-License-Identifier: GPL-2.0
/*
 * htmm keeps perf's security rules and reports the right facts: the
 * tests of the outside review's findings. Each one failed on the series
 * before the fix it checks (see the comment above each test).
 *
 * Unprivileged cases run in a child as uid/gid 65534 with no
 * capabilities; the parent (root) reads the trace and the counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define TPAGES		64

static int become_nobody(void)
{
	return setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534);
}

/* What an unprivileged child did, shared with the parent. */
struct nobody_report {
	int start_err;		/* errno of htmm_start(0, -1) */
	int wide_err;		/* errno of htmm_start(-1, -1) */
	char *kernel_faults;	/* pages first touched by read() */
	char *user_faults;	/* pages first touched by stores */
};

/*
 * As nobody: sample itself; fault TPAGES pages in from the kernel (read()
 * into them) and TPAGES from user mode. Returns the child's report.
 */
static void nobody_faults(struct nobody_report *r)
{
	size_t len = TPAGES * page_size;
	int fd;

	if (become_nobody())
		_exit(100);
	r->wide_err = ERR(htmm_start(-1, -1));
	r->start_err = ERR(htmm_start(0, -1));
	if (r->start_err)
		_exit(0);
	r->kernel_faults = map_pages(TPAGES);
	r->user_faults = map_pages(TPAGES);
	fd = open("/dev/zero", O_RDONLY);
	if (!r->kernel_faults || !r->user_faults || fd < 0 ||
	    read(fd, r->kernel_faults, len) != (ssize_t)len)
		_exit(101);
	touch_pages(r->user_faults, TPAGES);
	_exit(htmm_end(0) ? 102 : 0);
}

/* Run nobody_faults() under @paranoid; pages sampled by kind. */
static void run_nobody(struct __test_metadata *_metadata, const char *paranoid,
		       struct nobody_report *r, int *kernel_hit, int *user_hit)
{
	unsigned char khit[TPAGES] = {}, uhit[TPAGES] = {};
	struct sample_filter f[2] = {
		{ .tid = -1, .n = TPAGES, .hit = khit },
		{ .tid = -1, .n = TPAGES, .hit = uhit },
	};
	int status;
	pid_t child;

	ASSERT_EQ(0, write_file(PARANOID, paranoid));
	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, trace_samples(true));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		nobody_faults(r);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, trace_samples(false));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	f[0].pid = child;
	f[1].pid = child;
	f[0].base = r->kernel_faults;
	f[1].base = r->user_faults;
	*kernel_hit = *user_hit = 0;
	if (r->start_err)
		return;
	ASSERT_EQ(0, trace_collect(f, 2));
	*kernel_hit = pages_hit(&f[0]);
	*user_hit = pages_hit(&f[1]);
}

FIXTURE(trust) {
	char paranoid[16];
	char quota[16];
	char source[64];
};

FIXTURE_SETUP(trust)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, read_file(PARANOID, self->paranoid, sizeof(self->paranoid)));
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/cpu_quota", self->quota,
			       sizeof(self->quota)));
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	/*
	 * Counts are compared with faults: page faults as the source, no
	 * budget raising the period.
	 */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
}

FIXTURE_TEARDOWN(trust)
{
	if (self->paranoid[0])
		EXPECT_EQ(0, write_file(PARANOID, self->paranoid));
	if (self->quota[0])
		EXPECT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", self->quota));
	if (self->source[0])
		EXPECT_EQ(0, write_file(HTMM_SYSFS "/source", self->source));
}

/*
 * Finding 1: perf_event_paranoid applies. Before the fix, paranoid 3 did
 * not stop an unprivileged caller, and at 2 its page faults taken in
 * kernel mode were sampled although perf refuses exclude_kernel=0 there.
 */
TEST_F(trust, paranoid_levels)
{
	struct nobody_report *r;
	int khit, uhit;

	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);

	/* 3: nothing for the unprivileged. */
	run_nobody(_metadata, "3", r, &khit, &uhit);
	EXPECT_EQ(EACCES, r->start_err);
	EXPECT_EQ(EACCES, r->wide_err);

	/* 2: its own process, user mode only. */
	run_nobody(_metadata, "2", r, &khit, &uhit);
	TH_LOG("paranoid 2: kernel-mode faults sampled %d/%d, user-mode %d/%d",
	       khit, TPAGES, uhit, TPAGES);
	EXPECT_EQ(0, r->start_err);
	EXPECT_EQ(EACCES, r->wide_err);
	EXPECT_EQ(0, khit);
	EXPECT_EQ(TPAGES, uhit);

	/* 1: kernel mode too, as perf allows; still no CPU-wide events. */
	run_nobody(_metadata, "1", r, &khit, &uhit);
	TH_LOG("paranoid 1: kernel-mode faults sampled %d/%d, user-mode %d/%d",
	       khit, TPAGES, uhit, TPAGES);
	EXPECT_EQ(0, r->start_err);
	EXPECT_EQ(EACCES, r->wide_err);
	EXPECT_EQ(TPAGES, khit);
	EXPECT_EQ(TPAGES, uhit);
	munmap(r, sizeof(*r));
}

/*
 * Finding 3: a session's counters are root's, and only its owner (or
 * CAP_PERFMON) ends it. Before the fix the counters were world-readable
 * and anyone who could ptrace the target could end root's session on it.
 */
TEST_F(trust, session_is_private)
{
	char path[PATH_MAX], buf[64];
	int status, fd;
	pid_t target, other;

	target = fork();
	ASSERT_LE(0, target);
	if (!target) {
		if (become_nobody())
			_exit(100);
		pause();
		_exit(0);
	}
	usleep(50000);
	ASSERT_EQ(0, htmm_start(target, -1));

	other = fork();
	ASSERT_LE(0, other);
	if (!other) {
		if (become_nobody())
			_exit(100);
		snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/nr_sampled",
			 target);
		fd = open(path, O_RDONLY);
		if (fd >= 0 || errno != EACCES)
			_exit(1);
		/* With one session, the totals are its counters. */
		fd = open(HTMM_SYSFS "/nr_sampled", O_RDONLY);
		if (fd >= 0 || errno != EACCES)
			_exit(4);
		/* What is harmless stays readable. */
		snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/node",
			 target);
		if (read_file(path, buf, sizeof(buf)))
			_exit(2);
		/* It could ptrace the target, but did not start the session. */
		if (ERR(htmm_end(target)) != EACCES)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(other, waitpid(other, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(pid_session_exists(target));
	EXPECT_LE(0, session_value(target, "nr_sampled"));
	EXPECT_EQ(0, htmm_end(target));
	kill(target, SIGKILL);
	waitpid(target, &status, 0);
}

static char *leader_pages;
static int leader_pipe[2];

static void *touch_after_leader(void *arg)
{
	char c = 1;

	/* The leader has gone by now: a zombie without an address space. */
	usleep(200000);
	touch_pages(leader_pages, NPAGES);
	if (write(leader_pipe[1], &c, 1) != 1)
		_exit(1);
	pause();
	return NULL;
}

/*
 * Finding 6: a sample's page is found through the thread that took it.
 * Before the fix it went through the thread-group leader, which has no
 * address space once it exits while other threads run: nothing was near.
 */
TEST_F(trust, leader_gone_pages_still_found)
{
	pthread_t t;
	long long near;
	pid_t child;
	int status;
	char c;

	ASSERT_EQ(0, pipe(leader_pipe));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		leader_pages = map_pages(NPAGES);
		if (!leader_pages || htmm_start(0, 0) ||
		    pthread_create(&t, NULL, touch_after_leader, NULL))
			_exit(1);
		syscall(SYS_exit, 0);	/* this thread only */
	}
	ASSERT_EQ(1, read(leader_pipe[0], &c, 1));
	near = session_value(child, "nr_near");
	TH_LOG("leader gone: sampled %lld, near %lld, far %lld",
	       session_value(child, "nr_sampled"), near,
	       session_value(child, "nr_far"));
	EXPECT_LE(NPAGES, near);
	kill(child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
}

#define HPAGE		(2UL << 20)

/* @n huge pages' worth of memory on @node, 2 MiB aligned; NULL if not. */
static char *map_huge(int n, int node, bool hugetlb)
{
	unsigned long mask = 1UL << node;
	size_t len = n * HPAGE;
	char *p, *a;

	if (hugetlb) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		a = p;
	} else {
		p = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		a = (char *)(((unsigned long)p + HPAGE - 1) & ~(HPAGE - 1));
	}
	if (p == MAP_FAILED)
		return NULL;
	if (syscall(__NR_mbind, a, len, MPOL_BIND, &mask, sizeof(mask) * 8, 0))
		return NULL;
	if (!hugetlb && madvise(a, len, MADV_HUGEPAGE))
		return NULL;
	return a;
}

static bool set_hugepages(int node, int n)
{
	char path[128], val[16];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 node);
	snprintf(val, sizeof(val), "%d", n);
	return !write_file(path, val) && read_ll(path) == n;
}

/* Touch one byte of each of @n huge pages at @p. */
static void touch_huge(char *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i * HPAGE] = 1;
}

#define NHUGE	4

/*
 * Finding 7: near and far for huge mappings, without changing them.
 * Before the fix hugetlb pages were never classified (no hugetlb_entry in
 * the walk), and the walk could split what it looked at.
 */
TEST_F(trust, huge_pages_near_far)
{
	long long near, far, thp_kb;
	char *thp0, *thp1, *tlb0, *tlb1;
	pid_t pid = getpid();

	if (!node_has_memory(0) || !node_has_memory(1))
		SKIP(return, "needs memory on nodes 0 and 1");
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) ||
	    access("/sys/devices/system/node/node0/hugepages", F_OK))
		SKIP(return, "kernel without THP or hugetlbfs");
	ASSERT_TRUE(set_hugepages(0, NHUGE));
	ASSERT_TRUE(set_hugepages(1, NHUGE));
	ASSERT_EQ(0, write_file("/sys/kernel/mm/transparent_hugepage/enabled",
				"madvise"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));

	ASSERT_EQ(0, htmm_start(0, 0));
	thp0 = map_huge(NHUGE, 0, false);
	thp1 = map_huge(NHUGE, 1, false);
	tlb0 = map_huge(NHUGE, 0, true);
	tlb1 = map_huge(NHUGE, 1, true);
	ASSERT_NE(NULL, thp0);
	ASSERT_NE(NULL, thp1);
	ASSERT_NE(NULL, tlb0);
	ASSERT_NE(NULL, tlb1);
	/* One fault per huge page: THP on 0 and 1, then hugetlb. */
	touch_huge(thp0, NHUGE);
	touch_huge(thp1, NHUGE);
	thp_kb = anon_huge_kb(thp0) + anon_huge_kb(thp1);
	near = session_value(pid, "nr_near");
	far = session_value(pid, "nr_far");
	TH_LOG("THP: near %lld far %lld, AnonHugePages %lld kB", near, far,
	       thp_kb);
	EXPECT_EQ(2 * NHUGE * (HPAGE >> 10), thp_kb);
	EXPECT_LE(NHUGE, near);
	EXPECT_LE(NHUGE, far);
	/* The lookups split nothing. */
	EXPECT_EQ(thp_kb, anon_huge_kb(thp0) + anon_huge_kb(thp1));

	touch_huge(tlb0, NHUGE);
	touch_huge(tlb1, NHUGE);
	EXPECT_LE(near + NHUGE, session_value(pid, "nr_near"));
	EXPECT_LE(far + NHUGE, session_value(pid, "nr_far"));
	TH_LOG("hugetlb: near %lld far %lld", session_value(pid, "nr_near") - near,
	       session_value(pid, "nr_far") - far);
	EXPECT_EQ(0, htmm_end(0));

	munmap(tlb0, NHUGE * HPAGE);
	munmap(tlb1, NHUGE * HPAGE);
	set_hugepages(0, 0);
	set_hugepages(1, 0);
}

/*
 * Finding 2: a session's buffers are charged as perf_mmap() charges a
 * mapping of the same size: the user's perf_event_mlock_kb allowance per
 * online CPU, the rest pinned (VmPin) under RLIMIT_MEMLOCK. Before the
 * fix any RLIMIT_MEMLOCK let an unprivileged user pin 4 MiB per CPU.
 */
#define BIG_BUFFER	1024	/* pages per CPU: the most buffer_pages takes */

struct charge_report {
	int start_err;		/* errno of htmm_start(0, -1) */
	long long pin_start;	/* VmPin, kB: before, during, after */
	long long pin_during;
	long long pin_end;
	int listed;		/* its session directory existed */
};

/* VmPin of process @pid (0: this one), in kB, or -1. */
static long long vm_pin_kb_of(pid_t pid)
{
	char buf[4096], path[64], *p;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "VmPin:");
	return p ? strtoll(p + 6, NULL, 10) : -1;
}

/* As nobody under an RLIMIT_MEMLOCK of @memlock_kb: start, measure, end. */
static void charge_child(struct charge_report *r, long memlock_kb)
{
	struct rlimit rl = { memlock_kb * 1024, memlock_kb * 1024 };

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || become_nobody())
		_exit(100);
	r->pin_start = vm_pin_kb_of(0);
	r->start_err = ERR(htmm_start(0, -1));
	r->pin_during = vm_pin_kb_of(0);
	r->listed = pid_session_exists(getpid());
	if (!r->start_err && htmm_end(0))
		_exit(101);
	r->pin_end = vm_pin_kb_of(0);
	_exit(0);
}

static void run_charge(struct __test_metadata *_metadata, long memlock_kb,
		       struct charge_report *r)
{
	int status;
	pid_t child;

	memset(r, 0, sizeof(*r));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		charge_child(r, memlock_kb);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST_F(trust, buffers_are_charged)
{
	long long mlock_kb = read_ll("/proc/sys/kernel/perf_event_mlock_kb");
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long bufs = online;
	long long want_kb;
	struct charge_report *r;
	char pages[16];

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	ASSERT_LT(0, mlock_kb);
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/buffer_pages", pages, sizeof(pages)));
	ASSERT_EQ(0, write_file(PARANOID, "2"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", "1024"));
	/* What perf_mmap() would pin past the allowance, in kB. */
	want_kb = bufs * (BIG_BUFFER + 1) * (page_size / 1024) -
		  mlock_kb / (page_size / 1024) * online * (page_size / 1024);
	ASSERT_LT(0, want_kb);

	/* Too small a limit: EPERM, as mmap() of the buffers would fail. */
	run_charge(_metadata, 64, r);
	EXPECT_EQ(EPERM, r->start_err);
	EXPECT_EQ(0, r->pin_start);
	EXPECT_EQ(0, r->pin_during);
	EXPECT_FALSE(r->listed);

	/* Enough: the excess is pinned while the session lives, then not. */
	run_charge(_metadata, want_kb + 1024, r);
	EXPECT_EQ(0, r->start_err);
	EXPECT_TRUE(r->listed);
	EXPECT_EQ(want_kb, r->pin_during);
	EXPECT_EQ(0, r->pin_end);
	TH_LOG("%ld buffers of %d pages: %lld kB pinned past %lld kB per CPU",
	       bufs, BIG_BUFFER + 1, r->pin_during, mlock_kb);

	EXPECT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", pages));
	munmap(r, sizeof(*r));
}

/*
 * Finding 2, continued: a process session has buffers on online CPUs
 * only, and follows CPU hotplug. Before the fix it made and charged a
 * buffer for every possible CPU whether online or not.
 */
#define HP_BUFFER	512	/* pages per CPU */

struct hotplug_ctl {
	int started;		/* the child's htmm_start() returned */
	int start_err;
	int go;			/* touch pages on CPU 1 */
	int touched;
	int release;		/* end the session and exit */
	long long pin_end;	/* VmPin after htmm_end(), kB */
	char *pages;		/* TPAGES pages touched on CPU 1 */
};

static void hotplug_child(struct hotplug_ctl *c)
{
	cpu_set_t set;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || become_nobody())
		_exit(100);
	c->start_err = ERR(htmm_start(0, -1));
	STORE(c->started, 1);
	if (c->start_err)
		_exit(0);
	while (!LOAD(c->go))
		usleep(1000);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	c->pages = map_pages(TPAGES);
	if (!c->pages || sched_setaffinity(0, sizeof(set), &set))
		_exit(101);
	touch_pages(c->pages, TPAGES);
	STORE(c->touched, 1);
	while (!LOAD(c->release))
		usleep(1000);
	if (htmm_end(0))
		_exit(102);
	c->pin_end = vm_pin_kb_of(0);
	_exit(0);
}

/* Wait up to 60 s (a loaded TCG host) for @pid's VmPin to be @kb. */
static long long wait_pin(pid_t pid, long long kb)
{
	long long pin = -1;
	int i;

	for (i = 0; i < 6000 && pin != kb; i++) {
		pin = vm_pin_kb_of(pid);
		if (pin != kb)
			usleep(10000);
	}
	return pin;
}

static void count_cpu1(const struct trace_sample *ts, void *arg)
{
	struct sample_filter *f = arg;
	unsigned long long lo = (unsigned long)f->base;

	if (ts->pid == f->pid && ts->cpu == 1 && ts->addr >= lo &&
	    ts->addr < lo + f->n * page_size)
		f->hit[(ts->addr - lo) / page_size] = 1;
}

TEST_F_TIMEOUT(trust, buffers_follow_online_cpus, 300)
{
	long long lim = read_ll("/proc/sys/kernel/perf_event_mlock_kb") /
			(page_size / 1024);
	long long one_kb = (HP_BUFFER + 1 - lim) * (page_size / 1024);
	unsigned char hit[TPAGES] = {};
	struct sample_filter f = { .tid = -1, .n = TPAGES, .hit = hit };
	struct hotplug_ctl *c;
	char pages[16];
	int status;
	pid_t child;

	if (sysconf(_SC_NPROCESSORS_CONF) != 2 ||
	    access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "needs exactly 2 CPUs, CPU 1 able to go offline");
	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	/* One buffer pins what exceeds the per-CPU allowance. */
	ASSERT_LT(0, one_kb);
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c);
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/buffer_pages", pages, sizeof(pages)));
	ASSERT_EQ(0, write_file(PARANOID, "2"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", "512"));
	ASSERT_EQ(0, write_file("/sys/devices/system/cpu/cpu1/online", "0"));

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		hotplug_child(c);
	while (!LOAD(c->started))
		usleep(1000);
	EXPECT_EQ(0, c->start_err);
	/* CPU 1 is offline: one buffer, charged once. */
	EXPECT_EQ(one_kb, vm_pin_kb_of(child));

	/* CPU 1 comes online: ksamplingd adds and charges its buffer. */
	ASSERT_EQ(0, write_file("/sys/devices/system/cpu/cpu1/online", "1"));
	EXPECT_EQ(2 * one_kb, wait_pin(child, 2 * one_kb));
	/*
	 * The buffer is charged before its event is opened, under the
	 * session's lock, which a counter's read takes too: once the read
	 * returns, the events on CPU 1 are in place (once, in the debug
	 * guest, the first touches came before them: 53 of 64 pages).
	 */
	session_value(child, "nr_sampled");

	/* And the process is sampled there. */
	ASSERT_EQ(0, trace_samples(true));
	STORE(c->go, 1);
	while (!LOAD(c->touched))
		usleep(1000);
	session_value(child, "nr_sampled");	/* drains */
	ASSERT_EQ(0, trace_samples(false));
	f.pid = child;
	f.base = c->pages;
	ASSERT_EQ(0, trace_for_each(count_cpu1, &f));
	TH_LOG("after CPU 1 came online: %d/%d pages sampled on it",
	       pages_hit(&f), TPAGES);
	EXPECT_EQ(TPAGES, pages_hit(&f));

	/* CPU 1 goes offline again: its buffer and charge go. */
	ASSERT_EQ(0, write_file("/sys/devices/system/cpu/cpu1/online", "0"));
	EXPECT_EQ(one_kb, wait_pin(child, one_kb));
	ASSERT_EQ(0, write_file("/sys/devices/system/cpu/cpu1/online", "1"));
	EXPECT_EQ(2 * one_kb, wait_pin(child, 2 * one_kb));

	STORE(c->release, 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, c->pin_end);

	EXPECT_EQ(0, write_file(HTMM_SYSFS "/buffer_pages", pages));
	munmap(c, sizeof(*c));
}

/*
 * Finding 4: a thread cloned while htmm_start() installs its parent's
 * events is sampled on every CPU. Before the fix coverage was checked on
 * the first CPU only, and after 8 passes the start succeeded with
 * threads still unsampled; now it either covers them all or fails with
 * EAGAIN, and a retry covers them.
 */
#define CLONE_MAX	192
#define CLONE_CPUS	2

struct clone_ctl {
	int spawned;	/* threads created so far */
	int touched;	/* threads done touching */
	int go;	/* threads may touch their pages */
	int release;	/* the target may exit */
	char *pages;		/* CLONE_MAX * CLONE_CPUS pages */
};

static struct clone_ctl *clone_ctl;

/* Park until released, then fault one page on each CPU, pinned to it. */
static void *clone_thread(void *p)
{
	long k = (long)p;
	cpu_set_t set;
	int c;

	while (!LOAD(clone_ctl->go))
		usleep(1000);
	for (c = 0; c < CLONE_CPUS; c++) {
		CPU_ZERO(&set);
		CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(2);
		clone_ctl->pages[(k * CLONE_CPUS + c) * page_size] = 1;
	}
	__atomic_add_fetch(&clone_ctl->touched, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* The target: clone threads as fast as it can until CLONE_MAX. */
static void clone_target(void)
{
	pthread_t t;
	long k;

	/* Never outlive a test that failed before releasing us. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		_exit(3);
	for (k = 0; k < CLONE_MAX; k++) {
		if (pthread_create(&t, NULL, clone_thread, (void *)k))
			_exit(1);
		STORE(clone_ctl->spawned, k + 1);
	}
	while (!LOAD(clone_ctl->release))
		usleep(1000);
	_exit(0);
}

struct clone_hits {
	pid_t pid;
	unsigned char hit[CLONE_MAX * CLONE_CPUS];
};

/* A sample counts if it landed on its page from the CPU it was meant on. */
static void clone_hit(const struct trace_sample *ts, void *arg)
{
	struct clone_hits *h = arg;
	unsigned long long lo = (unsigned long)clone_ctl->pages;
	unsigned long long i;

	if (ts->pid != h->pid || ts->addr < lo)
		return;
	i = (ts->addr - lo) / page_size;
	if (i < CLONE_MAX * CLONE_CPUS && ts->cpu == (int)(i % CLONE_CPUS))
		h->hit[i] = 1;
}

TEST_F_TIMEOUT(trust, threads_cloned_during_start, 120)
{
	struct clone_hits *h;
	int i, status, eagain = 0, missed = 0;
	long err;
	pid_t child;

	if (sysconf(_SC_NPROCESSORS_ONLN) < CLONE_CPUS)
		SKIP(return, "needs %d online CPUs", CLONE_CPUS);
	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	clone_ctl = mmap(NULL, sizeof(*clone_ctl), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, clone_ctl);
	clone_ctl->pages = map_pages(CLONE_MAX * CLONE_CPUS);
	ASSERT_NE(NULL, clone_ctl->pages);
	h = calloc(1, sizeof(*h));
	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, trace_samples(true));

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		clone_target();
	h->pid = child;
	/* Start in the middle of the cloning, retrying on EAGAIN. */
	while (LOAD(clone_ctl->spawned) < CLONE_MAX / 8)
		usleep(100);
	while ((err = ERR(htmm_start(child, -1))) == EAGAIN && eagain < 100)
		eagain++;
	EXPECT_EQ(0, err);
	i = LOAD(clone_ctl->spawned);
	STORE(clone_ctl->go, 1);
	while (LOAD(clone_ctl->touched) < CLONE_MAX &&
	       !waitpid(child, &status, WNOHANG))
		usleep(1000);
	/* Ending the session drains its buffers into the trace. */
	EXPECT_EQ(0, htmm_end(child));
	STORE(clone_ctl->release, 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(0, trace_samples(false));
	TH_LOG("start returned with %d of %d threads made, after %d EAGAIN",
	       i, CLONE_MAX, eagain);

	ASSERT_EQ(0, trace_for_each(clone_hit, h));
	for (i = 0; i < CLONE_MAX * CLONE_CPUS; i++) {
		if (h->hit[i])
			continue;
		if (missed++ < 8)
			TH_LOG("thread %d not sampled on CPU %d",
			       i / CLONE_CPUS, i % CLONE_CPUS);
	}
	EXPECT_EQ(0, missed);
	free(h);
	munmap(clone_ctl, sizeof(*clone_ctl));
}

TEST_HARNESS_MAIN
