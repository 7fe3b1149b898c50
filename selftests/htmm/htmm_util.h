/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the htmm kselftests: the system calls, sysfs
 * counters, fresh pages to fault in, and the htmm_sample tracepoint.
 */
#ifndef HTMM_UTIL_H
#define HTMM_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_htmm_start
#define __NR_htmm_start 463
#endif
#ifndef __NR_htmm_end
#define __NR_htmm_end 464
#endif

#define HTMM_SYSFS	"/sys/kernel/mm/htmm"
#define TRACEFS		"/sys/kernel/tracing"
#define NPAGES		512

#ifndef MPOL_BIND
#define MPOL_BIND	2
#endif

static long page_size;

/* Why the tests cannot run here, or NULL; also sets page_size. */
static inline const char *htmm_skip_reason(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	if (geteuid())
		return "must run as root";
	if (access(HTMM_SYSFS, F_OK))
		return "kernel built without CONFIG_HTMM";
	return NULL;
}

static inline long htmm_start(pid_t pid, int node)
{
	return syscall(__NR_htmm_start, pid, node);
}

static inline long htmm_end(pid_t pid)
{
	return syscall(__NR_htmm_end, pid);
}

/* errno of a failed call, 0 if it succeeded */
/* Flags shared between threads or processes (no volatile). */
#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

#define ERR(call)	((call) == -1 ? errno : 0)

static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Write @val to @path; return 0 or the errno of the write. */
static inline int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* Run @fn in a child as uid/gid 65534 with no capabilities. */
static inline int as_nobody(int (*fn)(pid_t), pid_t arg)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (!child) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(100);
		_exit(fn(arg));
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Keep the value of @path in @buf, without its newline; "" if unreadable. */
static inline void save_file(const char *path, char *buf, size_t len)
{
	if (read_file(path, buf, len))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Write back what save_file() kept, if it kept anything. */
static inline void restore_file(const char *path, const char *val)
{
	if (val[0])
		write_file(path, val);
}

static inline long long read_ll(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 0);
}

static inline long long total(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HTMM_SYSFS "/%s", name);
	return read_ll(path);
}

/* Is @node a node with memory? */
static inline bool node_has_memory(int node)
{
	char path[128], buf[4096], *s;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
		 node);
	if (read_file(path, buf, sizeof(buf)))
		return false;
	s = strstr(buf, "MemTotal:");
	return s && strtoll(s + strlen("MemTotal:"), NULL, 10) > 0;
}

static inline long long session_value(pid_t pid, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s", pid, name);
	return read_ll(path);
}

static inline bool session_exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), HTMM_SYSFS "/sessions/%s", name);
	return stat(path, &st) == 0;
}

static inline bool pid_session_exists(pid_t pid)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", pid);
	return session_exists(name);
}

static inline char *map_pages(int n)
{
	char *p = mmap(NULL, n * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* First touch of each page: one page fault, so one sample, each. */
static inline void touch_pages(char *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i * page_size] = 1;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- htmm_sample tracepoint --- */

static inline bool trace_available(void)
{
	return access(TRACEFS "/events/htmm/htmm_sample/enable", W_OK) == 0;
}

static inline int trace_samples(bool on)
{
	if (on && write_file(TRACEFS "/trace", ""))
		return -1;
	return write_file(TRACEFS "/events/htmm/htmm_sample/enable",
			  on ? "1" : "0") ? -1 : 0;
}

struct sample_filter {
	pid_t tid;		/* -1: any thread */
	pid_t pid;		/* -1: any process */
	char *base;		/* pages counted: [base, base + n pages) */
	int n;
	unsigned char *hit;	/* per page */
};

struct trace_sample {
	pid_t pid, tid;
	int cpu;		/* the buffer the sample was drained from */
	unsigned long long addr;
};

/* Call @fn for each htmm_sample event in the trace buffer. */
static inline int trace_for_each(void (*fn)(const struct trace_sample *, void *),
				 void *arg)
{
	FILE *fp = fopen(TRACEFS "/trace", "r");
	struct trace_sample ts;
	unsigned int pid, tid;
	char *line = NULL, *s;
	size_t cap = 0;

	if (!fp)
		return -1;
	while (getline(&line, &cap, fp) > 0) {
		s = strstr(line, "htmm_sample: ");
		if (!s || sscanf(s, "htmm_sample: pid=%u tid=%u cpu=%d addr=%llx",
				 &pid, &tid, &ts.cpu, &ts.addr) != 4)
			continue;
		ts.pid = pid;
		ts.tid = tid;
		fn(&ts, arg);
	}
	free(line);
	fclose(fp);
	return 0;
}

struct filters {
	struct sample_filter *f;
	int n;
};

static inline void mark_hit(const struct trace_sample *ts, void *arg)
{
	struct filters *fs = arg;
	int i;

	for (i = 0; i < fs->n; i++) {
		struct sample_filter *f = &fs->f[i];
		unsigned long long lo = (unsigned long)f->base;

		if ((f->pid != -1 && f->pid != ts->pid) ||
		    (f->tid != -1 && f->tid != ts->tid))
			continue;
		if (ts->addr >= lo && ts->addr < lo + f->n * page_size)
			f->hit[(ts->addr - lo) / page_size] = 1;
	}
}

/* Mark in each filter the pages its samples landed on. */
static inline int trace_collect(struct sample_filter *f, int nf)
{
	struct filters fs = { .f = f, .n = nf };

	return trace_for_each(mark_hit, &fs);
}

static inline int pages_hit(struct sample_filter *f)
{
	int i, n = 0;

	for (i = 0; i < f->n; i++)
		n += f->hit[i];
	return n;
}

/* The pid of the ksamplingd kernel thread, or -1. */
static inline pid_t find_ksamplingd(void)
{
	char path[PATH_MAX], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc");
	pid_t pid = -1;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		if (atoi(d->d_name) > 0 && !read_file(path, comm, sizeof(comm)) &&
		    !strcmp(comm, "ksamplingd\n")) {
			pid = atoi(d->d_name);
			break;
		}
	}
	if (dir)
		closedir(dir);
	return pid;
}

/* Context switches of @pid so far, or -1. */
static inline long long ctx_switches(pid_t pid)
{
	char path[64], buf[4096], *s;
	long long n = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	s = strstr(buf, "\nvoluntary_ctxt_switches:");
	if (s)
		n += strtoll(strchr(s, ':') + 1, NULL, 10);
	s = strstr(buf, "nonvoluntary_ctxt_switches:");
	if (s)
		n += strtoll(strchr(s, ':') + 1, NULL, 10);
	return n;
}

/* A /proc/meminfo value in kB, or -1. */
/* kB of AnonHugePages in the mapping at @addr, from /proc/self/smaps. */
static inline long long anon_huge_kb(void *addr)
{
	char line[256], want[32];
	long long kb = -1;
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' '))
			in = !strncmp(line, want, strlen(want));
		else if (in && sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static inline long long mem_kb(const char *key)
{
	char buf[4096], *s;

	if (read_file("/proc/meminfo", buf, sizeof(buf)))
		return -1;
	s = strstr(buf, key);
	return s ? strtoll(s + strlen(key), NULL, 10) : -1;
}

/* The value of @key ("key value" lines) in file @path, or -1 if absent. */
static inline long long keyed_value(const char *path, const char *key)
{
	char buf[16384], *p;
	size_t len = strlen(key);

	if (read_file(path, buf, sizeof(buf)))
		return -1;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtoll(p + len + 1, NULL, 10);
	return -1;
}

static inline long long vmstat_value(const char *key)
{
	return keyed_value("/proc/vmstat", key);
}

#define CGROUP_ROOT	"/sys/fs/cgroup"

/*
 * Move this process into the memory cgroup @name under the cgroup2 root
 * (mounted here if it is not yet), made with the memory controller on.
 * NULL on success, else why not (a reason to skip).
 */
static inline const char *cgroup_enter(const char *name)
{
	char path[PATH_MAX], pid[16];

	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
		return "no cgroup2 (CONFIG_CGROUPS=n)";
	if (write_file(CGROUP_ROOT "/cgroup.subtree_control", "+memory"))
		return "no memory controller (CONFIG_MEMCG=n)";
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return "cannot make a cgroup";
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", name);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_file(path, pid))
		return "cannot enter a cgroup";
	return NULL;
}

/* Back to the root cgroup, and @name removed. */
static inline void cgroup_leave(const char *name)
{
	char path[PATH_MAX], pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(CGROUP_ROOT "/cgroup.procs", pid);
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s", name);
	rmdir(path);
}

/* @key of memory.stat of cgroup @name, or -1. */
static inline long long memcg_stat(const char *name, const char *key)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CGROUP_ROOT "/%s/memory.stat", name);
	return keyed_value(path, key);
}

/* Number of live sessions, or -1. */
static inline int nr_sessions(void)
{
	struct dirent *d;
	DIR *dir = opendir(HTMM_SYSFS "/sessions");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* What a new session would sample with now ("none": nothing). */
static inline const char *read_source_resolved(void)
{
	static char buf[32];

	if (read_file(HTMM_SYSFS "/source_resolved", buf, sizeof(buf)))
		return "?";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * @n fresh 4 KiB pages first touched on @node, under a task policy that
 * is reset afterwards, so that no VMA policy keeps tiering (htmm, NUMA
 * balancing) from moving them; NULL on failure.
 */
static inline char *pages_on(int n, int node)
{
	unsigned long mask = 1UL << node;
	char *p;

	if (syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */, &mask, 8 * sizeof(mask)))
		return NULL;
	p = map_pages(n);
	if (p) {
		madvise(p, (size_t)n * page_size, MADV_NOHUGEPAGE);
		touch_pages(p, n);
	}
	if (syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0))
		return NULL;
	return p;
}

/* How many of the @n pages at @p in process @pid (0: this one) are on @node. */
static inline int pages_on_node_of(pid_t pid, char *p, int n, int node)
{
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int i, on = 0;

	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = p + (size_t)i * page_size;
	if (syscall(SYS_move_pages, pid, n, pages, NULL, status, 0))
		goto out;
	for (i = 0; i < n; i++)
		on += status[i] == node;
out:
	free(pages);
	free(status);
	return on;
}

/* The source selected in HTMM_SYSFS/source (the name in brackets). */
static inline int read_source_selected(char *buf, size_t len)
{
	char *s, *e;

	if (read_file(HTMM_SYSFS "/source", buf, len))
		return -1;
	s = strchr(buf, '[');
	e = s ? strchr(s, ']') : NULL;
	if (!e)
		return -1;
	*e = '\0';
	memmove(buf, s + 1, strlen(s + 1) + 1);
	return 0;
}

#ifdef FIXTURE
/*
 * With kselftest_harness.h: the fixture every htmm test uses. The tests
 * count samples against the faults they cause, so they sample with the
 * software source (page faults; "auto" is abit here) and the CPU budget,
 * which raises the period when ksamplingd is busy (it is, on a debug
 * kernel), is lifted; both are restored after each test. The budget's
 * and the sources' own tests set what they test.
 */
FIXTURE(htmm) {
	char quota[16];		/* cpu_quota before the test */
	char source[64];	/* source before the test */
};

FIXTURE_SETUP(htmm)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, read_file(HTMM_SYSFS "/cpu_quota", self->quota,
			       sizeof(self->quota)));
	ASSERT_EQ(0, read_source_selected(self->source, sizeof(self->source)));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", "0"));
	ASSERT_EQ(0, write_file(HTMM_SYSFS "/source", "software"));
}

FIXTURE_TEARDOWN(htmm)
{
	if (self->quota[0])
		EXPECT_EQ(0, write_file(HTMM_SYSFS "/cpu_quota", self->quota));
	if (self->source[0])
		EXPECT_EQ(0, write_file(HTMM_SYSFS "/source", self->source));
}
#endif

#ifdef TEST_HARNESS_MAIN
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>

/*
 * The guard: what one test program leaves behind must not fail the next.
 * kselftest's runner ends a program that outlives its timeout with
 * SIGTERM, Ctrl-C sends SIGINT; neither reaches the tests' processes,
 * which the harness runs in a process group of their own, and what a
 * test changed (a system-wide session, a setting, an offline CPU) only
 * its own teardown undoes. So, before the first test, the harness's
 * process becomes a child subreaper (the tests' orphans become its
 * children) and notes the sessions and the settings. When one of those
 * signals ends it, and when it exits, it
 *  - kills the tests' processes that are still alive,
 *  - ends the sessions that were not there before (a dead process's
 *    session ends by itself: it waits for those),
 *  - writes back each setting that changed,
 * and says so. At exit, anything it had to clean up fails the program.
 * After a signal it raises the signal again, for the runner to see.
 * Programs the tests exec inherit HTMM_GUARD and guard nothing.
 * The cleaning up is async-signal-safe.
 */
#define HTMM_GUARD_FILES	64
#define HTMM_GUARD_SESSIONS	16
#define HTMM_GUARD_VAL		1024

static struct {
	pid_t main;		/* the harness's process; 0: no guard */
	int nr_files, nr_sessions;
	struct {
		char path[96];
		char val[HTMM_GUARD_VAL];
	} file[HTMM_GUARD_FILES];
	char session[HTMM_GUARD_SESSIONS][16];	/* there before the tests */
	pid_t ksamplingd;
	cpu_set_t ksamplingd_cpus;
} htmm_guard;

static void htmm_guard_say(const char *s)
{
	if (write(STDOUT_FILENO, s, strlen(s)) < 0)
		return;
}

static char *htmm_guard_itoa(long v, char *buf)
{
	char *p = buf + 23;

	*p = '\0';
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	return p;
}

static pid_t htmm_guard_atoi(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > INT_MAX / 10)
			return -1;
		v = v * 10 + *s - '0';
	}
	return v;
}

/* @path's value as written: a list's [choice], no trailing newline. */
static int htmm_guard_read(const char *path, char *val)
{
	char *s, *e;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, val, HTMM_GUARD_VAL);
	close(fd);
	if (n < 0 || n == HTMM_GUARD_VAL)
		return -1;
	val[n] = '\0';
	while (n && val[n - 1] == '\n')
		val[--n] = '\0';
	s = strchr(val, '[');
	e = s ? strchr(s, ']') : NULL;
	if (e) {
		*e = '\0';
		memmove(val, s + 1, e - s);
	}
	return 0;
}

struct htmm_guard_dirent {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Call @fn for each entry of @dir but . and .. */
static void htmm_guard_each(const char *dir, void (*fn)(const char *, void *),
			    void *arg)
{
	unsigned long long buf[512];
	struct htmm_guard_dirent *d;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, off;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += d->reclen) {
			d = (struct htmm_guard_dirent *)((char *)buf + off);
			if (strcmp(d->name, ".") && strcmp(d->name, ".."))
				fn(d->name, arg);
		}
	}
	close(fd);
}

/* State, parent and process group of process @name, from /proc. */
static int htmm_guard_stat(const char *name, char *state, pid_t *ppid,
			   pid_t *pgrp)
{
	char path[64] = "/proc/", buf[512], *p;
	ssize_t n;
	int fd;

	strcat(strcat(path, name), "/stat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) S ppid pgrp ...": comm may hold anything */
	p = strrchr(buf, ')');
	if (!p || strlen(p) < 6)
		return -1;
	*state = p[2];
	*ppid = *pgrp = 0;
	for (p += 4; *p >= '0' && *p <= '9'; p++)
		*ppid = *ppid * 10 + *p - '0';
	for (p++; *p >= '0' && *p <= '9'; p++)
		*pgrp = *pgrp * 10 + *p - '0';
	return 0;
}

struct htmm_guard_found {
	int n;
	char say[256];		/* what was found, for the report */
};

static void htmm_guard_note(struct htmm_guard_found *f, const char *what)
{
	size_t len = strlen(f->say);

	if (len + strlen(what) + 2 < sizeof(f->say)) {
		if (len)
			strcat(f->say, " ");
		strcat(f->say, what);
	}
	f->n++;
}

/* Kill a live child of the harness's process, and its process group. */
static void htmm_guard_kill_child(const char *name, void *arg)
{
	pid_t pid = htmm_guard_atoi(name), ppid, pgrp;
	char state;

	if (pid <= 0 || htmm_guard_stat(name, &state, &ppid, &pgrp) ||
	    ppid != htmm_guard.main || state == 'Z' || state == 'X')
		return;
	if (pgrp > 1 && pgrp != getpgrp())
		kill(-pgrp, SIGKILL);
	kill(pid, SIGKILL);
	htmm_guard_note(arg, name);
}

static void htmm_guard_nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Kill what is left of the tests (in 10 s at most) and reap it. */
static void htmm_guard_kill_tests(struct htmm_guard_found *found)
{
	struct htmm_guard_found again = { 0 };
	int i;

	htmm_guard_each("/proc", htmm_guard_kill_child, found);
	for (i = 0, again.n = found->n; again.n && i < 1000; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		htmm_guard_nap();
		again.n = 0;
		htmm_guard_each("/proc", htmm_guard_kill_child, &again);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

struct htmm_guard_sessions {
	struct htmm_guard_found ended;
	int dying;		/* sessions of processes that are gone */
};

/* End a session that was not there before, unless its process is gone. */
static void htmm_guard_end_session(const char *name, void *arg)
{
	struct htmm_guard_sessions *s = arg;
	pid_t pid = htmm_guard_atoi(name), ppid, pgrp;
	char state;
	int i;

	for (i = 0; i < htmm_guard.nr_sessions; i++)
		if (!strcmp(name, htmm_guard.session[i]))
			return;
	if (!strcmp(name, "all")) {
		htmm_end(-1);
	} else if (pid > 0) {
		if (htmm_guard_stat(name, &state, &ppid, &pgrp) ||
		    state == 'Z' || state == 'X') {
			s->dying++;
			return;
		}
		htmm_end(pid);
	}
	htmm_guard_note(&s->ended, name);
}

/* Sessions that were not there before: ended, or gone within 5 s. */
static void htmm_guard_end_sessions(struct htmm_guard_found *ended,
				    int *dying)
{
	struct htmm_guard_sessions s = { 0 };
	int i;

	for (i = 0; i < 500; i++) {
		s.dying = 0;
		htmm_guard_each(HTMM_SYSFS "/sessions", htmm_guard_end_session,
				&s);
		if (!s.dying)
			break;
		htmm_guard_nap();
	}
	*ended = s.ended;
	*dying = s.dying;
}

/* Write back each setting that changed, twice (one may need another). */
static void htmm_guard_restore(struct htmm_guard_found *changed)
{
	char now[HTMM_GUARD_VAL];
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < htmm_guard.nr_files; i++) {
			if (htmm_guard_read(htmm_guard.file[i].path, now) ||
			    !strcmp(now, htmm_guard.file[i].val))
				continue;
			if (!pass)
				htmm_guard_note(changed,
						htmm_guard.file[i].path);
			write_file(htmm_guard.file[i].path,
				   htmm_guard.file[i].val);
		}
	}
	if (htmm_guard.ksamplingd > 0)
		sched_setaffinity(htmm_guard.ksamplingd,
				  sizeof(htmm_guard.ksamplingd_cpus),
				  &htmm_guard.ksamplingd_cpus);
}

static void htmm_guard_report(const char *what, struct htmm_guard_found *f)
{
	char num[24];

	if (!f->n)
		return;
	htmm_guard_say("# ");
	htmm_guard_say(program_invocation_short_name);
	htmm_guard_say(": ");
	htmm_guard_say(what);
	htmm_guard_say(" (");
	htmm_guard_say(htmm_guard_itoa(f->n, num));
	htmm_guard_say("): ");
	htmm_guard_say(f->say);
	htmm_guard_say("\n");
}

/* Clean up after the tests; the number of things that had to be. */
static int htmm_guard_cleanup(bool at_exit)
{
	struct htmm_guard_found procs = { 0 }, ended = { 0 }, changed = { 0 };
	struct htmm_guard_found dying = { .say = "their processes are gone" };

	htmm_guard_kill_tests(&procs);
	htmm_guard_report(at_exit ? "processes left behind, killed" :
			  "the test's processes, killed with their groups",
			  &procs);
	htmm_guard_end_sessions(&ended, &dying.n);
	htmm_guard_report(at_exit ? "sessions left behind, ended" :
			  "sessions the tests started, ended", &ended);
	htmm_guard_report("sessions that did not end within 5 s", &dying);
	htmm_guard_restore(&changed);
	htmm_guard_report(at_exit ? "settings left changed, written back" :
			  "settings the tests changed, written back", &changed);
	return procs.n + ended.n + dying.n + changed.n;
}

static void htmm_guard_signal(int sig)
{
	sigset_t set;
	char num[24];

	if (getpid() == htmm_guard.main) {
		htmm_guard_say("# ");
		htmm_guard_say(program_invocation_short_name);
		htmm_guard_say(": signal ");
		htmm_guard_say(htmm_guard_itoa(sig, num));
		htmm_guard_say(": cleaning up after the tests\n");
		htmm_guard_cleanup(false);
	}
	/* As without the guard: the default action, once this returns. */
	signal(sig, SIG_DFL);
	raise(sig);
	if (getpid() == htmm_guard.main) {
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		_exit(128 + sig);
	}
}

static void htmm_guard_exit(void)
{
	if (getpid() != htmm_guard.main)
		return;
	fflush(stdout);
	fflush(stderr);
	if (htmm_guard_cleanup(true)) {
		htmm_guard_say("# ");
		htmm_guard_say(program_invocation_short_name);
		htmm_guard_say(": it must leave the machine as it found it: FAIL\n");
		_exit(KSFT_FAIL);
	}
}

static void htmm_guard_save(const char *path)
{
	int i = htmm_guard.nr_files;
	struct stat st;

	if (i == HTMM_GUARD_FILES || strlen(path) >= sizeof(htmm_guard.file[i].path) ||
	    stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0200) ||
	    htmm_guard_read(path, htmm_guard.file[i].val))
		return;
	snprintf(htmm_guard.file[i].path, sizeof(htmm_guard.file[i].path), "%s", path);
	htmm_guard.nr_files++;
}

/* The writable files of @dir and of its directories, but sessions/. */
static void htmm_guard_save_dir(const char *dir, int depth)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dp = opendir(dir);

	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "sessions"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			if (depth)
				htmm_guard_save_dir(path, depth - 1);
		} else {
			htmm_guard_save(path);
		}
	}
	if (dp)
		closedir(dp);
}

static void htmm_guard_note_session(const char *name, void *arg)
{
	if (htmm_guard.nr_sessions < HTMM_GUARD_SESSIONS)
		snprintf(htmm_guard.session[htmm_guard.nr_sessions++],
			 sizeof(htmm_guard.session[0]), "%s", name);
	if (!strcmp(name, "all"))
		htmm_guard_say("# a system-wide session ran before: tests that start one fail\n");
}

__attribute__((constructor)) static void htmm_guard_arm(void)
{
	static const char * const other[] = {
		"/proc/sys/kernel/perf_event_paranoid",
		"/proc/sys/kernel/numa_balancing",
		"/proc/sys/vm/nr_hugepages",
		"/sys/kernel/mm/transparent_hugepage/enabled",
		TRACEFS "/events/htmm/htmm_sample/enable",
	};
	struct sigaction sa = { .sa_handler = htmm_guard_signal };
	long cpu, cpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[96];
	unsigned int i;

	if (getenv("HTMM_GUARD") || geteuid() || access(HTMM_SYSFS, F_OK))
		return;
	setenv("HTMM_GUARD", "1", 1);
	htmm_guard_save_dir(HTMM_SYSFS, 1);
	for (i = 0; i < ARRAY_SIZE(other); i++)
		htmm_guard_save(other[i]);
	for (cpu = 1; cpu < cpus; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/online", cpu);
		htmm_guard_save(path);
	}
	htmm_guard_each(HTMM_SYSFS "/sessions", htmm_guard_note_session, NULL);
	htmm_guard.ksamplingd = find_ksamplingd();
	if (htmm_guard.ksamplingd > 0 &&
	    sched_getaffinity(htmm_guard.ksamplingd, sizeof(htmm_guard.ksamplingd_cpus),
			      &htmm_guard.ksamplingd_cpus))
		htmm_guard.ksamplingd = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	htmm_guard.main = getpid();
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(htmm_guard_exit);
}
#endif /* TEST_HARNESS_MAIN */

#endif /* HTMM_UTIL_H */
