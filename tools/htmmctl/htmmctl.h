/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htmmctl.h - what htmmctl.c gives its other files.
 */
#ifndef HTMMCTL_H
#define HTMMCTL_H

/* A value under HTMM_SYSFS@dir; 0, or -errno. */
int read_value(const char *dir, const char *name, unsigned long long *v);

#endif
