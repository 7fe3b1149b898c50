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

#endif /* HTMM_UTIL_H */
