// SPDX-License-Identifier: GPL-2.0
/*
 * sys.c - where htmmctl finds the files it reads and writes: /sys and
 * /proc, or the same paths under $HTMM_ROOT, a directory with a fake
 * tree for tests on a machine without htmm. The system calls are not
 * redirected: htmm.h makes them only where the real /sys/kernel/mm/htmm
 * exists.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "htmm.h"
#include "htmmctl.h"

static const char *root(void)
{
	const char *r = getenv("HTMM_ROOT");

	return r ? r : "";
}

char *path_of(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = snprintf(buf, len, "%s", root());
	va_list ap;

	if (n >= len)
		n = len - 1;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return buf;
}

int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return 0;
}

int read_value(const char *dir, const char *name, unsigned long long *v)
{
	char path[512], buf[64], *end;
	int err;

	path_of(path, sizeof(path), HTMM_SYSFS "%s/%s", dir, name);
	err = read_text(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

bool htmm_here(void)
{
	char path[512];

	return !access(path_of(path, sizeof(path), HTMM_SYSFS), F_OK);
}

void say_no_htmm(void)
{
	char path[512];

	fprintf(stderr, "htmmctl: this kernel has no htmm (CONFIG_HTMM): no %s\n",
		path_of(path, sizeof(path), HTMM_SYSFS));
}

/* Is @node in the node list @list ("0-1,3"), as sysfs prints them? */
static bool in_list(const char *list, int node)
{
	const char *s = list;
	char *end;
	long a, b;

	while (*s && *s != '\n') {
		a = strtol(s, &end, 10);
		if (end == s)
			return false;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (node >= a && node <= b)
			return true;
		s = *end == ',' ? end + 1 : end;
	}
	return false;
}

int check_node(int node, const char *cmd)
{
	char path[512], list[1024];

	if (node < 0)
		return 0;
	path_of(path, sizeof(path), "/sys/devices/system/node/has_memory");
	/* No NUMA (no node directory): node 0 alone, as numactl sees it. */
	if (read_text(path, list, sizeof(list)))
		snprintf(list, sizeof(list), "0");
	if (in_list(list, node))
		return 0;
	list[strcspn(list, "\n")] = '\0';
	fprintf(stderr, "htmmctl %s: invalid value '%d' for --node: not a node with memory (those are %s; -1: none)\n",
		cmd, node, list);
	return 1;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_for(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
