/*
 * htmlreport: the report's sections, plots and axis labels are there; the heatmap folds the
 * histogram's buckets into log-latency rows at the right times; markers sit at the run's
 * percentiles; device rows and verdicts are drawn as given; text is escaped; nothing remote;
 * columns fold so that a 1-hour run stays under 2 MB.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "htmlreport.h"
#include "iostat.h"
#include "sbuf.h"

static const char *const argv_[] = { "ioprobe", "--record", "r.jsonl", "<dir & \"x\">" };

static void run_init(struct hr_run *r, size_t n)
{
	memset(r, 0, sizeof(*r));
	cr_assert_eq(hr_init(r, n), 0);
	r->version = "0.1.0";
	r->host = "host<1>";
	r->kernel = "6.1";
	r->engine = "sync";
	r->argc = 4;
	r->argv = argv_;
	r->real = 1795000000000000000ull;
	r->size = 4096;
	r->asked = 100;
	r->mode = "read";
	for (size_t i = 0; i < n; i++)
		r->t[i].path = i ? "/dev/sdb" : "/dev/sda";
}

/* A period of t: n requests at lat ns each, skipped slots, ending at end s. */
static void period(struct hr_run *r, size_t i, uint64_t end_s, uint64_t n, uint64_t lat,
		   uint64_t skipped, struct tally *total)
{
	static struct tally t;
	struct sample s = { 0 };

	tally_init(&t);
	for (uint64_t k = 0; k < n; k++) {
		s.request = k + 2;
		s.time = lat + k % 7;
		s.response = s.time;
		tally_add(&t, &s, NOTICE_NONE);
	}
	t.skipped = skipped;
	t.wall = 1000000000ull;
	hr_period(r, i, end_s * 1000000000ull, &t);
	if (total)
		tally_merge(total, &t);
}

static char *write_report(const struct hr_run *r)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(htmlreport_write(&sb, r), 0);
	return sb.buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

Test(htmlreport, fine_rows)
{
	cr_assert_eq(hr_fine_row(0), 0);
	cr_assert_eq(hr_fine_row(1ull << 60), HR_FINE - 1);
	for (size_t f = 1; f + 1 < HR_FINE; f++) {
		cr_assert_eq(hr_fine_row(hr_fine_low(f)), f, "row %zu", f);
		cr_assert_eq(hr_fine_row(hr_fine_low(f + 1) - 1), f, "row %zu top", f);
	}
	/* eight rows per octave: 1 ms and 2 ms eight rows apart */
	cr_assert_eq(hr_fine_row(2000000) - hr_fine_row(1000000), 8);
}

static struct tally total;

static void stepped(struct hr_run *r)
{
	run_init(r, 1);
	tally_init(&total);
	for (uint64_t s = 1; s <= 10; s++)
		period(r, 0, s, 100, s <= 5 ? 1000000 : 10000000, s == 7 ? 20 : 0, &total);
	hr_total(r, 0, &total);
}

Test(htmlreport, sections_and_axes)
{
	struct hr_run r;
	struct iostat_row row = { .interval_ns = 1000000000, .r_s = 100, .aqu_sz = 0.25,
				  .await = 1.5, .util = 12.5, .avgrq_sz = 8 };
	char *html;

	stepped(&r);
	for (uint64_t s = 1; s <= 10; s++) {
		row.aqu_sz = s * 0.1;
		hr_device(&r, 0, s * 1000000000ull, 1000000000ull, "sda", &row,
			  s <= 5 ? VERDICT_KEEPS_UP : VERDICT_FALLS_SHORT);
		hr_verdict(&r, 0, s <= 5 ? VERDICT_KEEPS_UP : VERDICT_FALLS_SHORT);
	}
	html = write_report(&r);
	cr_assert(strncmp(html, "<!DOCTYPE html>", 15) == 0);
	cr_assert(strstr(html, "</html>"));
	for (const char *const *want = (const char *const[]){
		     "<section id=\"run\">", "id=\"target-0\"", "<svg class=\"heatmap\" id=\"heatmap-0\"",
		     "<svg class=\"histogram\" id=\"histogram-0\"",
		     "<table class=\"percentiles\" id=\"pct-0\"", "<svg class=\"rate\" id=\"rate-0\"",
		     "<svg class=\"device\" id=\"dev-0-sda\"", "class=\"pline p50\"",
		     "class=\"pline p99\"", "class=\"marker p50\"", "class=\"marker p99\"",
		     "class=\"marker p999\"", "class=\"achieved\"", "class=\"asked\"",
		     "class=\"skipped\"", ">time since start (s)<", ">latency (ms, log scale)<",
		     ">requests (count)<", ">requests/s<", ">aqu-sz (requests)<", ">await (ms)<",
		     ">%util (%)<", ">areq-sz (kB)<", ">r/s (1/s)<", ">w/s (1/s)<", ">f/s (1/s)<",
		     "prefers-color-scheme:dark", "@media print", NULL };
	     *want; want++)
		cr_assert(strstr(html, *want), "missing %s", *want);
	/* escaped: the command line and host; nothing remote, no script */
	cr_assert(strstr(html, "&lt;dir &amp; &quot;x&quot;&gt;"));
	cr_assert(strstr(html, "host&lt;1&gt;"));
	cr_assert_null(strstr(html, "http:"));
	cr_assert_null(strstr(html, "https:"));
	cr_assert_null(strstr(html, "<script"));
	cr_assert_null(strstr(html, "src="));
	/* one target: no comparison */
	cr_assert_null(strstr(html, "id=\"compare\""));
	/* the verdict band as given, the aqu-sz values as given, in order */
	cr_assert_eq(count(html, "data-state=\"keeps up\""), 5);
	cr_assert_eq(count(html, "data-state=\"falls short\""), 5);
	cr_assert(strstr(html, "data-v=\"0.10 0.20 0.30 0.40 0.50 0.60 0.70 0.80 0.90 1.00 \""));
	cr_assert(strstr(html, "data-v=\"4.00 4.00 "), "areq-sz: 8 sectors = 4 kB");
	/* the asked rate and the skipped slots */
	cr_assert(strstr(html, "class=\"asked\""));
	cr_assert(strstr(html, "data-v=\"100.00\""));
	cr_assert(strstr(html, "data-n=\"20\""));
	free(html);
	hr_free(&r);
}

Test(htmlreport, heatmap_bands_at_their_times)
{
	struct hr_run r;
	char *html, *p;
	int early = 0, late = 0;

	stepped(&r);
	html = write_report(&r);
	/* each column: data-t0/t1 in s, its cells' bounds; 1 ms before 5 s, 10 ms after */
	for (p = html; (p = strstr(p, "<g class=\"col\" data-t0=\"")); p++) {
		double t0, t1;
		unsigned long long lo, hi, n;
		char *cell = strstr(p, "<rect class=\"cell");

		cr_assert_eq(sscanf(p, "<g class=\"col\" data-t0=\"%lf\" data-t1=\"%lf\"", &t0, &t1), 2);
		cr_assert(cell);
		cell = strstr(cell, "data-lo=");
		cr_assert_eq(sscanf(cell, "data-lo=\"%llu\" data-hi=\"%llu\" data-n=\"%llu\"", &lo, &hi,
				    &n), 3);
		cr_assert_eq(n, 100);
		cr_assert_float_eq(t1 - t0, 1.0, 1e-9);
		if (t1 <= 5) {
			cr_assert(lo <= 1000000 && 1000000 < hi, "%g: %llu-%llu", t0, lo, hi);
			early++;
		} else {
			cr_assert(lo <= 10000000 && 10000000 < hi, "%g: %llu-%llu", t0, lo, hi);
			late++;
		}
	}
	cr_assert_eq(early, 5);
	cr_assert_eq(late, 5);
	free(html);
	hr_free(&r);
}

Test(htmlreport, markers_at_the_percentiles)
{
	struct hr_run r;
	char *html, *p, want[64];

	stepped(&r);
	html = write_report(&r);
	snprintf(want, sizeof(want), "class=\"marker p99\"");
	p = strstr(html, want);
	cr_assert(p);
	snprintf(want, sizeof(want), "data-ns=\"%llu\"",
		 (unsigned long long)stats_percentile(&total.valid, 99));
	cr_assert(strstr(p, want), "%s", want);
	snprintf(want, sizeof(want), "data-ns=\"%llu\"",
		 (unsigned long long)stats_percentile(&total.valid, 50));
	cr_assert(strstr(html, want));
	free(html);
	hr_free(&r);
}

Test(htmlreport, comparison_marks_the_slowest)
{
	struct hr_run r;
	struct tally a, b;
	char *html, *slow;

	run_init(&r, 2);
	tally_init(&a);
	tally_init(&b);
	for (uint64_t s = 1; s <= 4; s++) {
		period(&r, 0, s, 50, 200000, 0, &a);
		period(&r, 1, s, 50, 5000000, 0, &b);
	}
	hr_total(&r, 0, &a);
	hr_total(&r, 1, &b);
	hr_verdict(&r, 1, VERDICT_KEEPS_UP);
	hr_verdict(&r, 1, VERDICT_FALLS_SHORT);
	html = write_report(&r);
	cr_assert(strstr(html, "id=\"compare\""));
	cr_assert(strstr(html, "id=\"compare\"") < strstr(html, "id=\"target-0\""));
	cr_assert_eq(count(html, "<tr class=\"cmp"), 2);
	cr_assert_eq(count(html, "class=\"heatmap small\""), 2);
	slow = strstr(html, "<tr class=\"cmp slowest\" data-target=\"1\">");
	cr_assert(slow, "the 5 ms target is the slowest");
	cr_assert_eq(count(html, "slowest\""), 1);
	cr_assert(strstr(html, "keeps up 50 %"));
	cr_assert(strstr(html, "falls short 50 %"));
	free(html);
	hr_free(&r);
}

Test(htmlreport, an_hour_folds_under_2_mb)
{
	struct hr_run r;
	struct iostat_row row = { .interval_ns = 1000000000, .r_s = 100, .aqu_sz = 0.5 };
	struct tally t;
	struct sample s = { 0 };
	char *html;
	size_t len, cols;

	run_init(&r, 1);
	tally_init(&total);
	/* the worst case for size: every period spreads over every row of the heatmap */
	for (uint64_t sec = 1; sec <= 3600; sec++) {
		tally_init(&t);
		for (uint64_t k = 0; k < 64; k++) {
			s.request = k + 2;
			s.time = 1000 + (uint64_t)(1000.0 * (double)(1ull << (k % 21)) *
						  (1 + (double)((sec + k) % 8) / 8));
			tally_add(&t, &s, NOTICE_NONE);
		}
		t.skipped = sec % 3;
		t.wall = 1000000000ull;
		hr_period(&r, 0, sec * 1000000000ull, &t);
		tally_merge(&total, &t);
		hr_device(&r, 0, sec * 1000000000ull, 1000000000ull, "sda", &row, VERDICT_KEEPS_UP);
	}
	hr_total(&r, 0, &total);
	cr_assert_leq(r.t[0].ncols, HR_COLS);
	cr_assert_gt(r.t[0].fold, 1);
	html = write_report(&r);
	len = strlen(html);
	cols = count(html, "<g class=\"col\"");
	cr_assert_leq(cols, HR_COLS + 1);
	cr_assert_geq(cols, HR_COLS / 2);
	cr_assert_lt(len, 2u << 20, "a 1-hour report of %zu bytes", len);
	/* every period is in some column: the columns' cells add up to the valid requests */
	{
		unsigned long long sum = 0, n;
		char *p;

		for (p = html; (p = strstr(p, "<rect class=\"cell")); p++) {
			char *d = strstr(p, "data-n=\"");

			cr_assert_eq(sscanf(d, "data-n=\"%llu\"", &n), 1);
			sum += n;
		}
		cr_assert_eq(sum, total.valid.count);
	}
	cr_assert_leq(count(html, "data-state=\"keeps up\""), HR_DEV_PTS + 1);
	fprintf(stderr, "1-hour report: %zu bytes, %zu columns of %llu periods\n", len, cols,
		(unsigned long long)r.t[0].fold);
	free(html);
	hr_free(&r);
}

Test(htmlreport, empty_run)
{
	struct hr_run r;
	char *html;

	run_init(&r, 1);
	r.asked = 0;
	html = write_report(&r);
	cr_assert(strstr(html, "no valid request"));
	cr_assert(strstr(html, "unpaced"));
	cr_assert(strstr(html, "</html>"));
	free(html);
	hr_free(&r);
}

/* --sweep: a series per size and depth, every step at its asked and achieved rate, the knee,
 * best point and limit marked in the plot and the table, the conclusions line by line. */
Test(htmlreport, sweep_table_and_plot)
{
	struct hr_run r;
	struct sweep_row w = { .size = 4096, .depth = 1, .verdict = "keeps up <&>" };
	const double asked[6] = { 50, 100, 200, 50, 100, 200 };
	char *html;

	run_init(&r, 1);
	for (size_t k = 0; k < 6; k++) {
		w.depth = k < 3 ? 1 : 4;
		w.asked = asked[k];
		w.achieved = k == 2 ? 120 : asked[k];
		w.kept_up = k != 2;
		cr_assert_eq(hr_sweep_step(&r, 0, &w, true), 0);
	}
	cr_assert_eq(hr_sweep_end(&r, 0, "best: 4 KiB at 100/s\nlimit: 4 KiB at 200/s", -1, 1, 5), 0);
	html = write_report(&r);
	cr_assert(strstr(html, "<section class=\"sweep\" id=\"sweep-0\"><h3>Sweep across sizes"));
	cr_assert_eq(count(html, "<polyline class=\"series s"), 2);
	cr_assert_eq(count(html, "<circle class=\"step "), 6);
	cr_assert(strstr(html, "<circle class=\"step s0 short\""));
	cr_assert(strstr(html, "data-step=\"2\" data-asked=\"200.000\" data-achieved=\"120.000\""));
	cr_assert(strstr(html, "<circle class=\"best\""));
	cr_assert(strstr(html, "<circle class=\"limit\""));
	cr_assert(!strstr(html, "<circle class=\"knee\""));
	cr_assert_eq(count(html, "<tr class=\"best\">"), 1);
	cr_assert_eq(count(html, "<tr class=\"limit\">"), 1);
	cr_assert(strstr(html, "keeps up &lt;&amp;&gt;"));
	cr_assert(strstr(html, "<pre class=\"conclusions\">best: 4 KiB at 100/s\nlimit: 4 KiB at "
			 "200/s\n</pre>"));
	cr_assert(strstr(html, "asked (requests/s, log)") && strstr(html, "achieved (requests/s, log)"));
	cr_assert(strstr(html, "4 KiB, depth 4"));
	free(html);
	hr_free(&r);
}

/* The run's last, partial period (1 request in 13.6 ms) is not drawn as a rate of 73/s:
 * the rate plot leaves it out; the whole periods are drawn at their rate. */
Test(htmlreport, rate_leaves_out_a_short_last_period)
{
	struct hr_run r;
	struct tally t;
	struct sample s = { .request = 2, .time = 1000, .response = 1000 };
	const char *vals;
	char *html;

	run_init(&r, 1);
	r.asked = 50;
	for (uint64_t sec = 1; sec <= 3; sec++)
		period(&r, 0, sec, 50, 1000000, 0, NULL);
	tally_init(&t);
	tally_add(&t, &s, NOTICE_NONE);
	t.wall = 13600000;
	hr_period(&r, 0, 3 * 1000000000ull + t.wall, &t);
	html = write_report(&r);
	vals = strstr(html, "class=\"achieved\"");
	cr_assert(vals && (vals = strstr(vals, "data-v=\"")));
	cr_assert(!strncmp(vals, "data-v=\"50.00 50.00 50.00 \"", 27), "%.40s", vals);
	free(html);
	hr_free(&r);
}
