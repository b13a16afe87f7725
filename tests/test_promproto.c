/*
 * Tests for src/out/promproto.c: the protobuf exposition decoded again with
 * protobuf-c's own unpack — a stream of varint-delimited MetricFamily
 * messages with the families, HELP texts, types, series and values of text
 * 0.0.4 (every text sample has its twin, the same double), the classic
 * buckets with their le bounds, and the native part of the histograms
 * (schema 4, zero threshold and count, spans and deltas for known values).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_model.pb-c.h"
#include "promfmt.h"
#include "promproto.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define S UINT64_C(1000000000)

typedef Io__Prometheus__Client__MetricFamily pb_family;
typedef Io__Prometheus__Client__Histogram pb_histogram;

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
static struct metrics_natives nat[2];

/* Two targets, as test_promfmt's, with native buckets holding the same requests. */
static void snaps(struct metrics_snap s[2], bool native)
{
	memset(s, 0, 2 * sizeof(*s));
	memset(nat, 0, sizeof(nat));
	s[0].info = &in1;
	s[1].info = &in2;
	for (int i = 0; i < 2; i++)
		for (int op = 0; op < 2; op++)
			s[i].counts.op[op].err_no[0] = EIO;
	s[0].counts.op[0].bucket[4] = 3;  /* le 0.0002: 150 us */
	s[0].counts.op[0].bucket[6] = 1;  /* le 0.001: 1 ms */
	s[0].counts.op[0].bucket[19] = 1; /* over 10 s: 12 s */
	s[0].counts.op[0].count = 5;
	s[0].counts.op[0].sum = 3 * 150 * US + 1 * MS + 12 * S;
	for (int k = 0; k < 3; k++)
		metrics_native_add(&nat[0].latency[0], 150 * US);
	metrics_native_add(&nat[0].latency[0], 1 * MS);
	metrics_native_add(&nat[0].latency[0], 12 * S);
	s[0].counts.op[0].bytes = 20480;
	s[0].counts.op[0].errors[0] = 2;
	s[0].counts.op[0].err_no[1] = ENOSPC;
	s[0].counts.op[0].errors[1] = 1;
	s[0].counts.op[0].errors_other = 4;
	s[0].counts.op[0].last_real = UINT64_C(1700000001500000000);
	s[0].counts.skipped = 7;
	s[1].in_flight = 7;
	s[1].oldest_in_flight = 2500 * MS;
	s[1].counts.op[1].response.bucket[9] = 2;  /* le 0.01 */
	s[1].counts.op[1].response.bucket[12] = 1; /* le 0.1 */
	s[1].counts.op[1].response.count = 3;
	s[1].counts.op[1].response.sum = 120 * MS;
	metrics_native_add(&nat[1].response[1], 10 * MS);
	metrics_native_add(&nat[1].response[1], 10 * MS);
	metrics_native_add(&nat[1].response[1], 100 * MS);
	if (native) {
		s[0].native = &nat[0];
		s[1].native = &nat[1];
	}
}

/* The families of a delimited stream (NULL-terminated), each unpacked by protobuf-c. */
static pb_family **decode(const struct sbuf *sb)
{
	static pb_family *fam[64];
	const uint8_t *p = (const uint8_t *)sb->buf, *end = p + sb->len;
	size_t n = 0;

	while (p < end) {
		uint64_t len = 0;
		int shift = 0;

		do {
			cr_assert_lt(p, end, "a varint cut short");
			len |= (uint64_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		cr_assert_leq(len, (uint64_t)(end - p), "a message longer than the stream");
		cr_assert_lt(n, 63);
		fam[n] = io__prometheus__client__metric_family__unpack(NULL, len, p);
		cr_assert_not_null(fam[n], "family %zu does not unpack", n);
		n++;
		p += len;
	}
	fam[n] = NULL;
	return fam;
}

static void release(pb_family **fam)
{
	for (; *fam; fam++)
		io__prometheus__client__metric_family__free_unpacked(*fam, NULL);
}

static pb_family **render(struct sbuf *sb, const struct metrics_snap *s, size_t n)
{
	sbuf_reset(sb);
	cr_assert_eq(promproto_write(sb, s, n, "1.2.3"), 0);
	return decode(sb);
}

static pb_family *family(pb_family **fam, const char *name)
{
	for (; *fam; fam++)
		if (!strcmp((*fam)->name, name))
			return *fam;
	cr_assert_fail("no family %s", name);
	return NULL;
}

/* One sample as text 0.0.4 writes it: "name{labels}" and its value. */
struct sample_line {
	char key[512];
	double value;
};

static size_t add(struct sample_line *out, size_t n, const char *name, const char *suffix,
		  const Io__Prometheus__Client__Metric *m, const char *le, double v)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_printf(&sb, "%s%s{", name, suffix);
	for (size_t i = 0; i < m->n_label; i++) {
		sbuf_printf(&sb, "%s%s=\"", i ? "," : "", m->label[i]->name);
		promfmt_label_value(&sb, m->label[i]->value);
		sbuf_putc(&sb, '"');
	}
	if (le)
		sbuf_printf(&sb, "%sle=\"%s\"", m->n_label ? "," : "", le);
	sbuf_putc(&sb, '}');
	cr_assert_lt(n, 1024);
	snprintf(out[n].key, sizeof(out[n].key), "%s", sbuf_str(&sb));
	out[n].value = v;
	sbuf_free(&sb);
	return n + 1;
}

/* The text 0.0.4 samples the families stand for (Prometheus' reading of a protobuf scrape). */
static size_t as_text(pb_family **fam, struct sample_line *out)
{
	size_t n = 0;

	for (; *fam; fam++) {
		pb_family *f = *fam;

		for (size_t i = 0; i < f->n_metric; i++) {
			const Io__Prometheus__Client__Metric *m = f->metric[i];
			const pb_histogram *h = m->histogram;

			if (f->type == IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER) {
				cr_assert_not_null(m->counter);
				n = add(out, n, f->name, "", m, NULL, m->counter->value);
				continue;
			}
			if (f->type == IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE) {
				cr_assert_not_null(m->gauge);
				n = add(out, n, f->name, "", m, NULL, m->gauge->value);
				continue;
			}
			cr_assert_eq(f->type, IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM);
			cr_assert_not_null(h);
			cr_assert_eq(h->n_bucket, METRICS_BUCKETS);
			for (size_t b = 0; b < h->n_bucket; b++) {
				cr_assert_eq(h->bucket[b]->upper_bound,
					     strtod(metrics_bucket_le[b], NULL));
				n = add(out, n, f->name, "_bucket", m, metrics_bucket_le[b],
					(double)h->bucket[b]->cumulative_count);
			}
			n = add(out, n, f->name, "_bucket", m, "+Inf", (double)h->sample_count);
			n = add(out, n, f->name, "_sum", m, NULL, h->sample_sum);
			n = add(out, n, f->name, "_count", m, NULL, (double)h->sample_count);
		}
	}
	return n;
}

/* Every sample line of text: each has its twin in out with the same double. */
static void same_samples(const char *text, const struct sample_line *out, size_t n)
{
	size_t lines = 0;

	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		const char *sp, *nl = strchr(line, '\n');
		size_t k;

		if (line[0] == '#')
			continue;
		sp = memrchr(line, ' ', (size_t)(nl - line));
		for (k = 0; k < n; k++)
			if (strlen(out[k].key) == (size_t)(sp - line) &&
			    !strncmp(out[k].key, line, (size_t)(sp - line)))
				break;
		cr_assert_lt(k, n, "no protobuf sample for %.*s", (int)(nl - line), line);
		cr_assert_eq(out[k].value, strtod(sp + 1, NULL), "%.*s: %.17g", (int)(nl - line),
			     line, out[k].value);
		lines++;
	}
	cr_assert_eq(lines, n, "text has %zu samples, protobuf %zu", lines, n);
}

static void same_as_text(bool native, bool layers)
{
	struct sbuf text = SBUF_INIT, pb = SBUF_INIT;
	struct metrics_snap s[2];
	static struct sample_line out[1024];
	static struct metrics_info with;
	pb_family **fam;
	size_t n, k = 0;

	snaps(s, native);
	if (layers) { /* --layers on the second target: its layer histograms and counters */
		with = in2;
		with.layers = true;
		s[1].info = &with;
		s[1].counts.layers.layer[LAYER_DEVICE].bucket[8] = 3;
		s[1].counts.layers.layer[LAYER_DEVICE].count = 3;
		s[1].counts.layers.layer[LAYER_DEVICE].sum = 21 * MS;
		s[1].counts.layers.layer[LAYER_QUEUE].bucket[0] = 3;
		s[1].counts.layers.layer[LAYER_QUEUE].count = 3;
		s[1].counts.layers.layer[LAYER_QUEUE].sum = 9 * US;
		s[1].counts.layers.requests = 4;
		s[1].counts.layers.pieces = 6;
		s[1].counts.layers.no_device = 1;
		/* and its verdict: the current one and the seconds in each state */
		with.verdict = true;
		s[1].counts.verdict = (struct metrics_verdict){
			.judged = true, .state = VERDICT_FALLS_SHORT,
			.reason = VERDICT_DEVICE_SATURATED, .intervals = 4,
			.state_ns = { [VERDICT_KEEPS_UP] = 3000 * MS, [VERDICT_FALLS_SHORT] = 1001 * MS },
		};
	}
	cr_assert_eq(promfmt_write(&text, s, 2, "1.2.3", PROMFMT_TEXT), 0);
	fam = render(&pb, s, 2);
	n = as_text(fam, out);
	same_samples(sbuf_str(&text), out, n);
	/* the families in text's order, with its HELP and TYPE */
	for (const char *line = sbuf_str(&text); *line; line = strchr(line, '\n') + 1) {
		char name[128], rest[512];
		static const char *const type[] = { "counter", "gauge", "summary", "untyped",
						    "histogram" };

		if (sscanf(line, "# HELP %127s %511[^\n]", name, rest) == 2) {
			cr_assert_not_null(fam[k], "family %s missing", name);
			cr_assert_str_eq(fam[k]->name, name);
			cr_assert_str_eq(fam[k]->help, rest);
		} else if (sscanf(line, "# TYPE %127s %511s", name, rest) == 2) {
			cr_assert(fam[k]->has_type);
			cr_assert_str_eq(type[fam[k]->type], rest, "%s", name);
			k++;
		}
	}
	cr_assert_null(fam[k], "a family text does not have");
	cr_assert_eq(k, layers ? 19 : 13);
	release(fam);
	sbuf_free(&text);
	sbuf_free(&pb);
}

Test(promproto, same_families_series_and_values_as_text)
{
	same_as_text(true, false);
	same_as_text(false, false);
	same_as_text(true, true);
	same_as_text(false, true);
}

/* The native buckets of h, from its spans and deltas, as (index, count) pairs. */
static size_t buckets_of(const pb_histogram *h, int *index, uint64_t *count)
{
	size_t n = 0, d = 0;
	int64_t c = 0;
	int at = 0;

	for (size_t i = 0; i < h->n_positive_span; i++) {
		at += h->positive_span[i]->offset; /* the first: absolute; later ones: gaps */
		for (uint32_t k = 0; k < h->positive_span[i]->length; k++) {
			cr_assert_lt(d, h->n_positive_delta);
			c += h->positive_delta[d++];
			cr_assert_geq(c, 0);
			if (c) {
				index[n] = at;
				count[n++] = (uint64_t)c;
			}
			at++;
		}
	}
	cr_assert_eq(d, h->n_positive_delta, "a delta per bucket of the spans");
	return n;
}

Test(promproto, native_histogram_for_known_values)
{
	struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];
	pb_family **fam;
	pb_histogram *h;
	Io__Prometheus__Client__Metric *m;
	int index[8];
	uint64_t count[8], sum = 0;
	size_t n;

	snaps(s, true);
	nat[0].latency[0].zero = 2; /* two requests of 0 ns */
	s[0].counts.op[0].bucket[0] += 2;
	fam = render(&sb, s, 2);
	h = family(fam, "ioprobe_request_duration_seconds")->metric[0]->histogram;
	cr_assert(h->has_schema && h->has_zero_threshold && h->has_zero_count);
	cr_assert_eq(h->schema, 4);
	cr_assert_eq(h->zero_threshold, ldexp(1, -30));
	cr_assert_eq(h->zero_count, 2);
	cr_assert_eq(h->sample_count, 7);
	cr_assert_eq(h->sample_sum, 12.00145);
	/* 150 us x3 -> index ceil(16 log2 0.00015) = -203; 1 ms -> -159; 12 s -> 58 */
	cr_assert_eq(h->n_positive_span, 3);
	cr_assert_eq(h->positive_span[0]->offset, -203);
	cr_assert_eq(h->positive_span[0]->length, 1);
	cr_assert_eq(h->positive_span[1]->offset, -159 - -202);
	cr_assert_eq(h->positive_span[1]->length, 1);
	cr_assert_eq(h->positive_span[2]->offset, 58 - -158);
	cr_assert_eq(h->positive_span[2]->length, 1);
	cr_assert_eq(h->n_positive_delta, 3);
	cr_assert_eq(h->positive_delta[0], 3);
	cr_assert_eq(h->positive_delta[1], -2);
	cr_assert_eq(h->positive_delta[2], 0);
	n = buckets_of(h, index, count);
	cr_assert_eq(n, 3);
	for (size_t i = 0; i < n; i++)
		sum += count[i];
	cr_assert_eq(sum + h->zero_count, h->sample_count, "the count is the buckets'");
	/* the response histogram of the second target's writes: 10 ms x2, 100 ms */
	m = family(fam, "ioprobe_response_duration_seconds")->metric[1];
	cr_assert_str_eq(m->label[0]->value, "/dev/nvme0n1");
	cr_assert_str_eq(m->label[1]->value, "write");
	h = m->histogram;
	n = buckets_of(h, index, count);
	cr_assert_eq(n, 2);
	cr_assert_eq(index[0], metrics_native_index(10 * MS));
	cr_assert_eq(count[0], 2);
	cr_assert_eq(index[1], metrics_native_index(100 * MS));
	cr_assert_eq(count[1], 1);
	cr_assert_eq(h->sample_count, 3);
	release(fam);
	sbuf_free(&sb);
}

Test(promproto, empty_native_histogram_is_still_native)
{
	struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];
	pb_family **fam;
	pb_histogram *h;

	snaps(s, true);
	fam = render(&sb, s, 2);
	/* the second target's reads: nothing yet; a zero threshold above 0 marks it native
	 * (what Prometheus 2.42 looks at to take a family as native) */
	h = family(fam, "ioprobe_request_duration_seconds")->metric[1]->histogram;
	cr_assert_eq(h->sample_count, 0);
	cr_assert(h->has_schema && h->has_zero_threshold);
	cr_assert_gt(h->zero_threshold, 0);
	cr_assert_eq(h->n_positive_span, 0);
	cr_assert_eq(h->n_positive_delta, 0);
	release(fam);
	sbuf_free(&sb);
}

Test(promproto, no_native_part_without_native_buckets)
{
	struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];
	pb_family **fam;
	pb_histogram *h;

	snaps(s, false);
	fam = render(&sb, s, 2);
	h = family(fam, "ioprobe_request_duration_seconds")->metric[0]->histogram;
	cr_assert_not(h->has_schema);
	cr_assert_not(h->has_zero_threshold);
	cr_assert_eq(h->n_positive_span, 0);
	cr_assert_eq(h->n_bucket, METRICS_BUCKETS, "the classic buckets are there");
	cr_assert_eq(h->bucket[METRICS_BUCKETS - 1]->cumulative_count, 4);
	cr_assert_eq(h->sample_count, 5, "+Inf is the count");
	release(fam);
	sbuf_free(&sb);
}

Test(promproto, spans_keep_short_gaps_inside)
{
	static struct metrics_native h;
	int32_t off[METRICS_NATIVE_BUCKETS];
	uint32_t len[METRICS_NATIVE_BUCKETS];
	int64_t delta[METRICS_NATIVE_BUCKETS];
	size_t nd, ns;

	memset(&h, 0, sizeof(h));
	cr_assert_eq(promproto_spans(&h, off, len, delta, &nd), 0);
	cr_assert_eq(nd, 0);
	h.bucket[10] = 3;
	h.bucket[11] = 5;
	h.bucket[13] = 2;  /* one empty bucket before it: same span */
	h.bucket[16] = 4;  /* two: same span */
	h.bucket[20] = 1;  /* three: a new span */
	h.bucket[METRICS_NATIVE_BUCKETS - 1] = 9;
	ns = promproto_spans(&h, off, len, delta, &nd);
	cr_assert_eq(ns, 3);
	cr_assert_eq(off[0], METRICS_NATIVE_MIN + 10);
	cr_assert_eq(len[0], 7);
	cr_assert_eq(off[1], 3);
	cr_assert_eq(len[1], 1);
	cr_assert_eq(off[2], METRICS_NATIVE_BUCKETS - 1 - 21);
	cr_assert_eq(len[2], 1);
	cr_assert_eq(nd, 9);
	const int64_t want[] = { 3, 2, -5, 2, -2, 0, 4, -3, 8 };

	for (size_t i = 0; i < nd; i++)
		cr_assert_eq(delta[i], want[i], "delta %zu: %lld", i, (long long)delta[i]);
}

Test(promproto, labels_are_raw_utf8)
{
	struct sbuf sb = SBUF_INIT;
	struct metrics_snap s[2];
	struct metrics_info bad = in1;
	pb_family **fam;
	pb_family *f;

	snaps(s, true);
	bad.target = "/mnt/caf\xc3\xa9 \xff\"q\"";
	s[0].info = &bad;
	fam = render(&sb, s, 1);
	f = family(fam, "ioprobe_probe_info");
	cr_assert_str_eq(f->metric[0]->label[0]->name, "target");
	/* no escaping (protobuf carries any string), but always UTF-8: the byte 0xff is U+FFFD */
	cr_assert_str_eq(f->metric[0]->label[0]->value, "/mnt/caf\xc3\xa9 \xef\xbf\xbd\"q\"");
	cr_assert_str_eq(f->metric[0]->label[1]->name, "device");
	cr_assert_str_eq(f->metric[0]->label[5]->value, "read");
	cr_assert_eq(f->metric[0]->gauge->value, 1);
	f = family(fam, "ioprobe_build_info");
	cr_assert_eq(f->n_metric, 1);
	cr_assert_eq(f->metric[0]->n_label, 1);
	cr_assert_str_eq(f->metric[0]->label[0]->value, "1.2.3");
	release(fam);
	sbuf_free(&sb);
}

Test(promproto, no_targets_only_the_build)
{
	struct sbuf sb = SBUF_INIT;
	pb_family **fam = render(&sb, NULL, 0);

	cr_assert_not_null(fam[0]);
	cr_assert_str_eq(fam[0]->name, "ioprobe_build_info");
	cr_assert_null(fam[1], "families without series are left out");
	release(fam);
	sbuf_free(&sb);
}

Test(promproto, available_and_content_type)
{
	cr_assert(promproto_available());
	cr_assert_str_eq(promfmt_content_type(PROMFMT_PROTOBUF),
			 "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
			 "encoding=delimited");
	cr_assert_eq(promfmt_write(&(struct sbuf)SBUF_INIT, NULL, 0, "1", PROMFMT_PROTOBUF),
		     -EINVAL, "the text writer does not write it");
}
