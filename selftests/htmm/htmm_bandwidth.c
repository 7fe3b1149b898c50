// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for htmm's bandwidth counting (/sys/kernel/mm/htmm/bandwidth/).
 *
 * The guests have no uncore PMU: with the built-in table, enabling fails
 * with ENODEV and no node gets a directory. The whole path, from the
 * setting to the periodic readings and the sysfs files, is then run with
 * a PMU every kernel has: cpu_clock, whose counts (nanoseconds) stand in
 * for 64-byte transfers. On a machine with a known uncore PMU, enabling
 * the built-in table must work instead (make hwcheck measures it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "htmm_util.h"

#define BW		HTMM_SYSFS "/bandwidth"
#define EVENTS		HTMM_SYSFS "/bandwidth_events"
#define INTERVAL	HTMM_SYSFS "/bandwidth_interval_ms"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define WAIT_S		30.0

FIXTURE(bw) {
	char interval[16], paranoid[16];
};

FIXTURE_SETUP(bw)
{
	const char *why = htmm_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	if (access(BW "/enable", F_OK))
		SKIP(return, "no %s: a kernel without bandwidth counting", BW);
	ASSERT_EQ(0, read_file(INTERVAL, self->interval, sizeof(self->interval)));
	ASSERT_EQ(0, read_file(PARANOID, self->paranoid, sizeof(self->paranoid)));
}

FIXTURE_TEARDOWN(bw)
{
	write_file(BW "/enable", "0");
	write_file(EVENTS, "default");
	if (self->interval[0])
		write_file(INTERVAL, self->interval);
	if (self->paranoid[0])
		write_file(PARANOID, self->paranoid);
}

/* How many bandwidth/node<N> directories there are. */
static int node_dirs(void)
{
	DIR *d = opendir(BW);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "node", 4);
	closedir(d);
	return n;
}

static const char *nobody_path, *nobody_val;

static int nobody_rw(pid_t unused)
{
	char buf[64];

	if (nobody_val)
		return write_file(nobody_path, nobody_val);
	return read_file(nobody_path, buf, sizeof(buf)) ? errno : 0;
}

/* The errno of reading @path (or writing @val to it) as uid 65534, or 0. */
static int nobody_uses(const char *path, const char *val)
{
	nobody_path = path;
	nobody_val = val;
	return as_nobody(nobody_rw, 0);
}

TEST_F(bw, settings_refuse_bad_values)
{
	static const char * const bad[] = {
		"0 no_such_pmu 0x1 read",
		"0 cpu_clock 0x0",
		"0 cpu_clock 0x0 sideways",
		"0 cpu_clock zz read",
		"-1 cpu_clock 0x0 read",
		"4096 cpu_clock 0x0 read",
		"0 cpu_clock 0x0 read 100000",
		"0 cpu_clock 0x0 read 0 more",
		"0 cpu_clock 0x0 read junk",
		"0 cpu_clock 0x read",
	};
	char buf[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EINVAL, write_file(EVENTS, bad[i])) TH_LOG("line %u", i);
	/* One bad line fails all of them; nothing is kept. */
	EXPECT_EQ(EINVAL, write_file(EVENTS, "0 cpu_clock 0x0 read\n0 cpu_clock 0x0 up\n"));
	ASSERT_EQ(0, read_file(EVENTS, buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "# default", 9)) TH_LOG("%s", buf);

	EXPECT_EQ(EINVAL, write_file(INTERVAL, "0"));
	EXPECT_EQ(EINVAL, write_file(INTERVAL, "60001"));
	EXPECT_EQ(EINVAL, write_file(INTERVAL, "soon"));
	EXPECT_EQ(0, write_file(INTERVAL, "250"));
	EXPECT_EQ(250, read_ll(INTERVAL));
	EXPECT_EQ(EINVAL, write_file(BW "/enable", "2"));
}

TEST_F(bw, builtin_table)
{
	char buf[4096], *lines;
	int err;

	ASSERT_EQ(0, read_ll(BW "/enable"));
	EXPECT_EQ(0, node_dirs());
	ASSERT_EQ(0, read_file(EVENTS, buf, sizeof(buf)));
	ASSERT_EQ(0, strncmp(buf, "# default", 9)) TH_LOG("%s", buf);
	/* Counter lines, after the comments. */
	for (lines = buf; *lines == '#'; lines = strchr(lines, '\n') + 1)
		;
	err = write_file(BW "/enable", "1");
	if (!*lines) {
		/* No known uncore PMU here, as in the guests. */
		EXPECT_EQ(ENODEV, err);
		EXPECT_EQ(0, read_ll(BW "/enable"));
		EXPECT_EQ(0, node_dirs());
		return;
	}
	ASSERT_EQ(0, err) TH_LOG("the table has counters here:\n%s", buf);
	EXPECT_LT(0, node_dirs());
}

TEST_F(bw, counts_with_a_pmu_everyone_has)
{
	long long first, later = 0;
	char buf[256];
	double t0;

	ASSERT_EQ(0, write_file(INTERVAL, "100"));
	ASSERT_EQ(0, write_file(EVENTS, "0 cpu_clock 0x0 read 0\n0 cpu_clock 0x0 write 0\n"));
	ASSERT_EQ(0, read_file(EVENTS, buf, sizeof(buf)));
	EXPECT_STREQ("0 cpu_clock 0x0 read 0\n0 cpu_clock 0x0 write 0\n", buf);
	EXPECT_EQ(EACCES, nobody_uses(BW "/enable", "1"));

	ASSERT_EQ(0, write_file(BW "/enable", "1"));
	EXPECT_EQ(1, read_ll(BW "/enable"));
	EXPECT_EQ(1, node_dirs());
	ASSERT_EQ(0, read_file(BW "/node0/source", buf, sizeof(buf)));
	EXPECT_STREQ("0 cpu_clock 0x0 read 0\n0 cpu_clock 0x0 write 0\n", buf);
	/* Settings are fixed while counting. */
	EXPECT_EQ(EBUSY, write_file(EVENTS, "default"));

	/* ksamplingd reads them every 100 ms: the bytes grow. */
	first = read_ll(BW "/node0/read_bytes");
	t0 = now();
	while (now() - t0 < WAIT_S) {
		later = read_ll(BW "/node0/read_bytes");
		if (later > first)
			break;
		usleep(100000);
	}
	EXPECT_LT(first, later);
	EXPECT_EQ(0, later % 64);
	EXPECT_LT(0, read_ll(BW "/node0/write_bytes"));

	/* As perf stat -a: not for everyone, unless perf_event_paranoid <= 0. */
	ASSERT_EQ(0, write_file(PARANOID, "2"));
	EXPECT_EQ(EACCES, nobody_uses(BW "/node0/read_bytes", NULL));
	ASSERT_EQ(0, write_file(PARANOID, "0"));
	EXPECT_EQ(0, nobody_uses(BW "/node0/read_bytes", NULL));

	ASSERT_EQ(0, write_file(BW "/enable", "0"));
	EXPECT_EQ(0, node_dirs());
	EXPECT_EQ(0, write_file(EVENTS, "default"));
}

TEST_HARNESS_MAIN
