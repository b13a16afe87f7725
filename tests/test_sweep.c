/* Unit tests for src/sweep.c: the plan of an asked-rate sweep and its table. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sweep.h"

/* Run an auto plan against a device that keeps up below capacity. */
static size_t run_auto(double capacity, double *knee)
{
	struct sweep_plan p;
	char msg[128];
	double r;
	size_t steps = 0;

	cr_assert_eq(sweep_parse("auto", &p, msg, sizeof(msg)), 0);
	while ((r = sweep_next(&p))) {
		sweep_record(&p, r, r <= capacity);
		steps++;
	}
	*knee = sweep_knee(&p);
	return steps;
}

Test(sweep, auto_finds_the_knee_within_the_precision)
{
	static const double caps[] = { 132, 7.4, 1000, 45000, 3 };

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		double knee;
		size_t steps = run_auto(caps[i], &knee);

		cr_assert(knee <= caps[i] && knee >= caps[i] * (1 - 2 * SWEEP_AUTO_PRECISION),
			  "capacity %g: knee %g", caps[i], knee);
		cr_assert(steps < SWEEP_MAX_STEPS, "capacity %g took %zu steps", caps[i], steps);
	}
}

Test(sweep, auto_starts_low_and_doubles)
{
	struct sweep_plan p;

	double r;

	sweep_parse(NULL, &p, NULL, 0);
	cr_assert(p.automatic);
	r = sweep_next(&p);
	cr_assert_float_eq(r, SWEEP_AUTO_START, 1e-9);
	sweep_record(&p, r, true);
	r = sweep_next(&p);
	cr_assert_float_eq(r, 2 * SWEEP_AUTO_START, 1e-9);
	sweep_record(&p, r, false);
	r = sweep_next(&p);
	cr_assert_float_eq(r, 1.5 * SWEEP_AUTO_START, 1e-9, "bisects");
}

Test(sweep, auto_first_step_short_halves)
{
	struct sweep_plan p;

	double r;

	sweep_parse("auto", &p, NULL, 0);
	sweep_record(&p, sweep_next(&p), false);
	r = sweep_next(&p);
	cr_assert_float_eq(r, SWEEP_AUTO_START / 2, 1e-9);
}

Test(sweep, auto_stops_at_the_maximum_when_everything_keeps_up)
{
	double knee;
	size_t steps = run_auto(INFINITY, &knee);

	cr_assert_float_eq(knee, SWEEP_AUTO_MAX, 1e-9);
	cr_assert_eq(steps, 18, "8, 16, ... 2^20");
}

Test(sweep, list_runs_exactly_the_given_rates)
{
	struct sweep_plan p;
	char msg[128];
	double got[8];
	size_t n = 0;
	double r;

	cr_assert_eq(sweep_parse("50,100,1.5k,0.5", &p, msg, sizeof(msg)), 0, "%s", msg);
	while ((r = sweep_next(&p))) {
		got[n++] = r;
		sweep_record(&p, r, false);
	}
	cr_assert_eq(n, 4);
	cr_assert_float_eq(got[0], 50, 1e-9);
	cr_assert_float_eq(got[1], 100, 1e-9);
	cr_assert_float_eq(got[2], 1500, 1e-9);
	cr_assert_float_eq(got[3], 0.5, 1e-9);
}

Test(sweep, bad_lists_are_refused)
{
	static const char *const bad[] = { "0", "10,,20", "10,", ",10", "x", "-5", "10,abc" };
	struct sweep_plan p;
	char msg[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		cr_assert_eq(sweep_parse(bad[i], &p, msg, sizeof(msg)), -EINVAL, "%s", bad[i]);
		cr_assert(msg[0], "a message for %s", bad[i]);
	}
}

Test(sweep, knee_lines)
{
	struct sweep_plan p;
	struct sbuf sb = SBUF_INIT;

	sweep_parse("100,140,200", &p, NULL, 0);
	sweep_record(&p, sweep_next(&p), true);
	sweep_record(&p, sweep_next(&p), true);
	sweep_record(&p, sweep_next(&p), false);
	sweep_format_knee(&sb, &p, 262144, "falls short: device saturated");
	cr_assert_str_eq(sbuf_str(&sb), "keeps up to ~140/s (35 MiB/s) at 256 KiB; beyond it: "
			 "falls short: device saturated\n");
	sbuf_free(&sb);

	sweep_parse("100", &p, NULL, 0);
	sweep_record(&p, sweep_next(&p), true);
	sweep_format_knee(&sb, &p, 4096, NULL);
	cr_assert_str_eq(sbuf_str(&sb), "keeps up with every step, up to 100/s (400 KiB/s) at 4 KiB\n");
	sbuf_free(&sb);

	sweep_parse("500", &p, NULL, 0);
	sweep_record(&p, sweep_next(&p), false);
	sweep_format_knee(&sb, &p, 4096, "falls short: probe limited");
	cr_assert_str_eq(sbuf_str(&sb), "falls short from the first step (500/s at 4 KiB): "
			 "falls short: probe limited\n");
	sbuf_free(&sb);
}

Test(sweep, row_and_json)
{
	struct sweep_row r = {
		.size = 262144, .asked = 200, .achieved = 131.2, .expected = 400, .dev_rate = 262.4,
		.areq_kb = 128, .aqu = 0.97, .await_ms = 3.7, .util = 96.1, .dev_mbs = 32.8,
		.p50_ns = 7410000, .p99_ns = 7980000, .skipped = 69, .kept_up = false,
		.verdict = "falls short: device saturated",
	};
	struct sbuf sb = SBUF_INIT;

	sweep_format_row(&sb, &r);
	cr_assert(strstr(sbuf_str(&sb), "256 KiB"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "50 MiB"), "asked bytes/s: %s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "   7.410    7.980        -        -      69  "
			 "falls short: device saturated\n"), "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	sweep_json_row(&sb, &r);
	cr_assert(strstr(sbuf_str(&sb), "\"asked_bps\": 52428800,"), "%s", sbuf_str(&sb));
	cr_assert(!strstr(sbuf_str(&sb), "response_p50"));
	cr_assert(strstr(sbuf_str(&sb), "\"kept_up\": false, \"verdict\": \"falls short: device "
			 "saturated\"}"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}
