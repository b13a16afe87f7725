#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "stats.h"


/* relative error allowed on percentiles by the header contract */
#define MAX_REL_ERR 0.01

/* xorshift64*: small, seeded, reproducible */
static uint64_t rng_next(uint64_t *st)
{
	uint64_t x = *st;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*st = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* uniform in (0, 1], never 0 so log() and pow() stay finite */
static double rng_unit(uint64_t *st)
{
	return ((double)(rng_next(st) >> 11) + 1.0) / 9007199254740992.0;
}

/* standard normal (Box-Muller) */
static double rng_normal(uint64_t *st)
{
	double u1 = rng_unit(st), u2 = rng_unit(st);

	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static uint64_t to_u64(double x)
{
	if (!(x > 0.0))
		return 0;
	if (x >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double rel_err(double got, double want)
{
	if (want == 0.0)
		return got == 0.0 ? 0.0 : INFINITY;
	return fabs(got - want) / fabs(want);
}

static void fill(struct stats *s, const uint64_t *v, size_t n)
{
	size_t i;

	stats_init(s);
	for (i = 0; i < n; i++)
		stats_add(s, v[i]);
}

/* percentiles in units of 1/100 %, so the reference rank is exact integer math */
static const uint64_t pct_centi[] = { 100, 1000, 5000, 9000, 9900, 9990, 9999, 10000 };

/*
 * Compare every percentile of pct_centi against an exact nearest-rank pick from the
 * sorted data; v is sorted in place.
 */
static void check_percentiles(uint64_t *v, size_t n)
{
	struct stats s;
	size_t k;

	fill(&s, v, n);
	qsort(v, n, sizeof(*v), cmp_u64);
	cr_assert_eq(s.min, v[0]);
	cr_assert_eq(s.max, v[n - 1]);
	for (k = 0; k < sizeof(pct_centi) / sizeof(pct_centi[0]); k++) {
		uint64_t rank = (pct_centi[k] * n + 9999) / 10000;
		uint64_t want, got;
		double e;

		if (rank < 1)
			rank = 1;
		want = v[rank - 1];
		got = stats_percentile(&s, (double)pct_centi[k] / 100.0);
		e = rel_err((double)got, (double)want);
		cr_assert(e <= MAX_REL_ERR,
			  "p%.2f: got %llu want %llu (rank %llu of %zu), rel err %g",
			  (double)pct_centi[k] / 100.0, (unsigned long long)got,
			  (unsigned long long)want, (unsigned long long)rank, n, e);
		cr_assert_eq(stats_bucket_index(got), stats_bucket_index(want),
			     "p%.2f: %llu and %llu in different buckets",
			     (double)pct_centi[k] / 100.0, (unsigned long long)got,
			     (unsigned long long)want);
	}
}

static uint64_t *alloc_samples(size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));

	cr_assert_not_null(v);
	return v;
}

/* ---- basic moments ---- */

Test(stats, empty)
{
	struct stats s;
	size_t i;

	stats_init(&s);
	cr_assert_eq(s.count, 0);
	cr_assert_eq(s.sum, 0);
	cr_assert_eq(s.min, UINT64_MAX);
	cr_assert_eq(s.max, 0);
	cr_assert_eq(stats_min(&s), 0);
	cr_assert_eq(stats_mean(&s), 0.0);
	cr_assert_eq(stats_mdev(&s), 0.0);
	cr_assert_eq(stats_percentile(&s, 50.0), 0);
	cr_assert_eq(stats_percentile(&s, 100.0), 0);
	cr_assert_eq(stats_percentile(&s, 0.0), 0);
	cr_assert_eq(stats_percentile(&s, 1000.0), 0);
	for (i = 0; i < STATS_BUCKETS; i++)
		cr_assert_eq(s.hist[i], 0);
}

Test(stats, init_resets_used_stats)
{
	struct stats s;

	stats_init(&s);
	stats_add(&s, 5);
	stats_add(&s, 123456789);
	stats_init(&s);
	cr_assert_eq(s.count, 0);
	cr_assert_eq(s.min, UINT64_MAX);
	cr_assert_eq(s.max, 0);
	cr_assert_eq(s.hist[5], 0);
	cr_assert_eq(s.hist[stats_bucket_index(123456789)], 0);
	cr_assert_eq(stats_mean(&s), 0.0);
}

Test(stats, single_sample)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 123456789, UINT64_MAX };
	size_t k;

	for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		struct stats s;
		uint64_t x = vals[k];

		stats_init(&s);
		stats_add(&s, x);
		cr_assert_eq(s.count, 1);
		cr_assert_eq(s.sum, x);
		cr_assert_eq(stats_min(&s), x);
		cr_assert_eq(s.max, x);
		cr_assert_eq(stats_mean(&s), (double)x);
		cr_assert_eq(stats_mdev(&s), 0.0);
		cr_assert_eq(s.hist[stats_bucket_index(x)], 1);
		/* clamping to [min, max] makes every percentile exact */
		cr_assert_eq(stats_percentile(&s, 1.0), x);
		cr_assert_eq(stats_percentile(&s, 50.0), x);
		cr_assert_eq(stats_percentile(&s, 100.0), x);
	}
}

Test(stats, known_set_mean5_mdev2)
{
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s;

	fill(&s, v, 8);
	cr_assert_eq(s.count, 8);
	cr_assert_eq(s.sum, 40);
	cr_assert_eq(stats_min(&s), 2);
	cr_assert_eq(s.max, 9);
	cr_assert_float_eq(stats_mean(&s), 5.0, 1e-12);
	cr_assert_float_eq(stats_mdev(&s), 2.0, 1e-12);
	/* all exact buckets: nearest rank of {2,4,4,4,5,5,7,9} */
	cr_assert_eq(stats_percentile(&s, 12.5), 2);
	cr_assert_eq(stats_percentile(&s, 12.6), 4);
	cr_assert_eq(stats_percentile(&s, 50.0), 4);
	cr_assert_eq(stats_percentile(&s, 50.1), 5);
	cr_assert_eq(stats_percentile(&s, 87.5), 7);
	cr_assert_eq(stats_percentile(&s, 90.0), 9);
}

Test(stats, known_sets_small)
{
	static const uint64_t two[] = { 1, 3 };
	uint64_t ten[10];
	struct stats s;
	size_t i;

	fill(&s, two, 2);
	cr_assert_float_eq(stats_mean(&s), 2.0, 1e-12);
	cr_assert_float_eq(stats_mdev(&s), 1.0, 1e-12);

	/* 1..10: mean 5.5, population variance (n^2 - 1) / 12 = 8.25 */
	for (i = 0; i < 10; i++)
		ten[i] = i + 1;
	fill(&s, ten, 10);
	cr_assert_float_eq(stats_mean(&s), 5.5, 1e-12);
	cr_assert_float_eq(stats_mdev(&s), sqrt(8.25), 1e-12);

	/* constant data: mdev exactly 0 */
	stats_init(&s);
	for (i = 0; i < 1000; i++)
		stats_add(&s, 987654321);
	cr_assert_eq(stats_mean(&s), 987654321.0);
	cr_assert_eq(stats_mdev(&s), 0.0);
}

Test(stats, extreme_values_moments)
{
	struct stats s;
	double half = 9223372036854775808.0; /* 2^63 */

	stats_init(&s);
	stats_add(&s, 0);
	stats_add(&s, UINT64_MAX);
	cr_assert_eq(stats_min(&s), 0);
	cr_assert_eq(s.max, UINT64_MAX);
	cr_assert_eq(s.sum, UINT64_MAX);
	cr_assert(rel_err(stats_mean(&s), half) < 1e-12);
	cr_assert(rel_err(stats_mdev(&s), half) < 1e-12);
	cr_assert_eq(stats_percentile(&s, 50.0), 0);
	cr_assert_eq(stats_percentile(&s, 50.1), UINT64_MAX);
}

Test(stats, sum_saturates)
{
	struct stats s;

	stats_init(&s);
	stats_add(&s, UINT64_MAX - 5);
	cr_assert_eq(s.sum, UINT64_MAX - 5);
	stats_add(&s, 5);
	cr_assert_eq(s.sum, UINT64_MAX);
	stats_add(&s, 1);
	cr_assert_eq(s.sum, UINT64_MAX);
	stats_add(&s, UINT64_MAX);
	stats_add(&s, UINT64_MAX);
	cr_assert_eq(s.sum, UINT64_MAX);
	cr_assert_eq(s.count, 5);
	cr_assert_eq(s.max, UINT64_MAX);
	cr_assert_eq(stats_min(&s), 1);
	cr_assert(isfinite(stats_mean(&s)));
	cr_assert(isfinite(stats_mdev(&s)));
}

/*
 * 1e6 samples of 1e12 + [0, 1000) ns: Welford must match the exact variance, while
 * ioping's sqrt(sum2/n - avg^2) is ruined by cancellation.
 */
Test(stats, welford_precision)
{
	const uint64_t base = UINT64_C(1000000000000), n = 1000000;
	uint64_t st = 0x9E3779B97F4A7C15u, sd = 0, sd2 = 0, i;
	double sum = 0.0, sum2 = 0.0, exact_mean, exact_var, exact_mdev, naive;
	struct stats s;

	stats_init(&s);
	for (i = 0; i < n; i++) {
		uint64_t d = rng_next(&st) % 1000, x = base + d;

		stats_add(&s, x);
		sd += d;
		sd2 += d * d;
		sum += (double)x;
		sum2 += (double)x * (double)x;
	}
	/* exact in integers: n*sd2 <= 1e18 and sd^2 <= 1e18 both fit */
	exact_mean = (double)base + (double)sd / (double)n;
	exact_var = (double)(n * sd2 - sd * sd) / ((double)n * (double)n);
	exact_mdev = sqrt(exact_var);
	cr_assert_eq(s.count, n);
	cr_assert(rel_err(stats_mean(&s), exact_mean) <= 1e-12, "mean %.6f vs %.6f",
		  stats_mean(&s), exact_mean);
	cr_assert(rel_err(stats_mdev(&s), exact_mdev) <= 1e-6, "mdev %.9f vs exact %.9f",
		  stats_mdev(&s), exact_mdev);

	/* the test is meaningful: the naive formula is far off here */
	naive = sum2 / (double)n - (sum / (double)n) * (sum / (double)n);
	naive = naive > 0.0 ? sqrt(naive) : 0.0;
	cr_assert(rel_err(naive, exact_mdev) > 1e-3, "naive %.3f exact %.3f", naive,
		  exact_mdev);
}

/* ---- merge ---- */

static void assert_same_stats(const struct stats *a, const struct stats *b)
{
	cr_assert_eq(a->count, b->count);
	cr_assert_eq(a->sum, b->sum);
	cr_assert_eq(a->min, b->min);
	cr_assert_eq(a->max, b->max);
	cr_assert(rel_err(stats_mean(a), stats_mean(b)) <= 1e-12, "mean %.17g vs %.17g",
		  stats_mean(a), stats_mean(b));
	cr_assert(rel_err(stats_mdev(a), stats_mdev(b)) <= 1e-9, "mdev %.17g vs %.17g",
		  stats_mdev(a), stats_mdev(b));
	cr_assert_eq(memcmp(a->hist, b->hist, sizeof(a->hist)), 0);
	cr_assert_eq(stats_percentile(a, 50.0), stats_percentile(b, 50.0));
	cr_assert_eq(stats_percentile(a, 99.9), stats_percentile(b, 99.9));
}

Test(stats, merge_equals_single_stream)
{
	static struct stats all, parts[3], merged;
	uint64_t st = 42;
	size_t i, k;

	stats_init(&all);
	for (k = 0; k < 3; k++)
		stats_init(&parts[k]);
	/* parts of different sizes and different distributions */
	for (i = 0; i < 30000; i++) {
		uint64_t x;

		k = i % 7 == 0 ? 0 : (i % 3 == 0 ? 1 : 2);
		x = k == 0 ? 50 + rng_next(&st) % 100 :
		    to_u64(exp(12.0 + 2.0 * rng_normal(&st)));
		if (k == 1)
			x += 1000000;
		stats_add(&all, x);
		stats_add(&parts[k], x);
	}
	stats_init(&merged);
	for (k = 0; k < 3; k++)
		stats_merge(&merged, &parts[k]);
	assert_same_stats(&merged, &all);

	/* and the other way round: merge into a non-empty dst */
	stats_merge(&parts[2], &parts[0]);
	stats_merge(&parts[2], &parts[1]);
	assert_same_stats(&parts[2], &all);
}

Test(stats, merge_with_empty)
{
	struct stats a, empty, copy;

	stats_init(&a);
	stats_init(&empty);
	stats_add(&a, 10);
	stats_add(&a, 1000);
	stats_add(&a, 77777);
	copy = a;
	stats_merge(&a, &empty);
	cr_assert_eq(memcmp(&a, &copy, sizeof(a)), 0);
	stats_merge(&empty, &a);
	cr_assert_eq(memcmp(&empty, &copy, sizeof(a)), 0);

	stats_init(&empty);
	stats_init(&copy);
	stats_merge(&empty, &copy);
	cr_assert_eq(empty.count, 0);
	cr_assert_eq(empty.min, UINT64_MAX);
	cr_assert_eq(stats_percentile(&empty, 50.0), 0);
}

Test(stats, merge_self_doubles)
{
	static const uint64_t v[] = { 3, 300, 30000, 3000000, 17, 999999999 };
	struct stats s, twice;
	size_t i;

	stats_init(&s);
	stats_init(&twice);
	for (i = 0; i < 6; i++) {
		stats_add(&s, v[i]);
		stats_add(&twice, v[i]);
		stats_add(&twice, v[i]);
	}
	stats_merge(&s, &s);
	assert_same_stats(&s, &twice);
}

Test(stats, merge_saturates_sum_and_buckets)
{
	struct stats a, b;
	size_t i = stats_bucket_index(1000);

	stats_init(&a);
	stats_init(&b);
	stats_add(&a, UINT64_MAX - 1);
	stats_add(&b, UINT64_MAX - 1);
	stats_add(&a, 1000);
	stats_add(&b, 1000);
	a.hist[i] = UINT64_MAX - 1;
	b.hist[i] = 10;
	stats_merge(&a, &b);
	cr_assert_eq(a.sum, UINT64_MAX);
	cr_assert_eq(a.count, 4);
	cr_assert_eq(a.hist[i], UINT64_MAX);
	/* 64-bit buckets: a bucket far past 2^32 keeps counting */
	a.hist[i] = (uint64_t)UINT32_MAX + 5;
	stats_add(&a, 1000);
	cr_assert_eq(a.hist[i], (uint64_t)UINT32_MAX + 6);
}

/* ---- bucket mapping ---- */

Test(stats, bucket_exact_below_two_sub_counts)
{
	uint64_t v;

	for (v = 0; v < 2 * (uint64_t)STATS_SUB_COUNT; v++) {
		size_t i = stats_bucket_index(v);

		cr_assert_eq(i, v);
		cr_assert_eq(stats_bucket_low(i), v);
		cr_assert_eq(stats_bucket_high(i), v);
	}
	/* first inexact bucket starts right after */
	cr_assert_eq(stats_bucket_index(2 * (uint64_t)STATS_SUB_COUNT), 2 * STATS_SUB_COUNT);
}

Test(stats, bucket_contiguous_cover)
{
	size_t i;

	cr_assert_eq(stats_bucket_low(0), 0);
	cr_assert_eq(stats_bucket_high(STATS_BUCKETS - 1), UINT64_MAX);
	for (i = 0; i < STATS_BUCKETS; i++) {
		uint64_t lo = stats_bucket_low(i), hi = stats_bucket_high(i);

		cr_assert(lo <= hi, "bucket %zu: %llu > %llu", i, (unsigned long long)lo,
			  (unsigned long long)hi);
		cr_assert_eq(stats_bucket_index(lo), i);
		cr_assert_eq(stats_bucket_index(hi), i);
		cr_assert_eq(stats_bucket_index(lo + (hi - lo) / 2), i);
		if (i + 1 < STATS_BUCKETS)
			cr_assert_eq(stats_bucket_low(i + 1), hi + 1, "gap after bucket %zu", i);
	}
}

Test(stats, bucket_count_exact_and_max_in_range)
{
	cr_assert_lt(stats_bucket_index(UINT64_MAX), STATS_BUCKETS);
	/* STATS_BUCKETS is exactly what the mapping needs, no unused tail */
	cr_assert_eq(stats_bucket_index(UINT64_MAX), STATS_BUCKETS - 1);
	cr_assert_eq(stats_bucket_index(UINT64_MAX - 1), STATS_BUCKETS - 1);
	cr_assert_eq(stats_bucket_index(UINT64_C(1) << 63), STATS_BUCKETS - STATS_SUB_COUNT);
	/* out-of-range indices do not read past the layout */
	cr_assert_eq(stats_bucket_low(STATS_BUCKETS), UINT64_MAX);
	cr_assert_eq(stats_bucket_high(STATS_BUCKETS + 100), UINT64_MAX);
	cr_assert_eq(sizeof(((struct stats *)0)->hist), STATS_BUCKETS * sizeof(uint64_t));
}

Test(stats, bucket_powers_of_two_and_neighbours)
{
	unsigned int k;

	for (k = 0; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;
		uint64_t vals[3] = { p - 1, p, p + 1 };
		size_t j;

		for (j = 0; j < 3; j++) {
			size_t i = stats_bucket_index(vals[j]);

			cr_assert_lt(i, STATS_BUCKETS);
			cr_assert(stats_bucket_low(i) <= vals[j], "value %llu below bucket %zu",
				  (unsigned long long)vals[j], i);
			cr_assert(vals[j] <= stats_bucket_high(i), "value %llu above bucket %zu",
				  (unsigned long long)vals[j], i);
		}
		/* a power of two always starts a bucket */
		cr_assert_eq(stats_bucket_low(stats_bucket_index(p)), p);
	}
}

Test(stats, bucket_index_monotone_random)
{
	uint64_t st = 7, prev_v = 0, i;
	size_t prev_i = 0;

	for (i = 0; i < 200000; i++) {
		/* random magnitude, random mantissa */
		uint64_t v = rng_next(&st) >> (rng_next(&st) % 64);
		size_t b = stats_bucket_index(v);

		cr_assert_lt(b, STATS_BUCKETS);
		cr_assert(stats_bucket_low(b) <= v && v <= stats_bucket_high(b));
		if (v >= prev_v)
			cr_assert_geq(b, prev_i);
		else
			cr_assert_leq(b, prev_i);
		prev_v = v;
		prev_i = b;
	}
}

Test(stats, bucket_midpoint_error_bound)
{
	double worst = 0.0;
	size_t i;

	for (i = 0; i < STATS_BUCKETS; i++) {
		uint64_t lo = stats_bucket_low(i), hi = stats_bucket_high(i);
		uint64_t mid = lo + (hi - lo) / 2;
		double e = fmax(rel_err((double)mid, (double)lo), rel_err((double)mid, (double)hi));

		if (e > worst)
			worst = e;
	}
	cr_assert(worst <= MAX_REL_ERR, "worst midpoint error %g", worst);
	cr_assert(worst <= 1.0 / (2.0 * STATS_SUB_COUNT) + 1e-12, "worst %g", worst);
}

/* ---- percentiles ---- */

Test(stats, percentile_p_clamping)
{
	struct stats s;
	uint64_t i;

	stats_init(&s);
	for (i = 1000; i <= 100000; i += 7)
		stats_add(&s, i * 13);
	cr_assert_eq(stats_percentile(&s, 0.0), s.min);
	cr_assert_eq(stats_percentile(&s, -5.0), s.min);
	cr_assert_eq(stats_percentile(&s, -INFINITY), s.min);
	cr_assert_eq(stats_percentile(&s, NAN), s.min);
	cr_assert_eq(stats_percentile(&s, 100.0), s.max);
	cr_assert_eq(stats_percentile(&s, 150.0), s.max);
	cr_assert_eq(stats_percentile(&s, INFINITY), s.max);
	/* tiny p is rank 1, the exact minimum */
	cr_assert_eq(stats_percentile(&s, 1e-9), s.min);
	/* monotone in p */
	{
		uint64_t prev = 0;
		double p;

		for (p = 0.5; p <= 100.0; p += 0.5) {
			uint64_t v = stats_percentile(&s, p);

			cr_assert_geq(v, prev, "p%.1f", p);
			prev = v;
		}
	}
}

Test(stats, percentile_rank_rounding)
{
	struct stats s;
	int i;

	/* 1 x 3, 998 x 5, 1 x 100: rank 999 of 1000 is 5, rank 1000 is 100 */
	stats_init(&s);
	stats_add(&s, 3);
	for (i = 0; i < 998; i++)
		stats_add(&s, 5);
	stats_add(&s, 100);
	cr_assert_eq(stats_percentile(&s, 0.1), 3);
	cr_assert_eq(stats_percentile(&s, 0.15), 5);
	cr_assert_eq(stats_percentile(&s, 0.2), 5);
	cr_assert_eq(stats_percentile(&s, 99.9), 5);
	cr_assert_eq(stats_percentile(&s, 99.91), 100);
	cr_assert_eq(stats_percentile(&s, 99.99), 100);
	cr_assert_eq(stats_percentile(&s, 100.0), 100);
}

Test(stats, percentile_extreme_ranks_exact)
{
	struct stats s;
	int i;

	/* 1000 and 1006 share bucket [1000, 1007] (midpoint 1003), as do 5000 and 5001 */
	stats_init(&s);
	stats_add(&s, 1006);
	stats_add(&s, 1000);
	for (i = 0; i < 97; i++)
		stats_add(&s, 3000);
	stats_add(&s, 5001);
	cr_assert_eq(stats_bucket_index(1000), stats_bucket_index(1006));
	/* rank 1 and rank count are the exact min and max, not a bucket midpoint */
	cr_assert_eq(stats_percentile(&s, 1.0), 1000);
	cr_assert_eq(stats_percentile(&s, 100.0), 5001);
	cr_assert_eq(stats_percentile(&s, 99.5), 5001);
	/* rank 2 reports the bucket midpoint */
	cr_assert_eq(stats_percentile(&s, 2.0), 1003);
}

Test(stats, percentile_exact_small_values)
{
	uint64_t *v = alloc_samples(10000);
	uint64_t st = 99;
	size_t i;
	struct stats s;

	for (i = 0; i < 10000; i++)
		v[i] = rng_next(&st) % (2 * (uint64_t)STATS_SUB_COUNT);
	fill(&s, v, 10000);
	qsort(v, 10000, sizeof(*v), cmp_u64);
	for (i = 1; i <= 10000; i += 37) {
		double p = (double)i / 100.0;

		cr_assert_eq(stats_percentile(&s, p), v[(i * 10000 + 9999) / 10000 - 1]);
	}
	free(v);
}

Test(stats, percentile_uniform)
{
	const size_t n = 100000;
	uint64_t *v = alloc_samples(n);
	uint64_t st = 0x1234567;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = rng_next(&st) % 10000000;
	check_percentiles(v, n);
	free(v);
}

Test(stats, percentile_uniform_wide)
{
	const size_t n = 100000;
	uint64_t *v = alloc_samples(n);
	uint64_t st = 0xfeedface;
	size_t i;

	/* full 64-bit range, exercising the top groups */
	for (i = 0; i < n; i++)
		v[i] = rng_next(&st);
	check_percentiles(v, n);
	free(v);
}

Test(stats, percentile_lognormal)
{
	const size_t n = 100000;
	uint64_t *v = alloc_samples(n);
	uint64_t st = 0xabcdef01;
	size_t i;

	/* median ~100 us, sigma 1.5: a heavy right tail into the seconds */
	for (i = 0; i < n; i++)
		v[i] = to_u64(exp(log(100000.0) + 1.5 * rng_normal(&st)));
	check_percentiles(v, n);
	free(v);
}

Test(stats, percentile_pareto_with_outliers)
{
	const size_t n = 100003;
	uint64_t *v = alloc_samples(n);
	uint64_t st = 0x5eed;
	size_t i;

	/* Pareto alpha 1.1 from 20 us, plus a handful of absurd outliers */
	for (i = 0; i < n - 3; i++)
		v[i] = to_u64(20000.0 / pow(rng_unit(&st), 1.0 / 1.1));
	v[n - 3] = UINT64_MAX;
	v[n - 2] = UINT64_MAX / 3;
	v[n - 1] = UINT64_C(1000000000000000);
	check_percentiles(v, n);
	free(v);
}

Test(stats, percentile_constant)
{
	static const uint64_t consts[] = { 0, 42, 1000, 123456789, UINT64_MAX };
	const size_t n = 5000;
	uint64_t *v = alloc_samples(n);
	size_t i, k;

	for (k = 0; k < sizeof(consts) / sizeof(consts[0]); k++) {
		struct stats s;

		for (i = 0; i < n; i++)
			v[i] = consts[k];
		fill(&s, v, n);
		/* clamping to [min, max] makes a constant exact */
		cr_assert_eq(stats_percentile(&s, 1.0), consts[k]);
		cr_assert_eq(stats_percentile(&s, 50.0), consts[k]);
		cr_assert_eq(stats_percentile(&s, 99.99), consts[k]);
		check_percentiles(v, n);
	}
	free(v);
}

Test(stats, percentile_bimodal)
{
	const size_t n = 100000;
	uint64_t *v = alloc_samples(n);
	uint64_t st = 0xb1b0;
	size_t i;

	/* cache hits at 100 us, misses at 8.5 ms, 90/10, shuffled */
	for (i = 0; i < n; i++)
		v[i] = rng_next(&st) % 10 == 0 ? 8500000 : 100000;
	check_percentiles(v, n);
	free(v);
}

/* A series added at once is exactly the same as its samples added one by one. */
Test(stats, add_series_exact)
{
	static const uint64_t cases[][3] = {
		/* hi, step, n */
		{ 999000000, 1000000, 999 }, { 1000, 1, 1000 }, { 5000000000ull, 3, 100000 },
		{ 77, 7, 12 }, { 1ull << 40, 1ull << 20, 1ull << 20 }, { 123456789, 1, 64 },
		{ 10, 0, 100 }, { 100, 7, 1000 /* cut at 15 samples: none below 0 */ },
	};
	static struct stats got, want;

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		uint64_t hi = cases[c][0], step = cases[c][1], n = cases[c][2];

		stats_init(&got);
		stats_init(&want);
		stats_add(&got, 42);
		stats_add(&want, 42);
		stats_add_series(&got, hi, step, n);
		for (uint64_t j = 0; j < n && (!step || j <= hi / step); j++)
			stats_add(&want, hi - j * step);
		cr_assert_eq(got.count, want.count, "case %zu: count", c);
		cr_assert_eq(got.sum, want.sum, "case %zu: sum", c);
		cr_assert_eq(got.min, want.min, "case %zu: min", c);
		cr_assert_eq(got.max, want.max, "case %zu: max", c);
		cr_assert(!memcmp(got.hist, want.hist, sizeof(got.hist)), "case %zu: histogram", c);
		cr_assert(fabs(got.mean - want.mean) <= 1e-9 * (want.mean + 1), "case %zu: mean", c);
		cr_assert(fabs(got.m2 - want.m2) <= 1e-6 * (want.m2 + 1), "case %zu: m2 %g %g", c,
			  got.m2, want.m2);
	}
}
