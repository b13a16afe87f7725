/*
 * cli_qualify: --qualify PROFILE TARGET, a disk qualification (issue 28). The
 * profile (built in, or a file: qualify.h has the format) is parsed and its
 * steps' options checked with the command line's own parser; then each step
 * is one run of the target through cli_run() with the step's options (the
 * same preparation, engine, probe process and watchdog as any run), which
 * measures quietly into the step's record (cli_qualify_measure) with the
 * device's diskstats over the step. qualify.c judges the steps and writes the
 * report; this file runs them, says what went wrong and gives the exit code:
 * 0 every step passed, 1 one failed, 2 the battery could not run (a bad
 * profile, writes without -WWW, no room, a target that cannot be prepared, a
 * failed request, an interruption).
 *
 * A directory target gets one working-set file for the whole battery: the kept
 * file DIR/ioprobe.tmp (tempfile.h's rules), filled once before the first step
 * (through the page cache, in 1 MiB writes) and reused by every step; it is
 * removed at the end unless -k — only when this run created it (a kept file of
 * an earlier run stays).
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine.h"
#include "fmt.h"
#include "json.h"
#include "opener.h"
#include "out.h"
#include "qualify.h"
#include "tempfile.h"

#define QUALIFY_PASS 0
#define QUALIFY_FAIL 1
#define QUALIFY_NOT_RUN 2
/* The working-set file of a directory is filled in requests of this size. */
#define QUALIFY_FILL_SIZE (1ull << 20)


/* ---- the command line ---- */

int cli_qualify_check(const struct opts *o)
{
	struct opts a = *o, d;

	if (o->npaths != 1) {
		cli_msg("--qualify takes one target (a scratch device, file or directory)");
		return QUALIFY_NOT_RUN;
	}
	opts_defaults(&d);
	/* what may go with --qualify: -W (its count), -S, -o, -k, -e, -J */
	a.write = 0;
	a.work_size = a.work_offset = a.seed = 0;
	a.keep = a.json = false;
	a.time_format = NULL;
	d.tui = a.tui; /* -X shows the battery as it runs */
	d.ascii = a.ascii;
	d.no_color = a.no_color;
	d.path = a.path;
	memcpy(d.paths, a.paths, sizeof(d.paths));
	memcpy(d.path_after_option, a.path_after_option, sizeof(d.path_after_option));
	d.npaths = a.npaths;
	d.qualify = a.qualify;
	/* the command line as given (a recording keeps it) and the target's name */
	d.argc = a.argc;
	d.argv = a.argv;
	memcpy(d.names, a.names, sizeof(d.names));
	d.name = a.name;
	d.name_list = a.name_list;
	memcpy(d.name_store, a.name_store, sizeof(d.name_store));
	d.name_used = a.name_used;
	if (memcmp(&a, &d, sizeof(a))) {
		cli_msg("--qualify: the profile sets the steps' options; only -WWW, -S, -o, -k, "
			"-e, -J and -X (with --ascii, --no-color) go with it on the command line");
		return QUALIFY_NOT_RUN;
	}
	return -1;
}

/* Parse a step's words (argv[0] "ioprobe", then options) and the target into *so. */
static int qualify_step_opts(int argc, const char *const *argv, const char *target,
			     struct opts *so, char *msg, size_t msglen)
{
	const char *av[QUALIFY_MAX_WORDS + 2];
	int n = 0;

	for (int i = 0; i < argc && n < QUALIFY_MAX_WORDS; i++) {
		/* "--" would make the words after it targets: the target is the command line's */
		if (i > 0 && !strcmp(argv[i], "--"))
			return err_set(msg, msglen, -EINVAL, "\"--\" has no place in a step (the "
				       "target is the command line's)");
		av[n++] = argv[i];
	}
	av[n++] = "--";
	av[n++] = target;
	if (opts_parse(n, (char *const *)av, so, msg, msglen) != OPTS_OK)
		return -EINVAL;
	if (so->action != OPTS_RUN)
		return err_set(msg, msglen, -EINVAL, "-h and -v have no place in a step");
	if (so->npaths != 1 || strcmp(so->path, target))
		return err_set(msg, msglen, -EINVAL, "\"%s\" is no option (the target is the "
			       "command line's)", so->paths[0] == target ? so->paths[1] : so->paths[0]);
	return 0;
}

/* What a step may not set, by name; NULL when its options are fine. */
static const char *qualify_step_refused(const struct opts *so)
{
	if (so->json || so->json_lines || so->batch || so->time_format)
		return "-J, -B and -I (the battery's report is the output)";
	if (so->tui)
		return "-X (the view)";
	if (so->sweep || so->fio_job || so->iostat || so->check || so->check_iops || so->listen ||
	    so->prometheus || so->influx)
		return "--sweep, --fio-job, --iostat and the fleet options";
	if (so->keep)
		return "-k (the battery keeps or removes its working set: the command line's -k)";
	if (so->print_count || so->print_interval)
		return "-p and -P";
	if (so->rapid)
		return "-R (give -i 0 and -w)";
	if (so->record || so->record_requests || so->report || so->replay)
		return "--record, --record-requests, --report and --replay (the battery's report "
		       "is the output)";
	if (so->qualify)
		return "--qualify (a step is one run)";
	if (so->name_list)
		return "--name (the target is the command line's)";
	if (so->nsizes > 1 || so->ndepths > 1 || so->depth_auto || so->yes || so->best_aqu_set ||
	    so->limit_aqu_set)
		return "lists of sizes or depths, -Q auto, --yes, --best-aqu and --limit-aqu "
		       "(a step is one size at one depth)";
	return NULL;
}

/* qualify_words_fn: a step's options through the command line's parser and rules. */
static int qualify_check_words(void *ctx, int argc, const char *const *argv, char *msg,
			       size_t msglen)
{
	struct opts so;
	const char *refused, *name;
	const struct engine_ops *ops;

	(void)ctx;
	if (qualify_step_opts(argc, argv, "TARGET", &so, msg, msglen))
		return -EINVAL;
	if ((refused = qualify_step_refused(&so)))
		return err_set(msg, msglen, -EINVAL, "not in a step: %s", refused);
	if (!so.count && !so.deadline_set)
		return err_set(msg, msglen, -EINVAL, "a step needs -c or -w (it must end)");
	name = so.engine ? so.engine : "sync";
	ops = engine_find(name);
	if (!ops)
		return err_set(msg, msglen, -EINVAL, "engine \"%s\" %s", name,
			       engine_known(name) ? "is not available in this build" : "is unknown");
	if (so.depth > 1 && !engine_async(ops))
		return err_set(msg, msglen, -EINVAL, "-Q %llu needs -A or -U (the %s engine keeps one "
			       "request in flight)", (unsigned long long)so.depth, ops->name);
	return 0;
}

/* The profile's text: built in (a name without '/'), else the file (at most QUALIFY_FILE_MAX). */
static char *qualify_load(const char *spec, char *name, size_t namelen)
{
	const char *builtin = strchr(spec, '/') ? NULL : qualify_builtin(spec);
	const char *base = strrchr(spec, '/');
	struct stat st;
	char *text;
	ssize_t n;
	int fd;

	snprintf(name, namelen, "%s", base ? base + 1 : spec);
	if (builtin)
		return strdup(builtin);
	fd = open(spec, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		cli_msg("--qualify %s: no such built-in profile (db), and the file: %s", spec,
			strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > QUALIFY_FILE_MAX) {
		cli_msg("--qualify %s: not a profile file (a regular file of at most %d bytes)", spec,
			QUALIFY_FILE_MAX);
		close(fd);
		return NULL;
	}
	text = calloc(1, (size_t)st.st_size + 1);
	n = text ? read(fd, text, (size_t)st.st_size) : -1;
	close(fd);
	if (n < 0) {
		cli_msg("--qualify %s: cannot read it: %s", spec, text ? strerror(errno) :
			"out of memory");
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

/* ---- the battery ---- */

/* The kept file a directory's steps share: created by this run (to remove), its identity. */
struct qualify_keep {
	bool dir;                /* the target is a directory (the kept file is its) */
	bool created;
	dev_t dev;
	ino_t ino;
};

/*
 * What the battery needs to know of its target, looked at in a child process
 * (child_call: the process that owns stdout never waits on the disk under test).
 */
struct qualify_look {
	const char *path;
	bool dir;                /* a directory */
	uint64_t size;           /* a file's or a device's size; 0 when unknown */
	uint64_t avail;          /* a directory: free bytes for an unprivileged user */
	uint64_t have;           /* a directory: what a kept file already holds */
	bool kept;               /* a directory: DIR/ioprobe.tmp exists */
	struct qualify_keep keep;/* qualify_remove's: the file to remove */
};

/* child_call fn: stat the target; a directory's free room and kept file, a node's size. */
static int qualify_look_fn(void *arg, char *msg, size_t msglen)
{
	struct qualify_look *l = arg;
	struct statvfs vfs;
	struct stat st, kst;
	int fd;

	if (stat(l->path, &st))
		return err_set(msg, msglen, -errno, "\"%s\": %s", l->path, strerror(errno));
	l->dir = S_ISDIR(st.st_mode);
	if (S_ISREG(st.st_mode))
		l->size = (uint64_t)st.st_size;
	if (!l->dir && !S_ISBLK(st.st_mode))
		return 0;
	fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (l->dir ? O_DIRECTORY : 0));
	if (fd < 0)
		return l->dir ? err_set(msg, msglen, -errno, "cannot open \"%s\": %s", l->path,
					strerror(errno)) : 0;
	if (!l->dir) {
		if (ioctl(fd, BLKGETSIZE64, &l->size))
			l->size = 0;
		return 0; /* the child's end closes it */
	}
	l->kept = !fstatat(fd, TEMPFILE_KEEP_NAME, &kst, AT_SYMLINK_NOFOLLOW);
	if (l->kept && S_ISREG(kst.st_mode))
		l->have = (uint64_t)kst.st_blocks * 512;
	if (fstatvfs(fd, &vfs))
		return err_set(msg, msglen, -errno, "cannot read the free space of \"%s\": %s",
			       l->path, strerror(errno));
	l->avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

/* child_call fn: remove DIR/ioprobe.tmp, only while the name still refers to l->keep's file. */
static int qualify_remove_fn(void *arg, char *msg, size_t msglen)
{
	struct qualify_look *l = arg;
	struct stat st;
	int fd = open(l->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return err_set(msg, msglen, -errno, "%s", strerror(errno));
	if (!fstatat(fd, TEMPFILE_KEEP_NAME, &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_dev == l->keep.dev && st.st_ino == l->keep.ino &&
	    unlinkat(fd, TEMPFILE_KEEP_NAME, 0))
		return err_set(msg, msglen, -errno, "%s", strerror(errno));
	return 0;
}

/*
 * A directory: room for the working set (what a kept file already holds counts), then the
 * kept file created and filled once. Returns 0 or the exit code (said).
 */
static int qualify_dir_prepare(const struct opts *o, uint64_t need, const struct qualify_look *l,
			       struct qualify_keep *qd, const struct target_progress *pg)
{
	struct stat kst;
	struct opts fo = *o;
	struct target t;
	char b1[FMT_BUFSZ], b2[FMT_BUFSZ];
	int code;

	qd->dir = true;
	qd->created = !l->kept;
	if (need > l->avail + l->have) {
		cli_msg("--qualify: \"%s\" has %s free, the working set needs %s: free some room or "
			"give a smaller -S", o->path, fmt_value(b1, sizeof(b1), l->avail, FMT_SIZE),
			fmt_value(b2, sizeof(b2), need - l->have, FMT_SIZE));
		return QUALIFY_NOT_RUN;
	}
	fo.keep = true;
	fo.write = 1;
	fo.direct = fo.sync = fo.dsync = false;
	fo.size = o->work_size < QUALIFY_FILL_SIZE ? o->work_size : QUALIFY_FILL_SIZE;
	if ((code = cli_target_open(&fo, &t, pg, NULL, NULL, 0)))
		return QUALIFY_NOT_RUN;
	if (!fstat(t.fd, &kst)) {
		qd->dev = kst.st_dev;
		qd->ino = kst.st_ino;
	}
	target_close_apart(&t);
	return 0;
}

/*
 * Remove the kept file this run created (unless -k), only while the name is still ours; in a
 * child, given up 0.5 s after a stop when the disk hangs (the child finishes it later).
 */
static void qualify_dir_end(const struct opts *o, struct qualify_keep *qd)
{
	struct qualify_look l = { .path = o->path, .keep = *qd };
	char msg[MSG_MAX];

	if (!qd->dir || !qd->created || o->keep || !qd->ino)
		return;
	if (child_call(qualify_remove_fn, &l, sizeof(l), NULL, 0, &cli_stop, OPENER_GRACE_NS, msg,
		       sizeof(msg)))
		cli_msg("--qualify: cannot remove %s/%s: %s", o->path, TEMPFILE_KEEP_NAME, msg);
}

/* Write sb to stdout and empty it; 0 or the output error's exit code (said). */
static int qualify_out(struct sbuf *sb)
{
	int err = out_write_sbuf(STDOUT_FILENO, sb);

	sbuf_reset(sb);
	return err ? cli_out_error(err) : 0;
}

/* Everything one battery keeps. */
struct qualify_run {
	const struct opts *o;
	const struct view_ops *view;  /* -X, else NULL */
	struct qualify_profile prof;
	struct opts so[QUALIFY_MAX_STEPS];
	struct cli_qstep *rec;
	struct qualify_measure m[QUALIFY_MAX_STEPS];
	struct qualify_verdict v[QUALIFY_MAX_STEPS];
	size_t done;             /* steps measured */
	uint64_t work_size;
	const char *engine[QUALIFY_MAX_STEPS]; /* each step's engine name */
	size_t running;          /* the step under way */
	/* -X: what the view shows (the names, the steps passed, the report so far) */
	struct view_qualify vq;
	const char *names[QUALIFY_MAX_STEPS], *abouts[QUALIFY_MAX_STEPS];
	bool pass[QUALIFY_MAX_STEPS];
	struct sbuf vtext;
};

/* Parse the profile, each step's options, the -WWW rule. 0 or the exit code (said). */
static int qualify_setup(struct qualify_run *qr)
{
	const struct opts *o = qr->o;
	char name[QUALIFY_NAME_MAX], msg[1024];
	char *text = qualify_load(o->qualify, name, sizeof(name));
	const char *writer = NULL;
	int ret;

	if (!text)
		return QUALIFY_NOT_RUN;
	ret = qualify_parse(text, name, qualify_check_words, NULL, &qr->prof, msg, sizeof(msg));
	free(text);
	if (ret) {
		cli_msg("--qualify %s: %s", o->qualify, msg);
		return QUALIFY_NOT_RUN;
	}
	for (size_t i = 0; i < qr->prof.nsteps; i++) {
		struct qualify_step *s = &qr->prof.steps[i];
		const char *argv[QUALIFY_MAX_WORDS + 1];
		int argc = qualify_step_argv(s, argv, QUALIFY_MAX_WORDS + 1);
		struct opts *so = &qr->so[i];

		if (qualify_step_opts(argc, argv, o->path, so, msg, sizeof(msg))) {
			cli_msg("--qualify %s: step \"%s\": %s", o->qualify, s->name, msg);
			return QUALIFY_NOT_RUN;
		}
		if (so->write && !writer)
			writer = s->name;
		/* a step's -o and -S choose a part of the battery's working set */
		if (so->work_offset >= qr->work_size ||
		    (so->work_size && so->work_size > qr->work_size - so->work_offset)) {
			char b1[32], b2[32], b3[32];

			cli_msg("--qualify %s: step \"%s\": -o %s -S %s goes past the working set (%s): "
				"give a larger -S on the command line", o->qualify, s->name,
				fmt_value(b1, sizeof(b1), so->work_offset, FMT_SIZE),
				fmt_value(b2, sizeof(b2), so->work_size ? so->work_size :
					  qr->work_size - so->work_offset, FMT_SIZE),
				fmt_value(b3, sizeof(b3), qr->work_size, FMT_SIZE));
			return QUALIFY_NOT_RUN;
		}
		if (!so->work_size)
			so->work_size = qr->work_size - so->work_offset;
		so->work_offset += o->work_offset;
		so->seed = o->seed;
		so->quiet = true;
		so->write = so->write ? 3 : 0; /* the command line's -WWW, checked below */
		so->qualify_step = &qr->rec[i];
		so->tui = o->tui; /* -X: the view shows the step (no watchdog beside it) */
		so->ascii = o->ascii;
		so->no_color = o->no_color;
		qr->names[i] = s->name;
		qr->abouts[i] = s->about;
	}
	if (writer && o->write < 3) {
		cli_msg("--qualify %s writes (step \"%s\"): the target's data is overwritten; give "
			"-WWW and a scratch target (a device, a file, or a directory for a file of "
			"the working set's size)", qr->prof.name, writer);
		return QUALIFY_NOT_RUN;
	}
	return 0;
}

/* The target: its working set fits; a directory's file prepared. 0 or the exit code. */
static int qualify_target(struct qualify_run *qr, struct qualify_keep *qd,
			  const struct target_progress *pg)
{
	const struct opts *o = qr->o;
	uint64_t need = qr->work_size + o->work_offset;
	char b1[FMT_BUFSZ], b2[FMT_BUFSZ], msg[MSG_MAX];
	struct qualify_look l = { .path = o->path };
	struct opts fo = *o;

	if (child_call(qualify_look_fn, &l, sizeof(l), NULL, 0, &cli_stop, OPENER_GRACE_NS, msg,
		       sizeof(msg))) {
		cli_msg("--qualify: %s", msg);
		return QUALIFY_NOT_RUN;
	}
	if (l.dir) {
		fo.work_size = qr->work_size;
		return qualify_dir_prepare(&fo, need, &l, qd, pg);
	}
	if (l.size && need > l.size) {
		cli_msg("--qualify: the working set (%s%s) is larger than \"%s\" (%s): give a "
			"smaller -S", fmt_value(b1, sizeof(b1), qr->work_size, FMT_SIZE),
			o->work_size ? "" : ", the default", o->path,
			fmt_value(b2, sizeof(b2), l.size, FMT_SIZE));
		return QUALIFY_NOT_RUN;
	}
	return 0;
}

/* The step's figures as qualify.c reads them. */
static void qualify_fill_measure(struct qualify_run *qr, size_t i, const char *engine)
{
	const struct opts *so = &qr->so[i];
	struct cli_qstep *q = &qr->rec[i];
	struct qualify_measure *m = &qr->m[i];

	*m = (struct qualify_measure){
		.size = opts_request_size(so), .wall_ns = q->wall, .count = so->count,
		.requests = q->requests,
		.deadline_ns = so->deadline_set ? so->deadline : 0, .all = &q->all,
		.read = q->has_read ? &q->read : NULL, .write = q->has_write ? &q->write : NULL,
		.have_dev = q->have_dev, .aqu = q->aqu, .await_ms = q->await_ms, .util = q->util,
		.engine = engine, .depth = (unsigned)so->depth,
	};
	snprintf(m->dev, sizeof(m->dev), "%s", q->dev);
}

/*
 * Step i ended with its record filled: its measure and verdict. With the view, its block
 * (after the report's head for the first step) and, after the last step, the final line go to
 * the text the view shows.
 */
static void qualify_step_end(struct qualify_run *qr, size_t i)
{
	size_t n = qr->prof.nsteps;

	qualify_fill_measure(qr, i, qr->engine[i]);
	qualify_judge(&qr->prof.steps[i], &qr->m[i], &qr->v[i]);
	qr->done = i + 1;
	if (!qr->view)
		return;
	qr->pass[i] = qr->v[i].pass;
	if (i == 0)
		qualify_format_head(&qr->vtext, &qr->prof, qr->o->path, qr->rec[0].desc,
				    qr->work_size);
	qualify_format_step(&qr->vtext, &qr->prof.steps[i], i, n, &qr->m[i], &qr->v[i]);
	if (i + 1 == n) {
		qualify_format_final(&qr->vtext, &qr->prof, qr->m, qr->v, n);
		qr->vq.final = true;
	}
}

/* cli_qstep.judge: the step under way ended, its record filled. */
static void qualify_on_step(void *ctx)
{
	struct qualify_run *qr = ctx;

	qualify_step_end(qr, qr->running);
}

/* The JSON report: one object, steps and result. */
static void qualify_json(const struct qualify_run *qr, const char *result, const char *line,
			 struct sbuf *sb)
{
	sbuf_puts(sb, "{\"qualify\": ");
	json_append_string(sb, qr->prof.name);
	sbuf_puts(sb, ", \"target\": ");
	json_append_string(sb, qr->o->path);
	sbuf_printf(sb, ", \"working_set\": %llu, \"steps\": [", (unsigned long long)qr->work_size);
	for (size_t i = 0; i < qr->done; i++) {
		if (i)
			sbuf_puts(sb, ", ");
		qualify_json_step(sb, &qr->prof.steps[i], &qr->m[i], &qr->v[i]);
	}
	sbuf_puts(sb, "], \"result\": ");
	json_append_string(sb, result);
	sbuf_puts(sb, ", \"line\": ");
	json_append_string(sb, line);
	sbuf_puts(sb, "}\n");
}

/* Run every step in turn, printing each as it ends; the exit code. */
static int qualify_steps(struct qualify_run *qr)
{
	const struct opts *o = qr->o;
	struct sbuf sb = SBUF_INIT, line = SBUF_INIT;
	const char *result;
	int code = 0;
	size_t n = qr->prof.nsteps;

	qr->vq.nsteps = n;
	for (size_t i = 0; i < n && !code && !cli_stop; i++) {
		const struct engine_ops *ops = engine_find(qr->so[i].engine ? qr->so[i].engine :
							   "sync");
		int c;

		qr->engine[i] = ops->name;
		qr->running = qr->vq.step = i;
		qr->vq.deadline = qr->so[i].deadline_set ? qr->so[i].deadline : 0;
		qr->vq.count = qr->so[i].count;
		qr->rec[i].judge = qualify_on_step;
		qr->rec[i].judge_ctx = qr;
		qr->rec[i].view = qr->view ? &qr->vq : NULL;
		c = cli_run(&qr->so[i], ops, qr->view, NULL);
		if (c || !qr->rec[i].ran || qr->done != i + 1) {
			sbuf_reset(&line);
			sbuf_printf(&line, "QUALIFY %s: NOT RUN (step \"%s\" %s)", qr->prof.name,
				    qr->prof.steps[i].name, cli_stop ? "was interrupted" :
				    "could not run");
			code = QUALIFY_NOT_RUN;
			break;
		}
		if (o->json)
			continue;
		if (i == 0)
			qualify_format_head(&sb, &qr->prof, o->path, qr->rec[0].desc,
					    qr->work_size);
		qualify_format_step(&sb, &qr->prof.steps[i], i, n, &qr->m[i], &qr->v[i]);
		if (!qr->view && (c = qualify_out(&sb))) /* the view: all of it at the end */
			code = c;
	}
	if (!code && qr->done < n) { /* a signal between steps */
		sbuf_printf(&line, "QUALIFY %s: NOT RUN (interrupted)", qr->prof.name);
		code = QUALIFY_NOT_RUN;
	}
	if (!code) {
		qualify_format_final(&line, &qr->prof, qr->m, qr->v, n);
		code = qualify_passed(qr->v, n) ? QUALIFY_PASS : QUALIFY_FAIL;
		/* the line without its blank line before and its newline */
		memmove(line.buf, line.buf + 1, line.len);
		line.len -= 2;
		line.buf[line.len] = '\0';
	}
	if (code == QUALIFY_PASS || code == QUALIFY_FAIL || code == QUALIFY_NOT_RUN) {
		result = code == QUALIFY_PASS ? "PASS" : code == QUALIFY_FAIL ? "FAIL" : "NOT RUN";
		if (o->json)
			qualify_json(qr, result, sbuf_str(&line), &sb);
		else if (line.len)
			sbuf_printf(&sb, "\n%s\n", sbuf_str(&line));
		int c = qualify_out(&sb);

		if (c)
			code = c;
	}
	sbuf_free(&sb);
	sbuf_free(&line);
	return code;
}

int cli_qualify(const struct opts *o, const struct view_ops *view,
		const struct target_progress *pg)
{
	struct qualify_run *qr = calloc(1, sizeof(*qr));
	struct qualify_keep qd = { 0 };
	int code;

	if (qr)
		qr->rec = calloc(QUALIFY_MAX_STEPS, sizeof(*qr->rec));
	if (!qr || !qr->rec) {
		cli_msg("out of memory");
		if (qr)
			free(qr->rec);
		free(qr);
		return QUALIFY_NOT_RUN;
	}
	qr->o = o;
	qr->view = o->tui ? view : NULL;
	qr->vtext = (struct sbuf)SBUF_INIT;
	qr->vq = (struct view_qualify){ .profile = qr->prof.name, .names = qr->names,
					.abouts = qr->abouts, .pass = qr->pass, .text = &qr->vtext };
	qr->work_size = o->work_size ? o->work_size : QUALIFY_WORK_SIZE;
	code = qualify_setup(qr);
	if (!code)
		code = qualify_target(qr, &qd, pg);
	if (!code) {
		if (qd.dir)
			for (size_t i = 0; i < qr->prof.nsteps; i++)
				qr->so[i].keep = true; /* the file filled above, shared */
		code = qualify_steps(qr);
	}
	qualify_dir_end(o, &qd);
	sbuf_free(&qr->vtext);
	free(qr->rec);
	free(qr);
	return code;
}
