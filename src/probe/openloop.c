#include "config.h"

#include "openloop.h"

void openloop_init(struct openloop *s, uint64_t first, uint64_t interval, uint64_t burst,
		unsigned depth)
{
	s->anchor = first;
	s->interval = interval;
	s->burst = burst ? burst : 1;
	s->slot = 0;
	s->done = 0;
	s->depth = depth ? depth : 1;
	s->inflight = 0;
}

uint64_t openloop_due(const struct openloop *s)
{
	uint64_t off, due;

	if (__builtin_mul_overflow(s->slot / s->burst, s->interval, &off) ||
	    __builtin_add_overflow(s->anchor, off, &due))
		return UINT64_MAX;
	return due;
}

uint64_t openloop_wait(const struct openloop *s, uint64_t now)
{
	uint64_t due;

	if (s->inflight >= s->depth)
		return UINT64_MAX;
	if (!s->interval)
		return 0;
	due = openloop_due(s);
	return due <= now ? 0 : due;
}

uint64_t openloop_start(struct openloop *s, uint64_t now)
{
	uint64_t due = s->interval ? openloop_due(s) : now;

	s->slot++;
	s->inflight++;
	return due;
}

bool openloop_complete(struct openloop *s)
{
	if (s->inflight)
		s->inflight--;
	s->done++;
	return s->burst > 1 && s->done % s->burst == 0;
}

void openloop_rebase(struct openloop *s, uint64_t now, uint64_t interval)
{
	s->anchor = now;
	s->interval = interval;
	s->slot = 0;
}
