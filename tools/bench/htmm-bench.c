// SPDX-License-Identifier: GPL-2.0
/*
 * htmm-bench - htmm against perf record, side by side, in one run.
 *
 * usage: htmm-bench [-r REPS] [-n ROUNDS] [-p PAGES] [-a MIB] [-s SECONDS]
 *                   [-o FILE.json]
 *
 * Runs inside the guest (make bench). The workload maps PAGES fresh
 * pages, touches each, unmaps them, ROUNDS times: every touch is a page
 * fault. Each repetition runs it four ways:
 *   none   no sampling
 *   htmm   under an htmm session on the workload's own process (a
 *          child's samples would not count in the session's hotness),
 *          software source, period 1 (cpu_quota is set to 0, no limit,
 *          so that the CPU budget keeps it at 1)
 *   htmm0  the same with max_tracked_pages 0: no per-page hotness, so
 *          htmm - htmm0 is what hotness costs per sample
 *   perf   under "perf record -e page-faults -c 1 -d"
 * and measures the workload's wall time, the sampler's CPU time per
 * sample (ksamplingd's, or the perf process's own), the samples and the
 * losses; then each sampler's wakeups per second while the sampled
 * process sleeps. Workload times exclude perf's own start-up.
 *
 * Then the abit source on a MIB (default 1024) working set swept all the
 * time, under the CPU budget as it is: the slab memory per tracked page
 * once every page is tracked; then, after the budget has had 20 s to
 * settle, ksamplingd's CPU time per page-table entry scanned and its CPU
 * share against cpu_quota over SECONDS (default 30).
 *
 * Prints medians with min..max, and writes JSON.
 * Exit status: 0, or 1 if a run failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The kselftests' helpers: system calls, sysfs and /proc readers. */
#include "../../selftests/htmm/htmm_util.h"

#define MAX_REPS	15
#define PERF		"/usr/bin/perf"
#define PERF_DATA	"/tmp/perf.data"

enum { NONE, HTMM, HTMM0, PERFREC, NR_MODES };
static const char *const mode_names[NR_MODES] = { "none", "htmm", "htmm0", "perf" };

struct run {
	double wall;		/* workload, s */
	double sampler_cpu;	/* s */
	long long samples;
	long long lost;
	long long tracked;	/* pages in the session's hotness at the end */
};

static int reps = 5, rounds = 50, pages = 2048;
static int abit_mib = 1024, abit_seconds = 30;
/* The budget raises the period up to 4x per half-second window, after a pass. */
#define ABIT_SETTLE_S	20
static char self_exe[4096];	/* this program, for perf to run */

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

/* The workload: every touch is a fresh page fault. */
static void workload_rounds(void)
{
	int r, i;

	for (r = 0; r < rounds; r++) {
		char *p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < pages; i++)
			p[i * page_size] = 1;
		munmap(p, pages * page_size);
	}
}

/*
 * CPU time (s) of @pid: from schedstat (ns) where the kernel has it,
 * else from stat (clock ticks).
 */
static double proc_cpu(pid_t pid)
{
	char path[64], buf[1024], *s;
	unsigned long long ut, st;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (!read_file(path, buf, sizeof(buf)))
		return strtoull(buf, NULL, 10) / 1e9;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	s = strrchr(buf, ')');
	if (!s || sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

/*
 * The workload in a child, held before its first touch until go() and
 * after its last until end(): a session can be started on the child
 * itself, whose samples count in its hotness (a child's would not), and
 * its counters read before it exits.
 */
struct held {
	pid_t pid;
	int to[2], from[2];
};

static int held_fork(struct held *w)
{
	char x;

	if (pipe(w->to) || pipe(w->from))
		return -1;
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (!w->pid) {
		if (read(w->to[0], &x, 1) != 1)
			_exit(1);
		workload_rounds();
		if (write(w->from[1], "d", 1) != 1 || read(w->to[0], &x, 1) != 1)
			_exit(1);
		_exit(0);
	}
	return 0;
}

/* Let the child run the workload; its wall time. */
static int held_go(struct held *w, double *wall)
{
	double t0 = now();
	char x;

	if (write(w->to[1], "g", 1) != 1 || read(w->from[0], &x, 1) != 1)
		return -1;
	*wall = now() - t0;
	return 0;
}

/* Let the child exit; 0 if it ran the workload through. */
static int held_end(struct held *w)
{
	int status, ok;

	ok = write(w->to[1], "x", 1) == 1;
	close(w->to[0]);
	close(w->to[1]);
	close(w->from[0]);
	close(w->from[1]);
	if (waitpid(w->pid, &status, 0) != w->pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return ok ? 0 : -1;
}

/* Run the workload in a child; its wall time. */
static int run_workload(double *wall)
{
	struct held w;

	int err;

	if (held_fork(&w))
		return -1;
	/* In this order: the child must run before it is let go. */
	err = held_go(&w, wall);
	return err | held_end(&w);
}

/*
 * The workload under a session of its own; @tracked: whether hotness
 * tracks the pages (max_tracked_pages).
 */
static int run_htmm(struct run *r, pid_t kd, bool tracked)
{
	struct held w;
	double cpu0;
	int err;

	if (write_file(HTMM_SYSFS "/max_tracked_pages", tracked ? "1048576" : "0")) {
		fprintf(stderr, "htmm-bench: cannot set max_tracked_pages\n");
		return -1;
	}
	if (held_fork(&w))
		return -1;
	if (htmm_start(w.pid, -1)) {
		perror("htmm-bench: htmm_start");
		held_end(&w);
		return -1;
	}
	cpu0 = proc_cpu(kd);
	err = held_go(&w, &r->wall);
	/* Samples of the last faults may wait for the next drain. */
	usleep(200000);
	r->samples = session_value(w.pid, "nr_sampled");
	r->lost = session_value(w.pid, "nr_lost");
	r->tracked = session_value(w.pid, "nr_tracked_pages");
	err |= htmm_end(w.pid) ? -1 : 0;
	r->sampler_cpu = proc_cpu(kd) - cpu0;
	return err | held_end(&w);
}

/* perf record with the workload as its child; perf's own CPU time. */
static int run_perf(struct run *r)
{
	struct rusage ru;
	char line[512];
	int pipefd[2], status;
	double wl_cpu = 0;
	FILE *err;
	pid_t c;

	if (pipe(pipefd))
		return -1;
	c = fork();
	if (c < 0)
		return -1;
	if (!c) {
		char rounds_s[16], pages_s[16];

		dup2(pipefd[1], 2);
		close(pipefd[0]);
		snprintf(rounds_s, sizeof(rounds_s), "%d", rounds);
		snprintf(pages_s, sizeof(pages_s), "%d", pages);
		execl(PERF, "perf", "record", "-q", "-e", "page-faults", "-c", "1",
		      "-d", "-o", PERF_DATA, "--", self_exe, "--workload",
		      rounds_s, pages_s, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	r->wall = -1;
	err = fdopen(pipefd[0], "r");
	r->lost = 0;
	while (fgets(line, sizeof(line), err)) {
		char *s = strstr(line, "workload cpu ");

		if (s)
			sscanf(s, "workload cpu %lf wall %lf", &wl_cpu, &r->wall);
		s = strstr(line, " and lost ");
		if (s)
			r->lost += strtoll(s + 10, NULL, 10);
		else if (!strstr(line, "workload cpu"))
			fputs(line, stderr);
	}
	fclose(err);
	if (wait4(c, &status, 0, &ru) != c || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || r->wall < 0)
		return -1;
	/* rusage covers perf and the workload it waited for. */
	r->sampler_cpu = tv(ru.ru_utime) + tv(ru.ru_stime) - wl_cpu;
	r->samples = -1;
	return 0;
}

/* Count the samples perf wrote (the workload exec'd by perf record). */
static long long perf_samples(void)
{
	char line[512];
	long long n = -1;
	FILE *f = popen(PERF " report -i " PERF_DATA " --stats 2>/dev/null", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, "SAMPLE events:");

		if (s && n < 0)
			n = strtoll(s + 14, NULL, 10);
	}
	pclose(f);
	return n;
}

/* Wakeups per second of a sampler while the sampled process sleeps. */
static double idle_wakeups(int mode, pid_t kd)
{
	long long s0, s1;
	pid_t sleeper, perf = -1, who = kd;
	int status;

	sleeper = fork();
	if (!sleeper) {
		sleep(60);
		_exit(0);
	}
	if (mode == HTMM) {
		if (htmm_start(sleeper, -1))
			return -1;
	} else {
		char pid_s[16];

		snprintf(pid_s, sizeof(pid_s), "%d", sleeper);
		perf = fork();
		if (!perf) {
			execl(PERF, "perf", "record", "-q", "-e", "page-faults", "-c",
			      "1", "-d", "-o", "/tmp/idle.data", "-p", pid_s,
			      (char *)NULL);
			_exit(127);
		}
		who = perf;
	}
	usleep(500000);
	s0 = ctx_switches(who);
	sleep(2);
	s1 = ctx_switches(who);
	if (mode == HTMM) {
		htmm_end(sleeper);
	} else {
		kill(perf, SIGINT);
		waitpid(perf, &status, 0);
	}
	kill(sleeper, SIGKILL);
	waitpid(sleeper, &status, 0);
	return (s1 - s0) / 2.0;
}

struct abit_result {
	double cpu_s, wall_s, share_pm, ns_per_entry, bytes_per_page;
	double track_s, all_share_pm;	/* to track every page; share since start */
	long long quota, period, scanned, sampled, tracked;
	long long slab_kb[3];	/* before, all tracked, after the end */
};

/* The abit workload: sweep @len bytes of base pages until killed. */
static void __attribute__((noreturn)) sweeper(size_t len, int ready)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED)
		_exit(1);
	/* Page-table entries, not PMDs: the cost per PTE is the question. */
	madvise(p, len, MADV_NOHUGEPAGE);
	memset(p, 1, len);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;)
		for (i = 0; i < len; i += page_size)
			p[i]++;
}

/*
 * abit on a working set of abit_mib MiB under the CPU budget's @quota:
 * track every page first (slab before and after), then measure
 * ksamplingd for abit_seconds.
 */
static int run_abit(struct abit_result *a, pid_t kd, const char *quota)
{
	long long want = (long long)abit_mib * 1024 * 1024 / page_size;
	double cpu0, t0, deadline, start_cpu, start_t;
	int fds[2], status;
	long long scanned0, sampled0;
	char x;
	pid_t c;

	if (write_file(HTMM_SYSFS "/cpu_quota", quota) ||
	    write_file(HTMM_SYSFS "/source", "abit") ||
	    write_file(HTMM_SYSFS "/max_tracked_pages", "1048576") || pipe(fds))
		return -1;
	c = fork();
	if (c < 0)
		return -1;
	if (!c)
		sweeper((size_t)abit_mib << 20, fds[1]);
	close(fds[1]);
	if (read(fds[0], &x, 1) != 1) {
		fprintf(stderr, "htmm-bench: the %d MiB sweeper did not start\n", abit_mib);
		waitpid(c, &status, 0);
		return -1;
	}
	close(fds[0]);
	a->quota = atoll(quota);
	a->slab_kb[0] = mem_kb("Slab:");
	if (htmm_start(c, -1)) {
		perror("htmm-bench: htmm_start (abit)");
		kill(c, SIGKILL);
		waitpid(c, &status, 0);
		return -1;
	}
	start_cpu = proc_cpu(kd);
	start_t = now();
	/* Until every page is tracked (the budget may space passes out). */
	deadline = now() + 120;
	while ((a->tracked = session_value(c, "nr_tracked_pages")) < want &&
	       now() < deadline)
		usleep(100000);
	a->track_s = now() - start_t;
	a->slab_kb[1] = mem_kb("Slab:");
	sleep(ABIT_SETTLE_S);

	scanned0 = session_value(c, "nr_scanned");
	sampled0 = session_value(c, "nr_sampled");
	cpu0 = proc_cpu(kd);
	t0 = now();
	sleep(abit_seconds);
	a->cpu_s = proc_cpu(kd) - cpu0;
	a->wall_s = now() - t0;
	a->scanned = session_value(c, "nr_scanned") - scanned0;
	a->sampled = session_value(c, "nr_sampled") - sampled0;
	a->period = session_value(c, "sample_period");
	a->all_share_pm = 1000 * (proc_cpu(kd) - start_cpu) / (now() - start_t);
	htmm_end(c);
	kill(c, SIGKILL);
	waitpid(c, &status, 0);
	usleep(200000);
	a->slab_kb[2] = mem_kb("Slab:");

	a->share_pm = 1000 * a->cpu_s / a->wall_s;
	a->ns_per_entry = a->scanned > 0 ? 1e9 * a->cpu_s / a->scanned : -1;
	a->bytes_per_page = a->tracked > 0 ?
		1024.0 * (a->slab_kb[1] - a->slab_kb[0]) / a->tracked : -1;
	return write_file(HTMM_SYSFS "/source", "software");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat3 {
	double med, min, max;
};

static struct stat3 stats(double *v, int n)
{
	double s[MAX_REPS];
	struct stat3 st;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp);
	st.min = s[0];
	st.max = s[n - 1];
	st.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return st;
}

int main(int argc, char **argv)
{
	double wall[NR_MODES][MAX_REPS], cpus[NR_MODES][MAX_REPS];
	double slow[NR_MODES][MAX_REPS], lost[NR_MODES][MAX_REPS];
	double samples[NR_MODES][MAX_REPS], idle[NR_MODES];
	double per[NR_MODES][MAX_REPS], hot_cost[MAX_REPS];
	struct stat3 w, sl, c, sa, lo, hc;
	const char *json = "/tmp/bench.json";
	struct abit_result ab;
	char quota[16];
	struct run r;
	FILE *out;
	pid_t kd;
	int i, m, opt;

	page_size = sysconf(_SC_PAGESIZE);
	if (argc == 4 && !strcmp(argv[1], "--workload")) {
		/* perf record's child: the workload, reporting its times. */
		struct rusage ru;
		double t0 = now();
		pid_t c;
		int status;

		rounds = atoi(argv[2]);
		pages = atoi(argv[3]);
		c = fork();
		if (!c) {
			workload_rounds();
			_exit(0);
		}
		if (wait4(c, &status, 0, &ru) != c)
			return 1;
		fprintf(stderr, "workload cpu %.6f wall %.6f\n",
			tv(ru.ru_utime) + tv(ru.ru_stime), now() - t0);
		return WEXITSTATUS(status);
	}
	while ((opt = getopt(argc, argv, "r:n:p:a:s:o:h")) != -1) {
		switch (opt) {
		case 'r': reps = atoi(optarg); break;
		case 'n': rounds = atoi(optarg); break;
		case 'p': pages = atoi(optarg); break;
		case 'a': abit_mib = atoi(optarg); break;
		case 's': abit_seconds = atoi(optarg); break;
		case 'o': json = optarg; break;
		default:
			fprintf(stderr, "usage: htmm-bench [-r REPS] [-n ROUNDS] [-p PAGES] [-a MIB] [-s SECONDS] [-o FILE.json]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || rounds < 1 || pages < 1 ||
	    abit_mib < 1 || abit_seconds < 1) {
		fprintf(stderr, "htmm-bench: bad arguments\n");
		return 2;
	}
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0) {
		perror("htmm-bench: /proc/self/exe");
		return 1;
	}
	kd = find_ksamplingd();
	if (kd < 0 || access(PERF, X_OK)) {
		fprintf(stderr, "htmm-bench: needs ksamplingd (CONFIG_HTMM) and %s\n", PERF);
		return 1;
	}
	/* Page faults; period 1 for both: no CPU budget raising htmm's. */
	if (read_file(HTMM_SYSFS "/cpu_quota", quota, sizeof(quota)) ||
	    write_file(HTMM_SYSFS "/source", "software") ||
	    write_file(HTMM_SYSFS "/cpu_quota", "0")) {
		fprintf(stderr, "htmm-bench: cannot lift %s/cpu_quota\n", HTMM_SYSFS);
		return 1;
	}

	printf("htmm-bench: %d rounds x %d fresh pages = %d page faults per run, %d repetitions\n",
	       rounds, pages, rounds * pages, reps);
	for (i = 0; i < reps; i++) {
		long long tracked = 0;

		/* The four modes side by side in every repetition. */
		memset(&r, 0, sizeof(r));
		if (run_workload(&r.wall))
			return 1;
		wall[NONE][i] = r.wall;
		cpus[NONE][i] = samples[NONE][i] = lost[NONE][i] = 0;

		for (m = HTMM; m <= HTMM0; m++) {
			if (run_htmm(&r, kd, m == HTMM))
				return 1;
			wall[m][i] = r.wall;
			cpus[m][i] = r.sampler_cpu;
			samples[m][i] = r.samples;
			lost[m][i] = r.lost;
			if (m == HTMM)
				tracked = r.tracked;
		}

		if (run_perf(&r))
			return 1;
		wall[PERFREC][i] = r.wall;
		cpus[PERFREC][i] = r.sampler_cpu;
		samples[PERFREC][i] = perf_samples();
		lost[PERFREC][i] = r.lost;

		for (m = 0; m < NR_MODES; m++)
			slow[m][i] = wall[m][i] / wall[NONE][i];
		printf("htmm-bench: rep %d: none %.3f s, htmm %.3f s (%.0f samples, %lld pages tracked), htmm0 %.3f s, perf %.3f s (%.0f samples)\n",
		       i + 1, wall[NONE][i], wall[HTMM][i], samples[HTMM][i],
		       tracked, wall[HTMM0][i], wall[PERFREC][i], samples[PERFREC][i]);
		fflush(stdout);
	}
	idle[NONE] = 0;
	idle[HTMM] = idle_wakeups(HTMM, kd);
	idle[HTMM0] = -1;	/* as htmm: not measured again */
	idle[PERFREC] = idle_wakeups(PERFREC, kd);

	printf("\nhtmm-bench: abit on a %d MiB working set for %d+%d s, cpu_quota %s",
	       abit_mib, ABIT_SETTLE_S, abit_seconds, quota);
	fflush(stdout);
	if (run_abit(&ab, kd, strtok(quota, "\n"))) {
		fprintf(stderr, "htmm-bench: the abit run failed\n");
		return 1;
	}

	out = fopen(json, "w");
	if (!out) {
		perror("htmm-bench: json");
		return 1;
	}
	fprintf(out, "{\n  \"faults_per_run\": %d,\n  \"repetitions\": %d,\n"
		"  \"ranges\": [\"median\", \"min\", \"max\"],\n  \"modes\": {\n",
		rounds * pages, reps);
	printf("\n\n%-6s %22s %22s %26s %16s %10s %9s\n", "mode", "workload s (min..max)",
	       "slowdown (min..max)", "sampler us/sample (min..max)", "samples (median)",
	       "lost (med)", "idle wk/s");
	for (m = 0; m < NR_MODES; m++) {
		for (i = 0; i < reps; i++)
			per[m][i] = samples[m][i] > 0 ? 1e6 * cpus[m][i] / samples[m][i] : 0;
		w = stats(wall[m], reps);
		sl = stats(slow[m], reps);
		c = stats(per[m], reps);
		sa = stats(samples[m], reps);
		lo = stats(lost[m], reps);
		printf("%-6s %8.3f (%.3f..%.3f) %8.3f (%.3f..%.3f) %10.2f (%.2f..%.2f) %16.0f %10.0f",
		       mode_names[m], w.med, w.min, w.max, sl.med, sl.min, sl.max,
		       c.med, c.min, c.max, sa.med, lo.med);
		if (idle[m] >= 0)
			printf(" %9.1f\n", idle[m]);
		else
			printf(" %9s\n", "-");
		fprintf(out, "    \"%s\": {\"workload_s\": [%.4f, %.4f, %.4f], \"slowdown\": [%.4f, %.4f, %.4f], "
			"\"sampler_us_per_sample\": [%.3f, %.3f, %.3f], \"samples\": %.0f, \"lost\": %.0f, "
			"\"idle_wakeups_per_s\": %.1f}%s\n",
			mode_names[m], w.med, w.min, w.max, sl.med, sl.min, sl.max,
			c.med, c.min, c.max, sa.med, lo.med, idle[m], m + 1 < NR_MODES ? "," : "");
	}
	/* Hotness per sample: htmm - htmm0 of the same repetition. */
	for (i = 0; i < reps; i++)
		hot_cost[i] = per[HTMM][i] - per[HTMM0][i];
	hc = stats(hot_cost, reps);
	fprintf(out, "  },\n  \"hotness_us_per_sample\": [%.3f, %.3f, %.3f],\n",
		hc.med, hc.min, hc.max);
	fprintf(out, "  \"abit\": {\"working_set_mib\": %d, \"seconds\": %.2f, "
		"\"cpu_quota_per_mille\": %lld, \"ksamplingd_per_mille\": %.1f, "
		"\"sample_period\": %lld, \"entries_scanned\": %lld, \"pages_accessed\": %lld, "
		"\"ns_per_entry\": %.1f, \"pages_tracked\": %lld, \"slab_kb\": [%lld, %lld, %lld], "
		"\"bytes_per_tracked_page\": %.2f, \"seconds_to_track_all\": %.2f, "
		"\"ksamplingd_per_mille_since_start\": %.1f}\n}\n",
		abit_mib, ab.wall_s, ab.quota, ab.share_pm, ab.period, ab.scanned,
		ab.sampled, ab.ns_per_entry, ab.tracked, ab.slab_kb[0], ab.slab_kb[1],
		ab.slab_kb[2], ab.bytes_per_page, ab.track_s, ab.all_share_pm);
	fclose(out);

	printf("\nhotness   cost per sample: %.2f us (%.2f..%.2f), htmm - htmm0 in each repetition\n",
	       hc.med, hc.min, hc.max);
	printf("abit      %lld page-table entries scanned in %.2f s (%.1f passes), %lld found accessed;\n"
	       "          ksamplingd %.3f s CPU: %.1f ns per entry scanned (counting included)\n",
	       ab.scanned, ab.wall_s, ab.tracked > 0 ? (double)ab.scanned / ab.tracked : 0,
	       ab.sampled, ab.cpu_s, ab.ns_per_entry);
	printf("budget    ksamplingd %.1f per-mille of a CPU against cpu_quota %lld (%s), "
	       "period %lld scan intervals;\n          %.1f per-mille since the start, ramp included "
	       "(every page tracked after %.1f s)\n", ab.share_pm, ab.quota,
	       ab.share_pm <= ab.quota ? "within" : "OVER", ab.period, ab.all_share_pm,
	       ab.track_s);
	printf("memory    %lld pages tracked; slab %lld -> %lld kB (%.2f bytes per page), %lld kB after the end\n",
	       ab.tracked, ab.slab_kb[0], ab.slab_kb[1], ab.bytes_per_page, ab.slab_kb[2]);
	printf("\nhtmm-bench: slowdown over none: htmm %.3f, perf %.3f (goal: htmm's at most half of perf's);\n",
	       stats(slow[HTMM], reps).med - 1, stats(slow[PERFREC], reps).med - 1);
	printf("htmm-bench: JSON in %s\n", json);
	return 0;
}
