// SPDX-License-Identifier: GPL-2.0
/*
 * The second review's findings: lifetimes (a session's debugfs
 * directory, its address space when the main thread exits or the process
 * execs), whose samples move whose pages, memory policies, hotness
 * records that come and go, and perf_event_open()'s own errors. Each test
 * failed on the series before its fix (see the comment above each).
 *
 * Tiering tests sample with abit, as on any machine without a PMU, and
 * need nodes 0 and 1 with memory (node 1 without CPUs in the guest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NUMA_BALANCING	"/proc/sys/kernel/numa_balancing"
#define DEBUGFS_HTMM	"/sys/kernel/debug/htmm"
#define SUID_COPY	"/tmp/htmm_review_suid"
#define MPOL_DEFAULT_	0
#define MPOL_PREFERRED_	1
/* Waits go on long enough that a slow host is not a failure. */
#define WAIT_S		60.0
#define NHOT		512

/* A set of pages touched over and over by a thread, swappable. */
struct toucher {
	char *p;
	int n;
	int stop, pause, paused;
	pid_t tid;
	pthread_t thread;
};

static void *toucher_run(void *arg)
{
	struct toucher *t = arg;
	int i;

	STORE(t->tid, gettid());
	while (!LOAD(t->stop)) {
		if (LOAD(t->pause)) {
			STORE(t->paused, 1);
			usleep(1000);
			continue;
		}
		STORE(t->paused, 0);
		for (i = 0; i < t->n; i++)
			__atomic_fetch_add(&t->p[(size_t)i * page_size], 1,
					   __ATOMIC_RELAXED);
		usleep(1000);
	}
	return NULL;
}

/* Stop touching, so that the set can be swapped. */
static void toucher_hold(struct toucher *t)
{
	STORE(t->pause, 1);
	while (!LOAD(t->paused))
		usleep(1000);
}

/* Seconds until @share of the @n pages at @p of @pid are on @node, or -1. */
static double wait_on_node(pid_t pid, char *p, int n, int node, double share)
{
	double t0 = now();

	while (now() - t0 < WAIT_S) {
		if (pages_on_node_of(pid, p, n, node) >= share * n)
			return now() - t0;
		usleep(100000);
	}
	return -1;
}

static int session_write(pid_t pid, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s", pid, name);
	return write_file(path, val);
}

static int become_nobody(void)
{
	return setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534);
}

/*
 * The program a session's process execs, run as "htmm_review --victim FD":
 * NHOT pages on node 1, their address written to FD, touched until killed.
 */
static int victim(int fd)
{
	struct toucher t = { .n = NHOT };

	page_size = sysconf(_SC_PAGESIZE);
	t.p = pages_on(NHOT, 1);
	if (!t.p || write(fd, &t.p, sizeof(t.p)) != sizeof(t.p))
		return 1;
	close(fd);
	toucher_run(&t);
	return 0;
}

/* Copy this program to @path; 0 or -1. */
static int copy_self(const char *path)
{
	int in = open("/proc/self/exe", O_RDONLY);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	char buf[65536];
	ssize_t n = -1;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		n = -1;
	return n == 0 ? 0 : -1;
}

FIXTURE(review) {
	char source[64], cooling[16], quota[16], tiering[16], tracked[32];
	char balancing[16], paranoid[16];
	pid_t child;
};

FIXTURE_SETUP(review)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	save_file(HTMM_SYSFS "/cooling_ms", self->cooling, sizeof(self->cooling));
	save_file(HTMM_SYSFS "/cpu_quota", self->quota, sizeof(self->quota));
	save_file(HTMM_SYSFS "/tiering", self->tiering, sizeof(self->tiering));
	save_file(HTMM_SYSFS "/max_tracked_pages", self->tracked,
		  sizeof(self->tracked));
	save_file(NUMA_BALANCING, self->balancing, sizeof(self->balancing));
	save_file(PARANOID, self->paranoid, sizeof(self->paranoid));
	/* Only htmm moves pages here. */
	if (self->balancing[0])
		ASSERT_EQ(0, write_file(NUMA_BALANCING, "0"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cooling_ms", "1000"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
}

FIXTURE_TEARDOWN(review)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	htmm_end(getpid());
	syscall(SYS_set_mempolicy, MPOL_DEFAULT_, NULL, 0);
	unlink(SUID_COPY);
	write_file(HTMM_SYSFS "/source", self->source);
	write_file(HTMM_SYSFS "/cooling_ms", self->cooling);
	write_file(HTMM_SYSFS "/cpu_quota", self->quota);
	write_file(HTMM_SYSFS "/tiering", self->tiering);
	write_file(HTMM_SYSFS "/max_tracked_pages", self->tracked);
	if (self->balancing[0])
		write_file(NUMA_BALANCING, self->balancing);
	if (self->paranoid[0])
		write_file(PARANOID, self->paranoid);
}

static bool two_nodes(void)
{
	return node_has_memory(0) && node_has_memory(1);
}

struct race {
	int stop;
	int ended;
};

static void *ender(void *arg)
{
	struct race *r = arg;

	while (!LOAD(r->stop))
		if (!htmm_end(0))
			r->ended++;
	return NULL;
}

/*
 * Finding 1: the debugfs directory was made after the session went live,
 * so an htmm_end() in between left a directory whose files pointed at the
 * freed session. Starts race ends for a while; then, with no session, no
 * directory may be left.
 */
TEST_F(review, debugfs_dir_ends_with_session)
{
	struct race r = {};
	char path[64];
	pthread_t t;
	int starts = 0;
	double t0;

	if (access(DEBUGFS_HTMM, F_OK))
		SKIP(return, "no %s", DEBUGFS_HTMM);
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	snprintf(path, sizeof(path), DEBUGFS_HTMM "/%d", getpid());
	ASSERT_EQ(0, pthread_create(&t, NULL, ender, &r));
	for (t0 = now(); now() - t0 < 5; )
		starts += !htmm_start(0, -1);
	STORE(r.stop, 1);
	pthread_join(t, NULL);
	htmm_end(0);
	TH_LOG("%d starts, %d ended by the racing thread", starts, r.ended);
	ASSERT_LT(0, r.ended);
	EXPECT_NE(0, access(path, F_OK)) {
		TH_LOG("%s outlived its session", path);
	}
	/* And a new session gets its own directory, with a pages file. */
	ASSERT_EQ(0, htmm_start(0, -1));
	strcat(path, "/pages");
	EXPECT_EQ(0, access(path, R_OK));
	EXPECT_EQ(0, htmm_end(0));
}

/*
 * Finding 2: an unprivileged user's session on its own process went on
 * tiering it after it exec'd a set-uid-root program (64 of 64 pages
 * promoted). Now the exec ends the session, as perf drops its events.
 */
TEST_F_TIMEOUT(review, setuid_exec_ends_session, 120)
{
	int fds[2], go[2];
	char *hot = NULL;
	char fd[16], c = 0;
	double t0;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, write_file(PARANOID, "1"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/tiering", "1"));
	/* A set-uid-root copy of this program. */
	ASSERT_EQ(0, copy_self(SUID_COPY));
	ASSERT_EQ(0, chown(SUID_COPY, 0, 0));
	ASSERT_EQ(0, chmod(SUID_COPY, 04755));
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(go));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(fds[0]);
		if (become_nobody())
			_exit(100);
		if (htmm_start(0, 0))
			_exit(101);
		if (write(go[1], &c, 1) != 1)
			_exit(102);
		snprintf(fd, sizeof(fd), "%d", fds[1]);
		execl(SUID_COPY, "htmm_review", "--victim", fd, NULL);
		_exit(103);
	}
	close(fds[1]);
	close(go[1]);
	ASSERT_EQ(1, read(go[0], &c, 1)) TH_LOG("nobody could not start");
	ASSERT_EQ(sizeof(hot), read(fds[0], &hot, sizeof(hot)));
	for (t0 = now(); now() - t0 < 20; usleep(100000))
		if (!pid_session_exists(self->child))
			break;
	TH_LOG("session %s after %.1f s; %d of %d pages on node 0",
	       pid_session_exists(self->child) ? "still there" : "ended",
	       now() - t0, pages_on_node_of(self->child, hot, NHOT, 0), NHOT);
	EXPECT_FALSE(pid_session_exists(self->child));
	EXPECT_EQ(0, pages_on_node_of(self->child, hot, NHOT, 0));
}

/*
 * A session of perf events started by root on a process that then execs a
 * set-uid program: perf takes the events away at that exec, so the
 * session ends too rather than stay listed with nothing to sample.
 */
TEST_F_TIMEOUT(review, setuid_exec_ends_event_session, 120)
{
	int fds[2], go[2];
	char *hot = NULL;
	char fd[16], c = 0;
	double t0;

	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	ASSERT_EQ(0, copy_self(SUID_COPY));
	ASSERT_EQ(0, chown(SUID_COPY, 0, 0));
	ASSERT_EQ(0, chmod(SUID_COPY, 04755));
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(go));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(fds[0]);
		close(go[1]);
		if (become_nobody() || read(go[0], &c, 1) != 1)
			_exit(100);
		snprintf(fd, sizeof(fd), "%d", fds[1]);
		execl(SUID_COPY, "htmm_review", "--victim", fd, NULL);
		_exit(101);
	}
	close(fds[1]);
	close(go[0]);
	ASSERT_EQ(0, htmm_start(self->child, -1));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(sizeof(hot), read(fds[0], &hot, sizeof(hot)));
	for (t0 = now(); now() - t0 < 20; usleep(100000))
		if (!pid_session_exists(self->child))
			break;
	TH_LOG("session %s after %.1f s",
	       pid_session_exists(self->child) ? "still there" : "ended",
	       now() - t0);
	EXPECT_FALSE(pid_session_exists(self->child));
}

/* As uid 65534 with CAP_PERFMON only: 0 if htmm_start(@pid) works. */
static int perfmon_start(pid_t pid)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (prctl(PR_SET_KEEPCAPS, 1) || become_nobody())
		return 100;
	data[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
	data[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
	if (syscall(SYS_capset, &hdr, data))
		return 101;
	return ERR(htmm_start(pid, 0));
}

/*
 * Tiering moves another process's pages only where move_pages(2) would:
 * ptrace access as well as the LSMs. CAP_PERFMON lets a user sample a
 * root process, not move its memory: before, it did.
 */
TEST_F_TIMEOUT(review, tiering_needs_ptrace_rights, 120)
{
	int fds[2], status;
	char *hot = NULL;
	pid_t user;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/tiering", "1"));
	ASSERT_EQ(0, pipe(fds));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(fds[0]);
		_exit(victim(fds[1]));
	}
	close(fds[1]);
	ASSERT_EQ(sizeof(hot), read(fds[0], &hot, sizeof(hot)));
	user = fork();
	ASSERT_LE(0, user);
	if (!user)
		_exit(perfmon_start(self->child));
	ASSERT_EQ(user, waitpid(user, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("start as CAP_PERFMON: %d",
						 WEXITSTATUS(status));
	EXPECT_EQ(1, session_value(self->child, "tiering"));
	sleep(8);
	TH_LOG("%d of %d pages of root's process on node 0, promoted %lld",
	       pages_on_node_of(self->child, hot, NHOT, 0), NHOT,
	       session_value(self->child, "nr_promoted"));
	EXPECT_EQ(0, pages_on_node_of(self->child, hot, NHOT, 0));
	EXPECT_EQ(0, htmm_end(self->child));
}

/*
 * The other side of finding 2: an exec that changes no credentials (as
 * "htmmctl run" starts a session before it execs) keeps the session,
 * which follows the new image's pages.
 */
TEST_F_TIMEOUT(review, exec_keeps_session, 120)
{
	int fds[2], go[2];
	char *hot = NULL;
	char fd[16], c = 0;
	double secs;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(go));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		close(fds[0]);
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(100);
		snprintf(fd, sizeof(fd), "%d", fds[1]);
		execl("/proc/self/exe", "htmm_review", "--victim", fd, NULL);
		_exit(101);
	}
	close(fds[1]);
	close(go[0]);
	ASSERT_EQ(0, htmm_start(self->child, 0));
	ASSERT_EQ(0, session_write(self->child, "tiering", "1"));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(sizeof(hot), read(fds[0], &hot, sizeof(hot)));
	secs = wait_on_node(self->child, hot, NHOT, 0, 0.9);
	TH_LOG("90%% of the new image's hot set on node 0 after %.1f s", secs);
	EXPECT_TRUE(pid_session_exists(self->child));
	EXPECT_LE(0, secs);
}

/*
 * Finding 3: max_tracked_pages was a lifetime cap. A hot set tracked and
 * then unmapped kept its records, so the next hot set was not tracked and
 * never promoted.
 */
TEST_F_TIMEOUT(review, records_of_unmapped_pages_go, 180)
{
	struct toucher t = { .n = 1536 };
	double secs;
	char *old;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_tracked_pages", "2048"));
	t.p = pages_on(t.n, 1);
	ASSERT_NE(NULL, t.p);
	ASSERT_EQ(0, pthread_create(&t.thread, NULL, toucher_run, &t));
	ASSERT_EQ(0, htmm_start(0, 0));
	ASSERT_EQ(0, session_write(getpid(), "fast_pages", "65536"));
	ASSERT_EQ(0, session_write(getpid(), "tiering", "1"));
	secs = wait_on_node(0, t.p, t.n, 0, 0.9);
	TH_LOG("first hot set on node 0 after %.1f s", secs);
	EXPECT_LE(0, secs);

	/* Unmap it; a second hot set of the same size comes. */
	toucher_hold(&t);
	old = t.p;
	t.p = pages_on(t.n, 1);
	ASSERT_NE(NULL, t.p);
	munmap(old, (size_t)t.n * page_size);
	STORE(t.pause, 0);
	secs = wait_on_node(0, t.p, t.n, 0, 0.9);
	TH_LOG("second hot set on node 0 after %.1f s; evicted %lld, tracked %lld",
	       secs, session_value(getpid(), "nr_evicted"),
	       session_value(getpid(), "nr_tracked_pages"));
	STORE(t.stop, 1);
	pthread_join(t.thread, NULL);
	EXPECT_LE(0, secs);
	EXPECT_LE(t.n / 2, session_value(getpid(), "nr_evicted"));
	EXPECT_LE(0, total("nr_evicted"));
	EXPECT_EQ(0, htmm_end(0));
}

/*
 * Finding 4: with inheritance, a child's samples were counted in the
 * parent's hotness at the same addresses, and moved the parent's pages.
 * The child here faults its copy of a region in again and again; the
 * parent never touches its own, which must stay on node 1.
 */
TEST_F_TIMEOUT(review, child_samples_move_no_parent_pages, 120)
{
	const int n = 256;
	int status, i;
	char *p;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	p = pages_on(n, 1);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, htmm_start(0, 0));
	ASSERT_EQ(0, session_write(getpid(), "tiering", "1"));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		for (i = 0; i < 40; i++) {
			madvise(p, (size_t)n * page_size, MADV_DONTNEED);
			touch_pages(p, n);
			usleep(50000);
		}
		_exit(0);
	}
	ASSERT_EQ(self->child, waitpid(self->child, &status, 0));
	self->child = 0;
	ASSERT_TRUE(WIFEXITED(status));
	/* Tiering passes every 200 ms; give it many. */
	sleep(5);
	TH_LOG("%d of the parent's %d pages on node 0; promoted %lld, sampled %lld",
	       pages_on_node_of(0, p, n, 0), n,
	       session_value(getpid(), "nr_promoted"),
	       session_value(getpid(), "nr_sampled"));
	EXPECT_LE(n, session_value(getpid(), "nr_sampled"));
	EXPECT_EQ(0, pages_on_node_of(0, p, n, 0));
	EXPECT_EQ(0, htmm_end(0));
}

static long mbind_(void *p, size_t len, int mode, unsigned long mask)
{
	return syscall(SYS_mbind, p, len, mode, &mask, 8 * sizeof(mask), 0);
}

/*
 * Finding 5: a task or VMA memory policy that keeps pages on node 1 was
 * ignored (only a VMA's bind policy counted). Three hot sets on node 1:
 * one whose VMA policy allows node 0 (it is promoted, the control), one
 * under the process's bind policy to node 1, one under a VMA policy
 * preferring node 1; those two stay.
 */
TEST_F_TIMEOUT(review, memory_policy_respected, 180)
{
	struct toucher t = { .n = 3 * NHOT };
	size_t len = (size_t)NHOT * page_size;
	char *ctl, *task, *pref;
	double secs;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	t.p = pages_on(t.n, 1);
	ASSERT_NE(NULL, t.p);
	ctl = t.p;
	task = t.p + len;
	pref = t.p + 2 * len;
	ASSERT_EQ(0, mbind_(ctl, len, MPOL_BIND, 3));
	ASSERT_EQ(0, mbind_(pref, len, MPOL_PREFERRED_, 2));
	/* The main thread's (the process's) policy: node 1 only. */
	ASSERT_EQ(0, syscall(SYS_set_mempolicy, MPOL_BIND, &(unsigned long){ 2 },
			     8 * sizeof(unsigned long)));
	ASSERT_EQ(0, pthread_create(&t.thread, NULL, toucher_run, &t));
	ASSERT_EQ(0, htmm_start(0, 0));
	ASSERT_EQ(0, session_write(getpid(), "fast_pages", "65536"));
	ASSERT_EQ(0, session_write(getpid(), "tiering", "1"));
	secs = wait_on_node(0, ctl, NHOT, 0, 0.9);
	sleep(2);
	TH_LOG("control on node 0 after %.1f s; on node 0: bound %d, preferred %d of %d",
	       secs, pages_on_node_of(0, task, NHOT, 0),
	       pages_on_node_of(0, pref, NHOT, 0), NHOT);
	STORE(t.stop, 1);
	pthread_join(t.thread, NULL);
	syscall(SYS_set_mempolicy, MPOL_DEFAULT_, NULL, 0);
	ASSERT_LE(0, secs);
	EXPECT_EQ(0, pages_on_node_of(0, task, NHOT, 0));
	EXPECT_EQ(0, pages_on_node_of(0, pref, NHOT, 0));
	EXPECT_EQ(0, htmm_end(0));
}

/*
 * Finding 6: abit and tiering looked the address space up through the
 * thread group leader; once it called pthread_exit(), the workers' hot
 * set was never scanned nor promoted.
 */
TEST_F_TIMEOUT(review, leader_exit_keeps_tiering, 120)
{
	struct { char *p; pid_t tid; } hot;
	int fds[2], go[2];
	char c = 0;
	double secs;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(go));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		static struct toucher t = { .n = NHOT };

		t.p = pages_on(t.n, 1);
		hot.p = t.p;
		if (!t.p || pthread_create(&t.thread, NULL, toucher_run, &t))
			_exit(100);
		while (!(hot.tid = LOAD(t.tid)))
			usleep(1000);
		if (write(fds[1], &hot, sizeof(hot)) != sizeof(hot) ||
		    read(go[0], &c, 1) != 1)
			_exit(101);
		pthread_exit(NULL);
	}
	ASSERT_EQ(sizeof(hot), read(fds[0], &hot, sizeof(hot)));
	ASSERT_EQ(0, htmm_start(self->child, 0));
	ASSERT_EQ(0, session_write(self->child, "tiering", "1"));
	ASSERT_EQ(1, write(go[1], &c, 1));
	/* move_pages() finds no mm through the exited leader: the worker's. */
	secs = wait_on_node(hot.tid, hot.p, NHOT, 0, 0.9);
	TH_LOG("90%% of the workers' hot set on node 0 after %.1f s", secs);
	EXPECT_LE(0, secs);
	EXPECT_TRUE(pid_session_exists(self->child));
}

/* A child that sleeps until killed, with pid @want if > 0; its pid. */
static pid_t sleeper(pid_t want)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	pid_t pid;

	if (want > 0) {
		args.set_tid = (unsigned long)&want;
		args.set_tid_size = 1;
	}
	pid = syscall(SYS_clone3, &args, sizeof(args));

	if (!pid) {
		pause();
		_exit(0);
	}
	return pid;
}

/*
 * A session whose process has exited but which ksamplingd has not ended
 * yet must not keep a new process given the same pid from starting one
 * (its sysfs and debugfs names were taken: EEXIST, and a warning). The
 * pid is reused at once with clone3()'s set_tid.
 */
TEST_F(review, reused_pid_starts)
{
	int i, reused = 0;
	pid_t a, b;

	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
	for (i = 0; i < 20; i++) {
		a = sleeper(0);
		ASSERT_LT(0, a);
		ASSERT_EQ(0, htmm_start(a, -1));
		kill(a, SIGKILL);
		ASSERT_EQ(a, waitpid(a, NULL, 0));
		b = sleeper(a);
		if (b < 0)
			continue;	/* taken meanwhile, or no set_tid */
		reused++;
		EXPECT_EQ(0, ERR(htmm_start(b, -1))) TH_LOG("pid %d reused", b);
		EXPECT_TRUE(pid_session_exists(b));
		EXPECT_EQ(0, htmm_end(b));
		kill(b, SIGKILL);
		waitpid(b, NULL, 0);
	}
	TH_LOG("%d of 20 pids reused at once", reused);
	if (!reused)
		SKIP(return, "clone3() could not reuse a pid");
}

/* As nobody: 0 if an abit session on itself starts (and ends), or errno. */
static int nobody_abit(pid_t unused)
{
	int err = ERR(htmm_start(0, -1));

	if (!err && htmm_end(0))
		return 99;
	return err;
}

/*
 * abit reads the Accessed bits of the process's own user pages, the data
 * user-mode sampling gives: it follows the rule of user-mode events, as
 * htmm.rst says. Before, an unprivileged caller got EACCES at
 * perf_event_paranoid 2, as if it sampled the kernel.
 */
TEST_F(review, abit_user_mode_rule)
{
	ASSERT_EQ(0, write_file(PARANOID, "2"));
	EXPECT_EQ(0, as_nobody(nobody_abit, 0));
	ASSERT_EQ(0, write_file(PARANOID, "3"));
	EXPECT_EQ(EACCES, as_nobody(nobody_abit, 0));
}

/*
 * abit's period counts scan intervals between passes: sample_period_min,
 * a bound for perf events' periods, made every pass 1000 intervals apart.
 */
TEST_F(review, abit_period_not_perf_bounds)
{
	char min[32];
	long long period;

	save_file(HTMM_SYSFS "/sample_period_min", min, sizeof(min));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/sample_period_min", "1000"));
	ASSERT_EQ(0, htmm_start(0, -1));
	period = session_value(getpid(), "sample_period");
	EXPECT_EQ(0, htmm_end(0));
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/sample_period_min", min));
	EXPECT_EQ(1, period);
}

/*
 * Users read promotions in /proc/vmstat (pgpromote_success, as NUMA
 * balancing counts them); htmm's were missing there.
 */
TEST_F_TIMEOUT(review, promotions_in_vmstat, 120)
{
	struct toucher t = { .n = NHOT };
	long long before, after = 0;
	double secs, t0;

	if (!two_nodes())
		SKIP(return, "needs nodes 0 and 1 with memory");
	before = vmstat_value("pgpromote_success");
	if (before < 0)
		SKIP(return, "no pgpromote_success (CONFIG_NUMA_BALANCING=n)");
	t.p = pages_on(t.n, 1);
	ASSERT_NE(NULL, t.p);
	ASSERT_EQ(0, pthread_create(&t.thread, NULL, toucher_run, &t));
	ASSERT_EQ(0, htmm_start(0, 0));
	ASSERT_EQ(0, session_write(getpid(), "tiering", "1"));
	secs = wait_on_node(0, t.p, t.n, 0, 0.9);
	/*
	 * A batch is counted once it has moved, and vmstat folds per-CPU
	 * deltas every second or two: the pages may be seen there first.
	 */
	for (t0 = now(); now() - t0 < 20; usleep(200000)) {
		after = vmstat_value("pgpromote_success");
		if (after - before >= 0.9 * t.n)
			break;
	}
	STORE(t.stop, 1);
	pthread_join(t.thread, NULL);
	TH_LOG("promoted after %.1f s: nr_promoted %lld, pgpromote_success +%lld",
	       secs, session_value(getpid(), "nr_promoted"), after - before);
	ASSERT_LE(0, secs);
	EXPECT_LE(0.9 * t.n, after - before);
	EXPECT_EQ(0, htmm_end(0));
}

/* perf_event_open() as nobody, with @attr; its errno. */
static int perf_open_errno(struct perf_event_attr *attr)
{
	int fd = syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/*
 * Finding 7: the series' perf/core change checked physical-address
 * sampling before the period, so an invalid period with it gave EACCES
 * where 6.12 gives EINVAL. perf's order is kept.
 */
TEST_F(review, perf_errno_order)
{
	int *errs = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_type = PERF_SAMPLE_PHYS_ADDR,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int status;
	pid_t child;

	ASSERT_NE(MAP_FAILED, errs);
	ASSERT_EQ(0, write_file(PARANOID, "2"));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		if (become_nobody())
			_exit(100);
		attr.freq = 1;
		attr.sample_freq = 1ULL << 40;
		errs[0] = perf_open_errno(&attr);
		attr.freq = 0;
		attr.sample_period = 1ULL << 63;
		errs[1] = perf_open_errno(&attr);
		attr.sample_period = 1000;
		errs[2] = perf_open_errno(&attr);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	EXPECT_EQ(EINVAL, errs[0]) TH_LOG("bad frequency: %s", strerror(errs[0]));
	EXPECT_EQ(EINVAL, errs[1]) TH_LOG("bad period: %s", strerror(errs[1]));
	EXPECT_EQ(EACCES, errs[2]) TH_LOG("physical addresses: %s",
					  strerror(errs[2]));
	munmap(errs, 4096);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--victim"))
		return victim(atoi(argv[2]));
	return test_harness_run(argc, argv);
}
