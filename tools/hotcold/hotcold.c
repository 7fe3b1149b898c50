// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold - a memory workload with a hot set and a cold set on two NUMA
 * nodes, to watch htmm at work.
 *
 * The cold set is placed on one node (the slow tier, default node 1) and
 * touched once; the hot set is placed on another (default node 0) and
 * used all the time. Pages are placed by a task memory policy that is
 * reset once they are, so that tiering (NUMA balancing, htmm) may move
 * them. With --faults, for htmm's software source whose samples are page
 * faults, every round drops the hot set (MADV_DONTNEED) and touches it
 * again: its pages fault over and over while the cold set's fault once.
 * Every second, and at the end, it says where the hot set's pages are.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MPOL_DEFAULT	0
#define MPOL_BIND	2

static const char usage_text[] =
"usage: hotcold [--hot MIB] [--cold MIB] [--seconds S]\n"
"               [--hot-node N] [--cold-node N] [--faults]\n"
"Defaults: 8 MiB hot set on node 0, 32 MiB cold set on node 1, 5 s.\n"
"Prints progress every second and a summary; exits 0, 1 on error, 2 on bad usage.\n";

static long page_size;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void touch(char *p, size_t pages, char v)
{
	size_t i;

	for (i = 0; i < pages; i++)
		p[i * page_size] = v;
}

/* @pages pages first touched on @node, under a policy reset afterwards. */
static char *alloc_on(size_t pages, int node, const char *what)
{
	unsigned long mask = 1UL << node;
	char *p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("hotcold: mmap");
		exit(1);
	}
	if (node >= 0 && syscall(SYS_set_mempolicy, MPOL_BIND, &mask,
				 sizeof(mask) * 8))
		fprintf(stderr, "hotcold: cannot place the %s set on node %d (%s); using any node\n",
			what, node, strerror(errno));
	touch(p, pages, 1);
	syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	return p;
}

/* Percentage of the pages of [p, p + pages) that are on @node. */
static double share_on(char *p, size_t pages, int node)
{
	size_t i, n = pages < 4096 ? pages : 4096, on = 0;
	void **addr = calloc(n, sizeof(*addr));
	int *status = calloc(n, sizeof(*status));

	if (!addr || !status)
		return -1;
	for (i = 0; i < n; i++)
		addr[i] = p + (i * (pages / n)) * page_size;
	if (syscall(SYS_move_pages, 0, n, addr, NULL, status, 0)) {
		free(addr);
		free(status);
		return -1;
	}
	for (i = 0; i < n; i++)
		on += status[i] == node;
	free(addr);
	free(status);
	return 100.0 * on / n;
}

int main(int argc, char **argv)
{
	size_t hot_mb = 8, cold_mb = 32, hot_pages, cold_pages;
	int hot_node = 0, cold_node = 1, i;
	unsigned long long rounds = 0, hot_touches = 0, cold_reads = 0;
	double seconds = 5, t0, next, t;
	unsigned int seed = 1;
	int faults = 0;
	char *hot, *cold;
	volatile char sink;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--faults")) {
			faults = 1;
			continue;
		}
		if (i + 1 >= argc)
			goto bad;
		if (!strcmp(argv[i], "--hot"))
			hot_mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--cold"))
			cold_mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--hot-node"))
			hot_node = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cold-node"))
			cold_node = atoi(argv[++i]);
		else
			goto bad;
	}
	if (!hot_mb || !cold_mb || seconds <= 0)
		goto bad;

	page_size = sysconf(_SC_PAGESIZE);
	hot_pages = hot_mb * 1024 * 1024 / page_size;
	cold_pages = cold_mb * 1024 * 1024 / page_size;
	cold = alloc_on(cold_pages, cold_node, "cold");
	hot = alloc_on(hot_pages, hot_node, "hot");

	printf("hotcold: hot set %zu MiB on node %d, cold set %zu MiB on node %d, %.0f s\n",
	       hot_mb, hot_node, cold_mb, cold_node, seconds);

	printf("hotcold:  0.0 s  0 rounds  0 hot pages/s  hot set %.0f%% on node 0, %.0f%% on node 1\n",
	       share_on(hot, hot_pages, 0), share_on(hot, hot_pages, 1));
	fflush(stdout);
	t0 = now();
	next = t0 + 1;
	while ((t = now()) - t0 < seconds) {
		if (faults && madvise(hot, hot_pages * page_size, MADV_DONTNEED)) {
			perror("hotcold: madvise(MADV_DONTNEED)");
			return 1;
		}
		touch(hot, hot_pages, (char)rounds);
		hot_touches += hot_pages;
		/*
		 * A trickle of reads from the cold set: with faults, 16 per
		 * round of faults; else one per round and a 1 ms rest, which
		 * keeps each cold page at a read every few seconds.
		 */
		for (i = 0; i < (faults ? 16 : 1); i++) {
			sink = cold[(rand_r(&seed) % cold_pages) * page_size];
			cold_reads++;
		}
		if (!faults)
			usleep(1000);
		rounds++;
		if (t >= next) {
			printf("hotcold: %4.1f s  %llu rounds  %.0f hot pages/s  hot set %.0f%% on node 0, %.0f%% on node 1\n",
			       t - t0, rounds, hot_touches / (t - t0),
			       share_on(hot, hot_pages, 0), share_on(hot, hot_pages, 1));
			fflush(stdout);
			next += 1;
		}
	}
	(void)sink;

	t = now() - t0;
	printf("hotcold: done: %llu rounds in %.2f s; hot pages touched %llu (%zu pages x %llu rounds), cold pages touched %zu, cold reads %llu\n",
	       rounds, t, hot_touches + hot_pages, hot_pages, rounds + 1,
	       cold_pages, cold_reads);
	printf("hotcold: placement: hot set %.0f%% on node %d, cold set %.0f%% on node %d\n",
	       share_on(hot, hot_pages, hot_node), hot_node,
	       share_on(cold, cold_pages, cold_node), cold_node);
	return 0;
bad:
	fputs(usage_text, stderr);
	return 2;
}
