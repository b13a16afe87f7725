#include "config.h"

#include "cli.h"
#include "cli_int.h"
#include "cli_multi.h"

#include <errno.h>
#include <math.h>
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
#include "fiojob.h"
#include "fmt.h"
#include "json.h"
#include "sweep.h"
#include "verdict.h"
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
#include "verdict.h"
#include "view.h"
#include "watchdog.h"

/* Largest request Linux transfers in one call. */
#define CLI_MAX_RW 0x7ffff000ull

volatile sig_atomic_t cli_stop;
/* While a view runs: its async-signal-safe terminal restore, called before _exit. */
static void (*volatile cli_view_emergency)(void);
/* The last message said on stderr (--check repeats it in its UNKNOWN line). */
static char cli_last_msg[512];

static void cli_on_signal(int sig)
{
	(void)sig;
	if (cli_stop) {
		void (*restore)(void) = cli_view_emergency;

		if (restore)
			restore();
		_exit(CLI_EXIT_SIGNAL);
	}
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

/*
 * One "ioprobe: ..." line on stderr. Control characters in the text (from a
 * path or a device name) are shown escaped: a message is always one line and
 * never drives the terminal.
 */
void cli_msg(const char *fmt, ...)
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
	bool iso_time;           /* S_TIME_FORMAT=ISO: block times as iostat -t prints them then */
	/* --iostat: the probe's side of each interval, from the samples cli_on_request sees */
	pthread_mutex_t iv_lock; /* held only to add a sample or to swap the buffers */
	struct stats *iv_lat[2]; /* latencies of the interval; the probe adds to iv_lat[iv_cur] */
	int iv_cur;
	uint64_t iv_skipped;     /* skipped slots of the run, as of the last sample */
	uint64_t iv_first;       /* boottime ns the first request started; 0 = none yet */
	uint64_t iv_prev;        /* boottime ns of the previous block (the ticker's) */
	uint64_t iv_skip_mark;   /* iv_skipped at the previous block (the ticker's) */
	struct verdict_hist vhist;
	struct verdict_probe vp; /* what the run asks for (the per-interval fields are the ticker's) */
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

/* Count a finished request into the --iostat interval (brief: never waits on stdout). */
static void cli_iv_add(struct cli_ctx *c, const struct sample *s)
{
	pthread_mutex_lock(&c->iv_lock);
	if (!c->iv_first)
		c->iv_first = clock_boottime() - s->time;
	if (s->result >= 0)
		stats_add(c->iv_lat[c->iv_cur], s->time);
	c->iv_skipped = s->skipped;
	pthread_mutex_unlock(&c->iv_lock);
}

static int cli_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->x)
		exporters_request(c->x, s, n);
	if (c->watch)
		cli_iv_add(c, s);
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
 * Close the probe's interval at boottime now: swap the latency buffers and
 * fill c->vp's per-interval fields. The ticker's; the buffer it returns is
 * the one to clear after use.
 */
static struct stats *cli_iv_close(struct cli_ctx *c, uint64_t now)
{
	struct stats *lat;
	uint64_t skipped, first, from;

	pthread_mutex_lock(&c->iv_lock);
	lat = c->iv_lat[c->iv_cur];
	c->iv_cur ^= 1;
	skipped = c->iv_skipped;
	first = c->iv_first;
	pthread_mutex_unlock(&c->iv_lock);
	/* the probe's interval starts with its first request, not with the sampler */
	from = first > c->iv_prev ? first : c->iv_prev;
	c->vp.period_ns = now > from ? now - from : 0;
	if (!first)
		c->vp.period_ns = 0;
	c->vp.done = lat->count;
	c->vp.skipped = skipped - c->iv_skip_mark;
	c->vp.p50_ns = stats_percentile(lat, 50);
	c->vp.p99_ns = stats_percentile(lat, 99);
	c->iv_skip_mark = skipped;
	c->iv_prev = now;
	return lat;
}

/* The devices of the stack as the verdict reads them (rows only where complete). */
static size_t cli_verdict_devs(const struct devwatch *w, struct verdict_dev *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < w->ndev && n < max; i++, n++) {
		const struct devwatch_dev *d = &w->dev[i];

		out[n] = (struct verdict_dev){ d->name, d->state == DEVWATCH_OK ? &d->row : NULL,
					       d->max_sectors_kb, d->write_cache };
	}
	return n;
}

/* The interval's verdict on the watched stack (top first). */
static void cli_iv_judge(struct cli_ctx *c, struct verdict *v)
{
	struct verdict_dev dev[DEVWATCH_MAX];
	size_t n = cli_verdict_devs(c->watch, dev, DEVWATCH_MAX);

	verdict_judge(&c->vhist, &c->vp, dev, n, v);
}

/* The block's time line, as `iostat -t` prints it (ISO 8601 with S_TIME_FORMAT=ISO). */
static void cli_iostat_time(const struct cli_ctx *c, struct sbuf *sb)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[64];

	localtime_r(&now, &tm);
	if (c->iso_time) {
		strftime(buf, sizeof(buf), "%FT%T%z", &tm);
		sbuf_printf(sb, "%s\n", buf);
		return;
	}
	/* iostat's "%x %X" in the C locale the CLI runs in: 11/23/26 00:13:20 */
	sbuf_printf(sb, "%02d/%02d/%02d %02d:%02d:%02d\n", tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_year % 100, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * One --iostat block (every second, or every -P period): the time, sysstat's
 * `iostat -dx` header and a row per device, as `iostat -dx -t` prints them,
 * then the probe's line for the same interval and the verdict, and a blank
 * line; with -J an "iostat" object with sysstat's JSON keys, "probe" and
 * "verdict".
 */
static void cli_iostat_tick(void *arg)
{
	struct cli_ctx *c = arg;
	struct devwatch *w = c->watch;
	struct sbuf sb = SBUF_INIT;
	struct verdict v;
	struct stats *lat;
	bool any = false;
	uint64_t now = clock_boottime();
	int err = devwatch_sample(w, NULL, now);

	lat = cli_iv_close(c, now);
	if (err) {
		if (!c->iostat_failed) /* say it once, the probe goes on */
			cli_msg("--iostat: cannot read /proc/diskstats: %s", strerror(-err));
		c->iostat_failed = true;
		stats_init(lat);
		return;
	}
	for (size_t i = 0; i < w->ndev; i++)
		any |= w->dev[i].state == DEVWATCH_OK || w->dev[i].state == DEVWATCH_RESET;
	if (!any) {
		stats_init(lat);
		return;
	}
	cli_iv_judge(c, &v);
	stats_init(lat);
	pthread_mutex_lock(&c->lock);
	if (c->o->json) {
		cli_json_sep(c, &sb);
		report_json_iostat(&sb, &c->rc, w, &v, clock_realtime());
		if (c->rc.json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		cli_iostat_time(c, &sb);
		iostat_format_header(&sb);
		for (size_t i = 0; i < w->ndev; i++) {
			const struct devwatch_dev *d = &w->dev[i];

			if (d->state == DEVWATCH_OK || d->state == DEVWATCH_RESET)
				iostat_format_row(&sb, d->name, &d->row);
		}
		verdict_format_probe(&sb, &v);
		sbuf_putc(&sb, '\n');
		verdict_format(&sb, &v);
		sbuf_puts(&sb, "\n\n");
	}
	if (cli_flush(c, &sb))
		cli_stop = 1; /* stdout is gone (or full): end the run like a signal would */
	pthread_mutex_unlock(&c->lock);
	sbuf_free(&sb);
}

/* Preparation progress on a terminal: when it began and when the line was last drawn. */
struct cli_progress {
	uint64_t start, last;
};

/*
 * The working set being filled: a "\r" line on stderr, redrawn at most ten
 * times a second, erased at the end (only installed when stderr is a terminal).
 */
static void cli_on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct cli_progress *pg = arg;
	uint64_t now = clock_now();
	char a[FMT_BUFSZ], b[FMT_BUFSZ], r[FMT_BUFSZ], line[192];
	double secs;
	int n;

	if (!pg->start)
		pg->start = now;
	if (done >= total) {
		out_write(STDERR_FILENO, "\r\033[K", 4);
		return;
	}
	if (pg->last && now - pg->last < 100000000ull)
		return;
	pg->last = now;
	secs = (double)(now - pg->start) / 1e9;
	fmt_value(r, sizeof(r), secs > 0 ? fmt_trunc((double)done / secs) : 0, FMT_SIZE);
	n = snprintf(line, sizeof(line), "\rioprobe: preparing the working set: %s of %s (%s/s)"
		     "\033[K", fmt_value(a, sizeof(a), done, FMT_SIZE),
		     fmt_value(b, sizeof(b), total, FMT_SIZE), r);
	out_write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
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
	if ((o->listen || o->prometheus || o->influx || o->check) &&
	    (o->npaths > 1 || o->sweep || o->fio_job)) {
		cli_msg("--listen, --prometheus, --influx and --check take one target for now "
			"(not several, nor --sweep or --fio-job)");
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
int cli_out_error(int err)
{
	if (err == -EPIPE)
		return CLI_EXIT_OK;
	cli_msg("write error on standard output: %s", strerror(-err));
	return CLI_EXIT_RUNTIME;
}

static const struct engine_ops *cli_engine(const struct opts *o, int *code)
{
	const char *name = o->engine ? o->engine : "sync";
	const struct engine_ops *ops = engine_find(name);
	size_t len = strcspn(name, ":");
	char names[128];

	if (ops && name[len] == ':' && !ops->takes_arg) {
		cli_msg("the %s engine takes no argument: \"%s\"", ops->name, name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	if (ops && o->depth > 1 && !engine_async(ops)) {
		cli_msg("-Q %llu: the %s engine keeps one request in flight; use -A (libaio), "
			"-U (io_uring) or --engine=null for a queue depth",
			(unsigned long long)o->depth, ops->name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	if (ops)
		return ops;
	if (engine_known(name)) {
		cli_msg("the %.*s engine is not available in this build", (int)len, name);
		*code = CLI_EXIT_PREPARE;
		return NULL;
	}
	cli_msg("unknown engine \"%s\" (%s)", name, engine_names(names, sizeof(names), ", ", false));
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

void cli_probe_cfg(const struct opts *o, struct probe_cfg *pc)
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
	pc->depth = (unsigned)o->depth;
	pc->account.warmup = o->warmup;
	pc->account.min_time = o->min_time;
	pc->account.max_time = o->max_time;
	pc->account.split = o->read_write;
}

void cli_report_cfg(const struct opts *o, const struct target *t, struct report_cfg *rc)
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
	rc->response = o->depth_set || o->response;
}

static void cli_view_message(const char *text)
{
	cli_msg("%s", text);
}

static void cli_view_cfg(const struct opts *o, const struct target *t, struct view_cfg *vc)
{
	memset(vc, 0, sizeof(*vc));
	vc->path = o->path;
	vc->ascii = o->ascii;
	vc->no_color = o->no_color;
	vc->write = o->write > 0 && !o->read_write;
	vc->read_write = o->read_write;
	vc->direct = o->direct;
	vc->cached = o->cached;
	vc->sync = o->sync;
	vc->dsync = o->dsync;
	vc->burst = o->burst;
	vc->print_count = o->print_count;
	vc->print_interval = o->print_interval;
	vc->rate_limit = o->rate_limit;
	vc->speed_limit = o->speed_limit;
	vc->work_size = t->work_size;
}

/* Run the probe under the full-screen view, then print what it deferred. */
static int cli_run_view(const struct view_ops *view, struct probe *p, struct cli_ctx *c,
			const struct engine_ops *ops, const struct target *t, char *msg,
			size_t msglen)
{
	struct sbuf deferred = SBUF_INIT;
	struct view_cfg vc;
	struct view_params vp = {
		.probe = p, .rc = &c->rc, .cfg = &vc, .engine = ops->name,
		.deferred_stderr = &deferred, .stop = &cli_stop, .message = cli_view_message,
	};
	int ret;

	cli_view_cfg(c->o, t, &vc);
	cli_view_emergency = view->emergency;
	ret = view->run(&vp, msg, msglen);
	cli_view_emergency = NULL;
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	return ret;
}

/* What the run asks for, for the verdict of each --iostat interval. */
static void cli_iv_setup(struct cli_ctx *c, const struct target *t)
{
	const struct opts *o = c->o;
	const char *tf = getenv("S_TIME_FORMAT");

	c->iso_time = tf && !strcmp(tf, "ISO");
	verdict_hist_init(&c->vhist);
	memset(&c->vp, 0, sizeof(c->vp));
	c->vp.asked = opts_asked_rate(o);
	c->vp.size = t->size;
	c->vp.write_share = o->read_write ? 0.5 : o->write > 0 ? 1 : 0;
	c->vp.flush = c->vp.write_share > 0 && !o->cached;
	c->vp.depth = (unsigned)o->depth; /* requests in flight at most (-Q) */
	c->iv_prev = c->watch->prev_ns;
}

/*
 * Start the --iostat sampler (its baseline was taken at start-up). Returns 0
 * or -errno.
 */
static int cli_start_iostat(struct cli_ctx *c, const struct target *t)
{
	const struct opts *o = c->o;
	int ret;

	c->iv_lat[0] = malloc(sizeof(struct stats));
	c->iv_lat[1] = malloc(sizeof(struct stats));
	if (!c->iv_lat[0] || !c->iv_lat[1]) {
		cli_msg("out of memory");
		return -ENOMEM;
	}
	stats_init(c->iv_lat[0]);
	stats_init(c->iv_lat[1]);
	cli_iv_setup(c, t);
	ret = ticker_start(&c->iostat, o->print_interval ? o->print_interval : 1000000000ull,
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

/* One finished step of the sweep: judge it and fill its table row. */
static void cli_sweep_row(const struct cli_ctx *c, const struct probe *p, double rate,
			  struct verdict_hist *h, struct verdict *v, struct sweep_row *r)
{
	const struct opts *o = c->o;
	const struct tally *t = &p->acct.total;
	struct verdict_dev devs[DEVWATCH_MAX];
	size_t n = cli_verdict_devs(c->watch, devs, DEVWATCH_MAX);
	struct verdict_probe vp = {
		.asked = rate, .size = p->target->size,
		.write_share = o->read_write ? 0.5 : (o->write > 0 ? 1.0 : 0.0),
		.flush = !o->cached, .depth = (unsigned)o->depth, .period_ns = t->wall,
		.done = t->requests,
		.skipped = t->skipped, .p50_ns = stats_percentile(&t->valid, 50),
		.p99_ns = stats_percentile(&t->valid, 99),
	};
	const struct iostat_row *row = n ? devs[0].row : NULL;

	verdict_judge(h, &vp, devs, n, v);
	*r = (struct sweep_row){
		.size = p->target->size, .asked = rate, .achieved = v->achieved,
		.expected = v->expected, .dev_rate = v->dev_rate, .p50_ns = vp.p50_ns,
		.p99_ns = vp.p99_ns, .skipped = t->skipped,
		/* response time (completion - scheduled start) when -Q or --response asks */
		.rp50_ns = o->depth_set || o->response ? stats_percentile(&t->response, 50) : 0,
		.rp99_ns = o->depth_set || o->response ? stats_percentile(&t->response, 99) : 0,
		.kept_up = v->state == VERDICT_KEEPS_UP ||
			   (v->state == VERDICT_OTHER_IO && !v->falls_short && !v->queue_building),
	};
	if (row) {
		r->areq_kb = row->avgrq_sz / 2;
		r->aqu = row->aqu_sz;
		r->await_ms = row->await;
		r->util = row->util;
		r->dev_mbs = (row->rkb_s + row->wkb_s) / 1024;
	}
}

/* Put one piece of the sweep's output on stdout (whole lines, flushed). */
static int cli_sweep_out(struct cli_ctx *c, struct sbuf *sb)
{
	int ret;

	pthread_mutex_lock(&c->lock);
	ret = cli_flush(c, sb);
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/*
 * --sweep: step the asked rate on the same target with the same options,
 * each step -w long (5 s), judge each step with the saturation verdict, print
 * the operators' table row by row and then the knee. A signal ends the sweep
 * after the steps already finished (the one in progress is not judged).
 * Returns 0 or a negative errno with msg filled (a failed request).
 */
static int cli_sweep(struct cli_ctx *c, struct probe *p, char *msg, size_t msglen)
{
	const struct opts *o = c->o;
	struct probe_cfg pc = p->cfg;
	struct sweep_plan plan;
	struct verdict_hist h;
	struct sbuf sb = SBUF_INIT;
	char bad[160] = "";
	double rate, bad_rate = 0;
	bool first = true;
	int ret = 0;

	sweep_parse(o->sweep_rates, &plan, NULL, 0); /* checked at start-up */
	verdict_hist_init(&h);
	pc.count = 0;
	pc.print_count = pc.print_interval = 0;
	pc.deadline = o->deadline_set ? o->deadline : OPTS_SWEEP_STEP;
	if (o->json)
		sbuf_puts(&sb, "{\"sweep\": [");
	else
		sweep_format_header(&sb);
	ret = cli_sweep_out(c, &sb);
	while (!ret && !cli_stop && (rate = sweep_next(&plan))) {
		struct probe_sink quiet = { c, NULL, NULL, NULL, cli_on_warn };
		struct verdict v;
		struct sweep_row r;
		struct sbuf text = SBUF_INIT;

		pc.interval = rate >= 1e9 ? 1 : (uint64_t)llround(1e9 / rate);
		probe_init(p, &pc, p->target, p->engine, p->buf);
		devwatch_sample(c->watch, NULL, 0);
		ret = probe_run(p, &quiet, &cli_stop, msg, msglen);
		if (ret || cli_stop)
			break;
		devwatch_sample(c->watch, NULL, 0);
		cli_sweep_row(c, p, rate, &h, &v, &r);
		verdict_format(&text, &v);
		r.verdict = sbuf_str(&text);
		sweep_record(&plan, rate, r.kept_up);
		if (!r.kept_up && (!bad_rate || rate < bad_rate)) {
			const char *why = verdict_reason_text(v.reason);

			bad_rate = rate; /* the knee line names the verdict's words only */
			snprintf(bad, sizeof(bad), "%s%s%s", verdict_state_text(v.state),
				 *why ? ": " : "", why);
		}
		if (o->json) {
			if (!first)
				sbuf_puts(&sb, ", ");
			sweep_json_row(&sb, &r);
		} else {
			sweep_format_row(&sb, &r);
		}
		first = false;
		sbuf_free(&text);
		ret = cli_sweep_out(c, &sb);
	}
	if (!ret) {
		struct sbuf knee = SBUF_INIT;

		if (plan.steps && (plan.ok || plan.bad))
			sweep_format_knee(&knee, &plan, p->target->size, bad[0] ? bad : NULL);
		if (o->json) {
			sbuf_puts(&sb, "], \"knee\": ");
			if (knee.len) {
				sbuf_printf(&sb, "{\"rate\": %.3f, \"size\": %llu, \"line\": ",
					    sweep_knee(&plan), (unsigned long long)p->target->size);
				knee.buf[knee.len - 1] = '\0'; /* no newline inside the string */
				json_append_string(&sb, sbuf_str(&knee));
				sbuf_puts(&sb, "}}\n");
			} else {
				sbuf_puts(&sb, "null}\n");
			}
		} else {
			sbuf_append(&sb, sbuf_str(&knee), knee.len);
		}
		sbuf_free(&knee);
		ret = cli_sweep_out(c, &sb);
	}
	sbuf_free(&sb);
	return ret;
}

int cli_engine_start(const struct opts *o, const struct target *t,
		     const struct engine_ops *ops, struct engine *eng, void **buf)
{
	struct engine_params ep = { 0 };
	int ret;

	/* one buffer per request in flight, each on its own pages */
	ep.depth = (unsigned)o->depth;
	ep.buf_stride = o->depth > 1 ? (t->size + 4095) / 4096 * 4096 : t->size;
	if (posix_memalign(buf, 4096, ep.buf_stride * o->depth)) {
		cli_msg("buffer allocation failed");
		return -ENOMEM;
	}
	memset(*buf, 0, ep.buf_stride * o->depth);
	ep.fd = t->fd;
	ep.buf = *buf;
	ep.buf_len = t->size;
	ep.nowait = o->nowait;
	ep.hipri = o->hipri;
	ep.arg = o->engine ? strchr(o->engine, ':') : NULL;
	if (ep.arg)
		ep.arg++;
	ret = engine_start(eng, ops, &ep);
	if (ret) {
		cli_msg("failed to start the %s engine: %s", ops->name, strerror(-ret));
		free(*buf);
	}
	return ret;
}

/* Prepare, probe, report. The target is open; returns the exit code. */
static int cli_run(const struct opts *o, struct target *t, const struct engine_ops *ops,
		   const struct view_ops *view, struct devwatch *watch, struct watchdog *wd)
{
	struct engine eng;
	struct probe_cfg pc;
	struct cli_ctx c = { .o = o, .sb = SBUF_INIT, .watch = watch };
	struct probe_sink sink = { &c, cli_on_request, cli_on_period, cli_on_burst_end,
				   cli_on_warn };
	struct probe *p;
	char msg[MSG_MAX] = "";
	void *buf;
	int ret = 0, code;

	if (cli_engine_start(o, t, ops, &eng, &buf))
		return CLI_EXIT_PREPARE;
	p = malloc(sizeof(*p));
	if (!p) {
		cli_msg("out of memory");
		engine_stop(&eng);
		free(buf);
		return CLI_EXIT_PREPARE;
	}
	pthread_mutex_init(&c.lock, NULL);
	pthread_mutex_init(&c.iv_lock, NULL);
	cli_probe_cfg(o, &pc);
	cli_report_cfg(o, t, &c.rc);
	probe_init(p, &pc, t, &eng, buf);
	clock_tighten_slack();
	if (view) {
		ret = cli_run_view(view, p, &c, ops, t, msg, sizeof(msg));
		code = cli_conclude(&c, p, ret, msg);
	} else if (o->sweep) {
		p->ctl = wd->ctl;
		ret = cli_sweep(&c, p, msg, sizeof(msg));
		watchdog_stop(wd);
		if (c.out_err)
			code = cli_out_error(c.out_err);
		else if (ret)
			cli_msg("%s", msg);
		code = c.out_err ? code : (ret ? CLI_EXIT_RUNTIME : CLI_EXIT_OK);
	} else if (c.watch && cli_start_iostat(&c, t)) {
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
	free(c.iv_lat[0]);
	free(c.iv_lat[1]);
	pthread_mutex_destroy(&c.iv_lock);
	pthread_mutex_destroy(&c.lock);
	free(p);
	engine_stop(&eng);
	free(buf);
	return code;
}

/* Is name one of the comma-separated names in list? */
static bool cli_name_listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strcspn(p, ",") == len && !strncmp(p, name, len))
			return true;
	}
	return false;
}

/*
 * --fio-job: watch the target's device (or the devices named with --iostat)
 * for the window without issuing a single request, then print a fio job that
 * imitates what they did. A signal ends the window early (the job covers
 * what was seen). Returns the exit code.
 */
static int cli_fio_job(const struct opts *o)
{
	struct devwatch *w = malloc(sizeof(*w));
	struct sbuf sb = SBUF_INIT;
	char msg[MSG_MAX];
	uint64_t t0;
	double seconds;
	int ret, code = CLI_EXIT_OK, jobs = 0;

	if (!w) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	ret = devwatch_for_path(w, o->path, o->iostat_devices, msg, sizeof(msg));
	if (!ret && (ret = devwatch_sample(w, NULL, 0)))
		err_set(msg, sizeof(msg), ret, "--fio-job: cannot read /proc/diskstats: %s",
			strerror(-ret));
	if (ret) {
		cli_msg("%s", msg);
		free(w);
		return CLI_EXIT_PREPARE;
	}
	t0 = clock_now();
	clock_wait_until(t0 + o->fio_job_window, &cli_stop);
	seconds = (double)(clock_now() - t0) / 1e9;
	if ((ret = devwatch_sample(w, NULL, 0))) {
		cli_msg("--fio-job: cannot read /proc/diskstats: %s", strerror(-ret));
		free(w);
		return CLI_EXIT_PREPARE;
	}
	fiojob_global(&sb, seconds, usage_version());
	for (size_t i = 0; i < w->ndev; i++) {
		const struct devwatch_dev *d = &w->dev[i];
		struct fiojob_dev fd = { d->name, d->row, d->max_sectors_kb };

		if (o->iostat_devices ? !cli_name_listed(o->iostat_devices, d->name) : i > 0)
			continue;
		if (d->state != DEVWATCH_OK) {
			cli_msg("--fio-job: %s: no complete interval to read", d->name);
			continue;
		}
		if (!fiojob_section(&sb, &fd))
			jobs++;
		else
			cli_msg("%s: no reads or writes in %.1f s, nothing to imitate", d->name,
				seconds);
	}
	if (!jobs) {
		code = CLI_EXIT_PREPARE;
	} else if ((ret = sb.error ? sb.error : out_write(STDOUT_FILENO, sbuf_str(&sb), sb.len))) {
		code = cli_out_error(ret);
	}
	sbuf_free(&sb);
	free(w);
	return code;
}

static int cli_start(int argc, char *argv[], const struct view_ops *tui)
{
	struct opts o;
	struct target t;
	struct devwatch *watch = NULL;
	struct watchdog wd = { 0 };
	struct cli_progress pg = { 0 };
	const struct target_progress progress = { cli_on_progress, &pg };
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
	if (o.npaths > 1 && (code = cli_multi_check(&o)) >= 0)
		return code;
	code = CLI_EXIT_OK;
	if (o.fio_job) {
		cli_signals();
		return cli_fio_job(&o);
	}
	ops = cli_engine(&o, &code);
	if (!ops)
		return code;
	if (o.sweep) {
		struct sweep_plan plan;

		if (sweep_parse(o.sweep_rates, &plan, msg, sizeof(msg))) {
			cli_msg("%s", msg);
			return CLI_EXIT_USAGE;
		}
		if (o.tui) {
			cli_msg("--sweep runs on the command line; it cannot be combined with --tui");
			return CLI_EXIT_USAGE;
		}
	}
	if (o.tui) {
		if (!tui) {
			cli_msg("this ioprobe was built without the full-screen view (--tui)");
			return CLI_EXIT_PREPARE;
		}
		ret = tui->check(msg, sizeof(msg));
		if (ret) {
			cli_msg("%s", msg);
			return ret == -ENOTTY ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
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
	if (o.npaths > 1)
		return cli_multi_run(&o, ops);
	if (!o.tui) /* best effort: without it a hung request just gets no warnings */
		watchdog_start(&wd, CLI_HANG_WARN_NS, "ioprobe: ");
	ret = target_open(&t, &o, &cli_stop, isatty(STDERR_FILENO) ? &progress : NULL, msg,
			  sizeof(msg));
	if (ret) {
		watchdog_stop(&wd);
		cli_msg("%s", msg);
		return ret == -EDOM ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	if (o.iostat || o.sweep) { /* a sweep judges every step by the device's rows */
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
