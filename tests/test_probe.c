/*
 * Tests for src/probe/probe.c, the measuring loop, with the null engine (no I/O)
 * and a failing engine defined here: counts, the deadline, periods by count
 * and by time, skipped slots, failures with and without -E, a reset from
 * the controller, and the sink ending the run. Timing checks use wide
 * margins: the machine may be busy.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

#define MS 1000000ull

struct fixture {
	struct target t;
	struct engine e;
	struct probe p;
	char buf[4 * 4096];         /* one 4 KiB buffer per slot at depth <= 4 */
	uint64_t requests, periods, period_valid, bursts, warnings;
	uint64_t skipped_told;      /* slots the sink's skipped callback was told of */
	unsigned max_inflight;      /* most ctl.inflight_n seen at a completion */
	uint64_t reset_at;          /* bump ctl.reset after this many requests (0 = never) */
	int end_at;                 /* the sink ends the run after this many requests */
	struct probe_ctl ctl;
};

static struct fixture *fx;

static int on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct fixture *f = ctx;
	unsigned in = atomic_load(&f->ctl.inflight_n);
	(void)s;
	(void)n;
	f->requests++;
	if (in > f->max_inflight)
		f->max_inflight = in;
	if (f->reset_at && f->requests == f->reset_at)
		atomic_fetch_add(&f->ctl.reset, 1);
	if (f->end_at && (int)f->requests == f->end_at)
		return -ECANCELED;
	return 0;
}

static int on_period(void *ctx, const struct tally *t)
{
	struct fixture *f = ctx;

	f->periods++;
	f->period_valid += t->valid.count;
	return 0;
}

static int on_burst_end(void *ctx)
{
	((struct fixture *)ctx)->bursts++;
	return 0;
}

static void on_warn(void *ctx, const char *text)
{
	(void)text;
	((struct fixture *)ctx)->warnings++;
}

static void on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	(void)hi;
	(void)step;
	((struct fixture *)ctx)->skipped_told += n;
}

static ssize_t fail_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	(void)priv;
	(void)p;
	(void)write;
	(void)offset;
	return -EIO;
}

static int fail_init(const struct engine_params *p, void **priv)
{
	(void)p;
	*priv = NULL;
	return 0;
}

static void fail_cleanup(void *priv)
{
	(void)priv;
}

static const struct engine_ops engine_fail = {
	.name = "fail", .init = fail_init, .io = fail_io, .cleanup = fail_cleanup,
};

static void setup(void)
{
	fx = calloc(1, sizeof(*fx));
	fx->t.fd = -1;
	fx->t.size = 4096;
	fx->t.work_size = 1 << 20;
}

static void teardown(void)
{
	engine_stop(&fx->e);
	free(fx);
}

TestSuite(probe, .init = setup, .fini = teardown);

/* Run with engine ops (arg for null) and cfg; cached + linear: no fadvise on fd -1. */
static int run(const struct engine_ops *ops, const char *arg, struct probe_cfg *cfg, bool ctl)
{
	struct engine_params ep = { .fd = -1, .buf = fx->buf, .buf_len = 4096, .arg = arg };
	struct probe_sink sink = { fx, on_request, on_period, on_burst_end, on_warn, on_skipped,
				   NULL };
	static volatile sig_atomic_t stop;
	char msg[512] = "";
	int ret;

	ep.depth = cfg->depth; /* one buffer per slot */
	ep.buf_stride = 4096;
	cfg->cached = true;
	cfg->linear = true;
	if (!cfg->account.max_time)
		cfg->account.max_time = UINT64_MAX;
	cr_assert_eq(engine_start(&fx->e, ops, &ep), 0);
	probe_init(&fx->p, cfg, &fx->t, &fx->e, fx->buf);
	if (ctl)
		fx->p.ctl = &fx->ctl;
	stop = 0;
	ret = probe_run(&fx->p, &sink, &stop, msg, sizeof(msg));
	if (ret == -EIO)
		cr_assert_not_null(strstr(msg, "request failed: EIO"), "%s", msg);
	return ret;
}

Test(probe, count_and_warmup)
{
	struct probe_cfg c = { .count = 5, .account = { .warmup = 1 } };

	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	cr_assert_eq(fx->requests, 5);
	cr_assert_eq(fx->p.requests, 5);
	cr_assert_eq(fx->p.acct.total.requests, 5);
	cr_assert_eq(fx->p.acct.total.valid.count, 4, "the warmup request is not valid");
	cr_assert_eq(fx->warnings, 0);
}

Test(probe, linear_offsets_wrap_in_the_working_set)
{
	struct probe_cfg c = { .count = 300 };

	fx->t.work_offset = 8192;
	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	cr_assert_eq(fx->p.woffset, (300 % 256) * 4096ull);
}

Test(probe, deadline_stops_the_schedule)
{
	struct probe_cfg c = { .interval = 2 * MS, .deadline = 20 * MS };

	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	cr_assert(fx->requests >= 9 && fx->requests <= 10, "%llu requests",
		  (unsigned long long)fx->requests);
	cr_assert_geq(fx->p.acct.total.wall, 18 * MS);
}

Test(probe, periods_by_count)
{
	struct probe_cfg c = { .count = 7, .print_count = 2 };

	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	cr_assert_eq(fx->periods, 3, "2 + 2 + 2, the 7th is left in the open period");
	cr_assert_eq(fx->period_valid, 6);
}

Test(probe, periods_by_time)
{
	struct probe_cfg c = { .interval = 1 * MS, .count = 20, .print_interval = 5 * MS };

	uint64_t by_wall;

	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	/* a period closes every 5 ms of the run's own wall time: about 20 ms on time, more on a
	 * loaded machine (the sanitized suite beside others: 5 periods for 25 ms), never fewer */
	by_wall = fx->p.acct.total.wall / (5 * MS);
	cr_assert(fx->periods >= 3 && fx->periods + 1 >= by_wall && fx->periods <= by_wall + 1,
		  "%llu periods in %llu ns", (unsigned long long)fx->periods,
		  (unsigned long long)fx->p.acct.total.wall);
}

Test(probe, slow_requests_skip_slots)
{
	struct probe_cfg c = { .interval = 1 * MS, .count = 4 };

	cr_assert_eq(run(&engine_null, "3500us", &c, false), 0);
	cr_assert_geq(fx->p.acct.total.skipped, 6, "about 3 slots per request: %llu",
		      (unsigned long long)fx->p.acct.total.skipped);
}

Test(probe, bursts_end)
{
	struct probe_cfg c = { .interval = 1 * MS, .count = 6, .burst = 3 };

	cr_assert_eq(run(&engine_null, NULL, &c, false), 0);
	cr_assert_eq(fx->bursts, 2);
}

Test(probe, failure_ends_the_run_without_ignore_error)
{
	struct probe_cfg c = { .count = 5 };

	cr_assert_eq(run(&engine_fail, NULL, &c, false), -EIO);
	cr_assert_eq(fx->requests, 0, "a fatal failure is not a request line");
}

Test(probe, failures_are_counted_with_ignore_error)
{
	struct probe_cfg c = { .count = 5, .ignore_error = true };

	cr_assert_eq(run(&engine_fail, NULL, &c, false), 0);
	cr_assert_eq(fx->requests, 5);
	cr_assert_eq(fx->p.acct.total.failed, 5);
	cr_assert_eq(fx->p.acct.total.valid.count, 0);
}

Test(probe, reset_from_the_controller_restarts_the_totals)
{
	struct probe_cfg c = { .count = 10 };

	fx->reset_at = 4;
	cr_assert_eq(run(&engine_null, NULL, &c, true), 0);
	cr_assert_eq(fx->requests, 10);
	cr_assert_eq(fx->p.acct.total.requests, 6, "only the requests after the reset");
}

Test(probe, a_sink_error_ends_the_run)
{
	struct probe_cfg c = { .count = 10 };

	fx->end_at = 3;
	cr_assert_eq(run(&engine_null, NULL, &c, false), -ECANCELED);
	cr_assert_eq(fx->requests, 3);
}

Test(probe, the_sink_hears_the_skipped_slots_the_response_times_got)
{
	struct probe_cfg c = { .count = 6, .interval = 1 * MS };

	cr_assert_eq(run(&engine_null, "10ms", &c, false), 0);
	cr_assert_gt(fx->skipped_told, 0);
	/* the response times: every valid request plus each skipped slot */
	cr_assert_eq(fx->p.acct.total.response.count,
		     fx->p.acct.total.valid.count + fx->skipped_told);
}

Test(probe, depth_publishes_the_count_in_flight)
{
	struct probe_cfg c = { .count = 40, .interval = 1 * MS, .depth = 4 };

	cr_assert_eq(run(&engine_null, "5ms", &c, true), 0);
	cr_assert_geq(fx->max_inflight, 2, "a count, not 0/1 (%u)", fx->max_inflight);
	cr_assert_leq(fx->max_inflight, 4);
	cr_assert_eq(atomic_load(&fx->ctl.inflight_n), 0, "nothing in flight at the end");
	cr_assert_eq(atomic_load(&fx->ctl.inflight), 0);
}
