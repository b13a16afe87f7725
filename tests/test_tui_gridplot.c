/*
 * Tests for tui/tui_gridplot.c: the layout at 80x24 and larger (fewer plot
 * rows when short, none when tiny), the decade scale, point placement on the
 * log axes, the curves' glyphs and dots, the 'B' and 'L' marks on the
 * conclusions' points, the axis labels, the legend long, short and cut.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tui_gridplot.h"

#define KIB UINT64_C(1024)

/* A grid with cells of size x depth, rows (asked, achieved, aqu, kept up) added to the last. */
static void cell(struct sweepgrid *g, uint64_t size, unsigned depth)
{
	g->cells++;
	g->size_i = 0;
	g->cfg.sizes[0] = size;
	g->cfg.nsizes = 1;
	g->depth = depth;
}

static void row(struct sweepgrid *g, double asked, double got, double aqu, bool up)
{
	struct sweep_row r = { .size = g->cfg.sizes[g->size_i], .depth = g->depth, .asked = asked,
			       .achieved = got, .aqu = aqu, .kept_up = up };

	cr_assert_geq(sweepgrid_add(g, &r, up ? "keeps up" : "falls short", ""), 0);
}

static struct sweepgrid grid(void)
{
	struct sweepgrid_cfg cfg = { .sizes = { 4 * KIB }, .nsizes = 1, .depths = { 1 },
				     .ndepths = 1, .best_aqu = SWEEPGRID_BEST_AQU,
				     .limit_aqu = SWEEPGRID_LIMIT_AQU };
	struct sweepgrid g;

	sweepgrid_init(&g, &cfg);
	g.started = true;
	return g;
}

/* The code point at (x, row) of a width-wide plot. */
static uint32_t at(const struct tui_gp_cell *p, int width, int x, int r)
{
	return p[r * width + x].ch;
}

Test(tui_gridplot, layout_80x24_and_larger)
{
	struct tui_gp_layout a, b;

	tui_gridplot_layout(24, 80, &a);
	cr_assert(a.plot);
	cr_assert_eq(a.title_y, 2);
	cr_assert_eq(a.plot_y, 3);
	cr_assert_eq(a.plot_h, 9, "24 lines: %d plot rows", a.plot_h);
	cr_assert_eq(a.plot_x, TUI_GP_LABEL_W + 1);
	cr_assert_eq(a.plot_w, 80 - TUI_GP_LABEL_W - 1);
	cr_assert_eq(a.xaxis_y, 12);
	cr_assert_eq(a.legend_y, 13);
	cr_assert_eq(a.legend_lines, 1);
	cr_assert_eq(a.table_y, 14);
	cr_assert_eq(a.table_end, 21);
	cr_assert_eq(a.ends_y, 21, "best and limit on rows 21 and 22, the keys on 23");
	tui_gridplot_layout(45, 180, &b);
	cr_assert(b.plot);
	cr_assert_gt(b.plot_h, a.plot_h);
	cr_assert_eq(b.legend_lines, 2);
	cr_assert_eq(b.table_y, b.legend_y + 2);
	cr_assert_geq(b.table_end - b.table_y, 3);
	cr_assert_eq(b.ends_y, 42);
	/* every size from 18 lines: the plot, then header and two rows of the table */
	for (int l = 18; l < 200; l++) {
		tui_gridplot_layout(l, 80, &a);
		cr_assert(a.plot && a.plot_h >= 4, "%d lines", l);
		cr_assert_geq(a.table_end - a.table_y, 3, "%d lines", l);
		cr_assert_leq(a.plot_h, TUI_GP_MAX_H);
	}
}

Test(tui_gridplot, layout_too_small_has_no_plot)
{
	struct tui_gp_layout a;

	tui_gridplot_layout(17, 80, &a);
	cr_assert_not(a.plot);
	cr_assert_eq(a.table_y, 3);
	cr_assert_eq(a.table_end, 14);
	tui_gridplot_layout(30, 39, &a);
	cr_assert_not(a.plot);
	tui_gridplot_layout(600, 2000, &a);
	cr_assert_eq(a.plot_w, TUI_GP_MAX_W);
}

Test(tui_gridplot, scale_whole_decades)
{
	struct sweepgrid g = grid();
	struct tui_gp_scale sc;

	tui_gridplot_scale(&g, &sc);
	cr_assert_float_eq(sc.lo, 1, 1e-9, "empty: 1 .. 1000");
	cr_assert_float_eq(sc.hi, 1000, 1e-9);
	cell(&g, 4 * KIB, 1);
	row(&g, 20, 19.5, 0.2, true);
	row(&g, 400, 131, 1, false);
	tui_gridplot_scale(&g, &sc);
	cr_assert_float_eq(sc.lo, 10, 1e-9);
	cr_assert_float_eq(sc.hi, 1000, 1e-9);
	sweepgrid_free(&g);
	g = grid();
	cell(&g, 4 * KIB, 1);
	row(&g, 100, 100, 0.5, true); /* one decade at least; 100 is a top, not a bottom */
	tui_gridplot_scale(&g, &sc);
	cr_assert_float_eq(sc.lo, 100, 1e-9);
	cr_assert_float_eq(sc.hi, 1000, 1e-9);
	row(&g, 30, 30, 0.5, true);
	tui_gridplot_scale(&g, &sc);
	cr_assert_float_eq(sc.lo, 10, 1e-9);
	cr_assert_float_eq(sc.hi, 100, 1e-9);
	sweepgrid_free(&g);
}

Test(tui_gridplot, positions_are_logarithmic_and_clamped)
{
	struct tui_gp_scale sc = { 10, 1000 };

	cr_assert_eq(tui_gridplot_pos(&sc, 10, 21), 0);
	cr_assert_eq(tui_gridplot_pos(&sc, 100, 21), 10, "a decade up: half way");
	cr_assert_eq(tui_gridplot_pos(&sc, 1000, 21), 20);
	cr_assert_eq(tui_gridplot_pos(&sc, 5, 21), 0);
	cr_assert_eq(tui_gridplot_pos(&sc, 1e6, 21), 20);
	cr_assert_eq(tui_gridplot_pos(&sc, 0, 21), 0);
	cr_assert_eq(tui_gridplot_pos(&sc, 31.6227766, 21), 5, "a half decade: a quarter");
	cr_assert_eq(tui_gridplot_pos(&sc, 500, 1), 0);
}

Test(tui_gridplot, glyphs_differ_and_repeat_after_eight)
{
	for (size_t i = 0; i < TUI_GP_NGLYPHS; i++)
		for (size_t j = i + 1; j < TUI_GP_NGLYPHS; j++) {
			cr_assert_neq(tui_gridplot_glyph(i, false), tui_gridplot_glyph(j, false));
			cr_assert_neq(tui_gridplot_glyph(i, true), tui_gridplot_glyph(j, true));
		}
	for (size_t i = 0; i < 3 * TUI_GP_NGLYPHS; i++)
		cr_assert_lt(tui_gridplot_glyph(i, true), 0x7F, "ASCII");
	cr_assert_eq(tui_gridplot_glyph(0, false), 0x25CF);
	cr_assert_eq(tui_gridplot_glyph(8, false), tui_gridplot_glyph(0, false));
	cr_assert_eq(tui_gridplot_glyph(1, true), 'x');
}

Test(tui_gridplot, compose_points_curves_and_marks)
{
	struct sweepgrid g = grid();
	struct tui_gp_scale sc = { 10, 1000 };
	static struct tui_gp_cell p[21 * 11];
	int w = 21, h = 11, nb = 0, nl = 0;

	/* cell 0, 4 KiB at depth 1: 10 and 100 kept up (aqu 0.1, 0.9), 1000 gets 100 */
	cell(&g, 4 * KIB, 1);
	row(&g, 10, 10, 0.1, true);
	row(&g, 1000, 100, 1.0, false);
	row(&g, 100, 100, 0.9, true);
	/* cell 1, 4 KiB at depth 4: 1000 kept up with aqu-sz 3.5 (the limit) */
	cell(&g, 4 * KIB, 4);
	row(&g, 1000, 1000, 3.5, true);
	tui_gridplot_compose(&g, &sc, w, h, false, p);
	/* points: (asked 10, got 10) bottom left; (1000, 100) right, middle row; */
	cr_assert_eq(at(p, w, 0, 10), 0x25CF, "cell 0's glyph at 10/s");
	cr_assert_eq(at(p, w, 20, 5), 0x25CF, "1000 asked, 100 got: right edge, half way up");
	cr_assert_eq(at(p, w, 10, 5), 'B', "the best, 100/s with aqu-sz 0.9: 'B' on its point");
	cr_assert_eq(p[5 * w + 10].kind, TUI_GP_BEST);
	cr_assert_eq(p[5 * w + 10].curve, 0);
	cr_assert_eq(at(p, w, 20, 0), 'L', "the limit, depth 4's 1000/s: 'L' top right");
	cr_assert_eq(p[20].curve, 1);
	/* the curve's dots: from (0, 10) to (10, 5) in order of asked, not of running */
	cr_assert_eq(at(p, w, 4, 8), 0x00B7);
	cr_assert_eq(p[8 * w + 4].kind, TUI_GP_LINE);
	cr_assert_eq(at(p, w, 15, 5), 0x00B7, "100 -> 1000 asked at 100 got: flat");
	/* the reference line where nothing else is */
	cr_assert_eq(at(p, w, 14, 3), 0x2571);
	cr_assert_eq(p[3 * w + 14].kind, TUI_GP_IDEAL);
	for (int i = 0; i < w * h; i++) {
		nb += p[i].ch == 'B';
		nl += p[i].ch == 'L';
	}
	cr_assert_eq(nb, 1);
	cr_assert_eq(nl, 1);
	/* ASCII */
	tui_gridplot_compose(&g, &sc, w, h, true, p);
	cr_assert_eq(at(p, w, 0, 10), 'o');
	cr_assert_eq(at(p, w, 4, 8), '.');
	cr_assert_eq(at(p, w, 14, 3), '/');
	for (int i = 0; i < w * h; i++)
		cr_assert_lt(p[i].ch, 0x7F);
	sweepgrid_free(&g);
}

Test(tui_gridplot, best_and_limit_on_one_point_sit_side_by_side)
{
	struct sweepgrid g = grid();
	struct tui_gp_scale sc = { 10, 1000 };
	struct tui_gp_cell p[21 * 11];

	cell(&g, 4 * KIB, 1);
	row(&g, 100, 100, 0.9, true);
	tui_gridplot_compose(&g, &sc, 21, 11, false, p);
	cr_assert_eq(at(p, 21, 10, 5), 'B');
	cr_assert_eq(at(p, 21, 11, 5), 'L');
	sweepgrid_free(&g);
	g = grid();
	cell(&g, 4 * KIB, 1);
	row(&g, 1000, 1000, 0.9, true); /* at the right edge: 'L' to its left */
	tui_gridplot_compose(&g, &sc, 21, 11, false, p);
	cr_assert_eq(at(p, 21, 20, 0), 'B');
	cr_assert_eq(at(p, 21, 19, 0), 'L');
	sweepgrid_free(&g);
	/* two rows, two cells, one screen cell: 4 KiB at 100/s (aqu-sz 0.5, the best), 64 KiB at
	 * 100/s getting 99 (aqu-sz 3, the limit) */
	g = grid();
	cell(&g, 4 * KIB, 1);
	row(&g, 100, 100, 0.5, true);
	cell(&g, 64 * KIB, 1);
	row(&g, 100, 99, 3, true);
	cr_assert_eq(sweepgrid_best(&g), 0);
	cr_assert_eq(sweepgrid_limit(&g, NULL), 1);
	tui_gridplot_compose(&g, &sc, 21, 11, false, p);
	cr_assert_eq(at(p, 21, 10, 5), 'B');
	cr_assert_eq(p[5 * 21 + 10].curve, 0);
	cr_assert_eq(at(p, 21, 11, 5), 'L');
	cr_assert_eq(p[5 * 21 + 11].curve, 1);
	sweepgrid_free(&g);
}

Test(tui_gridplot, labels)
{
	char b[TUI_GP_LABEL_LEN];
	struct tui_gp_scale sc = { 10, 10000 };
	char y[13][TUI_GP_LABEL_LEN], x[41];

	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 1), "1");
	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 100), "100");
	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 1000), "1k");
	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 1e5), "100k");
	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 1e6), "1M");
	cr_assert_str_eq(tui_gridplot_label(b, sizeof(b), 250), "250");
	tui_gridplot_ylabels(&sc, 13, y);
	cr_assert_str_eq(y[0], "10k");
	cr_assert_str_eq(y[12], "10");
	cr_assert_str_eq(y[4], "1k");
	cr_assert_str_eq(y[8], "100");
	cr_assert_str_eq(y[1], "");
	tui_gridplot_ylabels(&sc, 4, y); /* no room between: the ends only */
	cr_assert_str_eq(y[0], "10k");
	cr_assert_str_eq(y[1], "");
	cr_assert_str_eq(y[2], "");
	cr_assert_str_eq(y[3], "10");
	tui_gridplot_xaxis(&sc, 40, x, sizeof(x));
	cr_assert_eq(strlen(x), 40);
	cr_assert_str_eq(x, "10           100          1k         10k");
	tui_gridplot_xaxis(&sc, 8, x, sizeof(x)); /* crowded: the ones that fit */
	cr_assert_str_eq(x, "10   1k ");
}

Test(tui_gridplot, cell_labels)
{
	char b[32];

	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 256 * KIB, 4, false), "256 KiB Q4");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 256 * KIB, 4, true), "256K/4");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1024 * KIB, 1, false), "1 MiB Q1");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1024 * KIB, 1, true), "1M/1");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1536 * KIB, 2, false), "1536 KiB Q2");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1536 * KIB, 2, true), "1536K/2");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1000000, 2, false), "977 KiB Q2");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 1000000, 2, true), "977K/2");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 512, 1, false), "512 B Q1");
	cr_assert_str_eq(tui_gridplot_cell_label(b, sizeof(b), 512, 1, true), "512B/1");
}

Test(tui_gridplot, legend_long_short_and_cut)
{
	struct sweepgrid g = grid();
	struct tui_gp_entry e[64];
	size_t n;

	cell(&g, 4 * KIB, 1);
	row(&g, 20, 20, 0.2, true);
	cell(&g, 8 * KIB, 1); /* under way, no row yet: named from the grid's cursor */
	n = tui_gridplot_legend(&g, 80, 1, false, e, 64);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(e[0].text, "● 4 KiB Q1");
	cr_assert_eq(e[0].x, 0);
	cr_assert_eq(e[0].curve, 0);
	cr_assert_str_eq(e[1].text, "■ 8 KiB Q1");
	cr_assert_eq(e[1].x, 12);
	cr_assert_eq(e[1].curve, 1);
	cr_assert_str_eq(e[2].text, "B best  L limit");
	cr_assert_eq(e[2].curve, SIZE_MAX);
	/* 31 cells: short labels, and the key just fits; at 30 it is left out */
	n = tui_gridplot_legend(&g, 30, 1, true, e, 64);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(e[1].text, "x 8K/1");
	n = tui_gridplot_legend(&g, 31, 1, true, e, 64);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(e[0].text, "o 4K/1");
	cr_assert_str_eq(e[1].text, "x 8K/1");
	cr_assert_eq(e[1].x, 8);
	cr_assert_str_eq(e[2].text, "B best  L limit");
	row(&g, 20, 20, 0.2, true); /* the 8 KiB cell's row */
	for (int i = 0; i < 10; i++) {
		cell(&g, 64 * KIB, 1u << i);
		row(&g, 20, 20, 0.2, true);
	}
	/* twelve cells on one line of 40: as many as fit and "+N more" */
	n = tui_gridplot_legend(&g, 40, 1, true, e, 64);
	cr_assert_geq(n, 2);
	cr_assert_eq(e[n - 1].curve, SIZE_MAX);
	cr_assert(strstr(e[n - 1].text, " more"), "%s", e[n - 1].text);
	cr_assert_eq((size_t)atoi(e[n - 1].text + 1), 12 - (n - 1), "%s", e[n - 1].text);
	cr_assert_leq(e[n - 1].x + (int)strlen(e[n - 1].text), 40);
	/* two lines of 80 hold them all, short */
	n = tui_gridplot_legend(&g, 80, 2, true, e, 64);
	cr_assert_eq(e[n - 1].curve, SIZE_MAX);
	cr_assert_null(strstr(e[n - 1].text, "more"));
	cr_assert_geq(n, 12);
	for (size_t i = 0; i < n; i++)
		cr_assert_leq(e[i].x + (int)strlen(e[i].text), 80, "%zu: %s", i, e[i].text);
	sweepgrid_free(&g);
}
