#include <criterion/criterion.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "prober.h"
#include "session.h"

#include "fixture_nullprobe.h"

/* A null-engine probe over a temp file (fixture_nullprobe.h) in a session, as the view runs it. */
struct fixture {
	struct nullprobe np;
	struct probe *p; /* np.p */
	struct session s;
};

static struct fixture *fx_start(uint64_t count, uint64_t interval, const char *null_arg)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct probe_cfg pc = { 0 };

	cr_assert(f);
	pc.count = count;
	pc.interval = interval;
	pc.cached = true;
	pc.account.warmup = 1;
	pc.account.max_time = UINT64_MAX;
	nullprobe_open(&f->np, &pc, null_arg);
	f->p = f->np.p;
	cr_assert_eq(session_start(&f->s, f->p, 1), 0);
	return f;
}

static void fx_stop(struct fixture *f)
{
	session_stop(&f->s);
	nullprobe_close(&f->np);
	free(f);
}

/* Drain until the session ends (or timeout); returns the samples seen. */
static uint64_t drain_until_done(struct fixture *f, int timeout_ms)
{
	struct session_rec rec;
	uint64_t samples = 0, expect = 1;
	uint64_t end = clock_now() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		struct pollfd pfd = { f->s.wake_fd, POLLIN, 0 };

		poll(&pfd, 1, 50);
		session_ack(&f->s);
		while (session_next(&f->s, &rec)) {
			if (rec.kind != SESSION_SAMPLE)
				continue;
			cr_assert_eq(rec.sample.request, expect, "request %llu out of order",
				     (unsigned long long)rec.sample.request);
			expect++;
			samples++;
		}
		if (session_state(&f->s) != SESSION_RUNNING && !ring_count(&f->s.ring))
			return samples;
		cr_assert_lt(clock_now(), end, "session did not finish in time");
	}
}

Test(session, delivers_every_sample_in_order_and_finishes)
{
	struct fixture *f = fx_start(5000, 0, NULL);

	cr_assert_eq(drain_until_done(f, 10000), 5000);
	cr_assert_eq(session_state(&f->s), SESSION_DONE);
	cr_assert_eq(f->p->acct.total.requests, 5000);
	cr_assert_eq(f->p->acct.total.valid.count, 4999); /* one warmup */
	cr_assert_eq(atomic_load(&f->s.ctl->finished), 5000,
		     "the shared count of finished requests, the warmup's too");
	fx_stop(f);
}

Test(session, stop_ends_an_endless_run)
{
	struct fixture *f = fx_start(0, 1000000, NULL);
	uint64_t t0 = clock_now();

	usleep(50000);
	session_stop(&f->s);
	cr_assert_lt(clock_now() - t0, 2000000000ull);
	cr_assert_gt(f->p->requests, 10);
	fx_stop(f); /* the session already stopped: only the rest is released */
}

Test(session, pause_holds_requests_and_resume_continues)
{
	struct fixture *f = fx_start(0, 1000000, NULL);
	uint64_t before, after;

	usleep(30000);
	atomic_store(&f->s.ctl->pause, true);
	usleep(60000); /* let the in-progress wait end */
	before = f->p->requests;
	usleep(100000);
	after = f->p->requests;
	cr_assert_leq(after - before, 1, "requests went on while paused: %llu",
		      (unsigned long long)(after - before));
	atomic_store(&f->s.ctl->pause, false);
	usleep(50000);
	cr_assert_gt(f->p->requests, after + 10);
	fx_stop(f);
}

Test(session, interval_change_takes_effect)
{
	struct fixture *f = fx_start(0, 100000000ull, NULL); /* 100 ms */
	uint64_t before;

	usleep(50000);
	before = f->p->requests;
	atomic_store(&f->s.ctl->interval, 1000000ull); /* 1 ms */
	usleep(200000);
	cr_assert_gt(f->p->requests, before + 50, "only %llu more requests",
		     (unsigned long long)(f->p->requests - before));
	fx_stop(f);
}

Test(session, reset_restarts_statistics)
{
	struct fixture *f = fx_start(0, 1000000, NULL);

	usleep(50000);
	atomic_fetch_add(&f->s.ctl->reset, 1);
	usleep(5000);
	session_stop(&f->s);
	cr_assert_lt(f->p->acct.total.requests, f->p->requests,
		     "total %llu should be below issued %llu after a reset",
		     (unsigned long long)f->p->acct.total.requests,
		     (unsigned long long)f->p->requests);
	fx_stop(f); /* the session already stopped: only the rest is released */
}

Test(session, inflight_shows_a_slow_request)
{
	struct fixture *f = fx_start(2, 0, "300ms");
	uint64_t seen = 0;

	for (int i = 0; i < 50 && !seen; i++) {
		usleep(10000);
		seen = atomic_load(&f->s.ctl->inflight);
	}
	cr_assert_neq(seen, 0, "no request was ever seen in flight");
	cr_assert_eq(drain_until_done(f, 5000), 2);
	cr_assert_eq(atomic_load(&f->s.ctl->inflight), 0);
	fx_stop(f);
}

Test(session, pause_keeps_the_skipped_count)
{
	struct fixture *f = fx_start(0, 1000000, "5ms"); /* 5 ms requests at 1 ms: slots missed */
	uint64_t before;

	usleep(100000);
	atomic_store(&f->s.ctl->pause, true);
	usleep(60000);
	before = f->p->pacer.skipped;
	cr_assert_gt(before, 0, "no slot was skipped before the pause");
	atomic_store(&f->s.ctl->pause, false);
	usleep(30000);
	session_stop(&f->s);
	cr_assert_geq(f->p->acct.total.skipped, before, "skipped %llu fell below %llu",
		      (unsigned long long)f->p->acct.total.skipped, (unsigned long long)before);
	fx_stop(f); /* the session already stopped: only the rest is released */
}

/* A view's rings shrink with its targets: up to 8 keep 65,536 records each, 64 keep 8,192
 * (all together 524,288 records of 128 B: 64 MiB), never fewer than 4,096. */
Test(session, ring_shrinks_with_the_sessions)
{
	cr_assert_eq(session_ring_size(0), SESSION_RING);
	cr_assert_eq(session_ring_size(1), SESSION_RING);
	cr_assert_eq(session_ring_size(8), SESSION_RING);
	cr_assert_eq(session_ring_size(9), SESSION_RING / 2);
	cr_assert_eq(session_ring_size(64), 8192);
	cr_assert_leq(64 * session_ring_size(64) * sizeof(struct session_rec), 64u << 20);
	cr_assert_eq(session_ring_size(256), SESSION_RING_MIN);
	cr_assert_eq(session_ring_size(100000), SESSION_RING_MIN);
}
