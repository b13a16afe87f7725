/* recplay: a recording held for the view's replay — periods exact again, requests and
 * blocks by time, verdicts judged again — and the cursor's play, step, jump and speed. */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "recplay.h"
#include "recread.h"

#define S 1000000000ull
#define REAL0 1795000000000000000ull

static struct rec_target tgt[2];

static struct rec_header header(size_t n)
{
	memset(tgt, 0, sizeof(tgt));
	for (size_t i = 0; i < 2; i++) {
		tgt[i].path = i ? "/b" : "/a";
		tgt[i].fstype = "ext4";
		tgt[i].device = "/dev/vda";
		tgt[i].ndev = 1;
		strcpy(tgt[i].dev[0].name, "vda");
		tgt[i].dev[0].write_cache = -1;
	}
	return (struct rec_header){ .engine = "null", .real = REAL0, .size = 4096,
				    .interval = 10000000, .asked = 100, .depth = 1,
				    .iostat = true, .period = S, .ntargets = n, .target = tgt };
}

/* A period of target i ending at mono with n requests of lat ns each (one failed). */
static void period(struct recplay *rp, size_t i, uint64_t seq, uint64_t mono, uint64_t n,
		   uint64_t lat)
{
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct sample s = { .op = OP_READ, .size = 4096, .result = 4096, .time = lat,
			    .response = lat };

	ev->kind = REC_PERIOD;
	ev->target = i;
	ev->seq = seq;
	ev->mono = mono;
	ev->real = REAL0 + mono + 5;
	tally_init(&ev->tally);
	for (uint64_t k = 0; k < n; k++) {
		s.request = k + 1;
		tally_add(&ev->tally, &s, NOTICE_NONE);
	}
	s.result = -5;
	tally_add(&ev->tally, &s, NOTICE_ERROR);
	ev->tally.wall = S;
	cr_assert_eq(recplay_add(rp, ev), 0);
	free(ev);
}

Test(recplay, periods_come_back_exact)
{
	struct rec_header h = header(1);
	struct recplay rp;
	struct tally *t = calloc(1, sizeof(*t)), *want = calloc(1, sizeof(*want));

	cr_assert_eq(recplay_init(&rp, &h), 0);
	period(&rp, 0, 0, 1 * S, 100, 250000);
	period(&rp, 0, 1, 2 * S, 50, 9000000);
	cr_assert_eq(recplay_finish(&rp), 0);
	cr_assert_eq(rp.t[0].nper, 2);
	recplay_tally(&rp, 0, 1, t);
	cr_assert_eq(t->valid.count, 50);
	cr_assert_eq(t->valid.min, 9000000);
	cr_assert_eq(t->valid.max, 9000000);
	cr_assert_eq(t->failed, 1);
	cr_assert_eq(t->requests, 51);
	cr_assert_eq(t->wall, S);
	/* the histogram too: the same percentiles as the tally recorded */
	tally_init(want);
	{
		struct sample s = { .op = OP_READ, .size = 4096, .result = 4096, .time = 9000000,
				    .response = 9000000 };

		for (int k = 0; k < 50; k++)
			tally_add(want, &s, NOTICE_NONE);
	}
	cr_assert_eq(stats_percentile(&t->valid, 99), stats_percentile(&want->valid, 99));
	cr_assert_eq(memcmp(t->valid.hist, want->valid.hist, sizeof(t->valid.hist)), 0);
	/* the response times equal the service times here: one histogram kept for both */
	cr_assert_eq(memcmp(t->response.hist, want->response.hist, sizeof(t->response.hist)), 0);
	cr_assert_eq(t->response.count, 50);
	cr_assert_eq(rp.nhist, 2, "a bucket a period, shared: %zu", rp.nhist);
	/* the wall-clock time under a cursor: the latest period at or before it */
	cr_assert_eq(recplay_real_at(&rp, 0), REAL0);
	cr_assert_eq(recplay_real_at(&rp, S), REAL0 + S + 5);
	cr_assert_eq(recplay_real_at(&rp, 2 * S - 1), REAL0 + S + 5);
	cr_assert_eq(recplay_real_at(&rp, 5 * S), REAL0 + 2 * S + 5);
	recplay_free(&rp);
	free(t);
	free(want);
}

Test(recplay, response_histogram_of_its_own_and_large_counts)
{
	struct rec_header h = header(1);
	struct recplay rp;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct tally *t = calloc(1, sizeof(*t));
	struct sample s = { .op = OP_READ, .size = 4096, .result = 4096, .time = 1000,
			    .response = 5000000 };

	cr_assert_eq(recplay_init(&rp, &h), 0);
	ev->kind = REC_PERIOD;
	ev->mono = S;
	tally_init(&ev->tally);
	for (int k = 0; k < 3; k++)
		tally_add(&ev->tally, &s, NOTICE_NONE);
	ev->tally.valid.hist[7] += 5000000000ull; /* over 32 bits: kept whole */
	ev->tally.valid.count += 5000000000ull;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	recplay_tally(&rp, 0, 0, t);
	cr_assert_eq(memcmp(t->valid.hist, ev->tally.valid.hist, sizeof(t->valid.hist)), 0);
	cr_assert_eq(memcmp(t->response.hist, ev->tally.response.hist, sizeof(t->response.hist)),
		     0);
	cr_assert_eq(t->response.max, 5000000);
	cr_assert_eq(rp.nhist, 3); /* service: 2 buckets, response: 1 of its own */
	recplay_free(&rp);
	free(ev);
	free(t);
}

Test(recplay, counts_by_time_and_requests_by_period)
{
	struct rec_header h = header(2);
	struct recplay rp;
	struct rec_event *ev = calloc(1, sizeof(*ev));

	cr_assert_eq(recplay_init(&rp, &h), 0);
	ev->kind = REC_REQUEST;
	ev->target = 1;
	ev->real = REAL0 + S / 2;
	ev->sample.request = 1;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	period(&rp, 0, 0, 1000 * 1000000ull, 10, 100000);
	period(&rp, 1, 0, 1010 * 1000000ull, 10, 100000); /* the second target's, a bit later */
	period(&rp, 0, 1, 2000 * 1000000ull, 10, 100000);
	cr_assert_eq(recplay_finish(&rp), 0);
	cr_assert_eq(rp.nstops, 3);
	cr_assert_eq(rp.t[1].per[0].req_end, 1);
	cr_assert_eq(rp.t[0].per[0].req_end, 0);
	cr_assert_eq(recplay_count(&rp, 0, 999 * 1000000ull), 0);
	cr_assert_eq(recplay_count(&rp, 0, 1000 * 1000000ull), 1);
	cr_assert_eq(recplay_count(&rp, 1, 1005 * 1000000ull), 0);
	cr_assert_eq(recplay_count(&rp, 1, 1010 * 1000000ull), 1);
	cr_assert_eq(recplay_count(&rp, 0, UINT64_MAX), 2);
	cr_assert_eq(recplay_stop_index(&rp, 1010 * 1000000ull), 2);
	/* a target out of range is ignored, never stored */
	ev->target = 7;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	cr_assert_eq(rp.t[0].nreq + rp.t[1].nreq, 1);
	recplay_free(&rp);
	free(ev);
}

Test(recplay, blocks_and_verdicts_judged_again)
{
	struct rec_header h = header(1);
	struct recplay rp;
	struct rec_event *ev = calloc(1, sizeof(*ev));

	cr_assert_eq(recplay_init(&rp, &h), 0);
	ev->kind = REC_IOSTAT;
	ev->real = REAL0 + 3 * S;
	ev->nrows = 1;
	strcpy(ev->row[0].name, "vda");
	ev->row[0].row.r_s = 100;
	ev->row[0].row.util = 99;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	ev->kind = REC_VERDICT;
	ev->target = 0;
	ev->own_rows = false;
	ev->probe.period_ns = S;
	ev->probe.done = 50;
	ev->probe.p50_ns = 1000000;
	ev->probe.p99_ns = 2000000;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	cr_assert_eq(recplay_finish(&rp), 0);
	cr_assert_eq(rp.nblk, 1);
	cr_assert_eq(rp.blk[0].mono, 3 * S);
	cr_assert_eq(recplay_blocks(&rp, 3 * S - 1), 0);
	cr_assert_eq(recplay_blocks(&rp, 3 * S), 1);
	cr_assert(rp.side[0].have);
	cr_assert_eq(rp.side[0].n, 1);
	cr_assert_str_eq(rp.rows[rp.side[0].off].name, "vda");
	cr_assert_eq(rp.side[0].probe.done, 50);
	cr_assert_eq(rp.side[0].probe.asked, 100.0);
	cr_assert_str_eq(rp.side[0].v.dev, "vda");
	recplay_free(&rp);
	free(ev);
}

/*
 * A verdict belongs to the block of its seq, whatever came between them (older recordings
 * wrote a block's rows and its verdicts apart, and another thread's period could come
 * between), and not to a later block.
 */
Test(recplay, verdict_joins_its_block_by_seq)
{
	struct rec_header h = header(2);
	struct recplay rp;
	struct rec_event *ev = calloc(1, sizeof(*ev));

	cr_assert_eq(recplay_init(&rp, &h), 0);
	for (uint64_t b = 0; b < 2; b++) {
		memset(ev, 0, sizeof(*ev));
		ev->kind = REC_IOSTAT;
		ev->seq = b;
		ev->real = REAL0 + (b + 1) * S;
		ev->nrows = 1;
		strcpy(ev->row[0].name, "vda");
		ev->row[0].row.r_s = 100;
		cr_assert_eq(recplay_add(&rp, ev), 0);
		period(&rp, 0, b, (b + 1) * S, 10, 1000); /* a line between the rows and the verdicts */
		memset(ev, 0, sizeof(*ev));
		ev->kind = REC_VERDICT;
		ev->seq = b;
		ev->target = 0;
		ev->probe.period_ns = S;
		ev->probe.done = 10 + b;
		cr_assert_eq(recplay_add(&rp, ev), 0);
	}
	ev->target = 1; /* target 1's verdict of block 0, read after block 1 */
	ev->seq = 0;
	ev->probe.done = 77;
	cr_assert_eq(recplay_add(&rp, ev), 0);
	ev->seq = 9; /* no such block: nothing judged */
	cr_assert_eq(recplay_add(&rp, ev), 0);
	cr_assert_eq(recplay_finish(&rp), 0);
	cr_assert_eq(rp.nblk, 2);
	cr_assert(rp.side[0].have && rp.side[2].have);
	cr_assert_eq(rp.side[0].probe.done, 10);
	cr_assert_eq(rp.side[2].probe.done, 11);
	cr_assert(rp.side[1].have, "target 1's verdict of block 0 is in block 0");
	cr_assert_eq(rp.side[1].probe.done, 77);
	cr_assert(!rp.side[3].have, "and not in block 1");
	recplay_free(&rp);
	free(ev);
}

/* A recording with period ends at 1, 2, 3 s (and 2.5 s of a second target). */
static void stops(struct recplay *rp, struct rec_header *h)
{
	*h = header(2);
	cr_assert_eq(recplay_init(rp, h), 0);
	period(rp, 0, 0, 1 * S, 1, 1000);
	period(rp, 0, 1, 2 * S, 1, 1000);
	period(rp, 1, 0, 2 * S + S / 2, 1, 1000);
	period(rp, 0, 2, 3 * S, 1, 1000);
	cr_assert_eq(recplay_finish(rp), 0);
}

Test(recplay, cursor_plays_at_its_speed_and_stops_at_the_end)
{
	struct rec_header h;
	struct recplay rp;
	struct recplay_cursor c;

	stops(&rp, &h);
	recplay_cursor_init(&c);
	cr_assert_eq(c.t, 0);
	cr_assert_not(c.paused);
	cr_assert(recplay_cursor_advance(&c, &rp, S / 2));
	cr_assert_eq(c.t, S / 2);
	c.speed = 1; /* x10 */
	cr_assert_eq(recplay_speed_factor(c.speed), 10);
	cr_assert(recplay_cursor_advance(&c, &rp, S / 10));
	cr_assert_eq(c.t, S / 2 + S);
	c.speed = 2; /* x100: past the end, held at the last stop, paused there */
	cr_assert_eq(recplay_speed_factor(c.speed), 100);
	cr_assert(recplay_cursor_advance(&c, &rp, S));
	cr_assert_eq(c.t, 3 * S);
	cr_assert(c.paused && c.at_end);
	cr_assert_not(recplay_cursor_advance(&c, &rp, S));
	/* paused: time passes, the cursor stays */
	recplay_cursor_jump(&c, &rp, false);
	cr_assert_not(recplay_cursor_advance(&c, &rp, S));
	cr_assert_eq(c.t, S);
	cr_assert_eq(recplay_speed_factor(7), 100);
	recplay_free(&rp);
}

Test(recplay, cursor_steps_one_period_and_jumps)
{
	struct rec_header h;
	struct recplay rp;
	struct recplay_cursor c;

	stops(&rp, &h);
	recplay_cursor_init(&c);
	cr_assert(recplay_cursor_step(&c, &rp, 1));
	cr_assert(c.paused);
	cr_assert_eq(c.t, S);
	cr_assert_eq(recplay_stop_index(&rp, c.t), 1);
	cr_assert(recplay_cursor_step(&c, &rp, 1));
	cr_assert_eq(c.t, 2 * S);
	cr_assert(recplay_cursor_step(&c, &rp, 1));
	cr_assert_eq(c.t, 2 * S + S / 2); /* the other target's period is a stop too */
	cr_assert(recplay_cursor_step(&c, &rp, 1));
	cr_assert_eq(c.t, 3 * S);
	cr_assert_not(recplay_cursor_step(&c, &rp, 1)); /* the last: stays */
	cr_assert(recplay_cursor_step(&c, &rp, -1));
	cr_assert_eq(c.t, 2 * S + S / 2);
	/* between two stops, back goes to the one shown, forward to the next */
	c.t = 2 * S + S / 4;
	cr_assert(recplay_cursor_step(&c, &rp, -1));
	cr_assert_eq(c.t, 2 * S);
	c.t = 2 * S + S / 4;
	cr_assert(recplay_cursor_step(&c, &rp, 1));
	cr_assert_eq(c.t, 2 * S + S / 2);
	recplay_cursor_jump(&c, &rp, false);
	cr_assert_eq(c.t, S);
	cr_assert(recplay_cursor_step(&c, &rp, -1)); /* before the first: the start */
	cr_assert_eq(c.t, 0);
	cr_assert_not(recplay_cursor_step(&c, &rp, -1));
	recplay_cursor_jump(&c, &rp, true);
	cr_assert_eq(c.t, 3 * S);
	cr_assert(c.paused && !c.at_end);
	recplay_free(&rp);
}

Test(recplay, empty_recording)
{
	struct rec_header h = header(1);
	struct recplay rp;
	struct recplay_cursor c;

	cr_assert_eq(recplay_init(&rp, &h), 0);
	cr_assert_eq(recplay_finish(&rp), 0);
	cr_assert_eq(rp.nstops, 0);
	recplay_cursor_init(&c);
	cr_assert_not(recplay_cursor_advance(&c, &rp, S));
	cr_assert(c.at_end);
	cr_assert_not(recplay_cursor_step(&c, &rp, 1));
	recplay_cursor_jump(&c, &rp, true);
	cr_assert_eq(c.t, 0);
	cr_assert_eq(recplay_real_at(&rp, 0), REAL0);
	recplay_free(&rp);
}
