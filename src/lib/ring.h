/*
 * ring: a lock-free single-producer / single-consumer queue of fixed-size
 * records (the probe thread produces samples, the UI thread consumes them).
 * The producer never blocks: when the ring is full the record is dropped and
 * counted. Pure: no I/O, no locks; C11 atomics with acquire/release ordering.
 *
 * A ring from ring_init() keeps its resident memory to what is in flight: the
 * producer hands the pages of records the consumer has taken back to the kernel
 * (madvise MADV_DONTNEED, every RING_RETURN_EVERY pushes, or every push for records of
 * a page or more; at 1024, a view's
 * target at one request a second kept 90 KB for 8 minutes) before it comes round
 * to them again, so a ring that is drained as it fills costs a few pages, not
 * its capacity, however long it runs (a 65,536-record ring touched as it filled
 * grew a view of 8 targets at 1 kHz from 13 to 56 MB over its first minute).
 */
#ifndef IOPROBE_RING_H
#define IOPROBE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring {
	unsigned char *data;      /* capacity * rec_size bytes */
	size_t rec_size;
	uint64_t capacity;        /* a power of two */
	_Atomic uint64_t head;    /* next slot the producer writes (producer-owned) */
	_Atomic uint64_t tail;    /* next slot the consumer reads (consumer-owned) */
	_Atomic uint64_t dropped; /* records lost because the ring was full */
	bool returns;             /* consumed pages go back (ring_init(), ring_hand_back()) */
	bool shared;              /* ... from a MAP_SHARED mapping: MADV_REMOVE */
	bool owned;               /* ring_init() mapped the storage: ring_free() unmaps it */
	size_t bytes;             /* its length */
	uint64_t returned;        /* producer: slots below this were handed back or skipped */
	uint64_t every;           /* producer: hands back every this many pushes (a power of two) */
};

/*
 * The producer hands consumed pages back every this many pushes (a power of two) — at every
 * push when a record fills a page or more (a probe's period tallies, 60 KB each: sixteen
 * waiting slots touched between two hand-backs kept the whole ring resident).
 */
#define RING_RETURN_EVERY 64u

/*
 * Allocate a ring of at least capacity records of rec_size bytes (capacity is
 * rounded up to a power of two) in a private mapping whose pages are touched
 * only as records arrive and handed back once consumed. Returns 0 or
 * -ENOMEM / -EINVAL.
 */
int ring_init(struct ring *r, size_t rec_size, uint64_t capacity);

/*
 * Use capacity records of rec_size bytes at data (the caller's storage, e.g. a
 * mapping shared with a child process; capacity a power of two). Never give
 * such a ring to ring_free(). Returns 0 or -EINVAL.
 */
int ring_init_at(struct ring *r, void *data, size_t rec_size, uint64_t capacity);

/*
 * Hand consumed pages back on a ring_init_at() ring too (call before the first push): its
 * storage must be an anonymous mapping, MAP_SHARED when shared (its pages are removed from
 * the shared memory, MADV_REMOVE: a probe's process writes a ring its parent reads).
 */
void ring_hand_back(struct ring *r, bool shared);

/* Producer: whether a push would be dropped now (only the consumer can change that). */
bool ring_full(struct ring *r);

/* Free the storage (no other thread may use the ring any more). */
void ring_free(struct ring *r);

/* Producer: copy rec in. Returns true, or false (and counts a drop) when full. */
bool ring_push(struct ring *r, const void *rec);

/* Consumer: copy the oldest record to rec. Returns false when empty. */
bool ring_pop(struct ring *r, void *rec);

/* Records waiting (a snapshot; exact for the consumer's own view). */
uint64_t ring_count(struct ring *r);

/* Bytes of r's storage resident in memory now (mincore), or -errno. For tests and --debug. */
long ring_resident(const struct ring *r);

#endif
