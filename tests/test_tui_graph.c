/*
 * Tests for tui/tui_graph.c: scale choice (log decades, linear nice tops,
 * outliers clipped), value-to-dot mapping, braille and ASCII composition
 * with the slow / failed / clipped / paused marks, axis labels.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "tui_graph.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)

static struct tui_col col(uint64_t min, uint64_t max, uint32_t n)
{
	struct tui_col c = { .min = min, .max = max, .n = n };

	return c;
}

Test(tui_graph, empty_scale_defaults)
{
	struct tui_scale sc;

	tui_graph_scale(NULL, 0, true, &sc);
	cr_assert(sc.log);
	cr_assert_float_eq(sc.lo, 1e4, 1e-6);
	cr_assert_float_eq(sc.hi, 1e6, 1e-6);
	cr_assert_not(sc.clipped);
	tui_graph_scale(NULL, 0, false, &sc);
	cr_assert_float_eq(sc.lo, 0, 1e-9);
	cr_assert_float_eq(sc.hi, 1e6, 1e-6);
}

Test(tui_graph, log_scale_covers_whole_decades)
{
	struct tui_col c[4] = { col(120 * US, 300 * US, 5), col(0, 0, 0), col(150 * US, 2 * MS, 3),
				col(0, 0, 0) };
	struct tui_scale sc;

	tui_graph_scale(c, 4, true, &sc);
	cr_assert_float_eq(sc.lo, 1e5, 1e-3, "100 µs below 120 µs");
	cr_assert_float_eq(sc.hi, 1e7, 1e-3, "10 ms above 2 ms");
	cr_assert_not(sc.clipped);
	/* a single value: at least one decade */
	c[2] = col(0, 0, 0);
	c[0] = col(500 * US, 500 * US, 1);
	tui_graph_scale(c, 4, true, &sc);
	cr_assert_float_eq(sc.lo, 1e5, 1e-3);
	cr_assert_float_eq(sc.hi, 1e6, 1e-3);
	/* exactly a power of ten */
	c[0] = col(MS, MS, 1);
	tui_graph_scale(c, 4, true, &sc);
	cr_assert_float_eq(sc.lo, 1e6, 1e-3);
	cr_assert_float_eq(sc.hi, 1e7, 1e-3);
	cr_assert_not(sc.clipped);
}

Test(tui_graph, linear_scale_has_a_nice_top)
{
	struct tui_col c[2] = { col(100 * US, 730 * US, 4), col(0, 0, 0) };
	struct tui_scale sc;

	tui_graph_scale(c, 2, false, &sc);
	cr_assert_float_eq(sc.lo, 0, 1e-9);
	cr_assert_float_eq(sc.hi, 1e6, 1e-3);
	c[0].max = 180 * US;
	tui_graph_scale(c, 2, false, &sc);
	cr_assert_float_eq(sc.hi, 2e5, 1e-3);
	c[0].max = 210 * US;
	tui_graph_scale(c, 2, false, &sc);
	cr_assert_float_eq(sc.hi, 2.5e5, 1e-3);
	c[0].max = 260 * US;
	tui_graph_scale(c, 2, false, &sc);
	cr_assert_float_eq(sc.hi, 5e5, 1e-3);
}

Test(tui_graph, outliers_are_clipped_not_rescaled)
{
	struct tui_col c[40];
	struct tui_scale sc;

	for (int i = 0; i < 40; i++)
		c[i] = col(90 * US, 100 * US, 1);
	c[20] = col(90 * US, 50 * MS, 1);
	tui_graph_scale(c, 40, false, &sc);
	cr_assert(sc.clipped, "one 50 ms spike among 100 µs");
	cr_assert_float_eq(sc.hi, 2e5, 1e-3, "top from the 95th percentile: %g", sc.hi);
	/* log scale: a 500x spike fits */
	tui_graph_scale(c, 40, true, &sc);
	cr_assert_not(sc.clipped);
	cr_assert_float_eq(sc.hi, 1e8, 1e-3);
	/* log scale: a hung 100 s request among 10 µs ones is clipped */
	for (int i = 0; i < 40; i++)
		c[i] = col(9 * US, 10 * US, 1);
	c[39] = col(100000 * MS, 100000 * MS, 1);
	tui_graph_scale(c, 40, true, &sc);
	cr_assert(sc.clipped);
	cr_assert_leq(sc.hi, 1e9);
}

Test(tui_graph, level_mapping)
{
	struct tui_scale log = { true, 1e4, 1e6, false }, lin = { false, 0, 1e6, false };

	cr_assert_eq(tui_graph_level(&log, 0, 40), 0);
	cr_assert_eq(tui_graph_level(&log, 10 * US, 40), 0);
	cr_assert_eq(tui_graph_level(&log, 100 * US, 40), 20, "the middle decade");
	cr_assert_eq(tui_graph_level(&log, MS, 40), 39, "the top value is the top dot");
	cr_assert_eq(tui_graph_level(&log, MS + 1000, 40), 40, "above: clipped");
	cr_assert_eq(tui_graph_level(&lin, 0, 40), 0);
	cr_assert_eq(tui_graph_level(&lin, 500 * US, 40), 20);
	cr_assert_eq(tui_graph_level(&lin, 1 * MS, 40), 39);
	cr_assert_eq(tui_graph_level(&lin, 2 * MS, 40), 40);
	cr_assert_eq(tui_graph_level(&lin, 5, 0), 0);
}

/* Compose width x height from cols; plot and marks are filled. */
static void compose(const struct tui_col *c, int width, int height, const struct tui_scale *sc,
		    bool ascii, struct tui_cell *plot, struct tui_cell *marks)
{
	tui_graph_compose(c, width, height, sc, ascii, plot, marks);
}

Test(tui_graph, braille_dots)
{
	struct tui_scale lin = { false, 0, 8e5, false };
	struct tui_col c[4] = { 0 };
	struct tui_cell plot[2 * 2], marks[2];

	/* 2 rows x 4 dots = 8 levels of 100 µs; left sub-column at the bottom */
	c[0] = col(50 * US, 50 * US, 1);
	/* right sub-column of cell 0 at level 7 (top dot) */
	c[1] = col(750 * US, 750 * US, 1);
	/* cell 1, left: levels 2..5 (spans both rows) */
	c[2] = col(250 * US, 550 * US, 2);
	compose(c, 2, 2, &lin, false, plot, marks);
	/* row 0 (top) = levels 4..7; row 1 = levels 0..3 */
	cr_assert_eq(plot[0].ch, 0x2800 | 0x08, "top dot of the right column: %x", plot[0].ch);
	cr_assert_eq(plot[2].ch, 0x2800 | 0x40, "bottom dot of the left column: %x", plot[2].ch);
	cr_assert_eq(plot[1].ch, 0x2800 | 0x04 | 0x40, "levels 4, 5: %x", plot[1].ch);
	cr_assert_eq(plot[3].ch, 0x2800 | 0x01 | 0x02, "levels 2, 3: %x", plot[3].ch);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(plot[i].cls, TUI_CLS_DATA);
	cr_assert_eq(marks[0].ch, ' ');
	cr_assert_eq(marks[1].cls, TUI_CLS_EMPTY);
}

Test(tui_graph, empty_cells_are_spaces)
{
	struct tui_scale lin = { false, 0, 1e6, false };
	struct tui_col c[6] = { 0 };
	struct tui_cell plot[3 * 4], marks[3];

	compose(c, 3, 4, &lin, false, plot, marks);
	for (int i = 0; i < 12; i++) {
		cr_assert_eq(plot[i].ch, ' ', "never U+2800 for an empty cell");
		cr_assert_eq(plot[i].cls, TUI_CLS_EMPTY);
	}
}

Test(tui_graph, marks_for_errors_slow_clipped_paused)
{
	struct tui_scale lin = { false, 0, 1e6, false };
	struct tui_col c[8] = { 0 };
	struct tui_cell plot[4 * 3], marks[4];

	c[0] = col(100 * US, 900 * US, 3);
	c[0].slow = 1;                     /* cell 0: slow */
	c[2].err = 2;                      /* cell 1: failed requests, no latency */
	c[4] = col(100 * US, 5 * MS, 2);   /* cell 2: above the scale */
	c[7].flags = TUI_COL_PAUSED;       /* cell 3: paused */
	compose(c, 4, 3, &lin, false, plot, marks);
	cr_assert_eq(marks[0].ch, '!');
	cr_assert_eq(marks[0].cls, TUI_CLS_SLOW);
	cr_assert_eq(plot[0].cls, TUI_CLS_SLOW, "the cell with the slow maximum");
	cr_assert_eq(marks[1].ch, 'x');
	cr_assert_eq(marks[1].cls, TUI_CLS_ERROR);
	cr_assert_eq(plot[2].ch, '^', "clipped: marked at the top edge");
	cr_assert_eq(plot[2].cls, TUI_CLS_CLIP);
	cr_assert_eq(plot[4 + 2].cls, TUI_CLS_DATA, "the rest of the span is drawn");
	cr_assert_eq(marks[3].ch, '-');
	cr_assert_eq(marks[3].cls, TUI_CLS_PAUSED);
	cr_assert_eq(plot[3].ch, ' ');
}

Test(tui_graph, errors_win_over_slow_in_the_marks)
{
	struct tui_scale lin = { false, 0, 1e6, false };
	struct tui_col c[2] = { 0 };
	struct tui_cell plot[1], marks[1];

	c[0] = col(100 * US, 100 * US, 1);
	c[0].slow = 1;
	c[1].err = 1;
	c[1].flags = TUI_COL_PAUSED;
	compose(c, 1, 1, &lin, false, plot, marks);
	cr_assert_eq(marks[0].ch, 'x');
}

Test(tui_graph, ascii_uses_only_ascii)
{
	struct tui_scale log = { true, 1e4, 1e7, false };
	struct tui_col c[40];
	struct tui_cell plot[20 * 5], marks[20];

	for (int i = 0; i < 40; i++)
		c[i] = col((uint64_t)(10 + i) * US, (uint64_t)(20 + i * 200) * US, 1);
	c[5].slow = 1;
	c[7].err = 1;
	compose(c, 20, 5, &log, true, plot, marks);
	for (int i = 0; i < 100; i++)
		cr_assert(plot[i].ch < 0x80 && strchr(" .':^", (int)plot[i].ch),
			  "cell %d is %x", i, plot[i].ch);
	for (int i = 0; i < 20; i++)
		cr_assert(marks[i].ch < 0x80);
}

Test(tui_graph, ascii_halves)
{
	struct tui_scale lin = { false, 0, 4e5, false };
	struct tui_col c[6] = { 0 };
	struct tui_cell plot[3 * 2], marks[3];

	/* 2 rows x 2 levels: 100 µs each */
	c[0] = col(50 * US, 50 * US, 1);     /* level 0: lower half of the bottom row */
	c[3] = col(150 * US, 150 * US, 1);   /* level 1: upper half, merged in cell 1 */
	c[4] = col(50 * US, 350 * US, 1);    /* levels 0..3 */
	compose(c, 3, 2, &lin, true, plot, marks);
	cr_assert_eq(plot[3 + 0].ch, '.');
	cr_assert_eq(plot[0].ch, ' ');
	cr_assert_eq(plot[3 + 1].ch, '\'');
	cr_assert_eq(plot[2].ch, ':');
	cr_assert_eq(plot[3 + 2].ch, ':');
}

Test(tui_graph, labels)
{
	char b[TUI_LABEL_LEN];

	cr_assert_str_eq(tui_graph_label(b, sizeof(b), MS, false), "1 ms");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 100 * US, false), "100 µs");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 100 * US, true), "100 us");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 2500 * US, false), "2.5 ms");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 1234567, false), "1.23 ms");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 10000 * MS, false), "10 s");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 100, false), "100 ns");
	cr_assert_str_eq(tui_graph_label(b, sizeof(b), 0, false), "0 ns");
}

Test(tui_graph, ylabels_log)
{
	struct tui_scale sc = { true, 1e4, 1e7, false };
	char l[12][TUI_LABEL_LEN];
	int decades = 0;

	tui_graph_ylabels(&sc, 12, false, l);
	cr_assert_str_eq(l[0], "10 ms");
	cr_assert_str_eq(l[11], "10 µs");
	for (int r = 1; r < 11; r++) {
		if (!strcmp(l[r], "1 ms") || !strcmp(l[r], "100 µs"))
			decades++;
		else
			cr_assert_str_eq(l[r], "", "row %d: %s", r, l[r]);
	}
	cr_assert_eq(decades, 2);
	tui_graph_ylabels(&sc, 3, true, l);
	cr_assert_str_eq(l[0], "10 ms");
	cr_assert_str_eq(l[2], "10 us");
	cr_assert_str_eq(l[1], "", "no room for a decade between neighbours");
}

Test(tui_graph, ylabels_linear)
{
	struct tui_scale sc = { false, 0, 2e6, false };
	char l[9][TUI_LABEL_LEN];

	tui_graph_ylabels(&sc, 9, false, l);
	cr_assert_str_eq(l[0], "2 ms");
	cr_assert_str_eq(l[8], "0");
	cr_assert_str_eq(l[4], "1 ms");
	tui_graph_ylabels(&sc, 1, false, l);
	cr_assert_str_eq(l[0], "2 ms");
}

Test(tui_graph, xaxis)
{
	char b[128];

	tui_graph_xaxis(b, sizeof(b), 60, 60000000000ull);
	cr_assert_eq(strlen(b), 60);
	cr_assert_eq(strncmp(b, "-1 min", 6), 0, "\"%s\"", b);
	cr_assert_str_eq(b + 57, "now");
	cr_assert_not_null(strstr(b, "-30 s"));
	cr_assert_not_null(strstr(b, "-45 s"), "quarters from 48 cells: \"%s\"", b);
	cr_assert_not_null(strstr(b, "-15 s"));
	tui_graph_xaxis(b, sizeof(b), 30, 600000000000ull);
	cr_assert_eq(strlen(b), 30);
	cr_assert_eq(strncmp(b, "-10 min", 7), 0, "\"%s\"", b);
	cr_assert_not_null(strstr(b, "-5 min"));
	cr_assert_null(strstr(b, "-7.5 min"), "no quarters below 48 cells");
	tui_graph_xaxis(b, sizeof(b), 80, 3600000000000ull);
	cr_assert_eq(strncmp(b, "-1 h", 4), 0);
	cr_assert_not_null(strstr(b, "-30 min"));
	cr_assert_not_null(strstr(b, "-45 min"));
	tui_graph_xaxis(b, sizeof(b), 2, 60000000000ull);
	cr_assert_str_eq(b, "  ");
	tui_graph_xaxis(b, 5, 60, 60000000000ull);
	cr_assert_eq(strlen(b), 4, "clipped to the buffer");
	/* a replay: the cursor's clock at the right end, the quarter next to it kept clear */
	tui_graph_xaxis_at(b, sizeof(b), 60, 60000000000ull, "05:04:17");
	cr_assert_eq(strlen(b), 60);
	cr_assert_str_eq(b + 52, "05:04:17");
	cr_assert_not_null(strstr(b, "-15 s"));
	tui_graph_xaxis_at(b, sizeof(b), 6, 60000000000ull, "05:04:17");
	cr_assert_str_eq(b, "-1 min", "too narrow for the clock: \"%s\"", b);
}

Test(tui_graph, utf8)
{
	char b[5];

	cr_assert_eq(tui_graph_utf8('x', b), 1);
	cr_assert_eq(b[0], 'x');
	cr_assert_eq(tui_graph_utf8(0xb5, b), 2);
	cr_assert_eq(memcmp(b, "\xc2\xb5", 2), 0);
	cr_assert_eq(tui_graph_utf8(0x28ff, b), 3);
	cr_assert_eq(memcmp(b, "\xe2\xa3\xbf", 3), 0);
	cr_assert_eq(tui_graph_utf8(0x1f600, b), 4);
	cr_assert_eq(memcmp(b, "\xf0\x9f\x98\x80", 4), 0);
}

Test(tui_graph, skipped_slots_get_their_own_mark)
{
	struct tui_scale lin = { false, 0, 1e6, false };
	struct tui_col c[6] = { 0 };
	struct tui_cell plot[3], marks[3];

	c[0] = col(100 * US, 100 * US, 1);
	c[0].skipped = 3;                    /* skipped alone: 's' */
	c[2] = col(100 * US, 100 * US, 1);
	c[2].slow = 1;
	c[3].skipped = 1;                    /* skipped wins over slow */
	c[4].err = 1;
	c[5].skipped = 1;                    /* failed wins over skipped */
	compose(c, 3, 1, &lin, false, plot, marks);
	cr_assert_eq(marks[0].ch, 's');
	cr_assert_eq(marks[0].cls, TUI_CLS_SKIP);
	cr_assert_eq(marks[1].ch, 's');
	cr_assert_eq(marks[2].ch, 'x');
}
