/*
 * pacer: the request schedule, as absolute deadlines on the monotonic clock.
 * Pure: the caller passes the times in, so tests drive it with a fake clock.
 *
 * Starts are anchored at the run's first start: start k is due at
 * first + k * interval (with -b N, N requests are due together, then the
 * next burst one interval later). A request that ends after the next due
 * time is followed at once; when the schedule is behind by no more than
 * max(2 intervals, PACER_CATCHUP_MIN = 1 ms) it stays anchored, so short
 * stalls do not lower the rate. A longer stall restarts the schedule from the
 * request's end (ioping's rule: no long catch-up bursts), and every slot that
 * passed unused is counted in `skipped`, so coordinated omission is visible
 * instead of silent.
 */
#ifndef IOPROBE_PACER_H
#define IOPROBE_PACER_H

#include <stdbool.h>
#include <stdint.h>

/* Least lag the schedule catches up on, ns (the window is max(this, 2 intervals)). */
#define PACER_CATCHUP_MIN 1000000ull

struct pacer {
	uint64_t interval; /* ns between starts (between bursts with burst > 1) */
	uint64_t burst;    /* requests per burst; 0 or 1 = no bursts */
	uint64_t due;      /* when the next request is due */
	uint64_t in_burst; /* requests issued in the current burst */
	uint64_t skipped;  /* slots that passed unused */
	uint64_t last_skipped; /* slots the last pacer_next() skipped (0: it kept the schedule) */
	uint64_t skip_first;   /* due time of the first of them */
};

/* Start a schedule whose first request is due at first (ns). */
void pacer_init(struct pacer *p, uint64_t first, uint64_t interval, uint64_t burst);

/*
 * Account for one request that ended at end (ns) and compute when the next
 * one is due (p->due). Returns true when that request
 * closed a burst (ioping prints a blank line then). When the schedule
 * restarts, the last_skipped slots due at skip_first, skip_first + interval,
 * ... are the ones that passed: each would have had the response time
 * end - its due time (account_add_skipped(end - skip_first, interval, n)).
 */
bool pacer_next(struct pacer *p, uint64_t end);

/*
 * Forget the slots the last pacer_next() skipped that were due at or after
 * limit (ns): they lie past the end of the run (0 after its last request,
 * -c; the deadline, -w), so they were never part of it. Lowers last_skipped
 * and skipped alike; the earlier slots stay.
 */
void pacer_forget_after(struct pacer *p, uint64_t limit);

#endif
