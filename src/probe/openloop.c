#include "config.h"

#include "openloop.h"

#include <math.h>

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
	s->poisson = false;
	s->next = first;
}

void openloop_poisson(struct openloop *s, uint64_t seed)
{
	s->next = openloop_due(s);
	s->poisson = true;
	rng_seed(&s->rng, seed);
}

uint64_t openloop_exp_gap(struct rng *r, uint64_t mean_ns)
{
	double u = (double)((rng_next(r) >> 11) + 1) * 0x1p-53; /* (0, 1] */
	double gap = -log(u) * (double)mean_ns;

	return gap >= 0x1p64 ? UINT64_MAX : (uint64_t)gap;
}

uint64_t openloop_due(const struct openloop *s)
{
	uint64_t off, due;

	if (s->poisson)
		return s->next;

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
	if (s->poisson && s->interval && s->slot % s->burst == 0 &&
	    __builtin_add_overflow(s->next, openloop_exp_gap(&s->rng, s->interval), &s->next))
		s->next = UINT64_MAX;
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
	s->next = now;
}
