// SPDX-License-Identifier: GPL-2.0
/*
 * htmm-hwcheck - check htmm's sample source on a real machine.
 *
 * Reports which source "auto" (or the one given) resolves to, then
 * samples a child that misses the caches over a large buffer for a few
 * seconds and checks that samples arrived, and, for a hardware source,
 * that the PMU told loads from stores. With --bandwidth, checks htmm's
 * memory bandwidth counting instead: the uncore PMUs found, the counters
 * htmm maps to nodes, and the bandwidth measured under its own load.
 * Exits 0 if so, 1 with the reason if not, 2 on bad usage, 4 if there is
 * nothing to check here (no bandwidth source known for this CPU). Must
 * run as root (it sets the source in sysfs and restores it).
 *
 * $HTMM_ROOT (a testing aid, as htmmctl's) puts /sys and /proc under
 * another directory; the system calls are made only where the real
 * /sys/kernel/mm/htmm exists.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kselftests' helpers: system calls, sysfs files. */
#include "../../selftests/htmm/htmm_util.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char usage_text[] =
"usage: htmm-hwcheck [--source auto|software|pebs|ibs|abit] [--seconds N]\n"
"                    [--mb MB] [--node N]\n"
"       htmm-hwcheck --bandwidth [--events LINES] [--seconds N] [--mb MB]\n"
"\n"
"  Print the sample source htmm would use here, then sample a process\n"
"  that reads and writes MB MiB (default 512) at random for N seconds\n"
"  (default 3) and check that samples came in. --node gives the fast\n"
"  memory node for the near/far counters (default: none).\n"
"  --bandwidth: list the uncore memory PMUs, the counters htmm maps to\n"
"  nodes (the built-in table, or LINES for bandwidth_events), then copy\n"
"  MB MiB buffers for N seconds and print each node's MiB/s; fail if no\n"
"  node counted anything.\n"
"  -h, --help: this help.\n"
"  Exit status: 0 passed, 1 failed (the reason is printed), 2 usage,\n"
"  4 nothing to check here (the reason is printed).\n";

/* @fmt's path under $HTMM_ROOT; the last 8 stay valid. */
static const char * __attribute__((format(printf, 1, 2))) at(const char *fmt, ...)
{
	static char buf[8][512];
	static int k;
	const char *root = getenv("HTMM_ROOT");
	char *b = buf[k++ % 8];
	size_t n = snprintf(b, 512, "%s", root ? root : "");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b + n, 512 - n, fmt, ap);
	va_end(ap);
	return b;
}

/* A file under HTMM_SYSFS, first line only. */
static int read_str(const char *name, char *buf, size_t len)
{
	if (read_file(at(HTMM_SYSFS "/%s", name), buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The first line of /proc/cpuinfo that starts with @key, or "?". */
static const char *cpuinfo(const char *key, char *buf, size_t len)
{
	FILE *f = fopen(at("/proc/cpuinfo"), "r");
	char line[8192];

	snprintf(buf, len, "?");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)) && strchr(line, ':')) {
			snprintf(buf, len, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	return buf;
}

/* Random reads and writes over @mb MiB until killed. */
static void workload(size_t mb)
{
	size_t n = mb << 17, i;	/* 8-byte words */
	uint64_t *p, x = 88172645463325252ULL;

	p = mmap(NULL, n * 8, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	for (;;) {
		for (i = 0; i < 1 << 20; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (x & 1)
				p[x % n] += x;
			else
				x += p[x % n];
		}
	}
}

static int fail(const char *fmt, const char *arg)
{
	printf("FAIL: ");
	printf(fmt, arg);
	printf("\n");
	return 1;
}

/* Copy between two @mb MiB buffers for @seconds; the bytes copied. */
static double copy_load(size_t mb, int seconds)
{
	size_t len = mb << 20;
	char *a = malloc(len), *b = malloc(len);
	double t0 = now(), copied = 0;

	if (!a || !b)
		return -1;
	memset(a, 1, len);
	memset(b, 2, len);
	while (now() - t0 < seconds) {
		memcpy(b, a, len);
		memcpy(a, b, len);
		copied += 2.0 * len;
	}
	free(a);
	free(b);
	return copied;
}

#define BW_MAX_NODES	64
/* Bandwidth in MiB/s, as htmmctl prints it. */
#define MIB		(1024.0 * 1024.0)

/* Bytes read and written by each node with a counter (-1: none). */
static int bw_nodes(long long bytes[][2])
{
	static const char * const file[2] = { "read_bytes", "write_bytes" };
	DIR *d = opendir(at(HTMM_SYSFS "/bandwidth"));
	struct dirent *e;
	int node, k, n = 0;

	for (node = 0; node < BW_MAX_NODES; node++)
		bytes[node][0] = bytes[node][1] = -1;
	while (d && (e = readdir(d))) {
		if (sscanf(e->d_name, "node%d", &node) != 1 || node < 0 ||
		    node >= BW_MAX_NODES)
			continue;
		for (k = 0; k < 2; k++) {
			bytes[node][k] = read_ll(at(HTMM_SYSFS "/bandwidth/%s/%s",
						    e->d_name, file[k]));
		}
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Print the uncore memory PMUs and their cpumasks; how many there are. */
static int list_uncore_pmus(void)
{
	static const char * const families[] = {
		"uncore_imc_", "uncore_cxlcm_", "amd_umc_",
	};
	DIR *d = opendir(at("/sys/bus/event_source/devices"));
	char mask[64];
	struct dirent *e;
	unsigned int i;
	int found = 0;

	printf("uncore memory PMUs (cpumask):");
	while (d && (e = readdir(d))) {
		for (i = 0; i < ARRAY_SIZE(families); i++) {
			if (strncmp(e->d_name, families[i], strlen(families[i])))
				continue;
			if (read_file(at("/sys/bus/event_source/devices/%s/cpumask",
					 e->d_name), mask, sizeof(mask)))
				snprintf(mask, sizeof(mask), "?");
			mask[strcspn(mask, "\n")] = '\0';
			printf(" %s (%s)", e->d_name, mask);
			found++;
		}
	}
	if (d)
		closedir(d);
	printf("%s\n", found ? "" : " none");
	return found;
}

static int check_bandwidth(const char *events, int seconds, size_t mb)
{
	long long before[BW_MAX_NODES][2], after[BW_MAX_NODES][2];
	int found = list_uncore_pmus(), node, err, rc = 0;
	double copied, dt, t0, wait;
	char buf[4096];

	err = events ? write_file(at(HTMM_SYSFS "/bandwidth_events"), events) : 0;
	if (err)
		return fail("bandwidth_events: %s", strerror(err));
	if (read_file(at(HTMM_SYSFS "/bandwidth_events"), buf, sizeof(buf)))
		return fail("no %s: kernel without bandwidth counting?",
			    at(HTMM_SYSFS "/bandwidth_events"));
	printf("counters (node pmu config direction [cpu]):\n%s", buf);
	err = write_file(at(HTMM_SYSFS "/bandwidth/enable"), "1");
	if (err == ENODEV && !events && strstr(buf, "no events known")) {
		printf("SKIP: bandwidth: no uncore events known for this CPU model%s\n",
		       found ? "; set bandwidth_events for the PMUs above" : "");
		return 4;
	}
	if (err)
		return fail("bandwidth/enable: %s (the kernel log says why)",
			    strerror(err));

	bw_nodes(before);
	t0 = now();
	copied = copy_load(mb, seconds);
	/* The last reading comes within bandwidth_interval_ms. */
	wait = read_ll(at(HTMM_SYSFS "/bandwidth_interval_ms")) / 1000.0 + 0.1;
	usleep(wait * 1e6);
	dt = now() - t0;
	if (!bw_nodes(after))
		rc = fail("%s", "counting is on but no node has a directory");
	write_file(at(HTMM_SYSFS "/bandwidth/enable"), "0");
	if (events)
		write_file(at(HTMM_SYSFS "/bandwidth_events"), "default");
	if (copied < 0)
		return fail("%s", "no memory for the load");
	printf("load: copied %.0f MiB in %d s (%.0f MiB/s)\n", copied / MIB,
	       seconds, copied / MIB / seconds);
	for (node = 0, found = 0; node < BW_MAX_NODES; node++) {
		if (after[node][0] < 0 || before[node][0] < 0)
			continue;
		printf("node%-3d read %10.1f MiB/s  write %10.1f MiB/s  (over %.1f s)\n",
		       node, (after[node][0] - before[node][0]) / dt / MIB,
		       (after[node][1] - before[node][1]) / dt / MIB, dt);
		found += after[node][0] + after[node][1] >
			 before[node][0] + before[node][1];
	}
	if (!rc && !found)
		rc = fail("%s", "no node counted any traffic under the load");
	if (!rc)
		printf("PASS: bandwidth counted\n");
	return rc;
}

/*
 * htmm_start(), made only where the real sysfs directory shows htmm:
 * 463 is another call from Linux 6.13 on (see tools/include/htmm.h).
 */
static long start_session(pid_t pid, int node)
{
	if (access(HTMM_SYSFS, F_OK)) {
		errno = ENOSYS;
		return -1;
	}
	return htmm_start(pid, node);
}

static const char *source;
static char old_source[128];

static void restore_source(void)
{
	char *sel = strchr(old_source, '['), *end;

	if (!source || !sel)
		return;
	end = strchr(sel, ']');
	if (end) {
		*end = '\0';
		write_file(at(HTMM_SYSFS "/source"), sel + 1);
	}
}

int main(int argc, char **argv)
{
	static const char * const counters[] = {
		"nr_sampled", "nr_loads", "nr_stores", "nr_near", "nr_far",
		"nr_lost", "nr_throttled", "nr_invalid", "sample_period",
	};
	long long val[ARRAY_SIZE(counters)];
	int seconds = 3, node = -1, status, err, i, rc = 0;
	const char *events = NULL;
	char buf[256], resolved[64];
	bool bandwidth = false;
	size_t mb = 512;
	pid_t child;
	int go[2];
	char x;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--source") && i + 1 < argc)
			source = argv[++i];
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--node") && i + 1 < argc)
			node = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--bandwidth"))
			bandwidth = true;
		else if (!strcmp(argv[i], "--events") && i + 1 < argc)
			events = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else {
			fprintf(stderr, "htmm-hwcheck: unknown or incomplete option '%s'\n",
				argv[i]);
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (seconds < 1 || !mb) {
		fputs(usage_text, stderr);
		return 2;
	}

	if (access(at(HTMM_SYSFS), F_OK)) {
		fprintf(stderr, "htmm-hwcheck: this kernel has no htmm (CONFIG_HTMM): no %s\n",
			at(HTMM_SYSFS));
		return 1;
	}
	printf("cpu:        %s, %s\n", cpuinfo("vendor_id", buf, sizeof(buf)),
	       cpuinfo("model name", buf + 128, sizeof(buf) - 128));
	if (bandwidth)
		return check_bandwidth(events, seconds, mb);
	printf("PMUs:       cpu %s, ibs_op %s\n",
	       access(at("/sys/bus/event_source/devices/cpu"), F_OK) ? "no" : "yes",
	       access(at("/sys/bus/event_source/devices/ibs_op"), F_OK) ? "no" : "yes");
	if (read_str("source", old_source, sizeof(old_source)))
		return fail("cannot read %s", at(HTMM_SYSFS "/source"));
	if (source) {
		err = write_file(at(HTMM_SYSFS "/source"), source);
		if (err) {
			fprintf(stderr, "htmm-hwcheck: source %s: %s\n", source,
				strerror(err));
			return 2;
		}
		atexit(restore_source);
	}
	if (read_str("source_resolved", resolved, sizeof(resolved)))
		snprintf(resolved, sizeof(resolved), "?");
	printf("source:     %s -> %s\n", source ? source : "auto", resolved);
	if (!read_str("pebs_events", buf, sizeof(buf)) &&
	    !strcmp(resolved, "pebs"))
		printf("PEBS events: %s\n", buf);
	if (!strcmp(resolved, "none"))
		return fail("this machine has no %s source", source);

	/*
	 * The workload waits for the session: its first touches are the
	 * page faults the software source samples, and it would fault in
	 * its whole buffer within milliseconds, before a late start.
	 */
	if (pipe(go))
		return fail("pipe: %s", strerror(errno));
	child = fork();
	if (child < 0)
		return fail("fork: %s", strerror(errno));
	if (!child) {
		close(go[1]);
		if (read(go[0], &x, 1) != 1)
			_exit(1);
		workload(mb);
	}
	close(go[0]);
	if (start_session(child, node)) {
		err = errno;
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return fail("htmm_start: %s", strerror(err));
	}
	if (write(go[1], "x", 1) != 1)
		return fail("pipe: %s", strerror(errno));
	close(go[1]);
	sleep(seconds);
	for (i = 0; i < (int)ARRAY_SIZE(counters); i++)
		val[i] = read_ll(at(HTMM_SYSFS "/sessions/%d/%s", child, counters[i]));
	htmm_end(child);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);

	printf("sampled %d s of a %zu MiB random workload:\n", seconds, mb);
	for (i = 0; i < (int)ARRAY_SIZE(counters); i++)
		printf("  %-14s %lld\n", counters[i], val[i]);

	if (val[0] <= 0)
		rc = fail("nothing was sampled with the %s source", resolved);
	else if ((!strcmp(resolved, "pebs") || !strcmp(resolved, "ibs")) &&
		 val[1] + val[2] <= 0)
		rc = fail("%s samples carry no load/store: the PMU reports no data source",
			  resolved);
	else if (node >= 0 && val[3] + val[4] <= 0)
		rc = fail("no sample was placed near or far (%s)",
			  "pages not found when drained");
	if (!rc)
		printf("PASS: %s source samples\n", resolved);
	return rc;
}
