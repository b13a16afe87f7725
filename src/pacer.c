#include "config.h"

#include "pacer.h"

void pacer_init(struct pacer *p, uint64_t first, uint64_t interval, uint64_t burst)
{
	p->interval = interval;
	p->burst = burst > 1 ? burst : 0;
	p->due = first;
	p->in_burst = 0;
	p->skipped = 0;
}

bool pacer_next(struct pacer *p, uint64_t end)
{
	bool burst_done = false;

	if (p->burst) {
		if (++p->in_burst < p->burst)
			return false; /* the rest of the burst is due at once */
		p->in_burst = 0;
		burst_done = true;
	}
	p->due += p->interval;
	if (end > p->due) {
		if (p->interval)
			p->skipped += (end - p->due) / p->interval;
		p->due = end;
	}
	return burst_done;
}
