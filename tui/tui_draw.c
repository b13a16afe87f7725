#include "config.h"

#include "tui_draw.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "sbuf.h"
#include "tui_fmt.h"
#include "tui_heat.h"
#include "tui_keys.h"
#include "tui_text.h"
#include "common.h"

/* ---- header and footer ------------------------------------------------------------------ */

static enum tui_attr tui_state_attr(enum tui_state_cls c)
{
	return c == TUI_STATE_BAD ? TA_BAD : c == TUI_STATE_WARN ? TA_WARN : TA_OK;
}

static void tui_draw_header(const struct tui_frame *f, const struct tui_rect *r)
{
	char line[1024], a[TUI_FMT_LEN], b[TUI_FMT_LEN], el[TUI_FMT_LEN], state[160];
	const char *sep = f->ascii ? " | " : " │ ";
	const char *stack = f->io ? f->io->stack : "";
	int sw;

	snprintf(state, sizeof(state), " %s%s ", f->state, f->frozen ? " · display frozen" : "");
	if (f->ascii)
		snprintf(state, sizeof(state), " %s%s ", f->state,
			 f->frozen ? " - display frozen" : "");
	sw = tui_text_width(state);
	if (sw > r->w / 2)
		sw = r->w / 2;
	tui_text_fill(r->y, r->x, r->w, TA_HEAD, " ");
	tui_fmt_bytes(a, sizeof(a), (double)f->size);
	tui_fmt_bytes(b, sizeof(b), (double)f->work_size);
	tui_fmt_elapsed(el, sizeof(el), f->elapsed);
	if (r->h >= 2) {
		snprintf(line, sizeof(line), " ioprobe %s%s%s", f->target, *stack ? sep : "",
			 stack);
		tui_text_put(r->y, r->x, r->w - sw - 1, TA_HEAD, line);
		snprintf(line, sizeof(line), " %s%ssize %s%sworking set %s%s%s%selapsed %s",
			 f->mode, sep, a, sep, b, sep, f->pace, sep, el);
		if (!f->work_size) /* not known (a replay): not shown */
			snprintf(line, sizeof(line), " %s%ssize %s%s%s%selapsed %s", f->mode, sep, a,
				 sep, f->pace, sep, el);
		if (tui_text_width(line) > r->w && f->work_size) /* the short form */
			snprintf(line, sizeof(line), " %s%s%s, ws %s%s%s%s%s", f->mode, sep, a, b,
				 sep, f->pace, sep, el);
		else if (tui_text_width(line) > r->w)
			snprintf(line, sizeof(line), " %s%s%s%s%s%s%s", f->mode, sep, a, sep, f->pace,
				 sep, el);
		tui_text_put(r->y + 1, r->x, r->w, TA_NORMAL, line);
	} else {
		snprintf(line, sizeof(line), " %s%s%s%s%s%s%s", f->target, sep, f->mode, sep,
			 f->pace, sep, el);
		tui_text_put(r->y, r->x, r->w - sw - 1, TA_HEAD, line);
	}
	tui_text_put(r->y, r->x + r->w - sw, sw, tui_state_attr(f->state_cls), state);
}

static void tui_draw_footer(const struct tui_frame *f, const struct tui_rect *r)
{
	char right[160] = "";
	int x = r->x, end = r->x + r->w, rw;
	size_t n;
	const struct tui_keydef *keys = tui_keys(&n);

	if (f->note)
		snprintf(right, sizeof(right), "%s ", f->note);
	else if (f->m->warnings)
		snprintf(right, sizeof(right), "warning: %s ", f->m->warning);
	rw = tui_text_width(right);
	if (rw > r->w / 2)
		rw = r->w / 2;
	for (size_t i = 0; i < n; i++) {
		int need;

		if (!keys[i].footer || !(keys[i].scope & (f->keys ? f->keys : TUI_KEYS_SCREEN)))
			continue;
		need = tui_text_width(keys[i].footer) + 1 + tui_text_width(keys[i].label) + 2;
		if (x + need > end - rw)
			break;
		x += 1 + tui_text_put(r->y, x + 1, end - x, TA_KEY, keys[i].footer);
		x += 1 + tui_text_put(r->y, x + 1, end - x, TA_NORMAL, keys[i].label);
		x += 1;
	}
	if (rw > 0)
		tui_text_put(r->y, end - rw, rw, f->note ? TA_BOLD : TA_WARN, right);
}

/* ---- graph ------------------------------------------------------------------------------ */

size_t tui_draw_graph_cells(const struct tui_layout *lay)
{
	const struct tui_rect *r = &lay->r[TUI_GRAPH];
	int w = r->w - TUI_GRAPH_LABEL_W - 1, h = r->h - 3;

	if (lay->too_small || r->h <= 0 || w <= 0)
		return 0;
	if (w > TUI_GRAPH_MAX_W)
		w = TUI_GRAPH_MAX_W;
	if (h < 1)
		h = 1;
	return (size_t)w * (size_t)(h + 1);
}

static enum tui_attr tui_cls_attr(uint8_t cls)
{
	switch (cls) {
	case TUI_CLS_DATA: return TA_DATA;
	case TUI_CLS_SLOW: return TA_SLOW;
	case TUI_CLS_ERROR: return TA_ERROR;
	case TUI_CLS_CLIP: return TA_CLIP;
	case TUI_CLS_PAUSED: return TA_PAUSED;
	case TUI_CLS_SKIP: return TA_WARN;
	case TUI_CLS_HEAT: return TA_DATA;
	case TUI_CLS_HEAT1: return TA_HEAT1;
	case TUI_CLS_HEAT2: return TA_HEAT2;
	case TUI_CLS_HEAT3: return TA_HEAT3;
	case TUI_CLS_HEAT4: return TA_HEAT4;
	case TUI_CLS_HEAT5: return TA_HEAT5;
	case TUI_CLS_P99: return TA_P99;
	default: return TA_NORMAL;
	}
}

/* One row of composed cells, in runs of equal class. */
static void tui_draw_cells(int y, int x, const struct tui_cell *c, int n)
{
	int i = 0;

	while (i < n) {
		char buf[4 * TUI_GRAPH_MAX_W + 1];
		size_t pos = 0;
		int j = i;

		while (j < n && c[j].cls == c[i].cls) {
			pos += tui_graph_utf8(c[j].ch, buf + pos);
			j++;
		}
		buf[pos] = '\0';
		tui_text_put(y, x + i, j - i, tui_cls_attr(c[i].cls), buf);
		i = j;
	}
}

/* The heatmap over the scatter's plot cells (the marks row stays): one column a cell. */
static void tui_draw_heat_plot(const struct tui_frame *f, const struct tui_scale *sc, int pw,
			       int ph)
{
	const struct tui_heat_ring *ring = &f->m->heat[f->win < TUI_WINDOWS ? f->win : 0];
	uint64_t span = tui_model_window_ns(f->win), cw = span / (uint64_t)pw, a_now;
	int p99[TUI_GRAPH_MAX_W];
	double bins[TUI_HEAT_BINS];

	if (!f->heat || (size_t)pw * (size_t)ph > f->ncells)
		return;
	if (!cw)
		cw = 1;
	a_now = f->now / cw;
	for (int x = 0; x < pw; x++) {
		uint64_t back = (uint64_t)(pw - 1 - x), t0;
		double *rowv = f->heat + (size_t)x * (size_t)ph;
		int n;

		p99[x] = -1;
		for (int r = 0; r < ph; r++)
			rowv[r] = 0;
		if (back > a_now)
			continue; /* before the run started */
		t0 = (a_now - back) * cw;
		n = tui_heat_ring_sum(ring, t0, t0 + cw, f->now, bins);
		if (!n)
			continue;
		for (int b = 0; b < TUI_HEAT_BINS; b++)
			bins[b] /= n;
		p99[x] = tui_heat_column(bins, sc, ph, rowv);
	}
	tui_heat_compose(f->heat, p99, pw, ph,
			 f->color && !f->ascii ? TUI_HEAT_COLOURS : TUI_HEAT_CHARS, f->cells);
}

static void tui_draw_graph(const struct tui_frame *f, const struct tui_rect *r)
{
	char title[128], right[128], win[TUI_FMT_LEN], axis[TUI_GRAPH_MAX_W + 1];
	char labels[256][TUI_LABEL_LEN];
	int pw = r->w - TUI_GRAPH_LABEL_W - 1, ph = r->h - 3, px = r->x + TUI_GRAPH_LABEL_W + 1;
	struct tui_scale sc;
	enum tui_attr ra = TA_DIM;

	tui_fmt_span(win, sizeof(win), tui_model_window_ns(f->win), f->ascii);
	snprintf(title, sizeof(title), " %s: %s scale, %s window%s ",
		 f->response ? "response time" : "latency", f->log ? "log" : "linear", win,
		 f->frozen ? ", FROZEN" : "");
	if (f->heatmap)
		snprintf(title, sizeof(title), " latency heatmap: log scale, %s window%s ", win,
			 f->frozen ? ", FROZEN" : "");
	if (f->inflight) {
		char t[TUI_FMT_LEN];

		snprintf(right, sizeof(right), " request in flight for %s ",
			 tui_fmt_time(t, sizeof(t), f->inflight, f->ascii));
		ra = TA_BAD;
	} else {
		snprintf(right, sizeof(right), "%s",
			 " x failed  s skipped  ! slow  ^ clipped  - paused ");
		if (tui_text_width(title) + tui_text_width(right) + 6 > r->w) /* the short form */
			snprintf(right, sizeof(right), "%s", " x fail  s skip  ! slow  ^ clip  - pause ");
		if (f->heatmap)
			snprintf(right, sizeof(right), "%s",
				 f->color && !f->ascii ? " few blue..red many  \u2500 p99 " :
				 " few .:-=+*#%@ many  ~ p99 ");
	}
	tui_text_title(r, title, right, ra, f->ascii);
	if (pw <= 0 || r->h < 2)
		return;
	if (pw > TUI_GRAPH_MAX_W)
		pw = TUI_GRAPH_MAX_W;
	if (ph < 1)
		ph = 1;
	if (ph > 256)
		ph = 256;
	if ((size_t)pw * (size_t)(ph + 1) > f->ncells)
		return;
	tui_model_columns(f->m, f->win, f->now, f->cols, 2 * pw);
	for (int i = 0; f->response && !f->heatmap && i < 2 * pw; i++) {
		f->cols[i].min = f->cols[i].rmin;
		f->cols[i].max = f->cols[i].rmax;
	}
	tui_graph_scale(f->cols, 2 * pw, f->log || f->heatmap, &sc);
	tui_graph_compose(f->cols, pw, ph, &sc, f->ascii, f->cells, f->cells + pw * ph);
	if (f->heatmap)
		tui_draw_heat_plot(f, &sc, pw, ph);
	tui_graph_ylabels(&sc, ph, f->ascii, labels);
	for (int row = 0; row < ph && row + 1 < r->h; row++) {
		int y = r->y + 1 + row;

		tui_text_put_right(y, r->x, TUI_GRAPH_LABEL_W - 1, TA_LABEL, labels[row]);
		tui_text_put(y, r->x + TUI_GRAPH_LABEL_W, 1, TA_DIM,
			labels[row][0] ? (f->ascii ? "+" : "┤") : tui_text_vline(f->ascii));
		tui_draw_cells(y, px, f->cells + row * pw, pw);
	}
	if (r->h >= ph + 2) {
		int y = r->y + 1 + ph;

		tui_text_put(y, r->x + TUI_GRAPH_LABEL_W, 1, TA_DIM, tui_text_vline(f->ascii));
		tui_draw_cells(y, px, f->cells + pw * ph, pw);
	}
	if (r->h >= ph + 3) {
		int y = r->y + 2 + ph;

		tui_text_put(y, r->x + TUI_GRAPH_LABEL_W, 1, TA_DIM, f->ascii ? "+" : "└");
		tui_graph_xaxis_at(axis, sizeof(axis), pw, tui_model_window_ns(f->win),
				   f->now_label ? f->now_label : "now");
		tui_text_put(y, px, pw, TA_LABEL, axis);
	}
}

/* ---- histogram ---------------------------------------------------------------------------- */

/* The window's latency histogram: one bar a row of bins, p50/p99/p99.9 marked. */
static void tui_draw_hist(const struct tui_frame *f, const struct tui_rect *r)
{
	const struct tui_heat_ring *ring = &f->m->heat[f->win < TUI_WINDOWS ? f->win : 0];
	uint64_t span = tui_model_window_ns(f->win);
	double bins[TUI_HEAT_BINS];
	static struct tui_hist h; /* 2 KB: the painter's, one thread */
	char title[160], right[160], win[TUI_FMT_LEN], a[TUI_FMT_LEN], b[TUI_FMT_LEN];
	char c[TUI_FMT_LEN], line[256];
	int bar_w, label_w = 10, tail_w = 28;

	tui_heat_ring_sum(ring, f->now >= span ? f->now - span + 1 : 0, f->now + 1, f->now, bins);
	tui_heat_hist(bins, r->h - 1, &h);
	tui_fmt_span(win, sizeof(win), span, f->ascii);
	snprintf(title, sizeof(title), " latency histogram: %s window, %" PRIu64 " requests ", win,
		 h.total);
	right[0] = '\0';
	if (h.nrows) {
		int p[3] = { tui_heat_pct_bin(bins, 50), tui_heat_pct_bin(bins, 99),
			     tui_heat_pct_bin(bins, 99.9) };
		uint64_t v[3];

		for (int i = 0; i < 3; i++)
			v[i] = tui_heat_bin_low(p[i]) / 2 + tui_heat_bin_high(p[i]) / 2;
		snprintf(right, sizeof(right), " p50 %s  p99 %s  p99.9 %s ",
			 tui_graph_label(a, sizeof(a), v[0], f->ascii),
			 tui_graph_label(b, sizeof(b), v[1], f->ascii),
			 tui_graph_label(c, sizeof(c), v[2], f->ascii));
	}
	tui_text_title(r, title, right, TA_DIM, f->ascii);
	bar_w = r->w - label_w - 1 - tail_w;
	if (bar_w < 4) {
		tail_w = r->w - label_w - 5;
		bar_w = 4;
	}
	if (!h.nrows) {
		if (r->h >= 2)
			tui_text_put(r->y + 1, r->x + 1, r->w - 1, TA_DIM, "no requests in the window");
		return;
	}
	for (int i = 0; i < h.nrows && i + 1 < r->h; i++) {
		const struct tui_hist_row *row = &h.r[i];
		int y = r->y + 1 + i, len = h.max ? (int)((row->n * (uint64_t)bar_w + h.max - 1) /
							  h.max) : 0;
		size_t at = 0;

		tui_graph_label(a, sizeof(a), row->lo, f->ascii);
		tui_text_put_right(y, r->x, label_w - 1, TA_LABEL, a);
		tui_text_put(y, r->x + label_w - 1, 1, TA_DIM, tui_text_vline(f->ascii));
		for (int k = 0; k < len && at + 4 < sizeof(line); k++)
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s",
					       f->ascii ? "#" : "\u2588");
		line[at] = '\0';
		tui_text_put(y, r->x + label_w, bar_w, row->marks ? TA_SLOW : TA_DATA, line);
		snprintf(line, sizeof(line), "%8" PRIu64 " %5.1f %%%s%s%s%s", row->n,
			 h.total ? 100.0 * (double)row->n / (double)h.total : 0.0,
			 row->marks ? (f->ascii ? "  <" : "  \u25c0") : "",
			 row->marks & TUI_HIST_P50 ? " p50" : "",
			 row->marks & TUI_HIST_P99 ? " p99" : "",
			 row->marks & TUI_HIST_P999 ? " p99.9" : "");
		tui_text_put(y, r->x + label_w + bar_w + 1, tail_w, row->marks ? TA_BOLD : TA_NORMAL,
			     line);
	}
}

/* ---- statistics ------------------------------------------------------------------------- */

/* The columns of the periods table, in display order. */
enum tui_stat_col {
	SC_END, SC_COUNT, SC_RUNTIME, SC_IOPS, SC_BPS, SC_MIN, SC_AVG, SC_MAX, SC_MDEV,
	SC_TOTAL, SC_WALL, SC_P99, SC_FAILED, SC_SKIPPED, SC_NCOLS
};

static const char *const tui_stat_heads[SC_NCOLS] = {
	"end", "count", "run time", "iops", "B/s", "min", "avg", "max", "mdev", "total", "wall",
	"p99", "failed", "skipped",
};

static const struct tui_colspec tui_stat_cols[SC_NCOLS] = {
	{ 8, 3 }, { 7, 0 }, { 10, 6 }, { 8, 1 }, { 11, 4 }, { 10, 5 }, { 10, 0 }, { 10, 2 },
	{ 10, 7 }, { 7, 8 }, { 10, 9 }, { 10, 10 }, { 7, 11 }, { 8, 2 }, /* skipped: a shortfall */
};

/* Text of column c for row (label used for the first column). */
static void tui_stat_cell(char *buf, size_t len, int c, const struct tui_row *row,
			  const char *label, bool ascii)
{
	switch (c) {
	case SC_END: snprintf(buf, len, "%s", label); break;
	case SC_COUNT: tui_fmt_count(buf, len, row->count); break;
	case SC_RUNTIME: tui_fmt_time(buf, len, row->sum, ascii); break;
	case SC_IOPS: tui_fmt_rate(buf, len, row->iops); break;
	case SC_BPS: tui_fmt_bytes(buf, len, row->bps); break;
	case SC_MIN: tui_fmt_time(buf, len, row->min, ascii); break;
	case SC_AVG: tui_fmt_time(buf, len, fmt_trunc(row->avg), ascii); break;
	case SC_MAX: tui_fmt_time(buf, len, row->max, ascii); break;
	case SC_MDEV: tui_fmt_time(buf, len, fmt_trunc(row->mdev), ascii); break;
	case SC_TOTAL: tui_fmt_count(buf, len, row->requests); break;
	case SC_WALL: tui_fmt_time(buf, len, row->wall, ascii); break;
	case SC_P99: tui_fmt_time(buf, len, row->p99, ascii); break;
	case SC_FAILED: tui_fmt_count(buf, len, row->failed); break;
	case SC_SKIPPED: tui_fmt_count(buf, len, row->skipped); break;
	default: buf[0] = '\0';
	}
}

static void tui_stat_line(int y, int x, const bool *shown, const struct tui_row *row,
			  const char *label, enum tui_attr a, bool ascii, bool own)
{
	for (int c = 0; c < SC_NCOLS; c++) {
		char buf[TUI_FMT_LEN];
		int w = tui_stat_cols[c].width;
		enum tui_attr ca = a;

		if (!shown[c])
			continue;
		if (row) {
			tui_stat_cell(buf, sizeof(buf), c, row, label, ascii);
			if (c == SC_FAILED && row->failed)
				ca = TA_ERROR;
		} else {
			snprintf(buf, sizeof(buf), "%s",
				 c == SC_END && !own ? "#" : tui_stat_heads[c]);
		}
		tui_text_put_right(y, x, w, ca, buf);
		x += w;
	}
}

/*
 * " service p50 7.41 ms  p90 ...  p99.9 ...  failed 0  skipped 12": the
 * percentiles of row (its response times when resp) and, with counts, its
 * counters; p90, then p99.9 and the rare counters are left out first when
 * the line does not fit.
 */
static void tui_pct_line(int y, int x, int w, const struct tui_row *row,
			 const struct pcts *pcts, bool resp, bool counts, bool ascii)
{
	const struct pcts *pc = pcts && pcts->n ? pcts : &pcts_default;
	const uint64_t *pct = resp ? row->rpct : row->pct;
	char t[PCTS_MAX + 4][2 * TUI_FMT_LEN], v[TUI_FMT_LEN], name[32], line[512];
	struct tui_fit_item it[PCTS_MAX + 4];
	int n = 0;

	for (unsigned i = 0; i < row->npct && i < pc->n; i++, n++) {
		/* kept longest: the first and p99; then the highest; the others go first */
		int prio = !i || pc->p[i] == 99 ? 0 : (int)(pc->n - i) + 1;

		if (pc == &pcts_default) /* p90 first, then p99.9, as before */
			prio = i == 1 ? 3 : i == 3 ? 2 : 0;
		snprintf(t[n], sizeof(t[n]), "%s%s %s", i ? "" : resp ? "response " : "service ",
			 pcts_label(pc->p[i], name, sizeof(name)),
			 tui_fmt_time(v, sizeof(v), pct[i], ascii));
		it[n] = (struct tui_fit_item){ t[n], prio };
	}
	if (counts) {
		const uint64_t val[4] = { row->failed, row->skipped, row->too_slow, row->too_fast };
		static const char *const cname[4] = { "failed", "skipped", "too slow", "too fast" };

		for (int i = 0; i < 4; i++) {
			if (i >= 2 && !val[i])
				continue;
			snprintf(t[n], sizeof(t[n]), "%s %s", cname[i],
				 tui_fmt_count(v, sizeof(v), val[i]));
			it[n] = (struct tui_fit_item){ t[n], i < 2 ? 0 : 1 };
			n++;
		}
	}
	line[0] = ' ';
	tui_fmt_fit(line + 1, sizeof(line) - 1, it, n, w - 1);
	tui_text_put(y, x, w, counts && row->failed ? TA_ERROR : TA_NORMAL, line);
}

/*
 * -G: one direction's service-time percentiles ("read  p50 63.2 us  p90 ...  (10 requests)"),
 * the least important dropped first when the line does not fit.
 */
static void tui_rw_line(int y, int x, int w, const char *dir, const struct stats *v,
			const struct pcts *pcts, bool ascii)
{
	const struct pcts *pc = pcts && pcts->n ? pcts : &pcts_default;
	char t[PCTS_MAX + 1][2 * TUI_FMT_LEN], val[TUI_FMT_LEN], name[32], line[512];
	struct tui_fit_item it[PCTS_MAX + 1];
	int n = 0;

	for (unsigned i = 0; i < pc->n; i++, n++) {
		snprintf(t[n], sizeof(t[n]), "%s%s %s", i ? "" : dir,
			 pcts_label(pc->p[i], name, sizeof(name)),
			 tui_fmt_time(val, sizeof(val), stats_percentile(v, pc->p[i]), ascii));
		it[n] = (struct tui_fit_item){ t[n], !i || pc->p[i] == 99 ? 0 : (int)(pc->n - i) + 1 };
	}
	snprintf(t[n], sizeof(t[n]), "(%s)", tui_fmt_count(val, sizeof(val), v->count));
	it[n] = (struct tui_fit_item){ t[n], 1 };
	n++;
	line[0] = ' ';
	tui_fmt_fit(line + 1, sizeof(line) - 1, it, n, w - 1);
	tui_text_put(y, x, w, TA_NORMAL, line);
}

static void tui_draw_stats(const struct tui_frame *f, const struct tui_rect *r)
{
	bool shown[SC_NCOLS], both = r->h >= 6; /* room for the response line too */
	/* -G with room: the reads' and the writes' lines at the bottom */
	int rw = f->m->cfg.split && r->h >= 8 ? 2 : 0;
	char title[96], right[96], el[TUI_FMT_LEN];
	struct tui_row total;
	int fit = r->h - 4 - both - rw, x = r->x, y, bottom = r->y + r->h - 1 - rw;

	snprintf(title, sizeof(title), " periods (%s) ", f->period_label);
	if (f->dropped) {
		/* the ring overflowed: this view's numbers miss requests (the summary does not) */
		snprintf(right, sizeof(right), " view missed %s requests ",
			 tui_fmt_count(el, sizeof(el), f->dropped));
		tui_text_title(r, title, right, TA_BAD, f->ascii);
	} else {
		snprintf(right, sizeof(right), " total since %s ",
			 tui_fmt_elapsed(el, sizeof(el), f->m->total_start));
		tui_text_title(r, title, right, TA_DIM, f->ascii);
	}
	if (r->h < 2)
		return;
	tui_layout_columns(tui_stat_cols, SC_NCOLS, r->w - 1, shown);
	tui_stat_line(r->y + 1, x, shown, NULL, NULL, TA_LABEL, f->ascii, f->own_periods);
	y = r->y + 2;
	for (int i = fit - 1; i >= 0; i--) {
		const struct tui_row *row = tui_model_row(f->m, (uint64_t)i);

		if (!row)
			continue;
		if (f->own_periods)
			tui_fmt_elapsed(el, sizeof(el), row->end);
		else
			snprintf(el, sizeof(el), "#%" PRIu64, row->index);
		tui_stat_line(y++, x, shown, row, el, row->failed ? TA_ERROR : TA_NORMAL,
			      f->ascii, f->own_periods);
	}
	if (r->h >= 3) {
		tui_model_tally_row(&f->m->total, f->total_wall, f->rc->size, &f->m->cfg.pcts, &total);
		tui_stat_line(r->h >= 4 ? bottom - 1 - both : bottom, x, shown, &total, "total",
			      TA_BOLD, f->ascii, f->own_periods);
	}
	if (r->h >= 4) {
		/* the service line, or (no room for both) the distribution the graph shows */
		tui_pct_line(bottom - both, x, r->w, &total, &f->m->cfg.pcts, !both && f->response,
			     true, f->ascii);
		if (both)
			tui_pct_line(bottom, x, r->w, &total, &f->m->cfg.pcts, true, false, f->ascii);
	}
	if (rw) {
		tui_rw_line(bottom + 1, x, r->w, "read  ", &f->m->read, &f->m->cfg.pcts, f->ascii);
		tui_rw_line(bottom + 2, x, r->w, "write ", &f->m->write, &f->m->cfg.pcts, f->ascii);
	}
}

/* ---- recent requests -------------------------------------------------------------------- */

static enum tui_attr tui_notice_attr(enum notice n)
{
	switch (n) {
	case NOTICE_SLOW:
	case NOTICE_TOO_SLOW: return TA_SLOW;
	case NOTICE_ERROR: return TA_ERROR;
	case NOTICE_WARMUP:
	case NOTICE_TOO_FAST:
	case NOTICE_EMPTY: return TA_DIM;
	default: return TA_NORMAL;
	}
}

static void tui_draw_recent(const struct tui_frame *f, const struct tui_rect *r)
{
	struct sbuf sb = SBUF_INIT;
	char right[64], n[TUI_FMT_LEN];
	int fit = r->h - 1, y = r->y + 1;

	snprintf(right, sizeof(right), " %s requests ", tui_fmt_count(n, sizeof(n), f->m->samples));
	tui_text_title(r, " recent requests ", right, TA_DIM, f->ascii);
	for (int i = fit - 1; i >= 0; i--) {
		const struct tui_line *l = tui_model_line(f->m, (uint64_t)i);
		const char *text, *req;

		if (!l)
			continue;
		if (l->gap) {
			y++;
			continue;
		}
		sbuf_reset(&sb);
		report_request_line(&sb, f->rc, &l->s, l->n, f->realtime_base + l->s.start);
		if (sb.len && sb.buf[sb.len - 1] == '\n')
			sb.buf[--sb.len] = '\0';
		text = sbuf_str(&sb);
		req = strstr(text, ": request=");
		if (tui_text_width(text) > r->w - 1 && req) {
			/* compact: keep "<size> <<< " and "request=...", drop "<path> (...): " */
			const char *arrow = strstr(text, l->s.op == OP_WRITE ? ">>> " : "<<< ");
			char line[512];

			if (arrow && arrow < req)
				snprintf(line, sizeof(line), "%.*s%s", (int)(arrow + 4 - text),
					 text, req + 2);
			else
				snprintf(line, sizeof(line), "%s", req + 2);
			tui_text_put(y, r->x + 1, r->w - 1, tui_notice_attr(l->n), line);
		} else {
			tui_text_put(y, r->x + 1, r->w - 1, tui_notice_attr(l->n), text);
		}
		y++;
	}
	sbuf_free(&sb);
}

/* ---- overlays --------------------------------------------------------------------------- */

static void tui_draw_box(bool ascii, const struct tui_rect *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		tui_text_fill(y, r->x, r->w, TA_NORMAL, " ");
	tui_text_fill(r->y, r->x, r->w, TA_BOLD, tui_text_hline(ascii));
	tui_text_fill(r->y + r->h - 1, r->x, r->w, TA_BOLD, tui_text_hline(ascii));
	for (int y = r->y; y < r->y + r->h; y++) {
		tui_text_put(y, r->x, 1, TA_BOLD, tui_text_vline(ascii));
		tui_text_put(y, r->x + r->w - 1, 1, TA_BOLD, tui_text_vline(ascii));
	}
	tui_text_put(r->y, r->x, 1, TA_BOLD, ascii ? "+" : "┌");
	tui_text_put(r->y, r->x + r->w - 1, 1, TA_BOLD, ascii ? "+" : "┐");
	tui_text_put(r->y + r->h - 1, r->x, 1, TA_BOLD, ascii ? "+" : "└");
	tui_text_put(r->y + r->h - 1, r->x + r->w - 1, 1, TA_BOLD, ascii ? "+" : "┘");
}

static void tui_draw_help(const struct tui_frame *f, const struct tui_layout *lay)
{
	static const char *const legend[][2] = {
		{ "graph", "x failed  s skipped  ! slow  ^ clipped" },
		{ "", "- paused; t: service or response time" },
		{ "busy", "%util: time with I/O in flight; 90 %" },
		{ "", "and up counts as device saturated" },
		{ "verdict", "keeps up, falls short (device saturated," },
		{ "", "wait above, depth, probe, CPU limited)," },
		{ "", "other I/O, queue building" },
	};
	size_t nkeys, shown = 0;
	const struct tui_keydef *keys = tui_keys(&nkeys);
	int n, y;
	struct tui_rect r;

	for (size_t i = 0; i < nkeys; i++)
		shown += keys[i].help && (keys[i].scope & (f->keys ? f->keys : TUI_KEYS_SCREEN));
	n = (int)(shown + 1 + ARRAY_SIZE(legend));
	r = tui_layout_center(lay->cols, lay->rows, 58, n + 4);
	y = r.y + 1;
	tui_draw_box(f->ascii, &r);
	tui_text_put(r.y, r.x + 2, r.w - 4, TA_TITLE, " ioprobe keys ");
	for (size_t i = 0; i < nkeys && y < r.y + r.h - 2; i++) {
		if (!keys[i].help || !(keys[i].scope & (f->keys ? f->keys : TUI_KEYS_SCREEN)))
			continue;
		tui_text_put(y, r.x + 2, 10, TA_KEY, keys[i].help_key);
		tui_text_put(y, r.x + 13, r.w - 15, TA_NORMAL, keys[i].help);
		y++;
	}
	y++; /* a blank line before the legend */
	for (size_t i = 0; i < ARRAY_SIZE(legend) && y < r.y + r.h - 2; i++, y++) {
		tui_text_put(y, r.x + 2, 10, TA_KEY, legend[i][0]);
		tui_text_put(y, r.x + 13, r.w - 15, TA_NORMAL, legend[i][1]);
	}
	tui_text_put(r.y + r.h - 2, r.x + 2, r.w - 4, TA_DIM, "any key closes this help");
}

#define TUI_OV_HELP_KEY_W 12 /* "k j Up Down" */

void tui_draw_overview_help(int cols, int rows, bool ascii, const char *rule, const char *window,
			    unsigned scope)
{
	unsigned sc = scope ? scope : TUI_KEYS_OVERVIEW;
	size_t nkeys, shown = 0;
	const struct tui_keydef *keys = tui_keys(&nkeys);
	int w = cols - 4 < 76 ? cols - 4 : 76, tw, h, y, end, gap = 1;
	struct tui_rect r;

	if (w < 20)
		w = cols;
	tw = w - 4;
	for (size_t i = 0; i < nkeys; i++)
		shown += keys[i].help && (keys[i].scope & sc);
	h = (int)shown + tui_fmt_wrap_rows(rule, tw) + tui_fmt_wrap_rows(window, tw) + 3;
	if (h + 2 <= rows) /* a blank row before the rule and the windows when they fit */
		h += 2;
	else
		gap = 0;
	r = tui_layout_center(cols, rows, w, h);
	if (r.h < 3)
		return;
	end = r.y + r.h - 2; /* the closing hint's row */
	tui_draw_box(ascii, &r);
	tui_text_put(r.y, r.x + 2, r.w - 4, TA_TITLE, " ioprobe overview keys ");
	y = r.y + 1;
	for (size_t i = 0; i < nkeys && y < end; i++) {
		if (!keys[i].help || !(keys[i].scope & sc))
			continue;
		tui_text_put(y, r.x + 2, TUI_OV_HELP_KEY_W, TA_KEY, keys[i].help_key);
		tui_text_put(y, r.x + 3 + TUI_OV_HELP_KEY_W, r.w - 5 - TUI_OV_HELP_KEY_W, TA_NORMAL,
			     keys[i].help);
		y++;
	}
	y = tui_text_wrapped(y + gap, r.x + 2, tw, end, TA_NORMAL, rule);
	tui_text_wrapped(y + gap, r.x + 2, tw, end, TA_NORMAL, window);
	tui_text_put(end, r.x + 2, r.w - 4, TA_DIM, "any key closes this help");
}

static void tui_draw_too_small(const struct tui_layout *lay)
{
	char lines[3][64];
	int y = lay->rows / 2 - 1;

	snprintf(lines[0], sizeof(lines[0]), "terminal too small");
	snprintf(lines[1], sizeof(lines[1]), "%dx%d, need %dx%d", lay->cols, lay->rows,
		 TUI_MIN_COLS, TUI_MIN_ROWS);
	snprintf(lines[2], sizeof(lines[2]), "q quits");
	if (y < 0)
		y = 0;
	for (int i = 0; i < 3 && y + i < lay->rows; i++) {
		int n = tui_text_width(lines[i]);

		tui_text_put(y + i, n < lay->cols ? (lay->cols - n) / 2 : 0, lay->cols,
			i < 2 ? TA_WARN : TA_NORMAL, lines[i]);
	}
}

void tui_draw(const struct tui_frame *f, const struct tui_layout *lay)
{
	erase();
	if (lay->too_small) {
		tui_draw_too_small(lay);
		refresh();
		return;
	}
	tui_draw_header(f, &lay->r[TUI_HEADER]);
	if (lay->r[TUI_GRAPH].h)
		tui_draw_graph(f, &lay->r[TUI_GRAPH]);
	if (f->histogram && lay->r[TUI_STATS].h) {
		struct tui_rect hr = lay->r[TUI_STATS];

		if (lay->r[TUI_RECENT].h) /* the requests' rows too: they sit right below */
			hr.h += lay->r[TUI_RECENT].h;
		tui_draw_hist(f, &hr);
	} else {
		if (lay->r[TUI_STATS].h)
			tui_draw_stats(f, &lay->r[TUI_STATS]);
		if (lay->r[TUI_RECENT].h)
			tui_draw_recent(f, &lay->r[TUI_RECENT]);
	}
	if (lay->r[TUI_IOSTAT].h && f->io)
		tui_draw_iostat(f, lay);
	tui_draw_footer(f, &lay->r[TUI_FOOTER]);
	if (f->help)
		tui_draw_help(f, lay);
	refresh();
}
