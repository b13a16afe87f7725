#include "config.h"

#include "account.h"

#include "common.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

const struct pcts pcts_default = { TALLY_PCTS, { 50, 90, 99, 99.9 } };

char *pcts_label(double p, char *buf, size_t len)
{
	snprintf(buf, len, "p%g", p);
	return buf;
}

char *pcts_key(double p, char *buf, size_t len)
{
	char t[32], *o = buf;

	snprintf(t, sizeof(t), "p%g", p);
	for (const char *c = t; *c && (size_t)(o - buf) + 1 < len; c++)
		if (*c != '.')
			*o++ = *c;
	if (len)
		*o = '\0';
	return buf;
}

void tally_init(struct tally *t)
{
	memset(t, 0, sizeof(*t));
	stats_init(&t->valid);
	stats_init(&t->response);
}

void tally_add(struct tally *t, const struct sample *s, enum notice n)
{
	switch (n) {
	case NOTICE_EMPTY:
		return;
	case NOTICE_ERROR:
		t->failed++;
		break;
	case NOTICE_TOO_FAST:
		t->too_fast++;
		break;
	case NOTICE_TOO_SLOW:
		t->too_slow++;
		break;
	case NOTICE_WARMUP:
		break;
	case NOTICE_NONE:
	case NOTICE_FAST:
	case NOTICE_SLOW:
		stats_add(&t->valid, s->time);
		stats_add(&t->response, s->response);
		break;
	}
	t->requests++;
}

void tally_add_skipped(struct tally *t, uint64_t hi, uint64_t step, uint64_t n)
{
	stats_add_series(&t->response, hi, step, n);
}

void tally_merge(struct tally *dst, const struct tally *src)
{
	stats_merge(&dst->valid, &src->valid);
	stats_merge(&dst->response, &src->response);
	dst->requests += src->requests;
	dst->too_fast += src->too_fast;
	dst->too_slow += src->too_slow;
	dst->failed += src->failed;
	dst->skipped += src->skipped;
	dst->wall += src->wall;
}

double tally_iops(const struct tally *t)
{
	return t->valid.sum ? (double)t->valid.count * NS_PER_S / (double)t->valid.sum : 0;
}

double tally_load_iops(const struct tally *t)
{
	return t->wall ? (double)t->requests * NS_PER_S / (double)t->wall : 0;
}

void account_init(struct account *a, const struct account_cfg *cfg)
{
	a->cfg = *cfg;
	tally_init(&a->period);
	tally_init(&a->total);
	stats_init(&a->read);
	stats_init(&a->write);
}

/* The notice of one request (ioping 1.3's rules), before it is counted. */
static enum notice account_classify(const struct account *a, const struct sample *s)
{
	const struct stats *p = &a->period.valid;
	uint64_t avg, sum;

	if (s->result < 0)
		return NOTICE_ERROR;
	if (s->result == 0)
		return NOTICE_EMPTY;
	if (s->request <= a->cfg.warmup)
		return NOTICE_WARMUP;
	if (s->time < a->cfg.min_time)
		return NOTICE_TOO_FAST;
	if (s->time > a->cfg.max_time)
		return NOTICE_TOO_SLOW;
	/* ioping 1.3: from the 6th valid request of a period (this one included), against 2x
	 * the integer mean including it */
	if (p->count + 1 <= 5)
		return NOTICE_NONE;
	sum = p->sum + s->time;
	if (sum < p->sum)
		sum = UINT64_MAX; /* stats' sum saturates */
	avg = sum / (p->count + 1);
	if (s->time * 2 < avg)
		return NOTICE_FAST;
	if (s->time > 2 * avg)
		return NOTICE_SLOW;
	return NOTICE_NONE;
}

enum notice account_add(struct account *a, const struct sample *s)
{
	enum notice n = account_classify(a, s);

	tally_add(&a->period, s, n);
	tally_add(&a->total, s, n);
	if (a->cfg.split && (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW))
		stats_add(s->op == OP_WRITE ? &a->write : &a->read, s->time);
	return n;
}

void account_add_skipped(struct account *a, uint64_t hi, uint64_t step, uint64_t n)
{
	tally_add_skipped(&a->period, hi, step, n);
	tally_add_skipped(&a->total, hi, step, n);
}

void account_period_end(struct account *a, uint64_t wall, uint64_t skipped, struct tally *out)
{
	a->period.wall = wall;
	a->period.skipped = skipped;
	if (out)
		*out = a->period;
	tally_init(&a->period);
}

const char *account_notice_text(enum notice n)
{
	switch (n) {
	case NOTICE_WARMUP: return "warmup";
	case NOTICE_TOO_FAST: return "too fast";
	case NOTICE_TOO_SLOW: return "too slow";
	case NOTICE_FAST: return "fast";
	case NOTICE_SLOW: return "slow";
	default: return NULL;
	}
}
