/*
 * Unit tests for tui/tui_overview.c: the slowest row and its reason, the verdict column,
 * sort and filter, columns, scrolling, number keys, the shared-scale sparkline, windows.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tui_overview.h"

#define US 1000ull
#define MS 1000000ull
#define S 1000000000ull

static struct tui_ov_row row(uint64_t p99, uint64_t count)
{
	struct tui_ov_row r;

	memset(&r, 0, sizeof(r));
	r.p99 = p99;
	r.count = count;
	return r;
}

/* A row with a verdict: state and (for falls short) reason. */
static struct tui_ov_row judged(uint64_t p99, enum verdict_state st, enum verdict_reason why)
{
	struct tui_ov_row r = row(p99, 100);

	r.have_verdict = true;
	r.v.state = st;
	r.v.reason = why;
	return r;
}

static int cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* ---- the slowest and why ---------------------------------------------------------------- */

Test(tui_overview, slowest_is_the_highest_p99)
{
	struct tui_ov_row r[3] = { row(1000, 5), row(7000000, 5), row(2000, 5) };

	cr_assert_eq(tui_ov_slowest(r, 3), 1);
}

Test(tui_overview, a_device_side_verdict_ranks_first)
{
	struct tui_ov_row r[3] = {
		judged(9 * MS, VERDICT_KEEPS_UP, VERDICT_NO_REASON),
		judged(200 * US, VERDICT_OTHER_IO, VERDICT_NO_REASON),
		judged(300 * US, VERDICT_QUEUE_BUILDING, VERDICT_NO_REASON),
	};

	cr_assert_eq(tui_ov_slowest(r, 3), 2, "among device-side verdicts the highest p99");
	r[2].v.state = VERDICT_KEEPS_UP;
	cr_assert_eq(tui_ov_slowest(r, 3), 1, "other I/O above a slower disk that keeps up");
	r[1] = judged(200 * US, VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED);
	cr_assert_eq(tui_ov_slowest(r, 3), 1, "device saturated");
	r[1].v.reason = VERDICT_WAIT_ABOVE;
	cr_assert_eq(tui_ov_slowest(r, 3), 1, "wait above the device");
}

/* Issue 25: a fast target whose verdict read "falls short: probe limited" (on a busy moment,
 * or after + raised its rate) was marked over the 5 ms disk. */
Test(tui_overview, probe_or_depth_limited_never_outranks_a_slower_device)
{
	struct tui_ov_row r[3] = {
		judged(181 * US, VERDICT_FALLS_SHORT, VERDICT_PROBE_LIMITED),
		judged(6850 * US, VERDICT_KEEPS_UP, VERDICT_NO_REASON),
		judged(150 * US, VERDICT_FALLS_SHORT, VERDICT_DEPTH_LIMITED),
	};

	cr_assert_eq(tui_ov_slowest(r, 3), 1);
	r[1].have_verdict = false; /* no verdict yet: p99 alone */
	cr_assert_eq(tui_ov_slowest(r, 3), 1);
	r[1] = judged(6850 * US, VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED);
	cr_assert_eq(tui_ov_slowest(r, 3), 1);
	r[0].p99 = 9 * MS; /* probe limited and slower than the device: p99 decides */
	r[1].v.state = VERDICT_KEEPS_UP;
	cr_assert_eq(tui_ov_slowest(r, 3), 0);
}

Test(tui_overview, ties_go_to_the_target_given_first)
{
	struct tui_ov_row r[2] = { row(5 * MS, 3), row(5 * MS, 3) };

	cr_assert_eq(tui_ov_slowest(r, 2), 0);
}

Test(tui_overview, rows_without_requests_or_not_running_are_not_slowest)
{
	struct tui_ov_row r[3] = { row(0, 0), row(0, 0), row(0, 0) };

	cr_assert_eq(tui_ov_slowest(r, 3), TUI_OV_NONE);
	r[0] = row(500, 1);
	r[1] = row(900000, 0); /* a stale p99 without requests in the window */
	cr_assert_eq(tui_ov_slowest(r, 3), 0);
	r[2] = row(9 * MS, 10);
	r[2].state = "paused";
	cr_assert_eq(tui_ov_slowest(r, 3), 0, "a paused target is not compared");
	r[2].state = NULL;
	cr_assert_eq(tui_ov_slowest(r, 3), 2);
	r[1] = judged(1 * US, VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED);
	r[1].count = 0; /* a hung device: nothing completed, the verdict says why */
	cr_assert_eq(tui_ov_slowest(r, 3), 1);
}

Test(tui_overview, verdict_column_words)
{
	static const struct {
		enum verdict_state st;
		enum verdict_reason why;
		const char *words;
		enum tui_ov_vclass cls;
	} cases[] = {
		{ VERDICT_KEEPS_UP, VERDICT_NO_REASON, "keeps up", TUI_OV_VC_OK },
		{ VERDICT_OTHER_IO, VERDICT_NO_REASON, "other I/O", TUI_OV_VC_DEVICE },
		{ VERDICT_QUEUE_BUILDING, VERDICT_NO_REASON, "queue bld", TUI_OV_VC_DEVICE },
		{ VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED, "saturated", TUI_OV_VC_DEVICE },
		{ VERDICT_FALLS_SHORT, VERDICT_WAIT_ABOVE, "wait above", TUI_OV_VC_DEVICE },
		{ VERDICT_FALLS_SHORT, VERDICT_DEPTH_LIMITED, "depth lim", TUI_OV_VC_PROBE },
		{ VERDICT_FALLS_SHORT, VERDICT_PROBE_LIMITED, "probe lim", TUI_OV_VC_PROBE },
		{ VERDICT_NONE, VERDICT_UNPACED, "no verdict", TUI_OV_VC_NONE },
	};
	struct tui_ov_row none = row(1, 1);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tui_ov_row r = judged(1, cases[i].st, cases[i].why);

		cr_assert_str_eq(tui_ov_vshort(&r), cases[i].words);
		cr_assert_eq(tui_ov_vclass(&r), cases[i].cls, "%s", cases[i].words);
		cr_assert_leq(cells(tui_ov_vshort(&r)), 10, "fits the column: %s", cases[i].words);
	}
	cr_assert_str_eq(tui_ov_vshort(&none), "no verdict");
	cr_assert_eq(tui_ov_vclass(&none), TUI_OV_VC_NONE);
}

Test(tui_overview, the_reason_names_the_rule_and_its_numbers)
{
	struct tui_ov_row r = judged(228 * US, VERDICT_OTHER_IO, VERDICT_NO_REASON);
	char buf[256];

	r.v.dev_rate = 340;
	r.v.own = 100;
	r.v.aqu = 3.23;
	r.v.busy = 100;
	cr_assert_str_eq(tui_ov_reason(&r, false, buf, sizeof(buf)),
			 "other I/O: dev 340/s for the probe's 100/s, aqu-sz 3.23, busy 100 %, "
			 "p99 228 µs");
	r = judged(7310 * US, VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED);
	r.v.achieved = 141;
	r.v.asked = 200;
	r.v.busy = 99.2;
	r.v.aqu = 0.99;
	cr_assert_str_eq(tui_ov_reason(&r, true, buf, sizeof(buf)),
			 "device saturated: got 141/200, busy 99 %, aqu-sz 0.99, p99 7.31 ms");
	r = judged(6850 * US, VERDICT_KEEPS_UP, VERDICT_NO_REASON);
	cr_assert_str_eq(tui_ov_reason(&r, false, buf, sizeof(buf)),
			 "highest p99 6.85 ms (keeps up)");
	r = judged(181 * US, VERDICT_FALLS_SHORT, VERDICT_PROBE_LIMITED);
	cr_assert_str_eq(tui_ov_reason(&r, true, buf, sizeof(buf)),
			 "highest p99 181 us (falls short: probe limited)");
	r.have_verdict = false;
	cr_assert_str_eq(tui_ov_reason(&r, true, buf, sizeof(buf)),
			 "highest p99 181 us (no verdict)");
	r = judged(12 * MS, VERDICT_QUEUE_BUILDING, VERDICT_NO_REASON);
	r.v.aqu = 5.4;
	r.v.own_aqu = 1;
	r.v.await = 33;
	r.v.busy = 100;
	cr_assert_str_eq(tui_ov_reason(&r, true, buf, sizeof(buf)),
			 "queue building: aqu-sz 5.40 (the probe's own 1), await 33.0 ms, "
			 "busy 100 %, p99 12.0 ms");
	r = judged(12 * MS, VERDICT_FALLS_SHORT, VERDICT_WAIT_ABOVE);
	r.v.mean_ns = 10.8e6;
	r.v.dev_ms = 0.09;
	cr_assert_str_eq(tui_ov_reason(&r, true, buf, sizeof(buf)),
			 "wait above the device: mean 10.8 ms against 90.0 us in the device, "
			 "p99 12.0 ms");
}

Test(tui_overview, rule_text_says_the_rule)
{
	const char *t = tui_ov_rule_text();

	cr_assert(strstr(t, "device saturated") && strstr(t, "other I/O") &&
		  strstr(t, "queue building") && strstr(t, "wait above the device") &&
		  strstr(t, "p99 over the window") && strstr(t, "Probe, CPU or depth limited"));
}

Test(tui_overview, clauses_are_left_out_whole)
{
	char s[128] = "keeps up: dev 200/s (expected 200: 1 piece per request), f/s 0, busy 1 %";

	tui_ov_fit_clauses(s, 100);
	cr_assert_str_eq(s, "keeps up: dev 200/s (expected 200: 1 piece per request), f/s 0, "
			    "busy 1 %");
	tui_ov_fit_clauses(s, 62);
	cr_assert_str_eq(s, "keeps up: dev 200/s (expected 200: 1 piece per request), f/s 0");
	tui_ov_fit_clauses(s, 40);
	cr_assert_str_eq(s, "keeps up: dev 200/s");
	snprintf(s, sizeof(s), "no-separator-at-all-here");
	tui_ov_fit_clauses(s, 5);
	cr_assert_str_eq(s, "no-separator-at-all-here", "left for the caller to clip");
	snprintf(s, sizeof(s), "µµµ, b");
	tui_ov_fit_clauses(s, 6);
	cr_assert_str_eq(s, "µµµ, b", "cells, not bytes");
}

/* ---- sort and filter -------------------------------------------------------------------- */

static size_t order(const struct tui_ov_row *r, size_t n, enum tui_ov_sort s, const char *f,
		    char *out)
{
	size_t idx[8], k = tui_ov_order(r, n, s, f, idx);

	for (size_t i = 0; i < k; i++)
		out[i] = (char)('0' + idx[i]);
	out[k] = '\0';
	return k;
}

Test(tui_overview, sort_orders)
{
	struct tui_ov_row r[5];
	char o[8];

	r[0] = judged(100 * US, VERDICT_KEEPS_UP, VERDICT_NO_REASON);
	r[1] = judged(7 * MS, VERDICT_FALLS_SHORT, VERDICT_DEVICE_SATURATED);
	r[2] = judged(200 * US, VERDICT_FALLS_SHORT, VERDICT_PROBE_LIMITED);
	r[3] = judged(300 * US, VERDICT_OTHER_IO, VERDICT_NO_REASON);
	r[4] = row(0, 0); /* nothing yet */
	for (int i = 0; i < 5; i++)
		snprintf(r[i].target, sizeof(r[i].target), "/dev/loop%d", i);
	r[0].have_io = r[1].have_io = r[3].have_io = true;
	r[0].busy = 1, r[1].busy = 99, r[3].busy = 100;
	r[0].await = 0.06, r[1].await = 7.2, r[3].await = 0.3;
	r[0].achieved = 200, r[1].achieved = 141, r[2].achieved = 900, r[3].achieved = 200;

	order(r, 5, TUI_OV_SORT_GIVEN, NULL, o);
	cr_assert_str_eq(o, "01234");
	order(r, 5, TUI_OV_SORT_P99, NULL, o);
	cr_assert_str_eq(o, "13204", "highest first, no requests last");
	order(r, 5, TUI_OV_SORT_VERDICT, NULL, o);
	cr_assert_str_eq(o, "13240", "device side, probe side, no verdict, keeps up");
	order(r, 5, TUI_OV_SORT_BUSY, NULL, o);
	cr_assert_str_eq(o, "31024", "busiest first, unknown last, in the given order");
	order(r, 5, TUI_OV_SORT_AWAIT, NULL, o);
	cr_assert_str_eq(o, "13024");
	order(r, 5, TUI_OV_SORT_RATE, NULL, o);
	cr_assert_str_eq(o, "20314", "ties (200/s) keep the given order");
	cr_assert_str_eq(tui_ov_sort_name(TUI_OV_SORT_AWAIT), "await");
}

Test(tui_overview, filter_by_path_substring)
{
	struct tui_ov_row r[4];
	char o[8];

	memset(r, 0, sizeof(r));
	snprintf(r[0].target, sizeof(r[0].target), "/dev/loop0");
	snprintf(r[1].target, sizeof(r[1].target), "/dev/sdb");
	snprintf(r[2].target, sizeof(r[2].target), "/dev/loop12");
	snprintf(r[3].target, sizeof(r[3].target), "/mnt/data/file");
	cr_assert_eq(order(r, 4, TUI_OV_SORT_GIVEN, "loop", o), 2);
	cr_assert_str_eq(o, "02");
	cr_assert_eq(order(r, 4, TUI_OV_SORT_GIVEN, "", o), 4, "an empty filter shows all");
	cr_assert_eq(order(r, 4, TUI_OV_SORT_GIVEN, "nvme", o), 0);
	cr_assert(tui_ov_match(&r[3], "data/f"));
	cr_assert(!tui_ov_match(&r[3], "Data"), "case matters, as in paths");
}

/* ---- columns ---------------------------------------------------------------------------- */

static int end_of(const struct tui_ov_cols *c)
{
	int end = 0;

	for (int k = 0; k < TUI_OV_NCOLS; k++)
		if (c->w[k] && c->x[k] + c->w[k] > end)
			end = c->x[k] + c->w[k];
	return end;
}

Test(tui_overview, wide_terminal_shows_every_column)
{
	struct tui_ov_cols c;

	tui_ov_columns(200, 10, &c);
	for (int k = 0; k < TUI_OV_NCOLS; k++)
		cr_assert_gt(c.w[k], 0, "column %s", tui_ov_col_name(k));
	for (int k = 1; k < TUI_OV_NCOLS; k++)
		cr_assert_eq(c.x[k], c.x[k - 1] + c.w[k - 1]);
	cr_assert_leq(end_of(&c), 200);
	cr_assert_eq(c.w[TUI_OV_SPARKC], TUI_OV_SPARK_MAX + 1, "the extra width goes to the "
		     "sparkline: a cell a second for a minute");
	cr_assert_eq(c.w[TUI_OV_TARGET], 12, "not to padding after short paths");
}

Test(tui_overview, eighty_columns_keep_verdict_last_and_sparkline)
{
	struct tui_ov_cols c;

	tui_ov_columns(80, 10, &c);
	cr_assert_leq(end_of(&c), 80);
	cr_assert_eq(c.w[TUI_OV_MAX], 0);
	cr_assert_eq(c.w[TUI_OV_DEV], 0);
	cr_assert_eq(c.w[TUI_OV_SKIP], 0);
	cr_assert_gt(c.w[TUI_OV_VERDICT], 10, "the verdict column from 80 columns");
	cr_assert_gt(c.w[TUI_OV_LAST], 0, "an instant column down to 80 columns");
	cr_assert_gt(c.w[TUI_OV_P50], 0);
	cr_assert_gt(c.w[TUI_OV_P99], 0);
	cr_assert_geq(c.w[TUI_OV_SPARKC], TUI_OV_SPARK_MIN + 1);
	cr_assert_geq(c.w[TUI_OV_TARGET], 12);
}

Test(tui_overview, narrow_terminal_drops_whole_columns)
{
	struct tui_ov_cols c;

	tui_ov_columns(50, 10, &c);
	cr_assert_gt(c.w[TUI_OV_TARGET], 0);
	cr_assert_gt(c.w[TUI_OV_RATE], 0);
	cr_assert_gt(c.w[TUI_OV_P50], 0);
	cr_assert_gt(c.w[TUI_OV_P99], 0);
	cr_assert_eq(c.w[TUI_OV_SPARKC], 0);
	cr_assert_eq(c.w[TUI_OV_BUSY], 0);
	tui_ov_columns(40, 30, &c);
	cr_assert_leq(end_of(&c), 40, "no column cut at 40 (issue 25: p99 cut to '6.')");
	cr_assert_eq(c.w[TUI_OV_P99], 8, "p99 whole");
}

/* Every width: columns whole, in order, within the width; the sparkline only grows. */
Test(tui_overview, every_width_fits_and_the_sparkline_grows)
{
	int spark = 0;

	for (int w = 26; w <= 260; w++) {
		struct tui_ov_cols c;

		tui_ov_columns(w, 20, &c);
		cr_assert_leq(end_of(&c), w, "width %d", w);
		cr_assert_gt(c.w[TUI_OV_P99], 0, "width %d", w);
		for (int k = 0; k < TUI_OV_NCOLS; k++)
			cr_assert(c.w[k] == 0 || c.w[k] >= 5, "width %d: %s whole", w,
				  tui_ov_col_name(k));
		cr_assert_geq(c.w[TUI_OV_SPARKC], spark, "width %d", w);
		spark = c.w[TUI_OV_SPARKC];
		cr_assert_leq(c.w[TUI_OV_TARGET], 21, "the target column: the widest path");
	}
	cr_assert_eq(spark, TUI_OV_SPARK_MAX + 1);
}

Test(tui_overview, long_paths_get_room_first)
{
	struct tui_ov_cols c;

	tui_ov_columns(150, 40, &c);
	cr_assert_eq(c.w[TUI_OV_TARGET], 41, "the widest path and its blank");
	cr_assert_eq(c.w[TUI_OV_SPARKC], 15, "then the sparkline");
	tui_ov_columns(250, 200, &c);
	cr_assert_eq(c.w[TUI_OV_TARGET], 48, "at most 48");
	cr_assert_eq(c.w[TUI_OV_SPARKC], TUI_OV_SPARK_MAX + 1);
}

/* ---- scrolling and number keys ---------------------------------------------------------- */

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

/* ---- the sparkline ---------------------------------------------------------------------- */

Test(tui_overview, sparkline_has_one_scale_for_every_row)
{
	struct tui_ov_row fast = row(0, 0), slow = row(0, 0);
	uint64_t lo = UINT64_MAX, hi = 0;
	char a[64], b[64];

	fast.spark[TUI_OV_SPARK_MAX - 2] = 60 * US;
	fast.spark[TUI_OV_SPARK_MAX - 1] = 80 * US;
	slow.spark[TUI_OV_SPARK_MAX - 3] = 7 * MS;
	slow.spark[TUI_OV_SPARK_MAX - 1] = 7 * MS;
	slow.spark[0] = 50 * MS; /* out of the 4 cells shown: not in the scale */
	tui_ov_spark_range(&fast, 4, &lo, &hi);
	tui_ov_spark_range(&slow, 4, &lo, &hi);
	cr_assert_eq(lo, 60 * US);
	cr_assert_eq(hi, 7 * MS);
	tui_ov_spark(&fast, 4, lo, hi, true, a, sizeof(a));
	tui_ov_spark(&slow, 4, lo, hi, true, b, sizeof(b));
	cr_assert_str_eq(a, "  ..", "a fast row stays low on the shared scale");
	cr_assert_str_eq(b, " @ @");
	tui_ov_spark(&slow, 4, lo, hi, false, b, sizeof(b));
	cr_assert_str_eq(b, " █ █");
	lo = UINT64_MAX, hi = 0;
	tui_ov_spark_range(&fast, 4, &lo, &hi); /* on its own scale it would fill the height */
	tui_ov_spark(&fast, 4, lo, hi, true, a, sizeof(a));
	cr_assert_str_eq(a, "  .@");
}

Test(tui_overview, sparkline_marks_failures_and_fits_its_buffer)
{
	struct tui_ov_row r = row(0, 0);
	char out[16];

	r.spark[TUI_OV_SPARK_MAX - 1] = 1000;
	r.spark[TUI_OV_SPARK_MAX - 2] = 31623; /* halfway on a log scale */
	r.spark_fail = 1ull << (TUI_OV_SPARK_MAX - 3);
	tui_ov_spark(&r, 3, 1000, 1000000, true, out, sizeof(out));
	cr_assert_str_eq(out, "x+.");
	tui_ov_spark(&r, 3, 1000, 1000000, false, out, sizeof(out));
	cr_assert_str_eq(out, "x▅▁");
	tui_ov_spark(&r, 3, 1000, 1000000, false, out, 5);
	cr_assert_str_eq(out, "x▅", "cut to the buffer, never half a character");
	tui_ov_spark(&r, 100, 1000, 1000000, true, out, sizeof(out));
	cr_assert_eq(strlen(out), 15, "at most the buffer");
}

/* ---- windows ---------------------------------------------------------------------------- */

Test(tui_overview, histogram_percentiles_within_two_percent)
{
	static struct tui_ov_hist h;
	static const uint64_t vals[] = { 7, 63, 64, 100, 999, 54321, 7310000, 40000000000ull };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t v = vals[i], got;

		tui_ov_hist_init(&h);
		tui_ov_hist_add(&h, v);
		tui_ov_hist_add(&h, 1);
		tui_ov_hist_add(&h, 2 * v + 100);
		got = tui_ov_hist_pct(&h, 50);
		cr_assert(got >= v - v / 62 && got <= v + v / 62, "%lu -> %lu", v, got);
	}
	tui_ov_hist_init(&h);
	cr_assert_eq(tui_ov_hist_pct(&h, 99), 0, "empty");
	for (uint64_t i = 1; i <= 1000; i++)
		tui_ov_hist_add(&h, i * US);
	cr_assert(tui_ov_hist_pct(&h, 99) >= 980 * US && tui_ov_hist_pct(&h, 99) <= 1000 * US);
	cr_assert(tui_ov_hist_pct(&h, 50) >= 492 * US && tui_ov_hist_pct(&h, 50) <= 508 * US);
	cr_assert_eq(tui_ov_hist_pct(&h, 100), 1000 * US, "clamped to the maximum");
	cr_assert_eq(h.count, 1000);
	tui_ov_hist_add(&h, 200 * S); /* past the top bucket: reported as the maximum */
	cr_assert_eq(tui_ov_hist_pct(&h, 100), 200 * S);
}

Test(tui_overview, histograms_merge)
{
	static struct tui_ov_hist a, b;

	tui_ov_hist_init(&a);
	tui_ov_hist_init(&b);
	for (int i = 0; i < 99; i++)
		tui_ov_hist_add(&a, 100 * US);
	tui_ov_hist_add(&b, 7 * MS);
	tui_ov_hist_add(&b, 7 * MS);
	tui_ov_hist_merge(&a, &b);
	cr_assert_eq(a.count, 101);
	cr_assert_eq(a.max, 7 * MS);
	cr_assert_eq(a.min, 100 * US);
	cr_assert(tui_ov_hist_pct(&a, 99) > 6 * MS);
	cr_assert(tui_ov_hist_pct(&a, 50) < 102 * US);
}

Test(tui_overview, window_labels)
{
	cr_assert_str_eq(tui_ov_window_label(TUI_OV_W10), "last 10 s");
	cr_assert_str_eq(tui_ov_window_label(TUI_OV_W60), "last 60 s");
	cr_assert_str_eq(tui_ov_window_label(TUI_OV_WALL), "all");
}

/* One request a second of i ms at second i (ending at i.5 s), from second 1. */
static void fill(struct tui_ov_win *w, uint64_t from_s, uint64_t to_s)
{
	for (uint64_t i = from_s; i <= to_s; i++)
		tui_ov_win_add(w, i * S + S / 2, i * MS);
}

Test(tui_overview, ten_seconds_are_the_last_ten_whole_seconds)
{
	static struct tui_ov_win w;
	static struct tui_ov_hist h;

	tui_ov_win_init(&w, 1 * S);
	fill(&w, 0, 30);
	tui_ov_win_get(&w, TUI_OV_W10, 30 * S + S / 2, &h);
	cr_assert_eq(h.count, 10, "seconds 20-29: the open second 30 waits");
	cr_assert_eq(h.min, 20 * MS);
	cr_assert_eq(h.max, 29 * MS);
	tui_ov_win_init(&w, 1 * S);
	fill(&w, 0, 5);
	tui_ov_win_get(&w, TUI_OV_W10, 5 * S, &h);
	cr_assert_eq(h.count, 4, "seconds 1-4: second 0 is the start-up");
	cr_assert_eq(h.min, 1 * MS);
}

Test(tui_overview, sixty_seconds_in_five_second_steps)
{
	static struct tui_ov_win w;
	static struct tui_ov_hist h;

	tui_ov_win_init(&w, 1 * S);
	fill(&w, 0, 200);
	tui_ov_win_get(&w, TUI_OV_W60, 200 * S + S / 2, &h);
	cr_assert_eq(h.count, 60, "blocks 140-199: 60 s on a block edge");
	cr_assert_eq(h.min, 140 * MS);
	cr_assert_eq(h.max, 199 * MS);
	fill(&w, 201, 203);
	tui_ov_win_get(&w, TUI_OV_W60, 203 * S + S / 2, &h);
	cr_assert_eq(h.count, 63, "140-202: 12 whole blocks and the whole seconds since");
	cr_assert_eq(h.max, 202 * MS);
	tui_ov_win_get(&w, TUI_OV_WALL, 203 * S + S / 2, &h);
	cr_assert_eq(h.count, 203, "all: seconds 1-203");
	cr_assert_eq(h.min, 1 * MS);
	tui_ov_win_get(&w, TUI_OV_W60, 400 * S, &h);
	cr_assert_eq(h.count, 0, "an idle window empties");
	tui_ov_win_get(&w, TUI_OV_W10, 400 * S, &h);
	cr_assert_eq(h.count, 0);
}

Test(tui_overview, start_up_and_resets_are_left_out)
{
	static struct tui_ov_win w;
	static struct tui_ov_hist h;

	tui_ov_win_init(&w, 1 * S);
	tui_ov_win_add(&w, S / 2, 50 * MS); /* start-up noise */
	tui_ov_win_add(&w, S + 1, 100 * US);
	tui_ov_win_get(&w, TUI_OV_WALL, 3 * S, &h);
	cr_assert_eq(h.count, 1);
	cr_assert_eq(h.max, 100 * US);
	tui_ov_win_get(&w, TUI_OV_W60, 3 * S, &h);
	cr_assert_eq(h.max, 100 * US);
	tui_ov_win_init(&w, 10 * S); /* r at 10 s */
	tui_ov_win_add(&w, 9 * S, 1 * MS); /* drained late: before the reset */
	tui_ov_win_add(&w, 10 * S + 5, 2 * MS);
	tui_ov_win_get(&w, TUI_OV_WALL, 11 * S, &h);
	cr_assert_eq(h.count, 1);
	tui_ov_win_add(&w, 11 * S + 5, 3 * MS);
	tui_ov_win_add(&w, 10 * S + 7, 4 * MS); /* out of order, same second as an earlier one */
	tui_ov_win_get(&w, TUI_OV_W10, 12 * S, &h);
	cr_assert_eq(h.count, 3);
}
