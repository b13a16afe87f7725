/*
 * Tests for src/out/metrics.c: the fixed fleet buckets (1-2-5 per decade, 10 us
 * to 10 s, le inclusive), what each kind of request adds, errors by errno
 * with EIO present from the start and a bounded number of errno series, and
 * the in-flight age read from the probe's published start; the native buckets
 * (schema 4: bounds, indices against 16 log2(s), the skipped-slot series, the
 * same requests as the fleet buckets).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define S UINT64_C(1000000000)

static struct sample smp(enum op op, int64_t result, uint64_t time)
{
	struct sample s = { 0 };

	s.request = 2;
	s.op = op;
	s.size = 4096;
	s.result = result;
	s.time = time;
	return s;
}

static struct metrics_info info(void)
{
	struct metrics_info in = { 0 };

	in.target = "/dev/x";
	in.op[OP_READ] = true;
	return in;
}

Test(metrics, bucket_bounds_are_1_2_5_per_decade)
{
	uint64_t want = 10 * US;

	for (size_t i = 0; i < METRICS_BUCKETS; i++) {
		uint64_t m = i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 5;

		cr_assert_eq(metrics_bucket_ns[i], m * want, "bucket %zu", i);
		cr_assert_eq(strtod(metrics_bucket_le[i], NULL) * 1e9, (double)metrics_bucket_ns[i],
			     "le %s", metrics_bucket_le[i]);
		if (i % 3 == 2)
			want *= 10;
	}
	cr_assert_eq(metrics_bucket_ns[METRICS_BUCKETS - 1], 10 * S);
}

Test(metrics, bucket_index_is_le_inclusive)
{
	cr_assert_eq(metrics_bucket_index(0), 0);
	cr_assert_eq(metrics_bucket_index(10 * US), 0);
	cr_assert_eq(metrics_bucket_index(10 * US + 1), 1);
	cr_assert_eq(metrics_bucket_index(1 * MS), 6);
	cr_assert_eq(metrics_bucket_index(1 * MS + 1), 7);
	cr_assert_eq(metrics_bucket_index(10 * S), METRICS_BUCKETS - 1);
	cr_assert_eq(metrics_bucket_index(10 * S + 1), METRICS_BUCKETS);
	cr_assert_eq(metrics_bucket_index(UINT64_MAX), METRICS_BUCKETS);
}

Test(metrics, eio_is_there_from_the_start)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;

	cr_assert_eq(metrics_target_init(&t, &in, NULL), 0);
	metrics_snapshot(&t, 0, &s);
	cr_assert_eq(s.counts.op[OP_READ].err_no[0], EIO);
	cr_assert_eq(s.counts.op[OP_READ].errors[0], 0);
	cr_assert_eq(s.counts.op[OP_WRITE].err_no[0], EIO);
	cr_assert_eq(s.counts.op[OP_READ].count, 0);
	cr_assert_not(s.in_flight);
	metrics_target_destroy(&t);
}

Test(metrics, valid_and_outlier_requests_count_warmup_does_not)
{
	struct metrics_counts c;
	struct sample a = smp(OP_READ, 4096, 150 * US), b = smp(OP_READ, 4096, 3 * S);
	struct sample w = smp(OP_READ, 4096, 1 * MS), e = smp(OP_READ, 0, 1 * MS);

	memset(&c, 0, sizeof(c));
	metrics_count(&c, &a, NOTICE_NONE, 100);
	metrics_count(&c, &b, NOTICE_TOO_SLOW, 200); /* a stall must show, -T or not */
	metrics_count(&c, &w, NOTICE_WARMUP, 300);
	metrics_count(&c, &e, NOTICE_EMPTY, 400);
	cr_assert_eq(c.op[OP_READ].count, 2);
	cr_assert_eq(c.op[OP_READ].sum, 150 * US + 3 * S);
	cr_assert_eq(c.op[OP_READ].bytes, 8192);
	cr_assert_eq(c.op[OP_READ].bucket[4], 1); /* le 0.0002 */
	cr_assert_eq(c.op[OP_READ].bucket[17], 1); /* le 5.0 */
	cr_assert_eq(c.op[OP_READ].last_real, 400);
	cr_assert_eq(c.op[OP_WRITE].count, 0);
}

Test(metrics, errors_by_errno_bounded)
{
	struct metrics_counts c;

	memset(&c, 0, sizeof(c));
	c.op[OP_WRITE].err_no[0] = EIO;
	for (int e = 1; e <= METRICS_ERRNOS + 3; e++) {
		struct sample s = smp(OP_WRITE, -e, 1 * MS);

		metrics_count(&c, &s, NOTICE_ERROR, 7);
	}
	struct sample eio = smp(OP_WRITE, -EIO, 1 * MS);

	metrics_count(&c, &eio, NOTICE_ERROR, 8);
	cr_assert_eq(c.op[OP_WRITE].err_no[0], EIO);
	cr_assert_eq(c.op[OP_WRITE].errors[0], 2); /* EIO (5) came in the loop too */
	size_t used = 0;

	for (size_t i = 0; i < METRICS_ERRNOS; i++)
		used += c.op[OP_WRITE].err_no[i] != 0;
	cr_assert_eq(used, METRICS_ERRNOS);
	cr_assert_eq(c.op[OP_WRITE].errors_other, 3); /* 9, 10 and 11 found no slot */
	cr_assert_eq(c.op[OP_WRITE].count, 0);
	cr_assert_eq(c.op[OP_WRITE].last_real, 8);
}

Test(metrics, record_keeps_skipped_and_snapshot_copies)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	struct sample a = smp(OP_READ, 4096, 2 * MS);

	cr_assert_eq(metrics_target_init(&t, &in, NULL), 0);
	metrics_record(&t, &a, NOTICE_NONE, 1000, 3);
	metrics_snapshot(&t, 0, &s);
	metrics_record(&t, &a, NOTICE_NONE, 2000, 4);
	cr_assert_eq(s.counts.skipped, 3);
	cr_assert_eq(s.counts.op[OP_READ].count, 1); /* a copy: later requests do not change it */
	cr_assert_str_eq(s.info->target, "/dev/x");
	metrics_target_destroy(&t);
}

/* Each judged interval: the current state and reason, its time added to its state's. */
Test(metrics, judged_intervals_add_to_their_state)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	struct verdict v = { .state = VERDICT_KEEPS_UP, .reason = VERDICT_STALLED };

	cr_assert_eq(metrics_target_init(&t, &in, NULL), 0);
	cr_assert_not(metrics_verdict_get(&t).judged);
	metrics_judged(&t, &v, 1000 * MS);
	metrics_judged(&t, &v, 999 * MS);
	v.state = VERDICT_FALLS_SHORT;
	metrics_judged(&t, &v, 1001 * MS);
	metrics_snapshot(&t, 0, &s);
	cr_assert(s.counts.verdict.judged);
	cr_assert_eq(s.counts.verdict.state, VERDICT_FALLS_SHORT);
	cr_assert_eq(s.counts.verdict.reason, VERDICT_STALLED);
	cr_assert_eq(s.counts.verdict.state_ns[VERDICT_KEEPS_UP], 1999 * MS);
	cr_assert_eq(s.counts.verdict.state_ns[VERDICT_FALLS_SHORT], 1001 * MS);
	cr_assert_eq(s.counts.verdict.intervals, 3);
	v.state = VERDICT_OTHER_IO; /* its reason field is a later check's: not published */
	metrics_judged(&t, &v, 1000 * MS);
	cr_assert_eq(metrics_verdict_get(&t).reason, VERDICT_NO_REASON);
	metrics_target_destroy(&t);
}

Test(metrics, in_flight_age_grows_without_completions)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	_Atomic uint64_t inflight = 0;

	cr_assert_eq(metrics_target_init(&t, &in, &inflight), 0);
	metrics_snapshot(&t, 50 * S, &s);
	cr_assert_not(s.in_flight);
	cr_assert_eq(s.oldest_in_flight, 0);
	atomic_store(&inflight, 10 * S);
	metrics_snapshot(&t, 12 * S, &s);
	cr_assert(s.in_flight);
	cr_assert_eq(s.oldest_in_flight, 2 * S);
	metrics_snapshot(&t, 70 * S, &s);
	cr_assert_eq(s.oldest_in_flight, 60 * S);
	metrics_target_destroy(&t);
}

Test(metrics, response_times_go_to_their_own_histogram)
{
	struct metrics_counts c;
	struct sample a = smp(OP_READ, 4096, 150 * US), w = smp(OP_READ, 4096, 1 * MS);

	memset(&c, 0, sizeof(c));
	a.response = 30 * MS;
	w.response = 5 * S;
	metrics_count(&c, &a, NOTICE_NONE, 1);
	metrics_count(&c, &w, NOTICE_WARMUP, 2);
	cr_assert_eq(c.op[OP_READ].response.count, 1);
	cr_assert_eq(c.op[OP_READ].response.sum, 30 * MS);
	cr_assert_eq(c.op[OP_READ].response.bucket[11], 1); /* le 0.05 */
	cr_assert_eq(c.op[OP_READ].bucket[4], 1);           /* the latency stays le 0.0002 */
}

/* The series against adding its values one at a time. */
static void series_vs_loop(uint64_t hi, uint64_t step, uint64_t n)
{
	struct metrics_hist a, b;
	uint64_t sum = 0, k = 0;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	metrics_hist_add_series(&a, hi, step, n);
	for (; k < n && (!step || k <= hi / step); k++) {
		b.bucket[metrics_bucket_index(hi - k * step)]++;
		sum += hi - k * step;
	}
	cr_assert_eq(a.count, k, "count %llu vs %llu", (unsigned long long)a.count,
		     (unsigned long long)k);
	cr_assert_eq(a.sum, sum);
	for (size_t i = 0; i <= METRICS_BUCKETS; i++)
		cr_assert_eq(a.bucket[i], b.bucket[i], "bucket %zu: %llu vs %llu", i,
			     (unsigned long long)a.bucket[i], (unsigned long long)b.bucket[i]);
}

Test(metrics, skipped_slot_series_is_exact)
{
	series_vs_loop(1 * S, 1 * MS, 1000);      /* a 1 s stall in a 1 kHz schedule */
	series_vs_loop(1 * S, 1 * MS, 5000);      /* more slots than fit: none below 0 */
	series_vs_loop(20 * S, 10 * MS, 1500);    /* across the +Inf bucket */
	series_vs_loop(10 * MS, 10 * MS, 1);      /* on a bound: le is inclusive */
	series_vs_loop(7 * MS, 0, 3);             /* step 0: n equal values */
	series_vs_loop(123456789, 3333, 20000);
}

Test(metrics, skipped_slots_go_to_the_last_operation)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	struct sample wr = smp(OP_WRITE, 4096, 2 * MS);

	cr_assert_eq(metrics_target_init(&t, &in, NULL), 0);
	metrics_record(&t, &wr, NOTICE_NONE, 1000, 0);
	metrics_record_skipped(&t, 3 * MS, 1 * MS, 3); /* 3, 2 and 1 ms */
	metrics_snapshot(&t, 0, &s);
	cr_assert_eq(s.counts.op[OP_WRITE].response.count, 4);
	cr_assert_eq(s.counts.op[OP_WRITE].response.bucket[6], 1); /* 1 ms */
	cr_assert_eq(s.counts.op[OP_WRITE].response.bucket[7], 1); /* 2 ms */
	cr_assert_eq(s.counts.op[OP_READ].response.count, 0);
	metrics_target_destroy(&t);
}

Test(metrics, in_flight_count_at_depth)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	_Atomic uint64_t inflight = 0;
	_Atomic unsigned n = 0;

	cr_assert_eq(metrics_target_init(&t, &in, &inflight), 0);
	t.inflight_n = &n;
	atomic_store(&inflight, 10 * S); /* depth 1: only the start is published */
	metrics_snapshot(&t, 11 * S, &s);
	cr_assert_eq(s.in_flight, 1);
	atomic_store(&n, 8);
	metrics_snapshot(&t, 13 * S, &s);
	cr_assert_eq(s.in_flight, 8);
	cr_assert_eq(s.oldest_in_flight, 3 * S); /* the oldest of the eight */
	atomic_store(&inflight, 0);
	metrics_snapshot(&t, 14 * S, &s);
	cr_assert_eq(s.in_flight, 0);
	metrics_target_destroy(&t);
}

/* ---- native (sparse exponential) buckets, schema 4 ---- */

Test(metrics, native_schema_is_under_5_percent_and_covers_every_ns)
{
	cr_assert_eq(METRICS_NATIVE_SCHEMA, 4);
	cr_assert_lt(exp2(1.0 / METRICS_NATIVE_PER_POW2) - 1, 0.05); /* 4.4 % per bucket */
	cr_assert_gt(exp2(2.0 / METRICS_NATIVE_PER_POW2) - 1, 0.05); /* schema 3 would not do */
	cr_assert_eq(METRICS_NATIVE_BUCKETS, 1040);
	cr_assert_eq(metrics_native_index(1), -478);                /* 1 ns: above 2^-30 s */
	cr_assert_geq(metrics_native_index(1), METRICS_NATIVE_MIN);
	cr_assert_leq(metrics_native_index(UINT64_MAX), METRICS_NATIVE_MAX);
	cr_assert_eq(sizeof(struct metrics_natives), 4 * 8 * (METRICS_NATIVE_BUCKETS + 1));
}

Test(metrics, native_index_for_known_values)
{
	/* bucket i is (2^((i-1)/16), 2^(i/16)] seconds: upper bound inclusive, as le */
	cr_assert_eq(metrics_native_index(1 * S), 0);
	cr_assert_eq(metrics_native_index(1 * S + 1), 1);
	cr_assert_eq(metrics_native_index(2 * S), 16);
	cr_assert_eq(metrics_native_index(1953125), -144);          /* 2^-9 s exactly */
	cr_assert_eq(metrics_native_index(1953126), -143);
	cr_assert_eq(metrics_native_index(1953124), -144);
	cr_assert_eq(metrics_native_index(1 * MS), -159);           /* ceil(16 log2 0.001) */
	cr_assert_eq(metrics_native_index(3 * MS), -134);
	cr_assert_eq(metrics_native_index(30 * MS), -80);
	cr_assert_eq(metrics_native_index(100 * US), -212);
	/* against 16 log2(s), away from the bounds */
	for (uint64_t ns = 7; ns < UINT64_C(1) << 40; ns = ns * 3 + 11) {
		double x = 16 * log2((double)ns / 1e9);

		if (fabs(x - round(x)) > 1e-6)
			cr_assert_eq(metrics_native_index(ns), (int)ceil(x), "ns %llu",
				     (unsigned long long)ns);
	}
}

Test(metrics, native_upper_bounds_are_exact)
{
	for (int i = METRICS_NATIVE_MIN; i <= metrics_native_index(UINT64_MAX); i++) {
		uint64_t u = metrics_native_upper(i);

		if (u)
			cr_assert_leq(metrics_native_index(u), i, "bucket %d", i);
		if (u < UINT64_MAX)
			cr_assert_gt(metrics_native_index(u + 1), i, "bucket %d", i);
	}
	cr_assert_eq(metrics_native_upper(0), 1 * S);
	cr_assert_eq(metrics_native_upper(-144), 1953125);
	cr_assert_eq(metrics_native_upper(METRICS_NATIVE_MIN), 0); /* no whole ns in it */
	cr_assert_eq(metrics_native_upper(METRICS_NATIVE_MAX), UINT64_MAX);
}

/* The series against adding its values one at a time. */
static void native_series_vs_loop(uint64_t hi, uint64_t step, uint64_t n)
{
	static struct metrics_native a, b;
	uint64_t k = 0;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	metrics_native_add_series(&a, hi, step, n);
	for (; k < n && (!step || k <= hi / step); k++)
		metrics_native_add(&b, hi - k * step);
	cr_assert_eq(a.zero, b.zero, "hi %llu step %llu n %llu", (unsigned long long)hi,
		     (unsigned long long)step, (unsigned long long)n);
	for (size_t i = 0; i < METRICS_NATIVE_BUCKETS; i++)
		cr_assert_eq(a.bucket[i], b.bucket[i], "bucket %d: %llu vs %llu",
			     (int)i + METRICS_NATIVE_MIN, (unsigned long long)a.bucket[i],
			     (unsigned long long)b.bucket[i]);
}

Test(metrics, native_skipped_slot_series_is_exact)
{
	native_series_vs_loop(1 * S, 1 * MS, 1000);
	native_series_vs_loop(1 * S, 1 * MS, 5000);    /* cut: the last value is 0 (zero bucket) */
	native_series_vs_loop(1 * S + 7, 1 * MS, 5000); /* cut: the last value is 7 ns */
	native_series_vs_loop(20 * S, 10 * MS, 1500);
	native_series_vs_loop(1953125, 1, 3);          /* from a bucket bound down */
	native_series_vs_loop(7 * MS, 0, 3);
	native_series_vs_loop(0, 0, 4);                /* all zero */
	native_series_vs_loop(123456789, 3333, 20000);
	native_series_vs_loop(UINT64_MAX, UINT64_MAX / 1000, 2000);
}

Test(metrics, native_buckets_follow_the_counted_requests)
{
	struct metrics_target t;
	struct metrics_info in = info();
	struct metrics_snap s;
	static struct metrics_natives nat;
	struct sample a = smp(OP_READ, 4096, 3 * MS), b = smp(OP_READ, 4096, 30 * MS);
	struct sample w = smp(OP_READ, 4096, 1 * MS), e = smp(OP_READ, -EIO, 1 * MS);
	uint64_t total = 0;

	a.response = 3 * MS;
	b.response = 40 * MS;
	cr_assert_eq(metrics_target_init(&t, &in, NULL), 0);
	for (int i = 0; i < 9; i++)
		metrics_record(&t, &a, NOTICE_NONE, 1, 0);
	metrics_record(&t, &b, NOTICE_SLOW, 2, 0);
	metrics_record(&t, &w, NOTICE_WARMUP, 3, 0);  /* not counted, as in the fleet buckets */
	metrics_record(&t, &e, NOTICE_ERROR, 4, 0);
	metrics_record_skipped(&t, 20 * MS, 10 * MS, 2); /* 20 and 10 ms */
	metrics_snapshot_native(&t, 0, &s, &nat);
	cr_assert_eq(s.native, &nat);
	cr_assert_eq(nat.latency[OP_READ].bucket[-134 - METRICS_NATIVE_MIN], 9);
	cr_assert_eq(nat.latency[OP_READ].bucket[-80 - METRICS_NATIVE_MIN], 1);
	for (size_t i = 0; i < METRICS_NATIVE_BUCKETS; i++)
		total += nat.latency[OP_READ].bucket[i];
	cr_assert_eq(total, s.counts.op[OP_READ].count);
	total = nat.response[OP_READ].zero;
	for (size_t i = 0; i < METRICS_NATIVE_BUCKETS; i++)
		total += nat.response[OP_READ].bucket[i];
	cr_assert_eq(total, s.counts.op[OP_READ].response.count);
	cr_assert_eq(total, 12);
	cr_assert_eq(nat.response[OP_READ].bucket[metrics_native_index(10 * MS) -
						    METRICS_NATIVE_MIN], 1);
	metrics_snapshot(&t, 0, &s);
	cr_assert_null(s.native, "the text formats' snapshot leaves them out");
	metrics_target_destroy(&t);
}

/* --layers: the layers of valid measured requests, by layer_tally_add()'s rule (issue 32). */
Test(metrics, layers_of_valid_measured_requests)
{
	struct metrics_counts c;
	struct sample a = smp(OP_READ, 4096, 5 * MS), cached = smp(OP_READ, 4096, 20 * US);
	struct sample warm = smp(OP_READ, 4096, 5 * MS), plain = smp(OP_READ, 4096, 5 * MS);

	a.layers = (struct layer_times){ .submit = 15 * US, .throttle = 0, .queue = 3 * US,
					 .device = 4900 * US, .pieces = 4, .measured = true };
	cached.layers = (struct layer_times){ .measured = true, .no_device = true };
	warm.layers = a.layers;
	memset(&c, 0, sizeof(c));
	metrics_count(&c, &a, NOTICE_NONE, 1);
	metrics_count(&c, &a, NOTICE_SLOW, 2);
	metrics_count(&c, &cached, NOTICE_FAST, 3);
	metrics_count(&c, &warm, NOTICE_WARMUP, 4);   /* not a valid request */
	metrics_count(&c, &plain, NOTICE_NONE, 5);    /* its layers not measured */
	metrics_count(&c, &a, NOTICE_TOO_SLOW, 6);    /* outside -T: layer_tally leaves it out */
	cr_assert_eq(c.layers.requests, 3);
	cr_assert_eq(c.layers.no_device, 1);
	cr_assert_eq(c.layers.pieces, 8, "the two that reached the device, 4 pieces each");
	cr_assert_eq(c.layers.layer[LAYER_DEVICE].count, 2);
	cr_assert_eq(c.layers.layer[LAYER_DEVICE].sum, 9800 * US);
	cr_assert_eq(c.layers.layer[LAYER_DEVICE].bucket[8], 2); /* le 0.005 */
	cr_assert_eq(c.layers.layer[LAYER_SUBMIT].bucket[1], 2); /* le 2e-05 */
	cr_assert_eq(c.layers.layer[LAYER_THROTTLE].bucket[0], 2); /* 0 ns: le 1e-05 */
	cr_assert_eq(c.layers.layer[LAYER_QUEUE].count, 2);
}
