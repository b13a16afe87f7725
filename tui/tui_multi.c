/*
 * tui_multi: the view of several targets. Each target keeps tui.c's whole
 * single-target screen (its own session, probe thread, model and iostat
 * panel); this one UI thread polls every session's wake fd and the
 * keyboard, drains every ring and shows either the overview (one row per
 * target, tui_overview.c) or one target's usual screen (Enter / its
 * number; Esc returns). The overview's rows are rebuilt once a second and
 * on keys; nothing is painted when nothing changed. A row's verdict is the
 * one its own screen's iostat panel judged (the same intervals, the same
 * words); the slowest, the columns, the sort, the filter, the windows and
 * the sparkline's shared scale are tui_overview.c's pure rules.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "prefault.h"
#include "devwatch.h"
#include "esc.h"
#include "msg.h"
#include "session.h"
#include "tui_draw.h"
#include "tui_fmt.h"
#include "tui_int.h"
#include "tui_keys.h"
#include "tui_overview.h"
#include "tui_ovrow.h"
#include "tui_ovpaint.h"
#include "tui_text.h"
#include "verdict.h"

struct ov_target {
	struct tui *t;
	struct tui_ov_win win;   /* the latencies of the three windows */
	uint64_t startup;        /* run ns before which nothing counts: the first full interval */
	uint64_t last;           /* the last request's latency */
	char sticky[80];
};

struct ov {
	const struct view_params *vp;
	const struct tui_driver *drv; /* a recording's cursor moves the screens (NULL: live) */
	struct tui_driven *dv;    /* drv: each target as the driver feeds it */
	unsigned keys;            /* the overview's key scope (tui_keys.h) */
	size_t n;
	struct ov_target *tg;
	struct tui_ov_row *rows;  /* one per target, in the order given */
	size_t *order;            /* the rows shown (the filter's), in the sort's order */
	size_t nshow;
	struct pollfd *pfd;
	struct tui_ov_hist hist;  /* scratch: one target's window */
	struct tui_col cols[TUI_OV_SPARK_MAX];
	size_t sel, top, slowest; /* sel: a target (an index into rows) */
	size_t started;           /* probe threads started */
	int cur;                  /* the target shown, -1: the overview */
	bool all, quit, dirty, ascii, busy, help, editing;
	enum tui_ov_window window;
	enum tui_ov_sort sort;
	unsigned acc;             /* number keys typed so far */
	uint64_t last_draw, next_tick, note_until;
	char note[200];
	char filter[64], edit[64]; /* the filter applied, and the one being typed after / */
};

static void ov_note(struct ov *o, const char *text)
{
	snprintf(o->note, sizeof(o->note), "%s", text);
	o->note_until = clock_now() + TUI_NOTE_NS;
	o->dirty = true;
}

/* Every drained sample: the last latency and the windows of valid ones. */
static void ov_on_sample(void *ctx, const struct sample *s, enum notice n, uint64_t now)
{
	struct ov_target *tg = ctx;

	if (s->result < 0 || n == NOTICE_EMPTY)
		return;
	tg->last = s->time;
	if (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW)
		tui_ov_win_add(&tg->win, now, s->time);
}

/* ---- rows ------------------------------------------------------------------------------- */

static void ov_row(struct ov *o, size_t i, uint64_t mono)
{
	struct ov_target *tg = &o->tg[i];
	struct tui_peek p;
	struct tui_ov_input in;

	tui_peek(tg->t, mono, &p);
	in = (struct tui_ov_input){
		.target = p.target, .name = p.name, .interval = p.interval, .m = p.m, .io = p.io,
		.verdict = p.verdict, .win = &tg->win, .now = p.now, .startup = tg->startup,
		.last = tg->last,
		.state = p.state == SESSION_FAILED ? "failed" : p.state == SESSION_DONE ? "ended" :
			 p.paused ? "paused" : NULL,
	};
	tui_ov_row_fill(&o->rows[i], &in, o->window, &o->hist, o->cols);
}

/* Where target i is in the rows shown, or TUI_OV_NONE. */
static size_t ov_pos(const struct ov *o, size_t i)
{
	for (size_t k = 0; k < o->nshow; k++)
		if (o->order[k] == i)
			return k;
	return TUI_OV_NONE;
}

/* The rows shown, in the sort's order; the selection stays on its target while shown. */
static void ov_reorder(struct ov *o)
{
	o->nshow = tui_ov_order(o->rows, o->n, o->sort, o->filter, o->order);
	if (o->nshow && ov_pos(o, o->sel) == TUI_OV_NONE)
		o->sel = o->order[0];
	o->dirty = true;
}

static void ov_rows(struct ov *o, uint64_t mono)
{
	for (size_t i = 0; i < o->n; i++)
		ov_row(o, i, mono);
	o->slowest = o->n > 1 ? tui_ov_slowest(o->rows, o->n) : TUI_OV_NONE;
	ov_reorder(o);
}

/* Driven: the driver feeds the screens up to mono; the rows follow when something changed. */
static void ov_drive(struct ov *o, uint64_t mono)
{
	if (!o->drv->advance(o->drv->ctx, o->dv, o->n, mono))
		return;
	if (o->cur < 0)
		ov_rows(o, mono);
	o->dirty = true;
}

/* ---- painting (tui_ovpaint.c) ---------------------------------------------------------- */

/* What the help says of the windows. */
static const char ov_window_help[] =
	"p50/p99/max: the last 10 s, the last 60 s (60-64 s: 5 s steps) or all (w), after the "
	"first full interval or the last r; last: the latest request. Sparkline: a cell a "
	"second (its highest latency) on one log scale for all rows.";

static void ov_paint(struct ov *o, uint64_t mono)
{
	struct tui_ovp p = {
		.n = o->n, .rows = o->rows, .order = o->order, .nshow = o->nshow, .sel = o->sel,
		.slowest = o->slowest, .top = o->top, .window = o->window, .sort = o->sort,
		.filter = o->filter, .edit = o->edit, .editing = o->editing, .ascii = o->ascii,
		.help = o->help, .all = o->all,
		.note = mono < o->note_until ? o->note : !o->drv ? NULL :
			o->drv->feed->flash ? o->drv->feed->flash : o->drv->ov_note,
		.head = o->drv ? o->drv->feed->state : NULL, .keys = o->keys,
		.window_help = o->drv ? o->drv->window_help : ov_window_help,
	};

	tui_ovp_paint(&p);
	o->top = p.top;
	o->last_draw = mono;
	o->dirty = false;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* The footer's note on target i's screen: how to get back, as long as half the width allows. */
static void ov_sticky(struct ov *o, size_t i)
{
	struct ov_target *tg = &o->tg[i];
	int half = COLS / 2;

	if (o->n < 2)
		return; /* one target: no overview to go back to */
	snprintf(tg->sticky, sizeof(tg->sticky), "target %zu of %zu: Esc back to the overview",
		 i + 1, o->n);
	if ((int)strlen(tg->sticky) > half)
		snprintf(tg->sticky, sizeof(tg->sticky), "target %zu of %zu: Esc overview", i + 1,
			 o->n);
	if ((int)strlen(tg->sticky) > half)
		snprintf(tg->sticky, sizeof(tg->sticky), "%zu/%zu: Esc overview", i + 1, o->n);
	if ((int)strlen(tg->sticky) > half)
		snprintf(tg->sticky, sizeof(tg->sticky), "Esc: overview");
	tui_set_sticky(tg->t, tg->sticky);
}

static void ov_open(struct ov *o, int i)
{
	if (i < 0 || (size_t)i >= o->n)
		return;
	o->sel = (size_t)i;
	o->cur = i;
	tui_relayout(o->tg[i].t);
	ov_sticky(o, (size_t)i);
	clearok(curscr, TRUE);
}

/* Whether row i is shown (the filter keeps it). */
static bool ov_shown(const struct ov *o, size_t i)
{
	for (size_t k = 0; k < o->nshow; k++)
		if (o->order[k] == i)
			return true;
	return false;
}

/* A probe key (pause, interval, reset) on the selected target or on all the filter shows. */
static void ov_probe_key(struct ov *o, int ch)
{
	char buf[200];

	for (size_t i = 0; i < o->n; i++) {
		if (o->all ? !ov_shown(o, i) : i != o->sel)
			continue;
		tui_key(o->tg[i].t, ch);
		if (tui_key_action_in(TUI_KEYS_OVERVIEW, ch) == TUI_ACT_RESET) {
			struct tui_peek p;

			tui_peek(o->tg[i].t, clock_now(), &p);
			tui_ov_win_init(&o->tg[i].win, p.now); /* the windows restart too */
		}
	}
	if (o->all && o->nshow < o->n)
		snprintf(buf, sizeof(buf), "'%c' on the %zu targets shown (of %zu)", ch, o->nshow,
			 o->n);
	else if (o->all)
		snprintf(buf, sizeof(buf), "'%c' on all %zu targets", ch, o->n);
	else
		snprintf(buf, sizeof(buf), "'%c' on #%zu %s only", ch, o->sel + 1,
			 tui_ov_label(&o->rows[o->sel]));
	ov_note(o, buf);
	ov_rows(o, clock_now());
}

/* Move the selection d rows in the order shown. */
static void ov_move(struct ov *o, long d)
{
	o->sel = tui_ov_move(o->order, o->nshow, o->sel, d);
	o->dirty = true;
}

/* Curses' special keys as the plain ones the key table binds (Up is k, Down j, Enter \n). */
static int ov_plain_key(int ch)
{
	switch (ch) {
	case KEY_UP: return 'k';
	case KEY_DOWN: return 'j';
	case KEY_ENTER: return '\n';
	default: return ch == KEY_F(1) ? '?' : ch;
	}
}

/* A key while the filter is typed on the status line. */
static void ov_edit_key(struct ov *o, int ch)
{
	size_t len = strlen(o->edit);

	o->dirty = true;
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		snprintf(o->filter, sizeof(o->filter), "%s", o->edit);
		o->editing = false;
		ov_reorder(o);
		return;
	case TUI_KEY_ESC:
		o->filter[0] = o->edit[0] = '\0';
		o->editing = false;
		ov_reorder(o);
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		while (len > 0 && (o->edit[len - 1] & 0xc0) == 0x80) /* a whole UTF-8 character */
			len--;
		if (len > 0)
			len--;
		o->edit[len] = '\0';
		return;
	case TUI_KEY_CTRL_C:
		o->quit = true;
		return;
	default:
		if (ch >= ' ' && ch < 256 && ch != 127 && len + 1 < sizeof(o->edit)) {
			o->edit[len] = (char)ch;
			o->edit[len + 1] = '\0';
		}
		return;
	}
}

/* A key while one target's screen is open: back to the overview, resize, quit, or its own. */
static void ov_screen_key(struct ov *o, int ch)
{
	struct tui_peek p;

	tui_peek(o->tg[o->cur].t, clock_now(), &p);
	if (o->drv && !p.help && ch != KEY_RESIZE && o->drv->key(o->drv->ctx, ch, false)) {
		ov_drive(o, clock_now()); /* the cursor's key: the screens follow it now */
	} else if (tui_key_action(ch) == TUI_ACT_BACK && !p.help && o->n > 1) {
		/* Esc closes the help first */
		o->cur = -1;
		ov_rows(o, clock_now());
		clearok(curscr, TRUE);
	} else if (ch == KEY_RESIZE) {
		for (size_t i = 0; i < o->n; i++)
			tui_relayout(o->tg[i].t);
		ov_sticky(o, (size_t)o->cur);
	} else if (tui_key_action(ch) == TUI_ACT_QUIT) {
		o->quit = true;
	} else {
		tui_key(o->tg[o->cur].t, ch);
	}
}

/* The paging keys (Page Up/Down, Home, End); false for any other key. */
static bool ov_page_key(struct ov *o, int ch)
{
	long page = (long)tui_ovp_fit_rows() > 0 ? (long)tui_ovp_fit_rows() : 1;

	switch (ch) {
	case KEY_PPAGE: ov_move(o, -page); return true;
	case KEY_NPAGE: ov_move(o, page); return true;
	case KEY_HOME: ov_move(o, -(long)o->n); return true;
	case KEY_END: ov_move(o, (long)o->n); return true;
	}
	return false;
}

/* The overview's display keys: the window (w) and the sort (s) cycled, each said. */
static void ov_cycle_key(struct ov *o, enum tui_action act)
{
	char buf[160];

	if (act == TUI_ACT_WINDOW) {
		o->window = (enum tui_ov_window)((o->window + 1) % TUI_OV_NWINDOWS);
		snprintf(buf, sizeof(buf), "p50, p99, max: %s", tui_ov_window_label(o->window));
		ov_note(o, buf);
		ov_rows(o, clock_now());
		return;
	}
	o->sort = (enum tui_ov_sort)((o->sort + 1) % TUI_OV_NSORTS);
	snprintf(buf, sizeof(buf), "sorted by %s", tui_ov_sort_name(o->sort));
	ov_note(o, buf);
	ov_reorder(o);
}

/* One action of the overview's key table. */
static void ov_act(struct ov *o, enum tui_action act, int ch)
{
	switch (act) {
	case TUI_ACT_QUIT:
		o->quit = true;
		break;
	case TUI_ACT_UP:
		ov_move(o, -1);
		break;
	case TUI_ACT_DOWN:
		ov_move(o, 1);
		break;
	case TUI_ACT_OPEN: {
		int i = tui_ov_digits_target(&o->acc, o->n);

		if (i >= 0 || o->nshow)
			ov_open(o, i >= 0 ? i : (int)o->sel);
		break;
	}
	case TUI_ACT_ALL:
		o->all = !o->all;
		ov_note(o, o->all ? "p, +/-, r act on ALL targets" :
				    "p, +/-, r act on the selected target");
		break;
	case TUI_ACT_PAUSE:
	case TUI_ACT_FASTER:
	case TUI_ACT_SLOWER:
	case TUI_ACT_RESET:
		ov_probe_key(o, ch);
		break;
	case TUI_ACT_WINDOW:
	case TUI_ACT_SORT:
		ov_cycle_key(o, act);
		break;
	case TUI_ACT_FILTER:
		o->editing = true;
		snprintf(o->edit, sizeof(o->edit), "%s", o->filter);
		break;
	case TUI_ACT_HELP:
		o->help = true;
		break;
	case TUI_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		o->acc = 0;
		break;
	}
}

/* A key in the overview, or in the target's screen it has open. */
static void ov_key(struct ov *o, int ch)
{
	enum tui_action act;

	if (o->cur >= 0) {
		ov_screen_key(o, ch);
		return;
	}
	o->dirty = true;
	if (ch == KEY_RESIZE) {
		for (size_t i = 0; i < o->n; i++)
			tui_relayout(o->tg[i].t);
		return;
	}
	if (o->editing) {
		ov_edit_key(o, ch);
		return;
	}
	act = tui_key_action_in(o->keys, ov_plain_key(ch));
	if (o->help && act != TUI_ACT_QUIT && act != TUI_ACT_REDRAW) {
		o->help = false; /* any key closes the help */
		return;
	}
	if (o->drv && o->drv->key(o->drv->ctx, ch, true)) {
		o->acc = 0;
		ov_drive(o, clock_now()); /* the cursor's key: the rows follow it now */
		return;
	}
	if (ch >= '0' && ch <= '9') {
		int i = tui_ov_digit(&o->acc, ch - '0', o->n);

		if (i >= 0)
			ov_open(o, i);
		return;
	}
	if (!ov_page_key(o, ch) && !(o->drv && act == TUI_ACT_ALL))
		ov_act(o, act, ch);
}

/* ---- loop ------------------------------------------------------------------------------- */

/* Driven: the driver's sleep, shorter for a frame due or a note ending. */
static int ov_drive_timeout(struct ov *o, uint64_t mono)
{
	uint64_t due = mono + (uint64_t)o->drv->sleep_ms(o->drv->ctx, mono) * 1000000ull;
	struct tui_peek p;

	if (o->cur >= 0) {
		tui_peek(o->tg[o->cur].t, mono, &p);
		if (p.dirty && p.last_draw + TUI_FRAME_NS < due)
			due = p.last_draw + TUI_FRAME_NS;
	} else if (o->dirty && o->last_draw + TUI_FRAME_NS < due) {
		due = o->last_draw + TUI_FRAME_NS;
	}
	if (o->note_until > mono && o->note_until < due)
		due = o->note_until;
	return due <= mono ? 0 : (int)((due - mono + 999999) / 1000000);
}

static int ov_timeout(struct ov *o, uint64_t mono)
{
	uint64_t due = o->next_tick;

	if (o->drv)
		return ov_drive_timeout(o, mono);
	if (o->cur >= 0)
		return tui_timeout(o->tg[o->cur].t, mono);
	if (o->dirty && o->last_draw + TUI_FRAME_NS < due)
		due = o->last_draw + TUI_FRAME_NS;
	if (o->note_until > mono && o->note_until < due)
		due = o->note_until;
	if (o->busy && mono + TUI_BUSY_NS < due)
		due = mono + TUI_BUSY_NS;
	return due <= mono ? 0 : (int)((due - mono + 999999) / 1000000);
}

static void ov_wake(struct ov *o, int r, uint64_t mono)
{
	if (o->drv) {
		ov_drive(o, mono);
		for (size_t i = 0; i < o->n; i++)
			tui_tick(o->tg[i].t, mono); /* their notes end */
		if (o->note_until && mono >= o->note_until) {
			o->note_until = 0;
			o->dirty = true;
		}
		return;
	}
	o->busy = false;
	for (size_t i = 0; i < o->n; i++) {
		bool busy;

		if (r > 0 && (o->pfd[i + 1].revents & POLLIN))
			tui_ack(o->tg[i].t);
		busy = tui_drain(o->tg[i].t) >= TUI_BUSY_RECS;
		tui_set_busy(o->tg[i].t, busy);
		o->busy |= busy;
		tui_tick(o->tg[i].t, mono);
	}
	if (mono >= o->next_tick) {
		while (o->next_tick <= mono)
			o->next_tick += TUI_TICK_NS;
		if (o->cur < 0)
			ov_rows(o, mono);
	}
	if (o->note_until && mono >= o->note_until) {
		o->note_until = 0;
		o->dirty = true;
	}
}

static bool ov_loop_done(void *ctx)
{
	return ((struct ov *)ctx)->quit;
}

static struct pollfd *ov_loop_fds(void *ctx, size_t *n)
{
	struct ov *o = ctx;

	*n = o->drv ? 1 : o->n + 1; /* driven: the keyboard only */
	return o->pfd;
}

static int ov_loop_timeout(void *ctx, uint64_t mono)
{
	return ov_timeout(ctx, mono);
}

static void ov_loop_woke(void *ctx, int r, uint64_t mono)
{
	ov_wake(ctx, r, mono);
}

static void ov_loop_key(void *ctx, int ch, uint64_t mono)
{
	struct ov *o = ctx;

	if (o->cur < 0 && ch == KEY_RESIZE)
		ov_rows(o, mono);
	ov_key(o, ch);
}

static void ov_loop_paint(void *ctx, uint64_t mono)
{
	struct ov *o = ctx;

	if (o->cur >= 0) {
		struct tui_peek p;

		tui_peek(o->tg[o->cur].t, mono, &p);
		if (p.dirty && mono >= p.last_draw + TUI_FRAME_NS)
			tui_paint(o->tg[o->cur].t, mono);
	} else if (o->dirty && mono >= o->last_draw + TUI_FRAME_NS) {
		ov_paint(o, mono);
	}
}

/* The view's one loop (tui_loop_run) over the overview and the target screen it opened. */
static void ov_loop(struct ov *o)
{
	const struct tui_loop_ops ops = { o, ov_loop_done, ov_loop_fds, ov_loop_timeout,
					  ov_loop_woke, ov_loop_key, ov_loop_paint };

	tui_loop_run(&ops, o->vp[0].stop);
}

/* ---- set-up and end --------------------------------------------------------------------- */

static void ov_free(struct ov *o)
{
	for (size_t i = 0; o->tg && i < o->n; i++)
		if (o->tg[i].t)
			tui_free(o->tg[i].t);
	free(o->tg);
	free(o->dv);
	free(o->rows);
	free(o->order);
	free(o->pfd);
	free(o);
}

static struct ov *ov_new(const struct view_params *vp, size_t n, const struct tui_term_opts *to,
			 const struct tui_driver *drv)
{
	struct ov *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->vp = vp;
	o->drv = drv;
	o->keys = drv ? TUI_KEYS_REPLAY_OV : TUI_KEYS_OVERVIEW;
	o->n = n;
	o->cur = -1;
	o->slowest = TUI_OV_NONE;
	o->window = TUI_OV_W60;
	o->ascii = tui_term_want_ascii(to);
	o->tg = calloc(n, sizeof(*o->tg));
	o->rows = calloc(n, sizeof(*o->rows));
	o->order = calloc(n, sizeof(*o->order));
	o->pfd = calloc(n + 1, sizeof(*o->pfd));
	o->dv = drv ? calloc(n, sizeof(*o->dv)) : NULL;
	if (!o->tg || !o->rows || !o->order || !o->pfd || (drv && !o->dv)) {
		ov_free(o);
		return NULL;
	}
	prefault(o->tg, n * sizeof(*o->tg)); /* the windows fill over a minute */
	for (size_t i = 0; i < n; i++) {
		struct ov_target *tg = &o->tg[i];

		uint64_t iv = drv ? vp[i].cfg->interval : vp[i].probe->cfg.interval;

		tg->t = drv ? tui_new_fed(&vp[i], to, drv->feed) : tui_new(&vp[i], to);
		if (!tg->t) {
			ov_free(o);
			return NULL;
		}
		/* the windows and the sparkline start after the first full interval (and at
		 * least a second): no start-up in them */
		tg->startup = iv > TUI_OV_SEC_NS ? iv : TUI_OV_SEC_NS;
		tui_ov_win_init(&tg->win, tg->startup);
		if (drv)
			o->dv[i] = (struct tui_driven){ tg->t, &tg->win, &tg->last };
		else
			tui_set_hook(tg->t, ov_on_sample, tg);
		snprintf(tg->sticky, sizeof(tg->sticky), "target %zu of %zu: Esc back to the overview",
			 i + 1, n);
		if (n > 1) /* also names the target in its warnings */
			tui_set_sticky(tg->t, tg->sticky);
	}
	return o;
}

/* Start every probe thread; a target that cannot start is reported (its result set). */
static int ov_start(struct ov *o, char *msg, size_t msglen)
{
	for (size_t i = 0; i < o->n; i++) {
		struct tui_peek p;
		int ret = tui_one_start(o->tg[i].t, (unsigned)o->n);

		if (ret) {
			snprintf(msg, msglen, "cannot start the probe thread: %s", strerror(-ret));
			return ret; /* the ones started are stopped by ov_end() */
		}
		tui_peek(o->tg[i].t, clock_now(), &p);
		o->pfd[i + 1] = (struct pollfd){ p.wake_fd, POLLIN, 0 };
		o->started++;
	}
	o->next_tick = clock_now() + TUI_TICK_NS;
	return 0;
}

/*
 * After the screen is given back: stop every probe, hand back results and warnings. One
 * target's failure is the return (0 or -errno, msg filled); several's are said, each
 * named, and put in *vp[i].result.
 */
static int ov_end(struct ov *o, char *msg, size_t msglen)
{
	int one = 0;

	for (size_t i = 0; i < o->started; i++) {
		const struct view_params *vp = &o->vp[i];
		const char *why = NULL;
		int ret;

		tui_finish(o->tg[i].t);
		tui_report_warnings(o->tg[i].t);
		ret = tui_result(o->tg[i].t, &why);
		if (vp->result)
			*vp->result = ret;
		if (ret && o->n == 1) {
			snprintf(msg, msglen, "%s", why ? why : "failed");
			one = ret;
		} else if (ret) {
			char line[TUI_NAMED_PATH_LEN + MSG_MAX];

			snprintf(line, sizeof(line), "%s: %s", vp->cfg->path, why ? why : "failed");
			vp->message(line);
		}
	}
	return one;
}

/* The first frame: one target's screen (n = 1: never the overview), or the overview. */
static void ov_show(struct ov *o)
{
	if (o->n == 1)
		ov_open(o, 0);
	ov_rows(o, clock_now());
	if (o->cur >= 0)
		tui_paint(o->tg[0].t, clock_now());
	else
		ov_paint(o, clock_now());
}

/* The view's state for vp[0 .. n) (driven by d, or live) and the terminal taken: 0, or -errno
 * with msg filled and nothing held. */
static int ov_begin(const struct view_params *vp, size_t n, const struct tui_driver *d,
		    struct ov **out, char *msg, size_t msglen)
{
	struct tui_term_opts to = { vp[0].cfg->ascii, vp[0].cfg->no_color };
	struct ov *o = ov_new(vp, n, &to, d);
	int ret;

	*out = NULL;
	if (!o) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	ret = tui_term_open(&to, vp[0].stop, msg, msglen);
	if (ret) {
		ov_free(o);
		return ret;
	}
	tui_text_setup(tui_term_color());
	for (size_t i = 0; i < n; i++)
		tui_set_color(o->tg[i].t, tui_term_color());
	o->pfd[0] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
	*out = o;
	return 0;
}

int tui_multi_run(const struct view_params *vp, size_t n, char *msg, size_t msglen)
{
	struct sigaction old_wake;
	struct ov *o;
	int ret = ov_begin(vp, n, NULL, &o, msg, msglen);

	if (ret)
		return ret;
	tui_wake_install(&old_wake);
	ret = ov_start(o, msg, msglen);
	if (!ret) {
		for (size_t i = 0; i < n; i++)
			tui_relayout(o->tg[i].t);
		ov_show(o);
		ov_loop(o);
	}
	tui_term_close(vp[0].deferred_stderr);
	if (!ret)
		ret = ov_end(o, msg, msglen);
	else
		ov_end(o, msg, msglen); /* the ones started; the start's failure is the message */
	tui_wake_restore(&old_wake);
	ov_free(o);
	return ret;
}

int tui_multi_drive(const struct view_params *vp, size_t n, const struct tui_driver *d,
		    char *msg, size_t msglen)
{
	struct ov *o;
	int ret = ov_begin(vp, n, d, &o, msg, msglen);

	if (ret)
		return ret;
	d->advance(d->ctx, o->dv, n, clock_now()); /* the screens at the cursor's start */
	for (size_t i = 0; i < n; i++)
		tui_relayout(o->tg[i].t);
	ov_show(o);
	ov_loop(o);
	tui_term_close(vp[0].deferred_stderr);
	ov_free(o);
	return 0;
}
