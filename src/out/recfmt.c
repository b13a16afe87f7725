#include "config.h"

#include "recfmt.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "common.h"
#include "json.h"
#include "msg.h"

#define ROW(k, f) { k, offsetof(struct iostat_row, f) }
const struct rec_row_key rec_row_keys[] = {
	ROW("r/s", r_s), ROW("rkB/s", rkb_s), ROW("rrqm/s", rrqm_s), ROW("rrqm", rrqm_pct),
	ROW("r_await", r_await), ROW("rareq-sz", rareq_sz),
	ROW("w/s", w_s), ROW("wkB/s", wkb_s), ROW("wrqm/s", wrqm_s), ROW("wrqm", wrqm_pct),
	ROW("w_await", w_await), ROW("wareq-sz", wareq_sz),
	ROW("d/s", d_s), ROW("dkB/s", dkb_s), ROW("drqm/s", drqm_s), ROW("drqm", drqm_pct),
	ROW("d_await", d_await), ROW("dareq-sz", dareq_sz),
	ROW("f/s", f_s), ROW("f_await", f_await), ROW("aqu-sz", aqu_sz), ROW("util", util),
	ROW("in_flight", in_flight), ROW("avgrq-sz", avgrq_sz), ROW("tps", tps),
	ROW("await", await),
};
#undef ROW
const size_t rec_row_nkeys = ARRAY_SIZE(rec_row_keys);

void rec_errors_add_n(struct rec_errors *e, int64_t neg, uint64_t n)
{
	int err = neg < 0 && neg > -100000 ? (int)-neg : 0;

	for (size_t k = 0; err && k < REC_ERRNOS; k++) {
		if (e->err_no[k] == err || !e->err_no[k]) {
			e->err_no[k] = err;
			e->count[k] += n;
			return;
		}
	}
	e->other += n;
}

void rec_errors_add(struct rec_errors *e, int64_t neg)
{
	rec_errors_add_n(e, neg, 1);
}

void rec_errors_merge(struct rec_errors *dst, const struct rec_errors *src)
{
	for (size_t k = 0; k < REC_ERRNOS && src->err_no[k]; k++)
		rec_errors_add_n(dst, -(int64_t)src->err_no[k], src->count[k]);
	dst->other += src->other;
}

static void put_key(struct sbuf *sb, const char *key)
{
	sbuf_putc(sb, ',');
	json_append_string(sb, key);
	sbuf_putc(sb, ':');
}

static void put_u64(struct sbuf *sb, const char *key, uint64_t v)
{
	put_key(sb, key);
	sbuf_printf(sb, "%" PRIu64, v);
}

static void put_i64(struct sbuf *sb, const char *key, int64_t v)
{
	put_key(sb, key);
	sbuf_printf(sb, "%" PRId64, v);
}

/* A double that reads back to the same bits ("%.17g"); JSON has no NaN or infinity: 0. */
static void put_dbl(struct sbuf *sb, const char *key, double v)
{
	put_key(sb, key);
	if (v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308)
		v = 0;
	sbuf_printf(sb, "%.17g", v);
}

static void put_str(struct sbuf *sb, const char *key, const char *v)
{
	put_key(sb, key);
	json_append_string(sb, v ? v : "");
}

static void put_bool(struct sbuf *sb, const char *key, bool v)
{
	put_key(sb, key);
	sbuf_puts(sb, v ? "true" : "false");
}

/* {"type":"TYPE" (the rest of the object follows with leading commas). */
static void put_open(struct sbuf *sb, const char *type)
{
	sbuf_puts(sb, "{\"type\":");
	json_append_string(sb, type);
}

static void put_close(struct sbuf *sb)
{
	sbuf_puts(sb, "}\n");
}

/* "key":{"count":..,"sum":..,"min":..,"max":..,"mean":..,"m2":..,"hist":[[low,high,n],...]} */
static void put_stats(struct sbuf *sb, const char *key, const struct stats *s)
{
	bool first = true;

	put_key(sb, key);
	sbuf_printf(sb, "{\"count\":%" PRIu64, s->count);
	put_u64(sb, "sum", s->sum);
	put_u64(sb, "min", s->min);
	put_u64(sb, "max", s->max);
	put_dbl(sb, "mean", s->mean);
	put_dbl(sb, "m2", s->m2);
	put_key(sb, "hist");
	sbuf_putc(sb, '[');
	for (size_t i = 0; s->count && i < STATS_BUCKETS; i++) {
		if (!s->hist[i])
			continue;
		sbuf_printf(sb, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    stats_bucket_low(i), stats_bucket_high(i), s->hist[i]);
		first = false;
	}
	sbuf_puts(sb, "]}");
}

/* "key":{"50":..,"90":..,"99":..,"99.9":..} (ns; informational: the histogram holds them) */
static void put_pcts(struct sbuf *sb, const char *key, const struct stats *s)
{
	static const char *const names[TALLY_PCTS] = { "50", "90", "99", "99.9" };

	put_key(sb, key);
	sbuf_putc(sb, '{');
	for (size_t i = 0; i < TALLY_PCTS; i++)
		sbuf_printf(sb, "%s\"%s\":%" PRIu64, i ? "," : "", names[i],
			    stats_percentile(s, tally_pcts[i]));
	sbuf_putc(sb, '}');
}

static void put_tally(struct sbuf *sb, const struct tally *t)
{
	put_u64(sb, "requests", t->requests);
	put_u64(sb, "failed", t->failed);
	put_u64(sb, "too_fast", t->too_fast);
	put_u64(sb, "too_slow", t->too_slow);
	put_u64(sb, "skipped", t->skipped);
	put_u64(sb, "wall", t->wall);
	put_stats(sb, "valid", &t->valid);
	put_stats(sb, "response", &t->response);
	put_pcts(sb, "percentiles", &t->valid);
	put_pcts(sb, "response_percentiles", &t->response);
}

void recfmt_header(struct sbuf *sb, const struct rec_header *h)
{
	put_open(sb, "header");
	put_str(sb, "format", REC_FORMAT);
	put_u64(sb, "version", REC_VERSION);
	put_str(sb, "ioprobe", h->ioprobe);
	put_str(sb, "host", h->host);
	put_str(sb, "kernel", h->kernel);
	put_u64(sb, "real", h->real);
	put_key(sb, "argv");
	sbuf_putc(sb, '[');
	for (size_t i = 0; i < h->argc; i++) {
		if (i)
			sbuf_putc(sb, ',');
		json_append_string(sb, h->argv[i]);
	}
	sbuf_putc(sb, ']');
	put_u64(sb, "size", h->size);
	put_str(sb, "mode", h->read_write ? "read-write" : h->write ? "write" : "read");
	put_bool(sb, "cached", h->cached);
	put_bool(sb, "direct", h->direct);
	put_bool(sb, "sync", h->sync);
	put_bool(sb, "dsync", h->dsync);
	put_u64(sb, "burst", h->burst);
	put_dbl(sb, "rate_limit", h->rate_limit);
	put_u64(sb, "speed_limit", h->speed_limit);
	put_str(sb, "engine", h->engine);
	put_u64(sb, "depth", h->depth);
	put_u64(sb, "interval", h->interval);
	put_dbl(sb, "asked", h->asked);
	put_bool(sb, "response", h->response);
	put_bool(sb, "iostat", h->iostat);
	put_bool(sb, "requests", h->requests);
	put_u64(sb, "period", h->period);
	put_u64(sb, "print_count", h->print_count);
	put_u64(sb, "print_interval", h->print_interval);
	put_key(sb, "targets");
	sbuf_putc(sb, '[');
	for (size_t i = 0; i < h->ntargets; i++) {
		const struct rec_target *t = &h->target[i];

		sbuf_puts(sb, i ? ",{\"path\":" : "{\"path\":");
		json_append_string(sb, t->path ? t->path : "");
		put_str(sb, "name", t->name ? t->name : "");
		put_str(sb, "fstype", t->fstype);
		put_str(sb, "device", t->device);
		put_u64(sb, "device_size", t->device_size);
		put_str(sb, "metrics_device", t->mdevice);
		put_str(sb, "metrics_disk", t->mdisk);
		put_key(sb, "stack");
		sbuf_putc(sb, '[');
		for (size_t k = 0; k < t->ndev; k++) {
			sbuf_puts(sb, k ? ",{\"name\":" : "{\"name\":");
			json_append_string(sb, t->dev[k].name);
			put_u64(sb, "max_sectors_kb", t->dev[k].max_sectors_kb);
			put_u64(sb, "max_segments", t->dev[k].max_segments);
			put_i64(sb, "write_cache", t->dev[k].write_cache);
			sbuf_putc(sb, '}');
		}
		sbuf_puts(sb, "]}");
	}
	sbuf_putc(sb, ']');
	put_close(sb);
}

/* "errors":{"EIO":3,...,"other":n} (e NULL: empty). */
static void put_errors(struct sbuf *sb, const struct rec_errors *e)
{
	char buf[32];

	put_key(sb, "errors");
	sbuf_putc(sb, '{');
	for (size_t k = 0; e && k < REC_ERRNOS && e->err_no[k]; k++) {
		if (k)
			sbuf_putc(sb, ',');
		json_append_string(sb, errno_name(-e->err_no[k], buf, sizeof(buf)));
		sbuf_printf(sb, ":%" PRIu64, e->count[k]);
	}
	if (e && e->other)
		sbuf_printf(sb, "%s\"other\":%" PRIu64, e->err_no[0] ? "," : "", e->other);
	sbuf_putc(sb, '}');
}

void recfmt_period(struct sbuf *sb, size_t i, uint64_t seq, uint64_t mono, uint64_t real,
		   const struct tally *t, const struct rec_errors *e)
{
	put_open(sb, "period");
	put_u64(sb, "target", i);
	put_u64(sb, "seq", seq);
	put_u64(sb, "mono", mono);
	put_u64(sb, "real", real);
	put_tally(sb, t);
	put_errors(sb, e);
	put_close(sb);
}

static const char *const notice_names[] = {
	[NOTICE_NONE] = "", [NOTICE_WARMUP] = "warmup", [NOTICE_TOO_FAST] = "too fast",
	[NOTICE_TOO_SLOW] = "too slow", [NOTICE_FAST] = "fast", [NOTICE_SLOW] = "slow",
	[NOTICE_ERROR] = "error", [NOTICE_EMPTY] = "empty",
};

void recfmt_request(struct sbuf *sb, size_t i, uint64_t real, const struct sample *s,
		    enum notice n)
{
	put_open(sb, "request");
	put_u64(sb, "target", i);
	put_u64(sb, "real", real);
	put_u64(sb, "request", s->request);
	put_str(sb, "operation", s->op == OP_WRITE ? "write" : "read");
	put_u64(sb, "offset", s->offset);
	put_u64(sb, "size", s->size);
	put_i64(sb, "result", s->result);
	put_u64(sb, "time", s->time);
	put_u64(sb, "start", s->start);
	put_u64(sb, "lateness", s->lateness);
	put_u64(sb, "skipped", s->skipped);
	put_u64(sb, "response", s->response);
	put_str(sb, "notice", (size_t)n < ARRAY_SIZE(notice_names) ? notice_names[n] : "");
	put_close(sb);
}

void recfmt_skipped(struct sbuf *sb, size_t i, uint64_t hi, uint64_t step, uint64_t n)
{
	put_open(sb, "skipped");
	put_u64(sb, "target", i);
	put_u64(sb, "hi", hi);
	put_u64(sb, "step", step);
	put_u64(sb, "n", n);
	put_close(sb);
}

static void put_rows(struct sbuf *sb, const char *key, const struct iostat_dev_row *rows,
		     size_t n)
{
	put_key(sb, key);
	sbuf_putc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		sbuf_puts(sb, i ? ",{\"name\":" : "{\"name\":");
		json_append_string(sb, rows[i].name ? rows[i].name : "");
		put_u64(sb, "interval", rows[i].row->interval_ns);
		put_bool(sb, "reset", rows[i].row->reset);
		for (size_t k = 0; k < rec_row_nkeys; k++)
			put_dbl(sb, rec_row_keys[k].key,
				*(const double *)(const void *)((const char *)rows[i].row +
								rec_row_keys[k].offset));
		sbuf_putc(sb, '}');
	}
	sbuf_putc(sb, ']');
}

void recfmt_iostat(struct sbuf *sb, uint64_t seq, uint64_t real, const struct iostat_dev_row *rows,
		   size_t n)
{
	put_open(sb, "iostat");
	put_u64(sb, "seq", seq);
	put_u64(sb, "real", real);
	put_rows(sb, "devices", rows, n);
	put_close(sb);
}

void recfmt_verdict(struct sbuf *sb, uint64_t seq, size_t i, const struct iostat_dev_row *own,
		    size_t nown, const struct verdict_probe *p, const struct verdict *v)
{
	struct sbuf text = SBUF_INIT;

	put_open(sb, "verdict");
	put_u64(sb, "seq", seq);
	put_u64(sb, "target", i);
	if (own)
		put_rows(sb, "devices", own, nown);
	put_key(sb, "probe");
	sbuf_printf(sb, "{\"period\":%" PRIu64, p->period_ns);
	put_u64(sb, "done", p->done);
	put_u64(sb, "skipped", p->skipped);
	put_u64(sb, "p50", p->p50_ns);
	put_u64(sb, "p99", p->p99_ns);
	put_u64(sb, "sum", p->sum_ns);
	put_u64(sb, "max", p->max_ns);
	put_u64(sb, "inflight", p->inflight_ns);
	/* the probe's measured CPU wait (version 1 readers skip unknown keys; absent: unknown) */
	put_u64(sb, "late_max", p->late_max_ns);
	if (p->failed) /* absent: none failed (and older files) */
		put_u64(sb, "failed", p->failed);
	if (p->cpu_known)
		put_u64(sb, "cpu_wait", p->cpu_wait_ns);
	if (p->throttle_known)
		put_u64(sb, "cpu_throttled", p->throttled_ns);
	if (p->host_some >= 0)
		sbuf_printf(sb, ",\"host_cpu_some\":%.6f", p->host_some);
	if (p->finished_known) /* the probe's own count at the device's reads (absent: none) */
		put_u64(sb, "finished", p->finished);
	if (p->layers_tried)
		sbuf_puts(sb, ",\"layers_tried\":true");
	if (p->layers_known) /* --layers' means over the interval (absent: not measured) */
		sbuf_printf(sb, ",\"layers\":{\"requests\":%" PRIu64 ",\"no_device\":%" PRIu64
			    ",\"submit\":%.1f,\"throttle\":%.1f,\"queue\":%.1f,\"device\":%.1f,"
			    "\"pieces\":%.4f}", p->layers_requests, p->layers_no_device,
			    p->layer_ns[0], p->layer_ns[1], p->layer_ns[2], p->layer_ns[3],
			    p->layer_pieces);
	sbuf_putc(sb, '}');
	put_str(sb, "state", verdict_state_text(v->state));
	put_str(sb, "reason", verdict_reason_text(v->reason));
	verdict_format(&text, v);
	put_str(sb, "text", sbuf_str(&text));
	sbuf_free(&text);
	put_close(sb);
}

void recfmt_text(struct sbuf *sb, const char *type, long i, uint64_t real, int err,
		 const char *text)
{
	char buf[32];

	put_open(sb, type);
	put_i64(sb, "target", i);
	put_u64(sb, "real", real);
	put_str(sb, "errno", err ? errno_name(-err, buf, sizeof(buf)) : "");
	put_str(sb, "text", text);
	put_close(sb);
}

void recfmt_step(struct sbuf *sb, size_t i, uint64_t k, uint64_t real, bool grid,
		 const struct sweep_row *r, const char *line)
{
	put_open(sb, "step");
	put_u64(sb, "target", i);
	put_u64(sb, "step", k);
	put_u64(sb, "real", real);
	put_bool(sb, "grid", grid);
	put_u64(sb, "size", r->size);
	put_u64(sb, "depth", r->depth);
	put_dbl(sb, "asked", r->asked);
	put_dbl(sb, "achieved", r->achieved);
	put_dbl(sb, "expected", r->expected);
	put_dbl(sb, "dev_rate", r->dev_rate);
	put_dbl(sb, "areq_kb", r->areq_kb);
	put_dbl(sb, "aqu_sz", r->aqu);
	put_dbl(sb, "await_ms", r->await_ms);
	put_dbl(sb, "util", r->util);
	put_dbl(sb, "dev_mbs", r->dev_mbs);
	put_u64(sb, "p50", r->p50_ns);
	put_u64(sb, "p99", r->p99_ns);
	put_u64(sb, "response_p50", r->rp50_ns);
	put_u64(sb, "response_p99", r->rp99_ns);
	put_u64(sb, "skipped", r->skipped);
	put_bool(sb, "kept_up", r->kept_up);
	put_str(sb, "verdict", r->verdict);
	put_str(sb, "line", line);
	put_close(sb);
}

void recfmt_knee(struct sbuf *sb, size_t i, uint64_t real, bool grid, const char *text,
		 long knee, long best, long limit)
{
	put_open(sb, "knee");
	put_u64(sb, "target", i);
	put_u64(sb, "real", real);
	put_bool(sb, "grid", grid);
	put_str(sb, "text", text);
	put_i64(sb, "knee", knee);
	put_i64(sb, "best", best);
	put_i64(sb, "limit", limit);
	put_close(sb);
}

/* "layers":{"requests":N,"pieces":N,"no_device":N,"submit":{stats},...}: a run's --layers. */
static void put_layers(struct sbuf *sb, const struct layer_tally *lt)
{
	put_key(sb, "layers");
	sbuf_printf(sb, "{\"requests\":%" PRIu64, lt->requests);
	put_u64(sb, "pieces", lt->pieces);
	put_u64(sb, "no_device", lt->no_device);
	for (int l = 0; l < LAYERS_N; l++)
		put_stats(sb, layer_name((enum layer)l), &lt->layer[l]);
	sbuf_putc(sb, '}');
}

void recfmt_summary(struct sbuf *sb, size_t i, uint64_t real, int ret, const char *msg,
		    const struct tally *total, const struct rec_errors *e, const struct stats *read,
		    const struct stats *write, const struct layer_tally *lt)
{
	char buf[32];

	put_open(sb, "summary");
	put_u64(sb, "target", i);
	put_u64(sb, "real", real);
	put_str(sb, "errno", ret ? errno_name(ret, buf, sizeof(buf)) : "");
	put_i64(sb, "ret", ret);
	put_str(sb, "message", msg);
	put_tally(sb, total);
	put_errors(sb, e);
	if (read && write) {
		put_stats(sb, "read", read);
		put_stats(sb, "write", write);
	}
	if (lt)
		put_layers(sb, lt);
	put_close(sb);
}

void recfmt_end(struct sbuf *sb, uint64_t real, int code)
{
	put_open(sb, "end");
	put_u64(sb, "real", real);
	put_i64(sb, "exit", code);
	put_close(sb);
}
