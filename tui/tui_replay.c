/*
 * tui_replay: a recording in the view (--replay FILE -X, view_ops.replay).
 * The view is the live one (tui_multi_drive: one target's screen, or the
 * overview of several, with their keys, layout and painting); this is only
 * what a replay adds — a cursor (recplay.h) that plays at x1, x10 or x100,
 * pauses, steps a period and jumps, its keys, the header's state (the
 * wall-clock time of the period under the cursor), and the feeding: each
 * target's model (tui_model) gets the recorded periods (and, with
 * --record-requests, the requests) up to the cursor, its iostat panel and
 * verdict the latest recorded block's, the overview's windows the requests
 * or the periods' histograms. Moving the cursor back rebuilds the models from
 * the start (periods are cheap to feed again). Without request records the
 * graph is drawn from each period's histogram buckets (the heatmap by
 * default), and the footer says so. One (the UI) thread; nothing is written.
 */
#include "config.h"

#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "common.h"
#include "recplay.h"
#include "tui_int.h"
#include "tui_keys.h"

#define RV_PLAY_MS 100   /* a playing replay's frame */
#define RV_IDLE_MS 500   /* a paused one's longest sleep */

/* How far target i's screen has been fed. */
struct rv_fed {
	size_t fed;               /* periods in the model */
	size_t req_fed;           /* requests in the model */
	size_t warn_fed;          /* warnings in the model (the run's and its own) */
};

struct rv {
	const struct view_replay *vr;
	const struct recplay *rp;
	struct recplay_cursor cur;
	struct tui_feed feed;     /* what every screen shows of the cursor */
	struct view_params *vp;   /* each target's, without a probe */
	struct rv_fed *fed;
	size_t n;
	bool ascii;
	bool moved;               /* a key moved the cursor: feed the screens again */
	struct tally scratch;     /* a period's tally, filled in */
	uint64_t last_mono;
	char state[160], clock[16]; /* clock: the cursor's, on the time axis */
	char flash[96];           /* the last cursor key's note */
	uint64_t flash_until;
};

/* ---- the screens at the cursor ---------------------------------------------------------- */

/* Target i's model and windows from scratch (before its first period), with the settings
 * and the start the view gave them (tui_new_fed, the overview). */
static void rv_model_init(struct rv *v, size_t i, const struct tui_driven *dv,
			  const struct tui_fed *p)
{
	struct tui_model_cfg mc = p->m->cfg;

	tui_model_init(p->m, &mc);
	v->fed[i] = (struct rv_fed){ 0 };
	*dv->last = 0;
	tui_ov_win_init(dv->win, dv->win->from);
}

/* A recorded request placed on the run's time line by its wall-clock end. */
static void rv_feed_request(struct rv *v, const struct tui_driven *dv, const struct tui_fed *p,
			    const struct recplay_req *q)
{
	struct sample s = q->s;
	uint64_t end = q->real > v->rp->h->real ? q->real - v->rp->h->real : 0;

	s.start = end > s.time ? end - s.time : 0;
	tui_model_replay_request(p->m, &s, q->n);
	if (s.result >= 0 && q->n != NOTICE_EMPTY) { /* as the live overview hears them */
		*dv->last = s.time;
		if (q->n == NOTICE_NONE || q->n == NOTICE_FAST || q->n == NOTICE_SLOW)
			tui_ov_win_add(dv->win, end, s.time);
	}
}

/* Without request records: a period's histogram into the overview's windows at its end. */
static void rv_feed_windows(struct rv *v, const struct tui_driven *dv, uint64_t end)
{
	const struct stats *st = &v->scratch.valid;

	for (size_t k = 0; st->count && k < STATS_BUCKETS; k++)
		if (st->hist[k])
			tui_ov_win_add_n(dv->win, end, stats_bucket_low(k) +
					 (stats_bucket_high(k) - stats_bucket_low(k)) / 2,
					 st->hist[k]);
}

/* The warnings of target i (and the run's) taken at or before t. */
static void rv_feed_warnings(struct rv *v, size_t i, const struct tui_fed *p, uint64_t t)
{
	size_t k = recplay_warnings(v->rp, t);

	for (; v->fed[i].warn_fed < k; v->fed[i].warn_fed++) {
		const struct recplay_warn *w = &v->rp->warn[v->fed[i].warn_fed];

		if (w->target < 0 || (size_t)w->target == i)
			tui_model_warning(p->m, w->text);
	}
}

/* The recorded stack's devices into io, top first, each with the block's row if it has one. */
static void rv_devices(struct rv *v, const struct rec_target *rt, struct tui_iostat *io,
		       const struct rec_row *rows, size_t nrows)
{
	size_t ndev = rt->ndev < DEVSTACK_MAX ? rt->ndev : DEVSTACK_MAX, off = 0;

	for (size_t k = 0; k < ndev; k++)
		off += (size_t)snprintf(io->stack + off, off < sizeof(io->stack) ?
					sizeof(io->stack) - off : 0, "%s%s", k ? (v->ascii ?
					" -> " : " → ") : "recorded: ", rt->dev[k].name);
	io->ndev = ndev;
	for (size_t k = 0; k < ndev; k++) {
		struct tui_iodev *d = &io->dev[k];

		snprintf(d->name, sizeof(d->name), "%s", rt->dev[k].name);
		d->rotational = -1;
		d->max_sectors_kb = rt->dev[k].max_sectors_kb;
		d->top = k == 0;
		d->leaf = k > 0 || ndev == 1;
		d->state = TUI_IO_INIT;
		d->watch = -1;
		for (size_t j = 0; j < nrows; j++) {
			if (strcmp(rows[j].name, rt->dev[k].name))
				continue;
			d->row = rows[j].row;
			d->state = rows[j].row.reset ? TUI_IO_RESET : TUI_IO_OK;
		}
	}
}

/* Target i's iostat panel and verdict: the latest block at or before t. */
static void rv_iostat(struct rv *v, size_t i, const struct tui_fed *p, uint64_t t)
{
	const struct recplay *rp = v->rp;
	const struct rec_target *rt = &rp->h->target[i];
	struct tui_iostat *io = p->io;
	size_t nb = recplay_blocks(rp, t), sel = io->sel;
	const struct recplay_side *sd = nb ? &rp->side[(nb - 1) * rp->n + i] : NULL;
	const struct rec_row *rows = NULL;
	size_t nrows = 0;

	memset(io, 0, sizeof(*io));
	p->verdict->have = false;
	if (!rp->h->iostat || !rt->ndev) {
		io->no_blockdev = true;
		snprintf(io->stack, sizeof(io->stack), "%s", !rp->h->iostat ?
			 "not recorded (the run had no --iostat)" : "no block device under it");
		return;
	}
	if (sd && sd->have) {
		rows = &rp->rows[sd->off];
		nrows = sd->n;
	} else if (nb) {
		rows = &rp->rows[rp->blk[nb - 1].off];
		nrows = rp->blk[nb - 1].n;
	}
	rv_devices(v, rt, io, rows, nrows);
	io->sel = sel < io->ndev ? sel : 0; /* the device the d key chose stays */
	if (sd && sd->have) {
		p->verdict->p = sd->probe;
		p->verdict->v = sd->v;
		p->verdict->have = true;
		io->probe_tps = sd->probe.period_ns ? (double)sd->probe.done * NS_PER_S /
						      (double)sd->probe.period_ns : 0;
	}
	io->last = nb;
}

/* Bring target i's screen to the cursor: forward from where it is, or again from the start. */
static void rv_sync_target(struct rv *v, size_t i, const struct tui_driven *dv, uint64_t t)
{
	const struct recplay_target *rt = &v->rp->t[i];
	struct rv_fed *f = &v->fed[i];
	size_t k = recplay_count(v->rp, i, t);
	bool requests = v->rp->h->requests;
	struct tui_fed p;

	tui_fed_parts(dv->t, &p);
	if (k < f->fed || recplay_warnings(v->rp, t) < f->warn_fed)
		rv_model_init(v, i, dv, &p);
	for (; f->fed < k; f->fed++) {
		const struct recplay_period *per = &rt->per[f->fed];

		for (; requests && f->req_fed < per->req_end; f->req_fed++)
			rv_feed_request(v, dv, &p, &rt->req[f->req_fed]);
		recplay_tally(v->rp, i, f->fed, &v->scratch);
		tui_model_replay_period(p.m, per->mono, &v->scratch, requests);
		if (!requests)
			rv_feed_windows(v, dv, per->mono);
	}
	rv_feed_warnings(v, i, &p, t);
	rv_iostat(v, i, &p, t);
	tui_fed_changed(dv->t);
}

/* "replay 12:34:56 · 3/10 · x10 paused": where the cursor is, in the header. */
static void rv_state(struct rv *v, uint64_t mono)
{
	const char *dot = v->ascii ? " - " : " · ";
	time_t secs = (time_t)(recplay_real_at(v->rp, v->cur.t) / 1000000000ull);
	struct tm tm;
	char clock[16] = "?";

	if (localtime_r(&secs, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	snprintf(v->clock, sizeof(v->clock), "%s", clock);
	snprintf(v->state, sizeof(v->state), "replay %s%s%zu/%zu%sx%u%s", clock, dot,
		 recplay_stop_index(v->rp, v->cur.t), v->rp->nstops, dot,
		 recplay_speed_factor(v->cur.speed),
		 v->cur.at_end ? " end" : v->cur.paused ? " paused" : "");
	v->feed.now = v->cur.t;
	v->feed.cls = v->cur.paused ? TUI_STATE_WARN : TUI_STATE_OK;
	v->feed.flash = mono < v->flash_until ? v->flash : NULL;
}

/* tui_driver.advance: the cursor moved on (or a key moved it): every screen follows. */
static bool rv_advance(void *ctx, struct tui_driven *dv, size_t n, uint64_t mono)
{
	struct rv *v = ctx;
	uint64_t dt = mono > v->last_mono ? mono - v->last_mono : 0;
	bool flash_ends = v->flash_until && mono >= v->flash_until;

	v->last_mono = mono;
	if (!recplay_cursor_advance(&v->cur, v->rp, dt) && !v->moved && !flash_ends)
		return false;
	v->moved = false;
	if (flash_ends)
		v->flash_until = 0;
	for (size_t i = 0; i < n && i < v->n; i++)
		rv_sync_target(v, i, &dv[i], v->cur.t);
	rv_state(v, mono);
	return true;
}

/* ---- keys ------------------------------------------------------------------------------- */

static void rv_flash(struct rv *v, const char *text)
{
	snprintf(v->flash, sizeof(v->flash), "%s", text);
	v->flash_until = clock_now() + TUI_NOTE_NS;
}

/* Curses' special keys as the table's characters (Home and End: rows on the overview). */
static int rv_plain_key(int ch, bool overview)
{
	switch (ch) {
	case KEY_RIGHT:
		return '.';
	case KEY_LEFT:
		return ',';
	case KEY_HOME:
		return overview ? ch : 'g';
	case KEY_END:
		return overview ? ch : 'G';
	default:
		return ch;
	}
}

static void rv_speed(struct rv *v, int d)
{
	char note[48];
	int s = (int)v->cur.speed + d;

	s = s < 0 ? 0 : s >= RECPLAY_SPEEDS ? RECPLAY_SPEEDS - 1 : s;
	v->cur.speed = (unsigned)s;
	snprintf(note, sizeof(note), "replay speed x%u", recplay_speed_factor(v->cur.speed));
	rv_flash(v, note);
}

/* tui_driver.key: the cursor's keys, on the overview and on every target's screen. */
static bool rv_key(void *ctx, int ch, bool overview)
{
	struct rv *v = ctx;
	enum tui_action act = tui_key_action_in(overview ? TUI_KEYS_REPLAY_OV : TUI_KEYS_REPLAY,
						rv_plain_key(ch, overview));

	switch (act) {
	case TUI_ACT_PLAY:
		if (v->cur.paused && v->cur.at_end) /* at the end: play again from the start */
			recplay_cursor_init(&v->cur);
		v->cur.paused = !v->cur.paused;
		v->cur.at_end = false;
		rv_flash(v, v->cur.paused ? "replay paused" : "replay playing");
		break;
	case TUI_ACT_STEP_FWD:
	case TUI_ACT_STEP_BACK:
		recplay_cursor_step(&v->cur, v->rp, act == TUI_ACT_STEP_FWD ? 1 : -1);
		break;
	case TUI_ACT_START:
	case TUI_ACT_END:
		recplay_cursor_jump(&v->cur, v->rp, act == TUI_ACT_END);
		break;
	case TUI_ACT_FASTER:
	case TUI_ACT_SLOWER:
		rv_speed(v, act == TUI_ACT_FASTER ? 1 : -1);
		break;
	default:
		return false;
	}
	v->moved = true;
	return true;
}

/* tui_driver.sleep_ms: a frame while it plays, longer when paused. */
static int rv_sleep_ms(void *ctx, uint64_t mono)
{
	struct rv *v = ctx;

	(void)mono;
	return v->cur.paused || v->cur.at_end ? RV_IDLE_MS : RV_PLAY_MS;
}

/* ---- entry ------------------------------------------------------------------------------ */

/* What the overview's help says of its windows in a replay. */
static const char rv_window_help[] =
	"p50/p99/max: the last 10 s, the last 60 s or all (w) of the recording up to the cursor; "
	"without request records from each period's histogram (bucket midpoints). last: the "
	"latest recorded request. Sparkline: a cell a second (its highest latency).";

static void rv_free(struct rv *v)
{
	free(v->vp);
	free(v->fed);
	free(v);
}

/* The replay's state before the screen opens; NULL when out of memory. */
static struct rv *rv_new(const struct view_replay *vr)
{
	struct tui_term_opts to = { vr->ascii, vr->no_color };
	struct rv *v = calloc(1, sizeof(*v));
	size_t n = vr->rp->n;

	if (!v)
		return NULL;
	v->vp = calloc(n, sizeof(*v->vp));
	v->fed = calloc(n, sizeof(*v->fed));
	if (!v->vp || !v->fed) {
		rv_free(v);
		return NULL;
	}
	v->vr = vr;
	v->rp = vr->rp;
	v->n = n;
	v->ascii = tui_term_want_ascii(&to);
	recplay_cursor_init(&v->cur);
	for (size_t i = 0; i < n; i++)
		v->vp[i] = (struct view_params){
			.rc = &vr->rc[i], .cfg = &vr->cfg[i], .engine = vr->rp->h->engine,
			.deferred_stderr = vr->deferred_stderr, .stop = vr->stop,
		};
	v->feed = (struct tui_feed){
		.now_label = v->clock, .state = v->state, .realtime_base = vr->rp->h->real,
		.own_periods = !vr->rp->h->print_count && !vr->rp->h->print_interval,
		.note = vr->damage ? "file damaged: the replay stops early" :
			!vr->rp->h->requests ? "graph from period buckets" : NULL,
		.heatmap = !vr->rp->h->requests, /* buckets, not requests: the heatmap shows them */
	};
	v->moved = true; /* the first advance feeds the screens */
	v->last_mono = clock_now();
	rv_state(v, v->last_mono);
	return v;
}

int tui_replay_run(const struct view_replay *vr, char *msg, size_t msglen)
{
	struct rv *v;
	struct tui_driver d;
	int ret;

	if (!vr->rp->n) {
		snprintf(msg, msglen, "--replay -X: the recording has no target");
		return -EINVAL;
	}
	v = rv_new(vr);
	if (!v) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	d = (struct tui_driver){
		.ctx = v, .feed = &v->feed, .advance = rv_advance, .key = rv_key,
		.sleep_ms = rv_sleep_ms, .window_help = rv_window_help,
		.ov_note = vr->damage ? "file damaged: the replay stops early" : NULL,
	};
	ret = tui_multi_drive(v->vp, v->n, &d, msg, msglen); /* the view's one run, as live */
	rv_free(v);
	return ret;
}
