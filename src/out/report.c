#include "config.h"

#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "esc.h"
#include "fmt.h"
#include "iostat.h"
#include "json.h"
#include "msg.h"
#include "common.h"
#include "verdict.h"

/* Percentiles on the summary line and in raw lines (JSON adds 99.99). */

static void put_value(struct sbuf *sb, uint64_t v, enum fmt_kind kind)
{
	char buf[FMT_BUFSZ];

	sbuf_puts(sb, fmt_value(buf, sizeof(buf), v, kind));
}

void report_target_desc(struct sbuf *sb, const struct report_target *t)
{
	esc_puts(sb, t->fstype);
	sbuf_putc(sb, ' ');
	if (t->device && *t->device) {
		esc_puts(sb, t->device);
		sbuf_putc(sb, ' ');
	}
	put_value(sb, t->device_size, FMT_SIZE);
}

static void put_localtime(struct sbuf *sb, const char *format, uint64_t realtime)
{
	char buf[256];
	time_t sec = (time_t)(realtime / 1000000000ull);
	struct tm tm;
	size_t n = 0;

	if (localtime_r(&sec, &tm))
		n = strftime(buf, sizeof(buf), format, &tm);
	sbuf_append(sb, buf, n);
}

void report_request_line(struct sbuf *sb, const struct report_cfg *c, const struct sample *s,
			 enum notice n, uint64_t realtime)
{
	char ebuf[32];
	const char *text = account_notice_text(n);

	if (c->time_format) {
		put_localtime(sb, c->time_format, realtime);
		sbuf_putc(sb, ' ');
	}
	put_value(sb, s->result > 0 ? (uint64_t)s->result : 0, FMT_SIZE);
	sbuf_puts(sb, s->op == OP_WRITE ? " >>> " : " <<< ");
	esc_puts(sb, c->target.path);
	sbuf_puts(sb, " (");
	report_target_desc(sb, &c->target);
	sbuf_printf(sb, "): request=%" PRIu64 " time=", s->request);
	put_value(sb, s->time, FMT_TIME);
	if (n == NOTICE_ERROR)
		text = errno_name((int)s->result, ebuf, sizeof(ebuf));
	if (text)
		sbuf_printf(sb, " (%s)", text);
	sbuf_putc(sb, '\n');
}

static void put_percentiles(struct sbuf *sb, const char *prefix, const struct stats *s)
{
	sbuf_printf(sb, "%sp50/p90/p99/p99.9 = ", prefix);
	for (size_t i = 0; i < TALLY_PCTS; i++) {
		if (i)
			sbuf_puts(sb, " / ");
		put_value(sb, stats_percentile(s, tally_pcts[i]), FMT_TIME);
	}
	sbuf_putc(sb, '\n');
}

void report_summary(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
		    const struct stats *read, const struct stats *write)
{
	const struct stats *v = &t->valid;
	double iops = tally_iops(t), load_iops = tally_load_iops(t);

	sbuf_puts(sb, "\n--- ");
	esc_puts(sb, c->target.path);
	sbuf_puts(sb, " (");
	report_target_desc(sb, &c->target);
	sbuf_puts(sb, ") ioprobe statistics ---\n");

	put_value(sb, v->count, FMT_INT);
	sbuf_puts(sb, " requests completed in ");
	put_value(sb, v->sum, FMT_TIME);
	sbuf_puts(sb, ", ");
	put_value(sb, v->count * c->size, FMT_SIZE);
	if (!c->read_write)
		sbuf_puts(sb, c->write ? " written" : " read");
	sbuf_puts(sb, ", ");
	put_value(sb, fmt_trunc(iops), FMT_INT);
	sbuf_puts(sb, " iops, ");
	put_value(sb, fmt_trunc(iops * (double)c->size), FMT_SIZE);
	sbuf_puts(sb, "/s\n");

	if (t->failed) {
		put_value(sb, t->failed, FMT_INT);
		sbuf_puts(sb, " failed, ");
	}
	if (t->too_fast) {
		put_value(sb, t->too_fast, FMT_INT);
		sbuf_puts(sb, " too fast, ");
	}
	if (t->too_slow) {
		put_value(sb, t->too_slow, FMT_INT);
		sbuf_puts(sb, " too slow, ");
	}
	if (t->skipped) {
		put_value(sb, t->skipped, FMT_INT);
		sbuf_puts(sb, " skipped, ");
	}
	sbuf_puts(sb, "generated ");
	put_value(sb, t->requests, FMT_INT);
	sbuf_puts(sb, " requests in ");
	put_value(sb, t->wall, FMT_TIME);
	sbuf_puts(sb, ", ");
	put_value(sb, t->requests * c->size, FMT_SIZE);
	sbuf_puts(sb, ", ");
	put_value(sb, fmt_trunc(load_iops), FMT_INT);
	sbuf_puts(sb, " iops, ");
	put_value(sb, fmt_trunc(load_iops * (double)c->size), FMT_SIZE);
	sbuf_puts(sb, "/s\n");

	sbuf_puts(sb, "min/avg/max/mdev = ");
	put_value(sb, stats_min(v), FMT_TIME);
	sbuf_puts(sb, " / ");
	put_value(sb, fmt_trunc(stats_mean(v)), FMT_TIME);
	sbuf_puts(sb, " / ");
	put_value(sb, v->max, FMT_TIME);
	sbuf_puts(sb, " / ");
	put_value(sb, fmt_trunc(stats_mdev(v)), FMT_TIME);
	sbuf_putc(sb, '\n');
	put_percentiles(sb, "", v);
	if (c->read_write && read && write) {
		put_percentiles(sb, "read ", read);
		put_percentiles(sb, "write ", write);
	}
	if (c->response)
		put_percentiles(sb, "response ", &t->response);
}

void report_raw_line(struct sbuf *sb, const struct report_cfg *c, const struct tally *t)
{
	const struct stats *v = &t->valid;
	double iops = tally_iops(t);

	sbuf_printf(sb, "%" PRIu64 " %" PRIu64 " %.0f %.0f %" PRIu64 " %.0f %" PRIu64 " %.0f %" PRIu64
		    " %" PRIu64, v->count, v->sum, iops, iops * (double)c->size, stats_min(v),
		    stats_mean(v), v->max, stats_mdev(v), t->requests, t->wall);
	if (c->raw_percentiles)
		for (size_t i = 0; i < TALLY_PCTS; i++)
			sbuf_printf(sb, " %" PRIu64, stats_percentile(v, tally_pcts[i]));
	if (c->raw_percentiles && c->response)
		for (size_t i = 0; i < TALLY_PCTS; i++)
			sbuf_printf(sb, " %" PRIu64, stats_percentile(&t->response, tally_pcts[i]));
	if (c->raw_target) {
		sbuf_putc(sb, ' ');
		esc_field(sb, c->target.path);
	}
	sbuf_putc(sb, '\n');
}

/* A tiny JSON writer: pretty (ioping's two-space layout) or compact. */
struct jw {
	struct sbuf *sb;
	bool compact;
	int depth;
	bool first;
};

static void jw_indent(struct jw *w)
{
	if (w->compact)
		return;
	sbuf_putc(w->sb, '\n');
	for (int i = 0; i < w->depth; i++)
		sbuf_puts(w->sb, "  ");
}

static void jw_key(struct jw *w, const char *key)
{
	if (!w->first)
		sbuf_putc(w->sb, ',');
	w->first = false;
	jw_indent(w);
	json_append_string(w->sb, key);
	sbuf_puts(w->sb, w->compact ? ":" : ": ");
}

static void jw_open(struct jw *w, const char *key)
{
	if (key)
		jw_key(w, key);
	sbuf_putc(w->sb, '{');
	w->depth++;
	w->first = true;
}

static void jw_close(struct jw *w)
{
	w->depth--;
	jw_indent(w);
	sbuf_putc(w->sb, '}');
	w->first = false;
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	sbuf_printf(w->sb, "%" PRIu64, v);
}

static void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	json_append_string(w->sb, v);
}

static void jw_raw(struct jw *w, const char *key, const char *fmt, double v)
{
	jw_key(w, key);
	sbuf_printf(w->sb, fmt, v);
}

/*
 * "target": {path, fstype, device, device_size}. A device has no fstype or
 * device of its own; ioping 1.3 writes the two words of "block device" /
 * "character device" into them ("fstype": "block", "device": "device"), and
 * so does this.
 */
static void put_target_obj(struct jw *w, const struct report_target *t)
{
	static const char word[] = " device";
	const char *fstype = t->fstype, *device = t->device ? t->device : "";
	size_t len = strlen(fstype);
	struct sbuf kind = SBUF_INIT;

	if (!*device && len > strlen(word) && !strcmp(fstype + len - strlen(word), word)) {
		sbuf_append(&kind, fstype, len - strlen(word));
		fstype = sbuf_str(&kind);
		device = word + 1;
	}
	jw_open(w, "target");
	jw_str(w, "path", t->path);
	jw_str(w, "fstype", fstype);
	jw_str(w, "device", device);
	jw_u64(w, "device_size", t->device_size);
	jw_close(w);
	sbuf_free(&kind);
}

static void put_record_head(struct jw *w, const struct report_cfg *c, const char *type,
		      uint64_t realtime)
{
	jw_open(w, NULL);
	if (c->json_lines)
		jw_str(w, "type", type);
	jw_key(w, "timestamp");
	{
		uint64_t us = (realtime + 500) / 1000; /* rounded to µs, as ioping's %f is */

		sbuf_printf(w->sb, "%" PRIu64 ".%06" PRIu64, us / UINT64_C(1000000),
			    us % UINT64_C(1000000));
	}
	if (c->time_format) {
		struct sbuf lt = SBUF_INIT;

		put_localtime(&lt, c->time_format, realtime);
		jw_str(w, "localtime", sbuf_str(&lt));
		sbuf_free(&lt);
	}
	put_target_obj(w, &c->target);
}

void report_json_request(struct sbuf *sb, const struct report_cfg *c, const struct sample *s,
			 enum notice n, uint64_t realtime)
{
	struct jw w = { sb, c->json_lines, 0, true };
	char ebuf[32];
	const char *notice = account_notice_text(n);

	if (n == NOTICE_ERROR)
		notice = errno_name((int)s->result, ebuf, sizeof(ebuf));
	put_record_head(&w, c, "request", realtime);
	jw_open(&w, "io");
	jw_u64(&w, "request", s->request);
	jw_str(&w, "operation", s->op == OP_WRITE ? "write" : "read");
	jw_u64(&w, "offset", s->offset);
	jw_u64(&w, "size", s->result > 0 ? (uint64_t)s->result : 0);
	jw_u64(&w, "time", s->time);
	jw_key(&w, "ignored");
	sbuf_puts(sb, n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW ? "false" : "true");
	jw_str(&w, "notice", notice ? notice : "");
	jw_u64(&w, "start", s->start);
	jw_u64(&w, "lateness", s->lateness);
	jw_u64(&w, "response", s->response);
	jw_close(&w);
	jw_close(&w);
}

/* "histogram": [[low, high, count], ...] for every non-empty bucket, ns. */
static void put_histogram(struct jw *w, const struct stats *v)
{
	bool first = true;

	jw_key(w, "histogram");
	sbuf_putc(w->sb, '[');
	for (size_t i = 0; i < STATS_BUCKETS && v->count; i++) {
		if (!v->hist[i])
			continue;
		sbuf_printf(w->sb, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    stats_bucket_low(i), stats_bucket_high(i), v->hist[i]);
		first = false;
	}
	sbuf_putc(w->sb, ']');
}

void report_json_stat(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
		      uint64_t realtime, bool total)
{
	static const double json_pcts[] = { 50, 90, 99, 99.9, 99.99 };
	static const char *const json_pct_keys[] = { "50", "90", "99", "99.9", "99.99" };
	struct jw w = { sb, c->json_lines, 0, true };
	const struct stats *v = &t->valid;
	double iops = tally_iops(t), load_iops = tally_load_iops(t);

	put_record_head(&w, c, total ? "total" : "period", realtime);
	jw_open(&w, "stat");
	jw_u64(&w, "count", v->count);
	jw_u64(&w, "size", v->count * c->size);
	jw_u64(&w, "time", v->sum);
	jw_raw(&w, "iops", "%f", iops);
	jw_raw(&w, "bps", "%.0f", iops * (double)c->size);
	jw_u64(&w, "min", stats_min(v));
	jw_raw(&w, "avg", "%.0f", stats_mean(v));
	jw_u64(&w, "max", v->max);
	jw_raw(&w, "mdev", "%.0f", stats_mdev(v));
	jw_open(&w, "percentiles");
	for (size_t i = 0; i < ARRAY_SIZE(json_pcts); i++)
		jw_u64(&w, json_pct_keys[i], stats_percentile(v, json_pcts[i]));
	jw_close(&w);
	put_histogram(&w, v);
	/* completion - scheduled start, skipped slots included (see the man page) */
	jw_open(&w, "response");
	jw_u64(&w, "count", t->response.count);
	jw_u64(&w, "min", stats_min(&t->response));
	jw_raw(&w, "avg", "%.0f", stats_mean(&t->response));
	jw_u64(&w, "max", t->response.max);
	jw_open(&w, "percentiles");
	for (size_t i = 0; i < ARRAY_SIZE(json_pcts); i++)
		jw_u64(&w, json_pct_keys[i], stats_percentile(&t->response, json_pcts[i]));
	jw_close(&w);
	jw_close(&w);
	jw_close(&w);
	jw_open(&w, "load");
	jw_u64(&w, "count", t->requests);
	jw_u64(&w, "failed", t->failed);
	jw_u64(&w, "skipped", t->skipped);
	jw_u64(&w, "size", t->requests * c->size);
	jw_u64(&w, "time", t->wall);
	jw_raw(&w, "iops", "%f", load_iops);
	jw_raw(&w, "bps", "%.0f", load_iops * (double)c->size);
	jw_close(&w);
	jw_close(&w);
}

/* The "probe" and "verdict" objects of an iostat interval. */
static void json_verdict(struct jw *w, const struct verdict *v)
{
	struct sbuf text = SBUF_INIT;

	jw_open(w, "probe");
	jw_raw(w, "asked", "%.2f", v->asked);
	jw_raw(w, "achieved", "%.2f", v->achieved);
	jw_u64(w, "requests", v->done);
	jw_u64(w, "skipped", v->skipped);
	jw_u64(w, "p50", v->p50_ns);
	jw_u64(w, "p99", v->p99_ns);
	jw_close(w);
	jw_open(w, "verdict");
	jw_str(w, "state", verdict_state_text(v->state));
	jw_str(w, "reason", verdict_reason_text(v->reason));
	jw_str(w, "device", v->dev);
	jw_raw(w, "device_rate", "%.2f", v->dev_rate);
	jw_raw(w, "expected", "%.2f", v->expected);
	jw_raw(w, "own", "%.2f", v->own);
	verdict_format(&text, v);
	jw_str(w, "text", sbuf_str(&text));
	sbuf_free(&text);
	jw_close(w);
}

void report_json_iostat(struct sbuf *sb, const struct report_cfg *c,
			const struct iostat_dev_row *rows, size_t n, const struct verdict *v,
			uint64_t realtime)
{
	struct jw jw = { sb, c->json_lines, 0, true };

	put_record_head(&jw, c, "iostat", realtime);
	jw_open(&jw, "iostat");
	jw_u64(&jw, "interval", n ? rows[0].row->interval_ns : 0);
	jw_key(&jw, "disk");
	sbuf_putc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sbuf_puts(sb, ", ");
		iostat_json_row(sb, rows[i].name, rows[i].row);
	}
	sbuf_putc(sb, ']');
	if (v)
		json_verdict(&jw, v);
	jw_close(&jw);
	jw_close(&jw);
}
