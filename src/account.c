#include "config.h"

#include "account.h"

#include <string.h>

static void tally_init(struct tally *t)
{
	memset(t, 0, sizeof(*t));
	stats_init(&t->valid);
}

void account_init(struct account *a, const struct account_cfg *cfg)
{
	a->cfg = *cfg;
	tally_init(&a->period);
	tally_init(&a->total);
	stats_init(&a->read);
	stats_init(&a->write);
}

static void tally_count(struct account *a, uint64_t *period_field, uint64_t *total_field)
{
	a->period.requests++;
	a->total.requests++;
	if (period_field) {
		(*period_field)++;
		(*total_field)++;
	}
}

enum notice account_add(struct account *a, const struct sample *s)
{
	struct stats *p = &a->period.valid;
	uint64_t avg;

	if (s->result < 0) {
		tally_count(a, &a->period.failed, &a->total.failed);
		return NOTICE_ERROR;
	}
	if (s->result == 0)
		return NOTICE_EMPTY;
	if (s->request <= a->cfg.warmup) {
		tally_count(a, NULL, NULL);
		return NOTICE_WARMUP;
	}
	if (s->time < a->cfg.min_time) {
		tally_count(a, &a->period.too_fast, &a->total.too_fast);
		return NOTICE_TOO_FAST;
	}
	if (s->time > a->cfg.max_time) {
		tally_count(a, &a->period.too_slow, &a->total.too_slow);
		return NOTICE_TOO_SLOW;
	}
	tally_count(a, NULL, NULL);
	stats_add(p, s->time);
	stats_add(&a->total.valid, s->time);
	if (a->cfg.split)
		stats_add(s->op == OP_WRITE ? &a->write : &a->read, s->time);

	/* ioping 1.3: from the 6th valid request of a period, against 2x its integer mean */
	if (p->count <= 5)
		return NOTICE_NONE;
	avg = p->sum / p->count;
	if (s->time * 2 < avg)
		return NOTICE_FAST;
	if (s->time > 2 * avg)
		return NOTICE_SLOW;
	return NOTICE_NONE;
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
