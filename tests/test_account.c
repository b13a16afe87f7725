/*
 * Tests for src/probe/account.c: ioping 1.3's add_statistics() rules (ioping 1.3's
 * ioping.c, checked against Debian's ioping 1.3: warmup, too fast / too slow,
 * the (fast)/(slow) notices against 2x the integer period mean), plus the
 * failed / empty requests and the read/write split ioprobe adds.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "account.h"

#include "common.h"
#define US UINT64_C(1000)

static const struct account_cfg default_cfg = { 1, 0, UINT64_MAX, false };

/* A successful 4 KiB read. */
static struct sample smp(uint64_t request, uint64_t time)
{
	struct sample s = { 0 };

	s.request = request;
	s.op = OP_READ;
	s.offset = (request - 1) * 4096;
	s.size = 4096;
	s.result = 4096;
	s.time = time;
	return s;
}

static enum notice add(struct account *a, uint64_t request, uint64_t time)
{
	struct sample s = smp(request, time);

	return account_add(a, &s);
}

/* Add n valid requests of time t, numbered from *next on; none may get a notice. */
static void add_plain(struct account *a, uint64_t *next, unsigned n, uint64_t t)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t req = (*next)++;
		enum notice got = add(a, req, t);

		cr_assert_eq(got, NOTICE_NONE, "request %" PRIu64 " (time %" PRIu64
			     "): notice %d", req, t, got);
	}
}

static void assert_tally_empty(const struct tally *t, const char *what)
{
	cr_assert_eq(t->requests, 0, "%s: requests", what);
	cr_assert_eq(t->too_fast, 0, "%s: too_fast", what);
	cr_assert_eq(t->too_slow, 0, "%s: too_slow", what);
	cr_assert_eq(t->failed, 0, "%s: failed", what);
	cr_assert_eq(t->skipped, 0, "%s: skipped", what);
	cr_assert_eq(t->wall, 0, "%s: wall", what);
	cr_assert_eq(t->valid.count, 0, "%s: valid count", what);
	cr_assert_eq(t->valid.sum, 0, "%s: valid sum", what);
	cr_assert_eq(t->valid.min, UINT64_MAX, "%s: valid min", what);
	cr_assert_eq(t->valid.max, 0, "%s: valid max", what);
}

Test(account, init_is_empty)
{
	struct account a;

	memset(&a, 0x5a, sizeof(a));
	account_init(&a, &default_cfg);
	assert_tally_empty(&a.period, "period");
	assert_tally_empty(&a.total, "total");
	cr_assert_eq(a.read.count, 0);
	cr_assert_eq(a.write.count, 0);
	cr_assert_eq(a.cfg.warmup, 1);
	cr_assert_eq(a.cfg.max_time, UINT64_MAX);
}

/* ---- warmup ------------------------------------------------------------ */

Test(account, default_warmup_is_first_request)
{
	struct account a;

	account_init(&a, &default_cfg);
	cr_assert_eq(add(&a, 1, 500 * US), NOTICE_WARMUP);
	cr_assert_eq(a.period.requests, 1);
	cr_assert_eq(a.total.requests, 1);
	cr_assert_eq(a.period.valid.count, 0, "warmup must not be a valid request");
	cr_assert_eq(a.total.valid.count, 0);
	cr_assert_eq(add(&a, 2, 100 * US), NOTICE_NONE);
	cr_assert_eq(a.period.requests, 2);
	cr_assert_eq(a.period.valid.count, 1);
	cr_assert_eq(a.period.valid.sum, 100 * US);
}

Test(account, warmup_zero_counts_everything)
{
	struct account a;
	struct account_cfg cfg = default_cfg;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	cr_assert_eq(add(&a, 1, 500 * US), NOTICE_NONE);
	cr_assert_eq(a.period.valid.count, 1);
	cr_assert_eq(a.total.valid.max, 500 * US);
}

Test(account, warmup_three)
{
	struct account a;
	struct account_cfg cfg = default_cfg;

	cfg.warmup = 3;
	account_init(&a, &cfg);
	for (uint64_t r = 1; r <= 3; r++)
		cr_assert_eq(add(&a, r, 100), NOTICE_WARMUP, "request %" PRIu64, r);
	cr_assert_eq(add(&a, 4, 100), NOTICE_NONE);
	cr_assert_eq(a.total.requests, 4);
	cr_assert_eq(a.total.valid.count, 1);
}

/* Warmup goes by the request's index, not by how many were added. */
Test(account, warmup_uses_request_index)
{
	struct account a;
	struct account_cfg cfg = default_cfg;

	cfg.warmup = 2;
	account_init(&a, &cfg);
	cr_assert_eq(add(&a, 3, 100), NOTICE_NONE);
	cr_assert_eq(add(&a, 2, 100), NOTICE_WARMUP);
}

/* Warmup is decided before the -t / -T limits. */
Test(account, warmup_beats_time_limits)
{
	struct account a;
	struct account_cfg cfg = { 1, 100, 1000, false };

	account_init(&a, &cfg);
	cr_assert_eq(add(&a, 1, 5), NOTICE_WARMUP);
	cr_assert_eq(a.total.too_fast, 0);
	account_init(&a, &cfg);
	cr_assert_eq(add(&a, 1, 5000), NOTICE_WARMUP);
	cr_assert_eq(a.total.too_slow, 0);
}

/* ---- too fast / too slow ----------------------------------------------- */

struct limcase {
	uint64_t time;
	enum notice want;
};

ParameterizedTestParameters(account, time_limits)
{
	static struct limcase cases[] = {
		{ 0, NOTICE_TOO_FAST },
		{ 99, NOTICE_TOO_FAST },
		{ 100, NOTICE_NONE },   /* -t: strictly faster is too fast */
		{ 500, NOTICE_NONE },
		{ 1000, NOTICE_NONE },  /* -T: strictly slower is too slow */
		{ 1001, NOTICE_TOO_SLOW },
		{ UINT64_MAX, NOTICE_TOO_SLOW },
	};
	return cr_make_param_array(struct limcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct limcase *c, account, time_limits)
{
	struct account a;
	struct account_cfg cfg = { 0, 100, 1000, false };
	enum notice got;
	uint64_t valid = c->want == NOTICE_NONE;

	account_init(&a, &cfg);
	got = add(&a, 1, c->time);
	cr_assert_eq(got, c->want, "time %" PRIu64 ": notice %d, want %d", c->time, got, c->want);
	cr_assert_eq(a.period.requests, 1, "time %" PRIu64 ": requests", c->time);
	cr_assert_eq(a.total.requests, 1, "time %" PRIu64 ": total requests", c->time);
	cr_assert_eq(a.period.valid.count, valid, "time %" PRIu64 ": valid", c->time);
	cr_assert_eq(a.total.valid.count, valid, "time %" PRIu64 ": total valid", c->time);
	cr_assert_eq(a.period.too_fast, c->want == NOTICE_TOO_FAST, "time %" PRIu64, c->time);
	cr_assert_eq(a.total.too_fast, c->want == NOTICE_TOO_FAST, "time %" PRIu64, c->time);
	cr_assert_eq(a.period.too_slow, c->want == NOTICE_TOO_SLOW, "time %" PRIu64, c->time);
	cr_assert_eq(a.total.too_slow, c->want == NOTICE_TOO_SLOW, "time %" PRIu64, c->time);
}

Test(account, too_fast_and_slow_counted_apart)
{
	struct account a;
	struct account_cfg cfg = { 1, 100, 1000, false };
	static const uint64_t times[] = { 50, 10, 2000, 500, 3000, 4000, 700 };

	account_init(&a, &cfg);
	cr_assert_eq(add(&a, 1, 500), NOTICE_WARMUP);
	for (size_t i = 0; i < ARRAY_SIZE(times); i++)
		add(&a, i + 2, times[i]);
	cr_assert_eq(a.total.requests, 8);
	cr_assert_eq(a.total.too_fast, 2);
	cr_assert_eq(a.total.too_slow, 3);
	cr_assert_eq(a.total.valid.count, 2);
	cr_assert_eq(a.total.valid.sum, 1200);
	cr_assert_eq(a.total.valid.min, 500);
	cr_assert_eq(a.total.valid.max, 700);
	cr_assert_eq(a.period.too_fast, 2);
	cr_assert_eq(a.period.too_slow, 3);
}

/* ---- (fast) / (slow) --------------------------------------------------- */

/* Only from the 6th valid request of the period; notices before that are never given. */
Test(account, notices_need_six_valid)
{
	struct account a;
	uint64_t next = 2;

	account_init(&a, &default_cfg);
	add(&a, 1, 100); /* warmup: not one of the six */
	add_plain(&a, &next, 4, 100);
	cr_assert_eq(add(&a, next++, 1000000), NOTICE_NONE, "5th valid request");
	cr_assert_eq(add(&a, next++, 1000000), NOTICE_SLOW, "6th valid request");
}

Test(account, fast_from_sixth)
{
	struct account a;
	uint64_t next = 1;
	struct account_cfg cfg = default_cfg;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	add_plain(&a, &next, 4, 1000);
	cr_assert_eq(add(&a, next++, 1), NOTICE_NONE, "5th valid request");
	cr_assert_eq(add(&a, next++, 1), NOTICE_FAST, "6th valid request");
	cr_assert_eq(add(&a, next++, 1000), NOTICE_NONE, "7th, near the mean");
}

/* Too fast / too slow requests do not count towards the six. */
Test(account, excluded_requests_do_not_count_towards_six)
{
	struct account a;
	struct account_cfg cfg = { 0, 10, 100000, false };
	uint64_t next = 1;

	account_init(&a, &cfg);
	add_plain(&a, &next, 3, 100);
	cr_assert_eq(add(&a, next++, 1), NOTICE_TOO_FAST);
	cr_assert_eq(add(&a, next++, 200000), NOTICE_TOO_SLOW);
	add_plain(&a, &next, 1, 100);
	cr_assert_eq(add(&a, next++, 1000), NOTICE_NONE, "5th valid, 7th request");
	cr_assert_eq(add(&a, next++, 1000), NOTICE_SLOW, "6th valid");
}

/*
 * avg = (5*base + time) / 6 in integer ns, including the sixth request;
 * slow when time > 2*avg, fast when 2*time < avg.
 */
struct fs6case {
	uint64_t base;
	uint64_t time;
	enum notice want;
};

ParameterizedTestParameters(account, sixth_request)
{
	static struct fs6case cases[] = {
		{ 100, 100, NOTICE_NONE },
		{ 100, 300, NOTICE_SLOW },  /* avg 133 */
		{ 100, 210, NOTICE_NONE },  /* avg 118 with it; 2x the mean without it is 200 */
		{ 100, 250, NOTICE_NONE },  /* avg 125: 250 is not above 2*avg */
		{ 100, 251, NOTICE_SLOW },  /* avg 125 */
		{ 102, 255, NOTICE_SLOW },  /* avg 127 (127.5 truncated): 255 > 254 */
		{ 220, 100, NOTICE_NONE },  /* avg 200: 200 is not below */
		{ 220, 99, NOTICE_FAST },   /* avg 199 (199.8 truncated): 198 < 199 */
		{ 1000, 454, NOTICE_FAST }, /* avg 909 */
		{ 1000, 455, NOTICE_NONE }, /* avg 909: 910 */
		{ 1000, 0, NOTICE_FAST },
		{ 0, 0, NOTICE_NONE },      /* avg 0: 0 < 0 and 0 > 0 are both false */
		{ 0, 1, NOTICE_SLOW },      /* avg 0 */
	};
	return cr_make_param_array(struct fs6case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct fs6case *c, account, sixth_request)
{
	struct account a;
	struct account_cfg cfg = default_cfg;
	uint64_t next = 1;
	enum notice got;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	add_plain(&a, &next, 5, c->base);
	got = add(&a, next, c->time);
	cr_assert_eq(got, c->want, "five at %" PRIu64 ", then %" PRIu64 ": notice %d, want %d",
		     c->base, c->time, got, c->want);
	cr_assert_eq(a.period.valid.count, 6, "five at %" PRIu64 ", then %" PRIu64 ": counted",
		     c->base, c->time);
}

/* The notices use the period: after account_period_end they wait for six new valid ones. */
Test(account, notices_reset_with_period)
{
	struct account a;
	struct account_cfg cfg = default_cfg;
	uint64_t next = 1;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	add_plain(&a, &next, 6, 100);
	cr_assert_eq(add(&a, next++, 10000), NOTICE_SLOW);
	account_period_end(&a, 1000000, 0, NULL);
	add_plain(&a, &next, 4, 100);
	cr_assert_eq(add(&a, next++, 10000), NOTICE_NONE, "5th of the new period");
	cr_assert_eq(add(&a, next++, 10000), NOTICE_SLOW, "6th of the new period");
	cr_assert_eq(a.total.valid.count, 13);
	cr_assert_eq(a.period.valid.count, 6);
}

/* The notices compare with the period mean, not the run's. */
Test(account, notices_use_period_mean)
{
	struct account a;
	struct account_cfg cfg = default_cfg;
	uint64_t next = 1;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	add_plain(&a, &next, 20, 1000000);
	account_period_end(&a, 1, 0, NULL);
	add_plain(&a, &next, 5, 100);
	/* the run's mean is far above 2*150, the period's is 108 */
	cr_assert_eq(add(&a, next++, 150), NOTICE_NONE);
	cr_assert_eq(add(&a, next++, 1000), NOTICE_SLOW);
}

/* ---- failed and empty requests ------------------------------------------ */

Test(account, failed_request)
{
	struct account a;
	struct sample s = smp(2, 300);

	account_init(&a, &default_cfg);
	add(&a, 1, 100);
	s.result = -EIO;
	cr_assert_eq(account_add(&a, &s), NOTICE_ERROR);
	cr_assert_eq(a.period.requests, 2);
	cr_assert_eq(a.total.requests, 2);
	cr_assert_eq(a.period.failed, 1);
	cr_assert_eq(a.total.failed, 1);
	cr_assert_eq(a.total.valid.count, 0, "a failed request is not valid");
	cr_assert_eq(a.total.too_fast + a.total.too_slow, 0);
}

/* A failure is a failure even during warmup or beyond the -T limit. */
Test(account, failed_beats_warmup_and_limits)
{
	struct account a;
	struct account_cfg cfg = { 1, 100, 1000, false };
	struct sample s = smp(1, 50);

	account_init(&a, &cfg);
	s.result = -EAGAIN;
	cr_assert_eq(account_add(&a, &s), NOTICE_ERROR);
	s.request = 2;
	s.time = 5000;
	cr_assert_eq(account_add(&a, &s), NOTICE_ERROR);
	cr_assert_eq(a.total.failed, 2);
	cr_assert_eq(a.total.requests, 2);
	cr_assert_eq(a.total.too_fast, 0);
	cr_assert_eq(a.total.too_slow, 0);
}

Test(account, empty_result_counted_nowhere)
{
	struct account a;
	struct sample s = smp(1, 300);

	account_init(&a, &default_cfg);
	s.result = 0;
	cr_assert_eq(account_add(&a, &s), NOTICE_EMPTY);
	s.request = 2;
	cr_assert_eq(account_add(&a, &s), NOTICE_EMPTY);
	assert_tally_empty(&a.period, "period");
	assert_tally_empty(&a.total, "total");
	/* and the next real request is still judged by its index */
	cr_assert_eq(add(&a, 3, 300), NOTICE_NONE);
}

/* A short read (less than size, more than 0) is still a valid request. */
Test(account, short_result_is_valid)
{
	struct account a;
	struct sample s = smp(2, 300);

	account_init(&a, &default_cfg);
	s.result = 1;
	cr_assert_eq(account_add(&a, &s), NOTICE_NONE);
	cr_assert_eq(a.total.valid.count, 1);
}

/* ---- periods ------------------------------------------------------------ */

Test(account, period_end_copies_and_resets)
{
	struct account a;
	struct account_cfg cfg = { 1, 50, 1000, false };
	struct tally out;
	struct sample s = smp(6, 10);
	uint64_t next = 2;

	account_init(&a, &cfg);
	add(&a, 1, 100);
	add_plain(&a, &next, 3, 200);
	cr_assert_eq(add(&a, next++, 10), NOTICE_TOO_FAST);
	s.request = next++;
	s.result = -EIO;
	account_add(&a, &s);
	memset(&out, 0xee, sizeof(out));
	account_period_end(&a, 123456, 7, &out);

	cr_assert_eq(out.requests, 6);
	cr_assert_eq(out.too_fast, 1);
	cr_assert_eq(out.too_slow, 0);
	cr_assert_eq(out.failed, 1);
	cr_assert_eq(out.wall, 123456);
	cr_assert_eq(out.skipped, 7);
	cr_assert_eq(out.valid.count, 3);
	cr_assert_eq(out.valid.sum, 600);
	cr_assert_eq(out.valid.min, 200);
	cr_assert_eq(out.valid.max, 200);

	assert_tally_empty(&a.period, "new period");
	/* the total keeps everything; its wall and skipped are the caller's */
	cr_assert_eq(a.total.requests, 6);
	cr_assert_eq(a.total.failed, 1);
	cr_assert_eq(a.total.too_fast, 1);
	cr_assert_eq(a.total.valid.count, 3);
	cr_assert_eq(a.total.wall, 0);
	cr_assert_eq(a.total.skipped, 0);
}

Test(account, totals_span_periods)
{
	struct account a;
	struct account_cfg cfg = default_cfg;
	struct tally p1, p2;
	uint64_t next = 1;

	cfg.warmup = 0;
	account_init(&a, &cfg);
	add_plain(&a, &next, 2, 300);
	account_period_end(&a, 1000, 0, &p1);
	add_plain(&a, &next, 3, 100);
	account_period_end(&a, 2000, 1, &p2);
	add_plain(&a, &next, 1, 200);

	cr_assert_eq(p1.valid.count, 2);
	cr_assert_eq(p1.valid.min, 300);
	cr_assert_eq(p2.valid.count, 3);
	cr_assert_eq(p2.valid.max, 100);
	cr_assert_eq(p2.wall, 2000);
	cr_assert_eq(a.period.valid.count, 1, "the trailing partial period");
	cr_assert_eq(a.total.valid.count, 6);
	cr_assert_eq(a.total.valid.sum, 1100);
	cr_assert_eq(a.total.valid.min, 100);
	cr_assert_eq(a.total.valid.max, 300);
	cr_assert_eq(a.total.requests, 6);
}

/* ---- read / write split -------------------------------------------------- */

Test(account, split_read_write)
{
	struct account a;
	struct account_cfg cfg = { 1, 0, 5000, true };

	account_init(&a, &cfg);
	for (uint64_t r = 1; r <= 8; r++) {
		struct sample s = smp(r, r * 100);

		s.op = r % 2 ? OP_WRITE : OP_READ; /* -G: odd requests write */
		account_add(&a, &s);
	}
	{
		struct sample slow = smp(9, 9000);

		slow.op = OP_WRITE;
		cr_assert_eq(account_add(&a, &slow), NOTICE_TOO_SLOW);
	}
	/* request 1 (write) is warmup: writes 3, 5, 7; reads 2, 4, 6, 8 */
	cr_assert_eq(a.write.count, 3);
	cr_assert_eq(a.write.sum, 1500);
	cr_assert_eq(a.write.min, 300);
	cr_assert_eq(a.write.max, 700);
	cr_assert_eq(a.read.count, 4);
	cr_assert_eq(a.read.sum, 2000);
	cr_assert_eq(a.read.min, 200);
	cr_assert_eq(a.read.max, 800);
	cr_assert_eq(a.total.valid.count, 7);
}

Test(account, no_split_leaves_read_write_empty)
{
	struct account a;
	uint64_t next = 1;

	account_init(&a, &default_cfg);
	cr_assert_eq(add(&a, next++, 100), NOTICE_WARMUP);
	add_plain(&a, &next, 3, 100);
	cr_assert_eq(a.total.valid.count, 3);
	cr_assert_eq(a.read.count, 0);
	cr_assert_eq(a.write.count, 0);
}

/* Split statistics belong to the run: a period end leaves them alone. */
Test(account, split_survives_period_end)
{
	struct account a;
	struct account_cfg cfg = { 0, 0, UINT64_MAX, true };
	uint64_t next = 1;

	account_init(&a, &cfg);
	add_plain(&a, &next, 2, 100);
	account_period_end(&a, 10, 0, NULL);
	add_plain(&a, &next, 1, 100);
	cr_assert_eq(a.read.count, 3);
}

/* ---- notice texts ------------------------------------------------------- */

Test(account, notice_texts)
{
	cr_assert_str_eq(account_notice_text(NOTICE_WARMUP), "warmup");
	cr_assert_str_eq(account_notice_text(NOTICE_TOO_FAST), "too fast");
	cr_assert_str_eq(account_notice_text(NOTICE_TOO_SLOW), "too slow");
	cr_assert_str_eq(account_notice_text(NOTICE_FAST), "fast");
	cr_assert_str_eq(account_notice_text(NOTICE_SLOW), "slow");
	cr_assert_null(account_notice_text(NOTICE_NONE));
	cr_assert_null(account_notice_text(NOTICE_ERROR));
	cr_assert_null(account_notice_text(NOTICE_EMPTY));
}

/* ---- the exported tally (what the view's model counts with) ------------- */

Test(account, tally_add_counts_as_account_add)
{
	static const struct { int64_t result; uint64_t time; } reqs[] = {
		{ 4096, 100 }, { 4096, 5 }, { -5, 10 }, { 0, 10 }, { 4096, 900 },
		{ 4096, 100 }, { 4096, 110 }, { 4096, 90 }, { 4096, 100 }, { 4096, 1000 },
	};
	struct account_cfg cfg = { 1, 10, 800, false };
	struct account a;
	struct tally t;

	account_init(&a, &cfg);
	tally_init(&t);
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		struct sample s = { .request = i + 1, .size = 4096, .result = reqs[i].result,
				    .time = reqs[i].time };

		tally_add(&t, &s, account_add(&a, &s));
	}
	cr_assert_eq(t.requests, a.total.requests);
	cr_assert_eq(t.requests, 9); /* the empty one is counted nowhere */
	cr_assert_eq(t.failed, 1);
	cr_assert_eq(t.too_fast, 1);
	cr_assert_eq(t.too_slow, 2);
	cr_assert_eq(t.valid.count, a.total.valid.count);
	cr_assert_eq(t.valid.sum, a.total.valid.sum);
	cr_assert_float_eq(tally_iops(&t), (double)t.valid.count * 1e9 / (double)t.valid.sum,
			   1e-9);
}

Test(account, tally_rates_without_data_are_zero)
{
	struct tally t;

	tally_init(&t);
	cr_assert_eq(tally_iops(&t), 0);
	cr_assert_eq(tally_load_iops(&t), 0);
	t.requests = 10;
	t.wall = 2000000000ull;
	cr_assert_float_eq(tally_load_iops(&t), 5.0, 1e-12);
}

/* tally_merge: two halves add up to the whole (counts exact, mean within rounding). */
Test(account, tally_merge_halves)
{
	static struct tally a, b, all;
	struct sample s = { .result = 4096 };

	tally_init(&a);
	tally_init(&b);
	tally_init(&all);
	for (uint64_t k = 1; k <= 100; k++) {
		s.request = k;
		s.time = k * 1000;
		s.response = k * 1000 + 7;
		tally_add(k <= 40 ? &a : &b, &s, k % 10 ? NOTICE_NONE : NOTICE_ERROR);
		tally_add(&all, &s, k % 10 ? NOTICE_NONE : NOTICE_ERROR);
	}
	a.wall = 3;
	b.wall = 4;
	a.skipped = 1;
	tally_merge(&a, &b);
	cr_assert_eq(a.requests, all.requests);
	cr_assert_eq(a.failed, all.failed);
	cr_assert_eq(a.valid.count, all.valid.count);
	cr_assert_eq(a.valid.sum, all.valid.sum);
	cr_assert_eq(memcmp(a.valid.hist, all.valid.hist, sizeof(a.valid.hist)), 0);
	cr_assert_eq(a.wall, 7);
	cr_assert_eq(a.skipped, 1);
	cr_assert_float_eq(a.valid.mean, all.valid.mean, 1e-9);
}

/* Percentile names: "p99.9" for people, "p999" for InfluxDB field keys. */
Test(account, percentile_labels_and_keys)
{
	char b[32];

	cr_assert_str_eq(pcts_label(99.9, b, sizeof(b)), "p99.9");
	cr_assert_str_eq(pcts_label(95, b, sizeof(b)), "p95");
	cr_assert_str_eq(pcts_label(99.99, b, sizeof(b)), "p99.99");
	cr_assert_str_eq(pcts_key(99.9, b, sizeof(b)), "p999");
	cr_assert_str_eq(pcts_key(50, b, sizeof(b)), "p50");
	cr_assert_str_eq(pcts_key(99.99, b, 4), "p99", "cut to the buffer");
	cr_assert_eq(pcts_default.n, 4);
}
