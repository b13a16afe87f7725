/*
 * tui_sweep: --sweep in the view. The steps come from the one sweep runner
 * (src/disk/sweep.c's sweep_run_*, as on the command line); this module runs
 * each step on a bare session (the probe apart, its records only counted),
 * reads the device rows around it, and draws achieved against asked for
 * every step — a bar per step with the asked rate marked, its verdict, the
 * operators' table below as far as it fits, and the knee line once the sweep
 * is over. A cell of a size x depth grid shows the whole grid drawn instead
 * (tui_gridplot: a curve of achieved against asked per cell, B and L on the
 * best point and the limit, axes and legend) above the grid's table so far
 * and its two conclusions; too small a screen keeps the cell's bars. The table
 * (header, finished steps, knee) goes to vp->sweep_out for the CLI to print
 * once the screen is given back, also after q or a signal mid-sweep.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "devwatch.h"
#include "session.h"
#include "sweep.h"
#include "sweepgrid.h"
#include "tui_fmt.h"
#include "tui_graph.h"
#include "tui_gridplot.h"
#include "tui_int.h"
#include "tui_keys.h"
#include "tui_text.h"

struct sw {
	const struct view_params *vp;
	struct tui_term_opts to;
	struct sweep_run run;    /* the plan, the judging, the knee's words */
	struct devwatch *watch;
	struct sweep_row rows[SWEEP_MAX_STEPS];
	char verdict[SWEEP_MAX_STEPS][200];
	char words[SWEEP_MAX_STEPS][80];   /* the verdict's state and reason only */
	size_t nrows;
	uint64_t step_t0;
	uint64_t step_done;      /* requests of the running step so far */
	bool quit, over, ascii;
	struct tui_step step;    /* a step in the view's loop (tui_step.c) */
	struct sbuf table;       /* the operators' table as text (header and rows) */
	struct sweepgrid *grid;  /* a cell of a grid (vp->sweep_grid), else NULL */
};

/* A finished step: judge it on the probe's own tally, keep its row, append it to the output. */
static void sw_record(struct sw *s, const struct tally *t)
{
	struct verdict_dev devs[DEVWATCH_MAX];
	size_t n = devwatch_verdict_devs(s->watch, devs, DEVWATCH_MAX);
	struct sweep_row *r = &s->rows[s->nrows];

	sweep_run_done(&s->run, t, devs, n, r, s->verdict[s->nrows], sizeof(s->verdict[0]));
	snprintf(s->words[s->nrows], sizeof(s->words[0]), "%s", s->run.words);
	if (s->grid) { /* the grid's row, in the grid's table */
		long i;

		if (s->vp->cfg->read_write) /* reads and writes apart, as on the command line */
			sweep_row_split(r, &s->vp->probe->acct.read, &s->vp->probe->acct.write);
		i = sweepgrid_add(s->grid, r, s->verdict[s->nrows], s->words[s->nrows]);

		if (i >= 0)
			sweepgrid_format_row(s->vp->sweep_out, s->grid, (size_t)i);
	} else {
		sweep_format_row(&s->table, r);
		sweep_format_row(s->vp->sweep_out, r);
	}
	s->nrows++;
}

/* ---- painting --------------------------------------------------------------------------- */

/* One step's bar: achieved filled, the asked rate marked with '|', scaled to top. */
static void sw_bar(int y, int x, int w, const struct sweep_row *r, double top, bool ascii)
{
	char buf[4 * 256 + 1];
	int at = (int)lround(r->asked / top * (w - 1));

	if (w < 3 || w > 256)
		return;
	tui_fmt_bar(buf, sizeof(buf), w, r->achieved / top, ascii);
	tui_text_put(y, x, w, r->kept_up ? TA_OK : TA_BAD, buf);
	tui_text_put(y, x + (at < w ? at : w - 1), 1, TA_KEY, "|");
}

static double sw_top(const struct sw *s)
{
	double top = s->run.rate;

	for (size_t i = 0; i < s->nrows; i++)
		top = fmax(top, fmax(s->rows[i].asked, s->rows[i].achieved));
	return top > 0 ? top : 1;
}

static int sw_paint_steps(const struct sw *s, int y, int end)
{
	double top = sw_top(s);
	int bw = COLS - 50;
	char a[32], g[32], buf[160];

	tui_text_put(y++, 0, COLS, TA_HEAD, "  asked/s   got/s  achieved (bar) against asked (|)");
	for (size_t i = s->nrows > (size_t)(end - y) ? s->nrows - (size_t)(end - y) : 0;
	     i < s->nrows && y < end; i++, y++) {
		const struct sweep_row *r = &s->rows[i];

		snprintf(buf, sizeof(buf), "%9s %7s", tui_fmt_rate(a, sizeof(a), r->asked),
			 tui_fmt_rate(g, sizeof(g), r->achieved));
		tui_text_put(y, 0, 18, TA_DATA, buf);
		sw_bar(y, 18, bw > 10 ? bw : 10, r, top, s->ascii);
		tui_text_put(y, 19 + (bw > 10 ? bw : 10), COLS - 19 - (bw > 10 ? bw : 10),
			     r->kept_up ? TA_OK : TA_BAD, s->words[i]);
	}
	return y;
}

/* The table's lines (header, rows) from row y on, clipped to the width. */
static int sw_paint_table(const struct sw *s, int y, int end)
{
	const char *p = sbuf_str(&s->table);
	bool head = true;

	while (*p && y < end) {
		size_t len = strcspn(p, "\n");
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		tui_text_put(y++, 0, COLS, head ? TA_HEAD : TA_DATA, line);
		head = false;
		p += len + (p[len] == '\n');
	}
	return y;
}

/* Lines of text from row y on, below end, in attribute a (the first in head when not TA_NORMAL). */
static int sw_paint_lines(const char *p, int y, int end, enum tui_attr head, enum tui_attr a)
{
	for (bool first = true; *p && y < end; y++, first = false) {
		size_t len = strcspn(p, "\n");
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		tui_text_put(y, 0, COLS, first && head != TA_NORMAL ? head : a, line);
		p += len + (p[len] == '\n');
	}
	return y;
}

/*
 * A grid's table in rows [y, end): its header and the last rows that fit; then the best point
 * and the limit so far on rows ends and ends + 1.
 */
static void sw_paint_grid(const struct sw *s, int y, int end, int ends)
{
	struct sbuf sb = SBUF_INIT, tail = SBUF_INIT;
	size_t room = end - y > 1 ? (size_t)(end - y - 1) : 0, first;
	const struct sweepgrid *g = s->grid;

	first = g->nrows > room ? g->nrows - room : 0;
	sweepgrid_format_header(&sb);
	for (size_t i = first; i < g->nrows; i++)
		sweepgrid_format_row(&sb, g, i);
	sweepgrid_format_best(&tail, g);
	sweepgrid_format_limit(&tail, g);
	sw_paint_lines(sbuf_str(&sb), y, end, TA_HEAD, TA_DATA);
	sw_paint_lines(sbuf_str(&tail), ends, ends + 2, TA_NORMAL, TA_BOLD);
	sbuf_free(&sb);
	sbuf_free(&tail);
}

static enum tui_attr sw_curve_attr(size_t c)
{
	return (enum tui_attr)(TA_CURVE1 + (int)(c % TUI_GP_NCOLORS));
}

/* The grid drawn: achieved against asked per cell, the axes, the legend (tui_gridplot). */
static void sw_paint_plot(const struct sw *s, const struct tui_gp_layout *lo)
{
	const struct sweepgrid *g = s->grid;
	struct tui_gp_cell *plot = malloc((size_t)lo->plot_w * (size_t)lo->plot_h * sizeof(*plot));
	char (*labels)[TUI_GP_LABEL_LEN] = malloc((size_t)lo->plot_h * sizeof(*labels));
	struct tui_gp_entry legend[64];
	struct tui_gp_scale sc;
	char xaxis[TUI_GP_MAX_W + 1];
	size_t n;

	if (!plot || !labels) {
		free(plot);
		free(labels);
		return;
	}
	tui_gridplot_scale(g, &sc);
	tui_gridplot_compose(g, &sc, lo->plot_w, lo->plot_h, s->ascii, plot);
	tui_gridplot_ylabels(&sc, lo->plot_h, labels);
	tui_text_put(lo->title_y, 0, COLS, TA_LABEL, s->ascii ?
		     "got/s (requests/s done, log) against asked/s, a curve per size and depth; / got = asked" :
		     "got/s (requests/s done, log) against asked/s, a curve per size and depth; ╱ got = asked");
	for (int r = 0; r < lo->plot_h; r++) {
		int y = lo->plot_y + r;

		tui_text_put_right(y, 0, TUI_GP_LABEL_W, TA_LABEL, labels[r]);
		tui_text_put(y, TUI_GP_LABEL_W, 1, TA_DIM, tui_text_vline(s->ascii));
		for (int x = 0; x < lo->plot_w; x++) {
			const struct tui_gp_cell *c = &plot[(size_t)r * (size_t)lo->plot_w + (size_t)x];
			char ch[8];
			enum tui_attr a;

			if (c->kind == TUI_GP_EMPTY)
				continue;
			ch[tui_graph_utf8(c->ch, ch)] = '\0';
			a = c->kind == TUI_GP_IDEAL ? TA_DIM :
			    c->kind == TUI_GP_BEST || c->kind == TUI_GP_LIMIT ? TA_SEL :
			    sw_curve_attr(c->curve);
			tui_text_put(y, lo->plot_x + x, 1, a, ch);
		}
	}
	tui_gridplot_xaxis(&sc, lo->plot_w, xaxis, sizeof(xaxis));
	tui_text_put(lo->xaxis_y, 0, TUI_GP_LABEL_W, TA_LABEL, "asked/s");
	tui_text_put(lo->xaxis_y, lo->plot_x, lo->plot_w, TA_LABEL, xaxis);
	n = tui_gridplot_legend(g, COLS, lo->legend_lines, s->ascii, legend, 64);
	for (size_t i = 0; i < n; i++)
		tui_text_put(lo->legend_y + legend[i].line, legend[i].x, COLS - legend[i].x,
			     legend[i].curve == SIZE_MAX ? TA_BOLD : sw_curve_attr(legend[i].curve),
			     legend[i].text);
	free(plot);
	free(labels);
}

static void sw_paint(void *ctx)
{
	struct sw *s = ctx;
	char buf[256], a[32], e[32], w[32];
	int y;

	erase();
	if (s->grid)
		snprintf(buf, sizeof(buf), "ioprobe --sweep %s: %s at depth %u, cell %zu: %zu step%s "
			 "done (%zu in the grid)", s->vp->cfg->path,
			 tui_fmt_bytes(a, sizeof(a), (double)s->vp->rc->size), s->vp->cfg->depth,
			 s->grid->cells, s->nrows, s->nrows == 1 ? "" : "s", s->grid->nrows);
	else
		snprintf(buf, sizeof(buf), "ioprobe --sweep %s: %zu step%s done", s->vp->cfg->path,
			 s->nrows, s->nrows == 1 ? "" : "s");
	tui_text_put(0, 0, COLS, TA_TITLE, buf);
	if (s->over) {
		snprintf(buf, sizeof(buf), "%s finished, q quits (the table follows)",
			 s->grid ? "grid" : "sweep");
	} else {
		uint64_t el = clock_now() - s->step_t0;

		snprintf(buf, sizeof(buf), "step %zu: asked %s/s, %s of %s, %llu requests so far",
			 s->nrows + 1, tui_fmt_rate(a, sizeof(a), s->run.rate),
			 tui_fmt_elapsed(e, sizeof(e), el),
			 tui_fmt_span(w, sizeof(w), s->vp->cfg->sweep_step, s->ascii),
			 (unsigned long long)s->step_done);
	}
	tui_text_put(1, 0, COLS, s->over ? TA_OK : TA_WARN, buf);
	if (s->grid) {
		struct tui_gp_layout lo;

		tui_gridplot_layout(LINES, COLS, &lo);
		if (lo.plot) {
			sw_paint_plot(s, &lo);
		} else { /* too small to draw: the cell's steps above the table */
			lo.table_y = sw_paint_steps(s, 3, LINES / 3 + 2) + 1;
		}
		sw_paint_grid(s, lo.table_y, lo.table_end, lo.ends_y);
	} else {
		y = sw_paint_steps(s, 3, LINES / 2 + 2);
		sw_paint_table(s, y + 1, LINES - 3);
	}
	if (s->over && !s->grid) {
		struct sbuf knee = SBUF_INIT;

		sweep_run_knee(&s->run, &knee);
		if (knee.len)
			knee.buf[knee.len - 1] = '\0';
		tui_text_put(LINES - 2, 0, COLS, TA_BOLD, sbuf_str(&knee));
		sbuf_free(&knee);
	}
	tui_text_put(LINES - 1, 0, COLS, TA_KEY, "q quit (the table so far is printed)");
	refresh();
}

/* ---- steps ------------------------------------------------------------------------------ */

/* Keys and signals while a step runs or the result is shown. */
/* Count the step's finished requests (the only records a step's screen needs). */
static void sw_drain(void *ctx, struct session *ss)
{
	struct sw *s = ctx;
	struct session_rec rec;

	session_ack(ss);
	while (session_next(ss, &rec))
		s->step_done += rec.kind == SESSION_SAMPLE;
}

/*
 * Run one step (its probe settings pc) to its end (or q) on a bare session. Returns 0 or
 * -errno (msg filled).
 */
static int sw_step(struct sw *s, const struct probe_cfg *pc, char *msg, size_t msglen)
{
	const struct view_params *vp = s->vp;
	struct probe *p = vp->probe;
	struct session ss;
	const char *why;
	int ret;

	probe_init(p, pc, p->target, p->engine, p->buf);
	devwatch_sample(s->watch, NULL, 0);
	s->step_t0 = clock_now();
	s->step_done = 0;
	ret = session_start(&ss, p, 1);
	if (ret) {
		snprintf(msg, msglen, "cannot start the probe: %s", strerror(-ret));
		return ret;
	}
	s->step.quit = false;
	tui_step_run(&s->step, &ss, vp->stop); /* the view's loop: drained, painted, q */
	s->quit = s->step.quit;
	session_stop(&ss); /* q: the probe stops (a hung request is given up after 0.5 s) */
	ret = session_result(&ss, &why);
	if (ret)
		snprintf(msg, msglen, "%s", why);
	if (!ret && !s->quit) {
		devwatch_sample(s->watch, NULL, 0);
		sw_record(s, &p->acct.total); /* the probe's, as on the command line */
	}
	return ret;
}

static int sw_run(struct sw *s, char *msg, size_t msglen)
{
	int ret = 0;

	struct probe_cfg pc;

	if (!s->grid) { /* a grid's runner prints its own header */
		sweep_format_header(&s->table);
		sweep_format_header(s->vp->sweep_out);
	}
	while (!s->quit && sweep_run_step(&s->run, &pc)) {
		ret = sw_step(s, &pc, msg, msglen);
		if (ret)
			return ret;
	}
	if (s->grid && !s->quit && sweepgrid_more(s->grid))
		return 0; /* the next cell follows at once */
	s->over = true;
	tui_step_hold(&s->step, s->vp->stop); /* the result shown until q */
	s->quit = s->step.quit;
	return 0;
}

int tui_sweep_run(const struct view_params *vp, char *msg, size_t msglen)
{
	struct sw *s = calloc(1, sizeof(*s));
	struct verdict_probe run;
	char wmsg[256];
	int ret;

	if (!s || !vp->sweep_out) {
		free(s);
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	s->vp = vp;
	s->step = (struct tui_step){ s, sw_paint, sw_drain, false };
	s->to = (struct tui_term_opts){ vp->cfg->ascii, vp->cfg->no_color };
	s->ascii = tui_term_want_ascii(&s->to);
	s->table = (struct sbuf)SBUF_INIT;
	s->grid = vp->sweep_grid;
	verdict_probe_settings(&run, 0, vp->rc->size, vp->cfg->write, vp->cfg->read_write,
			       vp->cfg->cached, vp->cfg->depth);
	sweep_run_init(&s->run, vp->cfg->sweep_rates, &vp->probe->cfg, vp->cfg->sweep_step, &run,
		       vp->cfg->response);
	s->watch = malloc(sizeof(*s->watch));
	if (s->watch && devwatch_for_path(s->watch, vp->cfg->path, NULL, wmsg, sizeof(wmsg))) {
		free(s->watch); /* no device: the steps are judged without rows */
		s->watch = NULL;
	}
	ret = tui_term_open(&s->to, vp->stop, msg, msglen);
	if (!ret) {
		tui_text_setup(tui_term_color());
		ret = sw_run(s, msg, msglen);
		tui_term_close(vp->deferred_stderr);
		if (!s->grid)
			sweep_run_knee(&s->run, vp->sweep_out);
		else if (s->quit)
			s->grid->done = true; /* q ends the grid, not only this cell */
	}
	sbuf_free(&s->table);
	free(s->watch);
	free(s);
	return ret;
}
