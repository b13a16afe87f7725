/*
 * Tests for src/out/promfmt.c: Prometheus text 0.0.4 and OpenMetrics 1.0 as the
 * exposition_formats and OpenMetrics specifications describe them — TYPE
 * names (counters with _total in 0.0.4, the family in OpenMetrics), UNIT,
 * cumulative buckets with canonical le and +Inf equal to _count, label
 * escaping, no timestamps, # EOF last, one series set per target.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "promfmt.h"

#define MS UINT64_C(1000000)

static struct metrics_info in1 = {
	.target = "/mnt/a \"b\"\\c", .device = "sda1", .disk = "sda", .fstype = "ext4",
	.engine = "sync", .mode = "read", .interval = 1000000000, .size = 4096,
	.start_real = UINT64_C(1700000000123000000), .op = { true, false },
};
static struct metrics_info in2 = {
	.target = "/dev/nvme0n1", .device = "nvme0n1", .disk = "nvme0n1", .fstype = "",
	.engine = "io_uring", .mode = "read-write", .interval = 100 * MS, .size = 512,
	.start_real = UINT64_C(1700000000000000000), .op = { true, true }, .response = true,
};

static void snaps(struct metrics_snap s[2])
{
	memset(s, 0, 2 * sizeof(*s));
	s[0].info = &in1;
	s[1].info = &in2;
	for (int i = 0; i < 2; i++)
		for (int op = 0; op < 2; op++)
			s[i].counts.op[op].err_no[0] = EIO;
	s[0].counts.op[0].bucket[4] = 3;  /* le 0.0002 */
	s[0].counts.op[0].bucket[6] = 1;  /* le 0.001 */
	s[0].counts.op[0].bucket[19] = 1; /* over 10 s */
	s[0].counts.op[0].count = 5;
	s[0].counts.op[0].sum = 12 * UINT64_C(1000000000) + 500 * MS;
	s[0].counts.op[0].bytes = 20480;
	s[0].counts.op[0].errors[0] = 2;
	s[0].counts.op[0].err_no[1] = ENOSPC;
	s[0].counts.op[0].errors[1] = 1;
	s[0].counts.op[0].last_real = UINT64_C(1700000001500000000);
	s[0].counts.skipped = 7;
	s[1].in_flight = 7;
	s[1].oldest_in_flight = 2500 * MS;
	s[1].counts.op[1].response.bucket[9] = 2;  /* le 0.01 */
	s[1].counts.op[1].response.bucket[12] = 1; /* le 0.1 */
	s[1].counts.op[1].response.count = 3;
	s[1].counts.op[1].response.sum = 120 * MS;
}

static char *render(enum promfmt_format f)
{
	static struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];

	snaps(s);
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", f), 0);
	return sb.buf;
}

static void has(const char *text, const char *line)
{
	char want[1024];

	snprintf(want, sizeof(want), "\n%s\n", line);
	cr_assert(strstr(text, want) || !strncmp(text, want + 1, strlen(want + 1)),
		  "missing line: %s\n--- in:\n%s", line, text);
}

static void lacks(const char *text, const char *part)
{
	cr_assert_null(strstr(text, part), "unexpected: %s", part);
}

#define T1 "target=\"/mnt/a \\\"b\\\"\\\\c\""

Test(promfmt, text_histogram_is_cumulative_with_canonical_le)
{
	char *t = render(PROMFMT_TEXT);

	has(t, "# TYPE ioprobe_request_duration_seconds histogram");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"1e-05\"} 0");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"0.0002\"} 3");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"0.001\"} 4");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"10.0\"} 4");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"+Inf\"} 5");
	has(t, "ioprobe_request_duration_seconds_sum{" T1 ",operation=\"read\"} 12.5");
	has(t, "ioprobe_request_duration_seconds_count{" T1 ",operation=\"read\"} 5");
	/* an operation the probe does not perform has no series */
	lacks(t, T1 ",operation=\"write\"");
	has(t, "ioprobe_request_duration_seconds_count{target=\"/dev/nvme0n1\",operation=\"write\"} 0");
}

Test(promfmt, text_counters_and_gauges)
{
	char *t = render(PROMFMT_TEXT);

	has(t, "# HELP ioprobe_request_errors_total Failed probe requests by errno name.");
	has(t, "# TYPE ioprobe_request_errors_total counter");
	has(t, "ioprobe_request_errors_total{" T1 ",operation=\"read\",errno=\"EIO\"} 2");
	has(t, "ioprobe_request_errors_total{" T1 ",operation=\"read\",errno=\"ENOSPC\"} 1");
	has(t, "ioprobe_request_errors_total{target=\"/dev/nvme0n1\",operation=\"write\",errno=\"EIO\"} 0");
	has(t, "# TYPE ioprobe_request_bytes_total counter");
	has(t, "ioprobe_request_bytes_total{" T1 ",operation=\"read\"} 20480");
	has(t, "ioprobe_last_completion_timestamp_seconds{" T1 ",operation=\"read\"} 1700000001.5");
	/* before a completion: the start time, so time() - x stays meaningful */
	has(t, "ioprobe_last_completion_timestamp_seconds{target=\"/dev/nvme0n1\",operation=\"read\"} 1700000000.0");
	has(t, "ioprobe_requests_in_flight{" T1 "} 0");
	has(t, "ioprobe_requests_in_flight{target=\"/dev/nvme0n1\"} 7"); /* a count at depth > 1 */
	has(t, "ioprobe_oldest_in_flight_seconds{target=\"/dev/nvme0n1\"} 2.5");
	has(t, "ioprobe_oldest_in_flight_seconds{" T1 "} 0.0");
	has(t, "# TYPE ioprobe_skipped_slots_total counter");
	has(t, "ioprobe_skipped_slots_total{" T1 "} 7");
	has(t, "ioprobe_interval_seconds{target=\"/dev/nvme0n1\"} 0.1");
	has(t, "ioprobe_request_size_bytes{target=\"/dev/nvme0n1\"} 512");
	has(t, "ioprobe_start_time_seconds{" T1 "} 1700000000.123");
	has(t, "# TYPE ioprobe_probe_info gauge");
	has(t, "ioprobe_probe_info{" T1 ",device=\"sda1\",disk=\"sda\",fstype=\"ext4\",engine=\"sync\",mode=\"read\"} 1");
	has(t, "# TYPE ioprobe_build_info gauge");
	has(t, "ioprobe_build_info{version=\"1.2.3\"} 1");
	lacks(t, "# UNIT");
	lacks(t, "# EOF");
	lacks(t, "_created");
}

Test(promfmt, text_families_are_contiguous_and_described)
{
	char *t = render(PROMFMT_TEXT);
	char prev[128] = "";
	unsigned helps = 0, types = 0;

	for (char *line = t; *line;) {
		char *nl = strchr(line, '\n');
		char name[128];

		cr_assert_not_null(nl, "every line ends in a newline");
		if (!strncmp(line, "# HELP ", 7))
			helps++;
		if (!strncmp(line, "# TYPE ", 7)) {
			types++;
			sscanf(line + 7, "%127s", name);
			cr_assert_str_neq(name, prev, "a family appears once");
			snprintf(prev, sizeof(prev), "%s", name);
		}
		cr_assert_neq(line[0], '\r');
		line = nl + 1;
	}
	cr_assert_eq(helps, types);
	cr_assert_eq(types, 13); /* the response histogram: one target publishes it */
}

#define RESP "ioprobe_response_duration_seconds"
#define T2W "target=\"/dev/nvme0n1\",operation=\"write\""

Test(promfmt, response_histogram_only_for_targets_that_publish_it)
{
	char *t = render(PROMFMT_TEXT);

	has(t, "# HELP " RESP " Response time of probe requests from their scheduled start, "
	       "skipped slots included (warmup excluded, -t/-T outliers included).");
	has(t, "# TYPE " RESP " histogram");
	has(t, RESP "_bucket{" T2W ",le=\"0.005\"} 0");
	has(t, RESP "_bucket{" T2W ",le=\"0.01\"} 2");
	has(t, RESP "_bucket{" T2W ",le=\"0.1\"} 3");
	has(t, RESP "_bucket{" T2W ",le=\"+Inf\"} 3");
	has(t, RESP "_sum{" T2W "} 0.12");
	has(t, RESP "_count{" T2W "} 3");
	has(t, RESP "_count{target=\"/dev/nvme0n1\",operation=\"read\"} 0");
	lacks(t, RESP "_count{" T1); /* never faked from latencies */
	t = render(PROMFMT_OPENMETRICS);
	has(t, "# UNIT " RESP " seconds");
}

Test(promfmt, no_response_family_when_no_target_publishes_it)
{
	struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];

	snaps(s);
	cr_assert_eq(promfmt_write(&sb, s, 1, "1", PROMFMT_TEXT), 0);
	lacks(sbuf_str(&sb), RESP);
	sbuf_free(&sb);
}

Test(promfmt, every_series_of_each_target_carries_its_label)
{
	char *t = render(PROMFMT_TEXT);
	unsigned with1 = 0, with2 = 0;

	for (char *line = t; *line; line = strchr(line, '\n') + 1) {
		if (line[0] == '#' || !strncmp(line, "ioprobe_build_info{", 19))
			continue; /* the build is the process's: one series, no target */
		cr_assert(strstr(line, "{target=\""), "no target label first: %.80s", line);
		with1 += !strncmp(strchr(line, '{'), "{" T1, strlen(T1) + 1);
		with2 += !strncmp(strchr(line, '{'), "{target=\"/dev/nvme0n1\"", 22);
	}
	cr_assert_gt(with1, 20);
	cr_assert_gt(with2, with1); /* two operations and the response histogram */
}

Test(promfmt, openmetrics_metadata_and_eof)
{
	char *t = render(PROMFMT_OPENMETRICS);
	size_t len = strlen(t);

	has(t, "# TYPE ioprobe_request_duration_seconds histogram");
	has(t, "# UNIT ioprobe_request_duration_seconds seconds");
	has(t, "# TYPE ioprobe_request_errors counter");
	has(t, "ioprobe_request_errors_total{" T1 ",operation=\"read\",errno=\"EIO\"} 2");
	has(t, "# TYPE ioprobe_request_bytes counter");
	has(t, "# UNIT ioprobe_request_bytes bytes");
	has(t, "# TYPE ioprobe_skipped_slots counter");
	has(t, "# TYPE ioprobe_probe info");
	has(t, "# TYPE ioprobe_build info");
	has(t, "ioprobe_build_info{version=\"1.2.3\"} 1");
	has(t, "ioprobe_request_duration_seconds_bucket{" T1 ",operation=\"read\",le=\"1.0\"} 4");
	cr_assert(len > 6 && !strcmp(t + len - 6, "# EOF\n"), "ends in # EOF");
	cr_assert_eq(strstr(t, "# EOF"), t + len - 6, "one # EOF");
	/* TYPE, UNIT, HELP in that order */
	cr_assert(strstr(t, "# TYPE ioprobe_interval_seconds") <
		  strstr(t, "# UNIT ioprobe_interval_seconds"));
	cr_assert(strstr(t, "# UNIT ioprobe_interval_seconds") <
		  strstr(t, "# HELP ioprobe_interval_seconds"));
	lacks(t, "_total counter");
}

Test(promfmt, label_values_escaped_and_utf8_kept_valid)
{
	struct sbuf sb = SBUF_INIT;

	promfmt_label_value(&sb, "a\\b\"c\nd\te");
	cr_assert_str_eq(sbuf_str(&sb), "a\\\\b\\\"c\\nd\te");
	sbuf_reset(&sb);
	promfmt_label_value(&sb, "caf\xc3\xa9 \xff\xc3");
	cr_assert_str_eq(sbuf_str(&sb), "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd");
	sbuf_reset(&sb);
	promfmt_label_value(&sb, "\xed\xa0\x80"); /* a surrogate is not UTF-8 */
	cr_assert_str_eq(sbuf_str(&sb), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	sbuf_free(&sb);
}

Test(promfmt, seconds_are_exact_decimals)
{
	struct sbuf sb = SBUF_INIT;
	const struct { uint64_t ns; const char *want; } cases[] = {
		{ 0, "0.0" }, { 1, "0.000000001" }, { 1000000000, "1.0" },
		{ 81300000, "0.0813" }, { UINT64_C(1700000000123456789), "1700000000.123456789" },
		{ UINT64_MAX, "18446744073.709551615" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbuf_reset(&sb);
		promfmt_seconds(&sb, cases[i].ns);
		cr_assert_str_eq(sbuf_str(&sb), cases[i].want);
	}
	sbuf_free(&sb);
}

Test(promfmt, content_types)
{
	cr_assert_str_eq(promfmt_content_type(PROMFMT_TEXT), "text/plain; version=0.0.4; charset=utf-8");
	cr_assert_str_eq(promfmt_content_type(PROMFMT_OPENMETRICS),
			 "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

/* One build_info for the process, not one per target (issue 26). */
Test(promfmt, one_build_info)
{
	char *t = render(PROMFMT_TEXT);
	const char *p = strstr(t, "\nioprobe_build_info{");

	cr_assert_not_null(p);
	cr_assert_null(strstr(p + 1, "\nioprobe_build_info{"), "a second build_info series");
}

/* --layers: a histogram per layer with a layer label, and the three counters, only for the
 * targets that measure them (issue 32). */
Test(promfmt, layer_families_only_for_targets_that_measure_them)
{
	static struct sbuf sb = SBUF_INIT;
	struct metrics_info with = in1;
	struct metrics_snap s[2];
	const char *t;

	snaps(s);
	cr_assert_null(strstr(render(PROMFMT_TEXT), "ioprobe_layer"), "no target measures them");
	with.layers = true;
	s[0].info = &with;
	s[0].counts.layers.layer[LAYER_DEVICE].bucket[8] = 3; /* le 0.005 */
	s[0].counts.layers.layer[LAYER_DEVICE].count = 3;
	s[0].counts.layers.layer[LAYER_DEVICE].sum = 21 * MS;
	s[0].counts.layers.layer[LAYER_SUBMIT].bucket[0] = 3;
	s[0].counts.layers.layer[LAYER_SUBMIT].count = 3;
	s[0].counts.layers.requests = 4;
	s[0].counts.layers.pieces = 12;
	s[0].counts.layers.no_device = 1;
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", PROMFMT_TEXT), 0);
	t = sbuf_str(&sb);
	has(t, "# TYPE ioprobe_layer_seconds histogram");
	has(t, "ioprobe_layer_seconds_bucket{" T1 ",layer=\"device\",le=\"0.002\"} 0");
	has(t, "ioprobe_layer_seconds_bucket{" T1 ",layer=\"device\",le=\"0.005\"} 3");
	has(t, "ioprobe_layer_seconds_sum{" T1 ",layer=\"device\"} 0.021");
	has(t, "ioprobe_layer_seconds_count{" T1 ",layer=\"submit\"} 3");
	has(t, "ioprobe_layer_seconds_count{" T1 ",layer=\"throttle\"} 0");
	has(t, "ioprobe_layer_seconds_count{" T1 ",layer=\"queue\"} 0");
	has(t, "# TYPE ioprobe_layer_requests_total counter");
	has(t, "ioprobe_layer_requests_total{" T1 "} 4");
	has(t, "ioprobe_layer_pieces_total{" T1 "} 12");
	has(t, "ioprobe_layer_no_device_requests_total{" T1 "} 1");
	lacks(t, "ioprobe_layer_seconds_count{target=\"/dev/nvme0n1\"");
	lacks(t, "ioprobe_layer_requests_total{target=\"/dev/nvme0n1\"");
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", PROMFMT_OPENMETRICS), 0);
	t = sbuf_str(&sb);
	has(t, "# TYPE ioprobe_layer_seconds histogram");
	has(t, "# UNIT ioprobe_layer_seconds seconds");
	has(t, "# TYPE ioprobe_layer_pieces counter");
	has(t, "ioprobe_layer_pieces_total{" T1 "} 12");
}

/* The verdict: its families only with a judged target; the current state once judged. */
Test(promfmt, verdict_families_for_judged_targets)
{
	static struct sbuf sb = SBUF_INIT;
	struct metrics_info with = in1;
	struct metrics_snap s[2];
	const char *t;

	snaps(s);
	lacks(render(PROMFMT_TEXT), "ioprobe_verdict");
	with.verdict = true;
	s[0].info = &with;
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", PROMFMT_TEXT), 0);
	t = sbuf_str(&sb);
	/* not judged yet: no current state (nor its family), every state's seconds at 0 */
	lacks(t, "ioprobe_verdict{");
	lacks(t, "ioprobe_verdict ");
	has(t, "# TYPE ioprobe_verdict_seconds_total counter");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"none\"} 0.0");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"queue_building\"} 0.0");
	s[0].counts.verdict = (struct metrics_verdict){
		.judged = true, .state = VERDICT_FALLS_SHORT, .reason = VERDICT_PROBE_CPU,
		.intervals = 3,
		.state_ns = { [VERDICT_KEEPS_UP] = 2000 * MS, [VERDICT_FALLS_SHORT] = 1250 * MS },
	};
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", PROMFMT_TEXT), 0);
	t = sbuf_str(&sb);
	has(t, "# TYPE ioprobe_verdict gauge");
	has(t, "ioprobe_verdict{" T1 ",device=\"sda1\",state=\"falls_short\","
	       "reason=\"probe_limited_cpu\"} 1");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"keeps_up\"} 2.0");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"falls_short\"} 1.25");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"other_io\"} 0.0");
	lacks(t, "ioprobe_verdict_seconds_total{target=\"/dev/nvme0n1\"");
	lacks(t, "ioprobe_verdict{target=\"/dev/nvme0n1\"");
	sbuf_reset(&sb);
	cr_assert_eq(promfmt_write(&sb, s, 2, "1.2.3", PROMFMT_OPENMETRICS), 0);
	t = sbuf_str(&sb);
	has(t, "# TYPE ioprobe_verdict gauge");
	has(t, "# TYPE ioprobe_verdict_seconds counter");
	has(t, "# UNIT ioprobe_verdict_seconds seconds");
	has(t, "ioprobe_verdict_seconds_total{" T1 ",state=\"falls_short\"} 1.25");
}
