/*
 * Tests for tui/tui_layout.c: the minimum size, side or bottom iostat
 * panel, panels dropped in priority order as the terminal shrinks, and the
 * invariants for every size (inside the screen, no overlap, every row of
 * the main column used, widths matching).
 */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <string.h>

#include "tui_layout.h"

static struct tui_layout lay(int cols, int rows, int iostat_want)
{
	struct tui_layout_req req = { cols, rows, iostat_want, 0 };
	struct tui_layout l;

	tui_layout_compute(&req, &l);
	return l;
}

static bool shown(const struct tui_layout *l, enum tui_panel p)
{
	return l->r[p].h > 0 && l->r[p].w > 0;
}

Test(tui_layout, too_small_below_the_minimum)
{
	struct tui_layout l = lay(39, 40, 4);

	cr_assert(l.too_small);
	for (int p = 0; p < TUI_NPANELS; p++)
		cr_assert_eq(l.r[p].h, 0, "panel %d shown on a too-small screen", p);
	l = lay(120, 11, 4);
	cr_assert(l.too_small);
	l = lay(30, 8, 4);
	cr_assert(l.too_small);
	cr_assert_eq(l.cols, 30);
	cr_assert_eq(l.rows, 8);
	l = lay(TUI_MIN_COLS, TUI_MIN_ROWS, 4);
	cr_assert_not(l.too_small);
}

Test(tui_layout, minimum_screen_keeps_graph_and_stats)
{
	struct tui_layout l = lay(40, 12, 4);

	cr_assert_eq(l.r[TUI_HEADER].h, 1, "one header row below 16 rows");
	cr_assert_eq(l.r[TUI_FOOTER].y, 11);
	cr_assert(shown(&l, TUI_GRAPH));
	cr_assert_geq(l.r[TUI_GRAPH].h, TUI_GRAPH_MIN);
	cr_assert(shown(&l, TUI_STATS));
	cr_assert_not(shown(&l, TUI_RECENT), "recent requests go before the statistics");
	cr_assert_not(shown(&l, TUI_IOSTAT));
	cr_assert_not(l.side);
}

Test(tui_layout, screen_80x24)
{
	struct tui_layout l = lay(80, 24, 4);

	cr_assert_not(l.side, "80 columns: iostat at the bottom");
	cr_assert_eq(l.sep_x, -1);
	cr_assert_eq(l.r[TUI_HEADER].h, 2);
	cr_assert(shown(&l, TUI_GRAPH) && shown(&l, TUI_STATS) && shown(&l, TUI_RECENT) &&
		  shown(&l, TUI_IOSTAT));
	cr_assert_eq(l.r[TUI_IOSTAT].w, 80);
	cr_assert_eq(l.r[TUI_IOSTAT].x, 0);
	cr_assert_eq(l.r[TUI_IOSTAT].y + l.r[TUI_IOSTAT].h, 23, "iostat ends above the footer");
	cr_assert_geq(l.r[TUI_IOSTAT].h, TUI_IOSTAT_MIN, "room for a verdict of three rows");
	cr_assert_geq(l.r[TUI_GRAPH].h, 7);
}

Test(tui_layout, screen_120x40_has_a_side_panel)
{
	struct tui_layout l = lay(120, 40, 4);

	cr_assert(l.side);
	cr_assert_eq(l.r[TUI_IOSTAT].w, TUI_SIDE_W);
	cr_assert_eq(l.r[TUI_IOSTAT].x, 120 - TUI_SIDE_W);
	cr_assert_eq(l.sep_x, 120 - TUI_SIDE_W - 1);
	cr_assert_eq(l.r[TUI_IOSTAT].y, 2);
	cr_assert_eq(l.r[TUI_IOSTAT].h, 40 - 3);
	cr_assert_eq(l.r[TUI_GRAPH].w, l.sep_x);
	cr_assert_eq(l.r[TUI_STATS].w, l.sep_x);
	cr_assert_eq(l.r[TUI_RECENT].w, l.sep_x);
	cr_assert_geq(l.r[TUI_GRAPH].h, TUI_GRAPH_COMFORT);
	cr_assert_geq(l.r[TUI_STATS].h, TUI_STATS_COMFORT);
	cr_assert_geq(l.r[TUI_RECENT].h, TUI_RECENT_COMFORT);
}

Test(tui_layout, big_screen_caps_the_graph)
{
	struct tui_layout l = lay(200, 60, 4);

	cr_assert_eq(l.r[TUI_GRAPH].h, TUI_GRAPH_MAX);
	cr_assert_gt(l.r[TUI_RECENT].h, TUI_RECENT_COMFORT, "the rest goes to the requests");
}

Test(tui_layout, no_iostat_panel_when_not_wanted)
{
	struct tui_layout l = lay(150, 40, 0);

	cr_assert_not(l.side);
	cr_assert_not(shown(&l, TUI_IOSTAT));
	cr_assert_eq(l.r[TUI_GRAPH].w, 150);
	l = lay(80, 30, 0);
	cr_assert_not(shown(&l, TUI_IOSTAT));
}

/* Rank of the lowest-priority stacked panel shown (graph 1 .. iostat 4). */
static int depth(const struct tui_layout *l)
{
	static const enum tui_panel order[] = { TUI_GRAPH, TUI_STATS, TUI_RECENT, TUI_IOSTAT };
	int d = 0;

	for (int i = 0; i < 4; i++) {
		if (shown(l, order[i])) {
			cr_assert_eq(d, i, "panel %d shown while a more important one is hidden",
				     i);
			d = i + 1;
		}
	}
	return d;
}

Test(tui_layout, panels_drop_in_priority_order)
{
	int last = 4;

	for (int rows = 60; rows >= TUI_MIN_ROWS; rows--) {
		struct tui_layout l = lay(80, rows, 4);
		int d = depth(&l);

		cr_assert_leq(d, last, "%d rows show more panels than %d rows", rows, rows + 1);
		last = d;
	}
	cr_assert_eq(last, 2, "at the minimum: graph and stats");
}

/* Every size: inside the screen, no overlaps, the main column fully used. */
Test(tui_layout, invariants_for_every_size)
{
	static unsigned char used[120][260];

	for (int cols = TUI_MIN_COLS; cols <= 260; cols += 3) {
		for (int rows = TUI_MIN_ROWS; rows <= 120; rows += 2) {
			for (int want = 0; want <= 6; want += 3) {
				struct tui_layout l = lay(cols, rows, want);
				int main_rows = 0;

				cr_assert_not(l.too_small);
				memset(used, 0, sizeof(used));
				for (int p = 0; p < TUI_NPANELS; p++) {
					const struct tui_rect *r = &l.r[p];

					if (!r->h)
						continue;
					cr_assert(r->x >= 0 && r->y >= 0 && r->x + r->w <= cols &&
						  r->y + r->h <= rows, "%dx%d panel %d outside",
						  cols, rows, p);
					for (int y = r->y; y < r->y + r->h; y++)
						for (int x = r->x; x < r->x + r->w; x++)
							cr_assert_eq(used[y][x]++, 0,
								     "%dx%d: overlap at %d,%d",
								     cols, rows, x, y);
					if (p == TUI_GRAPH || p == TUI_STATS || p == TUI_RECENT ||
					    (p == TUI_IOSTAT && !l.side))
						main_rows += r->h;
				}
				cr_assert_eq(main_rows, rows - l.r[TUI_HEADER].h - 1,
					     "%dx%d: %d main rows", cols, rows, main_rows);
				cr_assert_eq(l.side, want > 0 && cols >= TUI_SIDE_MIN_COLS);
			}
		}
	}
}

Test(tui_layout, columns_by_priority)
{
	static const struct tui_colspec cols[] = {
		{ 8, 3 }, { 7, 0 }, { 10, 6 }, { 8, 1 }, { 10, 2 },
	};
	bool on[5];
	int used;

	used = tui_layout_columns(cols, 5, 100, on);
	cr_assert_eq(used, 43);
	for (int i = 0; i < 5; i++)
		cr_assert(on[i]);
	used = tui_layout_columns(cols, 5, 25, on);
	cr_assert_eq(used, 25, "prio 0, 1, 2 fit exactly");
	cr_assert(on[1] && on[3] && on[4]);
	cr_assert_not(on[0] || on[2]);
	used = tui_layout_columns(cols, 5, 16, on);
	cr_assert(on[1] && on[3], "7 + 8 fit");
	cr_assert_not(on[4], "10 does not fit any more");
	cr_assert_eq(used, 15);
	used = tui_layout_columns(cols, 5, 0, on);
	cr_assert_eq(used, 0);
	for (int i = 0; i < 5; i++)
		cr_assert_not(on[i]);
}

Test(tui_layout, columns_skip_a_wide_one_for_smaller_ones)
{
	static const struct tui_colspec cols[] = { { 5, 0 }, { 20, 1 }, { 5, 2 } };
	bool on[3];

	cr_assert_eq(tui_layout_columns(cols, 3, 12, on), 10);
	cr_assert(on[0] && !on[1] && on[2]);
}

Test(tui_layout, center)
{
	struct tui_rect r = tui_layout_center(80, 24, 54, 18);

	cr_assert_eq(r.x, 13);
	cr_assert_eq(r.y, 3);
	cr_assert_eq(r.w, 54);
	cr_assert_eq(r.h, 18);
	r = tui_layout_center(40, 12, 54, 18);
	cr_assert_eq(r.x, 0);
	cr_assert_eq(r.y, 0);
	cr_assert_eq(r.w, 40);
	cr_assert_eq(r.h, 12);
}

/* A verdict of four rows at 80x24 (issue 24): the iostat panel gets the rows it needs (title,
 * the selected device's two lines, rates, four verdict rows) and the other panels give way;
 * a need beyond what the minimums leave gets what there is, never nothing. */
Test(tui_layout, iostat_need_is_kept)
{
	struct tui_layout_req req = { 80, 24, 10, 8 };
	struct tui_layout l;

	tui_layout_compute(&req, &l);
	cr_assert_geq(l.r[TUI_IOSTAT].h, 8, "got %d", l.r[TUI_IOSTAT].h);
	cr_assert(shown(&l, TUI_GRAPH) && shown(&l, TUI_STATS));
	req.iostat_need = 0;
	tui_layout_compute(&req, &l);
	cr_assert_eq(l.r[TUI_IOSTAT].h, TUI_IOSTAT_MIN, "the minimum without a need");
	req.iostat_need = 30;
	tui_layout_compute(&req, &l);
	cr_assert_geq(l.r[TUI_IOSTAT].h, TUI_IOSTAT_MIN, "too big a need: still shown");
}
