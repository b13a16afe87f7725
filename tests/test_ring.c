#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>

#include "ring.h"

Test(ring, rounds_capacity_up_and_rejects_bad_sizes)
{
	struct ring r;

	cr_assert_eq(ring_init(&r, 8, 5), 0);
	cr_assert_eq(r.capacity, 8);
	ring_free(&r);
	cr_assert_eq(ring_init(&r, 0, 5), -EINVAL);
	cr_assert_eq(ring_init(&r, 8, 0), -EINVAL);
}

Test(ring, fifo_order_and_empty)
{
	struct ring r;
	uint64_t v;

	cr_assert_eq(ring_init(&r, sizeof(v), 4), 0);
	cr_assert_not(ring_pop(&r, &v));
	for (uint64_t i = 1; i <= 3; i++)
		cr_assert(ring_push(&r, &i));
	cr_assert_eq(ring_count(&r), 3);
	for (uint64_t i = 1; i <= 3; i++) {
		cr_assert(ring_pop(&r, &v));
		cr_assert_eq(v, i);
	}
	cr_assert_not(ring_pop(&r, &v));
	ring_free(&r);
}

Test(ring, full_ring_drops_newest_and_counts)
{
	struct ring r;
	uint64_t v;

	cr_assert_eq(ring_init(&r, sizeof(v), 2), 0);
	for (v = 0; v < 2; v++)
		cr_assert(ring_push(&r, &v));
	v = 99;
	cr_assert_not(ring_push(&r, &v));
	cr_assert_eq(atomic_load(&r.dropped), 1);
	cr_assert(ring_pop(&r, &v));
	cr_assert_eq(v, 0);
	v = 7;
	cr_assert(ring_push(&r, &v)); /* room again after a pop */
	ring_free(&r);
}

Test(ring, wraps_many_times)
{
	struct ring r;
	uint64_t v;

	cr_assert_eq(ring_init(&r, sizeof(v), 4), 0);
	for (uint64_t i = 0; i < 1000; i++) {
		cr_assert(ring_push(&r, &i));
		cr_assert(ring_pop(&r, &v));
		cr_assert_eq(v, i);
	}
	ring_free(&r);
}

struct spsc_arg {
	struct ring *r;
	uint64_t n;
};

static void *producer(void *p)
{
	struct spsc_arg *a = p;

	for (uint64_t i = 0; i < a->n; i++)
		while (!ring_push(a->r, &i))
			atomic_fetch_sub(&a->r->dropped, 1); /* retry: this test wants no loss */
	return NULL;
}

Test(ring, two_threads_see_every_record_in_order)
{
	struct ring r;
	struct spsc_arg a = { &r, 2000000 };
	pthread_t t;
	uint64_t expect = 0, v;

	cr_assert_eq(ring_init(&r, sizeof(v), 1024), 0);
	cr_assert_eq(pthread_create(&t, NULL, producer, &a), 0);
	while (expect < a.n) {
		if (ring_pop(&r, &v)) {
			cr_assert_eq(v, expect, "got %llu, expected %llu", (unsigned long long)v,
				     (unsigned long long)expect);
			expect++;
		}
	}
	pthread_join(t, NULL);
	cr_assert_eq(atomic_load(&r.dropped), 0);
	ring_free(&r);
}
