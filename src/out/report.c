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

/* The target as a line shows it: "PATH", or "NAME: PATH" when it has a short name. */
static void put_ident(struct sbuf *sb, const struct report_target *t)
{
	if (t->name) {
		esc_puts(sb, t->name);
		sbuf_puts(sb, ": ");
	}
	esc_puts(sb, t->path);
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
	put_ident(sb, &c->target);
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

/* The percentiles c shows. */
static const struct pcts *cfg_pcts(const struct report_cfg *c)
{
	return c->pcts ? c->pcts : &pcts_default;
}

/* "p50/p90/p99/p99.9 = a / b / c / d" (the labels and values of the list). */
static void put_percentiles(struct sbuf *sb, const char *prefix, const struct stats *s,
			    const struct pcts *pc)
{
	char label[32];

	sbuf_puts(sb, prefix);
	for (unsigned i = 0; i < pc->n; i++)
		sbuf_printf(sb, "%s%s", i ? "/" : "", pcts_label(pc->p[i], label, sizeof(label)));
	sbuf_puts(sb, " = ");
	for (unsigned i = 0; i < pc->n; i++) {
		if (i)
			sbuf_puts(sb, " / ");
		put_value(sb, stats_percentile(s, pc->p[i]), FMT_TIME);
	}
	sbuf_putc(sb, '\n');
}

void report_summary(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
		    const struct stats *read, const struct stats *write)
{
	const struct stats *v = &t->valid;
	double iops = tally_iops(t), load_iops = tally_load_iops(t);

	sbuf_puts(sb, "\n--- ");
	put_ident(sb, &c->target);
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
	put_percentiles(sb, "", v, cfg_pcts(c));
	if (c->read_write && read && write) {
		put_percentiles(sb, "read ", read, cfg_pcts(c));
		put_percentiles(sb, "write ", write, cfg_pcts(c));
	}
	if (c->response)
		put_percentiles(sb, "response ", &t->response, cfg_pcts(c));
}

void report_layers(struct sbuf *sb, const struct layer_tally *lt)
{
	sbuf_puts(sb, "layers avg: ");
	for (int i = 0; i < LAYERS_N; i++) {
		sbuf_printf(sb, "%s%s ", i ? ", " : "", layer_name((enum layer)i));
		put_value(sb, fmt_trunc(stats_mean(&lt->layer[i])), FMT_TIME);
	}
	sbuf_printf(sb, "; %.2f pieces per request; ", layer_tally_pieces(lt));
	put_value(sb, lt->no_device, FMT_INT);
	sbuf_puts(sb, " without a device request\n");
}

void report_raw_line(struct sbuf *sb, const struct report_cfg *c, const struct tally *t)
{
	const struct stats *v = &t->valid;
	double iops = tally_iops(t);

	sbuf_printf(sb, "%" PRIu64 " %" PRIu64 " %.0f %.0f %" PRIu64 " %.0f %" PRIu64 " %.0f %" PRIu64
		    " %" PRIu64, v->count, v->sum, iops, iops * (double)c->size, stats_min(v),
		    stats_mean(v), v->max, stats_mdev(v), t->requests, t->wall);
	if (c->raw_percentiles)
		for (unsigned i = 0; i < cfg_pcts(c)->n; i++)
			sbuf_printf(sb, " %" PRIu64, stats_percentile(v, cfg_pcts(c)->p[i]));
	if (c->raw_percentiles && c->response)
		for (unsigned i = 0; i < cfg_pcts(c)->n; i++)
			sbuf_printf(sb, " %" PRIu64,
				    stats_percentile(&t->response, cfg_pcts(c)->p[i]));
	if (c->raw_target) {
		sbuf_putc(sb, ' ');
		esc_field(sb, c->target.name ? c->target.name : c->target.path);
	}
	sbuf_putc(sb, '\n');
}

/*
 * "target": {path, fstype, device, device_size}. A device has no fstype or
 * device of its own; ioping 1.3 writes the two words of "block device" /
 * "character device" into them ("fstype": "block", "device": "device"), and
 * so does this.
 */
static void put_target_obj(struct json_w *w, const struct report_target *t)
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
	json_w_open(w, "target");
	json_w_str(w, "path", t->path);
	if (t->name)
		json_w_str(w, "name", t->name);
	json_w_str(w, "fstype", fstype);
	json_w_str(w, "device", device);
	json_w_u64(w, "device_size", t->device_size);
	json_w_close(w);
	sbuf_free(&kind);
}

static void put_record_head(struct json_w *w, const struct report_cfg *c, const char *type,
		      uint64_t realtime)
{
	json_w_open(w, NULL);
	if (c->json_lines)
		json_w_str(w, "type", type);
	json_w_key(w, "timestamp");
	{
		uint64_t us = (realtime + 500) / 1000; /* rounded to µs, as ioping's %f is */

		sbuf_printf(w->sb, "%" PRIu64 ".%06" PRIu64, us / UINT64_C(1000000),
			    us % UINT64_C(1000000));
	}
	if (c->time_format) {
		struct sbuf lt = SBUF_INIT;

		put_localtime(&lt, c->time_format, realtime);
		json_w_str(w, "localtime", sbuf_str(&lt));
		sbuf_free(&lt);
	}
	put_target_obj(w, &c->target);
}

void report_json_request(struct sbuf *sb, const struct report_cfg *c, const struct sample *s,
			 enum notice n, uint64_t realtime)
{
	struct json_w w = { sb, c->json_lines, 0, true };
	char ebuf[32];
	const char *notice = account_notice_text(n);

	if (n == NOTICE_ERROR)
		notice = errno_name((int)s->result, ebuf, sizeof(ebuf));
	put_record_head(&w, c, "request", realtime);
	json_w_open(&w, "io");
	json_w_u64(&w, "request", s->request);
	json_w_str(&w, "operation", s->op == OP_WRITE ? "write" : "read");
	json_w_u64(&w, "offset", s->offset);
	json_w_u64(&w, "size", s->result > 0 ? (uint64_t)s->result : 0);
	json_w_u64(&w, "time", s->time);
	json_w_key(&w, "ignored");
	sbuf_puts(sb, n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW ? "false" : "true");
	json_w_str(&w, "notice", notice ? notice : "");
	json_w_u64(&w, "start", s->start);
	json_w_u64(&w, "lateness", s->lateness);
	json_w_u64(&w, "response", s->response);
	if (s->layers.measured) {
		const struct layer_times *l = &s->layers;

		json_w_open(&w, "layers");
		json_w_u64(&w, "submit", l->submit);
		json_w_u64(&w, "throttle", l->throttle);
		json_w_u64(&w, "queue", l->queue);
		json_w_u64(&w, "device", l->device);
		json_w_u64(&w, "pieces", l->pieces);
		json_w_key(&w, "no_device");
		sbuf_puts(sb, l->no_device ? "true" : "false");
		json_w_close(&w);
	}
	json_w_close(&w);
	json_w_close(&w);
}

/* "histogram": [[low, high, count], ...] for every non-empty bucket, ns. */
static void put_histogram(struct json_w *w, const struct stats *v)
{
	bool first = true;

	json_w_key(w, "histogram");
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

/* "percentiles": {"50": ns, ...}: JSON's own default (50 90 99 99.9 99.99) or --percentiles. */
static void put_json_pcts(struct json_w *w, const struct report_cfg *c, const struct stats *v)
{
	static const struct pcts json_default = { 5, { 50, 90, 99, 99.9, 99.99 } };
	const struct pcts *pc = c->pcts ? c->pcts : &json_default;
	char key[32];

	json_w_open(w, "percentiles");
	for (unsigned i = 0; i < pc->n; i++) {
		snprintf(key, sizeof(key), "%g", pc->p[i]);
		json_w_u64(w, key, stats_percentile(v, pc->p[i]));
	}
	json_w_close(w);
}

/* One direction's service times (-G): "read" or "write". */
static void put_json_dir(struct json_w *w, const struct report_cfg *c, const char *name,
			 const struct stats *v)
{
	json_w_open(w, name);
	json_w_u64(w, "count", v->count);
	json_w_u64(w, "min", stats_min(v));
	json_w_raw(w, "avg", "%.0f", stats_mean(v));
	json_w_u64(w, "max", v->max);
	json_w_raw(w, "mdev", "%.0f", stats_mdev(v));
	put_json_pcts(w, c, v);
	json_w_close(w);
}

void report_json_stat(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
		      uint64_t realtime, bool total)
{
	report_json_stat_rw(sb, c, t, realtime, total, NULL, NULL);
}

/* "layers": {...} (report_json_stat_layers). */
static void put_json_layers(struct json_w *w, const struct layer_tally *lt)
{
	json_w_open(w, "layers");
	for (int i = 0; i < LAYERS_N; i++) {
		const struct stats *v = &lt->layer[i];

		json_w_open(w, layer_name((enum layer)i));
		json_w_raw(w, "avg", "%.0f", stats_mean(v));
		json_w_u64(w, "p50", stats_percentile(v, 50));
		json_w_u64(w, "p99", stats_percentile(v, 99));
		json_w_close(w);
	}
	json_w_raw(w, "pieces", "%.2f", layer_tally_pieces(lt));
	json_w_u64(w, "no_device", lt->no_device);
	json_w_close(w);
}

void report_json_stat_rw(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
			 uint64_t realtime, bool total, const struct stats *read,
			 const struct stats *write)
{
	report_json_stat_layers(sb, c, t, realtime, total, read, write, NULL);
}

void report_json_stat_layers(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
			     uint64_t realtime, bool total, const struct stats *read,
			     const struct stats *write, const struct layer_tally *lt)
{
	struct json_w w = { sb, c->json_lines, 0, true };
	const struct stats *v = &t->valid;
	double iops = tally_iops(t), load_iops = tally_load_iops(t);

	put_record_head(&w, c, total ? "total" : "period", realtime);
	json_w_open(&w, "stat");
	json_w_u64(&w, "count", v->count);
	json_w_u64(&w, "size", v->count * c->size);
	json_w_u64(&w, "time", v->sum);
	json_w_raw(&w, "iops", "%f", iops);
	json_w_raw(&w, "bps", "%.0f", iops * (double)c->size);
	json_w_u64(&w, "min", stats_min(v));
	json_w_raw(&w, "avg", "%.0f", stats_mean(v));
	json_w_u64(&w, "max", v->max);
	json_w_raw(&w, "mdev", "%.0f", stats_mdev(v));
	put_json_pcts(&w, c, v);
	put_histogram(&w, v);
	/* completion - scheduled start, skipped slots included (see the man page) */
	json_w_open(&w, "response");
	json_w_u64(&w, "count", t->response.count);
	json_w_u64(&w, "min", stats_min(&t->response));
	json_w_raw(&w, "avg", "%.0f", stats_mean(&t->response));
	json_w_u64(&w, "max", t->response.max);
	put_json_pcts(&w, c, &t->response);
	json_w_close(&w);
	if (read && write) {
		put_json_dir(&w, c, "read", read);
		put_json_dir(&w, c, "write", write);
	}
	if (lt)
		put_json_layers(&w, lt);
	json_w_close(&w);
	json_w_open(&w, "load");
	json_w_u64(&w, "count", t->requests);
	json_w_u64(&w, "failed", t->failed);
	json_w_u64(&w, "skipped", t->skipped);
	json_w_u64(&w, "size", t->requests * c->size);
	json_w_u64(&w, "time", t->wall);
	json_w_raw(&w, "iops", "%f", load_iops);
	json_w_raw(&w, "bps", "%.0f", load_iops * (double)c->size);
	json_w_close(&w);
	json_w_close(&w);
}

/*
 * The probe's measured CPU wait over the verdict's window: "cpu": {"wait": ms per second,
 * "per_request": ns, "material": true/false, "cgroup_throttled": ms per second or -1, "host_some":
 * % or -1}, or "cpu": null when it was not measured.
 */
static void json_cpu(struct json_w *w, const struct verdict *v)
{
	if (!v->cpu_known) {
		json_w_key(w, "cpu");
		sbuf_puts(w->sb, "null");
		return;
	}
	json_w_open(w, "cpu");
	json_w_raw(w, "wait", "%.1f", v->cpu_ms_s);
	json_w_raw(w, "per_request", "%.0f", v->cpu_req_ns);
	json_w_key(w, "material");
	sbuf_puts(w->sb, v->cpu_material ? "true" : "false");
	json_w_raw(w, "cgroup_throttled", "%.1f", v->throttle_known ? v->throttled_ms_s : -1);
	json_w_raw(w, "host_some", "%.1f", v->host_some);
	json_w_close(w);
}

/* The "probe" and "verdict" objects of an iostat interval. */
static void json_verdict(struct json_w *w, const struct verdict *v)
{
	struct sbuf text = SBUF_INIT;

	json_w_open(w, "probe");
	json_w_raw(w, "asked", "%.2f", v->asked);
	json_w_raw(w, "achieved", "%.2f", v->achieved);
	json_w_raw(w, "window", "%.3f", v->window_s);
	json_w_raw(w, "mean", "%.0f", v->mean_ns);
	json_w_raw(w, "waited", "%.3f", v->probe_busy);
	json_w_u64(w, "requests", v->done);
	json_w_u64(w, "skipped", v->skipped);
	json_w_u64(w, "failed", v->failed);
	json_w_u64(w, "p50", v->p50_ns);
	json_w_u64(w, "p99", v->p99_ns);
	json_w_u64(w, "late_max", v->late_max_ns);
	json_cpu(w, v);
	json_w_close(w);
	json_w_open(w, "verdict");
	json_w_str(w, "state", verdict_state_text(v->state));
	json_w_str(w, "reason", verdict_reason_text(v->reason));
	json_w_str(w, "device", v->dev);
	json_w_raw(w, "device_rate", "%.2f", v->dev_rate);
	json_w_raw(w, "expected", "%.2f", v->expected);
	json_w_raw(w, "own", "%.2f", v->own);
	verdict_format(&text, v);
	json_w_str(w, "text", sbuf_str(&text));
	sbuf_free(&text);
	json_w_close(w);
}

void report_json_iostat(struct sbuf *sb, const struct report_cfg *c,
			const struct iostat_dev_row *rows, size_t n, const struct verdict *v,
			uint64_t realtime)
{
	struct json_w jw = { sb, c->json_lines, 0, true };

	put_record_head(&jw, c, "iostat", realtime);
	json_w_open(&jw, "iostat");
	json_w_u64(&jw, "interval", n ? rows[0].row->interval_ns : 0);
	json_w_key(&jw, "disk");
	sbuf_putc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sbuf_puts(sb, ", ");
		iostat_json_row(sb, rows[i].name, rows[i].row);
	}
	sbuf_putc(sb, ']');
	if (v)
		json_verdict(&jw, v);
	json_w_close(&jw);
	json_w_close(&jw);
}
