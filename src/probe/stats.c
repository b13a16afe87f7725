#include "config.h"

#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/*
 * Bucket layout (S = STATS_SUB_BITS, C = STATS_SUB_COUNT = 2^S):
 *
 *   values v < 2*C:  bucket v, exact (group 0, 2*C buckets);
 *   values v >= 2*C: with msb = floor(log2 v) and shift = msb - S >= 1, the
 *                    power of two [2^msb, 2^(msb+1)) is split into C buckets of
 *                    width 2^shift, and v lands in (shift << S) + (v >> shift),
 *                    where v >> shift lies in [C, 2*C).
 *
 * shift runs from 1 to 63 - S, so the last index is ((63 - S) << S) + 2*C - 1,
 * i.e. there are (64 - S + 1) * C buckets.  A bucket reports its midpoint,
 * whose distance to any value in the bucket is at most width/2 while every
 * value is >= C * width: relative error <= 1 / (2*C) = 1/128 for S = 6.
 */
#define STATS_EXACT_LIMIT (2 * (uint64_t)STATS_SUB_COUNT)

_Static_assert(STATS_SUB_BITS >= 6 && STATS_SUB_BITS <= 16,
	       "STATS_SUB_BITS must keep the error <= 1 % and the array bounded");
_Static_assert(STATS_BUCKETS == (64 - STATS_SUB_BITS + 1) * STATS_SUB_COUNT,
	       "STATS_BUCKETS must match the bucket mapping exactly");

/* Reset s to the empty state (min = UINT64_MAX, max = 0, all counters 0). */
void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

/* Bucket of ns; always < STATS_BUCKETS. Constant time. */
size_t stats_bucket_index(uint64_t ns)
{
	unsigned int shift;

	if (ns < STATS_EXACT_LIMIT)
		return (size_t)ns;
	/* ns >= 2*C, so ns != 0 and msb >= S + 1 */
	shift = (unsigned int)(63 - __builtin_clzll(ns)) - STATS_SUB_BITS;
	return ((size_t)shift << STATS_SUB_BITS) + (size_t)(ns >> shift);
}

/* Smallest value of bucket i; UINT64_MAX when i >= STATS_BUCKETS. */
uint64_t stats_bucket_low(size_t i)
{
	unsigned int shift;
	uint64_t sub;

	if (i >= STATS_BUCKETS)
		return UINT64_MAX;
	if (i < STATS_EXACT_LIMIT)
		return (uint64_t)i;
	shift = (unsigned int)(i >> STATS_SUB_BITS) - 1;
	sub = (uint64_t)(i & (STATS_SUB_COUNT - 1)) + STATS_SUB_COUNT;
	return sub << shift;
}

/* Largest value of bucket i; UINT64_MAX when i >= STATS_BUCKETS. */
uint64_t stats_bucket_high(size_t i)
{
	unsigned int shift;

	if (i >= STATS_BUCKETS)
		return UINT64_MAX;
	if (i < STATS_EXACT_LIMIT)
		return (uint64_t)i;
	shift = (unsigned int)(i >> STATS_SUB_BITS) - 1;
	return stats_bucket_low(i) + (((uint64_t)1 << shift) - 1);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return UINT64_MAX;
	return r;
}

/* Add one sample: O(1), no loops; one division (the Welford mean update). */
void stats_add(struct stats *s, uint64_t ns)
{
	size_t i = stats_bucket_index(ns);
	double x = (double)ns;
	double delta;

	s->count++;
	s->sum = sat_add(s->sum, ns);
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	delta = x - s->mean;
	s->mean += delta / (double)s->count;
	s->m2 += delta * (x - s->mean);
	s->hist[i]++; /* 64-bit: cannot wrap in any real run */
}

/* dst += src; src may alias dst. Histogram buckets and sum saturate. */
void stats_merge(struct stats *dst, const struct stats *src)
{
	uint64_t na = dst->count, nb = src->count;
	double mean_b = src->mean, m2_b = src->m2;
	double n, delta;
	size_t i;

	if (nb == 0)
		return;
	if (na == 0) {
		if (dst != src)
			*dst = *src;
		return;
	}
	/* Chan, Golub & LeVeque: combine two (count, mean, m2) triples */
	n = (double)na + (double)nb;
	delta = mean_b - dst->mean;
	dst->mean += delta * ((double)nb / n);
	dst->m2 += m2_b + delta * delta * ((double)na * (double)nb / n);
	dst->count = sat_add(na, nb);
	dst->sum = sat_add(dst->sum, src->sum);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < STATS_BUCKETS; i++)
		dst->hist[i] = sat_add(dst->hist[i], src->hist[i]);
}

__extension__ typedef unsigned __int128 stats_u128;

/* Below this many samples a series is added one by one. */
#define STATS_SERIES_LOOP 64

/* Fill h (an empty stats) with the series lo, lo + step, ..., lo + (n - 1) * step. */
static void stats_series_fill(struct stats *h, uint64_t lo, uint64_t step, uint64_t n)
{
	uint64_t hi = lo + (n - 1) * step;
	stats_u128 sum = (stats_u128)lo * n + (stats_u128)step * ((stats_u128)n * (n - 1) / 2);
	double dn = (double)n, ds = (double)step;

	h->count = n;
	h->sum = sum > UINT64_MAX ? UINT64_MAX : (uint64_t)sum;
	h->min = lo;
	h->max = hi;
	h->mean = (double)lo + ds * (dn - 1) / 2;
	h->m2 = ds * ds * (dn - 1) * dn * (dn + 1) / 12; /* n * variance of a uniform grid */
	if (!step) {
		h->hist[stats_bucket_index(lo)] = n;
		return;
	}
	for (size_t i = stats_bucket_index(lo); i <= stats_bucket_index(hi); i++) {
		uint64_t a = stats_bucket_low(i) > lo ? stats_bucket_low(i) : lo;
		uint64_t b = stats_bucket_high(i) < hi ? stats_bucket_high(i) : hi;
		uint64_t first = (a - lo + step - 1) / step, last = (b - lo) / step;

		if (first <= last)
			h->hist[i] = last - first + 1;
	}
}

void stats_add_series(struct stats *s, uint64_t hi, uint64_t step, uint64_t n)
{
	static _Thread_local struct stats h; /* 30 KiB: not on the stack */

	if (!n)
		return;
	if (step && n - 1 > hi / step)
		n = hi / step + 1;
	if (n < STATS_SERIES_LOOP) {
		for (uint64_t j = 0; j < n; j++)
			stats_add(s, hi - j * step);
		return;
	}
	stats_init(&h);
	stats_series_fill(&h, hi - (n - 1) * step, step, n);
	stats_merge(s, &h);
}

/* Mean in ns; 0 when empty. */
double stats_mean(const struct stats *s)
{
	return s->count ? s->mean : 0.0;
}

/* Population standard deviation sqrt(m2 / count); 0 when count < 2. */
double stats_mdev(const struct stats *s)
{
	if (s->count < 2 || !(s->m2 > 0.0))
		return 0.0;
	return sqrt(s->m2 / (double)s->count);
}

/* min, or 0 when empty. */
uint64_t stats_min(const struct stats *s)
{
	return s->count ? s->min : 0;
}

/*
 * Nearest rank ceil(p/100 * total) in [1, total]. A product that lands within
 * rounding noise above an integer (99.9/100 * 1000 = 999.0000000000001) counts
 * as that integer, so exact ranks are not pushed one sample up.
 */
static uint64_t nearest_rank(double p, uint64_t total)
{
	double r = p / 100.0 * (double)total;
	double f;
	uint64_t rank;

	if (r >= (double)total)
		return total;
	f = floor(r);
	rank = (uint64_t)f;
	if (r - f > r * 1e-12)
		rank++;
	if (rank < 1)
		rank = 1;
	return rank < total ? rank : total;
}

/*
 * p-th percentile, nearest rank on the histogram, clamped to [min, max].
 * p <= 0 (or NaN) gives min, p >= 100 gives max, empty gives 0. The lowest
 * and highest ranks give the exact min and max (they are known exactly).
 */
uint64_t stats_percentile(const struct stats *s, double p)
{
	uint64_t total = 0, rank, seen = 0, v;
	size_t i;

	if (s->count == 0)
		return 0;
	if (s->count == 1)
		return s->min; /* every percentile of one sample (an idle exporter's interval) */
	if (!(p > 0.0))
		return s->min;
	if (p >= 100.0)
		return s->max;
	/* == count unless a bucket saturated; ranks must refer to what is stored */
	for (i = 0; i < STATS_BUCKETS; i++)
		total += s->hist[i];
	if (total == 0)
		return s->min;
	rank = nearest_rank(p, total);
	if (rank == 1)
		return s->min;
	if (rank == total)
		return s->max;
	for (i = 0; i < STATS_BUCKETS; i++) {
		seen += s->hist[i];
		if (seen >= rank)
			break;
	}
	if (i == STATS_BUCKETS)
		return s->max;
	v = stats_bucket_low(i) + (stats_bucket_high(i) - stats_bucket_low(i)) / 2;
	if (v < s->min)
		v = s->min;
	if (v > s->max)
		v = s->max;
	return v;
}
