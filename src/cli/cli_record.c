/*
 * cli_record: --record wired to the run of N targets: the recorder hears
 * what the probes' sinks hear and what --iostat judged (under the view, what
 * its iostat panels judged: cli_vrecord.c); its file is made before anything
 * is prepared, its header written once the targets and their devices are
 * known, its summaries after the probes stopped. Reading a recording back is
 * cli_recin.c's, printing it cli_replay.c's.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "clock.h"
#include "devwatch.h"
#include "exporters.h"
#include "msg.h"
#include "opener.h"
#include "recorder.h"
#include "usage.h"

static void cli_record_warn(const char *text)
{
	cli_msg("%s", text);
}

int cli_record_open_n(const struct opts *o, size_t n, struct recorder **rec)
{
	struct recorder_cfg cfg = { .path = o->record, .requests = o->record_requests,
				    .warn = cli_record_warn, .stop = &cli_stop,
				    .stop_at = &cli_stop_at, .grace = OPENER_GRACE_NS };
	char msg[MSG_MAX];
	int ret;

	*rec = malloc(sizeof(**rec));
	if (!*rec) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	ret = recorder_open(*rec, &cfg, n, msg, sizeof(msg));
	if (ret) {
		cli_msg("%s", msg);
		free(*rec);
		*rec = NULL;
		return ret == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	return 0;
}

int cli_record_open(struct cli_run *r)
{
	return cli_record_open_n(r->o, r->n, &r->rec);
}

/* Target tg's devices as the verdict reads them: its watch's, else its stack's. */
static void cli_record_stack(const struct cli_target *tg, struct rec_target *rt)
{
	struct devwatch *w = tg->watch, *own = NULL;
	char msg[MSG_MAX];

	if (!w) {
		own = malloc(sizeof(*own));
		if (own && !devwatch_for_path(own, tg->o.path, NULL, msg, sizeof(msg)))
			w = own;
	}
	for (size_t k = 0; w && k < w->ndev && rt->ndev < REC_DEVS; k++) {
		struct rec_dev *d = &rt->dev[rt->ndev++];

		snprintf(d->name, sizeof(d->name), "%s", w->dev[k].name);
		d->max_sectors_kb = w->dev[k].max_sectors_kb;
		d->max_segments = w->dev[k].max_segments;
		d->write_cache = w->dev[k].write_cache;
	}
	free(own);
}

/* Does the run watch a target's device (its verdicts are judged: cli_iostat_prepare)? */
static bool cli_record_watched(const struct cli_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->tg[i].watch)
			return true;
	return false;
}

/* The header: the run's settings, its targets and their devices; the writer started. */
static int cli_record_header(struct cli_run *r, bool own_periods)
{
	const struct opts *o = r->o;
	struct rec_header h = { 0 };
	struct rec_target *t = calloc(r->n, sizeof(*t));
	struct { char device[64], disk[64]; } *mdev = calloc(r->n, sizeof(*mdev));
	struct utsname un;
	char host[256] = "", msg[MSG_MAX];
	int ret;

	if (!t || !mdev) {
		cli_msg("out of memory");
		free(t);
		free(mdev);
		return CLI_EXIT_PREPARE;
	}
	if (gethostname(host, sizeof(host) - 1))
		host[0] = '\0';
	h.ioprobe = usage_version();
	h.host = host;
	h.kernel = uname(&un) ? "" : un.release;
	h.engine = r->ops->name;
	h.real = clock_realtime();
	h.argc = (size_t)o->argc;
	h.argv = (const char *const *)o->argv;
	h.size = opts_request_size(o);
	h.interval = opts_interval(o);
	h.asked = opts_asked_rate(o);
	h.depth = (unsigned)o->depth;
	h.write = opts_writes_only(o);
	h.read_write = o->read_write;
	h.cached = o->cached;
	h.direct = o->direct;
	h.sync = o->sync;
	h.dsync = o->dsync;
	h.burst = o->burst;
	h.rate_limit = o->rate_limit;
	h.speed_limit = o->speed_limit;
	h.response = opts_response(o);
	/* the view's panels, or the plain run's verdicts (printed, or the fleet outputs' and
	 * --check's on the targets it watches) */
	h.iostat = o->iostat || (o->tui && !o->sweep && !o->qualify_step) ||
		   (!o->tui && !o->sweep && !o->qualify_step && cli_run_judges(o) &&
		    cli_record_watched(r));
	h.requests = o->record_requests;
	if (own_periods) {
		h.period = o->print_interval ? o->print_interval : OPTS_IOSTAT_PERIOD;
	} else if (o->sweep) {
		h.print_interval = o->deadline ? o->deadline : OPTS_SWEEP_STEP; /* a step each */
	} else {
		h.print_count = o->print_count;
		h.print_interval = o->print_interval;
	}
	r->rec->cfg.period = h.period;
	h.ntargets = r->n;
	h.target = t;
	for (size_t i = 0; i < r->n; i++) {
		const struct cli_target *tg = &r->tg[i];

		t[i].path = o->paths[i];
		t[i].name = tg->o.name ? tg->o.name : "";
		t[i].fstype = "";
		t[i].device = "";
		if (tg->state != CLI_TARGET_READY)
			continue;
		h.size = tg->rc.size;
		t[i].fstype = tg->rc.target.fstype;
		t[i].device = tg->rc.target.device;
		t[i].device_size = tg->rc.target.device_size;
		exporters_devices_of(tg->o.path, mdev[i].device, sizeof(mdev[i].device),
				     mdev[i].disk, sizeof(mdev[i].disk));
		t[i].mdevice = mdev[i].device;
		t[i].mdisk = mdev[i].disk;
		cli_record_stack(tg, &t[i]);
		recorder_running(r->rec, i);
	}
	ret = recorder_start(r->rec, &h, msg, sizeof(msg));
	free(t);
	free(mdev);
	if (ret) {
		cli_msg("%s", msg);
		return CLI_EXIT_PREPARE;
	}
	return 0;
}

int cli_record_start(struct cli_run *r, bool own_periods)
{
	/* hang warnings as the watchdog says them, from each probe's request in flight */
	for (size_t i = 0; i < r->n; i++)
		if (r->tg[i].state == CLI_TARGET_READY && r->tg[i].p && r->tg[i].p->ctl)
			recorder_watch(r->rec, i, r->tg[i].p->ctl, CLI_HANG_WARN_NS);
	if (r->rec->wrote) /* a grid's later cell: the grid's recording has its header */
		return 0;
	return cli_record_header(r, own_periods);
}

static size_t cli_record_index(const struct cli_target *tg)
{
	return (size_t)(tg - tg->run->tg);
}

void cli_record_request(struct cli_target *tg, const struct sample *s, enum notice n)
{
	recorder_request(tg->run->rec, cli_record_index(tg), s, n);
}

void cli_record_skipped(struct cli_target *tg, uint64_t hi, uint64_t step, uint64_t n)
{
	recorder_skipped(tg->run->rec, cli_record_index(tg), hi, step, n);
}

void cli_record_period(struct cli_target *tg, const struct tally *t)
{
	recorder_period(tg->run->rec, cli_record_index(tg), t);
}

void cli_record_warning(struct cli_target *tg, const char *text)
{
	recorder_warning(tg->run->rec, (long)cli_record_index(tg), text);
}

void cli_record_failure(struct cli_target *tg)
{
	recorder_failure(tg->run->rec, (long)cli_record_index(tg), -tg->ret, tg->msg);
}

uint64_t cli_record_step(struct cli_target *tg, const struct sweep_row *r, const char *line)
{
	return recorder_step(tg->run->rec, cli_record_index(tg), tg->run->o->sweep_grid != NULL, r,
			     line);
}

void cli_record_knee(struct cli_target *tg, const char *text, long knee)
{
	recorder_knee(tg->run->rec, cli_record_index(tg), false, text, knee, -1, -1);
}

/* Close rec (freed); code, or 3 for 0 when the recording is not whole (said). */
static int cli_record_close(struct recorder *rec, int code, bool *whole)
{
	*whole = !recorder_close(rec);
	if (!*whole) {
		cli_msg("%s; the recording could not be finished", rec->fc.msg);
		code = code ? code : CLI_EXIT_RUNTIME;
	}
	free(rec);
	return code;
}

int cli_record_grid_end(struct recorder *rec, const char *text, long best, long limit,
			int code, int *recorded)
{
	bool wrote = rec->wrote, whole;

	if (wrote) {
		recorder_finish_periods(rec);
		recorder_knee(rec, 0, true, text, -1, best, limit);
		recorder_end(rec, code);
	}
	code = cli_record_close(rec, code, &whole);
	*recorded = !whole ? -1 : wrote;
	return code;
}

int cli_record_end(struct cli_run *r, int code, bool *whole)
{
	if (r->rec->wrote) {
		recorder_finish_periods(r->rec);
		for (size_t i = 0; i < r->n; i++) {
			const struct cli_target *tg = &r->tg[i];
			const struct account *a;

			if (tg->state != CLI_TARGET_RUNNING)
				continue;
			a = &tg->p->acct;
			recorder_summary(r->rec, i, tg->ret, tg->msg, &a->total,
					 a->cfg.split ? &a->read : NULL,
					 a->cfg.split ? &a->write : NULL, tg->ltot);
		}
		recorder_end(r->rec, code);
	}
	code = cli_record_close(r->rec, code, whole);
	r->rec = NULL;
	return code;
}
