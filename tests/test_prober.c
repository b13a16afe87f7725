#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "msg.h"
#include "prober.h"

#include "fixture_nullprobe.h"

/* A null-engine probe over a temp file (fixture_nullprobe.h). */
static struct nullprobe *fx_new(uint64_t count, uint64_t interval, uint64_t period_every,
				const char *null_arg, unsigned depth)
{
	struct nullprobe *f = calloc(1, sizeof(*f));
	struct probe_cfg pc = { 0 };

	cr_assert(f);
	pc.count = count;
	pc.interval = interval;
	pc.print_count = period_every;
	pc.cached = true;
	pc.depth = depth;
	pc.account.warmup = 1;
	pc.account.max_time = UINT64_MAX;
	nullprobe_open(f, &pc, null_arg);
	return f;
}

static void fx_free(struct nullprobe *f)
{
	nullprobe_close(f);
	free(f);
}

/* What the sink heard, on the calling thread. */
struct heard {
	uint64_t samples, expect, periods, period_requests, skipped;
	int fail_at; /* request index whose sink call fails with -EPIPE (0: never) */
	pid_t pid;
	bool other_pid;
};

static int on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct heard *h = ctx;
	(void)n;

	h->other_pid |= getpid() != h->pid;
	cr_assert_eq(s->request, h->expect, "request %llu out of order",
		     (unsigned long long)s->request);
	h->expect++;
	h->samples++;
	return h->fail_at && (int)s->request == h->fail_at ? -EPIPE : 0;
}

static int on_period(void *ctx, const struct tally *t)
{
	struct heard *h = ctx;

	h->periods++;
	h->period_requests += t->requests;
	return 0;
}

static const volatile sig_atomic_t no_stop;

Test(prober, every_sample_in_order_periods_with_tallies_totals_shared)
{
	struct nullprobe *f = fx_new(20001, 0, 1000, NULL, 1); /* 1 warmup + 20 periods */
	struct heard h = { .expect = 1, .pid = getpid() };
	struct probe_sink sink = { &h, on_request, on_period, NULL, NULL, NULL, NULL };
	char msg[MSG_MAX] = "";

	cr_assert_eq(prober_run(f->p, &sink, &no_stop, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(h.samples, 20001); /* more than the ring holds: nothing dropped */
	cr_assert_not(h.other_pid, "the sink runs in the caller's process");
	cr_assert_eq(h.periods, 20, "%llu periods", (unsigned long long)h.periods);
	cr_assert_eq(h.period_requests, 20001, "%llu", (unsigned long long)h.period_requests);
	cr_assert_eq(f->p->acct.total.requests, 20001, "the child's totals, read by the caller");
	cr_assert_eq(f->p->acct.total.valid.count, 20000);
	cr_assert_eq(f->p->engine, &f->e, "the caller's engine is back in place");
	fx_free(f);
}

Test(prober, rings_shrink_with_the_probers_of_a_run_down_to_a_least)
{
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 0), 4096);
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 1), 4096);
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 8), 4096);
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 9), 2048);
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 64), 512);
	cr_assert_eq(prober_ring_size(4096, 512, 32768, 1000), 512);
	cr_assert_eq(prober_ring_size(16, 4, 64, 4), 16);
	cr_assert_eq(prober_ring_size(16, 4, 64, 5), 8);
	cr_assert_eq(prober_ring_size(16, 4, 64, 64), 4);
}

/* One of 64 probers (the smallest rings): a tally a request, far more than they hold. */
Test(prober, the_smallest_rings_lose_nothing_the_child_waits)
{
	struct nullprobe *f = calloc(1, sizeof(*f));
	struct probe_cfg pc = { .count = 3001, .print_count = 1, .cached = true, .depth = 1 };
	struct heard h = { .expect = 1, .pid = getpid() };
	struct probe_sink sink = { &h, on_request, on_period, NULL, NULL, NULL, NULL };
	char msg[MSG_MAX] = "";

	cr_assert(f);
	f->probers = 64;
	pc.account.warmup = 1;
	pc.account.max_time = UINT64_MAX;
	nullprobe_open(f, &pc, NULL);
	cr_assert_eq(prober_run(f->p, &sink, &no_stop, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(h.samples, 3001, "%llu", (unsigned long long)h.samples);
	cr_assert_eq(h.periods, 3000, "%llu periods", (unsigned long long)h.periods);
	cr_assert_eq(h.period_requests, 3001, "%llu", (unsigned long long)h.period_requests);
	fx_free(f);
}

Test(prober, a_sink_error_ends_the_run_with_it)
{
	struct nullprobe *f = fx_new(0, 1000000, 0, NULL, 1);
	struct heard h = { .expect = 1, .fail_at = 5, .pid = getpid() };
	struct probe_sink sink = { &h, on_request, NULL, NULL, NULL, NULL, NULL };
	char msg[MSG_MAX] = "";

	cr_assert_eq(prober_run(f->p, &sink, &no_stop, msg, sizeof(msg)), -EPIPE);
	cr_assert_eq(h.samples, 5, "nothing told after the failing call");
	fx_free(f);
}

Test(prober, a_stop_ends_a_sleeping_probe_at_once)
{
	struct nullprobe *f = fx_new(0, 10000000000ull, 0, NULL, 1); /* one request per 10 s */
	struct heard h = { .expect = 1, .pid = getpid() };
	struct probe_sink sink = { &h, on_request, NULL, NULL, NULL, NULL, NULL };
	static volatile sig_atomic_t stop = 1; /* set before the run: the first sleep is cut */
	char msg[MSG_MAX] = "";
	uint64_t t0 = clock_now();

	cr_assert_eq(prober_run(f->p, &sink, &stop, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_lt(clock_now() - t0, PROBER_GRACE_NS, "not given up: it was only asleep");
	fx_free(f);
}

static volatile sig_atomic_t stop_later;

static void on_alarm(int sig)
{
	(void)sig;
	stop_later = 1;
}

Test(prober, a_request_that_never_returns_is_given_up_after_the_grace)
{
	for (unsigned depth = 1; depth <= 8; depth += 7) {
		struct nullprobe *f = fx_new(0, 1000000, 0, "1h", depth); /* each request: 1 hour */
		struct heard h = { .expect = 1, .pid = getpid() };
		struct probe_sink sink = { &h, on_request, NULL, NULL, NULL, NULL, NULL };
		struct sigaction sa = { .sa_handler = on_alarm };
		char msg[MSG_MAX] = "";
		uint64_t t0 = clock_now(), dt;
		int ret;

		stop_later = 0;
		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		ret = prober_run(f->p, &sink, &stop_later, msg, sizeof(msg));
		dt = clock_now() - t0;
		cr_assert_eq(ret, -ETIMEDOUT, "depth %u: %d %s", depth, ret, msg);
		cr_assert_geq(dt, 1000000000ull + PROBER_GRACE_NS - 50000000ull, "depth %u", depth);
		cr_assert_lt(dt, 1000000000ull + PROBER_GRACE_NS + 400000000ull, "depth %u", depth);
		if (depth == 1)
			cr_assert(strstr(msg, "1 request in flight (hung ") &&
				  strstr(msg, " at the stop: it did not complete"), "%s", msg);
		else
			cr_assert(strstr(msg, "requests in flight (hung ") &&
				  strstr(msg, "they did not complete"), "%s", msg);
		cr_assert_gt(f->p->acct.total.wall, 1000000000ull, "the wall time up to the stop");
		fx_free(f);
	}
}
