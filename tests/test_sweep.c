/* Unit tests for src/disk/sweep.c: the plan of an asked-rate sweep and its table. */
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

/* A step's tally: n valid requests of lat ns over wall ns, skipped slots. */
static void step_tally(struct tally *t, uint64_t n, uint64_t lat, uint64_t wall, uint64_t skipped)
{
	memset(t, 0, sizeof(*t));
	stats_init(&t->valid);
	stats_init(&t->response);
	for (uint64_t i = 0; i < n; i++)
		stats_add(&t->valid, lat);
	t->requests = n;
	t->wall = wall;
	t->skipped = skipped;
}

Test(sweep, judge_fills_a_row_that_keeps_up)
{
	static struct tally t;
	struct iostat_row row = { .interval_ns = 1000000000ull, .r_s = 20, .tps = 20,
				  .avgrq_sz = 8, .aqu_sz = 0.15, .await = 7.2, .util = 14.6,
				  .rkb_s = 80 };
	struct verdict_dev dev = { "loop3", &row, 0, -1, 0 };
	struct sweep_probe sp = { .run = { .size = 4096 } };
	struct verdict_hist h;
	struct verdict v;
	struct sweep_row r;

	verdict_hist_init(&h);
	step_tally(&t, 20, 7200000, 1000000000ull, 0);
	sweep_judge(&h, &sp, 20, &t, &dev, 1, &v, &r);
	cr_assert_eq(v.state, VERDICT_KEEPS_UP);
	cr_assert(r.kept_up);
	cr_assert_eq(r.size, 4096);
	cr_assert_float_eq(r.asked, 20, 1e-9);
	cr_assert_float_eq(r.achieved, 20, 1e-9);
	cr_assert_float_eq(r.areq_kb, 4, 1e-9, "avgrq-sz 8 sectors is 4 kB");
	cr_assert_float_eq(r.dev_mbs, 80.0 / 1024, 1e-9);
	cr_assert_eq(r.p50_ns, 7200000);
	cr_assert_eq(r.rp50_ns, 0, "response percentiles only when asked");
	cr_assert_null(r.verdict);
}

Test(sweep, judge_a_step_that_falls_short)
{
	static struct tally t;
	struct iostat_row row = { .interval_ns = 1000000000ull, .r_s = 137, .tps = 137,
				  .avgrq_sz = 8, .aqu_sz = 0.99, .await = 7.2, .util = 98.5 };
	struct verdict_dev dev = { "loop3", &row, 0, -1, 0 };
	struct sweep_probe sp = { .run = { .size = 4096 }, .response = true };
	struct verdict_hist h;
	struct verdict v;
	struct sweep_row r;

	verdict_hist_init(&h);
	step_tally(&t, 137, 7200000, 1000000000ull, 63);
	sweep_judge(&h, &sp, 200, &t, &dev, 1, &v, &r);
	cr_assert_eq(v.state, VERDICT_FALLS_SHORT);
	cr_assert_not(r.kept_up);
	cr_assert_eq(r.skipped, 63);
	cr_assert_float_eq(r.util, 98.5, 1e-9);
}

/* A step whose probe waited for a CPU (its process's run delay, measured) falls short on the
 * probe's side, said with the wait — not on an idle device's. */
Test(sweep, a_step_short_of_cpu_is_the_probes)
{
	static struct tally t;
	struct iostat_row row = { .interval_ns = 1000000000ull, .r_s = 60, .tps = 60,
				  .avgrq_sz = 8, .aqu_sz = 0.01, .await = 0.1, .util = 1 };
	struct verdict_dev dev = { "loop3", &row, 0, -1, 0 };
	struct sweep_probe sp = { .run = { .size = 4096 }, .cpu_known = true,
				  .cpu_wait_ns = 600000000ull, .host_some_ns = 500000000 };
	struct verdict_hist h;
	struct verdict v;
	struct sweep_row r;
	struct sbuf sb = SBUF_INIT;

	verdict_hist_init(&h);
	step_tally(&t, 60, 8000000, 1000000000ull, 40);
	sweep_judge(&h, &sp, 100, &t, &dev, 1, &v, &r);
	verdict_format(&sb, &v);
	cr_assert_eq(v.reason, VERDICT_PROBE_CPU, "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "the probe waited 600 ms of each second for a CPU (host "
					"cpu some 50 %)"), "%s", sbuf_str(&sb));
	cr_assert_not(r.kept_up);
	sbuf_free(&sb);
}

/* The one runner: each step's settings from the plan, each finished step judged and recorded. */
Test(sweep, runner_steps_and_rows)
{
	struct probe_cfg base = { .count = 7, .print_count = 3, .interval = 5, .cached = true };
	struct verdict_probe run;
	struct sweep_run sr;
	struct probe_cfg pc;
	struct sweep_row r;
	struct tally t;
	char verdict[200];
	struct sbuf knee = SBUF_INIT;
	double rates[2];

	verdict_probe_settings(&run, 0, 4096, false, false, true, 1);
	sweep_run_init(&sr, "50,100", &base, 2000000000ull, &run, false);
	for (int i = 0; i < 2; i++) {
		rates[i] = sweep_run_step(&sr, &pc);
		cr_assert(pc.count == 0 && pc.print_count == 0 && pc.cached, "the base, per step");
		cr_assert_eq(pc.deadline, 2000000000ull);
		cr_assert_eq(pc.interval, (uint64_t)(1e9 / rates[i] + 0.5));
		tally_init(&t);
		t.wall = 2000000000ull;
		t.requests = (uint64_t)(2 * rates[i]);
		for (uint64_t k = 0; k < t.requests; k++)
			stats_add(&t.valid, 100000);
		sweep_run_done(&sr, &t, NULL, 0, &r, verdict, sizeof(verdict));
		cr_assert_eq(r.verdict, verdict, "the row points at the caller's text");
		cr_assert(verdict[0] && sr.words[0], "a verdict and its words");
		cr_assert(r.asked == rates[i] && r.size == 4096);
	}
	cr_assert(rates[0] == 50 && rates[1] == 100);
	cr_assert_eq(sweep_run_step(&sr, &pc), 0, "the plan is done");
	sweep_run_knee(&sr, &knee);
	cr_assert(knee.len > 0 && sbuf_str(&knee)[knee.len - 1] == '\n', "%s", sbuf_str(&knee));
	sbuf_free(&knee);
}
