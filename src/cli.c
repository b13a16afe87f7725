#include "config.h"

#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "devwatch.h"
#include "check.h"
#include "engine.h"
#include "esc.h"
#include "exporters.h"
#include "msg.h"
#include "opts.h"
#include "out.h"
#include "probe.h"
#include "promfile.h"
#include "report.h"
#include "sbuf.h"
#include "target.h"
#include "ticker.h"
#include "usage.h"
#include "view.h"
#include "watchdog.h"

/* Largest request Linux transfers in one call. */
#define CLI_MAX_RW 0x7ffff000ull
/* A request in flight this long gets a warning on stderr (then at 2x, 4x, ...). */
#define CLI_HANG_WARN_NS 5000000000ull

static volatile sig_atomic_t cli_stop;
/* The last message said on stderr (--check repeats it in its UNKNOWN line). */
static char cli_last_msg[512];

static void cli_on_signal(int sig)
{
	(void)sig;
	if (cli_stop)
		_exit(CLI_EXIT_SIGNAL);
	cli_stop = 1;
}

static void cli_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cli_on_signal; /* no SA_RESTART: a signal ends the sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void cli_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * One "ioprobe: ..." line on stderr. Control characters in the text (from a
 * path or a device name) are shown escaped: a message is always one line and
 * never drives the terminal.
 */
static void cli_msg(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT, text = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(&text, fmt, ap);
	va_end(ap);
	sbuf_puts(&sb, "ioprobe: ");
	esc_append(&sb, sbuf_str(&text), text.len);
	snprintf(cli_last_msg, sizeof(cli_last_msg), "%s", sbuf_str(&sb) + 9);
	sbuf_free(&text);
	sbuf_putc(&sb, '\n');
	out_write(STDERR_FILENO, sbuf_str(&sb), sb.len);
	sbuf_free(&sb);
}

struct cli_ctx {
	const struct opts *o;
	struct report_cfg rc;
	struct sbuf sb;          /* the probe thread's line buffer */
	pthread_mutex_t lock;    /* stdout: whole pieces, one writer at a time */
	bool json_started;       /* an object was written: the next needs a separator */
	int out_err;             /* first stdout error */
	struct devwatch *watch;  /* --iostat devices, or NULL */
	struct ticker iostat;    /* --iostat sampler */
	bool iostat_failed;      /* a sample failed (said once on stderr) */
	struct exporters *x;     /* --listen, --prometheus, --influx, or NULL */
};

/* Write sb to stdout and reset it; the caller holds c->lock. */
static int cli_flush(struct cli_ctx *c, struct sbuf *sb)
{
	int ret;

	if (sb->error)
		ret = sb->error;
	else
		ret = out_write(STDOUT_FILENO, sbuf_str(sb), sb->len);
	sbuf_reset(sb);
	if (ret && !c->out_err)
		c->out_err = ret;
	return ret;
}

/* Put the separator a JSON object needs before it; the caller holds c->lock. */
static void cli_json_sep(struct cli_ctx *c, struct sbuf *sb)
{
	if (c->json_started && !c->rc.json_lines)
		sbuf_putc(sb, ',');
	c->json_started = true;
}

static int cli_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->x)
		exporters_request(c->x, s, n);
	if (c->o->quiet)
		return 0;
	pthread_mutex_lock(&c->lock);
	if (c->o->json) {
		cli_json_sep(c, &c->sb);
		report_json_request(&c->sb, &c->rc, s, n, clock_realtime());
		if (c->rc.json_lines)
			sbuf_putc(&c->sb, '\n');
	} else {
		report_request_line(&c->sb, &c->rc, s, n, clock_realtime());
	}
	ret = cli_flush(c, &c->sb);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static int cli_on_period(void *ctx, const struct tally *t)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->o->influx) {
		ret = exporters_period(c->x, clock_realtime());
		if (ret && !c->out_err)
			c->out_err = ret;
		return ret;
	}
	pthread_mutex_lock(&c->lock);
	if (c->o->json) {
		cli_json_sep(c, &c->sb);
		report_json_stat(&c->sb, &c->rc, t, clock_realtime(), false);
		if (c->rc.json_lines)
			sbuf_putc(&c->sb, '\n');
	} else {
		report_raw_line(&c->sb, &c->rc, t);
	}
	ret = cli_flush(c, &c->sb);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static int cli_on_burst_end(void *ctx)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->o->quiet || c->o->json)
		return 0;
	pthread_mutex_lock(&c->lock);
	sbuf_putc(&c->sb, '\n');
	ret = cli_flush(c, &c->sb);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static void cli_on_warn(void *ctx, const char *text)
{
	(void)ctx;
	cli_msg("%s", text);
}

/* The closing output: JSON total, raw -B line, or the human summary. */
static int cli_finish(struct cli_ctx *c, const struct probe *p)
{
	const struct opts *o = c->o;
	int ret;

	if (o->influx || o->check)
		return 0;
	pthread_mutex_lock(&c->lock);
	if (o->json) {
		cli_json_sep(c, &c->sb);
		report_json_stat(&c->sb, &c->rc, &p->acct.total, clock_realtime(), true);
		sbuf_puts(&c->sb, c->rc.json_lines ? "\n" : "]\n");
	} else if (o->batch) {
		report_raw_line(&c->sb, &c->rc, &p->acct.total);
	} else if (!(o->quiet && (o->print_count || o->print_interval))) {
		report_summary(&c->sb, &c->rc, &p->acct.total, &p->acct.read, &p->acct.write);
	}
	ret = cli_flush(c, &c->sb);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/*
 * One --iostat block (every second, or every -P period): sysstat's
 * `iostat -dx` header and a row per device, then a blank line, as iostat
 * prints them; with -J an "iostat" object with sysstat's JSON keys.
 */
static void cli_iostat_tick(void *arg)
{
	struct cli_ctx *c = arg;
	struct devwatch *w = c->watch;
	struct sbuf sb = SBUF_INIT;
	bool any = false;

	int err = devwatch_sample(w, NULL, 0);

	if (err) {
		if (!c->iostat_failed) /* say it once, the probe goes on */
			cli_msg("--iostat: cannot read /proc/diskstats: %s", strerror(-err));
		c->iostat_failed = true;
		return;
	}
	for (size_t i = 0; i < w->ndev; i++)
		any |= w->dev[i].state == DEVWATCH_OK || w->dev[i].state == DEVWATCH_RESET;
	if (!any)
		return;
	pthread_mutex_lock(&c->lock);
	if (c->o->json) {
		cli_json_sep(c, &sb);
		report_json_iostat(&sb, &c->rc, w, clock_realtime());
		if (c->rc.json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		iostat_format_header(&sb);
		for (size_t i = 0; i < w->ndev; i++) {
			const struct devwatch_dev *d = &w->dev[i];

			if (d->state == DEVWATCH_OK || d->state == DEVWATCH_RESET)
				iostat_format_row(&sb, d->name, &d->row);
		}
		sbuf_putc(&sb, '\n');
	}
	if (cli_flush(c, &sb))
		cli_stop = 1; /* stdout is gone (or full): end the run like a signal would */
	pthread_mutex_unlock(&c->lock);
	sbuf_free(&sb);
}

/* ---- fleet outputs: --listen, --prometheus, --influx, --check (exporters.c, check.c) ---- */

/* --check was given: every way out prints one plugin line (cli_main). */
static bool cli_check_wanted, cli_check_said;

/* Does the command line ask for --check (also when parsing stopped on it or before it)? */
static bool cli_argv_check(int argc, char *argv[])
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--check", 7) || !strncmp(argv[i], "-check", 6))
			return true;
	return false;
}

static void cli_fleet_warn(const char *text)
{
	cli_msg("%s", text);
}

/* Defaults the fleet modes imply, then their usage checks; -1 to go on, or the exit code. */
static int cli_fleet_setup(struct opts *o)
{
	cli_check_wanted = o->check;
	if (o->check) {
		o->ignore_error = true; /* failed requests are counted: CRITICAL */
		if (!o->count && !o->deadline_set && !o->rapid)
			o->count = 10;
		if (!o->interval_set && !o->rapid && !o->rate_limit && !o->speed_limit) {
			o->interval = 100000000ull;
			o->interval_set = true;
		}
	}
	if (o->influx && !o->print_count && !o->print_interval)
		o->print_interval = 10000000000ull;
	if (o->prometheus && !promfile_name_ok(o->prometheus)) {
		cli_msg("--prometheus: the file name must end in .prom (what node_exporter reads): "
			"\"%s\"", o->prometheus);
		return CLI_EXIT_USAGE;
	}
	if ((o->influx || o->check) && (o->json || o->batch || o->tui || (o->influx && o->check))) {
		cli_msg("--influx and --check own standard output: not with -J, -B, --tui or each "
			"other");
		return CLI_EXIT_USAGE;
	}
	if (o->check_iops && !o->check) {
		cli_msg("--check-iops needs --check");
		return CLI_EXIT_USAGE;
	}
	if (o->tui && (o->listen || o->prometheus)) {
		cli_msg("--listen and --prometheus do not run beside --tui yet");
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* Prepare and start the exporters for probe p; 0, or the exit code (said). */
static int cli_fleet_start(struct cli_ctx *c, struct probe *p, const struct target *t,
			   const struct engine_ops *ops)
{
	const struct opts *o = c->o;
	struct exporters_cfg cfg = {
		.listen = o->listen, .prom_file = o->prometheus,
		.prom_period = o->prometheus_period, .influx = o->influx, .engine = ops->name,
		.warn = cli_fleet_warn,
	};
	char msg[MSG_MAX];
	int err;

	if (!exporters_wanted(&cfg))
		return 0;
	c->x = malloc(sizeof(*c->x));
	if (!c->x) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	err = exporters_prepare(c->x, &cfg, o, t, msg, sizeof(msg));
	if (!err)
		err = exporters_start(c->x, p, msg, sizeof(msg));
	if (err) {
		cli_msg("%s", msg);
		exporters_stop(c->x);
		free(c->x);
		c->x = NULL;
		return err == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	return 0;
}

/* Stop the exporters (the textfile gets its last version). */
static void cli_fleet_stop(struct cli_ctx *c)
{
	if (!c->x)
		return;
	exporters_stop(c->x);
	free(c->x);
	c->x = NULL;
}

/* --check: the plugin line on stdout; the exit code is its state. */
static int cli_check_conclude(struct cli_ctx *c, const struct probe *p, int ret, const char *msg)
{
	const struct opts *o = c->o;
	struct check_cfg cfg = { o->check_warn, o->check_crit, o->check_iops, o->check_iops_warn,
				 o->check_iops_crit };
	struct sbuf sb = SBUF_INIT;
	enum check_state st = check_report(&sb, &cfg, &p->acct.total, ret ? msg : NULL);
	int err = sb.error ? sb.error : out_write(STDOUT_FILENO, sbuf_str(&sb), sb.len);

	sbuf_free(&sb);
	cli_check_said = true;
	if (err && err != -EPIPE)
		cli_msg("write error on standard output: %s", strerror(-err));
	return err && err != -EPIPE ? CHECK_UNKNOWN : (int)st;
}

/* --check: a run that ended before its verdict is UNKNOWN, with the last message. */
static int cli_check_unknown(int code)
{
	char line[sizeof(cli_last_msg) + 32];

	if (!cli_check_wanted || cli_check_said)
		return code;
	snprintf(line, sizeof(line), "IOPROBE UNKNOWN - %s\n",
		 cli_last_msg[0] ? cli_last_msg : "the run did not complete");
	out_write(STDOUT_FILENO, line, strlen(line));
	return CHECK_UNKNOWN;
}

/* Exit code for a stdout error: a closed pipe ends the run quietly. */
static int cli_out_error(int err)
{
	if (err == -EPIPE)
		return CLI_EXIT_OK;
	cli_msg("write error on standard output: %s", strerror(-err));
	return CLI_EXIT_RUNTIME;
}

static const struct engine_ops *cli_engine(const struct opts *o, int *code)
{
	static const char *const known[] = { "sync", "libaio", "io_uring", "null" };
	const char *name = o->engine ? o->engine : "sync";
	const struct engine_ops *ops = engine_find(name);
	size_t len = strcspn(name, ":");

	if (ops && name[len] == ':' && !ops->takes_arg) {
		cli_msg("the %s engine takes no argument: \"%s\"", ops->name, name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	if (ops)
		return ops;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strlen(known[i]) == len && !strncmp(known[i], name, len)) {
			cli_msg("the %s engine is not available in this build", known[i]);
			*code = CLI_EXIT_PREPARE;
			return NULL;
		}
	}
	cli_msg("unknown engine \"%s\" (sync, libaio, io_uring, null)", name);
	*code = CLI_EXIT_USAGE;
	return NULL;
}

/* Parse the command line; returns -1 to go on, or the exit code. */
static int cli_parse(int argc, char *argv[], struct opts *o)
{
	char msg[OPTS_MSG_MAX];
	enum opts_status st = opts_parse(argc, argv, o, msg, sizeof(msg));

	if (st == OPTS_ERR_USAGE) {
		cli_msg("%s", msg);
		out_write(STDERR_FILENO, "\n", 1);
		out_write(STDERR_FILENO, usage_text(), strlen(usage_text()));
		return CLI_EXIT_USAGE;
	}
	if (st != OPTS_OK) {
		cli_msg("%s", msg);
		return CLI_EXIT_USAGE;
	}
	switch (o->action) {
	case OPTS_HELP:
	case OPTS_USAGE: {
		int err = out_write(STDOUT_FILENO, usage_text(), strlen(usage_text()));

		if (err && err != -EPIPE)
			return cli_out_error(err);
		return o->action == OPTS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	case OPTS_VERSION: {
		char line[64];
		int err;

		snprintf(line, sizeof(line), "%s\n", usage_version());
		err = out_write(STDOUT_FILENO, line, strlen(line));
		return err ? cli_out_error(err) : CLI_EXIT_OK;
	}
	case OPTS_RUN:
		break;
	}
	return -1;
}

static void cli_probe_cfg(const struct opts *o, struct probe_cfg *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->count = o->count;
	pc->deadline = opts_deadline(o);
	pc->interval = opts_interval(o);
	pc->burst = o->burst;
	pc->print_count = o->print_count;
	pc->print_interval = o->print_interval;
	pc->seed = o->seed;
	pc->linear = o->linear;
	pc->cached = o->cached;
	pc->write = o->write > 0 && !o->read_write;
	pc->read_write = o->read_write;
	pc->ignore_error = o->ignore_error;
	pc->nowait = o->nowait;
	pc->account.warmup = o->warmup;
	pc->account.min_time = o->min_time;
	pc->account.max_time = o->max_time;
	pc->account.split = o->read_write;
}

static void cli_report_cfg(const struct opts *o, const struct target *t, struct report_cfg *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->target.path = o->path;
	rc->target.fstype = t->fstype;
	rc->target.device = t->device;
	rc->target.device_size = t->device_size;
	rc->time_format = o->time_format;
	rc->size = t->size;
	rc->write = o->write > 0 && !o->read_write;
	rc->read_write = o->read_write;
	rc->json_lines = o->json_lines;
	rc->raw_percentiles = o->raw_percentiles;
}

/* Run the probe under the full-screen view, then print what it deferred. */
static int cli_run_view(const struct view_ops *view, struct probe *p, struct cli_ctx *c,
			const struct engine_ops *ops, const struct target *t, char *msg,
			size_t msglen)
{
	struct sbuf deferred = SBUF_INIT;
	struct view_params vp = {
		.probe = p, .rc = &c->rc, .opts = c->o, .engine = ops->name, .target = t,
		.deferred_stderr = &deferred, .stop = &cli_stop,
	};
	int ret = view->run(&vp, msg, msglen);

	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	return ret;
}

/* Start the --iostat sampler (its baseline was taken at start-up). Returns 0 or -errno. */
static int cli_start_iostat(struct cli_ctx *c)
{
	const struct opts *o = c->o;
	int ret = ticker_start(&c->iostat, o->print_interval ? o->print_interval : 1000000000ull,
			       cli_iostat_tick, c);

	if (ret)
		cli_msg("--iostat: cannot start its thread: %s", strerror(-ret));
	return ret;
}

/*
 * The exit code once the probe has stopped: an output error first, then a
 * failed run (its message; with -J the totals so far still close the array,
 * so the output stays valid JSON), then the closing output, then failed
 * requests (-E).
 */
static int cli_conclude(struct cli_ctx *c, const struct probe *p, int ret, const char *msg)
{
	int err;

	if (c->o->check && !c->out_err)
		return cli_check_conclude(c, p, ret, msg);
	if (c->out_err)
		return cli_out_error(c->out_err);
	if (ret) {
		cli_msg("%s", msg);
		if (c->o->json && (err = cli_finish(c, p)))
			return cli_out_error(err);
		return CLI_EXIT_RUNTIME;
	}
	if ((err = cli_finish(c, p)))
		return cli_out_error(err);
	return p->acct.total.failed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

/* Prepare, probe, report. The target is open; returns the exit code. */
static int cli_run(const struct opts *o, struct target *t, const struct engine_ops *ops,
		   const struct view_ops *view, struct devwatch *watch, struct watchdog *wd)
{
	struct engine_params ep = { 0 };
	struct engine eng;
	struct probe_cfg pc;
	struct cli_ctx c = { .o = o, .sb = SBUF_INIT, .watch = watch };
	struct probe_sink sink = { &c, cli_on_request, cli_on_period, cli_on_burst_end,
				   cli_on_warn };
	struct probe *p;
	char msg[MSG_MAX] = "";
	void *buf;
	int ret, code;

	if (posix_memalign(&buf, 4096, t->size)) {
		cli_msg("buffer allocation failed");
		return CLI_EXIT_PREPARE;
	}
	memset(buf, 0, t->size);
	ep.fd = t->fd;
	ep.buf = buf;
	ep.buf_len = t->size;
	ep.nowait = o->nowait;
	ep.hipri = o->hipri;
	ep.arg = o->engine ? strchr(o->engine, ':') : NULL;
	if (ep.arg)
		ep.arg++;
	ret = engine_start(&eng, ops, &ep);
	if (ret) {
		cli_msg("failed to start the %s engine: %s", ops->name, strerror(-ret));
		free(buf);
		return CLI_EXIT_PREPARE;
	}
	p = malloc(sizeof(*p));
	if (!p) {
		cli_msg("out of memory");
		engine_stop(&eng);
		free(buf);
		return CLI_EXIT_PREPARE;
	}
	pthread_mutex_init(&c.lock, NULL);
	cli_probe_cfg(o, &pc);
	cli_report_cfg(o, t, &c.rc);
	probe_init(p, &pc, t, &eng, buf);
	clock_tighten_slack();
	if (view) {
		ret = cli_run_view(view, p, &c, ops, t, msg, sizeof(msg));
		code = cli_conclude(&c, p, ret, msg);
	} else if (c.watch && cli_start_iostat(&c)) {
		code = CLI_EXIT_PREPARE;
	} else if ((p->ctl = wd->ctl, code = cli_fleet_start(&c, p, t, ops))) {
		ticker_stop(&c.iostat);
	} else {
		p->ctl = wd->ctl ? wd->ctl : p->ctl; /* NULL: no hang warnings (exporters may set one) */
		if (o->json && !c.rc.json_lines) {
			sbuf_putc(&c.sb, '[');
			ret = cli_flush(&c, &c.sb);
		}
		if (!ret)
			ret = probe_run(p, &sink, &cli_stop, msg, sizeof(msg));
		ticker_stop(&c.iostat);
		cli_fleet_stop(&c); /* before the watchdog: its page holds the in-flight start */
		watchdog_stop(wd);
		code = cli_conclude(&c, p, ret, msg);
	}
	sbuf_free(&c.sb);
	pthread_mutex_destroy(&c.lock);
	free(p);
	engine_stop(&eng);
	free(buf);
	return code;
}

static int cli_start(int argc, char *argv[], const struct view_ops *tui)
{
	struct opts o;
	struct target t;
	struct devwatch *watch = NULL;
	struct watchdog wd = { 0 };
	const struct engine_ops *ops;
	char msg[MSG_MAX];
	int code, ret;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN); /* over ulimit -f a write fails with EFBIG and is reported */
	if (out_guard_std_fds())
		return CLI_EXIT_PREPARE;
	code = cli_parse(argc, argv, &o);
	cli_check_wanted = (o.check || (code >= 0 && cli_argv_check(argc, argv))) &&
			   o.action == OPTS_RUN;
	if (code >= 0)
		return code;
	if ((code = cli_fleet_setup(&o)) >= 0)
		return code;
	code = CLI_EXIT_OK;
	ops = cli_engine(&o, &code);
	if (!ops)
		return code;
	if (o.tui) {
		if (!tui) {
			cli_msg("this ioprobe was built without the full-screen view (--tui)");
			return CLI_EXIT_PREPARE;
		}
		if (tui->check(msg, sizeof(msg))) {
			cli_msg("%s", msg);
			return CLI_EXIT_USAGE;
		}
		if (o.json || o.batch) {
			cli_msg("--tui cannot be combined with -J or -B");
			return CLI_EXIT_USAGE;
		}
	}
	if (o.nowait && !o.cached && !o.direct)
		cli_msg("nowait without cached or direct I/O is supposed to fail");
	if (opts_request_size(&o) > CLI_MAX_RW) {
		/* ioping warns and goes on, then counts bytes that were never moved */
		cli_msg("this platform supports requests %llu bytes at most", CLI_MAX_RW);
		return CLI_EXIT_PREPARE;
	}

	cli_signals(); /* a signal during a long preparation ends it cleanly */
	if (!o.tui) /* best effort: without it a hung request just gets no warnings */
		watchdog_start(&wd, CLI_HANG_WARN_NS, "ioprobe: ");
	ret = target_open(&t, &o, &cli_stop, msg, sizeof(msg));
	if (ret) {
		watchdog_stop(&wd);
		cli_msg("%s", msg);
		return ret == -EDOM ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	if (o.iostat) {
		watch = malloc(sizeof(*watch));
		ret = watch ? devwatch_for_path(watch, o.path, o.iostat_devices, msg, sizeof(msg)) :
			      -ENOMEM;
		if (!ret && (ret = devwatch_sample(watch, NULL, 0)))
			err_set(msg, sizeof(msg), ret, "--iostat: cannot read /proc/diskstats: %s",
				strerror(-ret));
		if (ret) {
			watchdog_stop(&wd);
			cli_msg("%s", watch ? msg : "out of memory");
			free(watch);
			target_close(&t);
			return CLI_EXIT_PREPARE;
		}
	}
	code = cli_run(&o, &t, ops, o.tui ? tui : NULL, watch, &wd);
	watchdog_stop(&wd);
	free(watch);
	target_close(&t);
	return code;
}

int cli_main(int argc, char *argv[], const struct view_ops *tui)
{
	return cli_check_unknown(cli_start(argc, argv, tui));
}
