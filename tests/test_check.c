/*
 * Tests for src/out/check.c: the monitoring-plugins guidelines' output line
 * ("SERVICE STATUS - text | perfdata", 'label'=value[UOM];warn;crit;min;max)
 * and states: latency above its thresholds, iops below them (ranges "W:"),
 * any failed request CRITICAL, nothing measured or a broken run UNKNOWN.
 */
#include <criterion/criterion.h>
#include <math.h>

#include <stdio.h>
#include <string.h>

#include "check.h"

#define MS UINT64_C(1000000)

static struct tally tally_of(const uint64_t *ns, size_t n, uint64_t failed)
{
	struct tally t;

	memset(&t, 0, sizeof(t));
	stats_init(&t.valid);
	for (size_t i = 0; i < n; i++)
		stats_add(&t.valid, ns[i]);
	t.failed = failed;
	t.requests = n + failed;
	return t;
}

#define ABOVE(x) { 0, (double)(x), false }
#define BELOW(x) { (double)(x), INFINITY, false }

static const struct check_cfg cfg = { ABOVE(10 * MS), ABOVE(50 * MS), false, BELOW(0), BELOW(0) };

static enum check_state run(const struct check_cfg *c, const struct tally *t, const char *problem,
			    char *out, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	enum check_state st = check_report(&sb, c, t, problem);

	snprintf(out, len, "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	return st;
}

Test(check, ok_line_and_perfdata)
{
	uint64_t ns[] = { 2 * MS, 2 * MS, 4 * MS };
	struct tally t = tally_of(ns, 3, 0);
	char out[512];

	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_OK);
	cr_assert_str_eq(out, "IOPROBE OK - p99 4.000 ms, avg 2.667 ms, 375.0 iops, 3 requests, "
			 "0 failed | 'p99'=4.000000ms;10.000000;50.000000;0 'avg'=2.666667ms;;;0 "
			 "'iops'=375.000;;;0 'requests'=3;;;0 'failed'=0;;0;0\n");
}

Test(check, latency_states)
{
	uint64_t warn[] = { 20 * MS }, crit[] = { 60 * MS }, edge[] = { 10 * MS };
	struct tally t;
	char out[512];

	t = tally_of(warn, 1, 0);
	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_WARNING);
	cr_assert(!strncmp(out, "IOPROBE WARNING - p99 20.000 ms", 31), "%s", out);
	t = tally_of(crit, 1, 0);
	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(!strncmp(out, "IOPROBE CRITICAL - ", 19));
	t = tally_of(edge, 1, 0); /* at the threshold is still fine (alert when above) */
	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_OK);
}

Test(check, failed_requests_are_critical)
{
	uint64_t ns[] = { 1 * MS };
	struct tally t = tally_of(ns, 1, 1);
	char out[512];

	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(strstr(out, ", 1 failed | "));
	cr_assert(strstr(out, "'failed'=1;;0;0"));
}

Test(check, all_failed_is_critical_not_unknown)
{
	struct tally t = tally_of(NULL, 0, 3);
	char out[512];

	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(!strncmp(out, "IOPROBE CRITICAL - ", 19), "%s", out);
	cr_assert(strstr(out, ", 3 failed | "));
}

Test(check, iops_thresholds_alert_below)
{
	struct check_cfg c = { ABOVE(1000 * MS), ABOVE(2000 * MS), true, BELOW(200), BELOW(100) };
	uint64_t fast[] = { 1 * MS }, mid[] = { 6 * MS }, slow[] = { 20 * MS };
	struct tally t;
	char out[512];

	t = tally_of(fast, 1, 0);
	cr_assert_eq(run(&c, &t, NULL, out, sizeof(out)), CHECK_OK);
	cr_assert(strstr(out, "'iops'=1000.000;200.000:;100.000:;0"), "%s", out);
	t = tally_of(mid, 1, 0);
	cr_assert_eq(run(&c, &t, NULL, out, sizeof(out)), CHECK_WARNING);
	t = tally_of(slow, 1, 0);
	cr_assert_eq(run(&c, &t, NULL, out, sizeof(out)), CHECK_CRITICAL);
}

Test(check, unknown)
{
	struct tally t = tally_of(NULL, 0, 0);
	uint64_t ns[] = { 1 * MS };
	char out[512];

	cr_assert_eq(run(&cfg, &t, NULL, out, sizeof(out)), CHECK_UNKNOWN);
	cr_assert_str_eq(out, "IOPROBE UNKNOWN - no valid request completed\n");
	t = tally_of(ns, 1, 0);
	cr_assert_eq(run(&cfg, &t, "fadvise failed | x\nY", out, sizeof(out)), CHECK_UNKNOWN);
	cr_assert_str_eq(out, "IOPROBE UNKNOWN - fadvise failed   x Y\n");
	cr_assert_str_eq(check_state_name(CHECK_CRITICAL), "CRITICAL");
}

static enum check_state run_multi(const struct check_target *t, size_t n, char *out, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	enum check_state st = check_report_multi(&sb, &cfg, t, n);

	snprintf(out, len, "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	return st;
}

Test(check, several_targets_worst_first_perfdata_per_target)
{
	uint64_t fast[] = { 1 * MS, 1 * MS }, slow[] = { 20 * MS, 20 * MS };
	struct tally a = tally_of(fast, 2, 0), b = tally_of(slow, 2, 0), c = tally_of(fast, 2, 0);
	struct check_target t[] = { { "/dev/a", &a, NULL, false, NULL }, { "/dev/b", &b, NULL, false, NULL },
				    { "/x'y=z", &c, NULL, false, NULL } };
	char out[4096];

	cr_assert_eq(run_multi(t, 3, out, sizeof(out)), CHECK_WARNING);
	cr_assert(!strncmp(out, "IOPROBE WARNING - /dev/b WARNING p99 20.000 ms", 46), "%s", out);
	cr_assert(strstr(out, "; /dev/a OK p99 1.000 ms"), "%s", out);
	cr_assert(strstr(out, " | '/dev/a p99'=1.000000ms;10.000000;50.000000;0 "), "%s", out);
	cr_assert(strstr(out, " '/dev/b p99'=20.000000ms;10.000000;50.000000;0 "), "%s", out);
	cr_assert(strstr(out, " '/x''y_z failed'=0;;0;0\n"), "%s", out);
	cr_assert_eq(strchr(out, '\n'), out + strlen(out) - 1);
	cr_assert_eq(strchr(out, '|'), strrchr(out, '|'));
}

Test(check, several_targets_critical_beats_unknown_beats_ok)
{
	uint64_t fast[] = { 1 * MS }, awful[] = { 80 * MS };
	struct tally a = tally_of(fast, 1, 0), b = tally_of(awful, 1, 0);
	struct check_target t[] = { { "/a", &a, NULL, false, NULL },
				    { "/gone", NULL, "cannot open", false, NULL }, { "/b", &b, NULL, false, NULL } };
	char out[4096];

	cr_assert_eq(run_multi(t, 2, out, sizeof(out)), CHECK_UNKNOWN);
	cr_assert(!strncmp(out, "IOPROBE UNKNOWN - /gone UNKNOWN cannot open; /a OK", 50), "%s", out);
	cr_assert_null(strstr(out, "/gone p99"));
	cr_assert_eq(run_multi(t, 3, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(!strncmp(out, "IOPROBE CRITICAL - /b CRITICAL p99 80.000 ms", 44), "%s", out);
}

/* --check-timeout with a request still in flight: CRITICAL, the problem first, then the figures
 * and perfdata of what did complete; beside a healthy target, the worst state wins. */
Test(check, hung_at_the_timeout_is_critical)
{
	uint64_t fast[] = { 1 * MS, 1 * MS };
	struct tally a = tally_of(fast, 2, 0), h = tally_of(fast, 2, 0);
	struct check_target t[] = { { "/a", &a, NULL, false, NULL },
				    { "/hung", &h, "1 request in flight (hung 8.5 s)", true, NULL } };
	struct sbuf sb = SBUF_INIT;
	char out[4096];

	cr_assert_eq(check_report_as(&sb, &cfg, &h, "1 request in flight (hung 8.5 s)", true),
		     CHECK_CRITICAL);
	cr_assert(!strncmp(sbuf_str(&sb), "IOPROBE CRITICAL - 1 request in flight (hung 8.5 s); "
			   "p99 1.000 ms", 65), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), " | 'p99'=1.000000ms;10.000000;50.000000;0 "), "%s",
		  sbuf_str(&sb));
	sbuf_reset(&sb);
	cr_assert_eq(check_report_as(&sb, &cfg, &h, "gone", false), CHECK_UNKNOWN,
		     "not critical: UNKNOWN as before");
	sbuf_free(&sb);
	cr_assert_eq(run_multi(t, 2, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(!strncmp(out, "IOPROBE CRITICAL - /hung CRITICAL 1 request in flight", 53), "%s",
		  out);
	cr_assert(strstr(out, "'/hung p99'="), "the hung target's perfdata: %s", out);
}

/* A disk hung before its first request: CRITICAL with no latency, and "U" (the guidelines'
 * "could not be determined") in the perfdata, never a 0 that graphs as the best latency. */
Test(check, hung_before_any_request_gives_unknown_values_not_zero)
{
	struct tally none = tally_of(NULL, 0, 0);
	struct check_target t[] = { { "/never", NULL, "preparing /never: given up", true, NULL } };
	struct check_cfg ic = cfg;
	struct sbuf sb = SBUF_INIT;
	char out[4096];

	cr_assert_eq(check_report_as(&sb, &cfg, &none, "1 request in flight (hung 3.5 s)", true),
		     CHECK_CRITICAL);
	cr_assert_str_eq(sbuf_str(&sb), "IOPROBE CRITICAL - 1 request in flight (hung 3.5 s); "
			 "no latency measured, 0 requests, 0 failed | 'p99'=U;10.000000;50.000000;0 "
			 "'avg'=U;;;0 'iops'=U;;;0 'requests'=0;;;0 'failed'=0;;0;0\n");
	sbuf_reset(&sb);
	/* nothing ran at all (its preparation hung): the same, from no tally */
	cr_assert_eq(check_report_as(&sb, &cfg, NULL, "preparing X: given up", true),
		     CHECK_CRITICAL);
	cr_assert(strstr(sbuf_str(&sb), "given up; no latency measured, 0 requests, 0 failed | "
			 "'p99'=U;"), "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	/* with iops thresholds the rate is U too, its ranges kept */
	ic.iops = true;
	ic.iops_warn = (struct check_range)BELOW(50);
	ic.iops_crit = (struct check_range)BELOW(10);
	cr_assert_eq(check_report_as(&sb, &ic, &none, "hung", true), CHECK_CRITICAL);
	cr_assert(strstr(sbuf_str(&sb), "'iops'=U;50.000:;10.000:;0 "), "%s", sbuf_str(&sb));
	cr_assert_null(strstr(sbuf_str(&sb), "=0.000"), "no zero latency or rate: %s",
		       sbuf_str(&sb));
	sbuf_free(&sb);
	/* several targets: the hung one's perfdata is there, unknown */
	cr_assert_eq(run_multi(t, 1, out, sizeof(out)), CHECK_CRITICAL);
	cr_assert(strstr(out, "'/never p99'=U;10.000000;50.000000;0 "), "%s", out);
}

/* The monitoring-plugins guidelines' ranges: outside lo:hi alerts, inside with @; perfdata
 * writes them back as given. */
Test(check, guideline_ranges)
{
	static const struct { struct check_range r; double v; bool alert; const char *text; } c[] = {
		{ { 0, 10, false }, 11, true, "10.000" },
		{ { 0, 10, false }, 10, false, "10.000" },
		{ { 10, INFINITY, false }, 9, true, "10.000:" },
		{ { -INFINITY, 10, false }, -5, false, "~:10.000" },
		{ { 10, 20, false }, 25, true, "10.000:20.000" },
		{ { 10, 20, true }, 15, true, "@10.000:20.000" },
		{ { 10, 20, true }, 25, false, "@10.000:20.000" },
	};
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cr_assert_eq(check_range_alert(&c[i].r, c[i].v), c[i].alert, "case %zu", i);
		sbuf_reset(&sb);
		check_range_put(&sb, &c[i].r, 1, 3);
		cr_assert_str_eq(sbuf_str(&sb), c[i].text);
	}
	sbuf_free(&sb);
}

/* A p99 inside "@1ms:5ms" is WARNING: a latency band the operator flags. */
Test(check, p99_inside_a_band)
{
	uint64_t lat[] = { 3 * MS, 3 * MS };
	struct tally t = tally_of(lat, 2, 0);
	struct check_cfg c = { { 1e6, 5e6, true }, ABOVE(50 * MS), false, BELOW(0), BELOW(0) };
	char out[1024];

	cr_assert_eq(run(&c, &t, NULL, out, sizeof(out)), CHECK_WARNING, "%s", out);
	cr_assert(strstr(out, "'p99'=3.000000ms;@1.000000:5.000000;50.000000;0"), "%s", out);
}

/* The device's verdict follows the figures (said, not judged: the thresholds set the state). */
Test(check, verdict_follows_the_figures)
{
	uint64_t fast[] = { 1 * MS, 1 * MS }, slow[] = { 20 * MS };
	struct tally a = tally_of(fast, 2, 0), b = tally_of(slow, 1, 0);
	struct check_target t[] = { { "/a", &a, NULL, false, "falls short: device saturated" },
				    { "/b", &b, NULL, false, "keeps up" },
				    { "/c", &a, "cannot open", false, "keeps up" } };
	struct sbuf sb = SBUF_INIT;
	char out[4096];

	cr_assert_eq(check_report_verdict(&sb, &cfg, &a, NULL, false, "falls short: device|x"),
		     CHECK_OK);
	cr_assert(strstr(sbuf_str(&sb), " 0 failed, falls short: device x | 'p99'="), "%s",
		  sbuf_str(&sb));
	sbuf_reset(&sb);
	cr_assert_eq(check_report_verdict(&sb, &cfg, &a, NULL, false, NULL), CHECK_OK);
	cr_assert(strstr(sbuf_str(&sb), " 0 failed | 'p99'="), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	cr_assert_eq(run_multi(t, 3, out, sizeof(out)), CHECK_WARNING);
	cr_assert(strstr(out, "/b WARNING p99 20.000 ms, avg 20.000 ms, 50.0 iops, 1 requests, "
			      "0 failed, keeps up; /c UNKNOWN cannot open; /a OK "), "%s", out);
	cr_assert(strstr(out, "0 failed, falls short: device saturated | "), "%s", out);
	cr_assert_null(strstr(out, "cannot open, keeps up"), "%s", out);
}
