// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for htmm: the htmm_start()/htmm_end() system calls, the
 * counters under /sys/kernel/mm/htmm and the htmm_sample tracepoint.
 *
 * The tests use the software sample source (page faults), which works on
 * any machine: every first touch of a fresh anonymous page is one sample
 * at that page's address. They must run as root; the unprivileged cases
 * drop to uid 65534 in a child.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

TEST_F(htmm, round_trip)
{
	long long before, after, sampled;
	pid_t pid = getpid();
	char *p;

	p = map_pages(NPAGES);
	ASSERT_NE(NULL, p);
	before = total("nr_sampled");
	ASSERT_LE(0, before);

	ASSERT_EQ(0, htmm_start(0, -1));
	ASSERT_TRUE(pid_session_exists(pid));
	EXPECT_EQ(-1, session_value(pid, "node"));
	touch_pages(p, NPAGES);

	sampled = session_value(pid, "nr_sampled");
	TH_LOG("session: nr_sampled=%lld nr_lost=%lld nr_throttled=%lld",
	       sampled, session_value(pid, "nr_lost"),
	       session_value(pid, "nr_throttled"));
	TH_LOG("session: nr_invalid=%lld nr_unknown=%lld",
	       session_value(pid, "nr_invalid"),
	       session_value(pid, "nr_unknown"));
	EXPECT_LE(NPAGES, sampled);
	EXPECT_EQ(0, session_value(pid, "nr_lost"));
	EXPECT_EQ(0, session_value(pid, "nr_unknown"));

	ASSERT_EQ(0, htmm_end(0));
	after = total("nr_sampled");
	TH_LOG("totals: nr_sampled %lld -> %lld", before, after);
	EXPECT_LE(before + NPAGES, after);
	EXPECT_FALSE(pid_session_exists(pid));
	EXPECT_EQ(ESRCH, ERR(htmm_end(0)));
}

TEST_F(htmm, node_is_reported)
{
	pid_t pid = getpid();

	ASSERT_EQ(0, htmm_start(pid, 0));
	EXPECT_EQ(0, session_value(pid, "node"));
	EXPECT_EQ(1, session_value(pid, "sample_period"));
	ASSERT_EQ(0, htmm_end(pid));
}

TEST_F(htmm, every_address)
{
	struct sample_filter f = { .pid = getpid(), .tid = -1, .n = NPAGES };
	unsigned char hit[NPAGES] = {};

	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	f.hit = hit;
	f.base = map_pages(NPAGES);
	ASSERT_NE(NULL, f.base);

	ASSERT_EQ(0, trace_samples(true));
	ASSERT_EQ(0, htmm_start(0, -1));
	touch_pages(f.base, NPAGES);
	ASSERT_EQ(0, htmm_end(0));
	ASSERT_EQ(0, trace_samples(false));

	ASSERT_EQ(0, trace_collect(&f, 1));
	EXPECT_EQ(NPAGES, pages_hit(&f));
}

#define NTHREADS	8
#define TPAGES		64

struct thread_arg {
	pthread_barrier_t *go;		/* NULL: touch at once */
	char *base;
	pid_t tid;
};

static void *thread_fn(void *p)
{
	struct thread_arg *a = p;

	a->tid = gettid();
	if (a->go)
		pthread_barrier_wait(a->go);
	touch_pages(a->base, TPAGES);
	return NULL;
}

TEST_F(htmm, threads_before_and_after_start)
{
	struct sample_filter f[NTHREADS];
	unsigned char hit[NTHREADS][TPAGES] = {};
	struct thread_arg arg[NTHREADS];
	pthread_t th[NTHREADS];
	pthread_barrier_t go;
	int i;

	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, NTHREADS / 2 + 1));
	for (i = 0; i < NTHREADS; i++) {
		arg[i].base = map_pages(TPAGES);
		ASSERT_NE(NULL, arg[i].base);
		arg[i].go = i < NTHREADS / 2 ? &go : NULL;
	}
	ASSERT_EQ(0, trace_samples(true));
	/* Half the threads exist before the session and wait for it. */
	for (i = 0; i < NTHREADS / 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, thread_fn, &arg[i]));
	ASSERT_EQ(0, htmm_start(0, -1));
	for (; i < NTHREADS; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, thread_fn, &arg[i]));
	pthread_barrier_wait(&go);
	for (i = 0; i < NTHREADS; i++)
		ASSERT_EQ(0, pthread_join(th[i], NULL));
	ASSERT_EQ(0, htmm_end(0));
	ASSERT_EQ(0, trace_samples(false));

	for (i = 0; i < NTHREADS; i++) {
		f[i] = (struct sample_filter){ .pid = getpid(), .tid = arg[i].tid,
					       .base = arg[i].base, .n = TPAGES,
					       .hit = hit[i] };
	}
	ASSERT_EQ(0, trace_collect(f, NTHREADS));
	for (i = 0; i < NTHREADS; i++) {
		EXPECT_EQ(TPAGES, pages_hit(&f[i])) {
			TH_LOG("thread %d (tid %d, %s the start)", i, arg[i].tid,
			       i < NTHREADS / 2 ? "before" : "after");
		}
	}
}

static pthread_barrier_t idle_barrier;

/* Publish the thread id, then idle until released. */
static void *idle_fn(void *p)
{
	*(pid_t *)p = gettid();
	pthread_barrier_wait(&idle_barrier);
	pthread_barrier_wait(&idle_barrier);
	return NULL;
}

TEST_F(htmm, thread_id_selects_process)
{
	pthread_t th;
	pid_t tid = 0;

	ASSERT_EQ(0, pthread_barrier_init(&idle_barrier, NULL, 2));
	ASSERT_EQ(0, pthread_create(&th, NULL, idle_fn, &tid));
	pthread_barrier_wait(&idle_barrier);
	ASSERT_NE(getpid(), tid);
	ASSERT_EQ(0, htmm_start(tid, -1));
	EXPECT_TRUE(pid_session_exists(getpid()));
	EXPECT_FALSE(pid_session_exists(tid));
	EXPECT_EQ(EBUSY, ERR(htmm_start(0, -1)));
	EXPECT_EQ(0, htmm_end(tid));
	pthread_barrier_wait(&idle_barrier);
	pthread_join(th, NULL);
}

TEST_F(htmm, forked_child_is_sampled)
{
	struct sample_filter f = { .tid = -1, .n = NPAGES };
	unsigned char hit[NPAGES] = {};
	int status;
	pid_t child;

	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	f.hit = hit;
	f.base = map_pages(NPAGES);	/* untouched: the child faults */
	ASSERT_NE(NULL, f.base);
	ASSERT_EQ(0, trace_samples(true));
	ASSERT_EQ(0, htmm_start(0, -1));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		touch_pages(f.base, NPAGES);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, htmm_end(0));
	ASSERT_EQ(0, trace_samples(false));
	/* The child has no session of its own; it inherited the parent's. */
	f.pid = child;
	ASSERT_EQ(0, trace_collect(&f, 1));
	EXPECT_EQ(NPAGES, pages_hit(&f));
}

static int start_errno(pid_t pid)
{
	return ERR(htmm_start(pid, -1));
}

static int end_errno(pid_t pid)
{
	return ERR(htmm_end(pid));
}

static int self_round_trip(pid_t unused)
{
	if (htmm_start(0, -1))
		return errno;
	return htmm_end(0) ? errno : 0;
}

TEST_F(htmm, errors)
{
	char nodes[256];
	pid_t gone;
	int status;

	/* A free pid: a child that was reaped. */
	gone = fork();
	ASSERT_LE(0, gone);
	if (!gone)
		_exit(0);
	ASSERT_EQ(gone, waitpid(gone, &status, 0));
	EXPECT_EQ(ESRCH, ERR(htmm_start(gone, -1)));
	EXPECT_EQ(ESRCH, ERR(htmm_end(gone)));
	EXPECT_EQ(ESRCH, ERR(htmm_start(INT_MAX, -1)));
	EXPECT_EQ(ESRCH, ERR(htmm_end(getpid())));
	EXPECT_EQ(ESRCH, ERR(htmm_end(-1)));

	EXPECT_EQ(EINVAL, ERR(htmm_start(-2, -1)));
	EXPECT_EQ(EINVAL, ERR(htmm_start(INT_MIN, -1)));
	EXPECT_EQ(EINVAL, ERR(htmm_end(-2)));
	EXPECT_EQ(EINVAL, ERR(htmm_start(0, 9999)));
	EXPECT_EQ(EINVAL, ERR(htmm_start(0, -2)));
	EXPECT_EQ(EINVAL, ERR(htmm_start(0, INT_MAX)));
	/* A possible node without memory, where the machine has one. */
	if (!read_file("/sys/devices/system/node/has_memory", nodes, sizeof(nodes)))
		TH_LOG("nodes with memory: %s", nodes);
	EXPECT_FALSE(pid_session_exists(getpid()));

	ASSERT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(EBUSY, ERR(htmm_start(0, -1)));
	EXPECT_EQ(EBUSY, ERR(htmm_start(getpid(), 1)));

	/* Unprivileged: not against root's processes, not system-wide. */
	EXPECT_EQ(EACCES, as_nobody(start_errno, 1));
	EXPECT_EQ(EACCES, as_nobody(start_errno, -1));
	EXPECT_EQ(EACCES, as_nobody(end_errno, getpid()));
	/* ... but on itself. */
	EXPECT_EQ(0, as_nobody(self_round_trip, 0));
	ASSERT_EQ(0, htmm_end(0));
}

TEST_F(htmm, session_limit)
{
	char old[32];
	pid_t child;
	int status;

	ASSERT_EQ(0, read_file(HTMM_SYSFS "/max_sessions", old, sizeof(old)));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/max_sessions", "1"));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pause();
		_exit(0);
	}
	EXPECT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(ENOSPC, ERR(htmm_start(child, -1)));
	EXPECT_FALSE(pid_session_exists(child));
	EXPECT_EQ(0, htmm_end(0));
	EXPECT_EQ(0, htmm_start(child, -1));
	EXPECT_EQ(0, htmm_end(child));
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/max_sessions", old));
}

TEST_F(htmm, sysfs_settings)
{
	char buf[128];

	/* The fixture selected software; auto is the boot default. */
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/source", buf, sizeof(buf)));
	EXPECT_STREQ("auto [software] pebs ibs abit\n", buf);
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/source", "bogus"));
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/source", "auto"));
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/source", buf, sizeof(buf)));
	EXPECT_STREQ("[auto] software pebs ibs abit\n", buf);
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/source", "abit"));
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/source", buf, sizeof(buf)));
	EXPECT_STREQ("auto software pebs ibs [abit]\n", buf);
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));

	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/buffer_pages", "0"));
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/buffer_pages", "3"));
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/buffer_pages", "2048"));
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/buffer_pages", "x"));
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/sample_period", "-1"));
	EXPECT_EQ(EINVAL, write_file(HTMM_SYSFS "/max_sessions", "100000"));
	EXPECT_EQ(64, read_ll(HTMM_SYSFS "/buffer_pages"));

	/* New sessions take the settings; 0 means the source default. */
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/sample_period", "4"));
	ASSERT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(4, session_value(getpid(), "sample_period"));
	EXPECT_EQ(0, htmm_end(0));
	EXPECT_EQ(0, write_file(HTMM_SYSFS "/sample_period", "0"));
}

TEST_F(htmm, exit_ends_session)
{
	long long before, after;
	siginfo_t info;
	double t0;
	int ms;
	pid_t child;
	int status;

	before = total("nr_sampled");
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		char *p = map_pages(NPAGES);

		if (!p || htmm_start(0, -1))
			_exit(1);
		touch_pages(p, NPAGES);
		_exit(0);	/* no htmm_end() */
	}
	/* Wait for the exit but leave a zombie: the session must end anyway. */
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	ASSERT_EQ(0, info.si_status);
	t0 = now();
	while (pid_session_exists(child) && now() - t0 < 3)
		usleep(10000);
	ms = (now() - t0) * 1000;
	TH_LOG("session gone %d ms after the exit", ms);
	EXPECT_FALSE(pid_session_exists(child));
	EXPECT_GE(1000, ms);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	after = total("nr_sampled");
	EXPECT_LE(before + NPAGES, after);
}

static int count_fds(int *perf_fds)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/proc/self/fd");
	ssize_t len;

	*perf_fds = 0;
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		n++;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			if (strstr(target, "perf_event"))
				(*perf_fds)++;
		}
	}
	closedir(dir);
	return n;
}

TEST_F(htmm, fd_table_unchanged)
{
	int before, during, after, perf;

	before = count_fds(&perf);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, htmm_start(0, -1));
	during = count_fds(&perf);
	EXPECT_EQ(0, perf);
	ASSERT_EQ(0, htmm_end(0));
	after = count_fds(&perf);
	EXPECT_EQ(before, during);
	EXPECT_EQ(before, after);
	EXPECT_EQ(0, perf);
}

/*
 * Idle costs nothing: no session, no wakeup; an open session whose process
 * does nothing, one wakeup per 5 s backstop at most (2 in 6 s, whatever
 * the phase).
 */
/* Context switches of ksamplingd (@kd) over @secs seconds. */
static long long switches_in(pid_t kd, unsigned int secs, const char *what)
{
	long long before = ctx_switches(kd), n;

	sleep(secs);
	n = ctx_switches(kd) - before;
	fprintf(stderr, "# ksamplingd: %lld context switches in %u s %s\n",
		n, secs, what);
	return n;
}

TEST_F_TIMEOUT(htmm, idle_sampler_sleeps, 60)
{
	pid_t kd;

	kd = find_ksamplingd();
	ASSERT_LT(0, kd);
	ASSERT_EQ(0, nr_sessions());
	EXPECT_EQ(0, switches_in(kd, 3, "without sessions"));

	ASSERT_EQ(0, htmm_start(0, -1));
	usleep(100000);
	EXPECT_GE(2, switches_in(kd, 6, "of an idle session"));
	ASSERT_EQ(0, htmm_end(0));
}

TEST_F(htmm, system_wide)
{
	struct sample_filter f[2] = {};
	unsigned char hit[2][NPAGES] = {};
	pid_t child[2];
	int i, status;

	if (!trace_available())
		SKIP(return, "no htmm_sample tracepoint in tracefs");
	for (i = 0; i < 2; i++) {
		f[i].base = map_pages(NPAGES);
		ASSERT_NE(NULL, f[i].base);
		f[i].n = NPAGES;
		f[i].tid = -1;
		f[i].hit = hit[i];
	}
	ASSERT_EQ(0, trace_samples(true));
	ASSERT_EQ(0, htmm_start(-1, -1));
	EXPECT_TRUE(session_exists("all"));
	EXPECT_EQ(EBUSY, ERR(htmm_start(-1, -1)));
	/* The system-wide session does not keep a process session away. */
	EXPECT_EQ(0, htmm_start(0, -1));
	EXPECT_EQ(0, htmm_end(0));
	for (i = 0; i < 2; i++) {
		child[i] = fork();
		ASSERT_LE(0, child[i]);
		if (!child[i]) {
			touch_pages(f[i].base, NPAGES);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(child[i], waitpid(child[i], &status, 0));
	EXPECT_LE(2 * NPAGES, read_ll(HTMM_SYSFS "/sessions/all/nr_sampled"));
	ASSERT_EQ(0, htmm_end(-1));
	EXPECT_FALSE(session_exists("all"));
	ASSERT_EQ(0, trace_samples(false));
	for (i = 0; i < 2; i++)
		f[i].pid = child[i];
	ASSERT_EQ(0, trace_collect(f, 2));
	EXPECT_EQ(NPAGES, pages_hit(&f[0]));
	EXPECT_EQ(NPAGES, pages_hit(&f[1]));
}

TEST_HARNESS_MAIN
