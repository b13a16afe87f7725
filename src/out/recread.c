#include "config.h"

#include "recread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* A reader's step: the node of key in obj, or damage. */
struct rr {
	struct recread *rd;
	char *msg;
	size_t msglen;
	int err;
};

static int rr_bad(struct rr *r, const char *what, const char *key)
{
	if (!r->err)
		r->err = err_set(r->msg, r->msglen, -EINVAL, "%s \"%s\"", what, key);
	return r->err;
}

static int rr_node(struct rr *r, int obj, const char *key)
{
	int i = jsonr_get(&r->rd->j, obj, key);

	if (i < 0)
		rr_bad(r, "no key", key);
	return i;
}

static uint64_t rr_u64(struct rr *r, int obj, const char *key)
{
	uint64_t v = 0;

	if (!jsonr_u64(&r->rd->j, rr_node(r, obj, key), &v))
		rr_bad(r, "not an unsigned integer:", key);
	return v;
}

static int64_t rr_i64(struct rr *r, int obj, const char *key)
{
	int64_t v = 0;

	if (!jsonr_i64(&r->rd->j, rr_node(r, obj, key), &v))
		rr_bad(r, "not an integer:", key);
	return v;
}

static double rr_dbl(struct rr *r, int obj, const char *key)
{
	double v = 0;

	if (!jsonr_double(&r->rd->j, rr_node(r, obj, key), &v))
		rr_bad(r, "not a number:", key);
	return v;
}

static bool rr_bool(struct rr *r, int obj, const char *key)
{
	bool v = false;

	if (!jsonr_bool(&r->rd->j, rr_node(r, obj, key), &v))
		rr_bad(r, "not true or false:", key);
	return v;
}

static const char *rr_str(struct rr *r, int obj, const char *key)
{
	const char *s = jsonr_str(&r->rd->j, rr_node(r, obj, key));

	if (!s) {
		rr_bad(r, "not a string:", key);
		return "";
	}
	return s;
}

/* An optional string key: "" when absent. */
/* An optional key (absent in older recordings): its value, or def when absent. */
static bool rr_opt_bool(struct rr *r, int obj, const char *key, bool def)
{
	return jsonr_get(&r->rd->j, obj, key) >= 0 ? rr_bool(r, obj, key) : def;
}

static uint64_t rr_opt_u64(struct rr *r, int obj, const char *key, uint64_t def)
{
	return jsonr_get(&r->rd->j, obj, key) >= 0 ? rr_u64(r, obj, key) : def;
}

static double rr_opt_dbl(struct rr *r, int obj, const char *key, double def)
{
	return jsonr_get(&r->rd->j, obj, key) >= 0 ? rr_dbl(r, obj, key) : def;
}

static const char *rr_opt_str(struct rr *r, int obj, const char *key)
{
	const char *s = jsonr_str(&r->rd->j, jsonr_get(&r->rd->j, obj, key));

	return s ? s : "";
}

/* Copy s into buf (len bytes); too long is damage. */
static void rr_copy(struct rr *r, char *buf, size_t len, const char *s, const char *key)
{
	size_t n = strlen(s);

	if (n >= len) {
		rr_bad(r, "too long:", key);
		n = len - 1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* A stats object: every bucket where its low and high bounds say, the counts consistent. */
static void rr_stats(struct rr *r, int obj, const char *key, struct stats *s)
{
	const struct jsonr *j = &r->rd->j;
	int o = rr_node(r, obj, key), h;
	uint64_t total = 0;

	stats_init(s);
	if (r->err)
		return;
	s->count = rr_u64(r, o, "count");
	s->sum = rr_u64(r, o, "sum");
	s->min = rr_u64(r, o, "min");
	s->max = rr_u64(r, o, "max");
	s->mean = rr_dbl(r, o, "mean");
	s->m2 = rr_dbl(r, o, "m2");
	h = rr_node(r, o, "hist");
	if (r->err)
		return;
	if (j->node[h].type != JSONR_ARR) {
		rr_bad(r, "not an array:", "hist");
		return;
	}
	for (int b = jsonr_first(j, h); b >= 0 && !r->err; b = jsonr_next(j, b)) {
		uint64_t v[3];
		int e = jsonr_first(j, b);
		size_t k = 0, idx;

		for (; e >= 0 && k < 3 && jsonr_u64(j, e, &v[k]); e = jsonr_next(j, e))
			k++;
		if (k != 3 || e >= 0) {
			rr_bad(r, "a bucket is not [low,high,count] in", key);
			return;
		}
		idx = stats_bucket_index(v[0]);
		if (stats_bucket_low(idx) != v[0] || stats_bucket_high(idx) != v[1] || !v[2] ||
		    s->hist[idx]) {
			rr_bad(r, "a bucket is not one of the histogram's in", key);
			return;
		}
		s->hist[idx] = v[2];
		if (__builtin_add_overflow(total, v[2], &total))
			total = UINT64_MAX;
	}
	if (!r->err && (total != s->count || (s->count && (s->min > s->max))))
		rr_bad(r, "the buckets do not add up to the count in", key);
}

static void rr_tally(struct rr *r, int obj, struct tally *t)
{
	tally_init(t);
	t->requests = rr_u64(r, obj, "requests");
	t->failed = rr_u64(r, obj, "failed");
	t->too_fast = rr_u64(r, obj, "too_fast");
	t->too_slow = rr_u64(r, obj, "too_slow");
	t->skipped = rr_u64(r, obj, "skipped");
	t->wall = rr_u64(r, obj, "wall");
	rr_stats(r, obj, "valid", &t->valid);
	rr_stats(r, obj, "response", &t->response);
}

/* errno names ("EIO") back to their numbers: "other" and unknown names count as other. */
static void rr_errors(struct rr *r, int obj, struct rec_errors *e)
{
	const struct jsonr *j = &r->rd->j;

	memset(e, 0, sizeof(*e));
	if (r->err)
		return;
	if (j->node[obj].type != JSONR_OBJ) {
		rr_bad(r, "not an object:", "errors");
		return;
	}
	for (int c = jsonr_first(j, obj); c >= 0 && !r->err; c = jsonr_next(j, c)) {
		const char *name = j->node[c].key;
		uint64_t n = 0;
		int err;

		if (!jsonr_u64(j, c, &n)) {
			rr_bad(r, "not a count:", name);
			return;
		}
		err = errno_from_name(name); /* a table lookup: linear in the names of a line */
		if (!err) {
			e->other += n;
			continue;
		}
		rec_errors_add_n(e, -(int64_t)err, n);
	}
}

/* A target index below the header's count. */
static size_t rr_target(struct rr *r, int obj)
{
	uint64_t i = rr_u64(r, obj, "target");

	if (!r->err && i >= r->rd->h.ntargets) {
		rr_bad(r, "no such target:", "target");
		return 0;
	}
	return (size_t)i;
}

/* A string the reader keeps (the header's). */
static const char *rr_keep(struct rr *r, const char *s)
{
	char **owned = realloc(r->rd->owned, (r->rd->nowned + 1) * sizeof(*owned));
	char *copy = strdup(s);

	if (owned)
		r->rd->owned = owned;
	if (!owned || !copy) {
		free(copy);
		if (!r->err)
			r->err = err_set(r->msg, r->msglen, -ENOMEM, "out of memory");
		return "";
	}
	owned[r->rd->nowned++] = copy;
	return copy;
}

static void *rr_alloc(struct rr *r, size_t n, size_t size)
{
	char **owned = realloc(r->rd->owned, (r->rd->nowned + 1) * sizeof(*owned));
	void *p = calloc(n ? n : 1, size);

	if (owned)
		r->rd->owned = owned;
	if (!owned || !p) {
		free(p);
		if (!r->err)
			r->err = err_set(r->msg, r->msglen, -ENOMEM, "out of memory");
		return NULL;
	}
	owned[r->rd->nowned++] = p;
	return p;
}

static void rr_rows(struct rr *r, int arr, struct rec_row *row, size_t *n)
{
	const struct jsonr *j = &r->rd->j;

	*n = 0;
	if (r->err)
		return;
	if (j->node[arr].type != JSONR_ARR) {
		rr_bad(r, "not an array:", "devices");
		return;
	}
	for (int d = jsonr_first(j, arr); d >= 0 && !r->err; d = jsonr_next(j, d)) {
		struct rec_row *w = &row[*n];

		if (*n >= REC_DEVS) {
			rr_bad(r, "too many rows in", "devices");
			return;
		}
		memset(w, 0, sizeof(*w));
		rr_copy(r, w->name, sizeof(w->name), rr_str(r, d, "name"), "name");
		w->row.interval_ns = rr_u64(r, d, "interval");
		w->row.reset = rr_bool(r, d, "reset");
		for (size_t k = 0; k < rec_row_nkeys; k++)
			*(double *)(void *)((char *)&w->row + rec_row_keys[k].offset) =
				rr_dbl(r, d, rec_row_keys[k].key);
		(*n)++;
	}
}

static void rr_header(struct rr *r, int o)
{
	const struct jsonr *j = &r->rd->j;
	struct rec_header *h = &r->rd->h;
	const char *mode;
	int a, t;
	size_t k = 0;

	memset(h, 0, sizeof(*h));
	h->version = (unsigned)rr_u64(r, o, "version");
	h->ioprobe = rr_keep(r, rr_str(r, o, "ioprobe"));
	h->host = rr_keep(r, rr_str(r, o, "host"));
	h->kernel = rr_keep(r, rr_str(r, o, "kernel"));
	h->engine = rr_keep(r, rr_str(r, o, "engine"));
	h->real = rr_u64(r, o, "real");
	a = rr_node(r, o, "argv");
	h->argc = jsonr_count(j, a);
	{
		const char **argv = rr_alloc(r, h->argc + 1, sizeof(*argv));

		for (int e = jsonr_first(j, a); argv && e >= 0 && !r->err; e = jsonr_next(j, e)) {
			const char *s = jsonr_str(j, e);

			if (!s)
				rr_bad(r, "not a string:", "argv");
			else
				argv[k++] = rr_keep(r, s);
		}
		h->argv = argv;
	}
	h->size = rr_u64(r, o, "size");
	mode = rr_str(r, o, "mode");
	h->write = !strcmp(mode, "write");
	h->read_write = !strcmp(mode, "read-write");
	if (!r->err && !h->write && !h->read_write && strcmp(mode, "read"))
		rr_bad(r, "unknown mode:", mode);
	h->cached = rr_bool(r, o, "cached");
	h->direct = rr_opt_bool(r, o, "direct", false);
	h->sync = rr_opt_bool(r, o, "sync", false);
	h->dsync = rr_opt_bool(r, o, "dsync", false);
	h->burst = rr_opt_u64(r, o, "burst", 0);
	h->rate_limit = rr_opt_dbl(r, o, "rate_limit", 0);
	h->speed_limit = rr_opt_u64(r, o, "speed_limit", 0);
	h->depth = (unsigned)rr_u64(r, o, "depth");
	h->interval = rr_u64(r, o, "interval");
	h->asked = rr_dbl(r, o, "asked");
	h->response = rr_bool(r, o, "response");
	h->iostat = rr_bool(r, o, "iostat");
	h->requests = rr_bool(r, o, "requests");
	h->period = rr_u64(r, o, "period");
	h->print_count = rr_u64(r, o, "print_count");
	h->print_interval = rr_u64(r, o, "print_interval");
	t = rr_node(r, o, "targets");
	h->ntargets = jsonr_count(j, t);
	if (!r->err && (!h->ntargets || h->ntargets > 256 || !h->size ||
			(!h->period && !h->print_count && !h->print_interval)))
		rr_bad(r, "impossible settings in", "header");
	h->target = r->err ? NULL : rr_alloc(r, h->ntargets, sizeof(*h->target));
	k = 0;
	for (int e = jsonr_first(j, t); h->target && e >= 0 && !r->err; e = jsonr_next(j, e)) {
		struct rec_target *tg = &h->target[k++];
		int s = rr_node(r, e, "stack");

		tg->path = rr_keep(r, rr_str(r, e, "path"));
		tg->name = rr_keep(r, rr_opt_str(r, e, "name"));
		tg->fstype = rr_keep(r, rr_str(r, e, "fstype"));
		tg->device = rr_keep(r, rr_str(r, e, "device"));
		tg->device_size = rr_u64(r, e, "device_size");
		tg->mdevice = rr_keep(r, rr_opt_str(r, e, "metrics_device"));
		tg->mdisk = rr_keep(r, rr_opt_str(r, e, "metrics_disk"));
		for (int d = jsonr_first(j, s); d >= 0 && !r->err; d = jsonr_next(j, d)) {
			struct rec_dev *dv = &tg->dev[tg->ndev];
			int64_t wc;

			if (tg->ndev >= REC_DEVS) {
				rr_bad(r, "too many devices in", "stack");
				break;
			}
			rr_copy(r, dv->name, sizeof(dv->name), rr_str(r, d, "name"), "name");
			dv->max_sectors_kb = (unsigned)rr_u64(r, d, "max_sectors_kb");
			dv->max_segments = (unsigned)rr_u64(r, d, "max_segments");
			wc = rr_i64(r, d, "write_cache");
			dv->write_cache = wc < 0 ? -1 : wc > 0;
			tg->ndev++;
		}
	}
}

int rec_notice_parse(const char *name)
{
	static const char *const names[] = {
		[NOTICE_NONE] = "", [NOTICE_WARMUP] = "warmup", [NOTICE_TOO_FAST] = "too fast",
		[NOTICE_TOO_SLOW] = "too slow", [NOTICE_FAST] = "fast", [NOTICE_SLOW] = "slow",
		[NOTICE_ERROR] = "error", [NOTICE_EMPTY] = "empty",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

static void rr_request(struct rr *r, int o, struct rec_event *ev)
{
	struct sample *s = &ev->sample;
	const char *op;
	int n;

	memset(s, 0, sizeof(*s));
	ev->target = rr_target(r, o);
	ev->real = rr_u64(r, o, "real");
	s->request = rr_u64(r, o, "request");
	op = rr_str(r, o, "operation");
	s->op = !strcmp(op, "write") ? OP_WRITE : OP_READ;
	s->offset = rr_u64(r, o, "offset");
	s->size = rr_u64(r, o, "size");
	s->result = rr_i64(r, o, "result");
	s->time = rr_u64(r, o, "time");
	s->start = rr_u64(r, o, "start");
	s->lateness = rr_u64(r, o, "lateness");
	s->skipped = rr_u64(r, o, "skipped");
	s->response = rr_u64(r, o, "response");
	n = rec_notice_parse(rr_str(r, o, "notice"));
	if (!r->err && (n < 0 || (strcmp(op, "read") && strcmp(op, "write"))))
		rr_bad(r, "unknown notice or operation in", "request");
	ev->notice = n < 0 ? NOTICE_NONE : (enum notice)n;
}

/* A summary's --layers tally ("layers", optional: absent when the run had none). */
static void rr_layers(struct rr *r, int o, struct rec_event *ev)
{
	int l = jsonr_get(&r->rd->j, o, "layers");

	ev->have_layers = l >= 0;
	if (!ev->have_layers)
		return;
	layer_tally_init(&ev->layers);
	ev->layers.requests = rr_u64(r, l, "requests");
	ev->layers.pieces = rr_u64(r, l, "pieces");
	ev->layers.no_device = rr_u64(r, l, "no_device");
	for (int k = 0; k < LAYERS_N; k++)
		rr_stats(r, l, layer_name((enum layer)k), &ev->layers.layer[k]);
}

/* A verdict's probe: its measured layers ("layers", optional: absent when not measured). */
static void rr_probe_layers(struct rr *r, int p, struct verdict_probe *vp)
{
	static const char *const keys[4] = { "submit", "throttle", "queue", "device" };
	int l = jsonr_get(&r->rd->j, p, "layers");
	double ns[4];

	vp->layers_tried = jsonr_get(&r->rd->j, p, "layers_tried") >= 0 &&
			   rr_bool(r, p, "layers_tried");
	if (l < 0) {
		verdict_probe_layers(vp, vp->layers_tried, 0, 0, NULL, 0);
		return;
	}
	for (int i = 0; i < 4; i++)
		ns[i] = rr_dbl(r, l, keys[i]);
	verdict_probe_layers(vp, vp->layers_tried, rr_u64(r, l, "requests"),
			     rr_u64(r, l, "no_device"), ns, rr_dbl(r, l, "pieces"));
}

/* A verdict's probe: its measured CPU wait, each key optional (absent: unknown; older files). */
static void rr_probe_cpu(struct rr *r, int p, struct verdict_probe *vp)
{
	vp->late_max_ns = jsonr_get(&r->rd->j, p, "late_max") >= 0 ? rr_u64(r, p, "late_max") : 0;
	vp->failed = jsonr_get(&r->rd->j, p, "failed") >= 0 ? rr_u64(r, p, "failed") : 0;
	vp->cpu_known = jsonr_get(&r->rd->j, p, "cpu_wait") >= 0;
	vp->cpu_wait_ns = vp->cpu_known ? rr_u64(r, p, "cpu_wait") : 0;
	vp->throttle_known = jsonr_get(&r->rd->j, p, "cpu_throttled") >= 0;
	vp->throttled_ns = vp->throttle_known ? rr_u64(r, p, "cpu_throttled") : 0;
	vp->host_some = jsonr_get(&r->rd->j, p, "host_cpu_some") >= 0 ?
				rr_dbl(r, p, "host_cpu_some") : -1;
	vp->finished_known = jsonr_get(&r->rd->j, p, "finished") >= 0;
	vp->finished = vp->finished_known ? rr_u64(r, p, "finished") : 0;
	rr_probe_layers(r, p, vp);
}

static void rr_verdict(struct rr *r, int o, struct rec_event *ev)
{
	int d = jsonr_get(&r->rd->j, o, "devices"), p;

	ev->seq = rr_u64(r, o, "seq");
	ev->target = rr_target(r, o);
	ev->own_rows = d >= 0;
	ev->nrows = 0;
	if (d >= 0)
		rr_rows(r, d, ev->row, &ev->nrows);
	p = rr_node(r, o, "probe");
	ev->probe.period_ns = rr_u64(r, p, "period");
	ev->probe.done = rr_u64(r, p, "done");
	ev->probe.skipped = rr_u64(r, p, "skipped");
	ev->probe.p50_ns = rr_u64(r, p, "p50");
	ev->probe.p99_ns = rr_u64(r, p, "p99");
	ev->probe.sum_ns = rr_u64(r, p, "sum");
	ev->probe.max_ns = rr_u64(r, p, "max");
	ev->probe.inflight_ns = rr_u64(r, p, "inflight");
	rr_probe_cpu(r, p, &ev->probe);
	rr_copy(r, ev->state, sizeof(ev->state), rr_str(r, o, "state"), "state");
	rr_copy(r, ev->reason, sizeof(ev->reason), rr_str(r, o, "reason"), "reason");
	rr_copy(r, ev->text, sizeof(ev->text), rr_str(r, o, "text"), "text");
}

/* A --sweep step: its row, verdict and printed line. */
static void rr_step(struct rr *r, int o, struct rec_event *ev)
{
	struct sweep_row *w = &ev->srow;
	uint64_t depth;

	ev->kind = REC_STEP;
	ev->target = rr_target(r, o);
	ev->seq = rr_u64(r, o, "step");
	ev->real = rr_u64(r, o, "real");
	ev->grid = rr_bool(r, o, "grid");
	memset(w, 0, sizeof(*w));
	w->size = rr_u64(r, o, "size");
	depth = rr_u64(r, o, "depth");
	if (!r->err && depth > UINT32_MAX)
		rr_bad(r, "out of range:", "depth");
	w->depth = (unsigned)depth;
	w->asked = rr_dbl(r, o, "asked");
	w->achieved = rr_dbl(r, o, "achieved");
	w->expected = rr_dbl(r, o, "expected");
	w->dev_rate = rr_dbl(r, o, "dev_rate");
	w->areq_kb = rr_dbl(r, o, "areq_kb");
	w->aqu = rr_dbl(r, o, "aqu_sz");
	w->await_ms = rr_dbl(r, o, "await_ms");
	w->util = rr_dbl(r, o, "util");
	w->dev_mbs = rr_dbl(r, o, "dev_mbs");
	w->p50_ns = rr_u64(r, o, "p50");
	w->p99_ns = rr_u64(r, o, "p99");
	w->rp50_ns = rr_u64(r, o, "response_p50");
	w->rp99_ns = rr_u64(r, o, "response_p99");
	w->skipped = rr_u64(r, o, "skipped");
	w->kept_up = rr_bool(r, o, "kept_up");
	rr_copy(r, ev->text, sizeof(ev->text), rr_str(r, o, "verdict"), "verdict");
	w->verdict = ev->text;
	rr_copy(r, ev->line, sizeof(ev->line), rr_str(r, o, "line"), "line");
}

/* The event of object o of type type; 1 for a type to skip. */
static int rr_event(struct rr *r, int o, const char *type, struct rec_event *ev)
{
	/* what an event of a kind without them leaves: no target, no rows (never the last
	 * event's: a caller may look at them for any kind) */
	ev->target = 0;
	ev->target_or_run = 0;
	ev->nrows = 0;
	if (!strcmp(type, "period")) {
		ev->kind = REC_PERIOD;
		ev->target = rr_target(r, o);
		ev->seq = rr_u64(r, o, "seq");
		ev->mono = rr_u64(r, o, "mono");
		ev->real = rr_u64(r, o, "real");
		rr_tally(r, o, &ev->tally);
		rr_errors(r, rr_node(r, o, "errors"), &ev->errors);
	} else if (!strcmp(type, "skipped")) {
		ev->kind = REC_SKIPPED;
		ev->target = rr_target(r, o);
		ev->hi = rr_u64(r, o, "hi");
		ev->step = rr_u64(r, o, "step");
		ev->n = rr_u64(r, o, "n");
	} else if (!strcmp(type, "request")) {
		ev->kind = REC_REQUEST;
		rr_request(r, o, ev);
	} else if (!strcmp(type, "iostat")) {
		ev->kind = REC_IOSTAT;
		ev->seq = rr_u64(r, o, "seq");
		ev->real = rr_u64(r, o, "real");
		rr_rows(r, rr_node(r, o, "devices"), ev->row, &ev->nrows);
	} else if (!strcmp(type, "verdict")) {
		ev->kind = REC_VERDICT;
		rr_verdict(r, o, ev);
	} else if (!strcmp(type, "warning") || !strcmp(type, "failure")) {
		int64_t t = rr_i64(r, o, "target");

		ev->kind = type[0] == 'w' ? REC_WARNING : REC_FAILURE;
		if (!r->err && (t < -1 || t >= (int64_t)r->rd->h.ntargets))
			rr_bad(r, "no such target:", "target");
		ev->target_or_run = (long)t;
		ev->target = t < 0 ? 0 : (size_t)t;
		ev->real = rr_u64(r, o, "real");
		rr_copy(r, ev->text, sizeof(ev->text), rr_str(r, o, "text"), "text");
	} else if (!strcmp(type, "summary")) {
		ev->kind = REC_SUMMARY;
		ev->target = rr_target(r, o);
		ev->real = rr_u64(r, o, "real");
		ev->ret = (int)rr_i64(r, o, "ret");
		rr_copy(r, ev->text, sizeof(ev->text), rr_str(r, o, "message"), "message");
		rr_tally(r, o, &ev->tally);
		rr_errors(r, rr_node(r, o, "errors"), &ev->errors);
		ev->split = jsonr_get(&r->rd->j, o, "read") >= 0;
		if (ev->split) {
			rr_stats(r, o, "read", &ev->read);
			rr_stats(r, o, "write", &ev->write);
		}
		rr_layers(r, o, ev);
	} else if (!strcmp(type, "step")) {
		rr_step(r, o, ev);
	} else if (!strcmp(type, "knee")) {
		ev->kind = REC_KNEE;
		ev->target = rr_target(r, o);
		ev->real = rr_u64(r, o, "real");
		ev->grid = rr_bool(r, o, "grid");
		rr_copy(r, ev->text, sizeof(ev->text), rr_str(r, o, "text"), "text");
		ev->knee = (long)rr_i64(r, o, "knee");
		ev->best = (long)rr_i64(r, o, "best");
		ev->limit = (long)rr_i64(r, o, "limit");
	} else if (!strcmp(type, "end")) {
		ev->kind = REC_END;
		ev->real = rr_u64(r, o, "real");
		ev->ret = (int)rr_i64(r, o, "exit");
	} else {
		return 1;
	}
	return r->err;
}

int recread_line(struct recread *rd, const char *line, size_t len, struct rec_event *ev,
		 char *msg, size_t msglen)
{
	struct rr r = { rd, msg, msglen, 0 };
	const char *type, *format;
	uint64_t version;
	int ret, o = 0;

	if (msglen)
		msg[0] = '\0';
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (!len)
		return 1;
	ret = jsonr_parse(&rd->j, line, len, msg, msglen);
	if (ret)
		return ret;
	if (rd->j.node[0].type != JSONR_OBJ)
		return err_set(msg, msglen, -EINVAL, "not a JSON object");
	type = jsonr_str(&rd->j, jsonr_get(&rd->j, o, "type"));
	if (!type)
		return err_set(msg, msglen, -EINVAL, "no \"type\"");
	if (!rd->have_header) {
		format = jsonr_str(&rd->j, jsonr_get(&rd->j, o, "format"));
		if (strcmp(type, "header") || !format || strcmp(format, REC_FORMAT))
			return err_set(msg, msglen, -EPROTO, "not an ioprobe recording (its first "
				       "line is no \"%s\" header)", REC_FORMAT);
		if (!jsonr_u64(&rd->j, jsonr_get(&rd->j, o, "version"), &version) || !version)
			return err_set(msg, msglen, -EPROTO, "the header has no format version");
		if (version > REC_VERSION)
			return err_set(msg, msglen, -EPROTO, "format version %llu is newer than "
				       "this ioprobe reads (%d): replay it with a newer ioprobe",
				       (unsigned long long)version, REC_VERSION);
		rr_header(&r, o);
		if (r.err)
			return r.err;
		rd->have_header = true;
		ev->kind = REC_HEADER;
		return 0;
	}
	if (!strcmp(type, "header"))
		return err_set(msg, msglen, -EINVAL, "a second header");
	return rr_event(&r, o, type, ev);
}

void recread_free(struct recread *rd)
{
	jsonr_free(&rd->j);
	for (size_t i = 0; i < rd->nowned; i++)
		free(rd->owned[i]);
	free(rd->owned);
	*rd = (struct recread)RECREAD_INIT;
}

void recread_judge(struct verdict_hist *vh, struct verdict_probe *vp, const struct rec_target *rt,
		   const struct rec_row *rows, size_t nrows, const struct verdict_probe *got,
		   struct verdict *v)
{
	struct verdict_dev dev[REC_DEVS];
	size_t ndev = rt->ndev < REC_DEVS ? rt->ndev : REC_DEVS;

	for (size_t k = 0; k < ndev; k++) {
		dev[k] = (struct verdict_dev){ rt->dev[k].name, NULL, rt->dev[k].max_sectors_kb,
					       rt->dev[k].write_cache, rt->dev[k].max_segments };
		for (size_t j = 0; j < nrows; j++) /* a row where its state was OK (no reset) */
			if (!strcmp(rows[j].name, rt->dev[k].name) && !rows[j].row.reset)
				dev[k].row = &rows[j].row;
	}
	vp->period_ns = got->period_ns;
	vp->done = got->done;
	vp->skipped = got->skipped;
	vp->p50_ns = got->p50_ns;
	vp->p99_ns = got->p99_ns;
	vp->sum_ns = got->sum_ns;
	vp->max_ns = got->max_ns;
	vp->inflight_ns = got->inflight_ns;
	vp->late_max_ns = got->late_max_ns;
	vp->failed = got->failed;
	vp->cpu_known = got->cpu_known;
	vp->cpu_wait_ns = got->cpu_wait_ns;
	vp->throttle_known = got->throttle_known;
	vp->throttled_ns = got->throttled_ns;
	vp->host_some = got->host_some;
	verdict_probe_layers(vp, got->layers_tried, got->layers_requests, got->layers_no_device,
			     got->layer_ns, got->layer_pieces);
	vp->finished = got->finished;
	vp->finished_known = got->finished_known;
	verdict_judge(vh, vp, dev, ndev, v);
}
