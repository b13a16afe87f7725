/*
 * Tests for tui/tui_heat.c: bins folded from stats.h's buckets, the slot
 * ring (sums, staleness, fixed size), folding bins to rows of a log scale,
 * shade levels, the p99 row, the composed heatmap (both ramps) and the
 * histogram's rows and percentile marks.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "stats.h"
#include "tui_graph.h"
#include "tui_heat.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define S UINT64_C(1000000000)

Test(tui_heat, bins_fold_stats_buckets)
{
	cr_assert_eq(tui_heat_bin(0), 0);
	cr_assert_eq(tui_heat_bin(500), 0);
	cr_assert_eq(tui_heat_bin(TUI_HEAT_LO_NS), 0);
	cr_assert_eq(tui_heat_bin_low(0), TUI_HEAT_LO_NS);
	cr_assert_eq(tui_heat_bin(2 * TUI_HEAT_LO_NS), 4); /* 4 bins a power of two */
	cr_assert_eq(tui_heat_bin(UINT64_MAX), TUI_HEAT_BINS - 1);
	/* contiguous, and each the union of TUI_HEAT_FOLD stats buckets */
	for (int b = 0; b + 1 < TUI_HEAT_BINS; b++) {
		cr_assert_eq(tui_heat_bin_high(b) + 1, tui_heat_bin_low(b + 1), "bin %d", b);
		cr_assert_eq(stats_bucket_index(tui_heat_bin_low(b)) % TUI_HEAT_FOLD, 0);
		cr_assert_eq(tui_heat_bin(tui_heat_bin_low(b)), b);
		cr_assert_eq(tui_heat_bin(tui_heat_bin_high(b)), b);
	}
	/* 1 ms and 10 ms are more than 13 bins apart (3.3 powers of two) */
	cr_assert_geq(tui_heat_bin(10 * MS) - tui_heat_bin(MS), 13);
	cr_assert_geq(tui_heat_bin_high(TUI_HEAT_BINS - 1), 60 * S);
}

Test(tui_heat, ring_sums_and_forgets)
{
	static struct tui_heat_ring r;
	double out[TUI_HEAT_BINS];
	uint64_t w = 60 * S / TUI_HEAT_SLOTS;

	tui_heat_ring_init(&r, w);
	tui_heat_ring_add(&r, 0, MS);
	tui_heat_ring_add(&r, w / 2, MS);
	tui_heat_ring_add(&r, w + 1, 10 * MS);
	cr_assert_eq(tui_heat_ring_sum(&r, 0, 2 * w, 2 * w, out), 2);
	cr_assert_float_eq(out[tui_heat_bin(MS)], 2, 1e-9);
	cr_assert_float_eq(out[tui_heat_bin(10 * MS)], 1, 1e-9);
	/* narrower than a slot: the one holding t0 */
	cr_assert_eq(tui_heat_ring_sum(&r, w + 3, w + 4, 2 * w, out), 1);
	cr_assert_float_eq(out[tui_heat_bin(10 * MS)], 1, 1e-9);
	cr_assert_float_eq(out[tui_heat_bin(MS)], 0, 1e-9);
	/* a whole ring later slot 0's place holds a new slot: the old counts are gone */
	tui_heat_ring_add(&r, TUI_HEAT_SLOTS * w, 5 * MS);
	tui_heat_ring_sum(&r, 0, w, TUI_HEAT_SLOTS * w, out);
	cr_assert_float_eq(out[tui_heat_bin(MS)], 0, 1e-9);
	tui_heat_ring_sum(&r, TUI_HEAT_SLOTS * w, (TUI_HEAT_SLOTS + 1) * w, TUI_HEAT_SLOTS * w,
			  out);
	cr_assert_float_eq(out[tui_heat_bin(5 * MS)], 1, 1e-9);
	/* slot 1 is older than the ring at now = (SLOTS + 1) * w: not summed */
	tui_heat_ring_sum(&r, 0, 2 * w, (TUI_HEAT_SLOTS + 1) * w, out);
	cr_assert_float_eq(out[tui_heat_bin(10 * MS)], 0, 1e-9);
}

Test(tui_heat, ring_is_fixed_size)
{
	/* 128 slots of 104 counts a window: the view's memory does not grow with time */
	cr_assert_leq(sizeof(struct tui_heat_ring), 56 * 1024);
}

Test(tui_heat, fold_rows_of_a_log_scale)
{
	struct tui_scale sc = { .log = true, .lo = 1e5, .hi = 1e8 }; /* 100 µs .. 100 ms */
	double bins[TUI_HEAT_BINS] = { 0 }, rows[12];

	bins[tui_heat_bin(3 * MS / 2)] = 7; /* mid-row values: bins straddle row edges */
	bins[tui_heat_bin(15 * MS)] = 3;
	bins[tui_heat_bin(1 * US)] = 1;     /* below the scale: bottom row */
	bins[tui_heat_bin(5 * S)] = 2;      /* above: top row */
	tui_heat_fold(bins, &sc, 12, rows); /* 4 rows a decade */
	cr_assert_float_eq(rows[tui_heat_row(&sc, 12, 3 * MS / 2)], 7, 1e-9);
	cr_assert_float_eq(rows[tui_heat_row(&sc, 12, 15 * MS)], 3, 1e-9);
	cr_assert_eq(tui_heat_row(&sc, 12, MS), 7);  /* 1 ms: the first row of its decade */
	cr_assert_eq(tui_heat_row(&sc, 12, 15 * MS), 3);
	cr_assert_float_eq(rows[11], 1, 1e-9);
	cr_assert_float_eq(rows[0], 2, 1e-9);
	double sum = 0;

	for (int r = 0; r < 12; r++)
		sum += rows[r];
	cr_assert_float_eq(sum, 13, 1e-9);
}

Test(tui_heat, shade_levels)
{
	cr_assert_eq(tui_heat_shade(0, 100, 10), 0);
	cr_assert_eq(tui_heat_shade(100, 100, 10), 9);
	cr_assert_eq(tui_heat_shade(1, 100, 10), 2); /* 1 + round(8 * ln2 / ln101) */
	cr_assert_gt(tui_heat_shade(0.01, 100, 10), 0); /* any request shows */
	for (double c = 1; c < 100; c++)
		cr_assert_leq(tui_heat_shade(c, 100, 10), tui_heat_shade(c + 1, 100, 10));
	cr_assert_eq(tui_heat_shade(3, 3, 6), 5);
	cr_assert_eq(tui_heat_shade(1, 1e6, 6), 1);
}

Test(tui_heat, p99_row)
{
	struct tui_scale sc = { .log = true, .lo = 1e5, .hi = 1e8 };
	double bins[TUI_HEAT_BINS] = { 0 }, rows[12];

	cr_assert_eq(tui_heat_pct_bin(bins, 99), -1);
	cr_assert_eq(tui_heat_column(bins, &sc, 12, rows), -1);
	bins[tui_heat_bin(3 * MS / 2)] = 98;
	bins[tui_heat_bin(15 * MS)] = 2;
	cr_assert_eq(tui_heat_pct_bin(bins, 50), tui_heat_bin(3 * MS / 2));
	cr_assert_eq(tui_heat_pct_bin(bins, 98), tui_heat_bin(3 * MS / 2));
	cr_assert_eq(tui_heat_pct_bin(bins, 99), tui_heat_bin(15 * MS));
	cr_assert_eq(tui_heat_column(bins, &sc, 12, rows), tui_heat_row(&sc, 12, 15 * MS));
	/* rates (divided by slots) rank alike */
	for (int b = 0; b < TUI_HEAT_BINS; b++)
		bins[b] /= 2;
	cr_assert_eq(tui_heat_pct_bin(bins, 99), tui_heat_bin(15 * MS));
}

Test(tui_heat, compose_two_bands_chars_and_colours)
{
	struct tui_scale sc = { .log = true, .lo = 1e5, .hi = 1e8 };
	enum { W = 8, H = 12 };
	double rowv[W * H];
	int p99[W];
	struct tui_cell plot[W * H];
	int r1 = tui_heat_row(&sc, H, 3 * MS / 2), r10 = tui_heat_row(&sc, H, 15 * MS);

	for (int x = 0; x < W; x++) {
		double bins[TUI_HEAT_BINS] = { 0 };

		if (x < W / 2) {
			bins[tui_heat_bin(3 * MS / 2)] = 100;
			bins[tui_heat_bin(3 * MS)] = 2;
		} else {
			bins[tui_heat_bin(15 * MS)] = 10;
		}
		p99[x] = tui_heat_column(bins, &sc, H, rowv + x * H);
	}
	p99[0] = -1; /* no line drawn where a column says none */
	tui_heat_compose(rowv, p99, W, H, TUI_HEAT_CHARS, plot);
	/* early columns: the fullest cell '@' in the 1 ms row, later ones in the 10 ms row */
	cr_assert_eq(plot[r1 * W + 0].ch, '@');
	cr_assert_eq(plot[r1 * W + 0].cls, TUI_CLS_HEAT);
	cr_assert_eq(plot[r10 * W + 0].ch, ' ');
	cr_assert_neq(plot[r10 * W + W - 1].ch, ' ');
	cr_assert(strchr(TUI_HEAT_RAMP, (int)plot[r10 * W + W - 1].ch));
	cr_assert_eq(plot[r1 * W + W - 1].ch, ' ');
	/* 10 of 102: fewer, so a lighter character than '@' */
	cr_assert_neq(plot[r10 * W + W - 1].ch, '@');
	/* the p99 cell: class P99; of column 1 it is the 3 ms bin's row (2 in 102 > 1 %) */
	cr_assert_eq(plot[tui_heat_row(&sc, H, 3 * MS) * W + 1].cls, TUI_CLS_P99);
	cr_assert_eq(plot[r10 * W + W - 1].cls, TUI_CLS_P99);
	for (int r = 0; r < H; r++)
		cr_assert_neq(plot[r * W + 0].cls, TUI_CLS_P99);
	/* nothing outside the two bands and the p99 marks */
	for (int x = 0; x < W; x++)
		for (int r = 0; r < H; r++)
			if (r != r1 && r != r10 && r != tui_heat_row(&sc, H, 3 * MS))
				cr_assert_eq(plot[r * W + x].ch, ' ', "x %d r %d", x, r);
	/* colours: a block of a colour level, the fullest the last */
	tui_heat_compose(rowv, p99, W, H, TUI_HEAT_COLOURS, plot);
	cr_assert_eq(plot[r1 * W + 0].ch, 0x2588);
	cr_assert_eq(plot[r1 * W + 0].cls, TUI_CLS_HEAT5);
	cr_assert_eq(plot[r10 * W + W - 1].ch, 0x2500);
	cr_assert_eq(plot[r10 * W + W - 1].cls, TUI_CLS_P99);
}

Test(tui_heat, p99_over_an_empty_cell)
{
	enum { W = 1, H = 2 };
	double rowv[W * H] = { 0, 5 };
	int p99[W] = { 0 };
	struct tui_cell plot[W * H];

	tui_heat_compose(rowv, p99, W, H, TUI_HEAT_CHARS, plot);
	cr_assert_eq(plot[0].ch, '~');
	cr_assert_eq(plot[0].cls, TUI_CLS_P99);
	cr_assert_eq(plot[1].ch, '@');
}

Test(tui_heat, histogram_rows_and_marks)
{
	double bins[TUI_HEAT_BINS] = { 0 };
	static struct tui_hist h;
	int b1 = tui_heat_bin(MS), b10 = tui_heat_bin(10 * MS);

	tui_heat_hist(bins, 10, &h);
	cr_assert_eq(h.nrows, 0);
	cr_assert_eq(h.total, 0);
	bins[b1] = 900;
	bins[b1 + 1] = 89;
	bins[b10] = 9;
	bins[b10 + 1] = 2;
	/* enough rows: one a bin, from the fastest bin holding requests to the slowest */
	tui_heat_hist(bins, 30, &h);
	cr_assert_eq(h.nrows, b10 + 2 - b1);
	cr_assert_eq(h.total, 1000);
	cr_assert_eq(h.max, 900);
	cr_assert_eq(h.r[0].lo, tui_heat_bin_low(b1));
	cr_assert_eq(h.r[0].n, 900);
	cr_assert_eq(h.r[0].marks, TUI_HIST_P50);
	cr_assert_eq(h.r[b10 - b1].marks, TUI_HIST_P99);  /* rank 990: the 10 ms bin (989 below it) */
	cr_assert_eq(h.r[b10 + 1 - b1].marks, TUI_HIST_P999);
	cr_assert_eq(h.r[h.nrows - 1].hi, tui_heat_bin_high(b10 + 1));
	/* few rows: bins merged k a row, nothing lost, rows contiguous */
	tui_heat_hist(bins, 4, &h);
	cr_assert_leq(h.nrows, 4);
	uint64_t sum = 0;

	for (int i = 0; i < h.nrows; i++) {
		sum += h.r[i].n;
		if (i)
			cr_assert_eq(h.r[i].lo, h.r[i - 1].hi + 1);
	}
	cr_assert_eq(sum, 1000);
	cr_assert(h.r[0].marks & TUI_HIST_P50);
	cr_assert(h.r[h.nrows - 1].marks & TUI_HIST_P999);
	/* more rows asked than it holds */
	tui_heat_hist(bins, 1000, &h);
	cr_assert_leq(h.nrows, TUI_HEAT_HIST_MAX);
	tui_heat_hist(bins, 1, &h);
	cr_assert_eq(h.nrows, 1);
	cr_assert_eq(h.r[0].marks, TUI_HIST_P50 | TUI_HIST_P99 | TUI_HIST_P999);
	tui_heat_hist(bins, 0, &h);
	cr_assert_eq(h.nrows, 0);
}
