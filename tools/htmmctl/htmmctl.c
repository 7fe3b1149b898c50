// SPDX-License-Identifier: GPL-2.0
/*
 * htmmctl - start, stop and watch htmm sampling sessions.
 *
 * See "htmmctl --help", htmmctl(8) and
 * Documentation/admin-guide/mm/htmm.rst. The commands and options are in
 * opts.c, stat in stat.c, the per-page views in heat.c; here are the
 * sessions, run and record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "htmm.h"
#include "heat.h"
#include "htmmctl.h"
#include "opts.h"
#include "stat.h"

static const struct {
	int err;
	const char *name;
	const char *hint;
} hints[] = {
	{ ENOSYS, "ENOSYS", "this kernel has no htmm (CONFIG_HTMM)" },
	{ EACCES, "EACCES", "perf's rules refuse it: perf_event_paranoid, ptrace rights over the process or CAP_PERFMON (system-wide: CAP_PERFMON); only the session's owner ends it" },
	{ EPERM, "EPERM", "the ring buffers exceed RLIMIT_MEMLOCK past perf_event_mlock_kb; lower " HTMM_SYSFS "/buffer_pages or raise the limit" },
	{ EAGAIN, "EAGAIN", "the process kept creating threads during the start; try again" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "the selected sample source is unavailable here, see " HTMM_SYSFS "/source" },
	{ ESRCH, "ESRCH", "no such process, it is exiting, or it has no session" },
	{ EBUSY, "EBUSY", "it already has a session; stop that one first" },
	{ ENOSPC, "ENOSPC", "too many live sessions, see " HTMM_SYSFS "/max_sessions and max_user_sessions" },
	{ EINVAL, "EINVAL", "pid below -1, or the node is not an online node with memory" },
	{ ENOMEM, "ENOMEM", "out of memory" },
};

/* Print "htmmctl: WHAT: strerror (ENAME): hint" for errno @err. */
static void report(const char *what, int err)
{
	size_t i;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		if (hints[i].err == err) {
			fprintf(stderr, "htmmctl: %s: %s (%s): %s\n", what,
				strerror(err), hints[i].name, hints[i].hint);
			return;
		}
	}
	fprintf(stderr, "htmmctl: %s: %s\n", what, strerror(err));
}


/* Write @val to @path (under the root); 0, or errno. */
static int write_text(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	return err;
}

static int session_write(pid_t pid, const char *name, const char *val)
{
	char path[512], what[600];
	int err;

	path_of(path, sizeof(path), HTMM_SYSFS "/sessions/%d/%s", pid, name);
	err = write_text(path, val);
	if (err) {
		snprintf(what, sizeof(what), "%s = %s", path, val);
		report(what, err);
	}
	return err;
}

/* The word in brackets of a setting's text ("[auto] software"), or all. */
static void selected(const char *text, char *out, size_t len)
{
	const char *b = strchr(text, '[');

	b = b ? b + 1 : text;
	snprintf(out, len, "%.*s", (int)strcspn(b, "]\n"), b);
}

/*
 * Set the global setting HTMM_SYSFS/@name to @val; with @old, first
 * keep its value there. 0, or 1 with the reason on stderr.
 */
static int knob_set(const char *name, const char *val, char *old, size_t len)
{
	char path[512], buf[128];
	int err = 0;

	path_of(path, sizeof(path), HTMM_SYSFS "/%s", name);
	if (old) {
		err = -read_text(path, buf, sizeof(buf));
		if (!err)
			selected(buf, old, len);
	}
	if (!err)
		err = write_text(path, val);
	if (err == EACCES || err == EPERM) {
		fprintf(stderr, "htmmctl: %s: root's only (mode 0644): run htmmctl as root to choose a session's %s\n",
			path, name);
		return 1;
	}
	if (err) {
		fprintf(stderr, "htmmctl: %s = %s: %s%s\n", path, val, strerror(err),
			err == EINVAL ? " (see htmmctl(8) for the values it takes)" : "");
		return 1;
	}
	return 0;
}

/*
 * Start a session for @pid (not 0), with --source and --period for it
 * alone (the global settings are put back at once: a start between
 * would use them too) and --fast-mib and --tier applied.
 */
static int start(const struct args *a, pid_t pid)
{
	char what[64], val[32], old_source[128], old_period[128];
	int ret = 0, err = 0;

	if (a->source && knob_set("source", a->source, old_source, sizeof(old_source)))
		return 1;
	snprintf(val, sizeof(val), "%ld", a->period);
	if (a->period >= 0 &&
	    knob_set("sample_period", val, old_period, sizeof(old_period))) {
		if (a->source)
			knob_set("source", old_source, NULL, 0);
		return 1;
	}
	if (htmm_start(pid, a->node))
		err = errno;
	if (a->period >= 0)
		ret |= knob_set("sample_period", old_period, NULL, 0);
	if (a->source)
		ret |= knob_set("source", old_source, NULL, 0);
	if (err) {
		snprintf(what, sizeof(what), "htmm_start(%d, %d)", pid, a->node);
		report(what, err);
		return 1;
	}
	snprintf(val, sizeof(val), "%ld", (a->fast_mib << 20) / sysconf(_SC_PAGESIZE));
	if ((a->fast_mib && session_write(pid, "fast_pages", val)) ||
	    (a->tier && session_write(pid, "tiering", "1"))) {
		htmm_end(pid);
		return 1;
	}
	return ret;
}

static int stop(pid_t pid)
{
	char what[64];

	if (!htmm_end(pid))
		return 0;
	snprintf(what, sizeof(what), "htmm_end(%d)", pid);
	report(what, errno);
	return 1;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Does @s end in @suffix? */
static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* htmm-plot beside this program (the build's bin/), else on PATH. */
static void exec_plot(const char *tsv, const char *png)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 20);

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			strcpy(slash + 1, "htmm-plot");
			if (!access(self, X_OK))
				execl(self, "htmm-plot", tsv, png, (char *)NULL);
		}
	}
	execlp("htmm-plot", "htmm-plot", tsv, png, (char *)NULL);
	fprintf(stderr, "htmmctl: cannot plot %s: no htmm-plot beside htmmctl or on PATH (make install puts it in PREFIX/bin)\n",
		png);
	_exit(127);
}

/* Plot the heatmap TSV @tsv as @png with htmm-plot; 0, or 1. */
static int plot(const char *tsv, const char *png)
{
	int status;
	pid_t child = fork();

	if (child < 0) {
		perror("htmmctl: fork");
		return 1;
	}
	if (!child) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		exec_plot(tsv, png);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "htmmctl: no plot in %s\n", png);
		return 1;
	}
	return 0;
}

/*
 * Draw @h, @width columns (0: the terminal's) in rows of @bin seconds,
 * and write its TSV to @tsv (NULL: none; a .png: its plot); 0, or 1.
 */
static int heatmap_done(struct heatmap *h, FILE *out, int width, double bin,
			const char *tsv, struct out *o)
{
	char tmp[PATH_MAX];
	int err, fd, ret = 0;
	bool png = tsv && ends_with(tsv, ".png");

	if (png) {
		snprintf(tmp, sizeof(tmp), "%s.tsv.XXXXXX", tsv);
		fd = mkstemp(tmp);
		if (fd < 0) {
			fprintf(stderr, "htmmctl: cannot write %s: %s\n", tmp,
				strerror(errno));
			return 1;
		}
		close(fd);
	}
	err = heatmap_report(h, out, width ? width : terminal_width(), bin,
			     png ? tmp : tsv, o);
	if (err) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", png ? tmp : tsv,
			strerror(-err));
		ret = 1;
	} else if (png) {
		ret = plot(tmp, tsv);
	}
	if (png)
		unlink(tmp);
	if (!ret && tsv && o->kind == OUT_HUMAN)
		fprintf(out, png ? "heatmap: plot in %s\n" :
			"heatmap: data in %s (plot: htmm-plot TSV OUT.png)\n", tsv);
	return ret;
}

/*
 * A record file being written: under a temporary name beside it, renamed
 * to its name at the end if all went well (an old one becomes .old),
 * removed if not: a failed start never empties an earlier record.
 */
struct rec_file {
	const char *path;
	char tmp[PATH_MAX];
	FILE *f;
};

static int rec_open(struct rec_file *r, const char *path)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	r->path = path;
	snprintf(r->tmp, sizeof(r->tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(r->tmp);
	if (fd >= 0)
		fchmod(fd, 0666 & ~mask);
	r->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->f) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(r->tmp);
		}
		return 1;
	}
	return 0;
}

/* Finish @r: kept if @ok (and it could be written), else removed; 0, or 1. */
static int rec_close(struct rec_file *r, bool ok)
{
	char old[PATH_MAX + 8];
	int ret = 0;

	if (fclose(r->f)) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", r->path, strerror(errno));
		ok = false;
		ret = 1;
	}
	if (!ok) {
		unlink(r->tmp);
		return ret;
	}
	snprintf(old, sizeof(old), "%s.old", r->path);
	if (!access(r->path, F_OK) && rename(r->path, old))
		fprintf(stderr, "htmmctl: cannot rename %s to %s: %s\n", r->path, old,
			strerror(errno));
	if (rename(r->tmp, r->path)) {
		fprintf(stderr, "htmmctl: cannot rename %s to %s: %s\n", r->tmp,
			r->path, strerror(errno));
		unlink(r->tmp);
		return 1;
	}
	fprintf(stderr, "htmmctl: recorded in %s (htmmctl report %s heatmap|hot|placement)\n",
		r->path, r->path);
	return 0;
}

/* What run does besides the counters. */
struct run_opts {
	double interval;
	long count;		/* snapshots at most, 0: no limit */
	const char *tsv;	/* --heatmap */
	const char *file;	/* --record */
	bool quiet;		/* no counters every interval */
	struct out out;		/* how the counters are printed */
};

/* The state of a run. */
struct run {
	struct run_opts *ro;
	pid_t child;
	char name[32];
	double t0, last_read;
	struct reading r, prev;
	bool have;
	int read_err;
	struct heatmap *heat;
	long snaps;
	int ret;
};

/* Fork CMD @argv, held until a byte comes on *@go; the child's pid. */
static pid_t fork_held(char **argv, int *go)
{
	int p[2];
	pid_t child;

	if (pipe2(p, O_CLOEXEC)) {
		perror("htmmctl: pipe");
		return -1;
	}
	child = fork();
	if (child < 0) {
		perror("htmmctl: fork");
		return -1;
	}
	if (!child) {
		char x;

		/* Wait for the session; no byte means it failed to start. */
		close(p[1]);
		if (read(p[0], &x, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "htmmctl: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return child;
}

/* Read the session's values; keep the last good reading. */
/* The values of @r that were read. */
static int values_read(const struct reading *r)
{
	int i, n = 0;

	for (i = 0; i < r->vals.n; i++)
		n += r->vals.f[i].type != V_NULL;
	return n;
}

static void run_read(struct run *s)
{
	int err = reading_read(&s->prev, s->name);

	/* The session ended while it was read: keep the whole reading. */
	if (!err && s->have && (s->prev.unreadable ||
				values_read(&s->prev) < values_read(&s->r)))
		return;
	if (!err) {
		s->r = s->prev;
		s->have = true;
		s->last_read = now();
	} else if (!s->have && !s->read_err) {
		s->read_err = -err;	/* the first says why */
	}
}

static unsigned long long value(const struct reading *r, const char *name)
{
	unsigned long long v = 0;

	reading_u64(r, name, &v);
	return v;
}

/* Every interval: the counters, and a snapshot. */
static void run_tick(struct run *s, struct reading *last)
{
	struct run_opts *ro = s->ro;
	int err;

	if (s->have && ro->out.kind != OUT_HUMAN) {
		reading_out(&ro->out, &s->r, s->last_read - s->t0);
	} else if (s->have && !ro->quiet) {
		fprintf(stderr, "htmmctl: %6.1f s  sampled %llu (+%.0f/s)  lost %llu  throttled %llu",
			now() - s->t0, value(&s->r, "nr_sampled"),
			(value(&s->r, "nr_sampled") - value(last, "nr_sampled")) / ro->interval,
			value(&s->r, "nr_lost"), value(&s->r, "nr_throttled"));
		if (value(&s->r, "tiering"))
			fprintf(stderr, "  promoted %llu  demoted %llu  failed %llu",
				value(&s->r, "nr_promoted"), value(&s->r, "nr_demoted"),
				value(&s->r, "nr_migrate_failed"));
		fputc('\n', stderr);
		*last = s->r;
	}
	if (!s->heat || (ro->count && s->snaps >= ro->count))
		return;
	err = heatmap_snap(s->heat, now() - s->t0);
	/* ENOENT, EIO: the session ended with CMD. */
	if (err && err != -ENOENT && err != -EIO) {
		read_pages_failed(s->child, err);
		s->ret = 1;
	}
	s->snaps++;
}

/* Until CMD exits: read, print, snapshot; CMD's wait status. */
static int run_loop(struct run *s, int *status)
{
	double next, next_read, interval = s->ro->interval;
	struct reading *last = calloc(1, sizeof(*last));
	pid_t w;

	next = s->t0 + interval;
	next_read = s->t0;
	for (;;) {
		/*
		 * The session ends with CMD: keep its last values, read
		 * before looking whether CMD is done, so that even a CMD
		 * that exits at once has a reading.
		 */
		if (now() >= next_read) {
			run_read(s);
			next_read = now() + 0.2;
		}
		w = waitpid(s->child, status, WNOHANG);
		if (w == s->child || (w < 0 && errno != EINTR))
			break;
		if (!interval || now() < next) {
			sleep_for(0.05);
			continue;
		}
		if (last)
			run_tick(s, last);
		next += interval;
	}
	free(last);
	return w == s->child ? 0 : -1;
}

/* The summary at the end: the last reading, to @f (stderr, or -o). */
static void run_summary(struct run *s, const char *cmd, FILE *f)
{
	struct out *o = &s->ro->out;
	int c;

	fprintf(stderr, "htmmctl: session of pid %s (%s), %.2f s:\n", s->name, cmd,
		now() - s->t0);
	if (!s->have) {
		fprintf(stderr, "htmmctl: its counters could not be read: %s\n",
			strerror(s->read_err ? s->read_err : ENOENT));
		s->ret = 1;
		return;
	}
	if (reading_warn(&s->r, 1))
		s->ret = 1;
	if (o->kind != OUT_HUMAN) {
		reading_out(o, &s->r, s->last_read - s->t0);
		return;
	}
	fprintf(f, "htmmctl:   (counters as read %.2f s before the end)\n",
		now() - s->last_read);
	for (c = 0; c < s->r.vals.n; c++) {
		const struct field *v = &s->r.vals.f[c];

		if (strncmp(v->name, "nr_", 3))
			continue;
		if (v->type == V_UINT)
			fprintf(f, "htmmctl:   %-18s %llu\n", v->name, v->u);
		else
			fprintf(f, "htmmctl:   %-18s -\n", v->name);
	}
}

/* Start @s's session and its recording; 0, or 1 (CMD never runs). */
static int run_begin(struct run *s, const struct args *a, struct rec_file *rec)
{
	struct run_opts *ro = s->ro;

	if (start(a, s->child))
		return 1;
	if (!ro->tsv && !ro->file)
		return 0;
	s->heat = heatmap_new(s->child);
	if (!s->heat || (ro->file && heatmap_record_to(s->heat, rec->f, ro->tsv))) {
		perror("htmmctl: record");
		htmm_end(s->child);
		return 1;
	}
	return 0;
}

static int cmd_run(const struct args *a, struct run_opts *ro, char **argv)
{
	struct run *s = calloc(1, sizeof(*s));
	struct out human = { OUT_HUMAN, NULL, NULL, false };
	struct rec_file rec = { NULL };
	int status = 0, go, ret;
	FILE *f = ro->out.f ? ro->out.f : stderr;

	if (!s || (ro->file && rec_open(&rec, ro->file))) {
		free(s);
		return 1;
	}
	s->ro = ro;
	s->child = fork_held(argv, &go);
	if (s->child < 0 || run_begin(s, a, &rec)) {
		if (s->child > 0) {
			close(go);
			waitpid(s->child, &status, 0);
		}
		if (rec.f)
			rec_close(&rec, false);
		heatmap_free(s->heat);
		free(s);
		return 1;
	}
	snprintf(s->name, sizeof(s->name), "%d", s->child);
	/* A first reading before CMD runs: one that exits at once has it. */
	run_read(s);
	s->t0 = now();
	if (write(go, "x", 1) != 1)
		perror("htmmctl: pipe");
	close(go);
	/* Let the command take Ctrl-C; we still print the summary. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	ret = run_loop(s, &status);
	run_summary(s, argv[0], f);
	/* Normally gone with CMD; ESRCH is the expected answer. */
	if (htmm_end(s->child) && errno != ESRCH) {
		report("htmm_end", errno);
		s->ret = 1;
	}
	if (rec.f)
		s->ret |= rec_close(&rec, !ret);
	if (s->heat && ro->tsv)
		s->ret |= heatmap_done(s->heat, stderr, 0, 0, ro->tsv, &human);
	heatmap_free(s->heat);
	ret = ret ? 1 : WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
	      WEXITSTATUS(status) ? WEXITSTATUS(status) : s->ret;
	free(s);
	/* CMD's status first, as perf stat and time give it; else ours. */
	return ret;
}

/*
 * Snapshots of @pid's session every @interval, @count times, until the
 * session ends or Ctrl-C, into @h. 0, or 1 if not even one was taken.
 */
static int snapshots(struct heatmap *h, pid_t pid, double interval, long count)
{
	bool tty = isatty(STDERR_FILENO);
	double t0, next;
	long i;
	int err = 0;

	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	t0 = now();
	next = t0;
	for (i = 0; (!count || i < count) && !interrupted; i++) {
		next += interval;
		while (now() < next && !interrupted)
			sleep_for(next - now() < 0.1 ? next - now() : 0.1);
		if (interrupted)
			break;
		err = heatmap_snap(h, now() - t0);
		if (err)
			break;
		if (tty && count)
			fprintf(stderr, "\rhtmmctl: pid %d: %ld/%ld", pid, i + 1, count);
		else if (tty)
			fprintf(stderr, "\rhtmmctl: pid %d: %ld", pid, i + 1);
	}
	if (tty)
		fputc('\n', stderr);
	if (err && (!i || err == -EACCES || err == -EPERM)) {
		read_pages_failed(pid, err);
		return 1;
	}
	if (err)
		fprintf(stderr, "htmmctl: the session ended after %ld snapshots\n", i);
	return 0;
}

static int cmd_heatmap(const struct args *a, pid_t pid)
{
	struct heatmap *h = heatmap_new(pid);
	struct out o = a->out;
	char def[64];
	const char *tsv = a->output;
	int ret;

	if (!h) {
		perror("htmmctl: heatmap");
		return 1;
	}
	if (!tsv) {
		snprintf(def, sizeof(def), "heatmap-%d.tsv", pid);
		tsv = def;
	}
	ret = snapshots(h, pid, a->interval ? a->interval : 1,
			a->count ? a->count : 10);
	if (!ret)
		ret = heatmap_done(h, stdout, 0, 0, tsv, &o);
	heatmap_free(h);
	return ret;
}

/* record PID: its session's, or one started here for the recording. */
static int cmd_record(const struct args *a, pid_t pid, const char *path)
{
	struct heatmap *h = heatmap_new(pid);
	struct rec_file rec;
	char dir[512];
	bool started = false;
	int ret;

	if (!h) {
		perror("htmmctl: record");
		return 1;
	}
	if (rec_open(&rec, path)) {
		heatmap_free(h);
		return 1;
	}
	path_of(dir, sizeof(dir), HTMM_SYSFS "/sessions/%d", pid);
	if (access(dir, F_OK)) {
		ret = start(a, pid);
		started = !ret;
	} else {
		ret = 0;
	}
	if (!ret)
		ret = heatmap_record_to(h, rec.f, false) ? 1 : 0;
	if (!ret)
		ret = snapshots(h, pid, a->interval ? a->interval : 1, a->count);
	ret |= rec_close(&rec, !ret);
	if (started)
		htmm_end(pid);
	heatmap_free(h);
	return ret;
}

static const char *const views[] = { "heatmap", "hot", "placement" };

static bool is_view(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++)
		if (!strcmp(s, views[i]))
			return true;
	return false;
}

static int cmd_report(const struct args *a)
{
	const char *file = "htmm.rec", *view = "heatmap";
	struct out o = a->out;
	struct heatmap *h;
	long line;
	int err, ret;

	if (a->npos > 2)
		bad_usage("unexpected argument '%s'", a->pos[2]);
	if (a->npos == 2 && !is_view(a->pos[1]))
		bad_usage("unknown view '%s'; one of heatmap, hot, placement", a->pos[1]);
	if (a->npos == 2 || (a->npos == 1 && !is_view(a->pos[0])))
		file = a->pos[0];
	if (a->npos && is_view(a->pos[a->npos - 1]))
		view = a->pos[a->npos - 1];
	h = heatmap_load(file, &err, &line);
	if (!h && err == -EINVAL) {
		fprintf(stderr, "htmmctl: %s:%ld: not an htmm record file (htmmctl record writes them)\n",
			file, line);
		return 1;
	}
	if (!h) {
		fprintf(stderr, "htmmctl: cannot read %s: %s\n", file, strerror(-err));
		return 1;
	}
	if (!heatmap_nr_snaps(h) && o.kind == OUT_HUMAN)
		fprintf(stderr, "htmmctl: %s holds no snapshot with a tracked page\n", file);
	if (!strcmp(view, "hot"))
		ret = heatmap_nr_snaps(h) ?
		      heatmap_hot(h, a->rows ? a->rows : 20, a->at, &o) : 1;
	else if (!strcmp(view, "placement"))
		ret = heatmap_placement(h, a->output, &o);
	else
		ret = heatmap_done(h, stdout, a->width, a->interval, a->output, &o);
	heatmap_free(h);
	return ret;
}

/* The options of a new session. */
static void check_session_args(const struct args *a, bool session)
{
	if (!session)
		return;
	if ((a->tier || a->fast_mib) && a->npos && !strcmp(a->pos[0], "all"))
		bad_usage("--tier and --fast-mib need a process, not 'all'");
	if (check_node(a->node, a->cmd->name))
		exit(2);
}

/* Checks across options, and the arguments of @a's command. */
static void check_args(struct args *a)
{
	const char *name = a->cmd->name;
	bool session = !strcmp(name, "start") || !strcmp(name, "run") ||
		       !strcmp(name, "record");

	if (a->tier && a->node < 0)
		bad_usage("--tier needs --node NODE: the fast node to promote to");
	if (a->count && !a->interval && !strcmp(name, "stat"))
		bad_usage("--count needs --interval");
	if ((!strcmp(name, "run") || (!strcmp(name, "record") && !a->have_pid)) &&
	    !a->rest)
		bad_usage("no command to run: htmmctl %s [OPTIONS] -- CMD [ARGS...]", name);
	if (!strcmp(name, "report") || a->rest) {	/* report: its own */
		check_session_args(a, session);
		return;
	}
	if (a->npos > 1)
		bad_usage("unexpected argument '%s'", a->pos[1]);
	if (!a->npos && strcmp(name, "stat"))
		bad_usage("which process? htmmctl %s [OPTIONS] %s", name, a->cmd->args);
	if (a->npos)
		parse_pid(a->pos[0]);
	check_session_args(a, session);
}

/* Open run's -o FILE; exits 1 if it cannot. */
static FILE *output_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static int run_or_record(struct args *a)
{
	struct run_opts ro = { a->interval, 0, a->heatmap, a->record, false,
			       a->out };
	int ret;

	if (!strcmp(a->cmd->name, "record")) {
		ro = (struct run_opts){ a->interval ? a->interval : 1, a->count, NULL,
					a->output ? a->output : "htmm.rec", true,
					{ OUT_HUMAN, NULL, NULL, false } };
	} else {
		if (a->output)
			ro.out.f = output_file(a->output);
		if ((ro.tsv || ro.file) && !ro.interval)
			ro.interval = 1;
	}
	ret = cmd_run(a, &ro, a->rest);
	if (ro.out.f && fclose(ro.out.f)) {
		fprintf(stderr, "htmmctl: cannot write %s: %s\n", a->output,
			strerror(errno));
		ret = ret ? ret : 1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct args a = { .node = -1, .period = -1, .at = 1e300 };
	const char *name;
	pid_t pid;

	parse_args(argc, argv, &a);
	check_args(&a);
	name = a.cmd->name;
	if (!strcmp(name, "report"))
		return cmd_report(&a);
	if (!htmm_here()) {
		say_no_htmm();
		return 1;
	}
	if (a.rest)
		return run_or_record(&a);
	if (!strcmp(name, "stat"))
		return cmd_stat(a.npos && strcmp(a.pos[0], "all") ? a.pos[0] :
				a.npos ? "all" : NULL, a.interval, a.count,
				a.verbose, &a.out);
	pid = parse_pid(a.pos[0]);
	if (!strcmp(name, "start"))
		return start(&a, pid);
	if (!strcmp(name, "stop"))
		return stop(pid);
	if (pid < 0)
		bad_usage("%s needs a process's PID, not 'all'", name);
	if (!strcmp(name, "hot"))
		return heat_hot(pid, a.rows ? a.rows : 20, &a.out);
	if (!strcmp(name, "record"))
		return cmd_record(&a, pid, a.output ? a.output : "htmm.rec");
	return cmd_heatmap(&a, pid);
}
