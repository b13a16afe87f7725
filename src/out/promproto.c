#include "config.h"

#include "promproto.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "msg.h"
#include "promfmt.h"

size_t promproto_spans(const struct metrics_native *h, int32_t *offset, uint32_t *length,
		       int64_t *delta, size_t *ndelta)
{
	size_t spans = 0, nd = 0;
	int64_t prev = 0;
	int end = 0; /* bucket index just past the last span (valid once spans > 0) */

	for (int i = 0; i < METRICS_NATIVE_BUCKETS; i++) {
		int gap;

		if (!h->bucket[i])
			continue;
		gap = i - end;
		if (!spans || gap > 2) {
			offset[spans] = spans ? gap : METRICS_NATIVE_MIN + i;
			length[spans++] = 0;
			gap = 0;
		}
		for (int k = 0; k < gap; k++) { /* up to two empty buckets stay in the span */
			delta[nd++] = -prev;
			prev = 0;
		}
		length[spans - 1] += (uint32_t)gap + 1;
		delta[nd++] = (int64_t)h->bucket[i] - prev;
		prev = (int64_t)h->bucket[i];
		end = i + 1;
	}
	*ndelta = nd;
	return spans;
}

bool promproto_available(void)
{
	return HAVE_PROTOBUF;
}

#if !HAVE_PROTOBUF

int promproto_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
		    const char *version)
{
	(void)sb;
	(void)snap;
	(void)n;
	(void)version;
	return -ENOTSUP;
}

#else

#include <protobuf-c/protobuf-c.h>

#include "client_model.pb-c.h"

typedef Io__Prometheus__Client__MetricFamily pb_family;
typedef Io__Prometheus__Client__Metric pb_metric;
typedef Io__Prometheus__Client__LabelPair pb_label;
typedef Io__Prometheus__Client__Histogram pb_histogram;
typedef Io__Prometheus__Client__Bucket pb_bucket;
typedef Io__Prometheus__Client__BucketSpan pb_span;

#define PROMPROTO_LABELS 7 /* the most a series has: ioprobe_probe_info's, with a name */

static const char *const op_name[METRICS_OPS] = { "read", "write" };

/* Allocations of one family, released once it is packed. */
struct arena_blk {
	struct arena_blk *next;
	max_align_t mem[];
};

struct arena {
	struct arena_blk *head;
};

/* size zeroed bytes that live until arena_free(a), or NULL. */
static void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_blk *b = calloc(1, sizeof(*b) + size);

	if (!b)
		return NULL;
	b->next = a->head;
	a->head = b;
	return b->mem;
}

static void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_blk *b = a->head;

		a->head = b->next;
		free(b);
	}
}

/* protobuf-c's output appended to an sbuf (its error is sticky there). */
struct sbuf_out {
	ProtobufCBuffer base;
	struct sbuf *sb;
};

static void sbuf_out_append(ProtobufCBuffer *buf, size_t len, const uint8_t *data)
{
	sbuf_append(((struct sbuf_out *)buf)->sb, (const char *)data, len);
}

/* Base-128 varint: the length before each delimited message. */
static void put_varint(struct sbuf *sb, uint64_t v)
{
	char b[10];
	size_t n = 0;

	do {
		b[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	sbuf_append(sb, b, n);
}

/*
 * ns as seconds: the double a text parser reads from promfmt_seconds()'s
 * exact decimal (correctly rounded either way; ioprobe's LC_NUMERIC is "C").
 */
static double seconds(uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	return strtod(buf, NULL);
}

/* s, or a copy with each byte that is not UTF-8 made U+FFFD (promfmt_label_value's rule). */
static const char *utf8(struct arena *a, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, o = 0;
	char *out;

	while (i < len && esc_utf8_seq(u + i, len - i))
		i += esc_utf8_seq(u + i, len - i);
	if (i == len)
		return s;
	if (!(out = arena_alloc(a, 3 * len + 1)))
		return NULL;
	for (i = 0; i < len;) {
		size_t n = esc_utf8_seq(u + i, len - i);

		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	return out;
}

/* One family being built: its message and the allocations it points to. */
struct fam {
	struct arena a;
	pb_family f;
	size_t cap;          /* metric slots */
	char name[64];
	enum promfmt_type type;
};

/* Start family id with room for cap series. Returns 0 or -ENOMEM. */
static int fam_begin(struct fam *b, enum promfmt_fam_id id, size_t cap)
{
	const struct promfmt_fam *pf = &promfmt_fams[id];

	memset(b, 0, sizeof(*b));
	io__prometheus__client__metric_family__init(&b->f);
	/* the text 0.0.4 names: counters end in _total, info families in _info */
	snprintf(b->name, sizeof(b->name), "%s%s", pf->name, pf->type == PROMFMT_COUNTER ? "_total" :
		 pf->type == PROMFMT_INFO ? "_info" : "");
	b->type = pf->type;
	b->f.name = b->name;
	b->f.help = (char *)pf->help;
	b->f.has_type = true;
	b->f.type = pf->type == PROMFMT_COUNTER ? IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER :
		    pf->type == PROMFMT_HISTOGRAM ? IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM :
		    IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE;
	b->cap = cap;
	b->f.metric = arena_alloc(&b->a, (cap ? cap : 1) * sizeof(*b->f.metric));
	return b->f.metric ? 0 : -ENOMEM;
}

/*
 * Pack the family after its length (a family without series is left out: a
 * parser skips it) and release it. Returns 0 or -ENOMEM (err, when given).
 */
static int fam_end(struct fam *b, struct sbuf *sb, int err)
{
	if (!err && b->f.n_metric) {
		struct sbuf_out out = { .base = { .append = sbuf_out_append }, .sb = sb };

		put_varint(sb, io__prometheus__client__metric_family__get_packed_size(&b->f));
		io__prometheus__client__metric_family__pack_to_buffer(&b->f, &out.base);
		err = sb->error;
	}
	arena_free(&b->a);
	return err;
}

static int label(struct fam *b, pb_metric *m, const char *name, const char *value)
{
	pb_label *l = arena_alloc(&b->a, sizeof(*l));
	const char *v = utf8(&b->a, value ? value : "");

	if (!l || !v || m->n_label >= PROMPROTO_LABELS)
		return -ENOMEM;
	io__prometheus__client__label_pair__init(l);
	l->name = (char *)name;
	l->value = (char *)v;
	m->label[m->n_label++] = l;
	return 0;
}

/* A new series of target s (NULL: none), operation op (-1: none). NULL when out of memory. */
static pb_metric *series(struct fam *b, const struct metrics_snap *s, int op)
{
	pb_metric *m;

	if (b->f.n_metric >= b->cap || !(m = arena_alloc(&b->a, sizeof(*m))))
		return NULL;
	io__prometheus__client__metric__init(m);
	if (!(m->label = arena_alloc(&b->a, PROMPROTO_LABELS * sizeof(*m->label))))
		return NULL;
	b->f.metric[b->f.n_metric++] = m;
	if (s && label(b, m, "target", s->info->target))
		return NULL;
	if (s && s->info->name && label(b, m, "name", s->info->name))
		return NULL;
	if (op >= 0 && label(b, m, "operation", op_name[op]))
		return NULL;
	return m;
}

/* The value of a counter or gauge series. Returns 0 or -ENOMEM. */
static int value(struct fam *b, pb_metric *m, double v)
{
	if (!m)
		return -ENOMEM;
	if (b->type == PROMFMT_COUNTER) {
		Io__Prometheus__Client__Counter *c = arena_alloc(&b->a, sizeof(*c));

		if (!c)
			return -ENOMEM;
		io__prometheus__client__counter__init(c);
		c->has_value = true;
		c->value = v;
		m->counter = c;
	} else {
		Io__Prometheus__Client__Gauge *g = arena_alloc(&b->a, sizeof(*g));

		if (!g)
			return -ENOMEM;
		io__prometheus__client__gauge__init(g);
		g->has_value = true;
		g->value = v;
		m->gauge = g;
	}
	return 0;
}

/* Scratch arrays for the spans and deltas of one native histogram. */
struct work {
	int32_t offset[METRICS_NATIVE_BUCKETS];
	uint32_t length[METRICS_NATIVE_BUCKETS];
	int64_t delta[METRICS_NATIVE_BUCKETS];
};

/* The native part of h from nat. Returns 0 or -ENOMEM. */
static int native(struct fam *b, pb_histogram *h, const struct metrics_native *nat,
		  struct work *w)
{
	size_t nd, ns = promproto_spans(nat, w->offset, w->length, w->delta, &nd);
	pb_span *sp = arena_alloc(&b->a, ns * sizeof(*sp) + 1);

	h->has_schema = h->has_zero_threshold = h->has_zero_count = true;
	h->schema = METRICS_NATIVE_SCHEMA;
	h->zero_threshold = ldexp(1.0, METRICS_NATIVE_ZERO_LOG2);
	h->zero_count = nat->zero;
	h->positive_span = arena_alloc(&b->a, ns * sizeof(*h->positive_span) + 1);
	h->positive_delta = arena_alloc(&b->a, nd * sizeof(*h->positive_delta) + 1);
	if (!sp || !h->positive_span || !h->positive_delta)
		return -ENOMEM;
	for (size_t i = 0; i < ns; i++) {
		io__prometheus__client__bucket_span__init(&sp[i]);
		sp[i].has_offset = sp[i].has_length = true;
		sp[i].offset = w->offset[i];
		sp[i].length = w->length[i];
		h->positive_span[i] = &sp[i];
	}
	h->n_positive_span = ns;
	memcpy(h->positive_delta, w->delta, nd * sizeof(*w->delta));
	h->n_positive_delta = nd;
	return 0;
}

/*
 * A histogram series: the classic buckets (cumulative, as text 0.0.4's le
 * series; +Inf is the count), the sum, and the native part when nat is given.
 */
static int hist(struct fam *b, pb_metric *m, const uint64_t *bucket, uint64_t sum,
		const struct metrics_native *nat, struct work *w)
{
	pb_histogram *h;
	pb_bucket *bk;
	uint64_t cum = 0;

	if (!m || !(h = arena_alloc(&b->a, sizeof(*h))) ||
	    !(bk = arena_alloc(&b->a, METRICS_BUCKETS * sizeof(*bk))))
		return -ENOMEM;
	io__prometheus__client__histogram__init(h);
	if (!(h->bucket = arena_alloc(&b->a, METRICS_BUCKETS * sizeof(*h->bucket))))
		return -ENOMEM;
	for (size_t i = 0; i < METRICS_BUCKETS; i++) {
		cum += bucket[i];
		io__prometheus__client__bucket__init(&bk[i]);
		bk[i].has_cumulative_count = bk[i].has_upper_bound = true;
		bk[i].cumulative_count = cum;
		bk[i].upper_bound = strtod(metrics_bucket_le[i], NULL); /* the le a parser reads */
		h->bucket[i] = &bk[i];
	}
	h->n_bucket = METRICS_BUCKETS;
	cum += bucket[METRICS_BUCKETS];
	h->has_sample_count = h->has_sample_sum = true;
	h->sample_count = cum;
	h->sample_sum = seconds(sum);
	m->histogram = h;
	return nat ? native(b, h, nat, w) : 0;
}

/* The latency histograms, then the response-time ones of the targets that publish them. */
static int write_duration(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
			  size_t cap, struct work *w)
{
	struct fam b;
	bool any = false;
	int err = fam_begin(&b, PROMFMT_FAM_DURATION, cap);

	for (size_t i = 0; !err && i < n; i++) {
		for (int op = 0; !err && op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];

			if (snap[i].info->op[op])
				err = hist(&b, series(&b, &snap[i], op), o->bucket, o->sum,
					   snap[i].native ? &snap[i].native->latency[op] : NULL, w);
		}
		any |= snap[i].info->response;
	}
	if ((err = fam_end(&b, sb, err)) || !any)
		return err;
	err = fam_begin(&b, PROMFMT_FAM_RESPONSE, cap);
	for (size_t i = 0; !err && i < n; i++) {
		for (int op = 0; !err && op < METRICS_OPS; op++) {
			const struct metrics_hist *h = &snap[i].counts.op[op].response;

			if (snap[i].info->response && snap[i].info->op[op])
				err = hist(&b, series(&b, &snap[i], op), h->bucket, h->sum,
					   snap[i].native ? &snap[i].native->response[op] : NULL, w);
		}
	}
	return fam_end(&b, sb, err);
}

static int write_errors(struct sbuf *sb, const struct metrics_snap *snap, size_t n, size_t cap)
{
	struct fam b;
	char ebuf[32];
	int err = fam_begin(&b, PROMFMT_FAM_ERRORS, cap);

	for (size_t i = 0; !err && i < n; i++) {
		for (int op = 0; !err && op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];
			pb_metric *m;

			if (!snap[i].info->op[op])
				continue;
			for (size_t e = 0; !err && e < METRICS_ERRNOS && o->err_no[e]; e++) {
				m = series(&b, &snap[i], op);
				err = m ? label(&b, m, "errno", errno_name(-o->err_no[e], ebuf,
									     sizeof(ebuf))) : -ENOMEM;
				err = err ? err : value(&b, m, (double)o->errors[e]);
			}
			if (!err && o->errors_other) {
				m = series(&b, &snap[i], op);
				err = m ? label(&b, m, "errno", "other") : -ENOMEM;
				err = err ? err : value(&b, m, (double)o->errors_other);
			}
		}
	}
	return fam_end(&b, sb, err);
}

/* ioprobe_request_bytes_total or ioprobe_last_completion_timestamp_seconds. */
static int write_per_op(struct sbuf *sb, enum promfmt_fam_id id, const struct metrics_snap *snap,
			size_t n, size_t cap)
{
	struct fam b;
	int err = fam_begin(&b, id, cap);

	for (size_t i = 0; !err && i < n; i++) {
		for (int op = 0; !err && op < METRICS_OPS; op++) {
			const struct metrics_op *o = &snap[i].counts.op[op];

			if (!snap[i].info->op[op])
				continue;
			err = value(&b, series(&b, &snap[i], op), id == PROMFMT_FAM_BYTES ?
				    (double)o->bytes : seconds(o->last_real ? o->last_real :
							       snap[i].info->start_real));
		}
	}
	return fam_end(&b, sb, err);
}

/* A per-target family. */
static int write_per_target(struct sbuf *sb, enum promfmt_fam_id id,
			    const struct metrics_snap *snap, size_t n, size_t cap)
{
	struct fam b;
	int err = fam_begin(&b, id, cap);

	for (size_t i = 0; !err && i < n; i++) {
		const struct metrics_snap *s = &snap[i];
		double v = 0;

		switch (id) {
		case PROMFMT_FAM_IN_FLIGHT: v = s->in_flight; break;
		case PROMFMT_FAM_OLDEST: v = seconds(s->oldest_in_flight); break;
		case PROMFMT_FAM_SKIPPED: v = (double)s->counts.skipped; break;
		case PROMFMT_FAM_INTERVAL: v = seconds(s->info->interval); break;
		case PROMFMT_FAM_SIZE: v = (double)s->info->size; break;
		default: v = seconds(s->info->start_real); break; /* PROMFMT_FAM_START */
		}
		err = value(&b, series(&b, s, -1), v);
	}
	return fam_end(&b, sb, err);
}

/* --layers: ioprobe_layer_seconds (classic buckets only), then the layer counters. */
static int write_layers(struct sbuf *sb, const struct metrics_snap *snap, size_t n, size_t cap,
			struct work *w)
{
	struct fam b;
	int err = fam_begin(&b, PROMFMT_FAM_LAYER, cap);

	for (size_t i = 0; !err && i < n; i++) {
		for (int l = 0; !err && snap[i].info->layers && l < LAYERS_N; l++) {
			const struct metrics_hist *h = &snap[i].counts.layers.layer[l];
			pb_metric *m = series(&b, &snap[i], -1);

			err = m ? label(&b, m, "layer", layer_name((enum layer)l)) : -ENOMEM;
			err = err ? err : hist(&b, m, h->bucket, h->sum, NULL, w);
		}
	}
	err = fam_end(&b, sb, err); /* a family without series is left out */
	for (int id = PROMFMT_FAM_LAYER_REQUESTS; !err && id <= PROMFMT_FAM_LAYER_NO_DEVICE; id++) {
		err = fam_begin(&b, (enum promfmt_fam_id)id, cap);
		for (size_t i = 0; !err && i < n; i++) {
			const struct metrics_layers *ml = &snap[i].counts.layers;

			if (snap[i].info->layers)
				err = value(&b, series(&b, &snap[i], -1),
					    (double)(id == PROMFMT_FAM_LAYER_REQUESTS ? ml->requests :
						     id == PROMFMT_FAM_LAYER_PIECES ? ml->pieces :
						     ml->no_device));
		}
		err = fam_end(&b, sb, err);
	}
	return err;
}

/* The judged targets' current verdicts, then their seconds in each state (promfmt's rules). */
static int write_verdict(struct sbuf *sb, const struct metrics_snap *snap, size_t n, size_t cap)
{
	struct fam b;
	int err = fam_begin(&b, PROMFMT_FAM_VERDICT, cap);

	for (size_t i = 0; !err && i < n; i++) {
		const struct metrics_verdict *v = &snap[i].counts.verdict;
		pb_metric *m;

		if (!snap[i].info->verdict || !v->judged)
			continue;
		m = series(&b, &snap[i], -1);
		err = m ? label(&b, m, "device", snap[i].info->device) : -ENOMEM;
		err = err ? err : label(&b, m, "state", verdict_state_key(v->state));
		err = err ? err : label(&b, m, "reason", verdict_reason_key(v->reason));
		err = err ? err : value(&b, m, 1);
	}
	if ((err = fam_end(&b, sb, err))) /* a family without series is left out */
		return err;
	err = fam_begin(&b, PROMFMT_FAM_VERDICT_SECONDS, cap);
	for (size_t i = 0; !err && i < n; i++) {
		for (int st = 0; !err && snap[i].info->verdict && st < VERDICT_STATES; st++) {
			pb_metric *m = series(&b, &snap[i], -1);

			err = m ? label(&b, m, "state", verdict_state_key((enum verdict_state)st)) :
				  -ENOMEM;
			err = err ? err :
			      value(&b, m, seconds(snap[i].counts.verdict.state_ns[st]));
		}
	}
	return fam_end(&b, sb, err);
}

static int write_info(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
		      const char *version, size_t cap)
{
	struct fam b;
	pb_metric *m;
	int err = fam_begin(&b, PROMFMT_FAM_PROBE_INFO, cap);

	for (size_t i = 0; !err && i < n; i++) {
		const struct metrics_info *in = snap[i].info;

		m = series(&b, &snap[i], -1);
		err = m ? label(&b, m, "device", in->device) : -ENOMEM;
		err = err ? err : label(&b, m, "disk", in->disk);
		err = err ? err : label(&b, m, "fstype", in->fstype);
		err = err ? err : label(&b, m, "engine", in->engine);
		err = err ? err : label(&b, m, "mode", in->mode);
		err = err ? err : value(&b, m, 1);
	}
	if ((err = fam_end(&b, sb, err)))
		return err;
	/* one series: the version is the process's, not a target's */
	err = fam_begin(&b, PROMFMT_FAM_BUILD_INFO, 1);
	m = err ? NULL : series(&b, NULL, -1);
	err = err ? err : m ? label(&b, m, "version", version) : -ENOMEM;
	err = err ? err : value(&b, m, 1);
	return fam_end(&b, sb, err);
}

int promproto_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
		    const char *version)
{
	/* the most series a family has: ioprobe_request_errors_total's */
	size_t cap = n * METRICS_OPS * (METRICS_ERRNOS + 1);
	struct work *w = malloc(sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	err = write_duration(sb, snap, n, cap, w);
	err = err ? err : write_errors(sb, snap, n, cap);
	err = err ? err : write_per_op(sb, PROMFMT_FAM_BYTES, snap, n, cap);
	err = err ? err : write_per_op(sb, PROMFMT_FAM_LAST, snap, n, cap);
	for (int id = PROMFMT_FAM_IN_FLIGHT; !err && id <= PROMFMT_FAM_START; id++)
		err = write_per_target(sb, (enum promfmt_fam_id)id, snap, n, cap);
	err = err ? err : write_layers(sb, snap, n, cap, w);
	err = err ? err : write_verdict(sb, snap, n, cap);
	err = err ? err : write_info(sb, snap, n, version, cap);
	free(w);
	return err ? err : sb->error;
}

#endif
