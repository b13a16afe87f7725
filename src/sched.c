#include "config.h"

#include "sched.h"

void sched_init(struct sched *s, uint64_t first, uint64_t interval, uint64_t burst,
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

uint64_t sched_due(const struct sched *s)
{
	uint64_t off, due;

	if (__builtin_mul_overflow(s->slot / s->burst, s->interval, &off) ||
	    __builtin_add_overflow(s->anchor, off, &due))
		return UINT64_MAX;
	return due;
}

uint64_t sched_wait(const struct sched *s, uint64_t now)
{
	uint64_t due;

	if (s->inflight >= s->depth)
		return UINT64_MAX;
	if (!s->interval)
		return 0;
	due = sched_due(s);
	return due <= now ? 0 : due;
}

uint64_t sched_start(struct sched *s, uint64_t now)
{
	uint64_t due = s->interval ? sched_due(s) : now;

	s->slot++;
	s->inflight++;
	return due;
}

bool sched_complete(struct sched *s)
{
	if (s->inflight)
		s->inflight--;
	s->done++;
	return s->burst > 1 && s->done % s->burst == 0;
}

void sched_rebase(struct sched *s, uint64_t now, uint64_t interval)
{
	s->anchor = now;
	s->interval = interval;
	s->slot = 0;
}
