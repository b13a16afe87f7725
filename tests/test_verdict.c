/*
 * verdict: expected device rates (pieces, flushes, write cache) and the
 * verdict states, fed with rows recorded from real runs on loop devices over
 * the FUSE fault disk (serial, 7 ms per request) beside `iostat -dx 1`.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"

#define SEC 1000000000ull
#define MS 1000000ull

/* A probe of -s size at asked/s with -D -WWW (flush unless -C), one request in flight. */
static struct verdict_probe wprobe(double asked, uint64_t size, bool flush)
{
	struct verdict_probe p = { 0 };

	p.asked = asked;
	p.size = size;
	p.write_share = 1;
	p.flush = flush;
	p.depth = 1;
	p.period_ns = SEC;
	return p;
}

/* A recorded interval: what the probe did and the device's row over the same second. */
struct rec {
	uint64_t done, skipped;
	double p50_ms, p99_ms;
	double w_s, f_s, f_await, w_await, await, aqu, util;
};

static void judge(struct verdict_hist *h, struct verdict_probe p, unsigned max_kb, int cache,
		  const struct rec *r, struct verdict *v)
{
	struct iostat_row row;
	struct verdict_dev d = { "loop0", &row, max_kb, cache };

	memset(&row, 0, sizeof(row));
	row.interval_ns = SEC;
	row.w_s = r->w_s;
	row.f_s = r->f_s;
	row.f_await = r->f_await;
	row.w_await = r->w_await;
	row.await = r->await;
	row.aqu_sz = r->aqu;
	row.util = r->util;
	p.done = r->done;
	p.skipped = r->skipped;
	p.p50_ns = (uint64_t)(r->p50_ms * MS);
	p.p99_ns = (uint64_t)(r->p99_ms * MS);
	cr_assert_eq(verdict_judge(h, &p, &d, 1, v), 0);
}

static char *line(const struct verdict *v, char *buf, size_t len)
{
	struct sbuf sb = SBUF_INIT;

	verdict_format(&sb, v);
	snprintf(buf, len, "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	return buf;
}

Test(verdict, expect_pieces_and_flushes)
{
	struct verdict_probe p = wprobe(70, 256 << 10, true);
	struct verdict_dev d = { "loop0", NULL, 1280, VERDICT_CACHE_BACK };
	struct verdict_expect e;

	/* measured: 70 writes/s of 256 KiB with fdatasync -> w/s 140, f/s 70 */
	cr_assert_eq(verdict_expect(&p, &d, 70, &e), 0);
	cr_assert_eq(e.pieces, 1);
	cr_assert_float_eq(e.w_s, 140, 1e-9);
	cr_assert_float_eq(e.f_s, 70, 1e-9);
	cr_assert_float_eq(e.total, 140, 1e-9);
	cr_assert_float_eq(e.own_aqu, 1, 1e-9);
	/* "write through": the PREFLUSH is dropped, nothing counted */
	d.write_cache = VERDICT_CACHE_THROUGH;
	verdict_expect(&p, &d, 70, &e);
	cr_assert_float_eq(e.w_s, 70, 1e-9);
	cr_assert_float_eq(e.f_s, 0, 1e-9);
	/* unknown cache: counted (the upper bound) */
	d.write_cache = VERDICT_CACHE_UNKNOWN;
	verdict_expect(&p, &d, 70, &e);
	cr_assert_float_eq(e.w_s, 140, 1e-9);
	/* -C: no fdatasync */
	p.flush = false;
	d.write_cache = VERDICT_CACHE_BACK;
	verdict_expect(&p, &d, 70, &e);
	cr_assert_float_eq(e.w_s, 70, 1e-9);
	cr_assert_float_eq(e.f_s, 0, 1e-9);
}

Test(verdict, expect_split_requests)
{
	struct verdict_probe p = wprobe(35, 512 << 10, true);
	struct verdict_dev d = { "loop0", NULL, 256, VERDICT_CACHE_BACK };
	struct verdict_expect e;

	/* measured: 512 KiB at 35/s with max_sectors_kb 256 and fdatasync: w/s 105 = 35 x 3 */
	verdict_expect(&p, &d, 35, &e);
	cr_assert_eq(e.pieces, 2);
	cr_assert_float_eq(e.w_s, 105, 1e-9);
	d.max_sectors_kb = 128;
	verdict_expect(&p, &d, 35, &e);
	cr_assert_eq(e.pieces, 4);
	cr_assert_float_eq(e.w_s, 175, 1e-9);
	cr_assert_float_eq(e.own_aqu, 4, 1e-9);
	/* an exact multiple is not one more piece; unknown max: no split */
	p.size = 256 << 10;
	d.max_sectors_kb = 128;
	verdict_expect(&p, &d, 1, &e);
	cr_assert_eq(e.pieces, 2);
	d.max_sectors_kb = 0;
	verdict_expect(&p, &d, 1, &e);
	cr_assert_eq(e.pieces, 1);
}

Test(verdict, expect_reads_and_the_mix)
{
	struct verdict_probe p = wprobe(100, 4096, true);
	struct verdict_dev d = { "loop0", NULL, 128, VERDICT_CACHE_BACK };
	struct verdict_expect e;

	p.write_share = 0;
	verdict_expect(&p, &d, 100, &e);
	cr_assert_float_eq(e.r_s, 100, 1e-9);
	cr_assert_float_eq(e.w_s, 0, 1e-9, "reads are not flushed");
	p.write_share = 0.5; /* -G: every other request writes */
	verdict_expect(&p, &d, 100, &e);
	cr_assert_float_eq(e.r_s, 50, 1e-9);
	cr_assert_float_eq(e.w_s, 100, 1e-9);
	cr_assert_float_eq(e.f_s, 50, 1e-9);
	cr_assert_float_eq(e.per_request, 1.5, 1e-9);
}

Test(verdict, bad_arguments)
{
	struct verdict_probe p = wprobe(1, 0, false);
	struct verdict_dev d = { "x", NULL, 0, -1 };
	struct verdict_expect e;
	struct verdict_hist h;
	struct verdict v;

	cr_assert_eq(verdict_expect(&p, &d, 1, &e), -EINVAL, "size 0");
	cr_assert_eq(verdict_expect(NULL, &d, 1, &e), -EINVAL);
	cr_assert_eq(verdict_expect(&p, &d, 1, NULL), -EINVAL);
	verdict_hist_init(&h);
	cr_assert_eq(verdict_judge(NULL, &p, &d, 1, &v), -EINVAL);
	cr_assert_eq(verdict_judge(&h, NULL, &d, 1, &v), -EINVAL);
	cr_assert_eq(verdict_judge(&h, &p, &d, 1, NULL), -EINVAL);
}

Test(verdict, words)
{
	cr_assert_str_eq(verdict_state_text(VERDICT_KEEPS_UP), "keeps up");
	cr_assert_str_eq(verdict_state_text(VERDICT_FALLS_SHORT), "falls short");
	cr_assert_str_eq(verdict_state_text(VERDICT_OTHER_IO), "other I/O");
	cr_assert_str_eq(verdict_state_text(VERDICT_QUEUE_BUILDING), "queue building");
	cr_assert_str_eq(verdict_state_text(VERDICT_NONE), "no verdict");
	cr_assert_str_eq(verdict_reason_text(VERDICT_DEVICE_SATURATED), "device saturated");
	cr_assert_str_eq(verdict_reason_text(VERDICT_WAIT_ABOVE), "wait above the device");
	cr_assert_str_eq(verdict_reason_text(VERDICT_PROBE_LIMITED), "probe limited");
}

Test(verdict, unpaced_and_no_row)
{
	struct verdict_probe p = wprobe(0, 4096, false);
	struct verdict_hist h;
	struct verdict v;
	struct rec r = { .done = 130, .p50_ms = 7.4, .w_s = 130, .await = 7.4, .aqu = 0.97,
			 .util = 96 };
	char buf[256];

	verdict_hist_init(&h);
	judge(&h, p, 1280, 1, &r, &v);
	cr_assert_eq(v.state, VERDICT_NONE);
	cr_assert_eq(v.reason, VERDICT_UNPACED);
	cr_assert(strncmp(line(&v, buf, sizeof(buf)), "no verdict: unpaced", 19) == 0, "%s", buf);
	p.asked = 10;
	cr_assert_eq(verdict_judge(&h, &p, NULL, 0, &v), 0);
	cr_assert_eq(v.state, VERDICT_NONE);
	cr_assert_eq(v.reason, VERDICT_NO_DEVICE);
}
