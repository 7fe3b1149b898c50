/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - htmmctl's commands and options: one table, from which the
 * parser, the help of each command and the global help are all made.
 */
#ifndef HTMMCTL_OPTS_H
#define HTMMCTL_OPTS_H

#include <stdbool.h>
#include <sys/types.h>

#include "htmmctl.h"

/* Options with no short form. */
enum { OPT_HEATMAP = 256, OPT_AT };

#define MAX_CMD_OPTS	16
#define MAX_POS		4

/* An option of a command, with what it means there (NULL: the usual). */
struct cmd_opt {
	int key;
	const char *help;
};

struct command {
	const char *name;
	const char *args;	/* its arguments, after the options */
	const char *summary;	/* one line */
	const char *text;	/* what it does */
	struct cmd_opt opts[MAX_CMD_OPTS];
};

/* The parsed command line. */
struct args {
	const struct command *cmd;
	int node;
	bool tier;
	long fast_mib;
	const char *source;	/* NULL: the global setting */
	long period;		/* -1: the global setting */
	double interval, at;
	long count, rows, width;
	const char *output, *heatmap, *record;
	struct out out;
	bool verbose;
	int npos;		/* arguments that are not options, nor CMD */
	char *pos[MAX_POS];
	bool have_pid;		/* record: pos[0] was taken as a PID */
	char **rest;		/* run, record: CMD and its arguments */
};

/* Parse @argv (argv[0]: the command's name); bad usage exits 2. */
void parse_args(int argc, char **argv, struct args *a);

/* A usage error of the command being parsed: say what, exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) bad_usage(const char *fmt, ...);

/* PID as a command's argument: a process id, or "all" (-1). */
pid_t parse_pid(const char *s);

#endif
