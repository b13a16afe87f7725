/*
 * Tests for src/out/influx.c: the line protocol reference's escaping rules
 * (measurement: comma, space; tags: comma, equals, space; string fields:
 * double quote, backslash), what the protocol cannot carry, and the line
 * --influx writes (integer fields with "i", ms floats, ns timestamp).
 */
#include <criterion/criterion.h>

#include <string.h>

#include "influx.h"

static const char *esc(const char *s, enum influx_part part)
{
	static struct sbuf sb = SBUF_INIT;

	sbuf_reset(&sb);
	influx_escape(&sb, s, part);
	return sbuf_str(&sb);
}

Test(influx, escaping)
{
	cr_assert_str_eq(esc("a b,c=d", INFLUX_MEASUREMENT), "a\\ b\\,c=d");
	cr_assert_str_eq(esc("/mnt/my disk,1=x", INFLUX_TAG), "/mnt/my\\ disk\\,1\\=x");
	cr_assert_str_eq(esc("say \"hi\" \\o/", INFLUX_FIELD_STRING), "\"say \\\"hi\\\" \\\\o/\"");
	cr_assert_str_eq(esc("a\"b", INFLUX_TAG), "a\"b");
	cr_assert_str_eq(esc("a\\b", INFLUX_TAG), "a\\b");
	/* a backslash before a special character or a backslash is doubled: "a\\ b" would
	 * read as an escaped backslash and the end of the tag set */
	cr_assert_str_eq(esc("dir/a\\ b", INFLUX_TAG), "dir/a\\\\\\ b");
	cr_assert_str_eq(esc("a\\,b\\=c", INFLUX_TAG), "a\\\\\\,b\\\\\\=c");
	cr_assert_str_eq(esc("a\\\\b", INFLUX_TAG), "a\\\\\\b", "two become three: \\\\ then \\b");
	cr_assert_str_eq(esc("m\\ x", INFLUX_MEASUREMENT), "m\\\\\\ x");
	/* no newline in a tag, no trailing backslash, no broken UTF-8 */
	cr_assert_str_eq(esc("a\nb", INFLUX_TAG), "a\xef\xbf\xbd" "b");
	cr_assert_str_eq(esc("a\\", INFLUX_TAG), "a\xef\xbf\xbd");
	cr_assert_str_eq(esc("\xff", INFLUX_TAG), "\xef\xbf\xbd");
	cr_assert_str_eq(esc("caf\xc3\xa9", INFLUX_TAG), "caf\xc3\xa9");
}

Test(influx, line_with_latencies)
{
	struct sbuf sb = SBUF_INIT;
	struct stats v;
	struct influx_point p = {
		.target = "/mnt/a b", .operation = "read", .device = "sda1",
		.requests = 4, .errors = 1, .bytes = 12288, .valid = &v,
		.time = UINT64_C(1700000000000000000),
	};

	stats_init(&v);
	stats_add(&v, 50); /* below 128 ns the histogram is exact */
	stats_add(&v, 100);
	stats_add(&v, 120);
	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_str_eq(sbuf_str(&sb),
		"ioprobe,target=/mnt/a\\ b,operation=read,device=sda1 requests=4i,errors=1i,"
		"bytes=12288i,in_flight=0i,oldest_in_flight_ms=0.000,skipped=0i,"
		"min_ms=0.000050,avg_ms=0.000090,p50_ms=0.000100,p90_ms=0.000120,"
		"p99_ms=0.000120,p999_ms=0.000120,max_ms=0.000120 1700000000000000000\n");
	sbuf_free(&sb);
}

Test(influx, line_without_valid_requests_or_device)
{
	struct sbuf sb = SBUF_INIT;
	struct stats v;
	struct influx_point p = {
		.target = "/d", .operation = "write", .device = "", .requests = 2, .errors = 2,
		.valid = &v, .time = 5,
	};

	stats_init(&v);
	influx_line(&sb, &p);
	cr_assert_str_eq(sbuf_str(&sb),
			 "ioprobe,target=/d,operation=write requests=2i,errors=2i,bytes=0i,in_flight=0i,"
			 "oldest_in_flight_ms=0.000,skipped=0i 5\n");
	sbuf_free(&sb);
}

Test(influx, response_fields_follow_with_resp_prefix)
{
	struct sbuf sb = SBUF_INIT;
	struct stats v, r;
	struct influx_point p = {
		.target = "/d", .operation = "read", .device = "", .requests = 1,
		.valid = &v, .response = &r, .time = 5,
	};

	stats_init(&v);
	stats_init(&r);
	stats_add(&v, 100);
	stats_add(&r, 120);
	influx_line(&sb, &p);
	cr_assert_str_eq(sbuf_str(&sb),
		"ioprobe,target=/d,operation=read requests=1i,errors=0i,bytes=0i,"
		"in_flight=0i,oldest_in_flight_ms=0.000,skipped=0i,"
		"min_ms=0.000100,avg_ms=0.000100,p50_ms=0.000100,p90_ms=0.000100,"
		"p99_ms=0.000100,p999_ms=0.000100,max_ms=0.000100,"
		"resp_min_ms=0.000120,resp_avg_ms=0.000120,resp_p50_ms=0.000120,"
		"resp_p90_ms=0.000120,resp_p99_ms=0.000120,resp_p999_ms=0.000120,"
		"resp_max_ms=0.000120 5\n");
	sbuf_reset(&sb);
	stats_init(&r); /* empty: left out */
	influx_line(&sb, &p);
	cr_assert_null(strstr(sbuf_str(&sb), "resp_"));
	sbuf_free(&sb);
}

/* A hung target's line: nothing finished, one request in flight for 12 s, slots skipped. */
Test(influx, hung_target_line)
{
	struct sbuf sb = SBUF_INIT;
	struct influx_point p = { .target = "/d", .operation = "read", .device = "",
				  .in_flight = 1, .oldest_ms = 12000.5, .skipped = 3, .time = 5 };

	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_str_eq(sbuf_str(&sb), "ioprobe,target=/d,operation=read requests=0i,errors=0i,"
					"bytes=0i,in_flight=1i,oldest_in_flight_ms=12000.500,"
					"skipped=3i 5\n");
	sbuf_free(&sb);
}

/* A target's short name is a tag after target, escaped as tags are. */
Test(influx, name_tag)
{
	struct sbuf sb = SBUF_INIT;
	struct stats v;
	struct influx_point p = {
		.target = "/d", .name = "db 1", .operation = "read", .device = "", .requests = 0,
		.valid = &v, .time = 5,
	};

	stats_init(&v);
	influx_line(&sb, &p);
	const char *want = "ioprobe,target=/d,name=db\\ 1,operation=read ";

	cr_assert(!strncmp(sbuf_str(&sb), want, strlen(want)), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* --layers: the counts always, pieces and each layer's avg and p99 once one reached the device. */
Test(influx, layer_fields)
{
	struct sbuf sb = SBUF_INIT;
	struct layer_tally l;
	struct sample s = { 0 };
	struct influx_point p = {
		.target = "/d", .operation = "read", .device = "", .requests = 0, .layers = &l,
		.time = 5,
	};

	layer_tally_init(&l);
	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_str_eq(sbuf_str(&sb),
			 "ioprobe,target=/d,operation=read requests=0i,errors=0i,bytes=0i,in_flight=0i,"
			 "oldest_in_flight_ms=0.000,skipped=0i,layer_requests=0i,layer_no_device=0i 5\n");
	s.result = 4096;
	s.layers = (struct layer_times){ .submit = 100, .throttle = 0, .queue = 20,
					 .device = 120, .pieces = 2, .measured = true };
	layer_tally_add(&l, &s, NOTICE_NONE);
	s.layers = (struct layer_times){ .measured = true, .no_device = true };
	layer_tally_add(&l, &s, NOTICE_NONE);
	sbuf_reset(&sb);
	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_str_eq(sbuf_str(&sb),
			 "ioprobe,target=/d,operation=read requests=0i,errors=0i,bytes=0i,in_flight=0i,"
			 "oldest_in_flight_ms=0.000,skipped=0i,layer_requests=2i,layer_no_device=1i,"
			 "layer_pieces=2.000,layer_submit_avg_ms=0.000100,layer_submit_p99_ms=0.000100,"
			 "layer_throttle_avg_ms=0.000000,layer_throttle_p99_ms=0.000000,"
			 "layer_queue_avg_ms=0.000020,layer_queue_p99_ms=0.000020,"
			 "layer_device_avg_ms=0.000120,layer_device_p99_ms=0.000120 5\n");
	sbuf_free(&sb);
}

/* A judged target's line ends with its last verdict's state and reason (string fields). */
Test(influx, verdict_fields)
{
	struct sbuf sb = SBUF_INIT;
	struct influx_point p = {
		.target = "/d", .operation = "read", .device = "", .requests = 0, .time = 5,
		.verdict = "falls_short", .reason = "device_saturated",
	};

	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_str_eq(sbuf_str(&sb),
			 "ioprobe,target=/d,operation=read requests=0i,errors=0i,bytes=0i,in_flight=0i,"
			 "oldest_in_flight_ms=0.000,skipped=0i,verdict=\"falls_short\","
			 "reason=\"device_saturated\" 5\n");
	p.verdict = "keeps_up";
	p.reason = "";
	sbuf_reset(&sb);
	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert(strstr(sbuf_str(&sb), ",verdict=\"keeps_up\",reason=\"\" 5\n"), "%s",
		  sbuf_str(&sb));
	p.verdict = NULL; /* not judged: no field */
	sbuf_reset(&sb);
	cr_assert_eq(influx_line(&sb, &p), 0);
	cr_assert_null(strstr(sbuf_str(&sb), "verdict"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}
