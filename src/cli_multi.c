#include "config.h"

#include "cli_multi.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_int.h"
#include "clock.h"
#include "devwatch.h"
#include "esc.h"
#include "iostat.h"
#include "msg.h"
#include "out.h"
#include "sbuf.h"
#include "ticker.h"
#include "watchdog.h"

#define MULTI_STACK (1u << 20) /* each probe thread's stack */

enum mt_state { MT_UNUSED, MT_READY, MT_RUNNING };

struct mt_run;

/* One target of the run: everything its probe thread owns. */
struct mt_target {
	struct mt_run *run;
	struct opts o;           /* the command line with o.path = this target */
	struct target t;
	struct engine eng;
	void *buf;
	struct probe *p;
	struct report_cfg rc;
	struct sbuf sb;          /* the thread's line buffer */
	pthread_t thread;
	enum mt_state state;
	int ret;                 /* probe_run()'s return */
	char msg[MSG_MAX];       /* its message for a failed request */
};

/* What the targets share: stdout and its lock, --iostat. */
struct mt_run {
	const struct opts *o;
	pthread_mutex_t lock;    /* stdout: whole pieces, one writer at a time */
	bool json_started;       /* an object was written: the next needs a separator */
	int out_err;             /* first stdout error */
	struct devwatch *watch;  /* --iostat devices, or NULL */
	struct ticker iostat;
	bool iostat_failed;
	size_t n;
	size_t ncpu;             /* online CPUs: more targets than that do not spin */
	struct watchdog wd;      /* hang warnings, one control block per target */
	uint64_t base;           /* when the first target's schedule starts (staggering) */
	struct mt_target *tg;
};

int cli_multi_check(const struct opts *o)
{
	if (o->fio_job) {
		cli_msg("--fio-job watches one target's devices: give one target");
		return CLI_EXIT_USAGE;
	}
	if (o->tui) {
		cli_msg("--tui shows one target: the overview of several is not built yet");
		return CLI_EXIT_USAGE;
	}
	if (o->sweep) {
		cli_msg("--sweep steps one target's rate: give one target");
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* Write sb to stdout and reset it; the caller holds r->lock. An error ends every probe. */
static int mt_flush(struct mt_run *r, struct sbuf *sb)
{
	int ret = sb->error ? sb->error : out_write(STDOUT_FILENO, sbuf_str(sb), sb->len);

	sbuf_reset(sb);
	if (ret && !r->out_err) {
		r->out_err = ret;
		cli_stop = 1;
	}
	return ret;
}

static void mt_json_sep(struct mt_run *r, struct sbuf *sb)
{
	if (r->json_started && !r->o->json_lines)
		sbuf_putc(sb, ',');
	r->json_started = true;
}

static int mt_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct mt_target *tg = ctx;
	struct mt_run *r = tg->run;
	int ret;

	if (r->o->quiet)
		return 0;
	pthread_mutex_lock(&r->lock);
	if (r->o->json) {
		mt_json_sep(r, &tg->sb);
		report_json_request(&tg->sb, &tg->rc, s, n, clock_realtime());
		if (r->o->json_lines)
			sbuf_putc(&tg->sb, '\n');
	} else {
		report_request_line(&tg->sb, &tg->rc, s, n, clock_realtime());
	}
	ret = mt_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static int mt_on_period(void *ctx, const struct tally *t)
{
	struct mt_target *tg = ctx;
	struct mt_run *r = tg->run;
	int ret;

	pthread_mutex_lock(&r->lock);
	if (r->o->json) {
		mt_json_sep(r, &tg->sb);
		report_json_stat(&tg->sb, &tg->rc, t, clock_realtime(), false);
		if (r->o->json_lines)
			sbuf_putc(&tg->sb, '\n');
	} else {
		report_raw_line(&tg->sb, &tg->rc, t);
	}
	ret = mt_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static int mt_on_burst_end(void *ctx)
{
	struct mt_target *tg = ctx;
	int ret;

	if (tg->run->o->quiet || tg->run->o->json)
		return 0;
	pthread_mutex_lock(&tg->run->lock);
	sbuf_putc(&tg->sb, '\n');
	ret = mt_flush(tg->run, &tg->sb);
	pthread_mutex_unlock(&tg->run->lock);
	return ret;
}

static void mt_on_warn(void *ctx, const char *text)
{
	struct mt_target *tg = ctx;

	cli_msg("%s: %s", tg->o.path, text);
}

/*
 * Spread the targets' schedules over one interval: target i starts i/n of an interval after
 * the first, so n threads do not all wake at the same instant on few cores (each start is
 * then late only by its own wake-up, not by the requests of every other target).
 */
static void mt_stagger(const struct mt_target *tg)
{
	const struct mt_run *r = tg->run;
	uint64_t iv = tg->p->cfg.interval;
	size_t i = (size_t)(tg - r->tg);

	if (iv && r->n > 1)
		clock_wait_until(r->base + iv / r->n * i, &cli_stop);
}

/* One target's probe thread; a failed request is said at once, naming the target. */
static void *mt_thread(void *arg)
{
	struct mt_target *tg = arg;
	struct probe_sink sink = { tg, mt_on_request, mt_on_period, mt_on_burst_end,
				   mt_on_warn };

	clock_tighten_slack(); /* per thread */
	if (tg->run->n >= tg->run->ncpu)
		clock_set_adaptive();
	mt_stagger(tg);
	tg->ret = probe_run(tg->p, &sink, &cli_stop, tg->msg, sizeof(tg->msg));
	if (tg->ret && tg->msg[0])
		cli_msg("%s: %s", tg->o.path, tg->msg);
	return NULL;
}

/* One --iostat block for the union of the targets' devices (see cli.c's). */
static void mt_iostat_tick(void *arg)
{
	struct mt_run *r = arg;
	struct devwatch *w = r->watch;
	struct sbuf sb = SBUF_INIT;
	const struct report_cfg *rc = NULL;
	bool any = false;
	int err = devwatch_sample(w, NULL, 0);

	if (err) {
		if (!r->iostat_failed)
			cli_msg("--iostat: cannot read /proc/diskstats: %s", strerror(-err));
		r->iostat_failed = true;
		return;
	}
	for (size_t i = 0; i < w->ndev; i++)
		any |= w->dev[i].state == DEVWATCH_OK || w->dev[i].state == DEVWATCH_RESET;
	for (size_t i = 0; i < r->n && !rc; i++)
		if (r->tg[i].state != MT_UNUSED)
			rc = &r->tg[i].rc; /* JSON's "target": the first one */
	if (!any || !rc)
		return;
	pthread_mutex_lock(&r->lock);
	if (r->o->json) {
		mt_json_sep(r, &sb);
		report_json_iostat(&sb, rc, w, NULL, clock_realtime()); /* no verdict across targets */
		if (r->o->json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		iostat_format_header(&sb);
		for (size_t i = 0; i < w->ndev; i++)
			if (w->dev[i].state == DEVWATCH_OK || w->dev[i].state == DEVWATCH_RESET)
				iostat_format_row(&sb, w->dev[i].name, &w->dev[i].row);
		sbuf_putc(&sb, '\n');
	}
	mt_flush(r, &sb);
	pthread_mutex_unlock(&r->lock);
	sbuf_free(&sb);
}

/*
 * The same file, directory or device named twice (a symbolic link, /dev/disk/by-id/...)
 * is refused before anything is opened. Returns -1 to go on, or the exit code.
 */
static int mt_check_same(const struct opts *o)
{
	struct stat *st = calloc(o->npaths, sizeof(*st));
	bool *ok = calloc(o->npaths, sizeof(*ok));
	int code = -1;

	for (unsigned i = 0; st && ok && i < o->npaths && code < 0; i++) {
		ok[i] = !stat(o->paths[i], &st[i]);
		for (unsigned j = 0; ok[i] && j < i && code < 0; j++) {
			if (ok[j] && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino) {
				cli_msg("duplicate target: \"%s\" is \"%s\"", o->paths[i],
					o->paths[j]);
				code = CLI_EXIT_USAGE;
			}
		}
	}
	if (!st || !ok) {
		cli_msg("out of memory");
		code = CLI_EXIT_PREPARE;
	}
	free(st);
	free(ok);
	return code;
}

/* Open target i, start its engine and probe. Returns 0 or the exit code of its failure. */
static int mt_prepare(struct mt_run *r, struct mt_target *tg, const char *path,
		      const struct engine_ops *ops)
{
	struct probe_cfg pc;
	int ret;

	tg->run = r;
	tg->o = *r->o;
	tg->o.path = path;
	tg->sb = (struct sbuf)SBUF_INIT;
	ret = target_open(&tg->t, &tg->o, &cli_stop, NULL, tg->msg, sizeof(tg->msg));
	if (ret) {
		cli_msg("%s", tg->msg);
		return ret == -EDOM ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	if (cli_engine_start(&tg->o, &tg->t, ops, &tg->eng, &tg->buf)) {
		target_close(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	tg->p = malloc(sizeof(*tg->p));
	if (!tg->p) {
		cli_msg("out of memory");
		engine_stop(&tg->eng);
		free(tg->buf);
		target_close(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	cli_probe_cfg(&tg->o, &pc);
	cli_report_cfg(&tg->o, &tg->t, &tg->rc);
	tg->rc.raw_target = true;
	probe_init(tg->p, &pc, &tg->t, &tg->eng, tg->buf);
	if (r->wd.ctl)
		tg->p->ctl = &r->wd.ctl[tg - r->tg];
	tg->msg[0] = '\0';
	tg->state = MT_READY;
	return 0;
}

static void mt_release(struct mt_target *tg)
{
	if (tg->state == MT_UNUSED)
		return;
	free(tg->p);
	engine_stop(&tg->eng);
	free(tg->buf);
	target_close(&tg->t);
	sbuf_free(&tg->sb);
	tg->state = MT_UNUSED;
}

/* --iostat over the union of the prepared targets' stacks, baseline taken. Returns 0 or exit code. */
static int mt_iostat_prepare(struct mt_run *r)
{
	const char **paths = calloc(r->n, sizeof(*paths));
	char msg[MSG_MAX];
	size_t n = 0;
	int ret = -ENOMEM;

	r->watch = malloc(sizeof(*r->watch));
	for (size_t i = 0; paths && i < r->n; i++)
		if (r->tg[i].state == MT_READY)
			paths[n++] = r->tg[i].o.path;
	if (paths && r->watch) {
		ret = devwatch_for_paths(r->watch, paths, n, r->o->iostat_devices, msg,
					 sizeof(msg));
		if (!ret && (ret = devwatch_sample(r->watch, NULL, 0)))
			err_set(msg, sizeof(msg), ret, "--iostat: cannot read /proc/diskstats: %s",
				strerror(-ret));
	} else {
		snprintf(msg, sizeof(msg), "out of memory");
	}
	free(paths);
	if (!ret && (ret = ticker_start(&r->iostat, r->o->print_interval ?
					r->o->print_interval : 1000000000ull, mt_iostat_tick, r)))
		err_set(msg, sizeof(msg), ret, "--iostat: cannot start its thread: %s",
			strerror(-ret));
	if (ret) {
		cli_msg("%s", msg);
		return CLI_EXIT_PREPARE;
	}
	return 0;
}

/* Start every prepared target's thread. Returns the worst exit code of those that could not. */
static int mt_start(struct mt_run *r)
{
	pthread_attr_t attr;
	int code = CLI_EXIT_OK, ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, MULTI_STACK);
	r->base = clock_now() + 1000000; /* every thread created by then */
	for (size_t i = 0; i < r->n; i++) {
		struct mt_target *tg = &r->tg[i];

		if (tg->state != MT_READY)
			continue;
		ret = pthread_create(&tg->thread, &attr, mt_thread, tg);
		if (ret) {
			cli_msg("%s: cannot start its thread: %s", tg->o.path, strerror(ret));
			mt_release(tg);
			code = CLI_EXIT_PREPARE;
			continue;
		}
		tg->state = MT_RUNNING;
	}
	pthread_attr_destroy(&attr);
	return code;
}

/* The closing output of one target (JSON total, -B raw line or summary); caller holds the lock. */
static void mt_finish_one(struct mt_run *r, struct mt_target *tg)
{
	const struct opts *o = r->o;
	const struct account *a = &tg->p->acct;

	if (o->json) {
		mt_json_sep(r, &tg->sb);
		report_json_stat(&tg->sb, &tg->rc, &a->total, clock_realtime(), true);
		if (o->json_lines)
			sbuf_putc(&tg->sb, '\n');
	} else if (o->batch) {
		report_raw_line(&tg->sb, &tg->rc, &a->total);
	} else if (!(o->quiet && (o->print_count || o->print_interval))) {
		report_summary(&tg->sb, &tg->rc, &a->total, &a->read, &a->write);
	}
	mt_flush(r, &tg->sb);
}

/* After every thread ended: the closing output in the order given; the worst exit code. */
static int mt_conclude(struct mt_run *r, int code)
{
	struct sbuf end = SBUF_INIT;

	pthread_mutex_lock(&r->lock);
	for (size_t i = 0; i < r->n && !r->out_err; i++) {
		struct mt_target *tg = &r->tg[i];
		int c = CLI_EXIT_OK;

		if (tg->state != MT_RUNNING)
			continue;
		mt_finish_one(r, tg);
		if (tg->ret || tg->p->acct.total.failed)
			c = CLI_EXIT_RUNTIME;
		code = c > code ? c : code;
	}
	if (r->o->json && !r->o->json_lines && !r->out_err) {
		sbuf_puts(&end, "]\n");
		mt_flush(r, &end);
	}
	pthread_mutex_unlock(&r->lock);
	sbuf_free(&end);
	return r->out_err ? cli_out_error(r->out_err) : code;
}

/*
 * Hang warnings naming the target ("ioprobe: PATH: request in flight for 5.0 s"), from
 * one watchdog process for all; started before any target is opened (it holds none).
 * Best effort, as with one target: without it a hung request gets no warnings.
 */
static void mt_watchdog_start(struct mt_run *r)
{
	struct sbuf *pre = calloc(r->n, sizeof(*pre));
	const char **text = calloc(r->n, sizeof(*text));

	for (size_t i = 0; pre && text && i < r->n; i++) {
		pre[i] = (struct sbuf)SBUF_INIT;
		sbuf_puts(&pre[i], "ioprobe: ");
		esc_append(&pre[i], r->o->paths[i], strlen(r->o->paths[i]));
		sbuf_puts(&pre[i], ": ");
		text[i] = sbuf_str(&pre[i]);
	}
	if (pre && text)
		watchdog_start_n(&r->wd, r->n, CLI_HANG_WARN_NS, text);
	for (size_t i = 0; pre && i < r->n; i++)
		sbuf_free(&pre[i]);
	free(pre);
	free(text);
}

/* Prepare every target; returns the worst preparation code (0 when all were prepared). */
static int mt_prepare_all(struct mt_run *r, const struct engine_ops *ops, size_t *ready)
{
	int code = CLI_EXIT_OK;

	*ready = 0;
	for (size_t i = 0; i < r->n && !cli_stop; i++) {
		int c = mt_prepare(r, &r->tg[i], r->o->paths[i], ops);

		code = c > code ? c : code;
		*ready += !c;
	}
	return code;
}

int cli_multi_run(const struct opts *o, const struct engine_ops *ops)
{
	struct mt_run r = { .o = o, .n = o->npaths };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t ready;
	int code;

	if ((code = mt_check_same(o)) >= 0)
		return code;
	r.ncpu = ncpu > 0 ? (size_t)ncpu : 1;
	r.tg = calloc(r.n, sizeof(*r.tg));
	if (!r.tg) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	pthread_mutex_init(&r.lock, NULL);
	if (!o->tui)
		mt_watchdog_start(&r);
	code = mt_prepare_all(&r, ops, &ready);
	if (!ready) {
		code = code ? code : CLI_EXIT_PREPARE;
	} else if (cli_stop) {
		code = CLI_EXIT_OK; /* interrupted while preparing: nothing measured */
	} else if (!(o->iostat && (code = mt_iostat_prepare(&r)))) {
		if (o->json && !o->json_lines) {
			struct sbuf open = SBUF_INIT;

			sbuf_putc(&open, '[');
			mt_flush(&r, &open);
			sbuf_free(&open);
		}
		int c = mt_start(&r);

		code = c > code ? c : code;
		for (size_t i = 0; i < r.n; i++)
			if (r.tg[i].state == MT_RUNNING)
				pthread_join(r.tg[i].thread, NULL);
		ticker_stop(&r.iostat);
		code = mt_conclude(&r, code);
	}
	watchdog_stop(&r.wd);
	for (size_t i = 0; i < r.n; i++)
		mt_release(&r.tg[i]);
	free(r.watch);
	pthread_mutex_destroy(&r.lock);
	free(r.tg);
	return code;
}
