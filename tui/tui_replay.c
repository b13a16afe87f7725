/*
 * tui_replay: a recording in the view (--replay FILE -X, view_ops.replay).
 * The screens are a live run's: each target's model (tui_model) is fed the
 * recorded periods (and, with --record-requests, the requests) up to the
 * cursor, its iostat panel and verdict are the latest recorded block's, and
 * tui_draw paints them as it paints a live run. The cursor (recplay.h)
 * plays at x1, x10 or x100, pauses, steps a period and jumps; moving it back
 * rebuilds the models from the start (periods are cheap to feed again).
 * The header's state shows the wall-clock time of the period under the
 * cursor. Without request records the graph is drawn from each period's
 * histogram buckets (the heatmap by default), and the footer says so.
 * This (the UI) thread is the only one; nothing is written.
 */
#include "config.h"

#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "esc.h"
#include "recplay.h"
#include "tui_describe.h"
#include "tui_draw.h"
#include "tui_fmt.h"
#include "tui_int.h"
#include "tui_iostat.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_model.h"
#include "tui_overview.h"
#include "tui_ovrow.h"
#include "tui_panes.h"
#include "tui_ovpaint.h"
#include "tui_term.h"
#include "tui_text.h"
#include "tui_verdict.h"

#define RV_PLAY_MS 100   /* a playing replay's frame */
#define RV_IDLE_MS 500   /* a paused one's longest sleep */

struct rv_target {
	struct tui_model m;
	struct tui_iostat io;
	struct tui_verdict verdict;
	size_t fed;               /* periods in the model */
	size_t req_fed;           /* requests in the model */
	size_t warn_fed;          /* warnings in the model (the run's and its own) */
	size_t sel;               /* the iostat device shown in detail */
	struct tui_ov_win win;    /* several targets: the overview's windows */
	uint64_t last;            /* ... and its latest request (request records only) */
	char target[1024], mode[96], pace[96], period_label[48], sticky[80];
};

struct rv {
	const struct view_replay *vr;
	const struct recplay *rp;
	struct recplay_cursor cur;
	struct rv_target *tg;
	size_t n, shown;          /* the target on the screen */
	int open;                 /* several targets: the one open, -1 the overview */
	struct tui_ov_row *rows;  /* the overview's, one per target */
	size_t *order, nshow, sel, top, slowest;
	unsigned acc;              /* a target's number typed so far */
	enum tui_ov_window window;
	enum tui_ov_sort sort;
	struct tui_ov_hist hist;  /* scratch */
	struct tally scratch;     /* a period's tally, filled in */
	struct tui_panes panes;   /* the shown target's layout and the graph's scratch */
	struct tui_col cols[TUI_OV_SPARK_MAX]; /* scratch: a row's sparkline */
	bool ascii, color, help, quit, dirty;
	struct tui_show show;     /* the display keys' settings */
	uint64_t last_mono, last_draw, note_until;
	char note[96], state[160], clock[16]; /* clock: the cursor's, on the time axis */
	const char *sticky, *ov_sticky; /* the footer's, the overview status line's notes */
	struct pollfd pfd[1];
};

static void rv_note(struct rv *v, const char *text)
{
	snprintf(v->note, sizeof(v->note), "%s", text);
	v->note_until = clock_now() + TUI_NOTE_NS;
	v->dirty = true;
}

/* ---- the models at the cursor ----------------------------------------------------------- */

/* Target i's model from scratch (before its first period). */
static void rv_model_init(struct rv *v, size_t i)
{
	const struct rec_header *h = v->rp->h;
	struct tui_model_cfg mc = { 0 };

	mc.size = h->size;
	mc.interval = h->interval;
	mc.own_period = 0; /* the recorded periods close the rows */
	if (v->vr->rc[i].pcts)
		mc.pcts = *v->vr->rc[i].pcts;
	tui_model_init(&v->tg[i].m, &mc);
	v->tg[i].fed = v->tg[i].req_fed = v->tg[i].warn_fed = 0;
	v->tg[i].last = 0;
	if (v->n > 1) /* as live: the windows start after the first full interval, 1 s at least */
		tui_ov_win_init(&v->tg[i].win, h->interval > TUI_OV_SEC_NS ? h->interval :
					      TUI_OV_SEC_NS);
}

/* A recorded request placed on the run's time line by its wall-clock end. */
static void rv_feed_request(struct rv *v, struct rv_target *tg, const struct recplay_req *q)
{
	struct sample s = q->s;
	uint64_t end = q->real > v->rp->h->real ? q->real - v->rp->h->real : 0;

	s.start = end > s.time ? end - s.time : 0;
	tui_model_replay_request(&tg->m, &s, q->n);
	if (v->n > 1 && s.result >= 0 && q->n != NOTICE_EMPTY) { /* as the live overview */
		tg->last = s.time;
		if (q->n == NOTICE_NONE || q->n == NOTICE_FAST || q->n == NOTICE_SLOW)
			tui_ov_win_add(&tg->win, end, s.time);
	}
}

/* Without request records: a period's histogram into the overview's windows at its end. */
static void rv_feed_windows(struct rv *v, struct rv_target *tg, uint64_t end)
{
	const struct stats *st = &v->scratch.valid;

	for (size_t k = 0; v->n > 1 && st->count && k < STATS_BUCKETS; k++)
		if (st->hist[k])
			tui_ov_win_add_n(&tg->win, end, stats_bucket_low(k) +
					 (stats_bucket_high(k) - stats_bucket_low(k)) / 2,
					 st->hist[k]);
}

/* The warnings of target i (and the run's) taken at or before t. */
static void rv_feed_warnings(struct rv *v, size_t i, uint64_t t)
{
	struct rv_target *tg = &v->tg[i];
	size_t k = recplay_warnings(v->rp, t);

	for (; tg->warn_fed < k; tg->warn_fed++) {
		const struct recplay_warn *w = &v->rp->warn[tg->warn_fed];

		if (w->target < 0 || (size_t)w->target == i)
			tui_model_warning(&tg->m, w->text);
	}
}

/* Target i's iostat panel and verdict: the latest block at or before t. */
static void rv_iostat(struct rv *v, size_t i, uint64_t t)
{
	const struct recplay *rp = v->rp;
	const struct rec_target *rt = &rp->h->target[i];
	struct rv_target *tg = &v->tg[i];
	struct tui_iostat *io = &tg->io;
	size_t nb = recplay_blocks(rp, t), ndev = rt->ndev < DEVSTACK_MAX ? rt->ndev : DEVSTACK_MAX;
	const struct recplay_side *sd = nb ? &rp->side[(nb - 1) * rp->n + i] : NULL;
	const struct rec_row *rows = NULL;
	size_t nrows = 0, off = 0;

	memset(io, 0, sizeof(*io));
	memset(&tg->verdict, 0, sizeof(tg->verdict));
	if (!rp->h->iostat || !ndev) {
		io->no_blockdev = true;
		snprintf(io->stack, sizeof(io->stack), "%s", !rp->h->iostat ?
			 "not recorded (the run had no --iostat)" : "no block device under it");
		return;
	}
	for (size_t k = 0; k < ndev; k++)
		off += (size_t)snprintf(io->stack + off, off < sizeof(io->stack) ?
					sizeof(io->stack) - off : 0, "%s%s", k ? (v->ascii ?
					" -> " : " → ") : "recorded: ", rt->dev[k].name);
	if (sd && sd->have) {
		rows = &rp->rows[sd->off];
		nrows = sd->n;
	} else if (nb) {
		rows = &rp->rows[rp->blk[nb - 1].off];
		nrows = rp->blk[nb - 1].n;
	}
	io->ndev = ndev;
	io->sel = tg->sel < ndev ? tg->sel : 0;
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
	if (sd && sd->have) {
		tg->verdict.p = sd->probe;
		tg->verdict.v = sd->v;
		tg->verdict.have = true;
		io->probe_tps = sd->probe.period_ns ? (double)sd->probe.done * 1e9 /
						      (double)sd->probe.period_ns : 0;
	}
	io->last = nb;
}

/* Bring target i's model to the cursor: forward from where it is, or again from the start. */
static void rv_sync_target(struct rv *v, size_t i, uint64_t t)
{
	const struct recplay_target *rt = &v->rp->t[i];
	struct rv_target *tg = &v->tg[i];
	size_t k = recplay_count(v->rp, i, t);
	bool requests = v->rp->h->requests;

	if (k < tg->fed || recplay_warnings(v->rp, t) < tg->warn_fed)
		rv_model_init(v, i);
	for (; tg->fed < k; tg->fed++) {
		const struct recplay_period *p = &rt->per[tg->fed];

		for (; requests && tg->req_fed < p->req_end; tg->req_fed++)
			rv_feed_request(v, tg, &rt->req[tg->req_fed]);
		recplay_tally(v->rp, i, tg->fed, &v->scratch);
		tui_model_replay_period(&tg->m, p->mono, &v->scratch, requests);
		if (!requests)
			rv_feed_windows(v, tg, p->mono);
	}
	rv_feed_warnings(v, i, t);
	rv_iostat(v, i, t);
}

/* ---- the overview's rows (as tui_multi.c makes a live one's) ---------------------------- */

static void rv_row(struct rv *v, size_t i)
{
	struct rv_target *tg = &v->tg[i];
	struct tui_ov_input in = {
		.target = v->rp->h->target[i].path, .name = v->vr->cfg[i].name,
		.interval = v->rp->h->interval, .m = &tg->m, .io = &tg->io,
		.verdict = &tg->verdict, .win = &tg->win, .now = v->cur.t, .startup = tg->win.from,
		.last = tg->last,
	};

	tui_ov_row_fill(&v->rows[i], &in, v->window, &v->hist, v->cols);
}

static void rv_rows(struct rv *v)
{
	bool shown = false;

	if (v->n < 2)
		return;
	for (size_t i = 0; i < v->n; i++)
		rv_row(v, i);
	v->slowest = tui_ov_slowest(v->rows, v->n);
	v->nshow = tui_ov_order(v->rows, v->n, v->sort, "", v->order);
	for (size_t k = 0; k < v->nshow; k++)
		shown |= v->order[k] == v->sel;
	if (!shown && v->nshow)
		v->sel = v->order[0];
}

static void rv_relayout(struct rv *v);

static void rv_sync(struct rv *v)
{
	for (size_t i = 0; i < v->n; i++)
		rv_sync_target(v, i, v->cur.t);
	rv_rows(v);
	if (tui_panes_stale(&v->panes, &v->tg[v->shown].verdict))
		rv_relayout(v); /* a longer or shorter verdict: the panel follows it, as live */
	v->dirty = true;
}

/* ---- set-up ----------------------------------------------------------------------------- */

static void rv_describe(struct rv *v, size_t i)
{
	const struct rec_header *h = v->rp->h;
	const struct view_cfg *o = &v->vr->cfg[i];
	struct rv_target *tg = &v->tg[i];

	tui_describe_target(tg->target, sizeof(tg->target), &v->vr->rc[i].target);
	tui_describe_mode(tg->mode, sizeof(tg->mode), o, h->engine);
	tui_describe_pace(tg->pace, sizeof(tg->pace), o, h->interval, false, v->ascii);
	tui_describe_period(tg->period_label, sizeof(tg->period_label), o,
			    h->period ? h->period : TUI_TICK_NS, v->ascii);
}

static void rv_relayout(struct rv *v)
{
	tui_panes_layout(&v->panes, &v->tg[v->shown].io, &v->tg[v->shown].verdict);
	v->dirty = true;
}

/* ---- painting --------------------------------------------------------------------------- */

/* "replay 12:34:56 · 3/10 · x10 paused": where the cursor is, in the header. */
static void rv_state(struct rv *v, enum tui_state_cls *cls)
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
	*cls = v->cur.paused ? TUI_STATE_WARN : TUI_STATE_OK;
}

/* What the overview's help says of its windows in a replay. */
static const char rv_window_help[] =
	"p50/p99/max: the last 10 s, the last 60 s or all (w) of the recording up to the cursor; "
	"without request records from each period's histogram (bucket midpoints). last: the "
	"latest recorded request. Sparkline: a cell a second (its highest latency).";

static void rv_paint_overview(struct rv *v, uint64_t mono)
{
	enum tui_state_cls cls;
	struct tui_ovp p = {
		.n = v->n, .rows = v->rows, .order = v->order, .nshow = v->nshow, .sel = v->sel,
		.slowest = v->slowest, .top = v->top, .window = v->window, .sort = v->sort,
		.filter = "", .edit = "", .ascii = v->ascii, .help = v->help,
		.note = mono < v->note_until ? v->note : v->ov_sticky, .head = v->state,
		.window_help = rv_window_help, .keys = TUI_KEYS_REPLAY_OV,
	};

	rv_state(v, &cls);
	tui_ovp_paint(&p);
	v->top = p.top;
	v->last_draw = mono;
	v->dirty = false;
}

static void rv_paint(struct rv *v, uint64_t mono)
{
	struct rv_target *tg = &v->tg[v->shown];

	if (v->n > 1 && v->open < 0) {
		rv_paint_overview(v, mono);
		return;
	}
	const struct tui_model *m = &tg->m;
	struct tui_frame f;

	memset(&f, 0, sizeof(f));
	rv_state(v, &f.state_cls);
	f.target = tg->target;
	f.mode = tg->mode;
	f.pace = tg->pace;
	f.size = v->rp->h->size;
	f.work_size = 0; /* not in the recording */
	f.elapsed = v->cur.t;
	f.state = v->state;
	f.m = m;
	f.io = &tg->io;
	f.verdict = tg->io.no_blockdev ? NULL : &tg->verdict;
	f.rc = &v->vr->rc[v->shown];
	f.realtime_base = v->rp->h->real;
	f.now = v->cur.t;
	f.now_label = v->clock;
	f.total_wall = m->total.wall;
	f.period_label = tg->period_label;
	f.own_periods = !v->rp->h->print_count && !v->rp->h->print_interval;
	f.win = v->show.win;
	f.log = v->show.log;
	f.ascii = v->ascii;
	f.help = v->help;
	f.write = v->rp->h->write;
	f.response = v->show.response;
	f.heatmap = v->show.heatmap;
	f.histogram = v->show.histogram;
	f.color = v->color;
	f.note = mono < v->note_until ? v->note : m->warnings ? NULL :
		 v->n > 1 ? tg->sticky : v->sticky;
	f.keys = TUI_KEYS_REPLAY;
	tui_panes_draw(&v->panes, &f);
	v->last_draw = mono;
	v->dirty = false;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* curses' special keys as the table's characters. */
static int rv_plain_key(int ch)
{
	switch (ch) {
	case KEY_RIGHT:
		return '.';
	case KEY_LEFT:
		return ',';
	case KEY_HOME:
		return 'g';
	case KEY_END:
		return 'G';
	case KEY_F(1):
		return '?';
	default:
		return ch;
	}
}

static void rv_speed(struct rv *v, int d)
{
	char note[48];

	if (d > 0 && v->cur.speed + 1 < RECPLAY_SPEEDS)
		v->cur.speed++;
	else if (d < 0 && v->cur.speed)
		v->cur.speed--;
	snprintf(note, sizeof(note), "replay speed x%u", recplay_speed_factor(v->cur.speed));
	rv_note(v, note);
}

/* Open target i's screen (several targets). */
static void rv_open(struct rv *v, size_t i)
{
	v->open = (int)i;
	v->shown = i;
	v->help = false;
	rv_relayout(v);
}

/* Move the selection d rows in the order shown. */
static void rv_move(struct rv *v, long d)
{
	v->sel = tui_ov_move(v->order, v->nshow, v->sel, d);
}

static bool rv_cursor_key(struct rv *v, enum tui_action act);

/* A key on the overview of several targets. */
static void rv_ov_key(struct rv *v, int ch)
{
	enum tui_action act;
	char note[96];

	long page = (long)tui_ovp_fit_rows() > 0 ? (long)tui_ovp_fit_rows() : 1, all = (long)v->n;

	/* the rows are selected as in the live overview: Home and End too (g G jump the cursor) */
	if (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE || ch == KEY_NPAGE ||
	    ch == KEY_HOME || ch == KEY_END) {
		rv_move(v, ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -page :
			ch == KEY_NPAGE ? page : ch == KEY_HOME ? -all : all);
		v->dirty = true;
		return;
	}
	if (ch == KEY_ENTER)
		ch = '\n';
	v->dirty = true;
	if (v->help) {
		v->help = false;
		return;
	}
	if (ch >= '0' && ch <= '9') { /* a target's number, as many digits as it takes */
		int i = tui_ov_digit(&v->acc, ch - '0', v->n);

		if (i >= 0)
			rv_open(v, (size_t)i);
		return;
	}
	act = tui_key_action_in(TUI_KEYS_REPLAY_OV, rv_plain_key(ch));
	if (act != TUI_ACT_OPEN)
		v->acc = 0;
	if (rv_cursor_key(v, act))
		return;
	switch (act) {
	case TUI_ACT_QUIT:
		v->quit = true;
		break;
	case TUI_ACT_UP:
	case TUI_ACT_DOWN:
		rv_move(v, act == TUI_ACT_UP ? -1 : 1);
		break;
	case TUI_ACT_OPEN: {
		int i = tui_ov_digits_target(&v->acc, v->n);

		if (i >= 0 || v->nshow)
			rv_open(v, i >= 0 ? (size_t)i : v->sel);
		break;
	}
	case TUI_ACT_WINDOW:
		v->window = (enum tui_ov_window)((v->window + 1) % TUI_OV_NWINDOWS);
		snprintf(note, sizeof(note), "p50, p99, max: %s", tui_ov_window_label(v->window));
		rv_note(v, note);
		rv_rows(v);
		break;
	case TUI_ACT_SORT:
		v->sort = (enum tui_ov_sort)((v->sort + 1) % TUI_OV_NSORTS);
		snprintf(note, sizeof(note), "sorted by %s", tui_ov_sort_name(v->sort));
		rv_note(v, note);
		rv_rows(v);
		break;
	case TUI_ACT_HELP:
		v->help = true;
		break;
	case TUI_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		break;
	}
}

/* The cursor's keys, on every screen of the replay: true when act was one. */
static bool rv_cursor_key(struct rv *v, enum tui_action act)
{
	switch (act) {
	case TUI_ACT_PLAY:
		if (v->cur.paused && v->cur.at_end) /* at the end: play again from the start */
			recplay_cursor_init(&v->cur);
		v->cur.paused = !v->cur.paused;
		v->cur.at_end = false;
		rv_note(v, v->cur.paused ? "replay paused" : "replay playing");
		rv_sync(v);
		return true;
	case TUI_ACT_STEP_FWD:
	case TUI_ACT_STEP_BACK:
		recplay_cursor_step(&v->cur, v->rp, act == TUI_ACT_STEP_FWD ? 1 : -1);
		rv_sync(v);
		return true;
	case TUI_ACT_START:
	case TUI_ACT_END:
		recplay_cursor_jump(&v->cur, v->rp, act == TUI_ACT_END);
		rv_sync(v);
		return true;
	case TUI_ACT_FASTER:
	case TUI_ACT_SLOWER:
		rv_speed(v, act == TUI_ACT_FASTER ? 1 : -1);
		return true;
	default:
		return false;
	}
}

static void rv_key(struct rv *v, int ch)
{
	enum tui_action act;
	const char *note;

	if (ch == KEY_RESIZE) {
		rv_relayout(v);
		return;
	}
	if (v->n > 1 && v->open < 0) {
		rv_ov_key(v, ch);
		return;
	}
	act = tui_key_action_in(TUI_KEYS_REPLAY, rv_plain_key(ch));
	if (act == TUI_ACT_QUIT) {
		v->quit = true;
		return;
	}
	v->dirty = true;
	if (v->help && act != TUI_ACT_REDRAW) {
		v->help = false;
		return;
	}
	if (rv_cursor_key(v, act))
		return;
	if (tui_show_key(&v->show, act, &note)) {
		if (act == TUI_ACT_HEATMAP && !v->show.heatmap && !v->rp->h->requests)
			note = "scatter from period buckets (no request records)";
		if (note)
			rv_note(v, note);
		return;
	}
	switch (act) {
	case TUI_ACT_BACK:
		if (v->n > 1) {
			v->open = -1;
			rv_rows(v);
		}
		break;
	case TUI_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case TUI_ACT_DEVICE:
		v->tg[v->shown].sel++;
		rv_iostat(v, v->shown, v->cur.t);
		break;
	case TUI_ACT_HELP:
		v->help = true;
		break;
	default:
		break;
	}
}

/* ---- the loop --------------------------------------------------------------------------- */

static bool rv_loop_done(void *ctx)
{
	return ((struct rv *)ctx)->quit;
}

static struct pollfd *rv_loop_fds(void *ctx, size_t *n)
{
	struct rv *v = ctx;

	v->pfd[0] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
	*n = 1;
	return v->pfd;
}

static int rv_loop_timeout(void *ctx, uint64_t mono)
{
	struct rv *v = ctx;
	uint64_t due = mono + (uint64_t)(v->cur.paused ? RV_IDLE_MS : RV_PLAY_MS) * 1000000ull;

	if (v->dirty && v->last_draw + TUI_FRAME_NS < due)
		due = v->last_draw + TUI_FRAME_NS;
	if (v->note_until && v->note_until < due)
		due = v->note_until;
	return due <= mono ? 0 : (int)((due - mono + 999999) / 1000000);
}

static void rv_loop_woke(void *ctx, int r, uint64_t mono)
{
	struct rv *v = ctx;
	uint64_t dt = mono > v->last_mono ? mono - v->last_mono : 0;

	(void)r;
	v->last_mono = mono;
	if (recplay_cursor_advance(&v->cur, v->rp, dt))
		rv_sync(v);
	if (v->note_until && mono >= v->note_until) {
		v->note_until = 0;
		v->dirty = true;
	}
}

static void rv_loop_key(void *ctx, int ch, uint64_t mono)
{
	(void)mono;
	rv_key(ctx, ch);
}

static void rv_loop_paint(void *ctx, uint64_t mono)
{
	struct rv *v = ctx;

	if (v->dirty && mono >= v->last_draw + TUI_FRAME_NS)
		rv_paint(v, mono);
}

/* ---- entry ------------------------------------------------------------------------------ */

static void rv_free(struct rv *v)
{
	free(v->tg);
	free(v->rows);
	free(v->order);
	tui_panes_free(&v->panes);
	free(v);
}

int tui_replay_run(const struct view_replay *vr, char *msg, size_t msglen)
{
	struct tui_term_opts to = { vr->ascii, vr->no_color };
	struct tui_loop_ops ops = { NULL, rv_loop_done, rv_loop_fds, rv_loop_timeout,
				    rv_loop_woke, rv_loop_key, rv_loop_paint };
	struct rv *v = calloc(1, sizeof(*v));
	int ret;

	if (v) {
		size_t n = vr->rp->n ? vr->rp->n : 1;

		v->tg = calloc(n, sizeof(*v->tg));
		v->rows = calloc(n, sizeof(*v->rows));
		v->order = calloc(n, sizeof(*v->order));
	}
	if (!v || !v->tg || !v->rows || !v->order) {
		if (v)
			rv_free(v);
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	if (!vr->rp->n) {
		rv_free(v);
		snprintf(msg, msglen, "--replay -X: the recording has no target");
		return -EINVAL;
	}
	v->vr = vr;
	v->rp = vr->rp;
	v->n = vr->rp->n;
	v->open = -1;
	v->slowest = TUI_OV_NONE;
	v->window = TUI_OV_W60;
	v->ascii = tui_term_want_ascii(&to);
	v->show.log = true;
	v->show.heatmap = !vr->rp->h->requests; /* buckets, not requests: the heatmap shows them */
	v->sticky = vr->damage ? "file damaged: the replay stops early" :
		    !vr->rp->h->requests ? "graph from period buckets" : NULL;
	v->ov_sticky = vr->damage ? "file damaged: the replay stops early" : NULL;
	recplay_cursor_init(&v->cur);
	for (size_t i = 0; i < v->n; i++) {
		rv_describe(v, i);
		rv_model_init(v, i);
		snprintf(v->tg[i].sticky, sizeof(v->tg[i].sticky),
			 "target %zu of %zu: Esc back to the overview", i + 1, v->n);
	}
	ret = tui_term_open(&to, vr->stop, msg, msglen);
	if (ret) {
		rv_free(v);
		return ret;
	}
	v->color = tui_term_color();
	tui_text_setup(v->color);
	v->last_mono = clock_now();
	rv_sync(v);
	rv_relayout(v);
	rv_paint(v, clock_now());
	ops.ctx = v;
	tui_loop_run(&ops, vr->stop); /* the view's one loop, as live */
	tui_term_close(vr->deferred_stderr);
	rv_free(v);
	return 0;
}
