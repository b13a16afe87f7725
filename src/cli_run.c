#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "exporters.h"
#include "msg.h"
#include "out.h"
#include "outw.h"
#include "probe.h"
#include "prober.h"
#include "report.h"
#include "sbuf.h"
#include "ticker.h"
#include "view.h"
#include "watchdog.h"

static int cli_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->x)
		exporters_request(c->x, 0, s, n);
	if (c->watch)
		cli_iv_add(c, s);
	if (c->o->quiet)
		return 0;
	pthread_mutex_lock(&c->out.lock);
	if (c->o->json) {
		outw_json_sep(&c->out, &c->sb);
		report_json_request(&c->sb, &c->rc, s, n, clock_realtime());
		if (c->rc.json_lines)
			sbuf_putc(&c->sb, '\n');
	} else {
		report_request_line(&c->sb, &c->rc, s, n, clock_realtime());
	}
	ret = outw_flush(&c->out, &c->sb);
	pthread_mutex_unlock(&c->out.lock);
	return ret;
}

static int cli_on_period(void *ctx, const struct tally *t)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->o->influx) {
		ret = exporters_period(c->x, 0, clock_realtime());
		outw_keep_err(&c->out, ret);
		return ret;
	}
	pthread_mutex_lock(&c->out.lock);
	if (c->o->json) {
		outw_json_sep(&c->out, &c->sb);
		report_json_stat(&c->sb, &c->rc, t, clock_realtime(), false);
		if (c->rc.json_lines)
			sbuf_putc(&c->sb, '\n');
	} else {
		report_raw_line(&c->sb, &c->rc, t);
	}
	ret = outw_flush(&c->out, &c->sb);
	pthread_mutex_unlock(&c->out.lock);
	return ret;
}

static int cli_on_burst_end(void *ctx)
{
	struct cli_ctx *c = ctx;
	int ret;

	if (c->o->quiet || c->o->json)
		return 0;
	pthread_mutex_lock(&c->out.lock);
	sbuf_putc(&c->sb, '\n');
	ret = outw_flush(&c->out, &c->sb);
	pthread_mutex_unlock(&c->out.lock);
	return ret;
}


/* Beside the view: the exporters hear every request (the session's tap, probe thread). */
static int cli_on_tap(void *ctx, const struct sample *s, enum notice n)
{
	struct cli_ctx *c = ctx;

	exporters_request(c->x, 0, s, n);
	return 0;
}

/* Skipped slots enter the exporters' response times (the account has them already). */
static void cli_on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	struct cli_ctx *c = ctx;

	if (c->x)
		exporters_skipped(c->x, 0, hi, step, n);
}

/* The closing output: JSON total, raw -B line, or the human summary. */
static int cli_finish(struct cli_ctx *c, const struct probe *p)
{
	const struct opts *o = c->o;
	int ret;

	if (o->influx || o->check)
		return 0;
	pthread_mutex_lock(&c->out.lock);
	if (o->json) {
		outw_json_sep(&c->out, &c->sb);
		report_json_stat(&c->sb, &c->rc, &p->acct.total, clock_realtime(), true);
		sbuf_puts(&c->sb, c->rc.json_lines ? "\n" : "]\n");
	} else if (o->batch) {
		report_raw_line(&c->sb, &c->rc, &p->acct.total);
	} else if (!(o->quiet && (o->print_count || o->print_interval))) {
		report_summary(&c->sb, &c->rc, &p->acct.total, &p->acct.read, &p->acct.write);
	}
	ret = outw_flush(&c->out, &c->sb);
	pthread_mutex_unlock(&c->out.lock);
	return ret;
}


/*
 * The exit code once the probe has stopped: an output error first, then a
 * failed run (its message; with -J the totals so far still close the array,
 * so the output stays valid JSON; a run given up on a hung request at a stop
 * gets its whole closing output), then the closing output, then failed
 * requests (-E).
 */
static int cli_conclude(struct cli_ctx *c, const struct probe *p, int ret, const char *msg)
{
	int err;

	if (c->o->check && !c->out.err)
		return cli_check_conclude(c, p, ret, msg);
	if (c->out.err)
		return cli_out_error(c->out.err);
	if (ret) {
		cli_msg("%s", msg);
		/* given up on a hung request: the totals up to it are whole, say them */
		if ((c->o->json || ret == -ETIMEDOUT) && (err = cli_finish(c, p)))
			return cli_out_error(err);
		return CLI_EXIT_RUNTIME;
	}
	if ((err = cli_finish(c, p)))
		return cli_out_error(err);
	return p->acct.total.failed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

/* --sweep's exit code: an output error first, then a failed step (its message). */
static int cli_sweep_conclude(struct cli_ctx *c, int ret, const char *msg)
{
	if (c->out.err)
		return cli_out_error(c->out.err);
	if (ret) {
		cli_msg("%s", msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

/* --sweep: its steps (hang warnings on), then its exit code. */
static int cli_run_sweep(struct cli_ctx *c, struct probe *p, struct watchdog *wd)
{
	char msg[MSG_MAX] = "";
	int ret;

	p->ctl = wd->ctl;
	ret = cli_sweep(c, p, msg, sizeof(msg));
	watchdog_stop(wd);
	return cli_sweep_conclude(c, ret, msg);
}

/*
 * The plain run: start --iostat's sampler and the exporters, open the JSON
 * array, probe until done, stop the helpers, report. Returns the exit code.
 */
static int cli_run_plain(struct cli_ctx *c, struct probe *p, const struct target *t,
			 const struct engine_ops *ops, struct watchdog *wd)
{
	struct probe_sink sink = { c, cli_on_request, cli_on_period, cli_on_burst_end,
				   cli_on_warn, cli_on_skipped };
	char msg[MSG_MAX] = "";
	int ret = 0, code;

	if (c->watch && cli_start_iostat(c, t))
		return CLI_EXIT_PREPARE;
	/* shared with the probe's process: the watchdog's page, else the probe's own */
	p->ctl = wd->ctl ? wd->ctl : prober_ctl(p);
	if ((code = cli_fleet_start(c, p, t, ops))) {
		ticker_stop(&c->iostat);
		return code;
	}
	if (c->o->json && !c->rc.json_lines) {
		sbuf_putc(&c->sb, '[');
		ret = outw_flush(&c->out, &c->sb);
	}
	if (c->o->quiet && !c->x && !c->watch)
		sink.request = NULL; /* nothing to say of a request: none crosses from the probe */
	if (!c->x)
		sink.skipped = NULL;
	if (!ret)
		ret = prober_run(p, &sink, &cli_stop, msg, sizeof(msg));
	ticker_stop(&c->iostat);
	cli_fleet_end(&c->x); /* before the watchdog: its page holds the in-flight start */
	watchdog_stop(wd);
	return cli_conclude(c, p, ret, msg);
}

/* Set c up for target t opened from o: stdout, the report's settings, --iostat's lock. */
static void cli_ctx_init(struct cli_ctx *c, const struct opts *o, const struct target *t,
			 struct devwatch *watch)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->sb = (struct sbuf)SBUF_INIT;
	c->watch = watch;
	outw_init(&c->out, STDOUT_FILENO, o->json_lines);
	pthread_mutex_init(&c->iv_lock, NULL);
	cli_report_cfg(o, t, &c->rc);
}

static void cli_ctx_free(struct cli_ctx *c)
{
	sbuf_free(&c->sb);
	free(c->iv_lat[0]);
	free(c->iv_lat[1]);
	pthread_mutex_destroy(&c->iv_lock);
	outw_destroy(&c->out);
}

/* Run the probe under the full-screen view, print what it deferred, report; the exit code. */
static int cli_run_view(const struct view_ops *view, struct probe *p, struct cli_ctx *c,
			const struct engine_ops *ops, const struct target *t)
{
	char msg[MSG_MAX] = "";
	struct sbuf deferred = SBUF_INIT, table = SBUF_INIT;
	struct view_cfg vc;
	struct view_params vp = {
		.probe = p, .rc = &c->rc, .cfg = &vc, .engine = ops->name,
		.deferred_stderr = &deferred, .stop = &cli_stop, .message = cli_view_message,
		.sweep_out = c->o->sweep ? &table : NULL,
	};
	struct probe_sink tap = { c, cli_on_tap, NULL, NULL, NULL, cli_on_skipped };
	int ret, code;

	if ((code = cli_fleet_start(c, p, t, ops))) /* --listen/--prometheus beside the view */
		return code;
	p->tap = c->x ? &tap : NULL;
	cli_view_cfg(c->o, t, &vc);
	cli_view_emergency = view->emergency;
	ret = view->run(&vp, msg, sizeof(msg));
	cli_view_emergency = NULL;
	cli_fleet_end(&c->x);
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	if (!c->o->sweep)
		return cli_conclude(c, p, ret, msg);
	/* the view ran the sweep: its table so far, then any failure */
	pthread_mutex_lock(&c->out.lock);
	code = outw_flush(&c->out, &table) ? cli_out_error(c->out.err) : CLI_EXIT_OK;
	pthread_mutex_unlock(&c->out.lock);
	if (ret && !c->out.err) {
		cli_msg("%s", msg);
		code = CLI_EXIT_RUNTIME;
	}
	sbuf_free(&table);
	return code;
}

/* Prepare, probe, report. The target is open; returns the exit code. */
int cli_run(const struct opts *o, struct target *t, const struct engine_ops *ops,
	    const struct view_ops *view, struct devwatch *watch, struct watchdog *wd)
{
	struct engine eng;
	struct probe_cfg pc;
	struct cli_ctx c;
	struct probe *p;
	void *buf;
	int code;

	if (cli_engine_start(o, t, ops, &eng, &buf, true))
		return CLI_EXIT_PREPARE;
	p = prober_alloc();
	if (!p) {
		cli_msg("out of memory");
		engine_stop(&eng);
		cli_buffers_free(buf, cli_buffers_len(o, t));
		return CLI_EXIT_PREPARE;
	}
	cli_ctx_init(&c, o, t, watch);
	cli_probe_cfg(o, &pc);
	probe_init(p, &pc, t, &eng, buf);
	clock_tighten_slack();
	if (view) /* with --sweep the view steps the rate itself */
		code = cli_run_view(view, p, &c, ops, t);
	else if (o->sweep)
		code = cli_run_sweep(&c, p, wd);
	else
		code = cli_run_plain(&c, p, t, ops, wd);
	cli_ctx_free(&c);
	prober_free(p);
	engine_stop(&eng);
	cli_buffers_free(buf, cli_buffers_len(o, t));
	return code;
}
