/*
 * stats: latency statistics over uint64_t nanosecond samples. Pure: no I/O,
 * no clocks, no printing.
 *
 * Welford's running mean/variance (no sum-of-squares cancellation), exact
 * min/max/sum, and a log-linear histogram (HdrHistogram/fio style) with
 * bounded memory (~30 KiB) and <= 1 % relative error on every percentile:
 * values below 2^(STATS_SUB_BITS+1) ns are exact; above, each power of two is
 * split into 2^STATS_SUB_BITS linear buckets and a bucket reports its
 * midpoint. stats_bucket_low/high return UINT64_MAX for an index past the end.
 */
#ifndef IOPROBE_STATS_H
#define IOPROBE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_SUB_BITS 6
#define STATS_SUB_COUNT (1u << STATS_SUB_BITS)
/* group 0 covers [0, 2*SUB_COUNT) exactly; one more group per further power of two */
#define STATS_GROUPS (64 - STATS_SUB_BITS)
#define STATS_BUCKETS ((STATS_GROUPS + 1) * STATS_SUB_COUNT)

struct stats {
	uint64_t count; /* samples added */
	uint64_t sum;   /* sum of samples, ns (saturates at UINT64_MAX) */
	uint64_t min;   /* UINT64_MAX when empty */
	uint64_t max;   /* 0 when empty */
	double mean;    /* Welford running mean */
	double m2;      /* Welford sum of squared deviations */
	uint64_t hist[STATS_BUCKETS];
};

/* Reset s to the empty state. */
void stats_init(struct stats *s);

/* Add one sample (ns). */
void stats_add(struct stats *s, uint64_t ns);

/*
 * Add the n samples hi, hi - step, ..., hi - (n - 1) * step at once (the
 * response times of skipped schedule slots). n is cut so that no sample is
 * below 0. Exact: the same histogram, count, sum, min and max as n calls to
 * stats_add(); mean and m2 in closed form. O(buckets) at most.
 */
void stats_add_series(struct stats *s, uint64_t hi, uint64_t step, uint64_t n);

/* Add every sample of src into dst (Chan et al. parallel merge for mean/m2). */
void stats_merge(struct stats *dst, const struct stats *src);

/* Mean in ns; 0 when empty. */
double stats_mean(const struct stats *s);

/* Population standard deviation (ioping's "mdev") in ns; 0 when count < 2. */
double stats_mdev(const struct stats *s);

/* min, or 0 when empty (what the report prints). */
uint64_t stats_min(const struct stats *s);

/*
 * The p-th percentile (0 < p <= 100), nearest-rank on the histogram: the
 * value of the bucket holding the ceil(p/100*count)-th smallest sample,
 * clamped to [min, max]. 0 when empty.
 */
uint64_t stats_percentile(const struct stats *s, double p);

/* Index of the bucket that holds ns. */
size_t stats_bucket_index(uint64_t ns);

/* Smallest value that lands in bucket i, and the largest. */
uint64_t stats_bucket_low(size_t i);
uint64_t stats_bucket_high(size_t i);

#endif
