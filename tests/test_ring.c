#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

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

/*
 * The pages of consumed records go back to the kernel: a ring of 65,536 records of 80 bytes
 * (5 MiB, a view's per-target ring) pushed 10 times round with the consumer 100 records
 * behind stays within a few pages resident, where touching it as it filled kept all 5 MiB.
 */
Test(ring, consumed_pages_go_back)
{
	struct ring r;
	unsigned char rec[80] = { 0 }, out[80];
	long page = sysconf(_SC_PAGESIZE), resident, most = 0;

	cr_assert_eq(ring_init(&r, sizeof(rec), 65536), 0);
	cr_assert_eq(ring_resident(&r), 0, "nothing resident before the first record");
	for (uint64_t i = 0; i < 10 * 65536ull; i++) {
		memcpy(rec, &i, sizeof(i));
		cr_assert(ring_push(&r, rec));
		if (i >= 100) {
			uint64_t want = i - 100, got;

			cr_assert(ring_pop(&r, out));
			memcpy(&got, out, sizeof(got));
			cr_assert_eq(got, want, "record %llu came back as %llu",
				     (unsigned long long)want, (unsigned long long)got);
		}
		if (!(i % 4096)) {
			resident = ring_resident(&r);
			cr_assert_geq(resident, 0);
			if (resident > most)
				most = resident;
		}
	}
	cr_assert_leq(most, 8 * 1024 + 2 * RING_RETURN_EVERY * 80 + 4 * page,
		      "at most %ld bytes resident, of %zu", most, r.bytes);
	ring_free(&r);
}

/* A full ring still drops and counts, and its records survive the hand-back. */
Test(ring, full_ring_keeps_its_records)
{
	struct ring r;
	uint64_t v, got;

	cr_assert_eq(ring_init(&r, sizeof(v), 4096), 0);
	for (v = 0; v < 5000; v++)
		ring_push(&r, &v);
	cr_assert_eq(atomic_load(&r.dropped), 5000 - 4096);
	for (v = 0; v < 4096; v++) {
		cr_assert(ring_pop(&r, &got));
		cr_assert_eq(got, v);
	}
	for (v = 0; v < 3 * 4096; v++) {
		cr_assert(ring_push(&r, &v));
		cr_assert(ring_pop(&r, &got));
		cr_assert_eq(got, v);
	}
	ring_free(&r);
}

/* A ring in a shared mapping (a probe's process writes it, its parent reads it) hands back
 * too: its pages are removed from the shared memory, and a reader in another process sees
 * every record intact. */
Test(ring, shared_ring_hands_back_across_a_fork)
{
	size_t bytes = 4096 * 88;
	unsigned char *data = mmap(NULL, bytes + sizeof(struct ring), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct ring *r;
	unsigned char rec[88] = { 0 };
	long most = 0;
	pid_t pid;
	int st;

	cr_assert_neq(data, MAP_FAILED);
	r = (struct ring *)(void *)(data + bytes);
	cr_assert_eq(ring_init_at(r, data, sizeof(rec), 4096), 0);
	ring_hand_back(r, true);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) { /* the producer: 10 times round, never more than 100 ahead */
		for (uint64_t i = 0; i < 10 * 4096ull; i++) {
			while (ring_count(r) >= 100)
				;
			memcpy(rec, &i, sizeof(i));
			ring_push(r, rec);
		}
		_exit(0);
	}
	for (uint64_t i = 0; i < 10 * 4096ull; i++) {
		uint64_t got;

		while (!ring_pop(r, rec))
			;
		memcpy(&got, rec, sizeof(got));
		cr_assert_eq(got, i);
		if (!(i % 1024)) {
			long res = ring_resident(r);

			most = res > most ? res : most;
		}
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && !WEXITSTATUS(st));
	cr_assert_leq(most, 100 * 88 + 2 * RING_RETURN_EVERY * 88 + 4 * 4096,
		      "at most %ld bytes resident, of %zu", most, bytes);
	munmap(data, bytes + sizeof(struct ring));
}

/*
 * Records of a page or more (a probe's period tallies, 60 KB) go back at every push: sixteen
 * slots pushed and taken one at a time for 20 rounds keep a few records resident, not the
 * ring (before, a hand-back every 64 pushes never came before the 16 slots were all touched).
 */
Test(ring, page_sized_records_go_back_at_every_push)
{
	enum { REC = 60 * 1024, CAP = 16 };
	size_t bytes = (size_t)REC * CAP;
	unsigned char *data = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static unsigned char rec[REC], out[REC];
	struct ring r;
	long most = 0;

	cr_assert_neq(data, MAP_FAILED);
	cr_assert_eq(ring_init_at(&r, data, REC, CAP), 0);
	ring_hand_back(&r, true);
	for (uint64_t i = 0; i < 20 * CAP; i++) {
		long res;

		memset(rec, (int)(i & 0xff) | 1, sizeof(rec));
		cr_assert(ring_push(&r, rec));
		cr_assert(ring_pop(&r, out));
		cr_assert_eq(out[REC - 1], rec[REC - 1], "record %llu came back whole",
			     (unsigned long long)i);
		res = ring_resident(&r);
		cr_assert_geq(res, 0);
		most = res > most ? res : most;
	}
	cr_assert_leq(most, 4 * REC, "at most %ld bytes resident, of %zu", most, bytes);
	munmap(data, bytes);
}
