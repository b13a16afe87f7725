#include "config.h"

#include "metrics.h"

#include "common.h"

#include <errno.h>
#include <math.h>
#include <string.h>

const uint64_t metrics_bucket_ns[METRICS_BUCKETS] = {
	10000ull, 20000ull, 50000ull,
	100000ull, 200000ull, 500000ull,
	1000000ull, 2000000ull, 5000000ull,
	10000000ull, 20000000ull, 50000000ull,
	100000000ull, 200000000ull, 500000000ull,
	1000000000ull, 2000000000ull, 5000000000ull,
	10000000000ull,
};

const char *const metrics_bucket_le[METRICS_BUCKETS] = {
	"1e-05", "2e-05", "5e-05",
	"0.0001", "0.0002", "0.0005",
	"0.001", "0.002", "0.005",
	"0.01", "0.02", "0.05",
	"0.1", "0.2", "0.5",
	"1.0", "2.0", "5.0",
	"10.0",
};

/*
 * 2^(j/16 - 1), j = 0..15, correctly rounded: the lower bounds of the 16
 * buckets of schema 4 within [0.5, 1), the fraction frexp() gives (the Go
 * client's nativeHistogramBounds[4]).
 */
static const double metrics_native_frac[METRICS_NATIVE_PER_POW2] = {
	0.5, 0.5221368912137069, 0.5452538663326288, 0.5693943173783458,
	0.5946035575013605, 0.620928906036742, 0.6484197773255048, 0.6771277734684463,
	0.7071067811865476, 0.7384130729697497, 0.7711054127039704, 0.8052451659746271,
	0.8408964152537145, 0.8781260801866497, 0.9170040432046712, 0.9576032806985737,
};

static void metrics_counts_init(struct metrics_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < METRICS_OPS; i++)
		c->op[i].err_no[0] = EIO; /* "avoid missing metrics": EIO is there at 0 */
}

int metrics_target_init(struct metrics_target *t, const struct metrics_info *info,
			const _Atomic uint64_t *inflight)
{
	memset(t, 0, sizeof(*t));
	t->info = *info;
	t->inflight = inflight;
	metrics_counts_init(&t->counts);
	return -pthread_mutex_init(&t->lock, NULL);
}

void metrics_target_destroy(struct metrics_target *t)
{
	pthread_mutex_destroy(&t->lock);
}

void metrics_judged(struct metrics_target *t, const struct verdict *v, uint64_t period_ns)
{
	struct metrics_verdict *mv = &t->counts.verdict;
	enum verdict_state st = v->state < VERDICT_STATES ? v->state : VERDICT_NONE;

	pthread_mutex_lock(&t->lock);
	mv->judged = true;
	mv->state = st;
	mv->reason = verdict_reason_of(v);
	mv->state_ns[st] += period_ns;
	mv->intervals++;
	pthread_mutex_unlock(&t->lock);
}

struct metrics_verdict metrics_verdict_get(struct metrics_target *t)
{
	struct metrics_verdict mv;

	pthread_mutex_lock(&t->lock);
	mv = t->counts.verdict;
	pthread_mutex_unlock(&t->lock);
	return mv;
}

size_t metrics_bucket_index(uint64_t ns)
{
	size_t lo = 0, hi = METRICS_BUCKETS;

	while (lo < hi) { /* first bound >= ns */
		size_t mid = (lo + hi) / 2;

		if (metrics_bucket_ns[mid] < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int metrics_native_index(uint64_t ns)
{
	int exp;
	double frac = frexp((double)ns / NS_PER_S, &exp); /* ns / 1e9 = frac * 2^exp, frac in [0.5, 1) */
	int lo = 0, hi = METRICS_NATIVE_PER_POW2;

	while (lo < hi) { /* first bound >= frac */
		int mid = (lo + hi) / 2;

		if (metrics_native_frac[mid] < frac)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + (exp - 1) * METRICS_NATIVE_PER_POW2;
}

uint64_t metrics_native_upper(int i)
{
	long double b = floorl(exp2l((long double)i / METRICS_NATIVE_PER_POW2) * 1e9L);
	uint64_t ns = b < 1 ? 0 : b >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)b;

	/* the bound in long double, then made exact against the index itself */
	while (ns < UINT64_MAX && metrics_native_index(ns + 1) <= i)
		ns++;
	while (ns > 0 && metrics_native_index(ns) > i)
		ns--;
	return ns;
}

void metrics_native_add(struct metrics_native *h, uint64_t ns)
{
	if (!ns)
		h->zero++;
	else
		h->bucket[metrics_native_index(ns) - METRICS_NATIVE_MIN]++;
}

static void metrics_count_error(struct metrics_op *o, int err)
{
	for (size_t i = 0; i < METRICS_ERRNOS; i++) {
		if (o->err_no[i] == 0)
			o->err_no[i] = err;
		if (o->err_no[i] == err) {
			o->errors[i]++;
			return;
		}
	}
	o->errors_other++;
}

static void metrics_hist_add(struct metrics_hist *h, uint64_t ns)
{
	h->bucket[metrics_bucket_index(ns)]++;
	h->count++;
	h->sum = ns > UINT64_MAX - h->sum ? UINT64_MAX : h->sum + ns;
}

/* How many of hi, hi - step, ..., hi - (n - 1) * step are <= bound. */
static uint64_t metrics_series_le(uint64_t hi, uint64_t step, uint64_t n, uint64_t bound)
{
	uint64_t above; /* the first ones, > bound */

	if (hi <= bound)
		return n;
	if (!step)
		return 0;
	above = (hi - bound) / step + ((hi - bound) % step != 0); /* ceil, without overflow */
	return above >= n ? 0 : n - above;
}

void metrics_hist_add_series(struct metrics_hist *h, uint64_t hi, uint64_t step, uint64_t n)
{
	uint64_t below = 0;
	long double sum;

	if (!n)
		return;
	if (step && n - 1 > hi / step)
		n = hi / step + 1; /* no value below 0, as stats_add_series */
	for (size_t b = 0; b < METRICS_BUCKETS; b++) {
		uint64_t le = metrics_series_le(hi, step, n, metrics_bucket_ns[b]);

		h->bucket[b] += le - below;
		below = le;
	}
	h->bucket[METRICS_BUCKETS] += n - below;
	h->count += n;
	/* + n * hi - step * n (n - 1) / 2, in long double: saturates instead of wrapping */
	sum = (long double)h->sum + (long double)n * hi - (long double)step * n * (n - 1) / 2;
	h->sum = sum >= (long double)UINT64_MAX ? UINT64_MAX : (uint64_t)sum;
}

void metrics_native_add_series(struct metrics_native *h, uint64_t hi, uint64_t step, uint64_t n)
{
	uint64_t below;
	int top;

	if (!n)
		return;
	if (step && n - 1 > hi / step)
		n = hi / step + 1; /* no value below 0, as metrics_hist_add_series */
	below = metrics_series_le(hi, step, n, 0);
	h->zero += below;
	if (below == n)
		return;
	top = metrics_native_index(hi);
	/* from the bucket of the smallest value above 0 (a 0 can only be the last) up to hi's */
	for (int i = metrics_native_index(hi - step * (n - below - 1)); i <= top; i++) {
		uint64_t le = i == top ? n : metrics_series_le(hi, step, n, metrics_native_upper(i));

		h->bucket[i - METRICS_NATIVE_MIN] += le - below;
		below = le;
	}
}

/* Does metrics_count() put s into the histograms? */
static bool metrics_counted(const struct sample *s, enum notice n)
{
	return s->result >= 0 && n != NOTICE_WARMUP && n != NOTICE_EMPTY;
}

void metrics_count_native(struct metrics_natives *nv, const struct sample *s, enum notice n)
{
	int op = s->op == OP_WRITE ? OP_WRITE : OP_READ;

	if (!metrics_counted(s, n))
		return;
	metrics_native_add(&nv->latency[op], s->time);
	metrics_native_add(&nv->response[op], s->response);
}

/* s's layers into l, by layer_tally_add()'s rule (valid requests with their layers measured). */
static void metrics_count_layers(struct metrics_layers *l, const struct sample *s, enum notice n)
{
	const struct layer_times *t = &s->layers;

	if (!layer_counted(s, n))
		return;
	l->requests++;
	if (t->no_device) {
		l->no_device++;
		return;
	}
	l->pieces += t->pieces;
	metrics_hist_add(&l->layer[LAYER_SUBMIT], t->submit);
	metrics_hist_add(&l->layer[LAYER_THROTTLE], t->throttle);
	metrics_hist_add(&l->layer[LAYER_QUEUE], t->queue);
	metrics_hist_add(&l->layer[LAYER_DEVICE], t->device);
}

void metrics_count(struct metrics_counts *c, const struct sample *s, enum notice n,
		   uint64_t now_real)
{
	struct metrics_op *o = &c->op[s->op == OP_WRITE ? OP_WRITE : OP_READ];

	o->last_real = now_real;
	if (s->result < 0) {
		metrics_count_error(o, (int)-s->result);
		return;
	}
	if (!metrics_counted(s, n))
		return;
	o->bucket[metrics_bucket_index(s->time)]++;
	o->count++;
	o->sum = s->time > UINT64_MAX - o->sum ? UINT64_MAX : o->sum + s->time;
	o->bytes += (uint64_t)s->result;
	metrics_hist_add(&o->response, s->response);
	metrics_count_layers(&c->layers, s, n);
}

void metrics_record(struct metrics_target *t, const struct sample *s, enum notice n,
		    uint64_t now_real, uint64_t skipped)
{
	pthread_mutex_lock(&t->lock);
	metrics_count(&t->counts, s, n, now_real);
	metrics_count_native(&t->native, s, n);
	t->counts.skipped = skipped;
	pthread_mutex_unlock(&t->lock);
	t->last_op = s->op == OP_WRITE ? OP_WRITE : OP_READ;
}

void metrics_record_skipped(struct metrics_target *t, uint64_t hi, uint64_t step, uint64_t n)
{
	pthread_mutex_lock(&t->lock);
	metrics_hist_add_series(&t->counts.op[t->last_op].response, hi, step, n);
	metrics_native_add_series(&t->native.response[t->last_op], hi, step, n);
	pthread_mutex_unlock(&t->lock);
}

void metrics_in_flight(const struct metrics_target *t, uint64_t now, unsigned *n,
		       uint64_t *oldest)
{
	uint64_t start = t->inflight ? atomic_load_explicit(t->inflight, memory_order_relaxed) : 0;
	unsigned k = t->inflight_n ? atomic_load_explicit(t->inflight_n, memory_order_relaxed) : 0;

	/* the depth-1 loop publishes only the start; two loads: keep the pair sane */
	*n = !start ? 0 : k ? k : 1;
	*oldest = start && now > start ? now - start : 0;
}

uint64_t metrics_skipped(struct metrics_target *t)
{
	uint64_t n;

	pthread_mutex_lock(&t->lock);
	n = t->counts.skipped;
	pthread_mutex_unlock(&t->lock);
	return n;
}

void metrics_snapshot_native(struct metrics_target *t, uint64_t now, struct metrics_snap *out,
			     struct metrics_natives *native)
{
	pthread_mutex_lock(&t->lock);
	out->counts = t->counts;
	if (native)
		*native = t->native;
	pthread_mutex_unlock(&t->lock);
	out->native = native;
	out->info = &t->info;
	metrics_in_flight(t, now, &out->in_flight, &out->oldest_in_flight);
}

void metrics_snapshot(struct metrics_target *t, uint64_t now, struct metrics_snap *out)
{
	metrics_snapshot_native(t, now, out, NULL);
}
