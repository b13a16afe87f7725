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

static const struct tui_iodev *ov_top_dev(const struct tui_iostat *io)
{
	for (size_t i = 0; !io->no_blockdev && i < io->ndev; i++)
		if (io->dev[i].top)
			return &io->dev[i];
	return NULL;
}

/* The row's sparkline: each of the last TUI_OV_SPARK_MAX seconds' highest latency. */
static void ov_spark(struct ov *o, const struct ov_target *tg, const struct tui_peek *p,
		     struct tui_ov_row *row)
{
	uint64_t sec = p->now / TUI_OV_SEC_NS;

	tui_model_columns(p->m, TUI_WIN_1MIN, p->now, o->cols, TUI_OV_SPARK_MAX);
	for (int j = 0; j < TUI_OV_SPARK_MAX; j++) {
		uint64_t back = (uint64_t)(TUI_OV_SPARK_MAX - 1 - j);

		if (back > sec || (sec - back) * TUI_OV_SEC_NS < tg->startup)
			continue; /* before the run, or its start-up */
		if (o->cols[j].n)
			row->spark[j] = o->cols[j].max;
		if (o->cols[j].err)
			row->spark_fail |= 1ull << j;
	}
}

static void ov_row(struct ov *o, size_t i, uint64_t mono)
{
	struct ov_target *tg = &o->tg[i];
	struct tui_ov_row *row = &o->rows[i];
	struct sbuf sb = SBUF_INIT;
	const struct tui_iodev *d;
	const struct tui_row *last;
	struct tui_peek p;

	tui_peek(tg->t, mono, &p);
	memset(row, 0, sizeof(*row));
	esc_puts(&sb, p.target);
	snprintf(row->target, sizeof(row->target), "%s", sbuf_str(&sb));
	if (p.name)
		snprintf(row->name, sizeof(row->name), "%s", p.name); /* [A-Za-z0-9_.:+-] only */
	sbuf_free(&sb);
	row->asked = p.interval ? 1e9 / (double)p.interval : 0;
	last = tui_model_row(p.m, 0);
	if (last && last->wall)
		row->achieved = (double)last->requests * 1e9 / (double)last->wall;
	row->last = tg->last;
	tui_ov_win_get(&tg->win, o->window, p.now, &o->hist);
	row->count = o->hist.count;
	row->p50 = tui_ov_hist_pct(&o->hist, 50);
	row->p99 = tui_ov_hist_pct(&o->hist, 99);
	row->max = o->hist.count ? o->hist.max : 0;
	row->failed = p.m->total.failed;
	row->skipped = p.m->total.skipped;
	ov_spark(o, tg, &p, row);
	d = ov_top_dev(p.io);
	if (d) {
		snprintf(row->dev, sizeof(row->dev), "%s", d->name);
		row->have_io = d->state == TUI_IO_OK;
		row->busy = d->row.util;
		row->await = d->row.await;
	}
	/* the verdict of its own screen's iostat panel, judged on the same intervals */
	if (p.verdict && p.verdict->have) {
		row->have_verdict = true;
		row->v = p.verdict->v;
	}
	if (p.state == SESSION_FAILED)
		row->state = "failed";
	else if (p.state == SESSION_DONE)
		row->state = "ended";
	else if (p.paused)
		row->state = "paused";
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

/* ---- painting --------------------------------------------------------------------------- */

/* The status lines below the rows: the selected row's verdict from 12 rows up, the slowest. */
static int ov_status_rows(void)
{
	return LINES >= 12 ? 2 : 1;
}

/* The rows of targets that fit (title, headings, status lines and footer take the rest). */
static size_t ov_fit_rows(void)
{
	int rows = LINES - 3 - ov_status_rows();

	return rows > 0 ? (size_t)rows : 0;
}

static enum tui_attr ov_verdict_attr(const struct tui_ov_row *r)
{
	switch (tui_ov_vclass(r)) {
	case TUI_OV_VC_DEVICE: return TA_ERROR;
	case TUI_OV_VC_PROBE: return TA_WARN;
	case TUI_OV_VC_OK: return TA_OK;
	case TUI_OV_VC_NONE: break;
	}
	return TA_DIM;
}

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

static void ov_paint_row(struct ov *o, int y, size_t i, const struct tui_ov_cols *c,
			 uint64_t lo, uint64_t hi)
{
	const struct tui_ov_row *r = &o->rows[i];
	bool sel = i == o->sel, slow = i == o->slowest;
	enum tui_attr a = sel ? TA_SEL : slow ? TA_BAD : TA_DATA;
	char buf[64], x[TUI_FMT_LEN], z[TUI_FMT_LEN], spark[3 * TUI_OV_SPARK_MAX + 1];

	if (sel || slow)
		tui_text_fill(y, 0, COLS, a, " ");
	snprintf(buf, sizeof(buf), "%c%c%3zu ", sel ? '>' : ' ', slow ? '!' : ' ', i + 1);
	tui_text_put(y, c->x[TUI_OV_NUM], c->w[TUI_OV_NUM], a, buf);
	ov_target_cell(y, c, a, tui_ov_label(r));
	if (c->w[TUI_OV_DEV])
		tui_text_put(y, c->x[TUI_OV_DEV], c->w[TUI_OV_DEV] - 1, a,
			     r->dev[0] ? r->dev : "-");
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
	if (c->w[TUI_OV_VERDICT])
		tui_text_put(y, c->x[TUI_OV_VERDICT], c->w[TUI_OV_VERDICT] - 1,
			     sel || slow ? a : ov_verdict_attr(r), tui_ov_vshort(r));
	snprintf(buf, sizeof(buf), "%.0f%%", r->busy);
	ov_cell(y, c, TUI_OV_BUSY, a, r->have_io ? buf : "-");
	ov_cell_time(y, c, TUI_OV_AWAIT, a, r->have_io ? (uint64_t)(r->await * 1e6) : 0,
		     o->ascii);
	if (c->w[TUI_OV_SPARKC]) {
		tui_ov_spark(r, c->w[TUI_OV_SPARKC] - 1, lo, hi, o->ascii, spark, sizeof(spark));
		tui_text_put(y, c->x[TUI_OV_SPARKC] + 1, c->w[TUI_OV_SPARKC] - 1, a, spark);
	}
}

/*
 * The title row: the targets, what the latency columns cover, the filter,
 * the rows shown, the sort and the sparkline's scale, the least needed left
 * out when the width is short.
 */
static void ov_paint_title(struct ov *o, const struct tui_ov_cols *c, size_t rows,
			   uint64_t lo, uint64_t hi)
{
	char t[6][160], cols[16] = "", a[TUI_FMT_LEN], b[TUI_FMT_LEN], line[1024];
	struct tui_fit_item it[6];
	int n = 0;

	snprintf(t[n], sizeof(t[n]), COLS >= 60 ? "ioprobe: %zu targets" : "%zu targets", o->n);
	it[n] = (struct tui_fit_item){ t[n], 0 };
	n++;
	snprintf(cols, sizeof(cols), "%s%s%s%s", c->w[TUI_OV_P50] ? "p50/" : "", "p99",
		 c->w[TUI_OV_MAX] ? "/max" : "", o->window == TUI_OV_WALL ? ":" : "");
	snprintf(t[n], sizeof(t[n]), "%s %s", cols, tui_ov_window_label(o->window));
	it[n] = (struct tui_fit_item){ t[n], 0 };
	n++;
	if (o->filter[0]) {
		snprintf(t[n], sizeof(t[n]), "filter \"%s\": %zu of %zu", o->filter, o->nshow,
			 o->n);
		it[n] = (struct tui_fit_item){ t[n], 0 };
		n++;
	}
	if (o->nshow > rows) {
		snprintf(t[n], sizeof(t[n]), "rows %zu-%zu of %zu", o->top + 1, o->top + rows,
			 o->nshow);
		it[n] = (struct tui_fit_item){ t[n], 1 };
		n++;
	}
	if (o->sort != TUI_OV_SORT_GIVEN) {
		snprintf(t[n], sizeof(t[n]), "sort: %s", tui_ov_sort_name(o->sort));
		it[n] = (struct tui_fit_item){ t[n], 1 };
		n++;
	}
	if (c->w[TUI_OV_SPARKC] && hi) {
		tui_fmt_time(a, sizeof(a), lo, o->ascii);
		tui_fmt_time(b, sizeof(b), hi, o->ascii);
		snprintf(t[n], sizeof(t[n]), o->ascii ? "latency .%s..@%s log, 1 s/cell" :
			 "latency ▁%s..█%s log, 1 s/cell", a, b);
		it[n] = (struct tui_fit_item){ t[n], 2 };
		n++;
	}
	tui_fmt_fit(line, sizeof(line), it, n, COLS);
	tui_text_put(0, 0, COLS, TA_TITLE, line);
}

static void ov_paint_heads(const struct tui_ov_cols *c)
{
	for (int k = 0; k < TUI_OV_NCOLS; k++) {
		if (!c->w[k])
			continue;
		if (k == TUI_OV_TARGET || k == TUI_OV_DEV || k == TUI_OV_VERDICT)
			tui_text_put(1, c->x[k], c->w[k] - 1, TA_HEAD, tui_ov_col_name(k));
		else if (k == TUI_OV_SPARKC)
			tui_text_put(1, c->x[k] + 1, c->w[k] - 1, TA_HEAD, tui_ov_col_name(k));
		else
			tui_text_put_right(1, c->x[k], c->w[k] - 1, TA_HEAD, tui_ov_col_name(k));
	}
}

/* The selected row's whole verdict, as its screen's iostat panel says it (clauses left out
 * from the end when it does not fit). */
static void ov_paint_selected(struct ov *o, int y)
{
	const struct tui_ov_row *r = &o->rows[o->sel];
	struct sbuf sb = SBUF_INIT;
	char line[1024];

	if (!o->nshow)
		return;
	if (r->have_verdict)
		verdict_format_brief(&sb, &r->v);
	snprintf(line, sizeof(line), "> #%zu %s: %s", o->sel + 1, tui_ov_label(r),
		 r->have_verdict ? sbuf_str(&sb) : r->dev[0] ? "no verdict yet" :
		 "no verdict (no block device)");
	sbuf_free(&sb);
	tui_ov_fit_clauses(line, COLS);
	tui_text_put(y, 0, COLS, TA_NORMAL, line);
}

/* The line above the footer: the filter being typed, a note, else the slowest and why. */
static void ov_paint_status(struct ov *o, int y, uint64_t mono)
{
	char buf[512], why[256];
	const struct tui_ov_row *r;

	if (o->editing) {
		snprintf(buf, sizeof(buf), "filter: %s_", o->edit);
		tui_text_put(y, 0, COLS, TA_KEY, buf);
		snprintf(buf, sizeof(buf), "  Enter applies, Esc clears");
		if (tui_text_width(o->edit) + 10 + tui_text_width(buf) <= COLS)
			tui_text_put(y, tui_text_width(o->edit) + 9, COLS, TA_DIM, buf);
		return;
	}
	if (mono < o->note_until) {
		tui_text_put(y, 0, COLS, TA_WARN, o->note);
		return;
	}
	if (o->slowest == TUI_OV_NONE) {
		tui_text_put(y, 0, COLS, TA_LABEL, "slowest: not known yet");
		return;
	}
	r = &o->rows[o->slowest];
	snprintf(buf, sizeof(buf), "! slowest: #%zu %s %s %s", o->slowest + 1, tui_ov_label(r),
		 o->ascii ? "-" : "—", tui_ov_reason(r, o->ascii, why, sizeof(why)));
	tui_ov_fit_clauses(buf, COLS);
	if (tui_text_width(buf) > COLS) { /* narrow: the verdict column's words, or the p99 */
		const char *label = tui_ov_label(r), *path = label;
		char t[TUI_FMT_LEN];
		int room;

		if (tui_ov_vclass(r) == TUI_OV_VC_DEVICE)
			snprintf(why, sizeof(why), ": %s", tui_ov_vshort(r));
		else
			snprintf(why, sizeof(why), ": p99 %s",
				 tui_fmt_time(t, sizeof(t), r->p99, o->ascii));
		snprintf(buf, sizeof(buf), "! slowest: #%zu ", o->slowest + 1);
		room = COLS - tui_text_width(buf) - tui_text_width(why);
		while (tui_text_width(label) > room && *path && tui_text_width(path) > room - 1) {
			path++; /* its end tells targets apart */
			while ((*path & 0xc0) == 0x80)
				path++;
		}
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s%s",
			 path == label ? "" : "<", path, why);
	}
	tui_text_put(y, 0, COLS, TA_BAD, buf);
}

static void ov_paint_footer(struct ov *o, int y)
{
	struct tui_keys_ctx k = { o->ascii ? "up/down" : "↑↓", o->n, o->all };
	char buf[512];

	tui_keys_overview_footer_fit(&k, COLS, buf, sizeof(buf));
	tui_text_put(y, 0, COLS, TA_KEY, buf);
}

/* What the help says of the windows. */
static const char ov_window_help[] =
	"p50/p99/max: the last 10 s, the last 60 s (60-64 s: 5 s steps) or all (w), after the "
	"first full interval or the last r; last: the latest request. Sparkline: a cell a "
	"second (its highest latency) on one log scale for all rows.";

static void ov_paint(struct ov *o, uint64_t mono)
{
	struct tui_ov_cols c;
	size_t rows = ov_fit_rows();
	uint64_t lo = UINT64_MAX, hi = 0;
	int need = 0;

	erase();
	if (LINES < 6 || COLS < 40) {
		tui_text_put(0, 0, COLS, TA_WARN, "terminal too small for the overview");
		refresh();
		o->last_draw = mono;
		o->dirty = false;
		return;
	}
	for (size_t k = 0; k < o->nshow; k++) {
		int w = tui_text_width(tui_ov_label(&o->rows[o->order[k]]));

		need = w > need ? w : need;
	}
	tui_ov_columns(COLS, need, &c);
	for (size_t k = 0; c.w[TUI_OV_SPARKC] && k < o->nshow; k++)
		tui_ov_spark_range(&o->rows[o->order[k]], c.w[TUI_OV_SPARKC] - 1, &lo, &hi);
	if (o->nshow) {
		size_t pos = ov_pos(o, o->sel);

		o->top = tui_ov_scroll(o->top, pos == TUI_OV_NONE ? 0 : pos, o->nshow, rows);
	}
	ov_paint_title(o, &c, rows, lo, hi);
	ov_paint_heads(&c);
	for (size_t k = o->top; k < o->nshow && k < o->top + rows; k++)
		ov_paint_row(o, 2 + (int)(k - o->top), o->order[k], &c, lo, hi);
	if (!o->nshow && rows) {
		char buf[160];

		snprintf(buf, sizeof(buf), "no target's path or name contains \"%s\" (/ then Esc "
			 "clears)",
			 o->filter);
		tui_text_put(2, 0, COLS, TA_WARN, buf);
	}
	if (ov_status_rows() > 1)
		ov_paint_selected(o, LINES - 3);
	ov_paint_status(o, LINES - 2, mono);
	ov_paint_footer(o, LINES - 1);
	if (o->help)
		tui_draw_overview_help(COLS, LINES, o->ascii, tui_ov_rule_text(), ov_window_help);
	refresh();
	o->last_draw = mono;
	o->dirty = false;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* The footer's note on target i's screen: how to get back, as long as half the width allows. */
static void ov_sticky(struct ov *o, size_t i)
{
	struct ov_target *tg = &o->tg[i];
	int half = COLS / 2;

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
	size_t pos = ov_pos(o, o->sel);
	long s;

	if (!o->nshow)
		return;
	s = (pos == TUI_OV_NONE ? 0 : (long)pos) + d;
	s = s < 0 ? 0 : (size_t)s >= o->nshow ? (long)o->nshow - 1 : s;
	o->sel = o->order[s];
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

static void ov_key(struct ov *o, int ch)
{
	long page = (long)ov_fit_rows() > 0 ? (long)ov_fit_rows() : 1;
	enum tui_action act;
	char buf[160];

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
			ov_sticky(o, (size_t)o->cur);
		} else if (tui_key_action(ch) == TUI_ACT_QUIT) {
			o->quit = true;
		} else {
			tui_key(o->tg[o->cur].t, ch);
		}
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
	act = tui_key_action_in(TUI_KEYS_OVERVIEW, ov_plain_key(ch));
	if (o->help && act != TUI_ACT_QUIT && act != TUI_ACT_REDRAW) {
		o->help = false; /* any key closes the help */
		return;
	}
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
	}
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
		o->window = (enum tui_ov_window)((o->window + 1) % TUI_OV_NWINDOWS);
		snprintf(buf, sizeof(buf), "p50, p99, max: %s", tui_ov_window_label(o->window));
		ov_note(o, buf);
		ov_rows(o, clock_now());
		break;
	case TUI_ACT_SORT:
		o->sort = (enum tui_ov_sort)((o->sort + 1) % TUI_OV_NSORTS);
		snprintf(buf, sizeof(buf), "sorted by %s", tui_ov_sort_name(o->sort));
		ov_note(o, buf);
		ov_reorder(o);
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
	free(o->rows);
	free(o->order);
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
	o->window = TUI_OV_W60;
	o->ascii = tui_term_want_ascii(to);
	o->tg = calloc(n, sizeof(*o->tg));
	o->rows = calloc(n, sizeof(*o->rows));
	o->order = calloc(n, sizeof(*o->order));
	o->pfd = calloc(n + 1, sizeof(*o->pfd));
	if (!o->tg || !o->rows || !o->order || !o->pfd) {
		ov_free(o);
		return NULL;
	}
	prefault(o->tg, n * sizeof(*o->tg)); /* the windows fill over a minute */
	for (size_t i = 0; i < n; i++) {
		struct ov_target *tg = &o->tg[i];

		tg->t = tui_new(&vp[i], to);
		if (!tg->t) {
			ov_free(o);
			return NULL;
		}
		/* the windows and the sparkline start after the first full interval (and at
		 * least a second): no start-up in them */
		tg->startup = vp[i].probe->cfg.interval > TUI_OV_SEC_NS ?
				      vp[i].probe->cfg.interval : TUI_OV_SEC_NS;
		tui_ov_win_init(&tg->win, tg->startup);
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
