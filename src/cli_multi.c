#include "config.h"

#include "cli_multi.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cli_int.h"
#include "clock.h"
#include "devwatch.h"
#include "exporters.h"
#include "esc.h"
#include "iostat.h"
#include "msg.h"
#include "out.h"
#include "outw.h"
#include "prober.h"
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
	size_t xi;               /* its index in run->x (the fleet outputs), when run->x */
	struct probe_sink tap;   /* beside the view: what the exporters hear of this probe */
};

/* What the targets share: stdout and its lock, --iostat. */
struct mt_run {
	const struct opts *o;
	struct outw out;         /* stdout, shared by the probe threads and the ticker */
	struct devwatch *watch;  /* --iostat devices, or NULL */
	struct ticker iostat;
	bool iostat_failed;
	size_t n;
	size_t ncpu;             /* online CPUs: more targets than that do not spin */
	struct watchdog wd;      /* hang warnings, one control block per target */
	uint64_t base;           /* when the first target's schedule starts (staggering) */
	struct mt_target *tg;
	struct exporters *x;     /* --listen, --prometheus, --influx (one series set per target) */
};

int cli_multi_check(const struct opts *o)
{
	struct stat st;

	if (o->sweep && o->tui) {
		cli_msg("--sweep over several targets runs without the view: drop -X");
		return CLI_EXIT_USAGE;
	}
	/* `-ca 3 DIR`: an ioping habit (a count glued to -c) must not become a silent second
	 * target that fails while DIR runs forever */
	for (unsigned i = 0; i < o->npaths; i++) {
		const char *opt = o->path_after_option[i];

		if (opt && stat(o->paths[i], &st) && errno == ENOENT) {
			cli_msg("no file, directory or device \"%s\" (right after \"%s\", which "
				"takes no value); nothing was run", o->paths[i], opt);
			return CLI_EXIT_USAGE;
		}
	}
	return -1;
}

/* outw_flush(); a stdout error ends every probe. The caller holds r->out.lock. */
static int mt_flush(struct mt_run *r, struct sbuf *sb)
{
	int ret = outw_flush(&r->out, sb);

	if (ret)
		cli_stop = 1;
	return ret;
}

static int mt_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct mt_target *tg = ctx;
	struct mt_run *r = tg->run;
	int ret;

	if (r->x)
		exporters_request(r->x, tg->xi, s, n);
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
	ret = mt_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->out.lock);
	return ret;
}

static int mt_on_period(void *ctx, const struct tally *t)
{
	struct mt_target *tg = ctx;
	struct mt_run *r = tg->run;
	int ret;

	if (r->o->influx) { /* whole lines under the exporters' own lock */
		ret = exporters_period(r->x, tg->xi, clock_realtime());
		if (ret) {
			pthread_mutex_lock(&r->out.lock);
			if (!r->out.err) {
				outw_keep_err(&r->out, ret);
				cli_stop = 1;
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
	ret = mt_flush(r, &tg->sb);
	pthread_mutex_unlock(&r->out.lock);
	return ret;
}

static int mt_on_burst_end(void *ctx)
{
	struct mt_target *tg = ctx;
	int ret;

	if (tg->run->o->quiet || tg->run->o->json)
		return 0;
	pthread_mutex_lock(&tg->run->out.lock);
	sbuf_putc(&tg->sb, '\n');
	ret = mt_flush(tg->run, &tg->sb);
	pthread_mutex_unlock(&tg->run->out.lock);
	return ret;
}

static void mt_on_warn(void *ctx, const char *text)
{
	struct mt_target *tg = ctx;

	cli_msg("%s: %s", tg->o.path, text);
}

/* Beside the view: the exporters hear every request (the session's tap, probe thread). */
static int mt_on_tap(void *ctx, const struct sample *s, enum notice n)
{
	struct mt_target *tg = ctx;

	exporters_request(tg->run->x, tg->xi, s, n);
	return 0;
}

static void mt_on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	struct mt_target *tg = ctx;

	if (tg->run->x)
		exporters_skipped(tg->run->x, tg->xi, hi, step, n);
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
				   mt_on_warn, mt_on_skipped };

	clock_tighten_slack(); /* per thread */
	if (tg->run->n >= tg->run->ncpu)
		clock_set_adaptive();
	mt_stagger(tg);
	tg->ret = prober_run(tg->p, &sink, &cli_stop, tg->msg, sizeof(tg->msg));
	if (tg->ret && tg->msg[0])
		cli_msg("%s: %s", tg->o.path, tg->msg);
	return NULL;
}

/* One --iostat block for the union of the targets' devices (see cli_iostat.c's). */
static void mt_iostat_tick(void *arg)
{
	struct mt_run *r = arg;
	struct devwatch *w = r->watch;
	struct sbuf sb = SBUF_INIT;
	const struct report_cfg *rc = NULL;
	struct iostat_dev_row rows[DEVWATCH_MAX];
	size_t n;
	int err = devwatch_sample(w, NULL, 0);

	if (err) {
		if (!r->iostat_failed)
			cli_msg("--iostat: cannot read /proc/diskstats: %s", strerror(-err));
		r->iostat_failed = true;
		return;
	}
	n = devwatch_rows(w, rows, DEVWATCH_MAX);
	for (size_t i = 0; i < r->n && !rc; i++)
		if (r->tg[i].state != MT_UNUSED)
			rc = &r->tg[i].rc; /* JSON's "target": the first one */
	if (!n || !rc)
		return;
	pthread_mutex_lock(&r->out.lock);
	if (r->o->json) {
		outw_json_sep(&r->out, &sb);
		report_json_iostat(&sb, rc, rows, n, NULL, clock_realtime()); /* no verdict across targets */
		if (r->o->json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		iostat_format_table(&sb, rows, n);
		sbuf_putc(&sb, '\n');
	}
	mt_flush(r, &sb);
	pthread_mutex_unlock(&r->out.lock);
	sbuf_free(&sb);
}

/*
 * One target under two names: a device node by its device number (another node made with
 * mknod, /dev/disk/by-id/...), anything else by its inode.
 */
static bool mt_same_target(const struct stat *a, const struct stat *b)
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
static int mt_check_same(const struct opts *o)
{
	struct stat *st = calloc(o->npaths, sizeof(*st));
	bool *ok = calloc(o->npaths, sizeof(*ok));
	int code = -1;

	for (unsigned i = 0; st && ok && i < o->npaths && code < 0; i++) {
		ok[i] = !stat(o->paths[i], &st[i]);
		for (unsigned j = 0; ok[i] && j < i && code < 0; j++) {
			if (ok[j] && mt_same_target(&st[j], &st[i])) {
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
	if ((ret = cli_target_open(&tg->o, &tg->t, NULL)))
		return ret;
	if (cli_engine_start(&tg->o, &tg->t, ops, &tg->eng, &tg->buf, tg->run->n < tg->run->ncpu)) {
		target_close(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	tg->p = prober_alloc();
	if (!tg->p) {
		cli_msg("out of memory");
		engine_stop(&tg->eng);
		cli_buffers_free(tg->buf, cli_buffers_len(&tg->o, &tg->t));
		target_close(&tg->t);
		return CLI_EXIT_PREPARE;
	}
	cli_probe_cfg(&tg->o, &pc);
	cli_report_cfg(&tg->o, &tg->t, &tg->rc);
	tg->rc.raw_target = true;
	probe_init(tg->p, &pc, &tg->t, &tg->eng, tg->buf);
	/* shared with the probe's process: the watchdog's block, else the probe's own */
	tg->p->ctl = r->wd.ctl ? &r->wd.ctl[tg - r->tg] : prober_ctl(tg->p);
	tg->msg[0] = '\0';
	tg->state = MT_READY;
	return 0;
}

static void mt_release(struct mt_target *tg)
{
	if (tg->state == MT_UNUSED)
		return;
	prober_free(tg->p);
	engine_stop(&tg->eng);
	cli_buffers_free(tg->buf, cli_buffers_len(&tg->o, &tg->t));
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

	if (o->influx || o->check) /* their lines are all they print */
		return;
	if (o->json) {
		outw_json_sep(&r->out, &tg->sb);
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

	pthread_mutex_lock(&r->out.lock);
	for (size_t i = 0; i < r->n && !r->out.err; i++) {
		struct mt_target *tg = &r->tg[i];
		int c = CLI_EXIT_OK;

		if (tg->state != MT_RUNNING)
			continue;
		mt_finish_one(r, tg);
		if (tg->ret || tg->p->acct.total.failed)
			c = CLI_EXIT_RUNTIME;
		code = c > code ? c : code;
	}
	if (r->o->json && !r->o->json_lines && !r->out.err) {
		sbuf_puts(&end, "]\n");
		mt_flush(r, &end);
	}
	pthread_mutex_unlock(&r->out.lock);
	sbuf_free(&end);
	return r->out.err ? cli_out_error(r->out.err) : code;
}

/*
 * --tui: every prepared target under the view's overview (it runs their
 * threads), then what it deferred on stderr. Returns the worst exit code.
 */
static int mt_view(struct mt_run *r, const struct view_ops *view, const struct engine_ops *ops)
{
	struct view_params *vp = calloc(r->n, sizeof(*vp));
	struct view_cfg *vc = calloc(r->n, sizeof(*vc));
	struct mt_target **of = calloc(r->n, sizeof(*of));
	struct sbuf deferred = SBUF_INIT;
	char msg[MSG_MAX];
	size_t n = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; vp && vc && of && i < r->n; i++) {
		struct mt_target *tg = &r->tg[i];

		if (tg->state != MT_READY)
			continue;
		tg->rc.raw_target = false;
		cli_view_cfg(&tg->o, &tg->t, &vc[n]);
		vp[n] = (struct view_params){
			.probe = tg->p, .rc = &tg->rc, .cfg = &vc[n], .engine = ops->name,
			.deferred_stderr = &deferred, .stop = &cli_stop,
			.message = cli_view_message, .result = &tg->ret,
		};
		of[n++] = tg;
	}
	if (vp && vc && of) {
		cli_view_emergency = view->emergency;
		ret = view->run_many(vp, n, msg, sizeof(msg));
		cli_view_emergency = NULL;
	} else {
		snprintf(msg, sizeof(msg), "out of memory");
	}
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	for (size_t i = 0; !ret && i < n; i++)
		of[i]->state = MT_RUNNING; /* ran: its summary follows */
	free(vp);
	free(vc);
	free(of);
	if (ret)
		cli_msg("%s", msg);
	return ret ? CLI_EXIT_PREPARE : CLI_EXIT_OK;
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

/*
 * --listen/--prometheus/--influx: one series set per prepared target, in the
 * order given; started before the probes. Returns 0 or the exit code (said).
 */
static int mt_fleet_start(struct mt_run *r, const struct engine_ops *ops)
{
	int code = cli_fleet_prepare(r->o, ops, r->n, &r->x);

	for (size_t i = 0; !code && r->x && i < r->n; i++) {
		struct mt_target *tg = &r->tg[i];

		if (tg->state != MT_READY)
			continue;
		tg->xi = r->x->n;
		if (cli_fleet_add(r->x, &tg->o, &tg->t, tg->p)) {
			cli_fleet_end(&r->x);
			code = CLI_EXIT_PREPARE;
		}
	}
	return code ? code : cli_fleet_run(&r->x);
}

/* --check: one plugin line over every target (one that could not run is UNKNOWN); its state. */
static int mt_check(struct mt_run *r)
{
	struct check_target *ct = calloc(r->n, sizeof(*ct));
	int code;

	if (!ct) {
		cli_msg("out of memory");
		return CHECK_UNKNOWN;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct mt_target *tg = &r->tg[i];

		ct[i].name = r->o->paths[i];
		if (tg->state != MT_RUNNING)
			ct[i].problem = tg->msg[0] ? tg->msg : "could not be prepared";
		else if (tg->ret)
			ct[i].problem = tg->msg[0] ? tg->msg : "the run failed";
		else
			ct[i].tally = &tg->p->acct.total;
	}
	code = cli_check_multi(r->o, ct, r->n);
	free(ct);
	return code;
}

int cli_multi_run(const struct opts *o, const struct engine_ops *ops,
		  const struct view_ops *view)
{
	struct mt_run r = { .o = o, .n = o->npaths };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t ready;
	int code, fc;

	if ((code = mt_check_same(o)) >= 0)
		return code;
	r.ncpu = ncpu > 0 ? (size_t)ncpu : 1;
	r.tg = calloc(r.n, sizeof(*r.tg));
	if (!r.tg) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	outw_init(&r.out, STDOUT_FILENO, o->json_lines);
	if (!o->tui)
		mt_watchdog_start(&r);
	code = mt_prepare_all(&r, ops, &ready);
	if (!ready) {
		code = code ? code : CLI_EXIT_PREPARE;
	} else if (cli_stop) {
		code = CLI_EXIT_OK; /* interrupted while preparing: nothing measured */
	} else if (view) { /* --listen/--prometheus beside the overview: each probe's tap */
		int c = mt_fleet_start(&r, ops);

		for (size_t i = 0; !c && r.x && i < r.n; i++) {
			r.tg[i].tap = (struct probe_sink){ &r.tg[i], mt_on_tap, NULL, NULL, NULL,
							   mt_on_skipped };
			if (r.tg[i].state == MT_READY)
				r.tg[i].p->tap = &r.tg[i].tap;
		}
		if (!c)
			c = mt_view(&r, view, ops);
		cli_fleet_end(&r.x);
		code = mt_conclude(&r, c > code ? c : code);
	} else if (o->iostat && (fc = mt_iostat_prepare(&r))) {
		code = fc;
	} else if ((fc = mt_fleet_start(&r, ops))) {
		code = fc;
		ticker_stop(&r.iostat);
	} else {
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
		cli_fleet_end(&r.x); /* the probes have stopped: the textfile's last version */
		code = o->check ? mt_check(&r) : mt_conclude(&r, code);
	}
	watchdog_stop(&r.wd);
	for (size_t i = 0; i < r.n; i++)
		mt_release(&r.tg[i]);
	free(r.watch);
	outw_destroy(&r.out);
	free(r.tg);
	return code;
}
