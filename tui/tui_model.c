#include "config.h"

#include "tui_model.h"

#include <string.h>

static const uint64_t tui_window_spans[TUI_WINDOWS] = {
	60000000000ull,   /* 1 min */
	600000000000ull,  /* 10 min */
	3600000000000ull, /* 1 h */
};

uint64_t tui_model_window_ns(enum tui_window w)
{
	return w < TUI_WINDOWS ? tui_window_spans[w] : tui_window_spans[0];
}

void tui_model_init(struct tui_model *m, const struct tui_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->interval = cfg->interval;
	tally_init(&m->period);
	tally_init(&m->total);
	stats_init(&m->read);
	stats_init(&m->write);
	m->period_index = 1;
	for (int w = 0; w < TUI_WINDOWS; w++) {
		m->series[w].width = tui_window_spans[w] / TUI_BUCKETS;
		tui_heat_ring_init(&m->heat[w], tui_window_spans[w] / TUI_HEAT_SLOTS);
	}
}

void tui_model_tally_row(const struct tally *t, uint64_t wall, uint64_t size,
			 const struct pcts *pcts, struct tui_row *out)
{
	const struct stats *v = &t->valid;
	const struct pcts *pc = pcts && pcts->n ? pcts : &pcts_default;

	memset(out, 0, sizeof(*out));
	out->count = v->count;
	out->sum = v->sum;
	out->min = stats_min(v);
	out->max = v->max;
	out->avg = stats_mean(v);
	out->mdev = stats_mdev(v);
	out->iops = tally_iops(t);
	out->bps = out->iops * (double)size;
	out->requests = t->requests;
	out->wall = wall;
	out->failed = t->failed;
	out->skipped = t->skipped;
	out->too_fast = t->too_fast;
	out->too_slow = t->too_slow;
	out->npct = pc->n;
	for (unsigned i = 0; i < pc->n; i++) {
		out->pct[i] = stats_percentile(v, pc->p[i]);
		out->rpct[i] = stats_percentile(&t->response, pc->p[i]);
	}
	out->p99 = stats_percentile(v, 99);
}

/* Close the open period at run ns end, covering wall ns, and open the next. */
static void tui_model_close(struct tui_model *m, uint64_t end, uint64_t wall)
{
	struct tui_row *r = &m->rows[m->nrows % TUI_ROWS];

	tui_model_tally_row(&m->period, wall, m->cfg.size, &m->cfg.pcts, r);
	r->index = m->period_index++;
	r->end = end;
	m->nrows++;
	tally_init(&m->period);
	m->period_start = end;
}

/* Own periods: close every one whose end is at or before run ns t. */
static void tui_model_close_until(struct tui_model *m, uint64_t t)
{
	uint64_t p = m->cfg.own_period, k;

	if (!p || t < m->period_start + p)
		return;
	k = (t - m->period_start) / p;
	if (k > TUI_ROWS) {
		/* a long silence: keep the open period and the last TUI_ROWS - 1 empty ones */
		tui_model_close(m, m->period_start + p, p);
		k--;
		m->period_start += (k - (TUI_ROWS - 1)) * p;
		m->period_index += k - (TUI_ROWS - 1);
		k = TUI_ROWS - 1;
	}
	while (k--)
		tui_model_close(m, m->period_start + p, p);
}

/* The bucket of window w holding run ns end, emptied when it held an older span. */
static struct tui_bucket *tui_model_bucket(struct tui_model *m, int w, uint64_t end)
{
	struct tui_series *ser = &m->series[w];
	uint64_t id = end / ser->width;
	struct tui_bucket *b = &ser->b[id % TUI_BUCKETS];

	if (b->tag != id + 1) {
		memset(b, 0, sizeof(*b));
		b->tag = id + 1;
		b->min = UINT64_MAX;
		b->rmin = UINT64_MAX;
	}
	return b;
}

/* n skipped slots whose largest response is hi, noticed at run ns end. */
static void tui_model_plot_skipped(struct tui_model *m, uint64_t end, uint64_t n, uint64_t hi)
{
	for (int w = 0; w < TUI_WINDOWS && n; w++) {
		struct tui_bucket *b = tui_model_bucket(m, w, end);

		b->skipped += n > UINT32_MAX - b->skipped ? UINT32_MAX - b->skipped : (uint32_t)n;
		if (hi > b->rmax)
			b->rmax = hi;
	}
}

static void tui_model_plot(struct tui_model *m, uint64_t end, const struct sample *s,
			   enum notice n)
{
	bool plotted = n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW ||
		       n == NOTICE_TOO_FAST || n == NOTICE_TOO_SLOW;
	bool slow = n == NOTICE_SLOW || n == NOTICE_TOO_SLOW;
	uint64_t resp = s->response ? s->response : s->time;

	if (!plotted && n != NOTICE_ERROR)
		return;
	for (int w = 0; w < TUI_WINDOWS; w++) {
		struct tui_bucket *b = tui_model_bucket(m, w, end);

		if (n == NOTICE_ERROR) {
			b->err++;
			continue;
		}
		b->n++;
		b->slow += slow;
		tui_heat_ring_add(&m->heat[w], end, s->time);
		if (s->time < b->min)
			b->min = s->time;
		if (s->time > b->max)
			b->max = s->time;
		if (resp < b->rmin)
			b->rmin = resp;
		if (resp > b->rmax)
			b->rmax = resp;
	}
}

/*
 * pacer.c's skipped-slot rule, from the due times of consecutive samples;
 * *hi gets the response the first skipped slot would have had (the previous
 * request's end minus the slot's due time, account_add_skipped's rule).
 */
static uint64_t tui_model_skipped(struct tui_model *m, const struct sample *s, uint64_t *hi)
{
	uint64_t due = s->start >= s->lateness ? s->start - s->lateness : 0, skipped = 0;
	uint64_t first = m->last_due + m->interval;

	*hi = 0;
	if (m->have_due && !m->no_compare && m->interval && due > m->last_due + m->interval) {
		skipped = (due - m->last_due - m->interval) / m->interval;
		*hi = m->last_end > first ? m->last_end - first : 0;
	}
	if (m->no_compare)
		m->no_compare--;
	m->last_due = due;
	m->have_due = true;
	return skipped;
}

/* The recent requests' line of s. */
static void tui_model_line_add(struct tui_model *m, const struct sample *s, enum notice n)
{
	struct tui_line *l = &m->lines[m->nlines++ % TUI_LINES];

	l->s = *s;
	l->n = n;
	l->gap = false;
}

void tui_model_add(struct tui_model *m, const struct sample *s, enum notice n)
{
	uint64_t end = s->start + s->time, skipped, hi;

	m->samples++;
	tui_model_close_until(m, end);
	tally_add(&m->period, s, n);
	tally_add(&m->total, s, n);
	if (m->cfg.split && (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW))
		stats_add(s->op == OP_WRITE ? &m->write : &m->read, s->time); /* tally_add's valid */
	skipped = tui_model_skipped(m, s, &hi);
	m->period.skipped += skipped;
	m->total.skipped += skipped;
	if (skipped && n != NOTICE_WARMUP && m->interval) {
		tally_add_skipped(&m->period, hi, m->interval, skipped);
		tally_add_skipped(&m->total, hi, m->interval, skipped);
	}
	tui_model_plot(m, end, s, n);
	tui_model_plot_skipped(m, end, skipped, hi);
	tui_model_line_add(m, s, n);
	if (end > m->last_end)
		m->last_end = end;
	m->last_request = s->request;
}

void tui_model_replay_request(struct tui_model *m, const struct sample *s, enum notice n)
{
	uint64_t end = s->start + s->time;

	tui_model_plot(m, end, s, n);
	tui_model_line_add(m, s, n);
	if (end > m->last_end)
		m->last_end = end;
	m->last_request = s->request;
}

/* A recorded period's requests in the graph, from its tally: one bucket of each window. */
static void tui_model_plot_tally(struct tui_model *m, uint64_t end, const struct tally *t)
{
	const struct stats *v = &t->valid, *r = &t->response;
	uint64_t plotted = v->count + t->too_fast + t->too_slow;

	for (int w = 0; w < TUI_WINDOWS; w++) {
		struct tui_bucket *b = tui_model_bucket(m, w, end);

		b->err += t->failed > UINT32_MAX - b->err ? UINT32_MAX - b->err : (uint32_t)t->failed;
		b->skipped += t->skipped > UINT32_MAX - b->skipped ? UINT32_MAX - b->skipped :
			      (uint32_t)t->skipped;
		b->slow += t->too_slow > UINT32_MAX - b->slow ? UINT32_MAX - b->slow :
			   (uint32_t)t->too_slow;
		if (r->count && r->max > b->rmax)
			b->rmax = r->max;
		if (r->count && stats_min(r) < b->rmin)
			b->rmin = stats_min(r);
		if (!v->count)
			continue;
		b->n += plotted > UINT32_MAX - b->n ? UINT32_MAX - b->n : (uint32_t)plotted;
		if (stats_min(v) < b->min)
			b->min = stats_min(v);
		if (v->max > b->max)
			b->max = v->max;
		for (size_t k = 0; k < STATS_BUCKETS; k++)
			if (v->hist[k])
				tui_heat_ring_add_n(&m->heat[w], end, stats_bucket_low(k) +
						    (stats_bucket_high(k) - stats_bucket_low(k)) / 2,
						    v->hist[k]);
	}
}

void tui_model_replay_period(struct tui_model *m, uint64_t end, const struct tally *t,
			     bool plotted)
{
	/* its requests spread over the period: drawn at its middle, so that periods whose ends
	 * drift across a second's edge (1.95 s, then 3.05 s) leave no empty second between */
	if (!plotted)
		tui_model_plot_tally(m, end > t->wall / 2 ? end - t->wall / 2 : end, t);
	m->samples += t->requests;
	tally_merge(&m->period, t);
	tally_merge(&m->total, t);
	m->period.wall = t->wall;
	tui_model_close(m, end, t->wall);
	if (end > m->last_end)
		m->last_end = end;
}

void tui_model_period_end(struct tui_model *m)
{
	if (m->cfg.own_period)
		return;
	tui_model_close(m, m->last_end > m->period_start ? m->last_end : m->period_start,
			m->last_end > m->period_start ? m->last_end - m->period_start : 0);
}

void tui_model_burst_end(struct tui_model *m)
{
	struct tui_line *l = &m->lines[m->nlines++ % TUI_LINES];

	memset(l, 0, sizeof(*l));
	l->gap = true;
}

void tui_model_warning(struct tui_model *m, const char *text)
{
	size_t n = strlen(text);

	if (n >= sizeof(m->warning))
		n = sizeof(m->warning) - 1;
	memcpy(m->warning, text, n);
	m->warning[n] = '\0';
	m->warnings++;
}

void tui_model_tick(struct tui_model *m, uint64_t now)
{
	if (m->cfg.own_period && now >= TUI_PERIOD_GRACE)
		tui_model_close_until(m, now - TUI_PERIOD_GRACE);
}

void tui_model_reset(struct tui_model *m, uint64_t now)
{
	tally_init(&m->period);
	tally_init(&m->total);
	stats_init(&m->read);
	stats_init(&m->write);
	m->period_start = now;
	m->total_start = now;
	m->period_index = 1;
	m->nrows = 0;
}

void tui_model_pause(struct tui_model *m, bool paused, uint64_t now)
{
	if (paused) {
		uint64_t i = m->npauses++ % TUI_PAUSES;

		m->pauses[i].from = now;
		m->pauses[i].to = 0;
	} else if (m->npauses) {
		uint64_t i = (m->npauses - 1) % TUI_PAUSES;

		if (!m->pauses[i].to)
			m->pauses[i].to = now > m->pauses[i].from ? now : m->pauses[i].from + 1;
		m->no_compare = 2;
	}
}

void tui_model_set_interval(struct tui_model *m, uint64_t ns)
{
	m->interval = ns;
	m->no_compare = 2;
}

/* Was probing paused at some time in [t0, t1) (up to now for an open pause)? */
static bool tui_model_paused_in(const struct tui_model *m, uint64_t t0, uint64_t t1)
{
	uint64_t n = m->npauses < TUI_PAUSES ? m->npauses : TUI_PAUSES;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t from = m->pauses[i].from, to = m->pauses[i].to;

		if (from < t1 && (!to || to > t0))
			return true;
	}
	return false;
}

void tui_model_columns(const struct tui_model *m, enum tui_window w, uint64_t now,
		       struct tui_col *out, int nsub)
{
	const struct tui_series *ser = &m->series[w < TUI_WINDOWS ? w : 0];
	uint64_t span = tui_model_window_ns(w), bw = ser->width;
	uint64_t sw, a_now, oldest;

	if (nsub <= 0)
		return;
	memset(out, 0, sizeof(*out) * (size_t)nsub);
	sw = span / (uint64_t)nsub;
	if (!sw)
		sw = 1;
	a_now = now / sw;
	/* buckets older than the ring holds are stale even when their slot matches */
	oldest = now / bw >= TUI_BUCKETS ? now / bw - (TUI_BUCKETS - 1) : 0;
	for (int j = 0; j < nsub; j++) {
		uint64_t back = (uint64_t)(nsub - 1 - j), a, t0, t1, id0, id1;
		struct tui_col *c = &out[j];

		if (back > a_now)
			continue; /* before the run started */
		a = a_now - back;
		t0 = a * sw;
		t1 = t0 + sw;
		id0 = (t0 + bw - 1) / bw;
		id1 = (t1 + bw - 1) / bw;
		if (id0 < oldest)
			id0 = oldest;
		c->min = UINT64_MAX;
		c->rmin = UINT64_MAX;
		for (uint64_t id = id0; id < id1; id++) {
			const struct tui_bucket *b = &ser->b[id % TUI_BUCKETS];

			if (b->tag != id + 1)
				continue;
			c->err += b->err;
			c->slow += b->slow;
			c->skipped += b->skipped;
			if (b->rmax > c->rmax)
				c->rmax = b->rmax; /* skipped slots alone have a response */
			if (!b->n)
				continue;
			c->n += b->n;
			if (b->min < c->min)
				c->min = b->min;
			if (b->max > c->max)
				c->max = b->max;
			if (b->rmin < c->rmin)
				c->rmin = b->rmin;
		}
		if (!c->n)
			c->min = 0;
		if (c->rmin == UINT64_MAX)
			c->rmin = c->rmax;
		if (tui_model_paused_in(m, t0, t1 < now ? t1 : now + 1))
			c->flags |= TUI_COL_PAUSED;
	}
}

const struct tui_row *tui_model_row(const struct tui_model *m, uint64_t back)
{
	if (back >= m->nrows || back >= TUI_ROWS)
		return NULL;
	return &m->rows[(m->nrows - 1 - back) % TUI_ROWS];
}

const struct tui_line *tui_model_line(const struct tui_model *m, uint64_t back)
{
	if (back >= m->nlines || back >= TUI_LINES)
		return NULL;
	return &m->lines[(m->nlines - 1 - back) % TUI_LINES];
}
