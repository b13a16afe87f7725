/*
 * Tests for src/bpf/layers.c: a request's layers read from the record the
 * eBPF programs fill (layers_abi.h) — the probe's own bio, a bio the
 * blk-throttle's worker queued (with and without the probe's sleep seen), a
 * split into pieces, the page cache (no block event), events before the
 * start, and the record's setup, begin and end.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "layers.h"

#define US UINT64_C(1000)
#define T0 (UINT64_C(1000000) * US)

/* A record of one request queued at T0 + q, issued at + i, complete at + c (us). */
static struct layers_area rec(uint64_t q, uint64_t i, uint64_t c)
{
	struct layers_area a;

	memset(&a, 0, sizeof(a));
	a.queue = T0 + q * US;
	a.issue = T0 + i * US;
	a.complete = T0 + c * US;
	a.queued = a.issues = a.completes = 1;
	return a;
}

Test(layers, own_bio)
{
	struct layers_area a = rec(12, 15, 76);
	struct layer_times l;

	a.sleep = T0 + 13 * US; /* the probe slept after queueing: no throttle */
	layers_decode(&a, T0, &l);
	cr_assert(l.measured);
	cr_assert_not(l.no_device);
	cr_assert_eq(l.submit, 12 * US);
	cr_assert_eq(l.throttle, 0);
	cr_assert_eq(l.queue, 3 * US);
	cr_assert_eq(l.device, 61 * US);
	cr_assert_eq(l.pieces, 1);
}

Test(layers, worker_queued_after_sleep)
{
	struct layers_area a = rec(24600, 24603, 24664);
	struct layer_times l;

	a.worker = 1;
	a.sleep = T0 + 12 * US;
	layers_decode(&a, T0, &l);
	cr_assert_eq(l.submit, 12 * US);
	cr_assert_eq(l.throttle, (24600 - 12) * US);
	cr_assert_eq(l.queue, 3 * US);
	cr_assert_eq(l.device, 61 * US);
	/* the layers add up to the last completion */
	cr_assert_eq(l.submit + l.throttle + l.queue + l.device, 24664 * US);
}

Test(layers, worker_queued_without_sleep)
{
	struct layers_area a = rec(5000, 5001, 5002);
	struct layer_times l;

	a.worker = 1; /* the probe polled: no sleep seen, the whole wait is the throttle's */
	layers_decode(&a, T0, &l);
	cr_assert_eq(l.submit, 0);
	cr_assert_eq(l.throttle, 5000 * US);
}

Test(layers, sleep_after_the_queue_is_clamped)
{
	struct layers_area a = rec(100, 101, 102);
	struct layer_times l;

	a.worker = 1;
	a.sleep = T0 + 200 * US; /* a later sleep: the submission ends at the queue at most */
	layers_decode(&a, T0, &l);
	cr_assert_eq(l.submit, 100 * US);
	cr_assert_eq(l.throttle, 0);
}

Test(layers, pieces)
{
	struct layers_area a = rec(10, 20, 300);
	struct layer_times l;

	a.queued = 4;
	a.issues = a.completes = 4;
	a.splits = 3;
	layers_decode(&a, T0, &l);
	cr_assert_eq(l.pieces, 4);
	cr_assert_eq(l.queue, 10 * US);
	cr_assert_eq(l.device, 280 * US); /* first issue to last completion */
}

Test(layers, page_cache)
{
	struct layers_area a;
	struct layer_times l;

	memset(&a, 0, sizeof(a));
	a.sleep = T0 + US; /* a sleep alone is no device request */
	layers_decode(&a, T0, &l);
	cr_assert(l.measured);
	cr_assert(l.no_device);
	cr_assert_eq(l.pieces, 0);
	cr_assert_eq(l.submit + l.throttle + l.queue + l.device, 0);
}

Test(layers, queued_never_issued)
{
	struct layers_area a = rec(10, 0, 0);
	struct layer_times l;

	a.issues = a.completes = 0; /* e.g. failed before a block request was made */
	a.issue = a.complete = 0;
	layers_decode(&a, T0, &l);
	cr_assert_not(l.no_device);
	cr_assert_eq(l.submit, 10 * US);
	cr_assert_eq(l.queue, 0);
	cr_assert_eq(l.device, 0);
}

Test(layers, events_before_the_start_count_from_it)
{
	struct layers_area a = rec(0, 0, 5);
	struct layer_times l;

	a.queue = T0 - 3 * US; /* noted between begin and the probe's clock read */
	a.issue = T0 - 2 * US;
	layers_decode(&a, T0, &l);
	cr_assert_eq(l.submit, 0);
	cr_assert_eq(l.queue, 0);
	cr_assert_eq(l.device, 5 * US);
}

Test(layers, begin_clears_and_publishes_end_closes)
{
	struct layers_area a;
	struct layer_times l;

	memset(&a, 0xff, sizeof(a));
	layers_setup(&a, 4242, layers_dev(makedev(7, 3)));
	cr_assert_eq(a.seq, 0);
	cr_assert_eq(a.tgid, 4242);
	cr_assert_eq(a.dev, 7u << 20 | 3);
	layers_begin(&a, 9, 8192, 512 * 1024);
	cr_assert_eq(a.seq, 9);
	cr_assert_eq(a.lo, 16);
	cr_assert_eq(a.hi, 16 + 1024);
	cr_assert_eq(a.queued + a.issues + a.completes + a.worker + a.splits + a.merges, 0);
	cr_assert_eq(a.sleep + a.queue + a.issue + a.complete, 0);
	cr_assert_eq(a.nbios, 0);
	for (int i = 0; i < LAYERS_BIOS; i++) /* was 0xff..: nbios was past the end */
		cr_assert_eq(a.bios[i], 0, "bios[%d] of the last request left", i);
	a.queue = T0 + US;
	a.queued = 1;
	layers_end(&a, T0, &l);
	cr_assert_eq(a.seq, 0);
	cr_assert_eq(l.submit, US);
}

Test(layers, pid_namespace)
{
	struct layers_area a;

	memset(&a, 0xff, sizeof(a));
	layers_pidns(&a, makedev(0, 4), LAYERS_PIDNS_INIT_INO);
	cr_assert_eq(a.ns_dev, 0, "the initial namespace: the kernel's numbers");
	cr_assert_eq(a.ns_ino, 0);
	layers_pidns(&a, makedev(0, 4), 4026532300ull);
	cr_assert_eq(a.ns_dev, 4, "nsfs 0:4 in the kernel's encoding");
	cr_assert_eq(a.ns_ino, 4026532300ull, "a container's namespace: its own numbers");
	layers_pidns(&a, makedev(0, 300), 4026532301ull);
	cr_assert_eq(a.ns_dev, 300, "a minor above 255 in the kernel's encoding");
	layers_pidns(&a, 0, 0);
	cr_assert_eq(a.ns_ino, 0, "unknown: the kernel's numbers");
}

Test(layers, dev_encoding)
{
	cr_assert_eq(layers_dev(0), 0);
	cr_assert_eq(layers_dev(makedev(8, 0)), 8u << 20);
	cr_assert_eq(layers_dev(makedev(259, 65536 + 5)), 259u << 20 | (65536 + 5));
	cr_assert_eq(layers_dev(makedev(4095, 255)), 4095u << 20 | 255);
}

Test(layers, unaligned_range_covers_every_sector)
{
	struct layers_area a;

	memset(&a, 0, sizeof(a));
	layers_begin(&a, 1, 1000, 100); /* bytes 1000..1099: sectors 1 and 2 */
	cr_assert_eq(a.lo, 1);
	cr_assert_eq(a.hi, 3);
}
