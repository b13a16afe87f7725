#include "config.h"

#include "ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	data = calloc((size_t)cap, rec_size);
	if (!data)
		return -ENOMEM;
	return ring_init_at(r, data, rec_size, cap);
}

bool ring_full(struct ring *r)
{
	return ring_count(r) >= r->capacity;
}

void ring_free(struct ring *r)
{
	free(r->data);
	r->data = NULL;
}

bool ring_push(struct ring *r, const void *rec)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= r->capacity) {
		atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
		return false;
	}
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
