// SPDX-License-Identifier: GPL-2.0
/*
 * nobody - run a command as uid/gid 65534 with no supplementary groups,
 * for the guest tests of htmmctl (busybox has no su without a passwd).
 *
 * usage: nobody CMD [ARGS...]
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nobody CMD [ARGS...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534)) {
		perror("nobody");
		return 1;
	}
	execvp(argv[1], argv + 1);
	perror("nobody: exec");
	return 127;
}
