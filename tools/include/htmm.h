/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * htmm.h - user-space interface of htmm (CONFIG_HTMM), kernel-driven
 * memory access sampling for tiered memory.
 *
 * glibc has no wrappers for these system calls; include this header and
 * call htmm_start()/htmm_end(). Both return 0, or -1 with errno set. See
 * htmm_start(2) and Documentation/admin-guide/mm/htmm.rst.
 */
#ifndef _HTMM_USER_H
#define _HTMM_USER_H

#include <errno.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Fallbacks for C libraries whose headers predate htmm. */
#ifndef __NR_htmm_start
# if defined(__x86_64__) && defined(__ILP32__)
#  define __NR_htmm_start	(0x40000000 + 463)	/* x32 */
#  define __NR_htmm_end		(0x40000000 + 464)
# else
#  define __NR_htmm_start	463	/* x86_64, i386, generic table */
#  define __NR_htmm_end		464
# endif
#endif

/* Where the settings, totals and sessions/<pid>/ directories are. */
#define HTMM_SYSFS	"/sys/kernel/mm/htmm"

/*
 * The numbers 463 and 464 are htmm's on Linux 6.12 only: from 6.13 on,
 * upstream gives them to setxattrat() and getxattrat(). Never make the
 * call on a kernel that does not show htmm's sysfs directory; fail with
 * ENOSYS instead, as a kernel without the calls would.
 */
static inline int htmm_available(void)
{
	return access(HTMM_SYSFS, F_OK) == 0;
}

/**
 * htmm_start() - put a process, or the system, under sampling
 * @pid: process id (a thread id selects its process), 0 for the caller's
 *	process, -1 for every task on every CPU
 * @node: the process's fast memory node, or -1 for none
 */
static inline long htmm_start(pid_t pid, int node)
{
	if (!htmm_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_htmm_start, pid, node);
}

/**
 * htmm_end() - end a session, counting what is left in its buffers
 * @pid: as for htmm_start()
 */
static inline long htmm_end(pid_t pid)
{
	if (!htmm_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_htmm_end, pid);
}

#endif /* _HTMM_USER_H */
