#include "config.h"

#include "pacer.h"

void pacer_init(struct pacer *p, uint64_t first, uint64_t interval, uint64_t burst)
{
	p->interval = interval;
	p->burst = burst > 1 ? burst : 0;
	p->due = first;
	p->in_burst = 0;
	p->skipped = 0;
	p->last_skipped = 0;
	p->skip_first = 0;
}

bool pacer_next(struct pacer *p, uint64_t end)
{
	bool burst_done = false;

	p->last_skipped = 0;
	if (p->burst) {
		if (++p->in_burst < p->burst)
			return false; /* the rest of the burst is due at once */
		p->in_burst = 0;
		burst_done = true;
	}
	/* saturate: an interval near 2^64 (-r 1e-11) must not wrap the schedule */
	p->due = p->due > UINT64_MAX - p->interval ? UINT64_MAX : p->due + p->interval;
	if (end > p->due) {
		uint64_t lag = end - p->due;
		uint64_t window = p->interval * 2 > PACER_CATCHUP_MIN ? p->interval * 2 :
								      PACER_CATCHUP_MIN;

		if (!p->interval) {
			p->due = end;
		} else if (lag > window) {
			p->last_skipped = lag / p->interval;
			p->skip_first = p->due;
			p->skipped += p->last_skipped;
			p->due = end;
		}
		/* else: stay anchored; the next requests start at once until caught up */
	}
	return burst_done;
}

void pacer_forget_after(struct pacer *p, uint64_t limit)
{
	uint64_t keep;

	if (!p->last_skipped || !p->interval)
		return;
	if (p->skip_first >= limit)
		keep = 0;
	else /* the slots due at skip_first + k * interval < limit */
		keep = (limit - p->skip_first - 1) / p->interval + 1;
	if (keep >= p->last_skipped)
		return;
	p->skipped -= p->last_skipped - keep;
	p->last_skipped = keep;
}
