/*
 * openloop: the open-loop schedule for more than one request in flight (-Q N).
 * Pure: the caller passes the times in, so tests drive it with a fake clock.
 *
 * Slot k (counted from the anchor) is due at anchor + floor(k / burst) *
 * interval (with random arrivals, openloop_poisson(), at the sum of as many
 * exponential gaps of mean interval). A request starts when its slot is due, whether or not earlier
 * requests completed, as long as fewer than depth are in flight; a slot that
 * comes due while depth requests are in flight starts as soon as one
 * completes, late, and its lateness is part of its response time (completion
 * - due time). Nothing is skipped: behind a slow device the backlog grows,
 * and so do the response times. With interval 0 there is no schedule: each
 * request is due when it starts (a closed loop keeping depth in flight).
 */
#ifndef IOPROBE_OPENLOOP_H
#define IOPROBE_OPENLOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"

struct openloop {
	uint64_t anchor;    /* due time of slot 0 */
	uint64_t interval;  /* ns between slots (between bursts with burst > 1) */
	uint64_t burst;     /* slots due together, >= 1 */
	uint64_t slot;      /* slots started since the anchor */
	uint64_t done;      /* requests completed */
	unsigned depth;     /* most requests in flight, >= 1 */
	unsigned inflight;  /* requests started and not completed */
	bool poisson;       /* --arrivals poisson: exponential gaps (openloop_poisson) */
	uint64_t next;      /* poisson: due time of the next slot */
	struct rng rng;     /* poisson: the gaps' */
};

/* Start a schedule whose first slot is due at first (ns); burst 0 = 1, depth 0 = 1. */
void openloop_init(struct openloop *s, uint64_t first, uint64_t interval, uint64_t burst,
		unsigned depth);

/*
 * Random arrivals (--arrivals poisson): from now on the gaps between slots (between bursts
 * with burst > 1) are exponential with mean interval — a Poisson process at the same mean
 * rate, drawn from seed (the same seed, the same gaps) — instead of exactly interval: the
 * load real clients make, under which a queue forms at a load a fixed schedule never shows
 * (M/D/1 on a serial device rather than D/D/1). The next slot stays due where it was.
 */
void openloop_poisson(struct openloop *s, uint64_t seed);

/*
 * One exponential gap of mean mean_ns from r: -ln(u) x mean, u uniform in (0, 1] on 53 bits
 * (a gap of 0 is possible, the longest about 36.7 means; saturates at UINT64_MAX).
 */
uint64_t openloop_exp_gap(struct rng *r, uint64_t mean_ns);

/* Due time of the next slot (saturates at UINT64_MAX); with interval 0 the anchor. */
uint64_t openloop_due(const struct openloop *s);

/*
 * When the next request may start, seen at now: 0 = at once; UINT64_MAX =
 * not before a completion (depth requests in flight); else its due time.
 */
uint64_t openloop_wait(const struct openloop *s, uint64_t now);

/*
 * Start the next request at now (the caller checked openloop_wait() == 0).
 * Returns its scheduled start: its slot's due time, or now with interval 0.
 */
uint64_t openloop_start(struct openloop *s, uint64_t now);

/*
 * One request completed. Returns true when it completes a burst (every
 * burst-th completion with burst > 1: ioping's blank line).
 */
bool openloop_complete(struct openloop *s);

/*
 * Anchor the schedule anew: the next slot is due at now, then one every
 * interval (after a pause, or when the interval changes). In-flight
 * requests are kept.
 */
void openloop_rebase(struct openloop *s, uint64_t now, uint64_t interval);

#endif
