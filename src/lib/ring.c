#include "config.h"

#include "ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The page size, asked of the system once (the producer hands pages back every few pushes). */
static size_t ring_page(void)
{
	static _Atomic size_t page;
	size_t p = atomic_load_explicit(&page, memory_order_relaxed);

	if (!p) {
		long v = sysconf(_SC_PAGESIZE);

		p = v > 0 ? (size_t)v : 4096;
		atomic_store_explicit(&page, p, memory_order_relaxed);
	}
	return p;
}

/* Records of a page or more go back at every push; smaller ones every RING_RETURN_EVERY. */
static uint64_t ring_every(size_t rec_size)
{
	return rec_size >= ring_page() ? 1 : RING_RETURN_EVERY;
}

int ring_init_at(struct ring *r, void *data, size_t rec_size, uint64_t capacity)
{
	memset(r, 0, sizeof(*r));
	if (!data || !rec_size || !capacity || (capacity & (capacity - 1)))
		return -EINVAL;
	r->data = data;
	r->rec_size = rec_size;
	r->capacity = capacity;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return 0;
}

int ring_init(struct ring *r, size_t rec_size, uint64_t capacity)
{
	uint64_t cap = 1;
	void *data;

	memset(r, 0, sizeof(*r));
	if (!rec_size || !capacity || capacity > (UINT64_C(1) << 32))
		return -EINVAL;
	while (cap < capacity)
		cap <<= 1;
	if (cap > SIZE_MAX / rec_size)
		return -ENOMEM;
	data = mmap(NULL, (size_t)cap * rec_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED)
		return -ENOMEM;
	ring_init_at(r, data, rec_size, cap);
	r->returns = r->owned = true;
	r->every = ring_every(rec_size);
	r->bytes = (size_t)cap * rec_size;
	return 0;
}

void ring_hand_back(struct ring *r, bool shared)
{
	r->returns = true;
	r->every = ring_every(r->rec_size);
	r->shared = shared;
	r->bytes = (size_t)r->capacity * r->rec_size;
}

bool ring_full(struct ring *r)
{
	return ring_count(r) >= r->capacity;
}

void ring_free(struct ring *r)
{
	if (r->data && r->owned)
		munmap(r->data, r->bytes);
	r->data = NULL;
}

/* Hand back the whole pages of physical bytes [from, to) of r's storage. */
static void ring_return_bytes(struct ring *r, size_t from, size_t to)
{
	size_t page = ring_page();
	uintptr_t a = ((uintptr_t)r->data + from + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t b = ((uintptr_t)r->data + to) & ~(uintptr_t)(page - 1);

	if (b > a) /* advice: a failure costs memory only */
		madvise((void *)a, b - a, r->shared ? MADV_REMOVE : MADV_DONTNEED);
}

/*
 * Producer: hand back the pages of slots the consumer has taken that the producer has not
 * reached again: old slots [max(returned, head - capacity), tail), which live where the
 * free slots [head, tail + capacity) will be written. Only whole pages inside that byte
 * range go (a page shared with a waiting record stays); the producer is the only writer, and
 * it writes none of them before it comes round, so a page comes back as zeros when it does.
 */
static void ring_return(struct ring *r, uint64_t head)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
	uint64_t from = head > r->capacity ? head - r->capacity : 0;
	uint64_t mask = r->capacity - 1, back;
	size_t a, b;

	if (r->returned > from)
		from = r->returned;
	if (from >= tail)
		return;
	/* the page holding tail's record is left (shared with waiting records): start the next
	 * range a page of slots back, so that page goes once it is all consumed */
	back = (uint64_t)(ring_page() / r->rec_size + 2);
	r->returned = tail > from + back ? tail - back : from;
	if (tail - from >= r->capacity)
		from = tail - r->capacity;
	a = (size_t)(from & mask) * r->rec_size;
	b = (size_t)(tail & mask) * r->rec_size;
	if (a < b) {
		ring_return_bytes(r, a, b);
	} else {
		ring_return_bytes(r, a, r->bytes);
		ring_return_bytes(r, 0, b);
	}
}

bool ring_push(struct ring *r, const void *rec)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= r->capacity) {
		atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
		return false;
	}
	if (r->returns && !(head & (r->every - 1)))
		ring_return(r, head);
	memcpy(r->data + (head & (r->capacity - 1)) * r->rec_size, rec, r->rec_size);
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

bool ring_pop(struct ring *r, void *rec)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	if (tail == head)
		return false;
	memcpy(rec, r->data + (tail & (r->capacity - 1)) * r->rec_size, r->rec_size);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return true;
}

uint64_t ring_count(struct ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_acquire) -
	       atomic_load_explicit(&r->tail, memory_order_acquire);
}

long ring_resident(const struct ring *r)
{
	size_t page = ring_page();
	uintptr_t a = (uintptr_t)r->data & ~(uintptr_t)(page - 1);
	size_t len = (uintptr_t)r->data + r->capacity * r->rec_size - a;
	size_t n = (len + page - 1) / page;
	unsigned char *vec;
	long resident = 0;

	if (!r->data)
		return -EINVAL;
	vec = malloc(n);
	if (!vec)
		return -ENOMEM;
	if (mincore((void *)a, len, vec)) {
		free(vec);
		return -errno;
	}
	for (size_t i = 0; i < n; i++)
		resident += vec[i] & 1;
	free(vec);
	return resident * (long)page;
}
