#include "config.h"

#include "promfmt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "esc.h"
#include "msg.h"

void promfmt_label_value(struct sbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), run = 0; /* bytes from run on need no escaping yet */

	for (size_t i = 0; i < len;) {
		size_t n = esc_utf8_seq(u + i, len - i);

		if (n && u[i] != '\\' && u[i] != '"' && u[i] != '\n') {
			i += n; /* clean: appended with its run */
			continue;
		}
		sbuf_append(sb, s + run, i - run);
		if (!n) {
			sbuf_puts(sb, "\xef\xbf\xbd"); /* U+FFFD */
		} else if (u[i] == '\n') {
			sbuf_puts(sb, "\\n");
		} else {
			sbuf_putc(sb, '\\');
			sbuf_putc(sb, (char)u[i]);
		}
		run = ++i;
	}
	sbuf_append(sb, s + run, len - run);
}

/* Append v in decimal (hot: every sample line has one). */
static void put_u64(struct sbuf *sb, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sbuf_append(sb, p, (size_t)(buf + sizeof(buf) - p));
}

void promfmt_seconds(struct sbuf *sb, uint64_t ns)
{
	char frac[16];
	int end;

	snprintf(frac, sizeof(frac), "%09" PRIu64, (uint64_t)(ns % 1000000000u));
	for (end = 9; end > 1 && frac[end - 1] == '0'; end--)
		;
	sbuf_printf(sb, "%" PRIu64 ".%.*s", (uint64_t)(ns / 1000000000u), end, frac);
}

const char *promfmt_content_type(enum promfmt_format f)
{
	return f == PROMFMT_PROTOBUF ? PROMFMT_PROTOBUF_TYPE :
	       f == PROMFMT_OPENMETRICS ? PROMFMT_OPENMETRICS_TYPE : PROMFMT_TEXT_TYPE;
}

const struct promfmt_fam promfmt_fams[PROMFMT_FAMS] = {
	[PROMFMT_FAM_DURATION] = {
		"ioprobe_request_duration_seconds", PROMFMT_HISTOGRAM, "seconds",
		"Latency of completed probe requests (warmup excluded, -t/-T outliers included)."
	},
	[PROMFMT_FAM_RESPONSE] = {
		"ioprobe_response_duration_seconds", PROMFMT_HISTOGRAM, "seconds",
		"Response time of probe requests from their scheduled start, skipped slots included "
		"(warmup excluded, -t/-T outliers included)."
	},
	[PROMFMT_FAM_ERRORS] = {
		"ioprobe_request_errors", PROMFMT_COUNTER, NULL,
		"Failed probe requests by errno name."
	},
	[PROMFMT_FAM_BYTES] = {
		"ioprobe_request_bytes", PROMFMT_COUNTER, "bytes",
		"Bytes transferred by completed probe requests (warmup excluded)."
	},
	[PROMFMT_FAM_LAST] = {
		"ioprobe_last_completion_timestamp_seconds", PROMFMT_GAUGE, "seconds",
		"Unix time of the last completed probe request, or of the probe's start before one."
	},
	[PROMFMT_FAM_IN_FLIGHT] = {
		"ioprobe_requests_in_flight", PROMFMT_GAUGE, NULL,
		"Probe requests issued and not yet completed."
	},
	[PROMFMT_FAM_OLDEST] = {
		"ioprobe_oldest_in_flight_seconds", PROMFMT_GAUGE, "seconds",
		"Age of the oldest probe request in flight, 0 when none is (grows while a request hangs)."
	},
	[PROMFMT_FAM_SKIPPED] = {
		"ioprobe_skipped_slots", PROMFMT_COUNTER, NULL,
		"Schedule slots missed because a request took longer than the interval."
	},
	[PROMFMT_FAM_INTERVAL] = {
		"ioprobe_interval_seconds", PROMFMT_GAUGE, "seconds",
		"Configured time between probe request starts."
	},
	[PROMFMT_FAM_SIZE] = {
		"ioprobe_request_size_bytes", PROMFMT_GAUGE, "bytes",
		"Configured size of each probe request."
	},
	[PROMFMT_FAM_START] = {
		"ioprobe_start_time_seconds", PROMFMT_GAUGE, "seconds",
		"Unix time the probe started."
	},
	[PROMFMT_FAM_LAYER] = {
		"ioprobe_layer_seconds", PROMFMT_HISTOGRAM, "seconds",
		"Time probe requests that reached the device spent in each layer, measured in the "
		"kernel (--layers): submit (system call to the block layer), throttle (cgroup I/O "
		"limit), queue (queued to issued), device (issued to completed)."
	},
	[PROMFMT_FAM_LAYER_REQUESTS] = {
		"ioprobe_layer_requests", PROMFMT_COUNTER, NULL,
		"Probe requests whose layers were measured (--layers; warmup excluded)."
	},
	[PROMFMT_FAM_LAYER_PIECES] = {
		"ioprobe_layer_pieces", PROMFMT_COUNTER, NULL,
		"Block requests the measured probe requests that reached the device became "
		"(divided by their count: pieces per request)."
	},
	[PROMFMT_FAM_LAYER_NO_DEVICE] = {
		"ioprobe_layer_no_device_requests", PROMFMT_COUNTER, NULL,
		"Measured probe requests served without a block request (the page cache)."
	},
	[PROMFMT_FAM_VERDICT] = {
		"ioprobe_verdict", PROMFMT_GAUGE, NULL,
		"The last interval's saturation verdict on the target's device (state, and reason "
		"for falls_short or none): 1 on the one series of the current state."
	},
	[PROMFMT_FAM_VERDICT_SECONDS] = {
		"ioprobe_verdict_seconds", PROMFMT_COUNTER, "seconds",
		"Time of the judged intervals in each verdict state."
	},
	[PROMFMT_FAM_PROBE_INFO] = {
		"ioprobe_probe", PROMFMT_INFO, NULL,
		"Probe description; device and disk join node_exporter's node_disk_* series."
	},
	[PROMFMT_FAM_BUILD_INFO] = {
		"ioprobe_build", PROMFMT_INFO, NULL,
		"ioprobe version that runs the probe."
	},
};

/* The families by name, as this file uses them. */
#define fam_duration (promfmt_fams[PROMFMT_FAM_DURATION])
#define fam_response (promfmt_fams[PROMFMT_FAM_RESPONSE])
#define fam_errors (promfmt_fams[PROMFMT_FAM_ERRORS])
#define fam_bytes (promfmt_fams[PROMFMT_FAM_BYTES])
#define fam_last (promfmt_fams[PROMFMT_FAM_LAST])
#define fam_in_flight (promfmt_fams[PROMFMT_FAM_IN_FLIGHT])
#define fam_oldest (promfmt_fams[PROMFMT_FAM_OLDEST])
#define fam_skipped (promfmt_fams[PROMFMT_FAM_SKIPPED])
#define fam_interval (promfmt_fams[PROMFMT_FAM_INTERVAL])
#define fam_size (promfmt_fams[PROMFMT_FAM_SIZE])
#define fam_start (promfmt_fams[PROMFMT_FAM_START])
#define fam_layer (promfmt_fams[PROMFMT_FAM_LAYER])
#define fam_probe_info (promfmt_fams[PROMFMT_FAM_PROBE_INFO])
#define fam_build_info (promfmt_fams[PROMFMT_FAM_BUILD_INFO])

static const char *const fam_type_text[] = { "counter", "gauge", "histogram", "gauge" };
static const char *const fam_type_om[] = { "counter", "gauge", "histogram", "info" };
static const char *const op_name[METRICS_OPS] = { "read", "write" };

/* The metadata lines of a family. */
static void fam_head(struct sbuf *sb, const struct promfmt_fam *f, enum promfmt_format fmt)
{
	const char *suffix = f->type == PROMFMT_COUNTER ? "_total" :
			     f->type == PROMFMT_INFO ? "_info" : "";

	if (fmt == PROMFMT_OPENMETRICS) {
		sbuf_printf(sb, "# TYPE %s %s\n", f->name, fam_type_om[f->type]);
		if (f->unit)
			sbuf_printf(sb, "# UNIT %s %s\n", f->name, f->unit);
		sbuf_printf(sb, "# HELP %s %s\n", f->name, f->help);
	} else {
		sbuf_printf(sb, "# HELP %s%s %s\n", f->name, suffix, f->help);
		sbuf_printf(sb, "# TYPE %s%s %s\n", f->name, suffix, fam_type_text[f->type]);
	}
}

/* "name{target="..."" — the caller adds further labels and closes with "} value". */
static void series_open(struct sbuf *sb, const char *name, const char *suffix,
			const struct metrics_snap *s)
{
	sbuf_puts(sb, name);
	sbuf_puts(sb, suffix);
	sbuf_puts(sb, "{target=\"");
	promfmt_label_value(sb, s->info->target);
	sbuf_putc(sb, '"');
	if (s->info->name) {
		sbuf_puts(sb, ",name=\"");
		promfmt_label_value(sb, s->info->name);
		sbuf_putc(sb, '"');
	}
}

/* series_open(), then the label lname="lvalue" (a fixed word: never escaped). */
static void series_with(struct sbuf *sb, const char *name, const char *suffix,
			const struct metrics_snap *s, const char *lname, const char *lvalue)
{
	series_open(sb, name, suffix, s);
	sbuf_printf(sb, ",%s=\"%s\"", lname, lvalue);
}

static void series_op(struct sbuf *sb, const char *name, const char *suffix,
		      const struct metrics_snap *s, int op)
{
	series_with(sb, name, suffix, s, "operation", op_name[op]);
}

/* One histogram series set (buckets, _sum, _count) of target s, with the label lname="lvalue". */
static void write_hist(struct sbuf *sb, const char *name, const struct metrics_snap *s,
		       const char *lname, const char *lvalue, const uint64_t *bucket, uint64_t sum)
{
	uint64_t cum = 0;

	for (size_t b = 0; b <= METRICS_BUCKETS; b++) {
		cum += bucket[b];
		series_with(sb, name, "_bucket", s, lname, lvalue);
		sbuf_puts(sb, ",le=\"");
		sbuf_puts(sb, b < METRICS_BUCKETS ? metrics_bucket_le[b] : "+Inf");
		sbuf_puts(sb, "\"} ");
		put_u64(sb, cum);
		sbuf_putc(sb, '\n');
	}
	series_with(sb, name, "_sum", s, lname, lvalue);
	sbuf_puts(sb, "} ");
	promfmt_seconds(sb, sum);
	sbuf_putc(sb, '\n');
	series_with(sb, name, "_count", s, lname, lvalue);
	sbuf_puts(sb, "} ");
	put_u64(sb, cum);
	sbuf_putc(sb, '\n');
}

/*
 * The latency histogram of every target, then the response-time one of the
 * targets that publish it (-Q or --response; it is never faked from latencies).
 */
static void write_duration(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
			   enum promfmt_format fmt)
{
	bool any = false;

	fam_head(sb, &fam_duration, fmt);
	for (size_t i = 0; i < n; i++) {
		for (int op = 0; op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];

			if (snap[i].info->op[op])
				write_hist(sb, fam_duration.name, &snap[i], "operation", op_name[op],
					   o->bucket, o->sum);
		}
		any |= snap[i].info->response;
	}
	if (!any)
		return;
	fam_head(sb, &fam_response, fmt);
	for (size_t i = 0; i < n; i++) {
		for (int op = 0; op < METRICS_OPS; op++) {
			const struct metrics_hist *h = &snap[i].counts.op[op].response;

			if (snap[i].info->response && snap[i].info->op[op])
				write_hist(sb, fam_response.name, &snap[i], "operation", op_name[op],
					   h->bucket, h->sum);
		}
	}
}

static void write_errors(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
			 enum promfmt_format fmt)
{
	char ebuf[32];

	fam_head(sb, &fam_errors, fmt);
	for (size_t i = 0; i < n; i++) {
		for (int op = 0; op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];

			if (!snap[i].info->op[op])
				continue;
			for (size_t e = 0; e < METRICS_ERRNOS && o->err_no[e]; e++) {
				series_op(sb, fam_errors.name, "_total", &snap[i], op);
				sbuf_printf(sb, ",errno=\"%s\"} %" PRIu64 "\n",
					    errno_name(-o->err_no[e], ebuf, sizeof(ebuf)),
					    o->errors[e]);
			}
			if (o->errors_other) {
				series_op(sb, fam_errors.name, "_total", &snap[i], op);
				sbuf_printf(sb, ",errno=\"other\"} %" PRIu64 "\n", o->errors_other);
			}
		}
	}
}

/* A per-operation family with one value per series. */
static void write_per_op(struct sbuf *sb, const struct promfmt_fam *f,
			 const struct metrics_snap *snap, size_t n, enum promfmt_format fmt)
{
	const char *suffix = f->type == PROMFMT_COUNTER ? "_total" : "";

	fam_head(sb, f, fmt);
	for (size_t i = 0; i < n; i++) {
		for (int op = 0; op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];

			if (!snap[i].info->op[op])
				continue;
			series_op(sb, f->name, suffix, &snap[i], op);
			sbuf_puts(sb, "} ");
			if (f == &fam_bytes)
				put_u64(sb, o->bytes);
			else
				promfmt_seconds(sb, o->last_real ? o->last_real :
						snap[i].info->start_real);
			sbuf_putc(sb, '\n');
		}
	}
}

enum tgt_value { TV_IN_FLIGHT, TV_SKIPPED, TV_OLDEST, TV_INTERVAL, TV_SIZE, TV_START };

/* A per-target family with one value per series. */
static void write_per_target(struct sbuf *sb, const struct promfmt_fam *f, enum tgt_value v,
			     const struct metrics_snap *snap, size_t n, enum promfmt_format fmt)
{
	fam_head(sb, f, fmt);
	for (size_t i = 0; i < n; i++) {
		const struct metrics_snap *s = &snap[i];

		series_open(sb, f->name, f->type == PROMFMT_COUNTER ? "_total" : "", s);
		sbuf_puts(sb, "} ");
		switch (v) {
		case TV_IN_FLIGHT: sbuf_printf(sb, "%u", s->in_flight); break;
		case TV_SKIPPED: put_u64(sb, s->counts.skipped); break;
		case TV_OLDEST: promfmt_seconds(sb, s->oldest_in_flight); break;
		case TV_INTERVAL: promfmt_seconds(sb, s->info->interval); break;
		case TV_SIZE: sbuf_printf(sb, "%" PRIu64, s->info->size); break;
		case TV_START: promfmt_seconds(sb, s->info->start_real); break;
		}
		sbuf_putc(sb, '\n');
	}
}

/*
 * --layers: each measuring target's time per layer (a histogram with a layer label), then its
 * measured requests, their block requests (pieces) and those without one. Nothing when no
 * target measures its layers.
 */
static void write_layers(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
			 enum promfmt_format fmt)
{
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= snap[i].info->layers;
	if (!any)
		return;
	fam_head(sb, &fam_layer, fmt);
	for (size_t i = 0; i < n; i++)
		for (int l = 0; snap[i].info->layers && l < LAYERS_N; l++)
			write_hist(sb, fam_layer.name, &snap[i], "layer", layer_name((enum layer)l),
				   snap[i].counts.layers.layer[l].bucket,
				   snap[i].counts.layers.layer[l].sum);
	for (int id = PROMFMT_FAM_LAYER_REQUESTS; id <= PROMFMT_FAM_LAYER_NO_DEVICE; id++) {
		fam_head(sb, &promfmt_fams[id], fmt);
		for (size_t i = 0; i < n; i++) {
			const struct metrics_layers *ml = &snap[i].counts.layers;

			if (!snap[i].info->layers)
				continue;
			series_open(sb, promfmt_fams[id].name, "_total", &snap[i]);
			sbuf_puts(sb, "} ");
			put_u64(sb, id == PROMFMT_FAM_LAYER_REQUESTS ? ml->requests :
				    id == PROMFMT_FAM_LAYER_PIECES ? ml->pieces : ml->no_device);
			sbuf_putc(sb, '\n');
		}
	}
}

static void label(struct sbuf *sb, const char *name, const char *value)
{
	sbuf_printf(sb, ",%s=\"", name);
	promfmt_label_value(sb, value ? value : "");
	sbuf_putc(sb, '"');
}

/*
 * The judged targets' verdicts: the current one (after the first judged interval) with its
 * device, state and reason labels (the family only once one has it), then the seconds in
 * each state (every state, 0 included). Nothing when no target is judged.
 */
static void write_verdict(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
			  enum promfmt_format fmt)
{
	const struct promfmt_fam *fv = &promfmt_fams[PROMFMT_FAM_VERDICT];
	const struct promfmt_fam *fs = &promfmt_fams[PROMFMT_FAM_VERDICT_SECONDS];
	bool any = false, current = false;

	for (size_t i = 0; i < n; i++) {
		any |= snap[i].info->verdict;
		current |= snap[i].info->verdict && snap[i].counts.verdict.judged;
	}
	if (!any)
		return;
	if (current) /* a family without series is left out, as the protobuf one must be */
		fam_head(sb, fv, fmt);
	for (size_t i = 0; i < n; i++) {
		const struct metrics_verdict *v = &snap[i].counts.verdict;

		if (!snap[i].info->verdict || !v->judged)
			continue;
		series_open(sb, fv->name, "", &snap[i]);
		label(sb, "device", snap[i].info->device);
		label(sb, "state", verdict_state_key(v->state));
		label(sb, "reason", verdict_reason_key(v->reason));
		sbuf_puts(sb, "} 1\n");
	}
	fam_head(sb, fs, fmt);
	for (size_t i = 0; i < n; i++) {
		for (int st = 0; snap[i].info->verdict && st < VERDICT_STATES; st++) {
			series_with(sb, fs->name, "_total", &snap[i], "state",
				    verdict_state_key((enum verdict_state)st));
			sbuf_puts(sb, "} ");
			promfmt_seconds(sb, snap[i].counts.verdict.state_ns[st]);
			sbuf_putc(sb, '\n');
		}
	}
}

static void write_info(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
		       const char *version, enum promfmt_format fmt)
{
	fam_head(sb, &fam_probe_info, fmt);
	for (size_t i = 0; i < n; i++) {
		const struct metrics_info *in = snap[i].info;

		series_open(sb, fam_probe_info.name, "_info", &snap[i]);
		label(sb, "device", in->device);
		label(sb, "disk", in->disk);
		label(sb, "fstype", in->fstype);
		label(sb, "engine", in->engine);
		label(sb, "mode", in->mode);
		sbuf_puts(sb, "} 1\n");
	}
	/* one series: the version is the process's, not a target's */
	fam_head(sb, &fam_build_info, fmt);
	sbuf_printf(sb, "%s_info{version=\"", fam_build_info.name);
	promfmt_label_value(sb, version ? version : "");
	sbuf_puts(sb, "\"} 1\n");
	(void)n;
}

int promfmt_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n, const char *version,
		  enum promfmt_format f)
{
	if (f == PROMFMT_PROTOBUF)
		return -EINVAL;
	write_duration(sb, snap, n, f);
	write_errors(sb, snap, n, f);
	write_per_op(sb, &fam_bytes, snap, n, f);
	write_per_op(sb, &fam_last, snap, n, f);
	write_per_target(sb, &fam_in_flight, TV_IN_FLIGHT, snap, n, f);
	write_per_target(sb, &fam_oldest, TV_OLDEST, snap, n, f);
	write_per_target(sb, &fam_skipped, TV_SKIPPED, snap, n, f);
	write_per_target(sb, &fam_interval, TV_INTERVAL, snap, n, f);
	write_per_target(sb, &fam_size, TV_SIZE, snap, n, f);
	write_per_target(sb, &fam_start, TV_START, snap, n, f);
	write_layers(sb, snap, n, f);
	write_verdict(sb, snap, n, f);
	write_info(sb, snap, n, version, f);
	if (f == PROMFMT_OPENMETRICS)
		sbuf_puts(sb, "# EOF\n");
	return sb->error;
}
