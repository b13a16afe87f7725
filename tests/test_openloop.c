/*
 * Tests for src/probe/openloop.c (the open-loop schedule of -Q N) with a fake clock,
 * and for the response-time rule with both schedules: a 1 s stall in a 1 kHz
 * schedule must give the analytic response distribution exactly — at depth 1
 * through the pacer's skipped slots and account_add_skipped() (HdrHistogram's
 * expected-interval correction), at depth 8 through the late starts.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "account.h"
#include "pacer.h"
#include "openloop.h"
#include "stats.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

Test(openloop, init_defaults)
{
	struct openloop s;

	openloop_init(&s, 777, MS, 0, 0);
	cr_assert_eq(s.burst, 1, "burst 0 is one slot per interval");
	cr_assert_eq(s.depth, 1, "depth 0 is depth 1");
	cr_assert_eq(openloop_due(&s), 777);
	cr_assert_eq(openloop_wait(&s, 776), 777, "not due yet: wait until due");
	cr_assert_eq(openloop_wait(&s, 777), 0, "due: start at once");
}

/* Starts follow the schedule whether or not earlier requests completed. */
Test(openloop, open_loop_starts_on_schedule)
{
	struct openloop s;

	openloop_init(&s, 0, MS, 1, 4);
	for (uint64_t k = 0; k < 4; k++) {
		uint64_t now = k * MS;

		cr_assert_eq(openloop_wait(&s, now), 0, "slot %" PRIu64 " starts on time", k);
		cr_assert_eq(openloop_start(&s, now), k * MS);
		cr_assert_eq(s.inflight, k + 1);
	}
	cr_assert_eq(openloop_wait(&s, 4 * MS), UINT64_MAX, "4 in flight: wait for a completion");
	cr_assert_eq(openloop_wait(&s, 9 * MS), UINT64_MAX, "still 4 in flight");
	openloop_complete(&s);
	cr_assert_eq(openloop_wait(&s, 10 * MS), 0, "one completed: the late slot starts at once");
	cr_assert_eq(openloop_start(&s, 10 * MS), 4 * MS, "its scheduled start stays 4 ms");
	cr_assert_eq(openloop_wait(&s, 10 * MS), UINT64_MAX);
	for (int i = 0; i < 4; i++)
		openloop_complete(&s);
	cr_assert_eq(s.inflight, 0);
	cr_assert_eq(openloop_wait(&s, 10 * MS), 0, "slot 5 (due 5 ms) is late too");
	cr_assert_eq(openloop_start(&s, 10 * MS), 5 * MS);
	cr_assert_eq(openloop_wait(&s, 10 * MS), 0);
	cr_assert_eq(openloop_start(&s, 10 * MS), 6 * MS);
}

/* Fast completions: every start exactly on first + k * interval, no drift. */
Test(openloop, anchored_no_drift)
{
	struct openloop s;
	const uint64_t first = 123456789, iv = 333333333;

	openloop_init(&s, first, iv, 1, 8);
	for (uint64_t k = 0; k < 1000000; k++) {
		uint64_t due = openloop_due(&s);

		cr_assert_eq(openloop_wait(&s, due), 0);
		if (openloop_start(&s, due) != first + k * iv)
			cr_assert_fail("slot %" PRIu64 " due %" PRIu64, k, due);
		openloop_complete(&s);
	}
	cr_assert_eq(openloop_due(&s), first + 1000000 * iv);
}

/* With interval 0 the loop is closed: depth in flight, each due when it starts. */
Test(openloop, interval_zero_closed_loop)
{
	struct openloop s;

	openloop_init(&s, 5, 0, 1, 2);
	cr_assert_eq(openloop_wait(&s, 100), 0);
	cr_assert_eq(openloop_start(&s, 100), 100, "due when it starts: no lateness");
	cr_assert_eq(openloop_start(&s, 200), 200);
	cr_assert_eq(openloop_wait(&s, 300), UINT64_MAX);
	openloop_complete(&s);
	cr_assert_eq(openloop_wait(&s, 300), 0);
	cr_assert_eq(openloop_start(&s, 300), 300);
}

/* -b 3: three slots due together, then one interval; every third completion closes a burst. */
Test(openloop, burst)
{
	struct openloop s;

	openloop_init(&s, 1000, 10 * MS, 3, 8);
	for (uint64_t k = 0; k < 12; k++)
		cr_assert_eq(openloop_start(&s, 1000 + k / 3 * 10 * MS), 1000 + k / 3 * 10 * MS,
			     "slot %" PRIu64, k);
	for (int k = 1; k <= 12; k++)
		cr_assert_eq(openloop_complete(&s), k % 3 == 0, "completion %d", k);
	openloop_init(&s, 0, MS, 1, 8);
	for (int k = 1; k <= 5; k++) {
		openloop_start(&s, 0);
		cr_assert_not(openloop_complete(&s), "no bursts: never closes");
	}
}

/* A rebase (pause, new interval) anchors the next slot at now. */
Test(openloop, rebase)
{
	struct openloop s;

	openloop_init(&s, 0, MS, 1, 4);
	openloop_start(&s, 0);
	openloop_start(&s, MS);
	openloop_rebase(&s, 50 * MS, 2 * MS);
	cr_assert_eq(s.inflight, 2, "requests in flight are kept");
	cr_assert_eq(openloop_due(&s), 50 * MS);
	cr_assert_eq(openloop_start(&s, 50 * MS), 50 * MS);
	cr_assert_eq(openloop_due(&s), 52 * MS);
}

/* --arrivals poisson: gaps of mean interval with a coefficient of variation of 1 (an
 * exponential's), none below 0, the first slot where it was; the same seed, the same gaps. */
Test(openloop, poisson_gaps_are_exponential_of_the_mean)
{
	struct openloop s, t;
	const int n = 200000;
	double sum = 0, sum2 = 0;
	uint64_t prev;

	openloop_init(&s, 1000, MS, 1, 4);
	openloop_poisson(&s, 42);
	cr_assert_eq(openloop_due(&s), 1000, "the first slot stays due where it was");
	prev = openloop_start(&s, 1000);
	for (int k = 0; k < n; k++) {
		uint64_t due = openloop_due(&s), gap;

		cr_assert_geq(due, prev);
		gap = due - prev;
		sum += (double)gap;
		sum2 += (double)gap * (double)gap;
		prev = openloop_start(&s, due);
		openloop_complete(&s);
	}
	double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
	cr_assert(fabs(mean - MS) < 0.01 * MS, "mean gap %.0f ns", mean);
	cr_assert(fabs(sd / mean - 1) < 0.02, "coefficient of variation %.3f", sd / mean);
	openloop_init(&s, 0, MS, 1, 4);
	openloop_init(&t, 0, MS, 1, 4);
	openloop_poisson(&s, 7);
	openloop_poisson(&t, 7);
	for (int k = 0; k < 100; k++)
		cr_assert_eq(openloop_start(&s, 0), openloop_start(&t, 0), "slot %d", k);
}

/* Random arrivals with bursts: a burst's slots are due together, the bursts apart; a rebase
 * (a pause, a sweep's next rate) makes the next slot due at once. */
Test(openloop, poisson_bursts_and_rebase)
{
	struct openloop s;
	uint64_t a, b;

	openloop_init(&s, 0, 10 * MS, 3, 8);
	openloop_poisson(&s, 1);
	a = openloop_start(&s, 0);
	cr_assert_eq(openloop_start(&s, 0), a);
	cr_assert_eq(openloop_start(&s, 0), a);
	b = openloop_start(&s, openloop_due(&s));
	cr_assert_eq(openloop_start(&s, b), b);
	openloop_rebase(&s, 77 * MS, 5 * MS);
	cr_assert_eq(openloop_due(&s), 77 * MS);
	cr_assert_eq(openloop_start(&s, 77 * MS), 77 * MS);
	/* the gap draws are exponential: a fixed mean, and no gap from a 0 draw */
	struct rng r;
	rng_seed(&r, 3);
	double sum = 0;
	for (int k = 0; k < 100000; k++)
		sum += (double)openloop_exp_gap(&r, 1000);
	cr_assert(fabs(sum / 100000 - 1000) < 15, "mean %.1f", sum / 100000);
}

/* An interval near 2^64 saturates the due time instead of wrapping. */
Test(openloop, huge_interval_saturates)
{
	struct openloop s;

	openloop_init(&s, 5 * SEC, UINT64_MAX, 1, 2);
	openloop_start(&s, 5 * SEC);
	cr_assert_eq(openloop_due(&s), UINT64_MAX);
	cr_assert_eq(openloop_wait(&s, 6 * SEC), UINT64_MAX);
}

/*
 * The simulated device: a request started at t completes at t + svc, except
 * that every request in flight during the stall [stall, stall_end) completes
 * at stall_end + svc at the earliest (the device answers nothing meanwhile).
 */
struct sim {
	uint64_t svc, stall, stall_end, stall_svc;
};

static uint64_t sim_complete(const struct sim *d, uint64_t start)
{
	if (start >= d->stall && start < d->stall_end)
		return d->stall_end + d->svc;
	return start + d->svc;
}

static void add_response(struct account *a, uint64_t k, uint64_t due, uint64_t end,
			 uint64_t start)
{
	struct sample smp = { 0 };

	smp.request = k + 1;
	smp.result = 4096;
	smp.size = 4096;
	smp.time = end - start;
	smp.response = end - due;
	account_add(a, &smp);
}

/* Depth 1: the pacer's loop (sleep until due, run, pacer_next) with the correction. */
static void run_depth1(const struct sim *d, uint64_t run, struct account *a)
{
	struct pacer p;
	uint64_t now = 0;

	pacer_init(&p, 0, MS, 0);
	for (uint64_t k = 0; p.due < run; k++) {
		uint64_t due = p.due, start, end;

		now = now > due ? now : due;
		start = now;
		end = now = sim_complete(d, start);
		add_response(a, k, due, end, start);
		pacer_next(&p, end);
		if (p.last_skipped)
			account_add_skipped(a, end - p.skip_first, p.interval, p.last_skipped);
	}
}

/* Depth 8: the open-loop schedule; completions in time order, starts as soon as allowed. */
static void run_depth8(const struct sim *d, uint64_t run, struct account *a)
{
	struct openloop s;
	uint64_t now = 0, end[8], due[8], start[8], k = 0;
	unsigned n = 0;

	openloop_init(&s, 0, MS, 1, 8);
	while (openloop_due(&s) < run || n) {
		uint64_t w = openloop_due(&s) < run ? openloop_wait(&s, now) : UINT64_MAX;
		unsigned first = 0;

		for (unsigned i = 1; i < n; i++)
			if (end[i] < end[first])
				first = i;
		if (n && (w == UINT64_MAX || end[first] <= (w ? w : now))) {
			now = end[first] > now ? end[first] : now;
			add_response(a, k++, due[first], end[first], start[first]);
			openloop_complete(&s);
			n--;
			end[first] = end[n], due[first] = due[n], start[first] = start[n];
			continue;
		}
		now = w ? w : now;
		start[n] = now;
		due[n] = openloop_start(&s, now);
		end[n] = sim_complete(d, now);
		n++;
	}
}

/* The analytic distribution: slot k due at k ms has response (E - due) in the stall, else svc. */
static void analytic(const struct sim *d, uint64_t run, struct stats *want)
{
	stats_init(want);
	for (uint64_t due = 0; due < run; due += MS)
		stats_add(want, due >= d->stall && due < d->stall_end ? d->stall_end + d->svc - due :
									  d->svc);
}

static void assert_same_stats(const struct stats *got, const struct stats *want, const char *what)
{
	cr_assert_eq(got->count, want->count, "%s: count %" PRIu64 ", want %" PRIu64, what,
		     got->count, want->count);
	cr_assert_eq(got->sum, want->sum, "%s: sum", what);
	cr_assert_eq(got->min, want->min, "%s: min", what);
	cr_assert_eq(got->max, want->max, "%s: max", what);
	cr_assert(!memcmp(got->hist, want->hist, sizeof(got->hist)), "%s: histogram", what);
	cr_assert(fabs(got->mean - want->mean) <= 1e-9 * want->mean, "%s: mean", what);
	cr_assert(fabs(got->m2 - want->m2) <= 1e-9 * want->m2, "%s: m2", what);
}

/*
 * A 1 s stall at 1 s into a 3 s, 1 kHz run of instant requests: slots due at
 * 1000, 1001, ..., 1999 ms would complete at 2000 ms, responses 1000, 999,
 * ..., 1 ms; every other slot responds in 0. Depth 1 records the stalled
 * request (1000 ms) and corrects its 999 skipped slots; depth 8 starts them
 * late. Both must be exactly the analytic distribution.
 */
Test(response, stall_1s_at_1khz_analytic_exact)
{
	static struct account a1, a8;
	static struct stats want;
	const struct account_cfg cfg = { 0, 0, UINT64_MAX, false };
	const struct sim d = { 0, 1 * SEC, 2 * SEC, 0 };

	account_init(&a1, &cfg);
	account_init(&a8, &cfg);
	run_depth1(&d, 3 * SEC, &a1);
	run_depth8(&d, 3 * SEC, &a8);
	analytic(&d, 3 * SEC, &want);
	assert_same_stats(&a1.total.response, &want, "depth 1");
	assert_same_stats(&a8.total.response, &want, "depth 8");
	cr_assert_eq(a1.total.valid.count, 3000 - 999, "depth 1 ran 2001 requests");
	cr_assert_eq(a1.total.valid.max, 1 * SEC, "service: the stalled request only");
	cr_assert_eq(a8.total.valid.count, 3000, "depth 8 skipped nothing");
	/* p99 of 3000: rank 2970, the 970th of the 1000 stall values: 970 ms within 1 % */
	cr_assert(llabs((long long)stats_percentile(&a1.total.response, 99) - 970 * (long long)MS)
		  <= 970 * (long long)MS / 100, "p99 %" PRIu64,
		  stats_percentile(&a1.total.response, 99));
	cr_assert_eq(stats_percentile(&a1.total.valid, 99), 0, "service p99 does not see it");
}

/* With a 100 us service time the depth-1 rule still gives the analytic values exactly. */
Test(response, stall_with_service_time_depth1)
{
	static struct account a;
	static struct stats want;
	const struct account_cfg cfg = { 0, 0, UINT64_MAX, false };
	const struct sim d = { 100 * US, 1 * SEC, 2 * SEC, 0 };
	struct stats *r = &a.total.response;

	account_init(&a, &cfg);
	run_depth1(&d, 3 * SEC, &a);
	/* stalled: due 1000 ms, ends 2000.1 ms: 1000.1 ms; skipped 1001..1999 ms: E - due */
	stats_init(&want);
	for (uint64_t due = 0; due < 1 * SEC; due += MS)
		stats_add(&want, 100 * US);
	stats_add(&want, 1 * SEC + 100 * US);
	for (uint64_t due = 1 * SEC + MS; due < 2 * SEC; due += MS)
		stats_add(&want, 2 * SEC + 100 * US - due);
	/* the schedule restarts at 2000.1 ms: 1000 more slots before 3 s */
	for (uint64_t due = 2 * SEC + 100 * US; due < 3 * SEC; due += MS)
		stats_add(&want, 100 * US);
	assert_same_stats(r, &want, "depth 1, 100 us");
}

/* The correction goes into the period and the total, and into nothing else. */
Test(response, skipped_only_in_response)
{
	static struct account a;
	const struct account_cfg cfg = { 0, 0, UINT64_MAX, false };

	account_init(&a, &cfg);
	account_add_skipped(&a, 10 * MS, MS, 9);
	cr_assert_eq(a.period.response.count, 9);
	cr_assert_eq(a.total.response.count, 9);
	cr_assert_eq(a.total.response.max, 10 * MS);
	cr_assert_eq(a.total.response.min, 2 * MS);
	cr_assert_eq(a.total.valid.count, 0);
	cr_assert_eq(a.total.requests, 0);
	cr_assert_eq(a.total.skipped, 0, "the probe counts skipped slots itself");
}
