/*
 * Tests for tui/tui_model.c: tallies that follow account.c from the
 * notices, own 1 s periods and the probe's periods, skipped slots rebuilt
 * to match pacer.c, pause / interval / reset, graph columns (placement,
 * aggregation, stability, the 1 h ring) and the recent lines.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "pacer.h"
#include "tui_model.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static struct tui_model *model(uint64_t interval, uint64_t own_period)
{
	struct tui_model *m = malloc(sizeof(*m));
	struct tui_model_cfg cfg = { 4096, interval, own_period, { 0, { 0 } }, false };

	cr_assert_not_null(m);
	tui_model_init(m, &cfg);
	return m;
}

/* A sample that started at run ns start and took time ns, on schedule. */
static struct sample smp(uint64_t request, uint64_t start, uint64_t time)
{
	struct sample s = { 0 };

	s.request = request;
	s.op = OP_READ;
	s.size = 4096;
	s.result = 4096;
	s.start = start;
	s.time = time;
	return s;
}

Test(tui_model, windows)
{
	cr_assert_eq(tui_model_window_ns(TUI_WIN_1MIN), 60 * SEC);
	cr_assert_eq(tui_model_window_ns(TUI_WIN_10MIN), 600 * SEC);
	cr_assert_eq(tui_model_window_ns(TUI_WIN_1H), 3600 * SEC);
}

Test(tui_model, tallies_follow_the_notices)
{
	struct tui_model *m = model(SEC, 0);
	struct sample s = smp(1, 0, 100 * US);

	tui_model_add(m, &s, NOTICE_WARMUP);
	s = smp(2, SEC, 200 * US);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(3, 2 * SEC, 300 * US);
	tui_model_add(m, &s, NOTICE_SLOW);
	s = smp(4, 3 * SEC, 5 * US);
	tui_model_add(m, &s, NOTICE_TOO_FAST);
	s = smp(5, 4 * SEC, 900 * MS);
	tui_model_add(m, &s, NOTICE_TOO_SLOW);
	s = smp(6, 5 * SEC, 1 * MS);
	s.result = -5;
	tui_model_add(m, &s, NOTICE_ERROR);
	s = smp(7, 6 * SEC, 1 * MS);
	s.result = 0;
	tui_model_add(m, &s, NOTICE_EMPTY);
	s = smp(8, 7 * SEC, 400 * US);
	tui_model_add(m, &s, NOTICE_FAST);

	cr_assert_eq(m->samples, 8);
	cr_assert_eq(m->total.requests, 7, "everything but the empty read");
	cr_assert_eq(m->total.valid.count, 3, "none, slow, fast");
	cr_assert_eq(m->total.valid.sum, 900 * US);
	cr_assert_eq(m->total.failed, 1);
	cr_assert_eq(m->total.too_fast, 1);
	cr_assert_eq(m->total.too_slow, 1);
	cr_assert_eq(m->period.requests, 7, "the probe closes periods here");
	cr_assert_eq(m->last_request, 8);
	cr_assert_eq(m->last_end, 7 * SEC + 400 * US);
	free(m);
}

/* The same requests through account.c give the same totals. */
Test(tui_model, totals_match_account)
{
	struct tui_model *m = model(0, SEC);
	struct account a;
	struct account_cfg ac = { 1, 20 * US, 5 * MS, false };
	uint64_t st = 88172645463325252ull, start = 0;

	account_init(&a, &ac);
	for (uint64_t i = 1; i <= 20000; i++) {
		struct sample s;
		enum notice n;

		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		s = smp(i, start, 10 * US + st % (8 * MS));
		if (st % 97 == 0)
			s.result = -5;
		n = account_add(&a, &s);
		tui_model_add(m, &s, n);
		start += s.time + 50 * US;
	}
	cr_assert_eq(m->total.requests, a.total.requests);
	cr_assert_eq(m->total.failed, a.total.failed);
	cr_assert_eq(m->total.too_fast, a.total.too_fast);
	cr_assert_eq(m->total.too_slow, a.total.too_slow);
	cr_assert_eq(m->total.valid.count, a.total.valid.count);
	cr_assert_eq(m->total.valid.sum, a.total.valid.sum);
	cr_assert_eq(m->total.valid.min, a.total.valid.min);
	cr_assert_eq(m->total.valid.max, a.total.valid.max);
	free(m);
}

Test(tui_model, own_periods_of_one_second)
{
	struct tui_model *m = model(SEC / 2, SEC);
	const struct tui_row *r;
	struct sample s;

	s = smp(1, 100 * MS, 200 * US);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(2, 600 * MS, 400 * US);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->nrows, 0);
	s = smp(3, 1100 * MS, 300 * US);
	tui_model_add(m, &s, NOTICE_SLOW);
	cr_assert_eq(m->nrows, 1, "a sample ending past 1 s closes [0, 1)");
	r = tui_model_row(m, 0);
	cr_assert_not_null(r);
	cr_assert_eq(r->index, 1);
	cr_assert_eq(r->end, SEC);
	cr_assert_eq(r->wall, SEC);
	cr_assert_eq(r->count, 2);
	cr_assert_eq(r->sum, 600 * US);
	cr_assert_eq(r->min, 200 * US);
	cr_assert_eq(r->max, 400 * US);
	cr_assert_float_eq(r->avg, 300e3, 1e-6);
	cr_assert_float_eq(r->mdev, 100e3, 1e-6);
	cr_assert_float_eq(r->iops, 2e9 / 600e3, 1e-6);
	cr_assert_float_eq(r->bps, 2e9 / 600e3 * 4096, 1e-3);
	cr_assert_eq(r->requests, 2);
	/* histogram percentiles: within stats.h's 1 % */
	cr_assert_float_eq((double)r->pct[0], 200e3, 2e3);
	cr_assert_float_eq((double)r->pct[3], 400e3, 4e3);
	cr_assert_null(tui_model_row(m, 1));

	/* no sample for a while: the UI's ticks close periods after the grace */
	tui_model_tick(m, 2 * SEC + TUI_PERIOD_GRACE - 1);
	cr_assert_eq(m->nrows, 1);
	tui_model_tick(m, 2 * SEC + TUI_PERIOD_GRACE);
	cr_assert_eq(m->nrows, 2);
	r = tui_model_row(m, 0);
	cr_assert_eq(r->index, 2);
	cr_assert_eq(r->count, 1);
	tui_model_tick(m, 5 * SEC + TUI_PERIOD_GRACE);
	cr_assert_eq(m->nrows, 5);
	cr_assert_eq(tui_model_row(m, 0)->count, 0, "an empty second is a row of zeros");
	cr_assert_eq(tui_model_row(m, 0)->index, 5);
	free(m);
}

Test(tui_model, long_silence_keeps_the_ring_bounded)
{
	struct tui_model *m = model(SEC, SEC);
	struct sample s = smp(1, 100 * MS, 1 * MS);

	tui_model_add(m, &s, NOTICE_NONE);
	tui_model_tick(m, 100000 * SEC);
	cr_assert_leq(m->nrows, TUI_ROWS + 1);
	cr_assert_eq(tui_model_row(m, 0)->index, 100000 - 1, "numbering follows time");
	cr_assert_eq(tui_model_row(m, 0)->end, (100000 - 1) * SEC);
	cr_assert_eq(m->period_start, (100000 - 1) * SEC);
	cr_assert_not_null(tui_model_row(m, TUI_ROWS - 1));
	cr_assert_null(tui_model_row(m, TUI_ROWS));
	free(m);
}

Test(tui_model, probe_periods)
{
	struct tui_model *m = model(SEC, 0);
	struct sample s;

	for (uint64_t i = 1; i <= 10; i++) {
		s = smp(i, (i - 1) * 10 * MS, 1 * MS);
		tui_model_add(m, &s, NOTICE_NONE);
		if (i % 5 == 0)
			tui_model_period_end(m);
	}
	tui_model_tick(m, 1000 * SEC);
	cr_assert_eq(m->nrows, 2, "ticks do not close the probe's periods");
	cr_assert_eq(tui_model_row(m, 1)->count, 5);
	cr_assert_eq(tui_model_row(m, 1)->wall, 41 * MS);
	cr_assert_eq(tui_model_row(m, 0)->wall, 50 * MS);
	cr_assert_eq(tui_model_row(m, 0)->end, 91 * MS);
	free(m);
}

/* Drive pacer.c with random request times; the model rebuilds its skipped count. */
static void skipped_matches_pacer(uint64_t interval, uint64_t burst, uint64_t seed)
{
	struct tui_model *m = model(interval, SEC);
	struct pacer p;
	uint64_t st = seed, first = 5 * SEC;

	pacer_init(&p, first, interval, burst);
	for (uint64_t i = 1; i <= 5000; i++) {
		uint64_t due = p.due, t0, t1, time;
		struct sample s;

		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		/* mostly fast, sometimes a stall of several intervals */
		if (st % 10 == 0)
			time = (st >> 8) % (20 * interval + 1);
		else
			time = (st >> 8) % (interval / 3 + 1);
		t0 = due + (st >> 20) % 1000; /* a little late */
		t1 = t0 + time;
		s = smp(i, t0 - first, time);
		s.lateness = t0 - due;
		tui_model_add(m, &s, NOTICE_NONE);
		pacer_next(&p, t1);
	}
	cr_assert_gt(p.skipped, 0, "the test should produce skipped slots");
	cr_assert_eq(m->total.skipped, p.skipped, "model %llu, pacer %llu",
		     (unsigned long long)m->total.skipped, (unsigned long long)p.skipped);
	free(m);
}

Test(tui_model, skipped_slots_match_pacer)
{
	skipped_matches_pacer(10 * MS, 0, 1);
	skipped_matches_pacer(1 * MS, 0, 2);
	skipped_matches_pacer(200 * US, 0, 3);
	skipped_matches_pacer(10 * MS, 4, 4);
}

Test(tui_model, no_skips_at_interval_zero_or_after_pause)
{
	struct tui_model *m = model(0, SEC);
	struct sample s;

	s = smp(1, 0, 5 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(2, 50 * MS, 5 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->total.skipped, 0);
	free(m);

	m = model(10 * MS, SEC);
	s = smp(1, 0, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	tui_model_pause(m, true, 5 * MS);
	tui_model_pause(m, false, 3 * SEC);
	/* the schedule restarts at resume: not skipped slots */
	s = smp(2, 3 * SEC, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(3, 3 * SEC + 10 * MS, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->total.skipped, 0);
	/* and afterwards slots are counted again */
	s = smp(4, 3 * SEC + 60 * MS, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->total.skipped, 4);
	free(m);
}

Test(tui_model, interval_change_is_not_a_skip)
{
	struct tui_model *m = model(100 * MS, SEC);
	struct sample s;

	s = smp(1, 0, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(2, 100 * MS, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	tui_model_set_interval(m, 10 * MS);
	s = smp(3, 200 * MS, 1 * MS);  /* still on the old schedule */
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(4, 210 * MS, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(5, 220 * MS, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->total.skipped, 0);
	cr_assert_eq(m->interval, 10 * MS);
	free(m);
}

Test(tui_model, reset_clears_statistics_keeps_history)
{
	struct tui_model *m = model(100 * MS, SEC);
	struct tui_col c[120];
	struct sample s;

	for (uint64_t i = 1; i <= 30; i++) {
		s = smp(i, (i - 1) * 100 * MS, 1 * MS);
		tui_model_add(m, &s, NOTICE_NONE);
	}
	cr_assert_eq(m->nrows, 2);
	tui_model_reset(m, 2950 * MS);
	cr_assert_eq(m->nrows, 0);
	cr_assert_eq(m->total.requests, 0);
	cr_assert_eq(m->total.valid.count, 0);
	cr_assert_eq(m->period.requests, 0);
	cr_assert_eq(m->total_start, 2950 * MS);
	cr_assert_eq(m->period_index, 1);
	cr_assert_eq(m->nlines, 30, "recent lines stay");
	tui_model_columns(m, TUI_WIN_1MIN, 3 * SEC, c, 120);
	{
		uint32_t n = 0;

		for (int i = 0; i < 120; i++)
			n += c[i].n;
		cr_assert_eq(n, 30, "the graph stays");
	}
	/* periods restart from the reset */
	s = smp(31, 3 * SEC, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(32, 4 * SEC, 1 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->nrows, 1);
	cr_assert_eq(tui_model_row(m, 0)->end, 3950 * MS);
	cr_assert_eq(tui_model_row(m, 0)->count, 1);
	free(m);
}

Test(tui_model, columns_place_samples_by_end_time)
{
	struct tui_model *m = model(SEC, SEC);
	struct tui_col c[120];
	struct sample s;

	/* 120 sub-columns over 1 min: 500 ms each */
	s = smp(1, 59 * SEC, 2 * MS);          /* ends at 59.002 s */
	tui_model_add(m, &s, NOTICE_WARMUP);   /* warmup: not plotted */
	/* times away from bucket edges: a bucket (29.3 ms here) goes where it starts */
	s = smp(2, 59200 * MS, 3 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(3, 59290 * MS, 7 * MS);
	tui_model_add(m, &s, NOTICE_SLOW);
	s = smp(4, 30200 * MS, 1 * MS);
	s.result = -5;
	tui_model_add(m, &s, NOTICE_ERROR);
	s = smp(5, 1200 * MS, 4 * MS);
	tui_model_add(m, &s, NOTICE_TOO_SLOW);
	tui_model_columns(m, TUI_WIN_1MIN, 59999 * MS, c, 120);
	/* now = 59.999 s: the last sub-column is [59.5, 60) */
	cr_assert_eq(c[119].n, 0);
	cr_assert_eq(c[118].n, 2, "[59.0, 59.5): requests 2 and 3");
	cr_assert_eq(c[118].min, 3 * MS);
	cr_assert_eq(c[118].max, 7 * MS);
	cr_assert_eq(c[118].slow, 1);
	cr_assert_eq(c[60].err, 1, "[30.0, 30.5)");
	cr_assert_eq(c[60].n, 0);
	cr_assert_eq(c[2].n, 1, "too slow is plotted: [1.0, 1.5)");
	cr_assert_eq(c[2].slow, 1);
	/* 30 s later the 1 s sample has left the 1 min window */
	tui_model_columns(m, TUI_WIN_1MIN, 89999 * MS, c, 120);
	cr_assert_eq(c[58].n, 2, "moved 60 sub-columns left");
	for (int i = 0; i < 30; i++)
		cr_assert_eq(c[i].n, 0);
	/* but it is in the 10 min window */
	tui_model_columns(m, TUI_WIN_10MIN, 89999 * MS, c, 120);
	{
		uint32_t n = 0, err = 0;

		for (int i = 0; i < 120; i++) {
			n += c[i].n;
			err += c[i].err;
		}
		cr_assert_eq(n, 3);
		cr_assert_eq(err, 1);
	}
	free(m);
}

/* A replay without request records: periods of about 1 s whose ends drift across a
 * second's edge by more than a bucket (1.950 s, then 3.050 s: a ticker late on a busy
 * host) fill every second's cell, as live requests do. */
Test(tui_model, replayed_periods_leave_no_empty_second)
{
	struct tui_model *m = model(10 * MS, 0);
	static const uint64_t ends[] = { 999 * MS, 1950 * MS, 3050 * MS, 4002 * MS, 5000 * MS };
	struct tui_col c[60];
	uint64_t prev = 0;

	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		struct tally t;
		struct sample s = smp(k + 2, ends[k] - 5 * MS, 5 * MS);

		tally_init(&t);
		for (int j = 0; j < 100; j++)
			tally_add(&t, &s, NOTICE_NONE);
		t.wall = ends[k] - prev;
		prev = ends[k];
		tui_model_replay_period(m, ends[k], &t, false);
	}
	/* 60 cells of 1 s over the last minute, now = 4.999 s: cells 55..59 are seconds 0..4 */
	tui_model_columns(m, TUI_WIN_1MIN, 4999 * MS, c, 60);
	for (int sec = 0; sec < 5; sec++)
		cr_assert_gt(c[55 + sec].n, 0, "second %d has its period", sec);
	free(m);
}

Test(tui_model, columns_are_stable_within_a_sub_column)
{
	struct tui_model *m = model(10 * MS, SEC);
	struct tui_col a[200], b[200];

	for (uint64_t i = 1; i <= 3000; i++) {
		struct sample s = smp(i, i * 10 * MS, (i % 7 + 1) * 100 * US);

		tui_model_add(m, &s, NOTICE_NONE);
	}
	/* 200 sub-columns of 300 ms: 30.0 s and 30.2 s are in the same one */
	tui_model_columns(m, TUI_WIN_1MIN, 30 * SEC + 10 * MS, a, 200);
	tui_model_columns(m, TUI_WIN_1MIN, 30 * SEC + 200 * MS, b, 200);
	cr_assert_eq(memcmp(a, b, sizeof(a)), 0);
	free(m);
}

Test(tui_model, columns_before_the_start_are_empty)
{
	struct tui_model *m = model(SEC, SEC);
	struct tui_col c[100];
	struct sample s = smp(1, 0, 1 * MS);

	tui_model_add(m, &s, NOTICE_NONE);
	tui_model_columns(m, TUI_WIN_1H, 2 * SEC, c, 100);
	for (int i = 0; i < 99; i++)
		cr_assert_eq(c[i].n, 0);
	cr_assert_eq(c[99].n, 1);
	cr_assert_eq(c[99].min, 1 * MS);
	free(m);
}

Test(tui_model, an_hour_of_samples_in_fixed_memory)
{
	struct tui_model *m = model(10 * MS, SEC);
	struct tui_col c[256];
	uint64_t n = 0, total = 0;

	/* 2 hours at 100 requests a second: the ring keeps the last hour */
	for (uint64_t i = 1; i <= 720000; i++) {
		struct sample s = smp(i, i * 10 * MS, 100 * US + i % 1000);

		tui_model_add(m, &s, NOTICE_NONE);
	}
	tui_model_columns(m, TUI_WIN_1H, 7200 * SEC, c, 256);
	for (int i = 0; i < 256; i++)
		n += c[i].n;
	/* the window is (now - 1 h + one sub-column, now]: 3585.9 s of samples */
	cr_assert_geq(n, 358500, "%llu", (unsigned long long)n);
	cr_assert_leq(n, 360001, "only the last hour: %llu", (unsigned long long)n);
	tui_model_columns(m, TUI_WIN_1MIN, 7200 * SEC, c, 256);
	for (int i = 0; i < 256; i++)
		total += c[i].n;
	cr_assert_geq(total, 5950, "%llu", (unsigned long long)total);
	cr_assert_leq(total, 6001);
	cr_assert_eq(m->nlines, 720000);
	cr_assert_eq(m->total.valid.count, 720000);
	free(m);
}

Test(tui_model, paused_columns)
{
	struct tui_model *m = model(SEC, SEC);
	struct tui_col c[60];

	tui_model_pause(m, true, 10 * SEC);
	tui_model_pause(m, false, 20 * SEC);
	tui_model_pause(m, true, 50 * SEC);
	tui_model_columns(m, TUI_WIN_1MIN, 59999 * MS, c, 60);
	cr_assert_eq(c[9].flags, 0);
	cr_assert_eq(c[10].flags, TUI_COL_PAUSED);
	cr_assert_eq(c[19].flags, TUI_COL_PAUSED);
	cr_assert_eq(c[20].flags, 0);
	cr_assert_eq(c[49].flags, 0);
	cr_assert_eq(c[50].flags, TUI_COL_PAUSED);
	cr_assert_eq(c[59].flags, TUI_COL_PAUSED, "still paused");
	free(m);
}

Test(tui_model, recent_lines_ring)
{
	struct tui_model *m = model(SEC, SEC);
	const struct tui_line *l;

	cr_assert_null(tui_model_line(m, 0));
	for (uint64_t i = 1; i <= 300; i++) {
		struct sample s = smp(i, i * SEC, 1 * MS);

		tui_model_add(m, &s, i == 300 ? NOTICE_SLOW : NOTICE_NONE);
		if (i == 299)
			tui_model_burst_end(m);
	}
	l = tui_model_line(m, 0);
	cr_assert_eq(l->s.request, 300);
	cr_assert_eq(l->n, NOTICE_SLOW);
	cr_assert(tui_model_line(m, 1)->gap);
	cr_assert_eq(tui_model_line(m, 2)->s.request, 299);
	cr_assert_eq(tui_model_line(m, TUI_LINES - 1)->s.request, 300 - TUI_LINES + 2);
	cr_assert_null(tui_model_line(m, TUI_LINES));
	free(m);
}

Test(tui_model, warnings)
{
	struct tui_model *m = model(SEC, SEC);
	char longtext[300];

	tui_model_warning(m, "fadvise(RANDOM) failed");
	cr_assert_eq(m->warnings, 1);
	cr_assert_str_eq(m->warning, "fadvise(RANDOM) failed");
	memset(longtext, 'a', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	tui_model_warning(m, longtext);
	cr_assert_eq(m->warnings, 2);
	cr_assert_eq(strlen(m->warning), sizeof(m->warning) - 1);
	free(m);
}

Test(tui_model, tally_row_of_an_empty_tally)
{
	struct tally t;
	struct tui_row r;

	memset(&t, 0, sizeof(t));
	stats_init(&t.valid);
	t.requests = 1;
	tui_model_tally_row(&t, 5 * SEC, 4096, NULL, &r);
	cr_assert_eq(r.count, 0);
	cr_assert_eq(r.min, 0);
	cr_assert_float_eq(r.iops, 0, 1e-9);
	cr_assert_eq(r.requests, 1);
	cr_assert_eq(r.wall, 5 * SEC);
	cr_assert_eq(r.pct[1], 0);
}

Test(tui_model, response_times_in_the_columns)
{
	struct tui_model *m = model(10 * MS, SEC);
	struct tui_col c[120];
	struct sample s;

	/* due at 1.2 s, started 2 ms late: service 3 ms, response 5 ms */
	s = smp(1, 1202 * MS, 3 * MS);
	s.lateness = 2 * MS;
	s.response = 5 * MS;
	tui_model_add(m, &s, NOTICE_NONE);
	tui_model_columns(m, TUI_WIN_1MIN, 59999 * MS, c, 120);
	cr_assert_eq(c[2].n, 1);
	cr_assert_eq(c[2].max, 3 * MS);
	cr_assert_eq(c[2].rmin, 5 * MS);
	cr_assert_eq(c[2].rmax, 5 * MS);
	cr_assert_eq(m->total.response.count, 1);
	free(m);
}

Test(tui_model, skipped_slots_enter_the_response_times)
{
	struct tui_model *m = model(10 * MS, SEC);
	struct tui_col c[120];
	struct tui_row row;
	struct sample s;

	/* request 1 due at 1 s takes 35 ms: slots due at 1.01, 1.02 and 1.03 s pass */
	s = smp(1, SEC, 35 * MS);
	s.response = 35 * MS;
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(2, 1040 * MS, 1 * MS);
	s.response = 1 * MS;
	tui_model_add(m, &s, NOTICE_NONE);
	cr_assert_eq(m->total.skipped, 3);
	/* account_add_skipped's rule: E = 1.035 s, D = 1.01 s: 25, 15 and 5 ms */
	cr_assert_eq(m->total.response.count, 5);
	cr_assert_eq(m->total.valid.count, 2, "service times do not change");
	tui_model_tally_row(&m->total, SEC, 4096, NULL, &row);
	cr_assert_geq(row.rpct[3], 34 * MS);
	cr_assert_leq(row.rpct[3], 36 * MS);
	tui_model_columns(m, TUI_WIN_1MIN, 59999 * MS, c, 120);
	cr_assert_eq(c[2].skipped, 3, "marked where the probe noticed them (1.041 s)");
	cr_assert_eq(c[2].rmax, 35 * MS);
	cr_assert_eq(c[2].max, 35 * MS);
	free(m);
}

/* The heatmap's rings: every plotted service time in each window's ring, by its end time; not
 * warmup or failed requests; the rings forget what fell out of the window. */
Test(tui_model, heat_rings_count_plotted_samples)
{
	struct tui_model *m = model(SEC, 0);
	double bins[TUI_HEAT_BINS];
	struct sample s = smp(1, 0, 100 * US);

	tui_model_add(m, &s, NOTICE_WARMUP);
	s = smp(2, SEC, 2 * MS);
	tui_model_add(m, &s, NOTICE_NONE);
	s = smp(3, 2 * SEC, 20 * MS);
	tui_model_add(m, &s, NOTICE_SLOW);
	s = smp(4, 3 * SEC, 5 * MS);
	tui_model_add(m, &s, NOTICE_ERROR);
	for (int w = 0; w < TUI_WINDOWS; w++) {
		cr_assert_eq(m->heat[w].width, tui_model_window_ns(w) / TUI_HEAT_SLOTS);
		tui_heat_ring_sum(&m->heat[w], 0, 4 * SEC, 4 * SEC, bins);
		cr_assert_float_eq(bins[tui_heat_bin(100 * US)], 0, 1e-9, "warmup not counted");
		cr_assert_float_eq(bins[tui_heat_bin(2 * MS)], 1, 1e-9);
		cr_assert_float_eq(bins[tui_heat_bin(20 * MS)], 1, 1e-9);
		cr_assert_float_eq(bins[tui_heat_bin(5 * MS)], 0, 1e-9, "failed not counted");
	}
	/* in the slot of its end: 1 s + 2 ms */
	tui_heat_ring_sum(&m->heat[TUI_WIN_1MIN], SEC + 2 * MS - 1, SEC + 2 * MS, 4 * SEC, bins);
	cr_assert_float_eq(bins[tui_heat_bin(2 * MS)], 1, 1e-9);
	/* two minutes later the 1 min window no longer holds them, the 10 min one does */
	s = smp(5, 120 * SEC, MS);
	tui_model_add(m, &s, NOTICE_NONE);
	tui_heat_ring_sum(&m->heat[TUI_WIN_1MIN], 0, 121 * SEC, 121 * SEC, bins);
	cr_assert_float_eq(bins[tui_heat_bin(2 * MS)], 0, 1e-9);
	cr_assert_float_eq(bins[tui_heat_bin(MS)], 1, 1e-9);
	tui_heat_ring_sum(&m->heat[TUI_WIN_10MIN], 0, 121 * SEC, 121 * SEC, bins);
	cr_assert_float_eq(bins[tui_heat_bin(2 * MS)], 1, 1e-9);
	/* fixed size: the rings are part of the one plain struct */
	cr_assert_leq(sizeof(m->heat), 3 * sizeof(struct tui_heat_ring));
	free(m);
}

/* -G: the model keeps the reads' and the writes' service times apart, as the account does. */
Test(tui_model, reads_and_writes_apart_match_account)
{
	struct tui_model *m = model(0, SEC);
	struct account a;
	struct account_cfg ac = { 1, 20 * US, 5 * MS, true };
	uint64_t start = 0;

	m->cfg.split = true;
	account_init(&a, &ac);
	for (uint64_t i = 1; i <= 2000; i++) {
		struct sample s = smp(i, start, (i % 2 ? 100 : 900) * US + i);
		enum notice n;

		s.op = i % 2 ? OP_READ : OP_WRITE;
		if (i % 101 == 0)
			s.result = -5;
		n = account_add(&a, &s);
		tui_model_add(m, &s, n);
		start += s.time + 50 * US;
	}
	cr_assert_eq(m->read.count, a.read.count);
	cr_assert_eq(m->read.sum, a.read.sum);
	cr_assert_eq(m->write.count, a.write.count);
	cr_assert_eq(m->write.sum, a.write.sum);
	cr_assert(stats_percentile(&m->read, 50) < 200 * US);
	cr_assert(stats_percentile(&m->write, 50) > 800 * US);
	tui_model_reset(m, start);
	cr_assert_eq(m->read.count + m->write.count, 0, "a reset clears them");
	free(m);
}
