/*
 * tui_qlive: the --qualify view's live window and progress (tui_qlive.h).
 * Pure: no curses, no clocks, no I/O.
 */
#include "config.h"

#include "tui_qlive.h"

#include "common.h"

#include <stdlib.h>
#include <string.h>

void tui_qlive_init(struct tui_qlive *q)
{
	memset(q, 0, sizeof(*q));
}

void tui_qlive_add(struct tui_qlive *q, uint64_t end, uint64_t lat, bool write)
{
	q->end[q->head] = end;
	q->lat[q->head] = lat;
	q->write[q->head] = write;
	q->head = (q->head + 1) % TUI_QLIVE_N;
	if (q->n < TUI_QLIVE_N)
		q->n++;
	q->requests++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank percentile p (0 .. 100) of v[0 .. n), sorted. */
static uint64_t qlive_pct(const uint64_t *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return 0;
	k = (size_t)(p / 100.0 * (double)n + 0.999999);
	k = k < 1 ? 1 : k > n ? n : k;
	return v[k - 1];
}

/* One direction's figures: which 0 reads, 1 writes, 2 all. */
static void qlive_fig(struct tui_qlive *q, uint64_t now, uint64_t span, int which,
		      struct tui_qlive_fig *f)
{
	uint64_t *v = q->scratch;
	uint64_t from = now > span ? now - span : 0, oldest = UINT64_MAX;
	size_t n = 0;
	bool all_in = q->n == TUI_QLIVE_N;

	for (size_t i = 0; i < q->n; i++) {
		size_t at = (q->head + TUI_QLIVE_N - 1 - i) % TUI_QLIVE_N;

		if (q->end[at] <= from || q->end[at] > now) {
			if (q->end[at] <= from)
				all_in = false;
			continue;
		}
		oldest = q->end[at] < oldest ? q->end[at] : oldest;
		if (which == 2 || q->write[at] == (which == 1))
			v[n++] = q->lat[at];
	}
	memset(f, 0, sizeof(*f));
	f->n = n;
	if (!n)
		return;
	/* a full ring inside the window: the rate over the part it covers */
	f->rate = (double)n * NS_PER_S / (double)(all_in && now > oldest ? now - oldest : span);
	qsort(v, n, sizeof(v[0]), cmp_u64);
	f->p50 = qlive_pct(v, n, 50);
	f->p99 = qlive_pct(v, n, 99);
}

void tui_qlive_window(struct tui_qlive *q, uint64_t now, uint64_t span,
		      struct tui_qlive_fig *all, struct tui_qlive_fig *rd, struct tui_qlive_fig *wr)
{
	if (all)
		qlive_fig(q, now, span, 2, all);
	if (rd)
		qlive_fig(q, now, span, 0, rd);
	if (wr)
		qlive_fig(q, now, span, 1, wr);
}

double tui_qlive_progress(uint64_t elapsed, uint64_t deadline, uint64_t requests,
			  uint64_t count, uint64_t *left_ns)
{
	double by_time = deadline ? (double)elapsed / (double)deadline : 0;
	double by_count = count ? (double)requests / (double)count : 0;
	uint64_t left = UINT64_MAX;

	if (deadline)
		left = elapsed < deadline ? deadline - elapsed : 0;
	if (count && requests && elapsed) {
		double rest = requests < count ? (double)(count - requests) * (double)elapsed /
						 (double)requests : 0;

		if (rest < (double)left)
			left = (uint64_t)rest;
	}
	if (by_count > by_time)
		by_time = by_count;
	if (left_ns)
		*left_ns = left;
	return by_time > 1 ? 1 : by_time;
}
