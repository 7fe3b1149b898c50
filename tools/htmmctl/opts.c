// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - htmmctl's commands and options, and the parser. Every option
 * is described once, in opt_defs; each command lists the ones it takes.
 * getopt's option string, its long options, the check that a command
 * takes an option, and the help of each command are all made from those
 * two tables, so that help and parser cannot disagree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htmm.h"
#include "opts.h"

#ifndef HTMMCTL_VERSION
#define HTMMCTL_VERSION "unknown"
#endif

struct opt_def {
	int key;
	const char *name;	/* the long option */
	const char *arg;	/* its value's name, NULL: none */
	const char *help;
};

static const struct opt_def opt_defs[] = {
	{ 'n', "node", "NODE", "the process's fast memory node: a node with memory, -1 for none (default)" },
	{ 't', "tier", NULL, "tiering: move its hot pages to NODE, its cold ones away" },
	{ 'f', "fast-mib", "MIB", "the most it may keep on NODE (default: all of it)" },
	{ 's', "source", "SOURCE", "the session's sample source: auto, software, pebs, ibs or abit" },
	{ 'p', "period", "PERIOD", "the session's sample period (0: the source's default)" },
	{ 'i', "interval", "SECONDS", "seconds between two readings" },
	{ 'c', "count", "COUNT", "that many readings" },
	{ 'N', "rows", "ROWS", "how many pages to list (default 20)" },
	{ 'o', "output", "FILE", "where to write the data" },
	{ 'r', "record", "FILE", "record CMD's per-page hotness into FILE, as 'record' does" },
	{ OPT_HEATMAP, "heatmap", "TSV", "draw CMD's heatmap at the end, its data to TSV (.png: a plot)" },
	{ 'w', "width", "WIDTH", "the drawing's width in columns (default: the terminal's)" },
	{ OPT_AT, "at", "SECONDS", "the last snapshot at or before SECONDS" },
	{ 'x', "field-separator", "SEP", "values as lines of fields separated by SEP, a header first" },
	{ 'j', "json", NULL, "values as JSON, one object per line" },
	{ 'v', "verbose", NULL, "every counter" },
	{ 'h', "help", NULL, "this help" },
	{ 'V', "version", NULL, "htmmctl's version" },
};
#define NR_OPT_DEFS	(sizeof(opt_defs) / sizeof(opt_defs[0]))

#define SESSION_OPTS	{ 'n', NULL }, { 't', NULL }, { 'f', NULL }, { 's', NULL }, \
			{ 'p', NULL }
#define FORMAT_OPTS	{ 'x', NULL }, { 'j', NULL }

static const struct command commands[] = {
	{ "start", "PID|all", "put a process (all: every task) under sampling",
	  "Put process PID (all: every task) under sampling, with NODE as its fast\n"
	  "memory node. -s and -p set the source and period of this session only\n"
	  "(the global settings are written back after the start).\n",
	  { SESSION_OPTS } },
	{ "stop", "PID|all", "end a session",
	  "End the session of PID (all: the system-wide one).\n", { { 0 } } },
	{ "run", "[--] CMD [ARGS...]", "run CMD under sampling from before it execs",
	  "Run CMD under a new session from before it execs; print the session's\n"
	  "counters every SECONDS and, at the end, as last read, to standard error\n"
	  "(or -o FILE). Exits with CMD's status (128+N if signal N killed it, 127\n"
	  "if it could not run), or 1 if CMD succeeded and htmmctl could not do\n"
	  "its part.\n",
	  { SESSION_OPTS, { 'i', "print the counters every SECONDS (-r, --heatmap: snapshots too, default 1)" },
	    { 'r', NULL }, { OPT_HEATMAP, NULL },
	    { 'o', "write the counters to FILE, not standard error" }, FORMAT_OPTS } },
	{ "stat", "[PID|all]", "show the counters of the totals and the sessions",
	  "Show the totals and the live sessions (or one): their counters, what\n"
	  "tiering moved, each process's memory per node (MiB), and each node's\n"
	  "memory bandwidth if htmm counts it (MiB/s). -x and -j: every value.\n"
	  "A value that cannot be read (the counters are root's) is '-', or null,\n"
	  "and stat exits 1 after saying so.\n",
	  { { 'i', "again every SECONDS, with rates per second" },
	    { 'c', "COUNT times (needs -i; default: until interrupted)" },
	    FORMAT_OPTS, { 'v', "every counter, htmm's CPU use too (wider than 100 columns)" } } },
	{ "hot", "PID", "list the hottest pages of a session",
	  "The hottest pages of PID's session: address, access count, bin, node,\n"
	  "size in pages. Root only (reads debugfs).\n",
	  { { 'N', NULL }, FORMAT_OPTS } },
	{ "heatmap", "PID", "draw a session's accesses over time and address",
	  "Take a snapshot of PID's pages every SECONDS (default 1), COUNT times\n"
	  "(default 10) or until the session ends or Ctrl-C; draw time x address\n"
	  "and write the data to TSV (default heatmap-PID.tsv). Root only.\n",
	  { { 'i', "a snapshot every SECONDS (default 1)" },
	    { 'c', "COUNT snapshots (default 10)" },
	    { 'o', "the data as TSV to FILE (.png: plotted with htmm-plot)" }, FORMAT_OPTS } },
	{ "record", "PID | [--] CMD [ARGS...]", "record a session's per-page hotness into a file",
	  "Write snapshots of a session's per-page hotness to FILE every SECONDS,\n"
	  "COUNT times, until the session ends, or Ctrl-C. PID (a number): that\n"
	  "process's session, started here and ended at the end if it has none;\n"
	  "otherwise CMD, run as 'run' does, exiting with its status. The file is\n"
	  "written under another name and renamed at the end; an existing FILE\n"
	  "becomes FILE.old. Root only (reads debugfs).\n",
	  { { 'o', "the record file (default htmm.rec)" },
	    { 'i', "a snapshot every SECONDS (default 1)" },
	    { 'c', "COUNT snapshots at most (default: no limit)" }, SESSION_OPTS } },
	{ "report", "[FILE] [heatmap|hot|placement]", "report a record file",
	  "Report a record file (default htmm.rec). heatmap (the default): time x\n"
	  "address; hot: the hottest pages of the last snapshot; placement: per\n"
	  "snapshot, the MiB and the share of the accesses on each node.\n",
	  { { 'w', "heatmap: the drawing's width (default: the terminal's)" },
	    { 'i', "heatmap: rows of SECONDS (default: one per snapshot)" },
	    { 'N', "hot: how many pages (default 20)" },
	    { OPT_AT, "hot: the last snapshot at or before SECONDS" },
	    { 'o', "heatmap, placement: the data as TSV to FILE (heatmap .png: a plot)" },
	    FORMAT_OPTS } },
};
#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const char status_text[] =
"Exit status: 0 on success, 1 if htmmctl failed (a system call, or a file\n"
"it needed), 2 on bad usage; run, and record with CMD, exit with CMD's.\n";

static const struct command *cur;	/* the command being parsed */

void bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "htmmctl%s%s: ", cur ? " " : "", cur ? cur->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'htmmctl %s%s--help'.\n", cur ? cur->name : "",
		cur ? " " : "");
	exit(2);
}

static const struct opt_def *opt_def(int key)
{
	size_t i;

	for (i = 0; i < NR_OPT_DEFS; i++)
		if (opt_defs[i].key == key)
			return &opt_defs[i];
	return NULL;
}

/* What @c says of option @key; NULL if it does not take it. */
static const struct cmd_opt *cmd_opt(const struct command *c, int key)
{
	int i;

	for (i = 0; i < MAX_CMD_OPTS && c->opts[i].key; i++)
		if (c->opts[i].key == key)
			return &c->opts[i];
	return NULL;
}

static void print_opt(FILE *f, const struct opt_def *d, const char *help)
{
	char left[64];

	if (d->key < 256)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", d->key, d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
	fprintf(f, "  %-28s %s\n", left, help ? help : d->help);
}

static void command_usage(const struct command *c, FILE *f)
{
	int i;

	fprintf(f, "usage: htmmctl %s [OPTIONS] %s\n\n%s\noptions:\n", c->name,
		c->args, c->text);
	for (i = 0; i < MAX_CMD_OPTS && c->opts[i].key; i++)
		print_opt(f, opt_def(c->opts[i].key), c->opts[i].help);
	print_opt(f, opt_def('h'), NULL);
	fputc('\n', f);
	fputs(status_text, f);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: htmmctl COMMAND [OPTIONS] [ARGS]\n\ncommands:\n", f);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-8s %-32s %s\n", commands[i].name, commands[i].args,
			commands[i].summary);
	fputs("\n  htmmctl help COMMAND, or htmmctl COMMAND --help: its options\n", f);
	print_opt(f, opt_def('h'), NULL);
	print_opt(f, opt_def('V'), NULL);
	fputc('\n', f);
	fputs(status_text, f);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

#define COMMAND_NAMES	"start, stop, run, stat, hot, heatmap, record, report"

/*
 * What argv[1] is: a command (returned), or help and version, answered
 * here.
 */
static const struct command *command_of(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2)
		bad_usage("no command; one of " COMMAND_NAMES);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		exit(0);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("htmmctl %s\n", HTMMCTL_VERSION);
		exit(0);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 3)
			bad_usage("help: one command at most");
		c = find_command(argv[2]);
		if (!c)
			bad_usage("help: unknown command '%s'; one of " COMMAND_NAMES,
				  argv[2]);
		command_usage(c, stdout);
		exit(0);
	}
	c = find_command(argv[1]);
	if (!c)
		bad_usage("unknown command '%s'; one of " COMMAND_NAMES, argv[1]);
	return c;
}

/* getopt's option string and long options, from opt_defs. */
static void getopt_tables(char *optstring, struct option *longs)
{
	char *s = optstring;
	size_t i;

	s += sprintf(s, "+:");	/* in order: run's CMD keeps its options */
	for (i = 0; i < NR_OPT_DEFS; i++) {
		const struct opt_def *d = &opt_defs[i];

		longs[i] = (struct option){ d->name, d->arg ? required_argument :
					    no_argument, NULL, d->key };
		if (d->key >= 256)
			continue;
		*s++ = d->key;
		if (d->arg)
			*s++ = ':';
	}
	*s = '\0';
	longs[NR_OPT_DEFS] = (struct option){ NULL, 0, NULL, 0 };
}

pid_t parse_pid(const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "all"))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 0x7fffffff)
		bad_usage("invalid PID '%s': a process id, or 'all'", s);
	if (!v)
		bad_usage("PID 0 would be htmmctl itself: give the process's id");
	return v;
}

/* A whole number from @min to @max, for option @opt. */
static long parse_long(const char *s, const char *opt, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		bad_usage("invalid value '%s' for %s: a whole number from %ld to %ld",
			  s, opt, min, max);
	return v;
}

/* Seconds for --interval: more than 0, at most a day. */
static double parse_interval(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v > 0) || v > 86400)
		bad_usage("invalid value '%s' for --interval: seconds, more than 0 and at most 86400",
			  s);
	return v;
}

/* Seconds for --at: from the recording's start. */
static double parse_at(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= 0))
		bad_usage("invalid value '%s' for --at: seconds from the recording's start",
			  s);
	return v;
}

static const char *const sources[] = { "auto", "software", "pebs", "ibs", "abit" };

static bool one_of(const char *s, const char *const *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, set[i]))
			return true;
	return false;
}

static void set_format(struct args *a, enum out_kind kind, const char *sep)
{
	if (a->out.kind != OUT_HUMAN && a->out.kind != kind)
		bad_usage("-x and -j: one output format at a time");
	if (kind == OUT_SEP && !*sep)
		bad_usage("--field-separator needs a separator");
	a->out.kind = kind;
	a->out.sep = sep;
}

/* Take the value of option @c. */
static void take(struct args *a, int c, const char *v)
{
	switch (c) {
	case 'n':
		a->node = parse_long(v, "--node", -1, 0x7fffffff);
		break;
	case 't':
		a->tier = true;
		break;
	case 'f':
		a->fast_mib = parse_long(v, "--fast-mib", 1, 1L << 30);
		break;
	case 's':
		if (!one_of(v, sources, sizeof(sources) / sizeof(sources[0])))
			bad_usage("invalid value '%s' for --source: auto, software, pebs, ibs or abit",
				  v);
		a->source = v;
		break;
	case 'p':
		a->period = parse_long(v, "--period", 0, 0x7fffffffffffffffL);
		break;
	case 'i':
		a->interval = parse_interval(v);
		break;
	case 'c':
		a->count = parse_long(v, "--count", 1, 0x7fffffff);
		break;
	case 'N':
		a->rows = parse_long(v, "--rows", 1, 0x7fffffff);
		break;
	case 'o':
		a->output = v;
		break;
	case 'r':
		a->record = v;
		break;
	case OPT_HEATMAP:
		a->heatmap = v;
		break;
	case 'w':
		a->width = parse_long(v, "--width", 20, 100000);
		break;
	case OPT_AT:
		a->at = parse_at(v);
		break;
	case 'x':
		set_format(a, OUT_SEP, v);
		break;
	case 'j':
		set_format(a, OUT_JSON, NULL);
		break;
	case 'v':
		a->verbose = true;
		break;
	}
}

/* The option as the user typed it, for messages. */
static const char *opt_name(int c, char *buf, size_t len)
{
	const struct opt_def *d = opt_def(c);

	snprintf(buf, len, "--%s", d ? d->name : "?");
	return buf;
}

/*
 * An argument that is not an option (@dashdash: after "--"): keep it,
 * or see that CMD starts there; false: stop.
 */
static bool positional(struct args *a, char **argv, int i, bool dashdash)
{
	bool run = !strcmp(cur->name, "run"), record = !strcmp(cur->name, "record");
	const char *s = argv[i];

	/* record: a number is a PID, and options may follow it. */
	if (record && !dashdash && !a->npos && *s &&
	    s[strspn(s, "0123456789")] == '\0') {
		a->have_pid = true;
	} else if (run || record) {
		if (a->have_pid)
			bad_usage("a PID or a CMD, not both: '%s' after PID %s", s, a->pos[0]);
		a->rest = argv + i;
		return false;
	}
	if (a->npos == MAX_POS)
		bad_usage("unexpected argument '%s'", s);
	a->pos[a->npos++] = argv[i];
	return true;
}

void parse_args(int argc, char **argv, struct args *a)
{
	struct option longs[NR_OPT_DEFS + 1];
	char optstring[3 * NR_OPT_DEFS + 3], name[40];
	int c, before;

	cur = command_of(argc, argv);
	a->cmd = cur;
	argc--;
	argv++;
	getopt_tables(optstring, longs);
	opterr = 0;
	optind = 1;
	for (;;) {
		before = optind;
		c = getopt_long(argc, argv, optstring, longs, NULL);
		if (c == -1) {
			if (optind >= argc)
				break;
			if (optind > before) {	/* "--": the rest is arguments */
				while (optind < argc && positional(a, argv, optind, true))
					optind++;
				break;
			}
			if (!positional(a, argv, optind, false))
				break;
			optind++;
			continue;
		}
		if (c == '?') {
			if (optopt)
				bad_usage("unknown option '-%c'", optopt);
			bad_usage("unknown option '%s'", argv[optind - 1]);
		}
		if (c == ':')
			bad_usage("option '%s' needs a value", argv[optind - 1]);
		if (c == 'h') {
			command_usage(cur, stdout);
			exit(0);
		}
		if (c == 'V') {
			printf("htmmctl %s\n", HTMMCTL_VERSION);
			exit(0);
		}
		if (!cmd_opt(cur, c))
			bad_usage("option '%s' is not one of %s's (htmmctl %s --help lists them)",
				  opt_name(c, name, sizeof(name)), cur->name, cur->name);
		take(a, c, optarg);
	}
}
