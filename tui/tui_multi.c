/*
 * tui_multi: the view of several targets. Each target keeps tui.c's whole
 * single-target screen (its own session, probe thread, model and iostat
 * panel); this one UI thread polls every session's wake fd and the
 * keyboard, drains every ring and shows either the overview (one row per
 * target, tui_overview.c) or one target's usual screen (Enter / its
 * number; Esc returns). The overview's rows are rebuilt once a second and
 * on keys; nothing is painted when nothing changed.
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
#include "devwatch.h"
#include "esc.h"
#include "msg.h"
#include "session.h"
#include "tui_fmt.h"
#include "tui_int.h"
#include "tui_keys.h"
#include "tui_overview.h"
#include "tui_text.h"
#include "verdict.h"

struct ov_target {
	struct tui *t;
	struct tui_ov_win win;
	struct verdict_hist vh;
	bool bad;                /* the last verdict was falls short / queue building */
	char words[48];          /* its first words ("falls short: device saturated"), "" */
	uint64_t io_last;        /* the iostat sample it was judged on */
	uint64_t last;           /* the last request's latency */
	struct tui_ov_row row;
	char sticky[80];
};

struct ov {
	const struct view_params *vp;
	size_t n;
	struct ov_target *tg;
	struct pollfd *pfd;
	struct stats win;        /* scratch: one target's window */
	struct tui_col cols[TUI_OV_SPARK];
	size_t sel, top, slowest;
	size_t started;          /* probe threads started */
	int cur;                 /* the target shown, -1: the overview */
	bool all, quit, dirty, ascii, busy;
	unsigned acc;            /* number keys typed so far */
	uint64_t last_draw, next_tick, note_until;
	char note[200];
};

static void ov_note(struct ov *o, const char *text)
{
	snprintf(o->note, sizeof(o->note), "%s", text);
	o->note_until = clock_now() + TUI_NOTE_NS;
	o->dirty = true;
}

/* Every drained sample: the last latency and the window of valid ones. */
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

static const struct tui_iodev *ov_top_dev(const struct tui_iostat *io)
{
	for (size_t i = 0; !io->no_blockdev && i < io->ndev; i++)
		if (io->dev[i].top)
			return &io->dev[i];
	return NULL;
}

/* A new iostat interval: judge it against the last closed period (as --iostat does). */
static void ov_judge(struct ov *o, struct ov_target *tg, const struct tui_peek *p,
		     const struct tui_iodev *d, double asked)
{
	const struct view_cfg *c = o->vp[tg - o->tg].cfg;
	const struct tui_row *r = tui_model_row(p->m, 0);
	struct verdict_dev dev = { d->name, d->state == TUI_IO_OK ? &d->row : NULL, 0, -1, 0 };
	struct verdict_probe vp;
	struct verdict v;

	tg->io_last = p->io->last;
	if (!r || !asked || p->paused) {
		tg->bad = false;
		tg->words[0] = '\0';
		return;
	}
	if (d->watch >= 0) {
		dev.max_sectors_kb = p->io->watch.dev[d->watch].max_sectors_kb;
		dev.write_cache = p->io->watch.dev[d->watch].write_cache;
		dev.max_segments = p->io->watch.dev[d->watch].max_segments;
	}
	verdict_probe_settings(&vp, asked, p->m->cfg.size, c->write, c->read_write, c->cached,
			       c->depth);
	vp.period_ns = r->wall;
	vp.done = r->requests;
	vp.skipped = r->skipped;
	vp.p50_ns = r->pct[0];
	vp.p99_ns = r->pct[2];
	vp.sum_ns = r->sum;
	verdict_judge(&tg->vh, &vp, &dev, 1, &v);
	tg->bad = v.state == VERDICT_FALLS_SHORT || v.state == VERDICT_QUEUE_BUILDING;
	if (tg->bad)
		verdict_words(&v, tg->words, sizeof(tg->words));
	else
		tg->words[0] = '\0';
}

static void ov_row(struct ov *o, struct ov_target *tg, uint64_t mono)
{
	struct tui_ov_row *row = &tg->row;
	struct sbuf sb = SBUF_INIT;
	const struct tui_iodev *d;
	const struct tui_row *last;
	struct tui_peek p;

	tui_peek(tg->t, mono, &p);
	memset(row, 0, sizeof(*row));
	esc_puts(&sb, p.target);
	snprintf(row->target, sizeof(row->target), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	row->asked = p.interval ? 1e9 / (double)p.interval : 0;
	last = tui_model_row(p.m, 0);
	if (last && last->wall)
		row->achieved = (double)last->requests * 1e9 / (double)last->wall;
	row->last = tg->last;
	tui_ov_win_get(&tg->win, p.now, &o->win);
	row->count = o->win.count;
	row->p50 = stats_percentile(&o->win, 50);
	row->p99 = stats_percentile(&o->win, 99);
	row->max = o->win.count ? o->win.max : 0;
	row->failed = p.m->total.failed;
	row->skipped = p.m->total.skipped;
	tui_model_columns(p.m, TUI_WIN_1MIN, p.now, o->cols, TUI_OV_SPARK);
	tui_ov_spark(o->cols, TUI_OV_SPARK, o->ascii, row->spark, sizeof(row->spark));
	d = ov_top_dev(p.io);
	if (d) {
		snprintf(row->dev, sizeof(row->dev), "%s", d->name);
		row->have_io = d->state == TUI_IO_OK;
		row->busy = d->row.util;
		row->await = d->row.await;
		if (p.io->last != tg->io_last)
			ov_judge(o, tg, &p, d, row->asked);
	}
	row->bad_verdict = tg->bad;
	snprintf(row->verdict, sizeof(row->verdict), "%s", tg->words);
	if (p.state == SESSION_FAILED)
		row->state = "failed";
	else if (p.state == SESSION_DONE)
		row->state = "ended";
	else if (p.paused)
		row->state = "paused";
}

static void ov_rows(struct ov *o, uint64_t mono)
{
	struct tui_ov_row *rows = NULL;

	for (size_t i = 0; i < o->n; i++)
		ov_row(o, &o->tg[i], mono);
	/* the rows are not contiguous: pick the slowest on a copy of the keys */
	rows = calloc(o->n, sizeof(*rows));
	if (!rows)
		return;
	for (size_t i = 0; i < o->n; i++)
		rows[i] = o->tg[i].row;
	o->slowest = o->n > 1 ? tui_ov_slowest(rows, o->n) : TUI_OV_NONE;
	free(rows);
	o->dirty = true;
}

/* ---- painting --------------------------------------------------------------------------- */

static void ov_cell_time(int y, const struct tui_ov_cols *c, enum tui_ov_col col,
			 enum tui_attr a, uint64_t ns, bool ascii)
{
	char buf[TUI_FMT_LEN];

	if (c->w[col])
		tui_text_put_right(y, c->x[col], c->w[col] - 1, a,
				   ns ? tui_fmt_time(buf, sizeof(buf), ns, ascii) : "-");
}

static void ov_cell(int y, const struct tui_ov_cols *c, enum tui_ov_col col, enum tui_attr a,
		    const char *s)
{
	if (c->w[col])
		tui_text_put_right(y, c->x[col], c->w[col] - 1, a, s);
}

/* The target's path, its end kept when it is too long (the end tells targets apart). */
static void ov_target_cell(int y, const struct tui_ov_cols *c, enum tui_attr a, const char *s)
{
	int w = c->w[TUI_OV_TARGET] - 1, len = tui_text_width(s);

	if (len <= w) {
		tui_text_put(y, c->x[TUI_OV_TARGET], w, a, s);
		return;
	}
	while (len > w - 1 && *s) { /* drop leading characters, UTF-8 aware */
		s++;
		while ((*s & 0xc0) == 0x80)
			s++;
		len = tui_text_width(s);
	}
	tui_text_put(y, c->x[TUI_OV_TARGET], 1, TA_CLIP, "<");
	tui_text_put(y, c->x[TUI_OV_TARGET] + 1, w - 1, a, s);
}

static void ov_paint_row(struct ov *o, int y, size_t i, const struct tui_ov_cols *c)
{
	const struct tui_ov_row *r = &o->tg[i].row;
	bool sel = i == o->sel, slow = i == o->slowest;
	enum tui_attr a = sel ? TA_SEL : slow ? TA_BAD : TA_DATA;
	char buf[64], x[TUI_FMT_LEN], z[TUI_FMT_LEN];

	if (sel || slow)
		tui_text_fill(y, 0, COLS, a, " ");
	snprintf(buf, sizeof(buf), "%c%c%3zu ", sel ? '>' : ' ', slow ? '!' : ' ', i + 1);
	tui_text_put(y, c->x[TUI_OV_NUM], c->w[TUI_OV_NUM], a, buf);
	ov_target_cell(y, c, a, r->target);
	if (c->w[TUI_OV_DEV])
		tui_text_put(y, c->x[TUI_OV_DEV], c->w[TUI_OV_DEV] - 1, a, r->dev[0] ? r->dev : "-");
	if (r->state)
		snprintf(buf, sizeof(buf), "%s", r->state);
	else
		snprintf(buf, sizeof(buf), "%s/%s", tui_fmt_rate(x, sizeof(x), r->achieved),
			 r->asked > 0 ? tui_fmt_rate(z, sizeof(z), r->asked) : "-");
	ov_cell(y, c, TUI_OV_RATE, r->state ? (sel ? a : TA_WARN) : a, buf);
	ov_cell_time(y, c, TUI_OV_LAST, a, r->last, o->ascii);
	ov_cell_time(y, c, TUI_OV_P50, a, r->p50, o->ascii);
	ov_cell_time(y, c, TUI_OV_P99, a, r->p99, o->ascii);
	ov_cell_time(y, c, TUI_OV_MAX, a, r->max, o->ascii);
	ov_cell(y, c, TUI_OV_FAIL, r->failed && !sel && !slow ? TA_ERROR : a,
		tui_fmt_count(buf, sizeof(buf), r->failed));
	ov_cell(y, c, TUI_OV_SKIP, a, tui_fmt_count(buf, sizeof(buf), r->skipped));
	if (c->w[TUI_OV_SPARKC])
		tui_text_put(y, c->x[TUI_OV_SPARKC] + 1, TUI_OV_SPARK, a, r->spark);
	snprintf(buf, sizeof(buf), "%.0f%%", r->busy);
	ov_cell(y, c, TUI_OV_BUSY, a, r->have_io ? buf : "-");
	ov_cell_time(y, c, TUI_OV_AWAIT, a, r->have_io ? (uint64_t)(r->await * 1e6) : 0,
		     o->ascii);
}

/* The line above the footer: the note, else the slowest target and where the keys act. */
static void ov_paint_status(struct ov *o, int y, uint64_t mono)
{
	char buf[256], t[TUI_FMT_LEN];
	const struct tui_ov_row *r;

	if (mono < o->note_until) {
		tui_text_put(y, 0, COLS, TA_WARN, o->note);
		return;
	}
	if (o->slowest == TUI_OV_NONE) {
		tui_text_put(y, 0, COLS, TA_LABEL, "slowest: not known yet");
	} else {
		r = &o->tg[o->slowest].row;
		snprintf(buf, sizeof(buf), "! slowest: #%zu %s  p99 %s%s%s%s", o->slowest + 1,
			 r->target, tui_fmt_time(t, sizeof(t), r->p99, o->ascii),
			 r->verdict[0] ? "  (" : "", r->verdict, r->verdict[0] ? ")" : "");
		tui_text_put(y, 0, COLS, TA_BAD, buf);
	}
}

static void ov_paint_footer(struct ov *o, int y)
{
	struct tui_keys_ctx k = { o->ascii ? "up/down" : "↑↓", o->n, o->all };
	char buf[256];

	tui_keys_overview_footer(&k, false, buf, sizeof(buf));
	if (tui_text_width(buf) > COLS)
		tui_keys_overview_footer(&k, true, buf, sizeof(buf));
	tui_text_put(y, 0, COLS, TA_KEY, buf);
}

static void ov_paint(struct ov *o, uint64_t mono)
{
	struct tui_ov_cols c;
	size_t rows = LINES > 4 ? (size_t)LINES - 4 : 0;
	char buf[128];

	erase();
	if (LINES < 6 || COLS < 40) {
		tui_text_put(0, 0, COLS, TA_WARN, "terminal too small for the overview");
		refresh();
		o->last_draw = mono;
		o->dirty = false;
		return;
	}
	tui_ov_columns(COLS, &c);
	o->top = tui_ov_scroll(o->top, o->sel, o->n, rows);
	snprintf(buf, sizeof(buf), "ioprobe: %zu targets", o->n);
	tui_text_put(0, 0, COLS, TA_TITLE, buf);
	if (o->n > rows) {
		snprintf(buf, sizeof(buf), "rows %zu-%zu of %zu", o->top + 1,
			 o->top + rows, o->n);
		tui_text_put_right(0, 0, COLS, TA_LABEL, buf);
	}
	for (int k = 0; k < TUI_OV_NCOLS; k++) {
		if (!c.w[k])
			continue;
		if (k == TUI_OV_TARGET || k == TUI_OV_DEV || k == TUI_OV_SPARKC)
			tui_text_put(1, c.x[k] + (k == TUI_OV_SPARKC), c.w[k] - 1, TA_HEAD,
				     tui_ov_col_name(k));
		else
			tui_text_put_right(1, c.x[k], c.w[k] - 1, TA_HEAD, tui_ov_col_name(k));
	}
	for (size_t i = o->top; i < o->n && i < o->top + rows; i++)
		ov_paint_row(o, 2 + (int)(i - o->top), i, &c);
	ov_paint_status(o, LINES - 2, mono);
	ov_paint_footer(o, LINES - 1);
	refresh();
	o->last_draw = mono;
	o->dirty = false;
}

/* ---- keys ------------------------------------------------------------------------------- */

static void ov_open(struct ov *o, int i)
{
	if (i < 0 || (size_t)i >= o->n)
		return;
	o->sel = (size_t)i;
	o->cur = i;
	tui_relayout(o->tg[i].t);
	tui_set_sticky(o->tg[i].t, o->tg[i].sticky);
	clearok(curscr, TRUE);
}

/* A probe key (pause, interval, reset) on the selected target or on all. */
static void ov_probe_key(struct ov *o, int ch)
{
	char buf[200];

	for (size_t i = 0; i < o->n; i++)
		if (o->all || i == o->sel)
			tui_key(o->tg[i].t, ch);
	if (o->all)
		snprintf(buf, sizeof(buf), "'%c' on all %zu targets", ch, o->n);
	else
		snprintf(buf, sizeof(buf), "'%c' on #%zu %s only", ch, o->sel + 1,
			 o->tg[o->sel].row.target);
	ov_note(o, buf);
	ov_rows(o, clock_now());
}

static void ov_move(struct ov *o, long d)
{
	long s = (long)o->sel + d;

	o->sel = s < 0 ? 0 : (size_t)s >= o->n ? o->n - 1 : (size_t)s;
	o->dirty = true;
}

/* Curses' special keys as the plain ones the key table binds (Up is k, Down j, Enter \n). */
static int ov_plain_key(int ch)
{
	switch (ch) {
	case KEY_UP: return 'k';
	case KEY_DOWN: return 'j';
	case KEY_ENTER: return '\n';
	default: return ch;
	}
}

static void ov_key(struct ov *o, int ch)
{
	long page = LINES > 5 ? LINES - 4 : 1;

	if (o->cur >= 0) {
		struct tui_peek p;

		tui_peek(o->tg[o->cur].t, clock_now(), &p);
		if (tui_key_action(ch) == TUI_ACT_BACK && !p.help) { /* Esc closes the help first */
			o->cur = -1;
			ov_rows(o, clock_now());
			clearok(curscr, TRUE);
		} else if (ch == KEY_RESIZE) {
			for (size_t i = 0; i < o->n; i++)
				tui_relayout(o->tg[i].t);
		} else if (tui_key_action(ch) == TUI_ACT_QUIT) {
			o->quit = true;
		} else {
			tui_key(o->tg[o->cur].t, ch);
		}
		return;
	}
	o->dirty = true;
	if (ch >= '0' && ch <= '9') {
		int i = tui_ov_digit(&o->acc, ch - '0', o->n);

		if (i >= 0)
			ov_open(o, i);
		return;
	}
	switch (ch) {
	case KEY_PPAGE:
		ov_move(o, -page);
		return;
	case KEY_NPAGE:
		ov_move(o, page);
		return;
	case KEY_HOME:
		ov_move(o, -(long)o->n);
		return;
	case KEY_END:
		ov_move(o, (long)o->n);
		return;
	case KEY_RESIZE:
		for (size_t i = 0; i < o->n; i++)
			tui_relayout(o->tg[i].t);
		return;
	}
	switch (tui_key_action_in(TUI_KEYS_OVERVIEW, ov_plain_key(ch))) {
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
	case TUI_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		o->acc = 0;
		break;
	}
}

/* ---- loop ------------------------------------------------------------------------------- */

static int ov_timeout(struct ov *o, uint64_t mono)
{
	uint64_t due = o->next_tick;

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
	o->busy = false;
	for (size_t i = 0; i < o->n; i++) {
		bool busy;

		if (r > 0 && (o->pfd[i + 1].revents & POLLIN))
			tui_ack(o->tg[i].t);
		busy = tui_drain(o->tg[i].t) >= SESSION_RING / 16;
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

	*n = o->n + 1;
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
	free(o->pfd);
	free(o);
}

static struct ov *ov_new(const struct view_params *vp, size_t n, const struct tui_term_opts *to)
{
	struct ov *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->vp = vp;
	o->n = n;
	o->cur = -1;
	o->slowest = TUI_OV_NONE;
	o->ascii = tui_term_want_ascii(to);
	o->tg = calloc(n, sizeof(*o->tg));
	o->pfd = calloc(n + 1, sizeof(*o->pfd));
	if (!o->tg || !o->pfd) {
		ov_free(o);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct ov_target *tg = &o->tg[i];

		tg->t = tui_new(&vp[i], to);
		if (!tg->t) {
			ov_free(o);
			return NULL;
		}
		tui_ov_win_init(&tg->win);
		verdict_hist_init(&tg->vh);
		tui_set_hook(tg->t, ov_on_sample, tg);
		snprintf(tg->sticky, sizeof(tg->sticky), "target %zu of %zu: Esc back to the overview",
			 i + 1, n);
		tui_set_sticky(tg->t, tg->sticky); /* also names the target in its warnings */
	}
	return o;
}

/* Start every probe thread; a target that cannot start is reported (its result set). */
static int ov_start(struct ov *o, char *msg, size_t msglen)
{
	o->pfd[0] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
	for (size_t i = 0; i < o->n; i++) {
		struct tui_peek p;
		int ret = tui_one_start(o->tg[i].t);

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

/* After the screen is given back: stop every probe, hand back results and warnings. */
static void ov_end(struct ov *o)
{
	for (size_t i = 0; i < o->started; i++) {
		const struct view_params *vp = &o->vp[i];
		const char *why = NULL;
		int ret;

		tui_finish(o->tg[i].t);
		tui_report_warnings(o->tg[i].t);
		ret = tui_result(o->tg[i].t, &why);
		if (vp->result)
			*vp->result = ret;
		if (ret) {
			char line[TUI_NAMED_PATH_LEN + MSG_MAX];

			snprintf(line, sizeof(line), "%s: %s", vp->cfg->path, why ? why : "failed");
			vp->message(line);
		}
	}
}

int tui_multi_run(const struct view_params *vp, size_t n, char *msg, size_t msglen)
{
	struct tui_term_opts to = { vp[0].cfg->ascii, vp[0].cfg->no_color };
	struct sigaction old_wake;
	struct ov *o = ov_new(vp, n, &to);
	int ret;

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
	tui_wake_install(&old_wake);
	ret = ov_start(o, msg, msglen);
	if (!ret) {
		for (size_t i = 0; i < n; i++)
			tui_relayout(o->tg[i].t);
		ov_rows(o, clock_now());
		ov_paint(o, clock_now());
		ov_loop(o);
	}
	tui_term_close(vp[0].deferred_stderr);
	ov_end(o);
	tui_wake_restore(&old_wake);
	ov_free(o);
	return ret;
}
