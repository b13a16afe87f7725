/*
 * Tests for src/probe/pacer.c, driven with literal times (a fake clock): starts
 * anchored at first + k * interval; a lag within the catch-up window
 * (max(2 intervals, 1 ms)) keeps the anchor, a longer stall restarts the
 * schedule from the request's end (ioping's time_next = t1) and every slot
 * that passed unused is counted in `skipped`.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "pacer.h"

#include "common.h"
#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

Test(pacer, init)
{
	struct pacer p;

	pacer_init(&p, 12345, 7 * MS, 0);
	cr_assert_eq(p.due, 12345, "the first request is due at first");
	cr_assert_eq(p.interval, 7 * MS);
	cr_assert_eq(p.burst, 0);
	cr_assert_eq(p.in_burst, 0);
	cr_assert_eq(p.skipped, 0);
	pacer_init(&p, 0, MS, 1);
	cr_assert_eq(p.burst, 0, "-b 1 is no burst");
	pacer_init(&p, 0, MS, 4);
	cr_assert_eq(p.burst, 4);
}

/* Fast requests: request k is due at first + k * interval. */
Test(pacer, anchored_schedule)
{
	struct pacer p;
	const uint64_t first = 5 * SEC + 17;

	pacer_init(&p, first, MS, 0);
	for (uint64_t k = 1; k <= 20; k++) {
		/* the request starts when due and takes 100..290 us */
		uint64_t end = p.due + 100 * US + (k % 20) * 10 * US;

		cr_assert_not(pacer_next(&p, end), "request %" PRIu64 ": no burst", k);
		cr_assert_eq(p.due, first + k * MS, "request %" PRIu64 ": due %" PRIu64, k, p.due);
	}
	cr_assert_eq(p.skipped, 0);
}

/* Starts late by a varying amount (print/flush time): the schedule does not move. */
Test(pacer, late_starts_do_not_shift_schedule)
{
	struct pacer p;

	pacer_init(&p, 0, 10 * MS, 0);
	for (uint64_t k = 1; k <= 100; k++) {
		uint64_t start = p.due + (k * 37 % 500) * US; /* up to 0.5 ms late */

		pacer_next(&p, start + 2 * MS);
		cr_assert_eq(p.due, k * 10 * MS, "request %" PRIu64, k);
	}
	cr_assert_eq(p.skipped, 0);
}

/* A request that ends exactly at the next due time is on time. */
Test(pacer, end_exactly_at_due)
{
	struct pacer p;

	pacer_init(&p, 1000, MS, 0);
	pacer_next(&p, 1000 + MS);
	cr_assert_eq(p.due, 1000 + MS);
	cr_assert_eq(p.skipped, 0);
	pacer_next(&p, 1000 + 2 * MS + 1);
	cr_assert_eq(p.due, 1000 + 2 * MS, "1 ns late: still anchored, due at once");
	cr_assert_eq(p.skipped, 0, "less than one interval late: nothing skipped");
}

Test(pacer, interval_zero)
{
	struct pacer p;

	pacer_init(&p, 100, 0, 0);
	cr_assert_not(pacer_next(&p, 250));
	cr_assert_eq(p.due, 250, "with -i 0 the next request is due at once");
	pacer_next(&p, 250);
	cr_assert_eq(p.due, 250);
	pacer_next(&p, 10 * SEC);
	cr_assert_eq(p.due, 10 * SEC);
	cr_assert_eq(p.skipped, 0, "no slots to skip with interval 0");
}

struct slowcase {
	uint64_t interval;
	uint64_t late; /* how far past the next due time the request ends */
	uint64_t skipped;
};

ParameterizedTestParameters(pacer, slow_request)
{
	static struct slowcase cases[] = {
		{ MS, 3500 * US, 3 },
		{ MS, 3 * MS, 3 },
		{ MS, 3 * MS - 1, 2 },
		{ MS, 2 * MS + 1, 2 },
		{ SEC, 10 * SEC + 1, 10 },
		{ 3, 2 * MS, 666666 },
		{ 1, MS + 1, MS + 1 },
	};
	return cr_make_param_array(struct slowcase, cases, ARRAY_SIZE(cases));
}

/* The schedule restarts from the slow request's end; the slots that passed are counted. */
ParameterizedTest(struct slowcase *c, pacer, slow_request)
{
	struct pacer p;
	const uint64_t first = 1000000;
	uint64_t end = first + c->interval + c->late;

	pacer_init(&p, first, c->interval, 0);
	pacer_next(&p, end);
	cr_assert_eq(p.due, end, "interval %" PRIu64 ", late %" PRIu64 ": due %" PRIu64,
		     c->interval, c->late, p.due);
	cr_assert_eq(p.skipped, c->skipped, "interval %" PRIu64 ", late %" PRIu64
		     ": skipped %" PRIu64 ", want %" PRIu64, c->interval, c->late, p.skipped,
		     c->skipped);
	/* and it is anchored there from now on */
	pacer_next(&p, end + 1);
	cr_assert_eq(p.due, end + c->interval, "interval %" PRIu64 ", late %" PRIu64,
		     c->interval, c->late);
	cr_assert_eq(p.skipped, c->skipped, "interval %" PRIu64 ", late %" PRIu64,
		     c->interval, c->late);
}

ParameterizedTestParameters(pacer, catch_up)
{
	static struct slowcase cases[] = {
		{ MS, 1, 0 },
		{ MS, 999 * US, 0 },
		{ MS, MS, 0 },
		{ MS, 2 * MS, 0 },
		{ 10 * US, MS, 0 },
		{ SEC, 2 * SEC, 0 },
		{ 1, 1000, 0 },
	};
	return cr_make_param_array(struct slowcase, cases, ARRAY_SIZE(cases));
}

/*
 * A lag within max(2 intervals, 1 ms) keeps the schedule anchored: the next
 * requests are due at once until the grid is caught up, nothing is skipped,
 * so a short stall does not lower the rate.
 */
ParameterizedTest(struct slowcase *c, pacer, catch_up)
{
	struct pacer p;
	const uint64_t first = 1000000;
	uint64_t end = first + c->interval + c->late;

	pacer_init(&p, first, c->interval, 0);
	pacer_next(&p, end);
	cr_assert_eq(p.due, first + c->interval, "interval %" PRIu64 ", late %" PRIu64
		     ": due %" PRIu64, c->interval, c->late, p.due);
	cr_assert_eq(p.skipped, 0, "interval %" PRIu64 ", late %" PRIu64, c->interval, c->late);
	pacer_next(&p, end + 1);
	cr_assert_eq(p.due, first + 2 * c->interval, "still on the grid: interval %" PRIu64,
		     c->interval);
}

/* Two stalls: skipped slots add up; on-time requests in between add nothing. */
Test(pacer, skipped_accumulates)
{
	struct pacer p;

	pacer_init(&p, 0, MS, 0);
	pacer_next(&p, 1 * MS + 3500 * US); /* due 1 ms, ends 4.5 ms */
	cr_assert_eq(p.skipped, 3);
	pacer_next(&p, 5 * MS);               /* due 5.5 ms: on time */
	cr_assert_eq(p.due, 5500 * US);
	cr_assert_eq(p.skipped, 3);
	pacer_next(&p, 12 * MS);              /* due 6.5 ms, ends 12 ms */
	cr_assert_eq(p.due, 12 * MS);
	cr_assert_eq(p.skipped, 8);
}

/* A fake clock loop: sleep until due, run, repeat; one stall in the middle. */
Test(pacer, simulated_run_with_stall)
{
	struct pacer p;
	uint64_t now = 0, starts[10];

	pacer_init(&p, 0, 10 * MS, 0);
	for (int k = 0; k < 10; k++) {
		if (now < p.due)
			now = p.due; /* sleep */
		starts[k] = now;
		now += k == 4 ? 35 * MS : 1 * MS;
		pacer_next(&p, now);
	}
	/* 0 10 20 30 40 (stall to 75) 75 85 95 105 115 */
	cr_assert_eq(starts[3], 30 * MS);
	cr_assert_eq(starts[4], 40 * MS);
	cr_assert_eq(starts[5], 75 * MS);
	cr_assert_eq(starts[9], 115 * MS);
	cr_assert_eq(p.skipped, 2, "slots at 50 and 60 ms were dropped");
}

/* -b 3: three due at once, then one interval; the third closes the burst. */
Test(pacer, burst)
{
	struct pacer p;
	const uint64_t first = 1000;

	pacer_init(&p, first, 10 * MS, 3);
	for (uint64_t b = 0; b < 4; b++) {
		uint64_t due = first + b * 10 * MS;

		for (int i = 0; i < 3; i++) {
			bool closed;

			cr_assert_eq(p.due, due, "burst %" PRIu64 ", request %d: due %" PRIu64,
				     b, i + 1, p.due);
			closed = pacer_next(&p, p.due + (uint64_t)(i + 1) * 100 * US);
			cr_assert_eq(closed, i == 2, "burst %" PRIu64 ", request %d: closed %d",
				     b, i + 1, closed);
		}
	}
	cr_assert_eq(p.due, first + 40 * MS);
	cr_assert_eq(p.skipped, 0);
}

/* With interval 0 a burst still reports its end (ioping prints a blank line). */
Test(pacer, burst_interval_zero)
{
	struct pacer p;

	pacer_init(&p, 0, 0, 2);
	cr_assert_not(pacer_next(&p, 5));
	cr_assert(pacer_next(&p, 9));
	cr_assert_eq(p.due, 9);
	cr_assert_not(pacer_next(&p, 12));
	cr_assert(pacer_next(&p, 20));
	cr_assert_eq(p.due, 20);
}

/* A burst that overruns the interval restarts the schedule from the burst's end. */
Test(pacer, slow_burst)
{
	struct pacer p;

	pacer_init(&p, 0, 10 * MS, 3);
	cr_assert_not(pacer_next(&p, 20 * MS));
	cr_assert_eq(p.due, 0, "inside a burst the rest is due at once");
	cr_assert_not(pacer_next(&p, 30 * MS));
	cr_assert(pacer_next(&p, 35 * MS));
	cr_assert_eq(p.due, 35 * MS);
	cr_assert_eq(p.skipped, 2, "burst slots at 10 and 20 ms were dropped");
	cr_assert_eq(p.in_burst, 0);
}

/* Without -b, pacer_next never reports a burst end. */
Test(pacer, no_burst_never_closes)
{
	struct pacer p;

	pacer_init(&p, 0, MS, 1);
	for (int i = 0; i < 10; i++)
		cr_assert_not(pacer_next(&p, p.due), "request %d", i + 1);
	cr_assert_eq(p.due, 10 * MS);
}

/* A million requests: the due time is exact, whatever the interval's digits. */
Test(pacer, long_run_does_not_drift)
{
	static const uint64_t intervals[] = { MS, 333333333, 1, 999999937 };

	for (size_t i = 0; i < ARRAY_SIZE(intervals); i++) {
		struct pacer p;
		const uint64_t first = 123456789;
		const uint64_t n = 1000000;

		pacer_init(&p, first, intervals[i], 0);
		for (uint64_t k = 0; k < n; k++)
			pacer_next(&p, p.due + (intervals[i] > 1 ? k % (intervals[i] / 2) : 0));
		cr_assert_eq(p.due, first + n * intervals[i], "interval %" PRIu64 ": due %" PRIu64
			     ", want %" PRIu64, intervals[i], p.due, first + n * intervals[i]);
		cr_assert_eq(p.skipped, 0, "interval %" PRIu64, intervals[i]);
	}
}

/* A long burst run stays anchored too. */
Test(pacer, long_burst_run_does_not_drift)
{
	struct pacer p;
	uint64_t closed = 0;

	pacer_init(&p, 0, 3 * MS, 4);
	for (uint64_t k = 0; k < 400000; k++)
		closed += pacer_next(&p, p.due + 50 * US);
	cr_assert_eq(closed, 100000);
	cr_assert_eq(p.due, 100000 * 3 * MS);
	cr_assert_eq(p.skipped, 0);
}

/* An interval near 2^64 (-r 1e-11) saturates the schedule instead of wrapping it. */
Test(pacer, huge_interval_saturates)
{
	struct pacer p;

	pacer_init(&p, 5 * SEC, UINT64_MAX, 0);
	pacer_next(&p, 5 * SEC + 1);
	cr_assert_eq(p.due, UINT64_MAX);
	cr_assert_eq(p.skipped, 0);
}

/* A restart reports the slots it skipped and the first one's due time; the next call clears it. */
Test(pacer, last_skipped_slots)
{
	struct pacer p;

	pacer_init(&p, 0, MS, 0);
	pacer_next(&p, 1 * MS + 3500 * US); /* due 1 ms, ends 4.5 ms: slots 1, 2, 3 ms */
	cr_assert_eq(p.last_skipped, 3);
	cr_assert_eq(p.skip_first, 1 * MS);
	pacer_next(&p, 5 * MS);
	cr_assert_eq(p.last_skipped, 0, "on time: nothing skipped by this call");
	pacer_next(&p, 5500 * US + 2 * MS); /* within the catch-up window */
	cr_assert_eq(p.last_skipped, 0);
}

Test(pacer, forget_after_keeps_the_slots_before_the_limit)
{
	struct pacer p;

	pacer_init(&p, 0, MS, 0);
	pacer_next(&p, 1 * MS + 9500 * US); /* due 1 ms, ends 10.5 ms: slots 1 .. 9 ms */
	cr_assert_eq(p.last_skipped, 9);
	pacer_forget_after(&p, 4 * MS); /* the run ends at 4 ms: slots 1, 2, 3 ms were in it */
	cr_assert_eq(p.last_skipped, 3);
	cr_assert_eq(p.skipped, 3);
	cr_assert_eq(p.skip_first, 1 * MS);
	pacer_forget_after(&p, 4 * MS + 1); /* a limit past them keeps them all */
	cr_assert_eq(p.last_skipped, 3);
}

Test(pacer, forget_after_earlier_skips_stay)
{
	struct pacer p;

	pacer_init(&p, 0, MS, 0);
	pacer_next(&p, 1 * MS + 4500 * US); /* slots 1 .. 4 ms */
	cr_assert_eq(p.skipped, 4);
	pacer_next(&p, 5500 * US + 1 * MS + 5000 * US); /* due 6.5 ms, ends 11.5 ms: 5 slots */
	cr_assert_eq(p.last_skipped, 5);
	pacer_forget_after(&p, 6500 * US); /* every one of them at or after the limit */
	cr_assert_eq(p.last_skipped, 0);
	cr_assert_eq(p.skipped, 4, "the first stall's slots still count");
	pacer_forget_after(&p, 0);
	cr_assert_eq(p.skipped, 4, "nothing left to forget");
}
