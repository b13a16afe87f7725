/* Unit tests for tui/tui_overview.c: the slowest row, columns, scrolling, number keys, window. */
#include <criterion/criterion.h>
#include <string.h>

#include "tui_overview.h"

static struct tui_ov_row row(uint64_t p99, uint64_t count, bool bad)
{
	struct tui_ov_row r;

	memset(&r, 0, sizeof(r));
	r.p99 = p99;
	r.count = count;
	r.bad_verdict = bad;
	return r;
}

Test(tui_overview, slowest_is_the_highest_p99)
{
	struct tui_ov_row r[3] = { row(1000, 5, false), row(7000000, 5, false), row(2000, 5, false) };

	cr_assert_eq(tui_ov_slowest(r, 3), 1);
}

Test(tui_overview, a_bad_verdict_beats_p99)
{
	struct tui_ov_row r[3] = { row(9000000, 5, false), row(1000, 5, true), row(2000, 5, true) };

	cr_assert_eq(tui_ov_slowest(r, 3), 2, "among bad verdicts the highest p99");
	r[2].bad_verdict = false;
	cr_assert_eq(tui_ov_slowest(r, 3), 1);
}

Test(tui_overview, rows_without_requests_are_not_slowest)
{
	struct tui_ov_row r[2] = { row(0, 0, false), row(0, 0, false) };

	cr_assert_eq(tui_ov_slowest(r, 2), TUI_OV_NONE);
	r[0] = row(500, 1, false);
	r[1] = row(900000, 0, false); /* a stale p99 without requests in the window */
	cr_assert_eq(tui_ov_slowest(r, 2), 0);
}

Test(tui_overview, wide_terminal_shows_every_column)
{
	struct tui_ov_cols c;

	tui_ov_columns(200, &c);
	for (int k = 0; k < TUI_OV_NCOLS; k++)
		cr_assert_gt(c.w[k], 0, "column %s", tui_ov_col_name(k));
	for (int k = 1; k < TUI_OV_NCOLS; k++)
		cr_assert_eq(c.x[k], c.x[k - 1] + c.w[k - 1]);
	cr_assert_leq(c.x[TUI_OV_NCOLS - 1] + c.w[TUI_OV_NCOLS - 1], 200);
}

Test(tui_overview, eighty_columns_drop_last_max_and_dev_first)
{
	struct tui_ov_cols c;
	int end;

	tui_ov_columns(80, &c);
	end = c.x[TUI_OV_NCOLS - 1] + c.w[TUI_OV_NCOLS - 1];
	cr_assert_leq(end, 80);
	cr_assert_eq(c.w[TUI_OV_LAST], 0);
	cr_assert_eq(c.w[TUI_OV_MAX], 0);
	cr_assert_eq(c.w[TUI_OV_DEV], 0);
	cr_assert_gt(c.w[TUI_OV_P99], 0);
	cr_assert_gt(c.w[TUI_OV_SPARKC], 0);
	cr_assert_gt(c.w[TUI_OV_BUSY], 0);
	cr_assert_geq(c.w[TUI_OV_TARGET], 12);
}

Test(tui_overview, narrow_terminal_keeps_the_essentials)
{
	struct tui_ov_cols c;

	tui_ov_columns(50, &c);
	cr_assert_gt(c.w[TUI_OV_TARGET], 0);
	cr_assert_gt(c.w[TUI_OV_RATE], 0);
	cr_assert_gt(c.w[TUI_OV_P50], 0);
	cr_assert_gt(c.w[TUI_OV_P99], 0);
	cr_assert_eq(c.w[TUI_OV_SPARKC], 0);
	cr_assert_eq(c.w[TUI_OV_BUSY], 0);
}

Test(tui_overview, scroll_keeps_the_selection_visible)
{
	cr_assert_eq(tui_ov_scroll(0, 5, 3, 20), 0, "everything fits");
	cr_assert_eq(tui_ov_scroll(0, 19, 24, 20), 0);
	cr_assert_eq(tui_ov_scroll(0, 20, 24, 20), 1);
	cr_assert_eq(tui_ov_scroll(4, 23, 24, 20), 4);
	cr_assert_eq(tui_ov_scroll(4, 2, 24, 20), 2);
	cr_assert_eq(tui_ov_scroll(10, 12, 24, 20), 4, "never past the end");
}

Test(tui_overview, one_digit_opens_at_once_with_few_targets)
{
	unsigned acc = 0;

	cr_assert_eq(tui_ov_digit(&acc, 3, 3), 2);
	cr_assert_eq(acc, 0);
	cr_assert_eq(tui_ov_digit(&acc, 4, 3), -2, "no target 4");
	cr_assert_eq(tui_ov_digit(&acc, 0, 3), -2, "no target 0");
}

Test(tui_overview, two_digits_with_many_targets)
{
	unsigned acc = 0;

	cr_assert_eq(tui_ov_digit(&acc, 1, 24), -1, "1 may become 1x");
	cr_assert_eq(tui_ov_digit(&acc, 2, 24), 11);
	cr_assert_eq(tui_ov_digit(&acc, 3, 24), 2, "30 would be past 24: 3 opens");
	cr_assert_eq(tui_ov_digit(&acc, 2, 24), -1);
	cr_assert_eq(tui_ov_digits_target(&acc, 24), 1, "Enter opens 2");
	cr_assert_eq(tui_ov_digit(&acc, 2, 24), -1);
	cr_assert_eq(tui_ov_digit(&acc, 7, 24), -2, "27 is past 24");
	cr_assert_eq(acc, 0);
	cr_assert_eq(tui_ov_digits_target(&acc, 24), -1);
}

Test(tui_overview, sparkline_scales_between_low_and_high)
{
	struct tui_col c[4];
	char out[16];

	memset(c, 0, sizeof(c));
	c[0].n = 1, c[0].max = 1000;
	c[2].n = 1, c[2].max = 1000000;
	c[3].n = 1, c[3].max = 31623; /* halfway on a log scale */
	tui_ov_spark(c, 4, true, out, sizeof(out));
	cr_assert_str_eq(out, ". @+");
	tui_ov_spark(c, 4, false, out, sizeof(out));
	cr_assert_str_eq(out, "▁ █▅");
	tui_ov_spark(c, 4, true, out, 3);
	cr_assert_eq(strlen(out), 2, "clipped to the buffer");
}

Test(tui_overview, window_keeps_thirty_to_sixty_seconds)
{
	static struct tui_ov_win w;
	static struct stats s;
	const uint64_t S = 1000000000ull;

	tui_ov_win_init(&w);
	tui_ov_win_add(&w, 1 * S, 100);
	tui_ov_win_add(&w, 35 * S, 200);
	tui_ov_win_get(&w, 40 * S, &s);
	cr_assert_eq(s.count, 2);
	tui_ov_win_get(&w, 61 * S, &s);
	cr_assert_eq(s.count, 1, "the first half is gone after 60 s");
	cr_assert_eq(s.max, 200);
	tui_ov_win_get(&w, 200 * S, &s);
	cr_assert_eq(s.count, 0, "an idle window empties");
	tui_ov_win_add(&w, 201 * S, 300);
	tui_ov_win_get(&w, 202 * S, &s);
	cr_assert_eq(s.count, 1);
}
