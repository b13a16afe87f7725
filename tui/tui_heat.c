#include "config.h"

#include "tui_heat.h"

#include <math.h>
#include <string.h>

#include "stats.h"
#include "tui_graph.h"

/* The stats.h bucket index of bin 0's first bucket. */
static size_t tui_heat_base(void)
{
	return stats_bucket_index(TUI_HEAT_LO_NS) / TUI_HEAT_FOLD;
}

int tui_heat_bin(uint64_t ns)
{
	size_t i = stats_bucket_index(ns) / TUI_HEAT_FOLD, base = tui_heat_base();

	if (i < base)
		return 0;
	if (i - base >= TUI_HEAT_BINS)
		return TUI_HEAT_BINS - 1;
	return (int)(i - base);
}

uint64_t tui_heat_bin_low(int b)
{
	if (b < 0)
		b = 0;
	return stats_bucket_low((tui_heat_base() + (size_t)b) * TUI_HEAT_FOLD);
}

uint64_t tui_heat_bin_high(int b)
{
	if (b >= TUI_HEAT_BINS)
		b = TUI_HEAT_BINS - 1;
	return stats_bucket_high((tui_heat_base() + (size_t)b) * TUI_HEAT_FOLD +
				 TUI_HEAT_FOLD - 1);
}

void tui_heat_ring_init(struct tui_heat_ring *r, uint64_t width)
{
	memset(r, 0, sizeof(*r));
	r->width = width ? width : 1;
}

void tui_heat_ring_add_n(struct tui_heat_ring *r, uint64_t end, uint64_t ns, uint64_t n)
{
	uint64_t id = end / r->width;
	struct tui_heat_slot *s = &r->s[id % TUI_HEAT_SLOTS];
	int b = tui_heat_bin(ns);

	if (s->tag != id + 1) {
		memset(s, 0, sizeof(*s));
		s->tag = id + 1;
	}
	s->n[b] = n > UINT32_MAX - s->n[b] ? UINT32_MAX : s->n[b] + (uint32_t)n;
}

void tui_heat_ring_add(struct tui_heat_ring *r, uint64_t end, uint64_t ns)
{
	tui_heat_ring_add_n(r, end, ns, 1);
}

int tui_heat_ring_sum(const struct tui_heat_ring *r, uint64_t t0, uint64_t t1, uint64_t now,
		      double *out)
{
	uint64_t w = r->width, id0 = (t0 + w - 1) / w, id1 = (t1 + w - 1) / w, cur = now / w;
	uint64_t oldest = cur >= TUI_HEAT_SLOTS ? cur - (TUI_HEAT_SLOTS - 1) : 0;
	int n = 0;

	memset(out, 0, sizeof(*out) * TUI_HEAT_BINS);
	if (id0 >= id1) { /* narrower than a slot: the one holding t0 */
		id0 = t0 / w;
		id1 = id0 + 1;
	}
	if (id0 < oldest)
		id0 = oldest;
	if (id1 > cur + 1)
		id1 = cur + 1;
	for (uint64_t id = id0; id < id1; id++) {
		const struct tui_heat_slot *s = &r->s[id % TUI_HEAT_SLOTS];

		n++;
		if (s->tag != id + 1)
			continue;
		for (int b = 0; b < TUI_HEAT_BINS; b++)
			out[b] += s->n[b];
	}
	return n;
}

int tui_heat_pct_bin(const double *bins, double p)
{
	double total = 0, rank, seen = 0;

	for (int b = 0; b < TUI_HEAT_BINS; b++)
		total += bins[b];
	if (!total)
		return -1;
	rank = p / 100.0 * total;
	if (rank < 1e-9 * total)
		rank = 1e-9 * total;
	for (int b = 0; b < TUI_HEAT_BINS; b++) {
		seen += bins[b];
		if (seen >= rank * (1 - 1e-12))
			return b;
	}
	return TUI_HEAT_BINS - 1;
}

int tui_heat_row(const struct tui_scale *sc, int rows, uint64_t ns)
{
	int l = tui_graph_level(sc, ns, rows);

	if (l >= rows)
		l = rows - 1;
	return rows - 1 - l;
}

void tui_heat_fold(const double *bins, const struct tui_scale *sc, int rows, double *out)
{
	for (int r = 0; r < rows; r++)
		out[r] = 0;
	if (rows <= 0)
		return;
	for (int b = 0; b < TUI_HEAT_BINS; b++) {
		uint64_t lo = tui_heat_bin_low(b), hi = tui_heat_bin_high(b);

		if (bins[b])
			out[tui_heat_row(sc, rows, lo + (hi - lo) / 2)] += bins[b];
	}
}

int tui_heat_shade(double count, double max, int levels)
{
	int l;

	if (count <= 0 || levels < 2)
		return 0;
	if (max <= count || levels == 2)
		return levels - 1;
	/* log scale from 1 request (or less: a rate) to max */
	l = 1 + (int)floor((double)(levels - 2) * log1p(count) / log1p(max) + 0.5);
	if (l >= levels)
		l = levels - 1;
	return l < 1 ? 1 : l;
}

int tui_heat_column(const double *bins, const struct tui_scale *sc, int rows, double *out)
{
	int p99 = tui_heat_pct_bin(bins, 99);
	uint64_t lo, hi;

	tui_heat_fold(bins, sc, rows, out);
	if (p99 < 0 || rows <= 0)
		return -1;
	lo = tui_heat_bin_low(p99);
	hi = tui_heat_bin_high(p99);
	return tui_heat_row(sc, rows, lo + (hi - lo) / 2);
}

void tui_heat_compose(const double *rowv, const int *p99, int width, int height,
		      enum tui_heat_ramp ramp, struct tui_cell *plot)
{
	int levels = ramp == TUI_HEAT_CHARS ? TUI_HEAT_CHAR_LEVELS : TUI_HEAT_COLOUR_LEVELS;
	double max = 0;

	for (int i = 0; i < width * height; i++) {
		plot[i] = (struct tui_cell){ ' ', TUI_CLS_EMPTY };
		if (rowv[i] > max)
			max = rowv[i];
	}
	for (int x = 0; x < width; x++) {
		for (int r = 0; r < height; r++) {
			int l = tui_heat_shade(rowv[x * height + r], max, levels);
			struct tui_cell *cell = &plot[r * width + x];

			if (!l)
				continue;
			if (ramp == TUI_HEAT_CHARS)
				*cell = (struct tui_cell){ (uint32_t)TUI_HEAT_RAMP[l], TUI_CLS_HEAT };
			else
				*cell = (struct tui_cell){ 0x2588, (uint8_t)(TUI_CLS_HEAT + l) };
		}
		if (p99[x] >= 0 && p99[x] < height) {
			struct tui_cell *cell = &plot[p99[x] * width + x];

			if (cell->cls == TUI_CLS_EMPTY || ramp == TUI_HEAT_COLOURS)
				cell->ch = ramp == TUI_HEAT_CHARS ? '~' : 0x2500;
			cell->cls = TUI_CLS_P99;
		}
	}
}

void tui_heat_hist(const double *bins, int rows, struct tui_hist *out)
{
	int first = -1, last = -1, k, p[3];
	static const unsigned mk[3] = { TUI_HIST_P50, TUI_HIST_P99, TUI_HIST_P999 };
	static const double pv[3] = { 50, 99, 99.9 };

	memset(out, 0, sizeof(*out));
	if (rows > TUI_HEAT_HIST_MAX)
		rows = TUI_HEAT_HIST_MAX;
	if (rows < 1)
		return;
	for (int b = 0; b < TUI_HEAT_BINS; b++) {
		if (!bins[b])
			continue;
		if (first < 0)
			first = b;
		last = b;
		out->total += (uint64_t)llround(bins[b]);
	}
	if (first < 0)
		return;
	k = (last - first + rows) / rows; /* bins per row: ceil(span / rows) */
	for (int i = 0; i < 3; i++)
		p[i] = tui_heat_pct_bin(bins, pv[i]);
	for (int b = first; b <= last; b++) {
		struct tui_hist_row *r = &out->r[(b - first) / k];

		if ((b - first) % k == 0) {
			r->lo = tui_heat_bin_low(b);
			out->nrows++;
		}
		r->hi = tui_heat_bin_high(b);
		r->n += (uint64_t)llround(bins[b]);
		for (int i = 0; i < 3; i++)
			if (p[i] == b)
				r->marks |= mk[i];
	}
	for (int i = 0; i < out->nrows; i++)
		if (out->r[i].n > out->max)
			out->max = out->r[i].n;
}
