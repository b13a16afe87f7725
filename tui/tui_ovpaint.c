/*
 * tui_ovpaint: painting the overview of several targets with curses — the
 * title, the column heads, a row per target shown (the selected and the
 * slowest marked), the selected row's verdict, the status line and the
 * footer of keys, the help overlay. Shared by the live overview
 * (tui_multi.c) and a replay's (tui_replay.c); every rule is
 * tui_overview.c's, every key tui_keys.c's.
 */
#include "config.h"

#include "tui_ovpaint.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "tui_draw.h"
#include "tui_fmt.h"
#include "tui_keys.h"
#include "tui_text.h"
#include "verdict.h"

/* Where target i is in the rows shown, or TUI_OV_NONE. */
static size_t ovp_pos(const struct tui_ovp *o, size_t i)
{
	for (size_t k = 0; k < o->nshow; k++)
		if (o->order[k] == i)
			return k;
	return TUI_OV_NONE;
}

/* ---- painting --------------------------------------------------------------------------- */

/* The status lines below the rows: the selected row's verdict from 12 rows up, the slowest. */
static int ov_status_rows(void)
{
	return LINES >= 12 ? 2 : 1;
}

/* The rows of targets that fit (title, headings, status lines and footer take the rest). */
size_t tui_ovp_fit_rows(void)
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

static void ov_paint_row(struct tui_ovp *o, int y, size_t i, const struct tui_ov_cols *c,
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
static void ov_paint_title(struct tui_ovp *o, const struct tui_ov_cols *c, size_t rows,
			   uint64_t lo, uint64_t hi)
{
	char t[6][160], cols[16] = "", a[TUI_FMT_LEN], b[TUI_FMT_LEN], line[1024];
	struct tui_fit_item it[6];
	int n = 0;

	if (o->head)
		snprintf(t[n], sizeof(t[n]), "%s%s%zu targets", o->head, o->ascii ? " - " : " · ",
			 o->n);
	else
		snprintf(t[n], sizeof(t[n]), COLS >= 60 ? "ioprobe: %zu targets" : "%zu targets",
			 o->n);
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
static void ov_paint_selected(struct tui_ovp *o, int y)
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
static void ov_paint_status(struct tui_ovp *o, int y)
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
	if (o->note) {
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

static void ov_paint_footer(struct tui_ovp *o, int y)
{
	struct tui_keys_ctx k = { o->ascii ? "up/down" : "↑↓", o->n, o->all, o->keys };
	char buf[512];

	tui_keys_overview_footer_fit(&k, COLS, buf, sizeof(buf));
	tui_text_put(y, 0, COLS, TA_KEY, buf);
}

void tui_ovp_paint(struct tui_ovp *o)
{
	struct tui_ov_cols c;
	size_t rows = tui_ovp_fit_rows();
	uint64_t lo = UINT64_MAX, hi = 0;
	int need = 0;

	erase();
	if (LINES < 6 || COLS < 40) {
		tui_text_put(0, 0, COLS, TA_WARN, "terminal too small for the overview");
		refresh();
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
		size_t pos = ovp_pos(o, o->sel);

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
	ov_paint_status(o, LINES - 2);
	ov_paint_footer(o, LINES - 1);
	if (o->help)
		tui_draw_overview_help(COLS, LINES, o->ascii, tui_ov_rule_text(), o->window_help,
				       o->keys);
	refresh();
}

