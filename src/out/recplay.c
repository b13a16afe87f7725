#include "config.h"

#include "recplay.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const unsigned recplay_factors[RECPLAY_SPEEDS] = { 1, 10, 100 };

/* Room for one more element in *arr (n used, *cap held, size bytes each). 0 or -ENOMEM. */
static int recplay_grow(void **arr, size_t n, size_t *cap, size_t size)
{
	size_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	p = realloc(*arr, c * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

#define RP_GROW(arr, n, cap) recplay_grow((void **)&(arr), (n), &(cap), sizeof(*(arr)))

int recplay_init(struct recplay *rp, const struct rec_header *h)
{
	memset(rp, 0, sizeof(*rp));
	rp->h = h;
	rp->n = h->ntargets;
	rp->t = calloc(rp->n ? rp->n : 1, sizeof(*rp->t));
	if (!rp->t)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n; i++) {
		verdict_hist_init(&rp->t[i].vh);
		verdict_probe_settings(&rp->t[i].vp, h->asked, h->size, h->write || h->read_write,
				       h->read_write, h->cached, h->depth);
	}
	return 0;
}

void recplay_free(struct recplay *rp)
{
	for (size_t i = 0; rp->t && i < rp->n; i++) {
		free(rp->t[i].per);
		free(rp->t[i].req);
	}
	free(rp->t);
	free(rp->hist);
	free(rp->blk);
	free(rp->side);
	free(rp->rows);
	free(rp->warn);
	free(rp->stops);
	memset(rp, 0, sizeof(*rp));
}

#define RP_COUNT_MAX ((1ull << 48) - 1)
_Static_assert(STATS_BUCKETS <= 65536, "a bucket index fits struct recplay_bucket's k");

/* Whether s's histogram is the one kept at c (the same non-empty buckets, the same counts). */
static bool recplay_same_hist(const struct recplay *rp, const struct stats *s,
			      const struct recplay_stats *c)
{
	size_t j = 0;

	if (s->count != c->count)
		return false;
	for (size_t k = 0; k < STATS_BUCKETS && s->count; k++) {
		const struct recplay_bucket *b;

		if (!s->hist[k])
			continue;
		if (j >= c->n)
			return false;
		b = &rp->hist[c->off + j++];
		if (b->k != k || (((uint64_t)b->c_hi << 32) | b->c_lo) !=
				 (s->hist[k] > RP_COUNT_MAX ? RP_COUNT_MAX : s->hist[k]))
			return false;
	}
	return j == c->n;
}

/*
 * s without its histogram into c, its non-empty buckets into the pool (those of same, when
 * not NULL and equal: shared). 0 or -ENOMEM.
 */
static int recplay_keep_stats(struct recplay *rp, const struct stats *s, struct recplay_stats *c,
			      const struct recplay_stats *same)
{
	c->count = s->count;
	c->sum = s->sum;
	c->min = s->min;
	c->max = s->max;
	c->mean = s->mean;
	c->m2 = s->m2;
	if (same && recplay_same_hist(rp, s, same)) {
		c->off = same->off;
		c->n = same->n;
		return 0;
	}
	c->off = rp->nhist;
	c->n = 0;
	for (size_t k = 0; k < STATS_BUCKETS && s->count; k++) {
		uint64_t n = s->hist[k] > RP_COUNT_MAX ? RP_COUNT_MAX : s->hist[k];

		if (!n)
			continue;
		if (RP_GROW(rp->hist, rp->nhist, rp->chist))
			return -ENOMEM;
		rp->hist[rp->nhist++] = (struct recplay_bucket){ (uint16_t)k, (uint16_t)(n >> 32),
								(uint32_t)n };
		c->n++;
	}
	return 0;
}

static void recplay_fill_stats(const struct recplay *rp, const struct recplay_stats *c,
			       struct stats *s)
{
	stats_init(s);
	s->count = c->count;
	s->sum = c->sum;
	s->min = c->min;
	s->max = c->max;
	s->mean = c->mean;
	s->m2 = c->m2;
	for (size_t j = 0; j < c->n; j++)
		s->hist[rp->hist[c->off + j].k] = ((uint64_t)rp->hist[c->off + j].c_hi << 32) |
						  rp->hist[c->off + j].c_lo;
}

void recplay_tally(const struct recplay *rp, size_t i, size_t k, struct tally *out)
{
	const struct recplay_period *p = &rp->t[i].per[k];

	tally_init(out);
	recplay_fill_stats(rp, &p->valid, &out->valid);
	recplay_fill_stats(rp, &p->response, &out->response);
	out->requests = p->requests;
	out->too_fast = p->too_fast;
	out->too_slow = p->too_slow;
	out->failed = p->failed;
	out->skipped = p->skipped;
	out->wall = p->wall;
}

static int recplay_period(struct recplay *rp, const struct rec_event *ev)
{
	struct recplay_target *t = &rp->t[ev->target];
	struct recplay_period *p;

	if (RP_GROW(t->per, t->nper, t->cper))
		return -ENOMEM;
	p = &t->per[t->nper];
	memset(p, 0, sizeof(*p));
	p->mono = ev->mono;
	p->real = ev->real;
	p->seq = ev->seq;
	p->req_end = t->nreq;
	p->requests = ev->tally.requests;
	p->too_fast = ev->tally.too_fast;
	p->too_slow = ev->tally.too_slow;
	p->failed = ev->tally.failed;
	p->skipped = ev->tally.skipped;
	p->wall = ev->tally.wall;
	if (recplay_keep_stats(rp, &ev->tally.valid, &p->valid, NULL) ||
	    recplay_keep_stats(rp, &ev->tally.response, &p->response, &p->valid))
		return -ENOMEM;
	if (t->nper && p->mono < t->per[t->nper - 1].mono)
		p->mono = t->per[t->nper - 1].mono; /* never backwards: the cursor bisects */
	t->nper++;
	return 0;
}

static int recplay_request(struct recplay *rp, const struct rec_event *ev)
{
	struct recplay_target *t = &rp->t[ev->target];

	if (RP_GROW(t->req, t->nreq, t->creq))
		return -ENOMEM;
	t->req[t->nreq++] = (struct recplay_req){ ev->real, ev->sample, ev->notice };
	return 0;
}

/* Rows rows[0 .. n) into the pool; their offset in *off. 0 or -ENOMEM. */
static int recplay_keep_rows(struct recplay *rp, const struct rec_row *rows, size_t n, size_t *off)
{
	*off = rp->nrows;
	for (size_t k = 0; k < n; k++) {
		if (RP_GROW(rp->rows, rp->nrows, rp->crows))
			return -ENOMEM;
		rp->rows[rp->nrows++] = rows[k];
	}
	return 0;
}

static uint64_t recplay_mono_of(const struct recplay *rp, uint64_t real)
{
	return real > rp->h->real ? real - rp->h->real : 0;
}

static int recplay_block(struct recplay *rp, const struct rec_event *ev)
{
	struct recplay_block *b;
	void *p;

	if (RP_GROW(rp->blk, rp->nblk, rp->cblk))
		return -ENOMEM;
	p = realloc(rp->side, rp->cblk * (rp->n ? rp->n : 1) * sizeof(*rp->side));
	if (!p)
		return -ENOMEM;
	rp->side = p;
	memset(&rp->side[rp->nblk * rp->n], 0, rp->n * sizeof(*rp->side));
	b = &rp->blk[rp->nblk];
	b->seq = ev->seq;
	b->real = ev->real;
	b->mono = recplay_mono_of(rp, ev->real);
	if (rp->nblk && b->mono < rp->blk[rp->nblk - 1].mono)
		b->mono = rp->blk[rp->nblk - 1].mono;
	b->n = ev->nrows;
	if (recplay_keep_rows(rp, ev->row, ev->nrows, &b->off))
		return -ENOMEM;
	rp->nblk++;
	return 0;
}

/* Target ev->target's side of the open block, judged again as cli_replay.c judges it. */
static int recplay_verdict(struct recplay *rp, const struct rec_event *ev)
{
	struct recplay_target *t = &rp->t[ev->target];
	const struct rec_target *rt = &rp->h->target[ev->target];
	struct recplay_block *b;
	struct recplay_side *sd;
	const struct rec_row *rows;
	size_t nrows, k;

	/* its block by seq: a line of another thread may have come between them */
	for (k = rp->nblk; k > 0 && rp->nblk - k < RECPLAY_BLOCK_BACK; k--)
		if (rp->blk[k - 1].seq == ev->seq)
			break;
	if (!k || rp->blk[k - 1].seq != ev->seq)
		return 0; /* a verdict outside a block: nothing to judge it on */
	b = &rp->blk[k - 1];
	sd = &rp->side[(k - 1) * rp->n + ev->target];
	if (sd->have)
		return 0; /* a second verdict of one target in one block (damage): the first stays */
	if (ev->own_rows) {
		if (recplay_keep_rows(rp, ev->row, ev->nrows, &sd->off))
			return -ENOMEM;
		sd->n = ev->nrows;
	} else {
		sd->off = b->off;
		sd->n = b->n;
	}
	rows = &rp->rows[sd->off];
	nrows = sd->n;
	recread_judge(&t->vh, &t->vp, rt, rows, nrows, &ev->probe, &sd->v);
	sd->probe = t->vp;
	sd->have = true;
	return 0;
}

static int recplay_warning(struct recplay *rp, const struct rec_event *ev)
{
	struct recplay_warn *w;
	size_t n;

	if (RP_GROW(rp->warn, rp->nwarn, rp->cwarn))
		return -ENOMEM;
	w = &rp->warn[rp->nwarn++];
	w->mono = recplay_mono_of(rp, ev->real);
	if (rp->nwarn > 1 && w->mono < rp->warn[rp->nwarn - 2].mono)
		w->mono = rp->warn[rp->nwarn - 2].mono;
	w->target = ev->target_or_run;
	n = strnlen(ev->text, sizeof(w->text) - 1);
	memcpy(w->text, ev->text, n);
	w->text[n] = '\0';
	return 0;
}

int recplay_add(struct recplay *rp, const struct rec_event *ev)
{
	bool targeted = ev->kind == REC_PERIOD || ev->kind == REC_REQUEST ||
			ev->kind == REC_VERDICT;

	if (targeted && ev->target >= rp->n)
		return 0; /* recread checks it; never trust it twice */
	switch (ev->kind) {
	case REC_PERIOD:
		return recplay_period(rp, ev);
	case REC_REQUEST:
		return recplay_request(rp, ev);
	case REC_IOSTAT:
		return recplay_block(rp, ev);
	case REC_VERDICT:
		return recplay_verdict(rp, ev);
	case REC_WARNING:
	case REC_FAILURE:
		return recplay_warning(rp, ev);
	case REC_HEADER:
	case REC_SUMMARY:
	case REC_END:
	case REC_SKIPPED:
	case REC_STEP: /* a sweep's table: its periods are the steps' */
	case REC_KNEE:
		break;
	}
	return 0;
}

static int recplay_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int recplay_finish(struct recplay *rp)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < rp->n; i++)
		total += rp->t[i].nper;
	free(rp->stops);
	rp->stops = malloc((total ? total : 1) * sizeof(*rp->stops));
	rp->nstops = 0;
	if (!rp->stops)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n; i++)
		for (size_t j = 0; j < rp->t[i].nper; j++)
			rp->stops[k++] = rp->t[i].per[j].mono;
	qsort(rp->stops, total, sizeof(*rp->stops), recplay_cmp_u64);
	for (size_t j = 0; j < total; j++)
		if (!rp->nstops || rp->stops[rp->nstops - 1] != rp->stops[j])
			rp->stops[rp->nstops++] = rp->stops[j];
	return 0;
}

/* ---- positions ---- */

/* How many of the n ascending uint64_t at base + j * stride + off are <= t (bisection). */
static size_t recplay_upper(const void *base, size_t n, size_t stride, size_t off, uint64_t t)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v;

		memcpy(&v, b + mid * stride + off, sizeof(v));
		if (v <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t recplay_count(const struct recplay *rp, size_t i, uint64_t t)
{
	return recplay_upper(rp->t[i].per, rp->t[i].nper, sizeof(struct recplay_period),
			     offsetof(struct recplay_period, mono), t);
}

size_t recplay_blocks(const struct recplay *rp, uint64_t t)
{
	return recplay_upper(rp->blk, rp->nblk, sizeof(struct recplay_block),
			     offsetof(struct recplay_block, mono), t);
}

size_t recplay_warnings(const struct recplay *rp, uint64_t t)
{
	return recplay_upper(rp->warn, rp->nwarn, sizeof(struct recplay_warn),
			     offsetof(struct recplay_warn, mono), t);
}

size_t recplay_stop_index(const struct recplay *rp, uint64_t t)
{
	return recplay_upper(rp->stops, rp->nstops, sizeof(uint64_t), 0, t);
}

uint64_t recplay_real_at(const struct recplay *rp, uint64_t t)
{
	uint64_t real = rp->h->real, best = 0;
	bool found = false;

	for (size_t i = 0; i < rp->n; i++) {
		size_t k = recplay_count(rp, i, t);
		const struct recplay_period *p;

		if (!k)
			continue;
		p = &rp->t[i].per[k - 1];
		if (!found || p->mono > best || (p->mono == best && p->real > real)) {
			best = p->mono;
			real = p->real;
			found = true;
		}
	}
	return real;
}

/* ---- the cursor ---- */

unsigned recplay_speed_factor(unsigned s)
{
	return recplay_factors[s < RECPLAY_SPEEDS ? s : RECPLAY_SPEEDS - 1];
}

void recplay_cursor_init(struct recplay_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

static uint64_t recplay_last(const struct recplay *rp)
{
	return rp->nstops ? rp->stops[rp->nstops - 1] : 0;
}

bool recplay_cursor_advance(struct recplay_cursor *c, const struct recplay *rp, uint64_t dt)
{
	uint64_t last = recplay_last(rp), f = recplay_speed_factor(c->speed), t;

	if (c->paused || !dt)
		return false;
	if (c->t >= last) {
		c->paused = c->at_end = true;
		return false;
	}
	t = dt > (last - c->t) / f ? last : c->t + dt * f;
	c->t = t;
	if (t >= last)
		c->paused = c->at_end = true;
	return true;
}

bool recplay_cursor_step(struct recplay_cursor *c, const struct recplay *rp, int dir)
{
	size_t k = recplay_stop_index(rp, c->t); /* stops[0 .. k) are <= t */
	uint64_t t = c->t;

	c->paused = true;
	c->at_end = false;
	if (dir > 0 && k < rp->nstops)
		t = rp->stops[k];
	else if (dir < 0 && k && rp->stops[k - 1] == c->t)
		t = k >= 2 ? rp->stops[k - 2] : 0;
	else if (dir < 0 && k)
		t = rp->stops[k - 1]; /* between stops: back to the one shown */
	if (t == c->t)
		return false;
	c->t = t;
	return true;
}

void recplay_cursor_jump(struct recplay_cursor *c, const struct recplay *rp, bool end)
{
	c->paused = true;
	c->at_end = false;
	if (!rp->nstops)
		c->t = 0;
	else
		c->t = end ? rp->stops[rp->nstops - 1] : rp->stops[0];
}
