/*
 * Tests for tui/tui_verdict.c: the view's verdict is src/verdict's on the
 * same inputs as --iostat — the asked rate from the options (never the rate
 * achieved), write_cache and max_sectors_kb from devwatch, the interval's
 * latencies and the probe's own skipped count.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "tui_verdict.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

/* One watched device "loop0" with an OK row: w/s, f/s, busy, aqu-sz and w_await. */
static struct devwatch *dev(double w_s, double f_s, double util, double aqu, double w_await,
			    int write_cache)
{
	struct devwatch *w = calloc(1, sizeof(*w));
	struct devwatch_dev *d;

	cr_assert_not_null(w);
	devwatch_reset(w, NULL);
	cr_assert_eq(devwatch_watch(w, "loop0", 7, 0), 0);
	d = &w->dev[0];
	d->state = DEVWATCH_OK;
	d->write_cache = write_cache;
	d->max_sectors_kb = 1280;
	d->row.interval_ns = SEC;
	d->row.w_s = w_s;
	d->row.f_s = f_s;
	d->row.util = util;
	d->row.aqu_sz = aqu;
	d->row.w_await = w_await;
	d->row.await = w_await;
	d->row.wareq_sz = 128;
	return w;
}

static struct tui_verdict *tv_new(double asked)
{
	struct tui_verdict *tv = malloc(sizeof(*tv));
	struct verdict_probe cfg;

	verdict_probe_settings(&cfg, asked, 256 * 1024, true, false, false, 1);

	cr_assert_not_null(tv);
	tui_verdict_init(tv, &cfg);
	return tv;
}

/* n requests of lat ns, the probe's skipped count at skipped. */
static void feed(struct tui_verdict *tv, int n, uint64_t lat, uint64_t skipped)
{
	for (int i = 0; i < n; i++) {
		struct sample s = { 0 };

		s.request = (uint64_t)i + 1;
		s.result = 256 * 1024;
		s.time = lat;
		s.skipped = skipped;
		tui_verdict_add(tv, &s);
	}
}

static void texts(const struct tui_verdict *tv, struct sbuf *a, struct sbuf *b)
{
	sbuf_reset(a);
	sbuf_reset(b);
	cr_assert_eq(tui_verdict_text(tv, a, b), 0);
}

Test(tui_verdict, nothing_before_the_first_interval)
{
	struct tui_verdict *tv = tv_new(70);
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	cr_assert_eq(tui_verdict_text(tv, &a, &b), -ENODATA);
	free(tv);
}

Test(tui_verdict, keeps_up_with_the_flushes_counted)
{
	struct tui_verdict *tv = tv_new(70);
	struct devwatch *w = dev(140, 70, 53, 0.53, 3.7, VERDICT_CACHE_BACK);
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	feed(tv, 70, 7400000, 0);
	tui_verdict_judge(tv, w, SEC, 0);
	texts(tv, &a, &b);
	cr_assert_str_eq(sbuf_str(&a), "asked 70/s  got 70/s (0 %)  dev 140/s (expected 140)");
	cr_assert(!strncmp(sbuf_str(&b), "keeps up: dev 140/s (expected 140: 1 piece + 1 flush",
			   52), "%s", sbuf_str(&b));
	sbuf_free(&a);
	sbuf_free(&b);
	free(tv);
	free(w);
}

Test(tui_verdict, write_through_comes_from_devwatch)
{
	struct tui_verdict *tv = tv_new(70);
	struct devwatch *w = dev(70, 0, 50, 0.5, 7, VERDICT_CACHE_THROUGH);
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	feed(tv, 70, 7 * MS, 0);
	tui_verdict_judge(tv, w, SEC, 0);
	texts(tv, &a, &b);
	cr_assert_str_eq(sbuf_str(&a), "asked 70/s  got 70/s (0 %)  dev 70/s (expected 70)");
	cr_assert_eq(tv->v.state, VERDICT_KEEPS_UP);
	sbuf_free(&a);
	sbuf_free(&b);
	free(tv);
	free(w);
}

Test(tui_verdict, falls_short_shows_the_asked_rate_not_the_achieved)
{
	struct tui_verdict *tv = tv_new(200);
	struct devwatch *w = dev(262, 131, 96, 0.97, 3.7, VERDICT_CACHE_BACK);
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	feed(tv, 130, 7400000, 70);
	tui_verdict_judge(tv, w, SEC, 0);
	texts(tv, &a, &b);
	cr_assert_str_eq(sbuf_str(&a), "asked 200/s  got 130/s (-35 %)  dev 262/s (expected 400)");
	cr_assert(!strncmp(sbuf_str(&b), "falls short: device saturated: busy ", 36),
		  "the rates line says got and asked, the verdict does not repeat it: %s",
		  sbuf_str(&b));
	cr_assert_eq(tv->v.skipped, 70);
	/* the next interval counts only its own skipped slots and requests */
	feed(tv, 131, 7400000, 139);
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.skipped, 69);
	cr_assert_eq(tv->v.done, 131);
	sbuf_free(&a);
	sbuf_free(&b);
	free(tv);
	free(w);
}

Test(tui_verdict, the_asked_rate_follows_the_interval_keys)
{
	struct tui_verdict *tv = tv_new(70);
	struct devwatch *w = dev(140, 70, 53, 0.53, 3.7, VERDICT_CACHE_BACK);

	tui_verdict_set_asked(tv, 0);
	feed(tv, 70, 7 * MS, 0);
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.state, VERDICT_NONE, "unpaced (or paused): nothing to compare");
	cr_assert_eq(tv->v.reason, VERDICT_UNPACED);
	free(tv);
	free(w);
}

Test(tui_verdict, no_device_row_keeps_the_last_verdict)
{
	struct tui_verdict *tv = tv_new(70);
	struct devwatch *w = dev(140, 70, 53, 0.53, 3.7, VERDICT_CACHE_BACK);

	feed(tv, 70, 7 * MS, 0);
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.state, VERDICT_KEEPS_UP);
	w->dev[0].state = DEVWATCH_MISSING;
	feed(tv, 3, 7 * MS, 0);
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.state, VERDICT_KEEPS_UP);
	cr_assert_eq(tv->v.done, 70);
	free(tv);
	free(w);
}

/* n requests of lat ns finishing at run times from first_end, step ns apart. */
static void feed_at(struct tui_verdict *tv, int n, uint64_t lat, uint64_t first_end, uint64_t step)
{
	for (int i = 0; i < n; i++) {
		struct sample s = { 0 };

		s.request = (uint64_t)i + 1;
		s.result = 256 * 1024;
		s.time = lat;
		s.start = first_end + (uint64_t)i * step - lat;
		tui_verdict_add(tv, &s);
	}
}

Test(tui_verdict, the_cut_puts_requests_finished_after_it_in_the_next_interval)
{
	struct tui_verdict *tv = tv_new(70);
	struct devwatch *w = dev(70, 70, 53, 0.53, 3.7, VERDICT_CACHE_BACK);

	feed_at(tv, 60, 1000000, 100 * MS, 10 * MS);   /* 0.10 .. 0.69 s */
	tui_verdict_cut(tv, 1000 * MS);                 /* the device was read at 1.0 s */
	feed_at(tv, 10, 1000000, 900 * MS, 10 * MS);   /* reached the view late: 0.90 .. 0.99 s */
	feed_at(tv, 7, 1000000, 1001 * MS, 10 * MS);   /* after the read: the next interval's */
	cr_assert_eq(tv->added, 77);
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.done, 70, "the requests up to the read: %llu",
		     (unsigned long long)tv->v.done);
	feed_at(tv, 63, 1000000, 1071 * MS, 10 * MS);  /* the next interval, uncut */
	tui_verdict_judge(tv, w, SEC, 0);
	cr_assert_eq(tv->v.done, 70, "the 7 after the cut and 63 more: %llu",
		     (unsigned long long)tv->v.done);
	free(tv);
	free(w);
}
