/*
 * Tests for tui/tui_qlive.c: the --qualify view's live window (rate and
 * percentiles over the last second, reads and writes apart, a full ring)
 * and a step's progress and time left by its deadline or its count.
 */
#include <criterion/criterion.h>

#include <stdint.h>

#include "tui_qlive.h"

#define MS UINT64_C(1000000)
#define S UINT64_C(1000000000)

static struct tui_qlive q;

Test(tui_qlive, empty_window)
{
	struct tui_qlive_fig a, r, w;

	tui_qlive_init(&q);
	tui_qlive_window(&q, 5 * S, TUI_QLIVE_SPAN, &a, &r, &w);
	cr_assert_eq(a.n, 0);
	cr_assert_float_eq(a.rate, 0, 1e-9);
	cr_assert_eq(a.p50, 0);
	cr_assert_eq(r.n + w.n, 0);
}

Test(tui_qlive, last_second_only_reads_and_writes_apart)
{
	struct tui_qlive_fig a, r, w;

	tui_qlive_init(&q);
	/* 0 .. 2 s: a request every 10 ms, 1 ms; then 2 .. 3 s: every 5 ms, reads 2 ms and
	 * writes 8 ms in turn */
	for (uint64_t t = 10 * MS; t <= 2 * S; t += 10 * MS)
		tui_qlive_add(&q, t, 1 * MS, false);
	for (uint64_t t = 2 * S + 5 * MS, i = 0; t <= 3 * S; t += 5 * MS, i++)
		tui_qlive_add(&q, t, i % 2 ? 8 * MS : 2 * MS, i % 2);
	cr_assert_eq(q.requests, 200 + 200);
	tui_qlive_window(&q, 3 * S, TUI_QLIVE_SPAN, &a, &r, &w);
	cr_assert_eq(a.n, 200);
	cr_assert_float_eq(a.rate, 200, 1e-6);
	cr_assert_eq(r.n, 100);
	cr_assert_eq(w.n, 100);
	cr_assert_float_eq(r.rate, 100, 1e-6);
	cr_assert_eq(r.p50, 2 * MS);
	cr_assert_eq(r.p99, 2 * MS);
	cr_assert_eq(w.p50, 8 * MS);
	cr_assert_eq(a.p50, 2 * MS, "the 100th of 200 sorted");
	cr_assert_eq(a.p99, 8 * MS);
	/* half a second later: the last half second alone */
	tui_qlive_window(&q, 3 * S + S / 2, TUI_QLIVE_SPAN, &a, NULL, NULL);
	cr_assert_eq(a.n, 100);
	cr_assert_float_eq(a.rate, 100, 1e-6);
	/* an earlier now: requests after it are not counted */
	tui_qlive_window(&q, 2 * S, TUI_QLIVE_SPAN, &a, NULL, NULL);
	cr_assert_eq(a.n, 100);
	cr_assert_eq(a.p99, 1 * MS);
}

Test(tui_qlive, a_full_ring_gives_the_rate_it_covers)
{
	struct tui_qlive_fig a;

	tui_qlive_init(&q);
	/* 10000 requests in one second (100 µs apart): the ring keeps the last 4096 */
	for (uint64_t i = 1; i <= 10000; i++)
		tui_qlive_add(&q, i * 100000, 50000, false);
	cr_assert_eq(q.n, TUI_QLIVE_N);
	tui_qlive_window(&q, S, TUI_QLIVE_SPAN, &a, NULL, NULL);
	cr_assert_eq(a.n, TUI_QLIVE_N);
	cr_assert_float_eq(a.rate, 10000, 10, "%f", a.rate);
}

Test(tui_qlive, progress_by_deadline_and_count)
{
	uint64_t left;
	double f;

	f = tui_qlive_progress(3 * S, 10 * S, 123, 0, &left);
	cr_assert_float_eq(f, 0.3, 1e-9);
	cr_assert_eq(left, 7 * S);
	/* -c 1000 reached faster than -w 10 s: 400 of 1000 in 2 s -> 3 s left, 40 % */
	f = tui_qlive_progress(2 * S, 10 * S, 400, 1000, &left);
	cr_assert_float_eq(f, 0.4, 1e-9);
	cr_assert_eq(left, 3 * S);
	/* the count alone, nothing done yet: unknown */
	f = tui_qlive_progress(0, 0, 0, 1000, &left);
	cr_assert_float_eq(f, 0, 1e-9);
	cr_assert_eq(left, UINT64_MAX);
	/* past the deadline: done, nothing left */
	f = tui_qlive_progress(11 * S, 10 * S, 5, 0, &left);
	cr_assert_float_eq(f, 1, 1e-9);
	cr_assert_eq(left, 0);
}
