/*
 * cli_run: the command line's one run of N >= 1 targets (`ioprobe [options]
 * TARGET...`). Each target gets its own engine, probe (pacer, statistics,
 * its requests in a child process: prober.h) and, when there are several,
 * a thread that reads it; one target is read on the calling thread. Every
 * rule that depends on N lives here: with several targets warnings and
 * failures name their target, raw lines carry its path, schedules are
 * staggered, --check speaks for all of them at once, and a failed request
 * does not cost the others their summaries. Request lines interleave as they
 * complete; at the end one summary (or -B raw line, or -J total) per target
 * in the order given. A target that cannot be prepared is reported and the
 * others go on.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"
#include "cli_conclude.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "common.h"
#include "devwatch.h"
#include "esc.h"
#include "exporters.h"
#include "layers_load.h"
#include "msg.h"
#include "out.h"
#include "outw.h"
#include "prober.h"
#include "recorder.h"
#include "report.h"
#include "sbuf.h"
#include "ticker.h"
#include "watchdog.h"

#define RUN_STACK (1u << 20) /* each probe-reading thread's stack (several targets) */

int cli_run_check(const struct opts *o)
{
	struct stat st;

	if (o->record_requests && !o->record) {
		cli_msg("--record-requests needs --record FILE");
		return CLI_EXIT_USAGE;
	}
	if (o->report && !o->record) {
		cli_msg("--report is drawn from a recording: add --record FILE (or read one with "
			"--replay FILE)");
		return CLI_EXIT_USAGE;
	}
	if (o->record && o->fio_job) {
		cli_msg("--record: --fio-job issues no request, there is no run to record");
		return CLI_EXIT_USAGE;
	}
	if (o->record && o->npaths > 1 && o->sweep) {
		cli_msg("--record: sweeps over several targets run one after the other; record "
			"one target's sweep at a time");
		return CLI_EXIT_USAGE;
	}
	if (o->poisson && !o->depth_set) {
		cli_msg("--arrivals poisson is -Q's open-loop schedule: add -Q N (requests in "
			"flight at most)");
		return CLI_EXIT_USAGE;
	}
	if (o->poisson && !opts_interval(o)) {
		cli_msg("--arrivals poisson needs a mean rate: -i TIME or -r RATE, not -i 0");
		return CLI_EXIT_USAGE;
	}
	/* the verdict weighs what the probe got against the asked rate over a few seconds: random
	 * arrivals make that count random too (100/s over 1 s: +-10 %), so it would say "falls
	 * short" of a device that keeps up */
	if (o->poisson && (o->iostat || o->tui || o->sweep)) {
		cli_msg("--arrivals poisson does not combine with %s yet: its verdict compares what "
			"the probe got with a fixed rate", o->sweep ? "--sweep" : o->tui ? "-X" :
			"--iostat");
		return CLI_EXIT_USAGE;
	}
	if (o->npaths > 1 && o->sweep && o->tui) {
		cli_msg("--sweep over several targets runs without the view: drop -X");
		return CLI_EXIT_USAGE;
	}
	/* `-ca 3 DIR`: an ioping habit (a count glued to -c) must not become a silent second
	 * target that fails while DIR runs forever */
	for (unsigned i = 0; o->npaths > 1 && i < o->npaths; i++) {
		const char *opt = o->path_after_option[i];

		if (opt && stat(o->paths[i], &st) && errno == ENOENT) {
			cli_msg("no file, directory or device \"%s\" (right after \"%s\", which "
				"takes no value); nothing was run", o->paths[i], opt);
			return CLI_EXIT_USAGE;
		}
	}
	return -1;
}

/* The option --layers does not combine with yet, NULL when none is given. */
static const char *cli_layers_refused(const struct opts *o)
{
	return o->depth > 1 || o->ndepths > 1 || o->depth_auto ? "-Q" :
	       o->tui ? "-X" : o->sweep ? "--sweep" : o->qualify ? "--qualify" :
	       o->fio_job ? "--fio-job" : o->replay ? "--replay" : NULL;
}

int cli_layers_check(const struct opts *o)
{
	const char *with = cli_layers_refused(o);

	if (!o->layers || !with)
		return -1;
	cli_msg("--layers measures one request at a time in a plain run: it does not combine "
		"with %s", with);
	return CLI_EXIT_USAGE;
}

/*
 * --layers: every target's eBPF programs loaded and attached before anything is prepared
 * (a missing privilege or kernel feature refuses the whole run; quiet: nothing said). 0 or
 * the exit code.
 */
static int run_layers_open(struct cli_run *r, bool quiet)
{
	char msg[MSG_MAX];

	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		tg->ltot = malloc(sizeof(*tg->ltot));
		if (!tg->ltot) {
			if (!quiet)
				cli_msg("out of memory");
			return CLI_EXIT_PREPARE;
		}
		layer_tally_init(tg->ltot);
		if (layers_open(&tg->lay, msg, sizeof(msg))) {
			if (!quiet)
				cli_msg("%s", msg);
			return CLI_EXIT_PREPARE;
		}
	}
	return 0;
}

/* --layers' programs cost about this much CPU to load, per target (measured: 0.06 s of system
 * time on this project's machine), and --iostat by itself spends at most this long on them */
#define RUN_LAYERS_LOAD_CPU_S 0.06
#define RUN_LAYERS_LOAD_MAX_S 1.0

/*
 * --iostat without --layers or --no-layers tries the layers by itself where they measure
 * (a plain run of one request at a time, an engine that issues requests, not under a CPU
 * quota too small to load them quickly): its verdict then weighs them.
 */
static bool run_layers_auto(const struct opts *o, const struct engine_ops *ops)
{
	double cpus;

	if (!o->iostat || o->layers_set || o->qualify_step || o->sweep_grid ||
	    cli_layers_refused(o) || !ops || !strcmp(ops->name, "null") || !layers_built())
		return false;
	/* loading a target's programs costs about RUN_LAYERS_LOAD_CPU_S of CPU: under a small
	 * quota (6 targets at 1.5 % of a core: 24 s) the first block would wait on that */
	cpus = cpuwait_quota();
	return !(cpus > 0 && o->npaths * RUN_LAYERS_LOAD_CPU_S / cpus > RUN_LAYERS_LOAD_MAX_S);
}

/* Close what run_layers_open() opened (every target, opened or not). */
static void run_layers_close(struct cli_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		layers_close(r->tg[i].lay);
		free(r->tg[i].ltot);
		r->tg[i].lay = NULL;
		r->tg[i].ltot = NULL;
	}
}

/* ---- what a target says: the probe's sink, on the thread that reads it ---- */

/* outw_flush(); a stdout error ends every probe. The caller holds r->out.lock. */
static int run_flush(struct cli_run *r, struct sbuf *sb)
{
	int ret = outw_flush(&r->out, sb);

	if (ret) {
		cli_stop = 1;
		prober_notify_stop(); /* every probe's reader wakes */
	}
	return ret;
}

/* A warning or a failure of tg: "ioprobe: TEXT", naming the target when there are several. */
static void run_say(const struct cli_target *tg, const char *text)
{
	if (tg->run->n > 1)
		cli_msg("%s: %s", tg->o.path, text);
	else
		cli_msg("%s", text);
}

static int run_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_target *tg = ctx;
	struct cli_run *r = tg->run;
	int ret;

	if (r->x)
		exporters_request(r->x, tg->xi, s, n);
	if (r->rec)
		cli_record_request(tg, s, n);
	if (tg->iv_lat[0])
		cli_iv_add(tg, s, n);
	if (tg->ltot)
		layer_tally_add(tg->ltot, s, n);
	if (r->o->quiet)
		return 0;
	pthread_mutex_lock(&r->out.lock);
	if (r->o->json) {
		outw_json_sep(&r->out, &tg->sb);
		report_json_request(&tg->sb, &tg->rc, s, n, clock_realtime());
		if (r->o->json_lines)
			sbuf_putc(&tg->sb, '\n');
	} else {
		report_request_line(&tg->sb, &tg->rc, s, n, clock_realtime());
	}
	ret = run_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->out.lock);
	return ret;
}

static int run_on_period(void *ctx, const struct tally *t)
{
	struct cli_target *tg = ctx;
	struct cli_run *r = tg->run;
	int ret;

	if (r->rec)
		cli_record_period(tg, t);
	if (r->o->influx) { /* whole lines under the exporters' own lock */
		ret = exporters_period(r->x, tg->xi, clock_realtime());
		if (ret) {
			pthread_mutex_lock(&r->out.lock);
			if (!r->out.err) {
				outw_keep_err(&r->out, ret);
				cli_stop = 1;
				prober_notify_stop(); /* every probe's reader wakes */
			}
			pthread_mutex_unlock(&r->out.lock);
		}
		return ret;
	}
	pthread_mutex_lock(&r->out.lock);
	if (r->o->json) {
		outw_json_sep(&r->out, &tg->sb);
		report_json_stat(&tg->sb, &tg->rc, t, clock_realtime(), false);
		if (r->o->json_lines)
			sbuf_putc(&tg->sb, '\n');
	} else {
		report_raw_line(&tg->sb, &tg->rc, t);
	}
	ret = run_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->out.lock);
	return ret;
}

static int run_on_burst_end(void *ctx)
{
	struct cli_target *tg = ctx;
	int ret;

	if (tg->run->o->quiet || tg->run->o->json)
		return 0;
	pthread_mutex_lock(&tg->run->out.lock);
	sbuf_putc(&tg->sb, '\n');
	ret = run_flush(tg->run, &tg->sb);
	pthread_mutex_unlock(&tg->run->out.lock);
	return ret;
}

static void run_on_warn(void *ctx, const char *text)
{
	struct cli_target *tg = ctx;

	if (tg->run->rec)
		cli_record_warning(tg, text);
	run_say(ctx, text);
}

/* Beside the view: the exporters hear every request (the session's thread). */
static int run_on_tap(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_target *tg = ctx;

	if (tg->run->x)
		exporters_request(tg->run->x, tg->xi, s, n);
	if (tg->run->rec)
		cli_record_request(tg, s, n);
	return 0;
}

/* Skipped slots enter the exporters' response times (the account has them already). */
static void run_on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	struct cli_target *tg = ctx;

	if (tg->run->x)
		exporters_skipped(tg->run->x, tg->xi, hi, step, n);
	if (tg->run->rec)
		cli_record_skipped(tg, hi, step, n);
}

/* ---- one target's probe ---- */

/*
 * Spread the targets' schedules over one interval: target i starts i/n of an interval after
 * the first, so n threads do not all wake at the same instant on few cores (each start is
 * then late only by its own wake-up, not by the requests of every other target).
 */
static void run_stagger(const struct cli_target *tg)
{
	const struct cli_run *r = tg->run;
	uint64_t iv = tg->p->cfg.interval;
	size_t i = (size_t)(tg - r->tg);

	if (iv && r->n > 1)
		clock_wait_until(r->base + iv / r->n * i, &cli_stop);
}

/*
 * Whether a target's failure is said on stderr when its probe ends: always, except one
 * target under --check, whose plugin line says it instead.
 */
static bool run_says_failure(const struct cli_run *r)
{
	return !(r->o->check && r->n == 1);
}

/* Probe tg until done, reading its records on this thread; its failure is said at once. */
static void *run_target(void *arg)
{
	struct cli_target *tg = arg;
	struct cli_run *r = tg->run;
	const struct opts *o = r->o;
	struct probe_sink sink = { tg, run_on_request, run_on_period, run_on_burst_end,
				   run_on_warn, run_on_skipped, cli_run_idle };

	clock_tighten_slack(); /* per thread; the probe's process inherits it */
	if (r->n >= r->ncpu)
		clock_set_adaptive();
	if (o->quiet && !r->x && !tg->iv_lat[0] && !r->rec && !tg->ltot)
		sink.request = NULL; /* nothing to say of a request: none crosses from the probe */
	if (!r->x && !r->rec)
		sink.skipped = NULL;
	run_stagger(tg);
	tg->ret = prober_run(tg->p, &sink, &cli_stop, tg->msg, sizeof(tg->msg));
	if (tg->ret && r->rec)
		cli_record_failure(tg);
	if (tg->ret && tg->msg[0] && run_says_failure(r))
		run_say(tg, tg->msg);
	return NULL;
}

/* ---- preparing and releasing the targets ---- */

/*
 * One target under two names: a device node by its device number (another node made with
 * mknod, /dev/disk/by-id/...), anything else by its inode.
 */
static bool run_same_target(const struct stat *a, const struct stat *b)
{
	if ((S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode)) ||
	    (S_ISCHR(a->st_mode) && S_ISCHR(b->st_mode)))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * The same file, directory or device named twice (a symbolic link, /dev/disk/by-id/...)
 * is refused before anything is opened. Returns -1 to go on, or the exit code.
 */
static int run_check_same(const struct opts *o)
{
	struct stat *st = calloc(o->npaths, sizeof(*st));
	bool *ok = calloc(o->npaths, sizeof(*ok));
	int code = -1;

	for (unsigned i = 0; st && ok && i < o->npaths && code < 0; i++) {
		ok[i] = !stat(o->paths[i], &st[i]);
		for (unsigned j = 0; ok[i] && j < i && code < 0; j++) {
			if (ok[j] && run_same_target(&st[j], &st[i])) {
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

/* Open target tg (pg: its fill's progress), start its engine and probe. 0 or the exit code. */
static int run_prepare(struct cli_run *r, struct cli_target *tg, const char *path,
		       const struct target_progress *pg)
{
	struct probe_cfg pc;
	int ret;

	tg->run = r;
	tg->o = *r->o;
	tg->o.path = path;
	tg->o.name = r->o->names[tg - r->tg];
	tg->sb = (struct sbuf)SBUF_INIT;
	pthread_mutex_init(&tg->iv_lock, NULL);
	tg->state = CLI_TARGET_UNUSED;
	tg->msg[0] = '\0';
	if ((ret = cli_target_open(&tg->o, &tg->t, pg, &tg->ret, tg->msg, sizeof(tg->msg))))
		return ret;
	if (cli_engine_start(&tg->o, &tg->t, r->ops, &tg->eng, &tg->buf, r->n < r->ncpu)) {
		target_close_apart(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	tg->p = prober_alloc(r->n);
	if (!tg->p) {
		cli_msg("out of memory");
		engine_stop(&tg->eng);
		cli_buffers_free(tg->buf, cli_buffers_len(&tg->o, &tg->t));
		target_close_apart(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	cli_probe_cfg(&tg->o, &pc);
	cli_report_cfg(&tg->o, &tg->t, &tg->rc);
	tg->rc.raw_target = r->n > 1;
	probe_init(tg->p, &pc, &tg->t, &tg->eng, tg->buf);
	if (tg->lay) /* the programs' record, shared with the probe's process to come */
		tg->p->layers = layers_shared(tg->lay);
	/* shared with the probe's process: the watchdog's block, else the probe's own */
	tg->p->ctl = r->wd.ctl ? &r->wd.ctl[tg - r->tg] : prober_ctl(tg->p);
	tg->msg[0] = '\0';
	tg->state = CLI_TARGET_READY;
	return 0;
}

/*
 * Release target tg; its descriptor goes into fds[*nfds] (to be dropped by
 * child_close_apart with the run's others), or, with fds NULL, is dropped apart at once.
 */
static void run_release(struct cli_target *tg, int *fds, size_t *nfds)
{
	if (tg->state != CLI_TARGET_UNUSED) {
		prober_free(tg->p);
		engine_stop(&tg->eng); /* its registered file goes while the descriptor is ours */
		cli_buffers_free(tg->buf, cli_buffers_len(&tg->o, &tg->t));
		if (fds && tg->t.fd >= 0) {
			fds[(*nfds)++] = tg->t.fd;
			tg->t.fd = -1;
		}
		target_close_apart(&tg->t);
		tg->state = CLI_TARGET_UNUSED;
	}
	sbuf_free(&tg->sb);
	free(tg->iv_lat[0]);
	free(tg->iv_lat[1]);
	tg->iv_lat[0] = tg->iv_lat[1] = NULL;
	free(tg->iv_lay[0]);
	free(tg->iv_lay[1]);
	tg->iv_lay[0] = tg->iv_lay[1] = NULL;
	if (tg->run)
		pthread_mutex_destroy(&tg->iv_lock);
}

/* Release every target of r; their descriptors dropped together in one process apart. */
static void run_release_all(struct cli_run *r)
{
	int *fds = malloc(r->n * sizeof(*fds));
	size_t nfds = 0;

	for (size_t i = 0; i < r->n; i++)
		run_release(&r->tg[i], fds, fds ? &nfds : NULL);
	if (fds)
		child_close_apart(fds, nfds);
	free(fds);
}

/* Prepare every target; the worst preparation code (0 when all were); *ready: how many were. */
static int run_prepare_all(struct cli_run *r, const struct target_progress *pg, size_t *ready)
{
	int code = CLI_EXIT_OK;

	*ready = 0;
	for (size_t i = 0; i < r->n && !cli_stop; i++) {
		int c = run_prepare(r, &r->tg[i], r->o->paths[i], r->n == 1 ? pg : NULL);

		code = c > code ? c : code;
		*ready += !c;
	}
	return code;
}

/* Stop the watchdog; the recorder stops reading its pages first. */
static void run_watchdog_stop(struct cli_run *r)
{
	if (r->rec)
		recorder_unwatch(r->rec);
	watchdog_stop(&r->wd);
}

/*
 * Hang warnings ("ioprobe: request in flight for 5.0 s", naming the target when there are
 * several), from one watchdog process for all; started before any target is opened (it
 * holds none). Best effort: without it a hung request gets no warnings.
 */
static void run_watchdog_start(struct cli_run *r)
{
	struct sbuf *pre = calloc(r->n, sizeof(*pre));
	const char **text = calloc(r->n, sizeof(*text));

	for (size_t i = 0; pre && text && i < r->n; i++) {
		pre[i] = (struct sbuf)SBUF_INIT;
		sbuf_puts(&pre[i], "ioprobe: ");
		if (r->n > 1) {
			esc_append(&pre[i], r->o->paths[i], strlen(r->o->paths[i]));
			sbuf_puts(&pre[i], ": ");
		}
		text[i] = sbuf_str(&pre[i]);
	}
	if (pre && text)
		watchdog_start_n(&r->wd, r->n, CLI_HANG_WARN_NS, text, cli_view_message);
	for (size_t i = 0; pre && i < r->n; i++)
		sbuf_free(&pre[i]);
	free(pre);
	free(text);
}

/*
 * --listen/--prometheus/--influx: one series set per prepared target, in the
 * order given; started before the probes. Returns 0 or the exit code (said).
 */
static int run_fleet_start(struct cli_run *r, bool view)
{
	int code = cli_fleet_prepare(r->o, r->ops, r->n, &r->x);

	for (size_t i = 0; !code && r->x && i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY)
			continue;
		tg->xi = r->x->n;
		/* judged by the view, or by the run's verdict ticker where a device is watched */
		if (cli_fleet_add(r->x, &tg->o, &tg->t, tg->p, view || tg->watch)) {
			cli_fleet_end(&r->x);
			code = CLI_EXIT_PREPARE;
		}
	}
	return code ? code : cli_fleet_run(&r->x);
}

/* ---- the end: summaries, --check, the exit code ---- */

/* Target tg's end as cli_conclude() sees it. */
static void run_end_of(const struct cli_run *r, const struct cli_target *tg, struct cli_end *e)
{
	const struct account *a = tg->p ? &tg->p->acct : NULL;
	bool ran = tg->state == CLI_TARGET_RUNNING && a;

	*e = (struct cli_end){
		.rc = &tg->rc, .path = r->o->paths[tg - r->tg], .ran = ran,
		.started = ran && prober_started(tg->p), .ret = tg->ret, .msg = tg->msg,
		.critical = r->timed_out && tg->ret == -ETIMEDOUT,
		.total = ran ? &a->total : NULL,
		.read = ran && a->cfg.split ? &a->read : NULL,
		.write = ran && a->cfg.split ? &a->write : NULL, .layers = tg->ltot,
		.verdict = ran && tg->vwords[0] ? tg->vwords : NULL,
	};
}

/* Every target's end in e[0 .. r->n) (calloc'd; NULL: out of memory, said). */
static struct cli_end *run_ends(const struct cli_run *r)
{
	struct cli_end *e = calloc(r->n ? r->n : 1, sizeof(*e));

	if (!e) {
		cli_msg("out of memory");
		return NULL;
	}
	for (size_t i = 0; i < r->n; i++)
		run_end_of(r, &r->tg[i], &e[i]);
	return e;
}

static int run_end_flush(void *ctx, struct sbuf *sb)
{
	return run_flush(ctx, sb);
}

/* After every probe ended: the closing output in the order given; the worst exit code. */
static int run_conclude(struct cli_run *r, int code)
{
	struct sbuf sb = SBUF_INIT;
	struct cli_end *e = run_ends(r);
	int c;

	if (!e)
		return CLI_EXIT_PREPARE;
	pthread_mutex_lock(&r->out.lock);
	c = r->out.err ? CLI_EXIT_OK :
		cli_conclude(r->o, e, r->n, clock_realtime(), &r->out, &sb, run_end_flush, r);
	pthread_mutex_unlock(&r->out.lock);
	sbuf_free(&sb);
	free(e);
	return r->out.err ? cli_out_error(r->out.err) : c > code ? c : code;
}

/* --check-timeout: stop the run as a stop signal would, and say why at the end. */
static void run_check_timeout(void *arg)
{
	struct cli_run *r = arg;

	if (!cli_stop) {
		r->timed_out = 1;
		cli_stop = 1;
		prober_notify_stop(); /* every probe's reader wakes */
	}
}

/* --check: one plugin line (over every target; one that could not run is UNKNOWN); its state. */
static int run_check(struct cli_run *r)
{
	struct cli_end *e;
	int code;

	if (r->out.err)
		return cli_out_error(r->out.err);
	if (!(e = run_ends(r)))
		return CHECK_UNKNOWN;
	code = cli_conclude_check(r->o, e, r->n, r->timed_out);
	free(e);
	return code;
}

/*
 * --check whose timeout came while the targets were prepared: a target whose preparation
 * had a request hung is CRITICAL (the disk did not answer), one it cut short UNKNOWN, and
 * one prepared in time was not started (UNKNOWN).
 */
static int run_check_unprepared(struct cli_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state == CLI_TARGET_READY) {
			tg->ret = -ECANCELED;
			snprintf(tg->msg, sizeof(tg->msg), "not started: --check-timeout (%.1f s) "
				 "came while the targets were prepared",
				 (double)r->o->check_timeout / NS_PER_S);
		} else if (!tg->msg[0]) {
			tg->ret = tg->ret ? tg->ret : -ECANCELED;
			snprintf(tg->msg, sizeof(tg->msg), "not prepared within --check-timeout");
		}
	}
	return run_check(r);
}

/* ---- the ways to run: plain, under the view, the sweep ---- */

/* Start every prepared target's reader (one target: on this thread, after the others). */
static int run_probes(struct cli_run *r)
{
	pthread_attr_t attr;
	int code = CLI_EXIT_OK, ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RUN_STACK);
	r->base = clock_now() + 1000000; /* every thread created by then */
	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY)
			continue;
		tg->state = CLI_TARGET_RUNNING;
		if (r->n == 1) {
			run_target(tg);
			continue;
		}
		ret = pthread_create(&tg->thread, &attr, run_target, tg);
		if (ret) {
			cli_msg("%s: cannot start its thread: %s", tg->o.path, strerror(ret));
			run_release(tg, NULL, NULL);
			code = CLI_EXIT_PREPARE;
		}
	}
	pthread_attr_destroy(&attr);
	for (size_t i = 0; r->n > 1 && i < r->n; i++)
		if (r->tg[i].state == CLI_TARGET_RUNNING)
			pthread_join(r->tg[i].thread, NULL);
	return code;
}

/* The plain run: --iostat, the exporters, the JSON array, the probes, the end. */
static int run_plain(struct cli_run *r, int code)
{
	int c;

	bool judge = cli_run_judges(r->o);

	if (judge && (c = cli_iostat_prepare(r, !r->o->iostat)))
		return c;
	if (r->rec && (c = cli_record_start(r, !r->o->print_count && !r->o->print_interval)))
		return c;
	if ((c = run_fleet_start(r, false)))
		return c;
	if (judge && (c = cli_iostat_start(r))) {
		cli_fleet_end(&r->x);
		return c;
	}
	if (r->o->json && !r->o->json_lines) {
		struct sbuf open = SBUF_INIT;

		sbuf_putc(&open, '[');
		pthread_mutex_lock(&r->out.lock);
		run_flush(r, &open);
		pthread_mutex_unlock(&r->out.lock);
		sbuf_free(&open);
	}
	c = run_probes(r);
	ticker_stop(&r->check_timer);
	code = c > code ? c : code;
	ticker_stop(&r->iostat);
	if (judge && r->o->check) /* the plugin's line gives the verdict of the run's end */
		cli_iostat_final(r);
	cli_fleet_end(&r->x); /* the probes have stopped: the textfile's last version */
	run_watchdog_stop(r); /* after the exporters: its page holds the in-flight starts */
	return r->o->check ? run_check(r) : run_conclude(r, code);
}

/* view_params.judged: target ctx's judged interval to the recording (--record) and the
 * exporters. */
static void run_view_judged(void *ctx, uint64_t seq, uint64_t real,
			    const struct iostat_dev_row *rows, size_t n,
			    const struct verdict_probe *p, const struct verdict *v)
{
	struct cli_target *tg = ctx;

	if (tg->run->vrec)
		cli_vrec_judged(tg->run->vrec, (size_t)(tg - tg->run->tg), seq, real, rows, n, p,
				v);
	if (tg->run->x)
		exporters_verdict(tg->run->x, tg->xi, v, p->period_ns);
}

/* view_params.ended with --record: target ctx's last periods are written. */
static void run_view_ended(void *ctx)
{
	struct cli_target *tg = ctx;

	recorder_target_ended(tg->run->rec, (size_t)(tg - tg->run->tg));
}

/*
 * Under the view: one target's screen or the overview of several (it reads the probes
 * itself), then what it deferred on stderr, then the summaries. With --sweep on one
 * target the view steps the rate and hands back its table.
 */
static int run_view(struct cli_run *r, const struct view_ops *view, int code)
{
	struct view_params *vp = calloc(r->n, sizeof(*vp));
	struct view_cfg *vc = calloc(r->n, sizeof(*vc));
	struct cli_target **of = calloc(r->n, sizeof(*of)), *of1;
	struct sbuf deferred = SBUF_INIT, table = SBUF_INIT;
	char msg[MSG_MAX] = "";
	size_t n = 0;
	int ret = -ENOMEM, c = run_fleet_start(r, true);

	for (size_t i = 0; !c && vp && vc && of && i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY)
			continue;
		if (r->x || r->rec) { /* the exporters, the recorder beside the view: the tap */
			tg->tap = (struct probe_sink){ tg, run_on_tap, NULL, NULL, NULL,
						       run_on_skipped, NULL };
			tg->p->tap = &tg->tap;
		}
		tg->rc.raw_target = false;
		cli_view_cfg(&tg->o, &tg->t, &vc[n]);
		if (r->rec && !r->vrec && cli_vrec_new(r->rec, r->n, &r->vrec)) {
			cli_msg("out of memory");
			c = CLI_EXIT_PREPARE;
			break;
		}
		vp[n] = (struct view_params){
			.probe = tg->p, .rc = &tg->rc, .cfg = &vc[n], .engine = r->ops->name,
			.deferred_stderr = &deferred, .stop = &cli_stop,
			.message = cli_view_message, .result = &tg->ret,
			.sweep_out = r->o->sweep ? &table : NULL,
			.sweep_grid = r->o->sweep_grid ?
				      &((struct cli_grid *)r->o->sweep_grid)->g : NULL,
			.judged = r->vrec || r->x ? run_view_judged : NULL,
			.ended = r->rec ? run_view_ended : NULL, .judged_ctx = tg,
		};
		if (r->vrec)
			cli_vrec_expect(r->vrec, (size_t)(tg - r->tg));
		of[n++] = tg;
	}
	if (!c && r->rec)
		c = cli_record_start(r, true);
	if (!c && vp && vc && of) {
		cli_view_emergency = view->emergency;
		if (n == 1) /* one target's screen: its result is the probe's */
			ret = of[0]->ret = view->run(vp, 1, of[0]->msg, sizeof(of[0]->msg));
		else
			ret = view->run(vp, n, msg, sizeof(msg));
		cli_view_emergency = NULL;
	} else if (!c) {
		snprintf(msg, sizeof(msg), "out of memory");
	}
	cli_vrec_end(r->vrec);
	cli_vrec_free(r->vrec);
	r->vrec = NULL;
	cli_fleet_end(&r->x);
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	free(vp);
	free(vc);
	if (c || (n > 1 && ret)) { /* the view itself failed: nothing ran */
		if (!c)
			cli_msg("%s", msg);
		free(of);
		sbuf_free(&table);
		return c ? c : CLI_EXIT_PREPARE;
	}
	for (size_t i = 0; i < n; i++)
		of[i]->state = CLI_TARGET_RUNNING; /* ran: its summary follows */
	of1 = n ? of[0] : NULL;
	free(of);
	if (r->o->sweep) { /* the view ran the sweep: its table so far, then any failure */
		pthread_mutex_lock(&r->out.lock);
		code = run_flush(r, &table) ? cli_out_error(r->out.err) : CLI_EXIT_OK;
		pthread_mutex_unlock(&r->out.lock);
		if (of1 && of1->ret && !r->out.err) {
			cli_msg("%s", of1->msg);
			code = CLI_EXIT_RUNTIME;
		}
		sbuf_free(&table);
		return code;
	}
	sbuf_free(&table);
	if (n == 1 && of1->ret && run_says_failure(r))
		run_say(of1, of1->msg);
	return r->o->check ? run_check(r) : run_conclude(r, code);
}

/* --sweep on the command line: the target's steps (hang warnings on), then the exit code. */
static int run_sweep(struct cli_run *r)
{
	struct cli_target *tg = &r->tg[0];
	int c = cli_iostat_prepare(r, false), ret;

	if (c || (r->rec && (c = cli_record_start(r, false))))
		return c;
	ret = cli_sweep(tg, tg->msg, sizeof(tg->msg));
	run_watchdog_stop(r);
	if (r->out.err)
		return cli_out_error(r->out.err);
	if (ret) {
		cli_msg("%s", tg->msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

/* After a --qualify step's probe: the device's numbers over it (w: NULL for none), its figures. */
static void run_qualify_collect(struct cli_target *tg, struct devwatch *w, int ret)
{
	struct cli_qstep *q = tg->o.qualify_step;
	struct probe *p = tg->p;

	if (!ret && w && !devwatch_sample(w, NULL, 0)) {
		struct verdict_dev devs[DEVWATCH_MAX];
		size_t n = devwatch_verdict_devs(w, devs, DEVWATCH_MAX);

		if (n && devs[0].row) {
			q->have_dev = true;
			snprintf(q->dev, sizeof(q->dev), "%s", devs[0].name);
			q->aqu = devs[0].row->aqu_sz;
			q->await_ms = devs[0].row->await;
			q->util = devs[0].row->util;
		}
	}
	q->all = p->acct.total.valid;
	q->wall = p->acct.total.wall;
	q->requests = p->acct.total.requests;
	if (p->cfg.read_write) {
		q->read = p->acct.read;
		q->write = p->acct.write;
		q->has_read = q->has_write = true;
	} else if (p->cfg.write) {
		q->write = q->all;
		q->has_write = true;
	} else {
		q->read = q->all;
		q->has_read = true;
	}
	q->ran = !ret && !cli_stop;
}

/* A --qualify step under the view: what its done() needs. */
struct run_qdone {
	struct cli_target *tg;
	struct devwatch *w;
	bool collected;
};

/* view_qualify.done: the step's probe ended; its record filled, the battery judges it. */
static void run_qualify_done(void *ctx, int ret)
{
	struct run_qdone *d = ctx;
	struct cli_qstep *q = d->tg->o.qualify_step;

	run_qualify_collect(d->tg, d->w, ret);
	d->collected = true;
	if (q->ran && q->judge)
		q->judge(q->judge_ctx);
}

/* A --qualify step's probe under the view (-X): 0 or -errno with msg filled. */
static int run_qualify_view(struct cli_run *r, const struct view_ops *view, struct run_qdone *d,
			    char *msg, size_t msglen)
{
	struct cli_target *tg = d->tg;
	struct cli_qstep *q = tg->o.qualify_step;
	struct view_cfg vc;
	struct sbuf deferred = SBUF_INIT;
	struct view_params vp;
	int ret;

	cli_view_cfg(&tg->o, &tg->t, &vc);
	vp = (struct view_params){
		.probe = tg->p, .rc = &tg->rc, .cfg = &vc, .engine = r->ops->name,
		.deferred_stderr = &deferred, .stop = &cli_stop, .message = cli_view_message,
		.result = &tg->ret, .qualify = q->view,
	};
	q->view->done = run_qualify_done;
	q->view->done_ctx = d;
	cli_view_emergency = view->emergency;
	ret = view->run(&vp, 1, msg, msglen);
	cli_view_emergency = NULL;
	q->view->done = NULL;
	q->view->done_ctx = NULL;
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	return ret;
}

/*
 * One step of --qualify on tg (prepared; tg->o.qualify_step is the step's record): run the
 * probe quietly (or under the view), the device's diskstats sampled around it, and keep what
 * it measured; the battery's judge hears of it. Returns 0 or a negative errno with msg filled
 * (a failed request).
 */
static int run_qualify_measure(struct cli_run *r, struct cli_target *tg,
			       const struct view_ops *view, char *msg, size_t msglen)
{
	struct cli_qstep *q = tg->o.qualify_step;
	struct probe_sink quiet = { tg, NULL, NULL, NULL, cli_on_warn, NULL, cli_run_idle };
	struct devwatch *w = malloc(sizeof(*w));
	char wmsg[MSG_MAX];
	struct report_target rt = { tg->o.path, tg->t.fstype, tg->t.device, tg->t.device_size,
				    tg->o.name };
	struct sbuf desc = SBUF_INIT;
	struct run_qdone d = { tg, NULL, false };
	int ret;

	report_target_desc(&desc, &rt);
	snprintf(q->desc, sizeof(q->desc), "%s", sbuf_str(&desc));
	sbuf_free(&desc);
	q->work_size = tg->t.work_size;
	if (w && (devwatch_for_path(w, tg->o.path, NULL, wmsg, sizeof(wmsg)) ||
		  devwatch_sample(w, NULL, 0))) {
		free(w); /* no block device under the target: no device numbers */
		w = NULL;
	}
	d.w = w;
	if (view && q->view)
		ret = run_qualify_view(r, view, &d, msg, msglen);
	else
		ret = prober_run(tg->p, &quiet, &cli_stop, msg, msglen);
	if (!d.collected) /* without the view, or a view that ended before the probe did */
		run_qualify_done(&d, ret);
	free(w);
	return ret;
}

/* One step of --qualify: the target's probe measured into its record; the exit code. */
static int run_qualify_step(struct cli_run *r, const struct view_ops *view)
{
	struct cli_target *tg = &r->tg[0];
	int ret;

	if (r->n != 1 || !tg->p) /* a step has the one target; one that did not open was said */
		return CLI_EXIT_PREPARE;
	ret = run_qualify_measure(r, tg, view, tg->msg, sizeof(tg->msg));

	run_watchdog_stop(r);
	if (ret) {
		cli_msg("%s", tg->msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

/* One run of o's targets (several only without --sweep): prepare, run, release. */
static int run_targets(const struct opts *o, const struct engine_ops *ops,
		       const struct view_ops *view, const struct target_progress *pg)
{
	struct cli_run r = { .o = o, .ops = ops, .n = o->npaths };
	struct cli_grid *grid = o->sweep_grid;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t ready;
	struct filechild *rep = NULL;
	int code, recorded;
	bool whole;

	if (r.n > 1 && (code = run_check_same(o)) >= 0)
		return code;
	r.ncpu = ncpu > 0 ? (size_t)ncpu : 1;
	r.tg = calloc(r.n, sizeof(*r.tg));
	if (!r.tg) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	if (o->layers && (code = run_layers_open(&r, false))) {
		run_layers_close(&r);
		free(r.tg);
		return code;
	}
	if (!o->layers && run_layers_auto(o, ops) && run_layers_open(&r, true))
		run_layers_close(&r); /* not permitted or not there */
	/* without them --iostat's reasons are inferred, and say so */
	r.layers_tried = o->iostat && (!r.n || !r.tg[0].lay);
	if (o->report && !grid && !(rep = cli_report_create(o, &code))) {
		run_layers_close(&r);
		free(r.tg);
		return code;
	}
	outw_init(&r.out, STDOUT_FILENO, o->json_lines);
	if (grid && grid->rec) {
		r.rec = grid->rec; /* a grid's cell: the grid's one recording */
	} else if (o->record && (code = cli_record_open(&r))) {
		outw_destroy(&r.out);
		run_layers_close(&r);
		free(r.tg);
		if (rep)
			cli_report_drop(o, rep);
		return code;
	}
	if (!o->tui)
		run_watchdog_start(&r);
	/* --check-timeout bounds the whole plugin run, the preparation included */
	if (o->check && ticker_start(&r.check_timer, o->check_timeout, run_check_timeout, &r))
		cli_msg("--check-timeout: cannot start its thread; the run has no timeout");
	code = run_prepare_all(&r, pg, &ready);
	if (o->check && r.timed_out)
		code = run_check_unprepared(&r);
	else if (!ready)
		code = code ? code : CLI_EXIT_PREPARE;
	else if (cli_stop)
		code = CLI_EXIT_OK; /* interrupted while preparing: nothing measured */
	else if (o->qualify_step)
		code = run_qualify_step(&r, view);
	else if (view)
		code = run_view(&r, view, code);
	else if (o->sweep)
		code = run_sweep(&r);
	else
		code = run_plain(&r, code);
	ticker_stop(&r.check_timer);
	recorded = r.rec && r.rec->wrote;
	if (grid && grid->rec) {
		recorder_unwatch(r.rec); /* this cell's probes go; the grid's recording stays */
		r.rec = NULL;            /* the grid ends it after its last cell */
	} else if (r.rec) {
		code = cli_record_end(&r, code, &whole); /* the probes stopped: summaries, closed */
		recorded = whole ? recorded : -1;
	}
	code = cli_replay_report(o, rep, recorded, code); /* from the recording just closed */
	run_watchdog_stop(&r);
	cli_iostat_release(&r);
	run_release_all(&r);
	run_layers_close(&r);
	outw_destroy(&r.out);
	free(r.tg);
	return code;
}

/*
 * --sweep over several targets: each target's whole sweep in turn, a title before each
 * (with -J one array, each sweep object naming its target); a target that fails is
 * said and the others go on; a signal ends the run after the current sweep's finished
 * steps. Returns the worst exit code over the targets.
 */
static int run_sweep_each(const struct opts *o, const struct engine_ops *ops,
			  const struct target_progress *pg)
{
	struct sbuf title = SBUF_INIT;
	int code, worst = CLI_EXIT_OK, ret;
	bool any = false;

	for (unsigned i = 0; i < o->npaths && !cli_stop; i++) {
		struct opts one = *o;

		one.path = one.paths[0] = o->paths[i];
		one.name = one.names[0] = o->names[i];
		one.npaths = 1;
		sbuf_reset(&title);
		if (o->json)
			sbuf_puts(&title, any ? ", " : "[");
		else
			sbuf_printf(&title, "%s--- %s sweep ---\n", any ? "\n" : "", o->paths[i]);
		one.sweep_prefix = sbuf_str(&title);
		one.sweep_printed = &any;
		code = run_targets(&one, ops, NULL, pg);
		if (code > worst)
			worst = code;
	}
	if (!o->json) {
		sbuf_free(&title);
		return worst;
	}
	sbuf_reset(&title);
	sbuf_puts(&title, any ? "]\n" : "[]\n");
	ret = out_write_sbuf(STDOUT_FILENO, &title);
	sbuf_free(&title);
	return ret ? cli_out_error(ret) : worst;
}

int cli_run(const struct opts *o, const struct engine_ops *ops, const struct view_ops *view,
	    const struct target_progress *pg)
{
	if (o->npaths > 1 && o->sweep)
		return run_sweep_each(o, ops, pg);
	return run_targets(o, ops, view, pg);
}
