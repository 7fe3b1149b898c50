/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat.h - readings of htmm's values (the totals' directory, or a
 * session's) and htmmctl stat, whose tables run's summary shares.
 */
#ifndef HTMMCTL_STAT_H
#define HTMMCTL_STAT_H

#include "htmmctl.h"

/*
 * Every value of one directory: the documented ones first, in a fixed
 * order, null where a file cannot be read, then any other file, by name.
 */
struct reading {
	char name[32];		/* "total", a PID or "all" */
	struct row vals;
	int unreadable;		/* values that could not be read */
	int err;		/* the first one's errno */
};

/* Read "total", or the session @name; 0, or -errno if it has no directory. */
int reading_read(struct reading *r, const char *name);
/* The value @name of @r if it is a number. */
bool reading_u64(const struct reading *r, const char *name, unsigned long long *v);
/*
 * Values @vals of @session at @t: -x, a "time SEP session SEP name SEP
 * value" row per value; -j, one object, "time" and "session" first.
 */
void values_out(struct out *o, const char *session, const struct row *vals,
		double t);
/* The same of reading @r. */
void reading_out(struct out *o, const struct reading *r, double t);
/* Say on stderr how many values of @n readings could not be read; 0 or 1. */
int reading_warn(const struct reading *r, int n);

/* The counters of the tables, in their order; @brief: stat's default. */
struct counter {
	const char *name;
	bool brief;
};
extern const struct counter table_counters[];
extern const int nr_table_counters;

/* stat [PID|all]: @only NULL for all; 0, or 1. */
int cmd_stat(const char *only, double interval, long count, bool verbose,
	     struct out *o);

#endif
