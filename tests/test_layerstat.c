/*
 * Tests for src/probe/layerstat.c: the layers of many requests — only valid
 * requests with measured layers count, requests without a device request
 * apart, per-layer means and percentiles, pieces per request, merge.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "layerstat.h"

#define US UINT64_C(1000)

static struct sample smp(uint64_t submit, uint64_t throttle, uint64_t queue, uint64_t device,
			 uint32_t pieces)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.layers = (struct layer_times){ submit, throttle, queue, device, pieces, true, false };
	return s;
}

static struct layer_tally *tally(void)
{
	static struct layer_tally t; /* ~120 KiB: not on the stack */

	layer_tally_init(&t);
	return &t;
}

Test(layerstat, names)
{
	cr_assert_str_eq(layer_name(LAYER_SUBMIT), "submit");
	cr_assert_str_eq(layer_name(LAYER_THROTTLE), "throttle");
	cr_assert_str_eq(layer_name(LAYER_QUEUE), "queue");
	cr_assert_str_eq(layer_name(LAYER_DEVICE), "device");
	cr_assert_str_eq(layer_name(LAYERS_N), "?");
}

Test(layerstat, empty)
{
	struct layer_tally *t = tally();

	cr_assert_eq(t->requests, 0);
	cr_assert_float_eq(layer_tally_pieces(t), 0.0, 1e-12);
	cr_assert_eq(stats_percentile(&t->layer[LAYER_DEVICE], 99), 0);
}

Test(layerstat, means_and_percentiles)
{
	struct layer_tally *t = tally();

	for (uint64_t i = 1; i <= 100; i++) {
		struct sample s = smp(10 * US, 0, 3 * US, i * US, 1);

		layer_tally_add(t, &s, NOTICE_NONE);
	}
	cr_assert_eq(t->requests, 100);
	cr_assert_eq(t->no_device, 0);
	cr_assert_float_eq(stats_mean(&t->layer[LAYER_SUBMIT]), 10000.0, 1e-6);
	cr_assert_float_eq(stats_mean(&t->layer[LAYER_THROTTLE]), 0.0, 1e-6);
	cr_assert_float_eq(stats_mean(&t->layer[LAYER_DEVICE]), 50500.0, 1e-6);
	/* stats.h's histogram: within 1 % */
	cr_assert_float_eq((double)stats_percentile(&t->layer[LAYER_DEVICE], 50), 50000.0, 500.0);
	cr_assert_float_eq((double)stats_percentile(&t->layer[LAYER_DEVICE], 99), 99000.0, 990.0);
	cr_assert_float_eq(layer_tally_pieces(t), 1.0, 1e-12);
}

Test(layerstat, only_valid_measured_requests)
{
	struct layer_tally *t = tally();
	struct sample s = smp(1, 2, 3, 4, 4);
	struct sample off = smp(1, 2, 3, 4, 4);
	enum notice skip[] = { NOTICE_WARMUP, NOTICE_TOO_FAST, NOTICE_TOO_SLOW, NOTICE_ERROR,
			       NOTICE_EMPTY };

	off.layers.measured = false;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		layer_tally_add(t, &s, skip[i]);
	layer_tally_add(t, &off, NOTICE_NONE);
	cr_assert_eq(t->requests, 0);
	layer_tally_add(t, &s, NOTICE_FAST);
	layer_tally_add(t, &s, NOTICE_SLOW);
	layer_tally_add(t, &s, NOTICE_NONE);
	cr_assert_eq(t->requests, 3);
	cr_assert_eq(t->layer[LAYER_QUEUE].count, 3);
}

Test(layerstat, no_device_apart)
{
	struct layer_tally *t = tally();
	struct sample dev = smp(0, 0, 0, 100 * US, 4);
	struct sample cache = smp(0, 0, 0, 0, 0);

	cache.layers.no_device = true;
	layer_tally_add(t, &dev, NOTICE_NONE);
	layer_tally_add(t, &dev, NOTICE_NONE);
	layer_tally_add(t, &cache, NOTICE_NONE);
	cr_assert_eq(t->requests, 3);
	cr_assert_eq(t->no_device, 1);
	cr_assert_eq(t->layer[LAYER_DEVICE].count, 2); /* the cached one adds no zero */
	cr_assert_float_eq(layer_tally_pieces(t), 4.0, 1e-12);
}

Test(layerstat, merge)
{
	static struct layer_tally a, b;
	struct sample s1 = smp(1 * US, 0, 0, 10 * US, 1);
	struct sample s2 = smp(3 * US, 0, 0, 30 * US, 3);

	layer_tally_init(&a);
	layer_tally_init(&b);
	layer_tally_add(&a, &s1, NOTICE_NONE);
	layer_tally_add(&b, &s2, NOTICE_NONE);
	b.no_device = 5;
	b.requests += 5;
	layer_tally_merge(&a, &b);
	cr_assert_eq(a.requests, 7);
	cr_assert_eq(a.no_device, 5);
	cr_assert_eq(a.pieces, 4);
	cr_assert_float_eq(stats_mean(&a.layer[LAYER_SUBMIT]), 2000.0, 1e-6);
	cr_assert_float_eq(layer_tally_pieces(&a), 2.0, 1e-12);
}
