/*
 * recplay: a recording held in memory for the view to replay it (--replay
 * FILE -X) — the replay source. recread's events go in, in file order; what
 * comes out is what the view's model consumes, by target and by recorded
 * period: each period's tally (its histogram kept sparse: a period costs
 * its non-empty buckets, not two whole histograms), the requests recorded
 * before it (--record-requests), each --iostat block's rows with every
 * target's verdict judged again from the recorded input (verdict.c, as the
 * CLI's replay does), and the warnings. A bucket takes 8 bytes, and the
 * response times' histogram shares the service times' when they are the
 * same (no -Q, no skipped slot). Times are the recording's run ns
 * ("mono": since the run's start); blocks and warnings, which carry only a
 * wall-clock time, are placed at real - the header's real.
 *
 * The cursor: a position t in run ns that plays at x1, x10 or x100 of the
 * recorded pace, pauses, steps to the next or the previous period end
 * (of any target), jumps to the first or the last; a target shows the
 * periods that ended at or before t. Pure: no I/O, no clocks.
 */
#ifndef IOPROBE_RECPLAY_H
#define IOPROBE_RECPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "recread.h"
#include "verdict.h"

#define RECPLAY_SPEEDS 3        /* x1, x10, x100 */
#define RECPLAY_WARN_LEN 96
#define RECPLAY_BLOCK_BACK 4    /* a verdict is looked for in the last blocks this many */

/* A struct stats without its histogram: its non-empty buckets are n entries at off. */
struct recplay_stats {
	uint64_t count, sum, min, max;
	double mean, m2;
	size_t off, n;
};

struct recplay_period {
	uint64_t mono, real;          /* its end: run ns, CLOCK_REALTIME ns */
	uint64_t seq;
	size_t req_end;               /* the target's requests read before it */
	uint64_t requests, too_fast, too_slow, failed, skipped, wall;
	struct recplay_stats valid, response;
};

struct recplay_req {
	uint64_t real;                /* CLOCK_REALTIME ns when it ended */
	struct sample s;
	enum notice n;
};

/* A target's side of an --iostat block. */
struct recplay_side {
	bool have;                    /* a verdict line of it was read */
	struct verdict_probe probe;   /* the input judged */
	struct verdict v;             /* the verdict judged again */
	size_t off, n;                /* its rows (its own stack, else the block's) */
};

struct recplay_block {
	uint64_t seq;                 /* the recording's: its verdicts carry it */
	uint64_t mono, real;
	size_t off, n;                /* the block's rows */
};

struct recplay_warn {
	uint64_t mono;
	long target;                  /* -1: the run's */
	char text[RECPLAY_WARN_LEN];
};

struct recplay_target {
	struct recplay_period *per;
	size_t nper, cper;
	struct recplay_req *req;
	size_t nreq, creq;
	struct verdict_hist vh;       /* the verdict's history while loading */
	struct verdict_probe vp;      /* the run's settings */
};

/* A non-empty histogram bucket in 8 bytes: its stats.h index and its count (48 bits). */
struct recplay_bucket {
	uint16_t k;                   /* stats.h bucket index (STATS_BUCKETS < 65536) */
	uint16_t c_hi;                /* count >> 32 */
	uint32_t c_lo;                /* count & 0xffffffff */
};

struct recplay {
	const struct rec_header *h;   /* the reader's (it outlives this) */
	size_t n;                     /* targets */
	struct recplay_target *t;
	struct recplay_bucket *hist;
	size_t nhist, chist;
	struct recplay_block *blk;
	size_t nblk, cblk;
	struct recplay_side *side;    /* nblk * n: block b's side of target i at b * n + i */
	struct rec_row *rows;
	size_t nrows, crows;
	struct recplay_warn *warn;
	size_t nwarn, cwarn;
	uint64_t *stops;              /* every period end (run ns), sorted, once each */
	size_t nstops;
};

/* Start holding a recording of header h (recread's, kept). 0 or -ENOMEM. */
int recplay_init(struct recplay *rp, const struct rec_header *h);

/* Take one event (not the header). 0, or -ENOMEM (the replay cannot go on). */
int recplay_add(struct recplay *rp, const struct rec_event *ev);

/* After the last event: the cursor's stops. 0 or -ENOMEM. */
int recplay_finish(struct recplay *rp);

/* Release it. */
void recplay_free(struct recplay *rp);

/* Target i's period k whole, as recorded (its histograms filled in). */
void recplay_tally(const struct recplay *rp, size_t i, size_t k, struct tally *out);

/* How many of target i's periods ended at or before run ns t. */
size_t recplay_count(const struct recplay *rp, size_t i, uint64_t t);

/* How many blocks (warnings) were taken at or before run ns t. */
size_t recplay_blocks(const struct recplay *rp, uint64_t t);
size_t recplay_warnings(const struct recplay *rp, uint64_t t);

/* How many stops are at or before t (the cursor's "period k of nstops"). */
size_t recplay_stop_index(const struct recplay *rp, uint64_t t);

/* The wall-clock time (CLOCK_REALTIME ns) of the latest period ended at or before t: the
 * period under the cursor; before the first, the run's start (the header's). */
uint64_t recplay_real_at(const struct recplay *rp, uint64_t t);

/* ---- the cursor ---- */

struct recplay_cursor {
	uint64_t t;                   /* run ns shown */
	unsigned speed;               /* 0, 1, 2: x1, x10, x100 */
	bool paused;
	bool at_end;                  /* it reached the last stop while playing */
};

/* The factor of speed s (1, 10, 100). */
unsigned recplay_speed_factor(unsigned s);

/* At the start (t 0), x1, playing. */
void recplay_cursor_init(struct recplay_cursor *c);

/* dt ns of wall time passed: a playing cursor moves dt x speed, up to the last stop, where
 * it pauses (at_end). Returns true when t changed. */
bool recplay_cursor_advance(struct recplay_cursor *c, const struct recplay *rp, uint64_t dt);

/* One stop forward (dir > 0) or back (dir < 0): the next stop after t or the last before
 * it (0 before the first); pauses. Returns true when t changed. */
bool recplay_cursor_step(struct recplay_cursor *c, const struct recplay *rp, int dir);

/* The first stop (end: the last); pauses. */
void recplay_cursor_jump(struct recplay_cursor *c, const struct recplay *rp, bool end);

#endif
