/*
 * htmlreport: the run drawn as one HTML file (see htmlreport.h). The
 * accumulating half folds periods and device blocks into bounded columns;
 * the writing half draws them as inline SVG with a time axis shared by every
 * plot of the report.
 */
#include "config.h"

#include "htmlreport.h"
#include "common.h"
#include "htmlreport_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- accumulating ---- */

int hr_init(struct hr_run *r, size_t n)
{
	r->n = n;
	r->t = calloc(n ? n : 1, sizeof(*r->t));
	if (!r->t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct hr_target *t = &r->t[i];

		t->col = calloc(HR_COLS, sizeof(*t->col));
		t->dev = calloc(HR_DEVS, sizeof(*t->dev));
		if (!t->col || !t->dev) {
			hr_free(r);
			return -ENOMEM;
		}
		t->fold = 1;
		t->knee = t->best = t->limit = -1;
		tally_init(&t->total);
		t->path = t->fstype = t->device = "";
	}
	return 0;
}

void hr_free(struct hr_run *r)
{
	for (size_t i = 0; r->t && i < r->n; i++) {
		free(r->t[i].col);
		free(r->t[i].dev);
		free(r->t[i].steps);
		free(r->t[i].conclusions);
	}
	free(r->t);
	r->t = NULL;
	r->n = 0;
}

size_t hr_fine_row(uint64_t ns)
{
	double fr;

	if (ns < (1ull << HR_LO_SHIFT))
		return 0;
	fr = floor(log2((double)ns) * HR_SUB) - HR_LO_SHIFT * HR_SUB;
	if (fr < 0)
		return 0;
	if (fr >= HR_FINE)
		return HR_FINE - 1;
	return (size_t)fr;
}

uint64_t hr_fine_low(size_t row)
{
	return (uint64_t)ceil(exp2((double)(row + HR_LO_SHIFT * HR_SUB) / HR_SUB));
}

/* The fine row of ns as a fraction (for positions on a log axis). */
static double hr_fine_pos(uint64_t ns)
{
	double fr = log2((double)(ns ? ns : 1)) * HR_SUB - HR_LO_SHIFT * HR_SUB;

	return fr < 0 ? 0 : fr > HR_FINE ? HR_FINE : fr;
}

static void hr_col_merge(struct hr_col *dst, const struct hr_col *src)
{
	if (!dst->periods)
		dst->t0 = src->t0;
	dst->t1 = src->t1;
	dst->periods += src->periods;
	dst->requests += src->requests;
	dst->skipped += src->skipped;
	for (size_t k = 0; k < HR_FINE; k++)
		dst->fine[k] += src->fine[k];
}

void hr_period(struct hr_run *r, size_t i, uint64_t end, const struct tally *t)
{
	struct hr_target *tg;
	struct hr_col *a;

	if (i >= r->n)
		return;
	tg = &r->t[i];
	a = &tg->acc;
	if (!a->periods)
		a->t0 = end > t->wall ? end - t->wall : 0;
	a->t1 = end;
	a->periods++;
	a->requests += t->requests;
	a->skipped += t->skipped;
	for (size_t k = 0; k < STATS_BUCKETS && t->valid.count; k++)
		if (t->valid.hist[k]) {
			uint64_t lo = stats_bucket_low(k), hi = stats_bucket_high(k);

			a->fine[hr_fine_row(lo + (hi - lo) / 2)] += t->valid.hist[k];
		}
	if (a->periods < tg->fold)
		return;
	if (tg->ncols == HR_COLS) { /* fold neighbours: a column covers twice as long */
		for (size_t j = 0; j < HR_COLS / 2; j++) {
			struct hr_col m = tg->col[2 * j];

			hr_col_merge(&m, &tg->col[2 * j + 1]);
			tg->col[j] = m;
		}
		memset(&tg->col[HR_COLS / 2], 0, (HR_COLS / 2) * sizeof(tg->col[0]));
		tg->ncols = HR_COLS / 2;
		tg->fold *= 2;
		if (a->periods < tg->fold)
			return;
	}
	tg->col[tg->ncols++] = *a;
	memset(a, 0, sizeof(*a));
}

/* The metrics of a row in the order drawn. */
static void hr_row_values(const struct iostat_row *row, double *v)
{
	v[0] = row->r_s;
	v[1] = row->w_s;
	v[2] = row->f_s;
	v[3] = row->avgrq_sz / 2; /* sectors -> kB */
	v[4] = row->aqu_sz;
	v[5] = row->await;
	v[6] = row->util;
}

/* How bad a state reads, for folding: the worst of a point's blocks is drawn. */
static int hr_state_rank(int s)
{
	static const int rank[HR_STATES] = { 0, 1, 4, 2, 3 };

	return s >= 0 && s < HR_STATES ? rank[s] : 0;
}

static void hr_pt_merge(struct hr_devpt *dst, const struct hr_devpt *src)
{
	if (!dst->n) {
		dst->t0 = src->t0;
		dst->state = src->state;
	}
	dst->t1 = src->t1;
	for (size_t m = 0; m < HR_METRICS; m++)
		dst->v[m] += src->v[m];
	dst->n += src->n;
	if (hr_state_rank(src->state) > hr_state_rank(dst->state))
		dst->state = src->state;
}

void hr_device(struct hr_run *r, size_t i, uint64_t end, uint64_t interval, const char *name,
	       const struct iostat_row *row, enum verdict_state state)
{
	struct hr_target *tg;
	struct hr_dev *d = NULL;
	struct hr_devpt one = { 0 };

	if (i >= r->n || !name)
		return;
	tg = &r->t[i];
	for (size_t k = 0; k < tg->ndev && !d; k++)
		if (!strcmp(tg->dev[k].name, name))
			d = &tg->dev[k];
	if (!d) {
		if (tg->ndev == HR_DEVS)
			return;
		d = &tg->dev[tg->ndev++];
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->fold = 1;
	}
	one.t0 = end > interval ? end - interval : 0;
	one.t1 = end;
	one.n = 1;
	one.state = (int)state;
	hr_row_values(row, one.v);
	hr_pt_merge(&d->acc, &one);
	if (d->acc.n < d->fold)
		return;
	if (d->npts == HR_DEV_PTS) {
		for (size_t j = 0; j < HR_DEV_PTS / 2; j++) {
			struct hr_devpt m = d->pt[2 * j];

			hr_pt_merge(&m, &d->pt[2 * j + 1]);
			d->pt[j] = m;
		}
		d->npts = HR_DEV_PTS / 2;
		d->fold *= 2;
		if (d->acc.n < d->fold)
			return;
	}
	d->pt[d->npts++] = d->acc;
	memset(&d->acc, 0, sizeof(d->acc));
}

void hr_verdict(struct hr_run *r, size_t i, enum verdict_state state)
{
	if (i < r->n && (unsigned)state < HR_STATES)
		r->t[i].states[state]++;
}

void hr_total(struct hr_run *r, size_t i, const struct tally *t)
{
	if (i >= r->n)
		return;
	r->t[i].total = *t;
	r->t[i].have_total = true;
}

/* ---- writing ---- */


static const char *const hr_metric_name[HR_METRICS] = {
	"r/s", "w/s", "f/s", "areq-sz", "aqu-sz", "await", "%util",
};
static const char *const hr_metric_unit[HR_METRICS] = {
	"r/s (1/s)", "w/s (1/s)", "f/s (1/s)", "areq-sz (kB)", "aqu-sz (requests)",
	"await (ms)", "%util (%)",
};
static const char *const hr_state_class[HR_STATES] = {
	"none", "keeps-up", "falls-short", "other-io", "queue-building",
};



/* The columns of tg, the open one last; their count. */
static size_t hr_cols(const struct hr_target *tg, const struct hr_col **out)
{
	size_t n = 0;

	for (size_t k = 0; k < tg->ncols; k++)
		out[n++] = &tg->col[k];
	if (tg->acc.periods)
		out[n++] = &tg->acc;
	return n;
}

static size_t hr_pts(const struct hr_dev *d, struct hr_devpt *out)
{
	size_t n = 0;

	for (size_t k = 0; k < d->npts; k++)
		out[n++] = d->pt[k];
	if (d->acc.n)
		out[n++] = d->acc;
	for (size_t k = 0; k < n; k++)
		for (size_t m = 0; m < HR_METRICS; m++)
			out[k].v[m] /= (double)out[k].n;
	return n;
}

/* The run's time span in ns: the last column's or device point's end. */
static uint64_t hr_span(const struct hr_run *r)
{
	uint64_t span = 1;

	for (size_t i = 0; i < r->n; i++) {
		const struct hr_target *tg = &r->t[i];

		for (size_t k = 0; k < tg->ncols; k++)
			span = tg->col[k].t1 > span ? tg->col[k].t1 : span;
		span = tg->acc.t1 > span ? tg->acc.t1 : span;
		for (size_t d = 0; d < tg->ndev; d++) {
			for (size_t k = 0; k < tg->dev[d].npts; k++)
				span = tg->dev[d].pt[k].t1 > span ? tg->dev[d].pt[k].t1 : span;
			span = tg->dev[d].acc.t1 > span ? tg->dev[d].acc.t1 : span;
		}
	}
	return span;
}

static double hr_x(uint64_t t, uint64_t span, double x0, double x1)
{
	return x0 + (double)t / (double)span * (x1 - x0);
}

/* A 1-2-5 step giving at most max ticks over range. */
static double hr_step(double range, int max)
{
	double mag = pow(10, floor(log10(range > 0 ? range : 1)));
	static const double m[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10 };

	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++)
		if (range / (m[k] * mag) <= max)
			return m[k] * mag;
	return 10 * mag;
}

/* The time axis under a plot at y: ticks in s and its label. */
static void hr_time_axis(struct sbuf *sb, uint64_t span, double x0, double x1, double y,
			 double top)
{
	double s = span / NS_PER_S, step = hr_step(s, 10);

	sbuf_printf(sb, "<g class=\"axis x\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		    x0, y, x1, y);
	for (double v = 0; v <= s * 1.0000001; v += step) {
		double x = hr_x((uint64_t)(v * NS_PER_S), span, x0, x1);

		sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>",
			    x, top, x, y, x, y + 14, v);
	}
	sbuf_printf(sb, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		    "time since start (s)</text></g>", (x0 + x1) / 2, y + 30);
}


/* The unit of a log-latency axis up to fine row hi: ms from 1 ms up, else µs. */
static double hr_lat_unit(double hi, const char **name)
{
	bool ms = exp2(hi / HR_SUB + HR_LO_SHIFT) >= 1e6;

	*name = ms ? "ms" : "µs";
	return ms ? 1e6 : 1e3;
}

/*
 * Log-latency ticks (1-2-5 in unit ns) between fine rows lo and hi on a vertical (or
 * horizontal) axis.
 */
static void hr_lat_ticks(struct sbuf *sb, double lo, double hi, bool vertical, double a0,
			 double a1, double cross0, double cross1, double unit)
{
	int decades = (int)((hi - lo) / HR_SUB / log2(10)) + 1;

	for (double dec = 1e1; dec < 1e13; dec *= 10)
		for (int m = 1; m <= 5; m += m == 2 ? 3 : 1) {
			double ns = dec * m, fr = hr_fine_pos((uint64_t)ns), p;

			if ((m != 1 && decades > 3) || fr < lo || fr > hi ||
			    ns < (double)(1ull << HR_LO_SHIFT))
				continue;
			p = a0 + (fr - lo) / (hi - lo) * (a1 - a0);
			if (vertical)
				sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					    "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
					    "text-anchor=\"end\">%g</text>",
					    cross0, p, cross1, p, cross0 - 4, p + 4, ns / unit);
			else
				sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					    "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
					    "text-anchor=\"middle\">%g</text>",
					    p, cross0, p, cross1, p, cross1 + 14, ns / unit);
		}
}

/* The non-empty fine rows' range over cols; false when there are none. */
static bool hr_range(const struct hr_col *const *cols, size_t n, size_t *lo, size_t *hi)
{
	bool any = false;

	*lo = HR_FINE;
	*hi = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t f = 0; f < HR_FINE; f++)
			if (cols[k]->fine[f]) {
				*lo = f < *lo ? f : *lo;
				*hi = f > *hi ? f : *hi;
				any = true;
			}
	return any;
}

/* The p-th percentile of fine counts, as the middle of its row (ns); 0 when empty. */
static uint64_t hr_fine_pct(const uint64_t *fine, double p)
{
	uint64_t total = 0, rank, seen = 0;

	for (size_t f = 0; f < HR_FINE; f++)
		total += fine[f];
	if (!total)
		return 0;
	rank = (uint64_t)ceil(p / 100 * (double)total);
	rank = rank ? rank : 1;
	for (size_t f = 0; f < HR_FINE; f++) {
		seen += fine[f];
		if (seen >= rank)
			return (uint64_t)exp2((f + 0.5 + HR_LO_SHIFT * HR_SUB) / HR_SUB);
	}
	return 0;
}

/*
 * A heatmap of tg in the box (x0, y0)-(x1, y1): columns of cmerge columns,
 * at most maxrows rows; with axes (the big one) or bare (the comparison's).
 */
static void hr_heatmap(struct sbuf *sb, const struct hr_target *tg, uint64_t span, double x0,
		       double y0, double x1, double y1, size_t cmerge, size_t maxrows, bool axes)
{
	const struct hr_col *cols[HR_COLS + 1];
	size_t n = hr_cols(tg, cols), lo, hi, g, nrows, neff;
	uint64_t *grid, maxn = 0;
	struct sbuf p50 = SBUF_INIT, p99 = SBUF_INIT, v50 = SBUF_INIT, v99 = SBUF_INIT;
	double flo, fhi;

	if (!hr_range(cols, n, &lo, &hi)) {
		sbuf_printf(sb, "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\">no valid request</text>",
			    x0 + 10, (y0 + y1) / 2);
		return;
	}
	lo = lo > 0 ? lo - 1 : lo; /* a row of air below and above */
	hi = hi + 1 < HR_FINE ? hi + 1 : hi;
	g = (hi - lo + maxrows) / maxrows;
	lo = lo / g * g;
	nrows = (hi - lo) / g + 1;
	flo = (double)lo;
	fhi = (double)(lo + nrows * g);
	neff = (n + cmerge - 1) / cmerge;
	grid = calloc(neff * nrows + 1, sizeof(*grid));
	if (!grid) {
		sb->error = -ENOMEM;
		return;
	}
	for (size_t k = 0; k < n; k++)
		for (size_t f = lo; f < HR_FINE && f < lo + nrows * g; f++) {
			uint64_t *c = &grid[(k / cmerge) * nrows + (f - lo) / g];

			*c += cols[k]->fine[f];
			maxn = *c > maxn ? *c : maxn;
		}
	if (axes) {
		const char *uname;
		double unit = hr_lat_unit(fhi, &uname);
		char label[64];

		snprintf(label, sizeof(label), "latency (%s, log scale)", uname);
		hr_lat_ticks(sb, flo, fhi, true, y1, y0, x0, x1, unit);
		hr_ylabel(sb, label, x0 - 52, (y0 + y1) / 2);
	}
	for (size_t e = 0; e < neff; e++) {
		const struct hr_col *first = cols[e * cmerge];
		const struct hr_col *last = cols[(e + 1) * cmerge <= n ? (e + 1) * cmerge - 1 : n - 1];
		double cx0 = hr_x(first->t0, span, x0, x1), cx1 = hr_x(last->t1, span, x0, x1);
		uint64_t fine[HR_FINE] = { 0 }, q50, q99;

		for (size_t k = e * cmerge; k < n && k < (e + 1) * cmerge; k++)
			for (size_t f = 0; f < HR_FINE; f++)
				fine[f] += cols[k]->fine[f];
		if (cx1 - cx0 < 0.5)
			cx1 = cx0 + 0.5;
		sbuf_printf(sb, "<g class=\"col\" data-t0=\"%.3f\" data-t1=\"%.3f\">",
			    first->t0 / NS_PER_S, last->t1 / NS_PER_S);
		for (size_t rw = 0; rw < nrows; rw++) {
			uint64_t c = grid[e * nrows + rw];
			int level;
			double ry0, ry1;

			if (!c)
				continue;
			level = (int)ceil(9 * log1p((double)c) / log1p((double)maxn));
			level = level < 1 ? 1 : level > 9 ? 9 : level;
			ry1 = y1 - (double)(rw * g) / (fhi - flo) * (y1 - y0);
			ry0 = y1 - (double)((rw + 1) * g) / (fhi - flo) * (y1 - y0);
			sbuf_printf(sb, "<rect class=\"cell c%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				    "height=\"%.1f\" data-lo=\"%llu\" data-hi=\"%llu\" data-n=\"%llu\"/>",
				    level, cx0, ry0, cx1 - cx0, ry1 - ry0,
				    (unsigned long long)hr_fine_low(lo + rw * g),
				    (unsigned long long)hr_fine_low(lo + (rw + 1) * g),
				    (unsigned long long)c);
		}
		sbuf_puts(sb, "</g>");
		q50 = hr_fine_pct(fine, 50);
		q99 = hr_fine_pct(fine, 99);
		if (q50) {
			double cx = (cx0 + cx1) / 2;

			sbuf_printf(&p50, "%.1f,%.1f ", cx, y1 - (hr_fine_pos(q50) - flo) /
				    (fhi - flo) * (y1 - y0));
			sbuf_printf(&p99, "%.1f,%.1f ", cx, y1 - (hr_fine_pos(q99) - flo) /
				    (fhi - flo) * (y1 - y0));
			sbuf_printf(&v50, "%llu ", (unsigned long long)q50);
			sbuf_printf(&v99, "%llu ", (unsigned long long)q99);
		}
	}
	sbuf_printf(sb, "<polyline class=\"pline p50\" points=\"%s\" data-v=\"%s\"/>"
		    "<polyline class=\"pline p99\" points=\"%s\" data-v=\"%s\"/>",
		    sbuf_str(&p50), sbuf_str(&v50), sbuf_str(&p99), sbuf_str(&v99));
	if (p50.error || p99.error || v50.error || v99.error)
		sb->error = -ENOMEM;
	sbuf_free(&p50);
	sbuf_free(&p99);
	sbuf_free(&v50);
	sbuf_free(&v99);
	free(grid);
}

static void hr_heat_section(struct sbuf *sb, const struct hr_target *tg, size_t i, uint64_t span)
{
	const double y0 = 16, y1 = 300;

	sbuf_printf(sb, "<h3>Latency over time</h3><svg class=\"heatmap\" id=\"heatmap-%zu\" "
		    "viewBox=\"0 0 %.0f 350\" width=\"%.0f\" role=\"img\">", i, W, W);
	sbuf_printf(sb, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
		    X0, y0, X1 - X0, y1 - y0);
	hr_heatmap(sb, tg, span, X0, y0, X1, y1, 1, HR_HEAT_ROWS, true);
	hr_time_axis(sb, span, X0, X1, y1, y0);
	sbuf_puts(sb, "</svg><p class=\"legend\"><span class=\"key heat\"></span> requests "
		  "(stronger colour: more, log scale) <span class=\"key p50\"></span> p50 "
		  "<span class=\"key p99\"></span> p99 per column</p>");
}

static void hr_histogram(struct sbuf *sb, const struct hr_target *tg, size_t i)
{
	const struct stats *s = &tg->total.valid;
	uint64_t fine[HR_FINE] = { 0 }, maxn = 0;
	const double y0 = 16, y1 = 250;
	static const double pc[] = { 50, 99, 99.9 };
	static const char *const pcl[] = { "p50", "p99", "p99.9" };
	static const char *const pcc[] = { "p50", "p99", "p999" };
	size_t lo = HR_FINE, hi = 0;
	double flo, fhi;

	sbuf_printf(sb, "<h3>Latency histogram</h3><svg class=\"histogram\" id=\"histogram-%zu\" "
		    "viewBox=\"0 0 %.0f 300\" width=\"%.0f\" role=\"img\">", i, W, W);
	for (size_t k = 0; k < STATS_BUCKETS && s->count; k++)
		if (s->hist[k]) {
			uint64_t blo = stats_bucket_low(k), bhi = stats_bucket_high(k);

			fine[hr_fine_row(blo + (bhi - blo) / 2)] += s->hist[k];
		}
	for (size_t f = 0; f < HR_FINE; f++)
		if (fine[f]) {
			lo = f < lo ? f : lo;
			hi = f > hi ? f : hi;
			maxn = fine[f] > maxn ? fine[f] : maxn;
		}
	if (!maxn) {
		sbuf_printf(sb, "<text class=\"empty\" x=\"%.1f\" y=\"100\">no valid request</text>"
			    "</svg>", X0 + 10);
		return;
	}
	lo = lo > 0 ? lo - 1 : lo;
	hi = hi + 2 < HR_FINE ? hi + 2 : HR_FINE;
	flo = (double)lo;
	fhi = (double)hi;
	sbuf_printf(sb, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
		    X0, y0, X1 - X0, y1 - y0);
	sbuf_printf(sb, "<g class=\"axis y\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%llu"
		    "</text><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>",
		    X0 - 4, y0 + 4, (unsigned long long)maxn, X0 - 4, y1);
	hr_ylabel(sb, "requests (count)", X0 - 52, (y0 + y1) / 2);
	sbuf_puts(sb, "</g><g class=\"axis x\">");
	{
		const char *uname;
		double unit = hr_lat_unit(fhi, &uname);

		hr_lat_ticks(sb, flo, fhi, false, X0, X1, y0, y1, unit);
		sbuf_printf(sb, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">latency (%s, log scale)</text></g>",
			    (X0 + X1) / 2, y1 + 32, uname);
	}
	for (size_t f = lo; f < hi; f++) {
		double bx0 = X0 + (f - flo) / (fhi - flo) * (X1 - X0);
		double bw = (X1 - X0) / (fhi - flo), bh = (double)fine[f] / maxn * (y1 - y0);

		if (!fine[f])
			continue;
		sbuf_printf(sb, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" data-lo=\"%llu\" data-hi=\"%llu\" data-n=\"%llu\"/>",
			    bx0 + 0.5, y1 - bh, bw - 1 > 0.5 ? bw - 1 : 0.5, bh,
			    (unsigned long long)hr_fine_low(f), (unsigned long long)hr_fine_low(f + 1),
			    (unsigned long long)fine[f]);
	}
	for (size_t k = 0; k < 3; k++) {
		uint64_t v = stats_percentile(s, pc[k]);
		double x = X0 + (hr_fine_pos(v) - flo) / (fhi - flo) * (X1 - X0);

		sbuf_printf(sb, "<line class=\"marker %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" data-ns=\"%llu\"/><text class=\"marker-label %s\" x=\"%.1f\" "
			    "y=\"%.1f\"%s>%s ", pcc[k], x, y0, x, y1, (unsigned long long)v, pcc[k],
			    x > X1 - 120 ? x - 3 : x + 3, y0 + 12 + 13.0 * k,
			    x > X1 - 120 ? " text-anchor=\"end\"" : "", pcl[k]);
		hr_lat(sb, v);
		sbuf_puts(sb, "</text>");
	}
	sbuf_puts(sb, "</svg>");
}

static void hr_pct_row(struct sbuf *sb, const char *name, const struct stats *sv,
		       const struct stats *rs, bool response, uint64_t (*get)(const struct stats *,
									     double), double p)
{
	sbuf_printf(sb, "<tr><th>%s</th><td>", name);
	hr_lat(sb, get(sv, p));
	sbuf_puts(sb, "</td>");
	if (response) {
		sbuf_puts(sb, "<td>");
		hr_lat(sb, get(rs, p));
		sbuf_puts(sb, "</td>");
	}
	sbuf_puts(sb, "</tr>");
}

static uint64_t hr_get_pct(const struct stats *s, double p) { return stats_percentile(s, p); }
static uint64_t hr_get_min(const struct stats *s, double p) { (void)p; return stats_min(s); }
static uint64_t hr_get_max(const struct stats *s, double p) { (void)p; return s->max; }
static uint64_t hr_get_mean(const struct stats *s, double p)
{
	(void)p;
	return (uint64_t)stats_mean(s);
}

static void hr_pct_table(struct sbuf *sb, const struct hr_target *tg, size_t i)
{
	const struct stats *sv = &tg->total.valid, *rs = &tg->total.response;
	bool response = rs->count > 0;
	static const double pc[] = { 50, 90, 99, 99.9 };
	static const char *const pcl[] = { "p50", "p90", "p99", "p99.9" };

	sbuf_printf(sb, "<h3>Percentiles</h3><table class=\"percentiles\" id=\"pct-%zu\"><thead>"
		    "<tr><th></th><th>service (latency)</th>%s</tr></thead><tbody>", i,
		    response ? "<th>response (from the scheduled start)</th>" : "");
	hr_pct_row(sb, "min", sv, rs, response, hr_get_min, 0);
	for (size_t k = 0; k < 4; k++)
		hr_pct_row(sb, pcl[k], sv, rs, response, hr_get_pct, pc[k]);
	hr_pct_row(sb, "max", sv, rs, response, hr_get_max, 0);
	hr_pct_row(sb, "mean", sv, rs, response, hr_get_mean, 0);
	sbuf_printf(sb, "<tr><th>requests</th><td>%llu valid</td>%s</tr></tbody></table>"
		    "<p class=\"counts\">%llu requests, %llu failed, %llu too fast, %llu too slow, "
		    "%llu schedule slots skipped.</p>",
		    (unsigned long long)sv->count, response ? "<td></td>" : "",
		    (unsigned long long)tg->total.requests, (unsigned long long)tg->total.failed,
		    (unsigned long long)tg->total.too_fast, (unsigned long long)tg->total.too_slow,
		    (unsigned long long)tg->total.skipped);
}

static void hr_rate(struct sbuf *sb, const struct hr_run *r, const struct hr_target *tg,
		    size_t i, uint64_t span)
{
	const struct hr_col *cols[HR_COLS + 1];
	size_t n = hr_cols(tg, cols);
	const double y0 = 16, y1 = 220;
	double ymax = r->asked, step;
	struct sbuf pts = SBUF_INIT, vals = SBUF_INIT;
	uint64_t full = 0;

	/* the run's last column can be a short partial period (the probe stopped early in it):
	 * a rate over a few ms is one request's noise, not the run's rate; it is left out when
	 * shorter than half a whole column (its requests still count in the tables) */
	for (size_t k = 0; k < n; k++)
		full = cols[k]->t1 - cols[k]->t0 > full ? cols[k]->t1 - cols[k]->t0 : full;
	if (n > 1 && (cols[n - 1]->t1 - cols[n - 1]->t0) * 2 < full)
		n--;
	for (size_t k = 0; k < n; k++) {
		double wall = (cols[k]->t1 - cols[k]->t0) / NS_PER_S;
		double got = wall > 0 ? cols[k]->requests / wall : 0;
		double sk = wall > 0 ? cols[k]->skipped / wall : 0;

		ymax = got > ymax ? got : ymax;
		ymax = sk > ymax ? sk : ymax;
	}
	ymax = ymax > 0 ? ymax * 1.1 : 1;
	step = hr_step(ymax, 5);
	sbuf_printf(sb, "<h3>Achieved and asked rate</h3><svg class=\"rate\" id=\"rate-%zu\" "
		    "viewBox=\"0 0 %.0f 270\" width=\"%.0f\" role=\"img\">", i, W, W);
	sbuf_printf(sb, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		    "<g class=\"axis y\">", X0, y0, X1 - X0, y1 - y0);
	for (double v = 0; v <= ymax; v += step) {
		double y = y1 - v / ymax * (y1 - y0);

		sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>",
			    X0, y, X1, y, X0 - 4, y + 4, v);
	}
	hr_ylabel(sb, "requests/s", X0 - 52, (y0 + y1) / 2);
	sbuf_puts(sb, "</g>");
	hr_time_axis(sb, span, X0, X1, y1, y0);
	for (size_t k = 0; k < n; k++) {
		double wall = (cols[k]->t1 - cols[k]->t0) / NS_PER_S;
		double got = wall > 0 ? cols[k]->requests / wall : 0;
		double sk = wall > 0 ? cols[k]->skipped / wall : 0;
		double cx0 = hr_x(cols[k]->t0, span, X0, X1), cx1 = hr_x(cols[k]->t1, span, X0, X1);

		sbuf_printf(&pts, "%.1f,%.1f ", (cx0 + cx1) / 2, y1 - got / ymax * (y1 - y0));
		sbuf_printf(&vals, "%.2f ", got);
		if (cols[k]->skipped)
			sbuf_printf(sb, "<rect class=\"skipped\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				    "height=\"%.1f\" data-n=\"%llu\"/>", cx0, y1 - sk / ymax * (y1 - y0),
				    cx1 - cx0 > 0.5 ? cx1 - cx0 : 0.5, sk / ymax * (y1 - y0),
				    (unsigned long long)cols[k]->skipped);
	}
	if (r->asked > 0) {
		double y = y1 - r->asked / ymax * (y1 - y0);

		sbuf_printf(sb, "<line class=\"asked\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "data-v=\"%.2f\"/>", X0, y, X1, y, r->asked);
	}
	sbuf_printf(sb, "<polyline class=\"achieved\" points=\"%s\" data-v=\"%s\"/></svg>",
		    sbuf_str(&pts), sbuf_str(&vals));
	if (pts.error || vals.error)
		sb->error = -ENOMEM;
	sbuf_free(&pts);
	sbuf_free(&vals);
	sbuf_printf(sb, "<p class=\"legend\"><span class=\"key achieved\"></span> achieved "
		    "(requests/s) <span class=\"key asked\"></span> %s "
		    "<span class=\"key skipped\"></span> skipped schedule slots/s</p>",
		    r->asked > 0 ? "asked" : "asked: none (unpaced)");
}

static void hr_device_plot(struct sbuf *sb, const struct hr_dev *d, size_t i, uint64_t span)
{
	struct hr_devpt pts[HR_DEV_PTS + 1];
	size_t n = hr_pts(d, pts);
	const double band = 14, ph = 62, gap = 12, top = 8;
	double h = top + band + gap + HR_METRICS * (ph + gap) + 40;
	double bottom = top + band + gap + HR_METRICS * (ph + gap) - gap;

	sbuf_puts(sb, "<h4>Device ");
	hr_esc(sb, d->name);
	sbuf_printf(sb, "</h4><svg class=\"device\" id=\"dev-%zu-", i);
	hr_esc(sb, d->name);
	sbuf_puts(sb, "\" data-dev=\"");
	hr_esc(sb, d->name);
	sbuf_printf(sb, "\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" role=\"img\">", W, h, W);
	sbuf_printf(sb, "<g class=\"verdicts\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		    "verdict</text>", X0 - 4, top + band - 3);
	for (size_t k = 0; k < n; k++) {
		double x0 = hr_x(pts[k].t0, span, X0, X1), x1 = hr_x(pts[k].t1, span, X0, X1);
		int st = pts[k].state >= 0 && pts[k].state < HR_STATES ? pts[k].state : 0;

		sbuf_printf(sb, "<rect class=\"verdict v-%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" data-state=\"%s\" data-t0=\"%.3f\"/>", hr_state_class[st],
			    x0, top, x1 - x0 > 0.5 ? x1 - x0 : 0.5, band, verdict_state_text(st),
			    pts[k].t0 / NS_PER_S);
	}
	sbuf_puts(sb, "</g>");
	for (size_t m = 0; m < HR_METRICS; m++) {
		double y0 = top + band + gap + m * (ph + gap), y1 = y0 + ph, vmax = 0;

		for (size_t k = 0; k < n; k++)
			vmax = pts[k].v[m] > vmax ? pts[k].v[m] : vmax;
		vmax = vmax > 0 ? vmax * 1.1 : 1;
		sbuf_printf(sb, "<g class=\"metric\" data-metric=\"%s\"><rect class=\"frame\" "
			    "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
			    hr_metric_name[m], X0, y0, X1 - X0, ph);
		sbuf_printf(sb, "<g class=\"axis y\"><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
			    "%.3g</text><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>"
			    "<text class=\"axis-label y\" x=\"%.1f\" y=\"%.1f\">%s</text></g>",
			    X0 - 4, y0 + 10, vmax, X0 - 4, y1, X0 + 6, y0 + 12, hr_metric_unit[m]);
		sbuf_puts(sb, "<polyline class=\"series\" points=\"");
		for (size_t k = 0; k < n; k++)
			sbuf_printf(sb, "%.1f,%.1f ", (hr_x(pts[k].t0, span, X0, X1) +
						    hr_x(pts[k].t1, span, X0, X1)) / 2,
				    y1 - pts[k].v[m] / vmax * ph);
		sbuf_puts(sb, "\" data-v=\"");
		for (size_t k = 0; k < n; k++)
			sbuf_printf(sb, "%.2f ", pts[k].v[m]);
		sbuf_puts(sb, "\"/></g>");
	}
	hr_time_axis(sb, span, X0, X1, bottom, top + band + gap);
	sbuf_puts(sb, "</svg>");
}

static uint64_t hr_blocks(const struct hr_target *tg)
{
	uint64_t n = 0;

	for (size_t s = 0; s < HR_STATES; s++)
		n += tg->states[s];
	return n;
}

/* The verdict share as a bar and words. */
static void hr_share(struct sbuf *sb, const struct hr_target *tg)
{
	uint64_t n = hr_blocks(tg);
	double x = 0;

	if (!n) {
		sbuf_puts(sb, "<span class=\"mute\">no --iostat verdicts</span>");
		return;
	}
	sbuf_puts(sb, "<svg class=\"share\" viewBox=\"0 0 200 14\" width=\"200\">");
	for (size_t s = 0; s < HR_STATES; s++)
		if (tg->states[s]) {
			double w = 200.0 * tg->states[s] / n;

			sbuf_printf(sb, "<rect class=\"verdict v-%s\" x=\"%.1f\" y=\"0\" width=\"%.1f\" "
				    "height=\"14\"/>", hr_state_class[s], x, w);
			x += w;
		}
	sbuf_puts(sb, "</svg><br>");
	for (size_t s = 0; s < HR_STATES; s++)
		if (tg->states[s])
			sbuf_printf(sb, "<span class=\"share-%s\">%s %.0f %%</span> ", hr_state_class[s],
				    verdict_state_text(s), 100.0 * tg->states[s] / n);
}

static void hr_target_name(struct sbuf *sb, const struct hr_target *tg)
{
	if (tg->name && tg->name[0]) {
		hr_esc(sb, tg->name);
		sbuf_puts(sb, ": ");
	}
	hr_esc(sb, tg->path);
	if (tg->fstype && tg->fstype[0]) {
		sbuf_puts(sb, " <span class=\"mute\">(");
		hr_esc(sb, tg->fstype);
		if (tg->device && tg->device[0]) {
			sbuf_putc(sb, ' ');
			hr_esc(sb, tg->device);
		}
		sbuf_puts(sb, ")</span>");
	}
}

static void hr_compare(struct sbuf *sb, const struct hr_run *r, uint64_t span)
{
	size_t slowest = 0;
	uint64_t worst = 0;

	for (size_t i = 0; i < r->n; i++) {
		uint64_t p99 = stats_percentile(&r->t[i].total.valid, 99);

		if (p99 > worst) {
			worst = p99;
			slowest = i;
		}
	}
	sbuf_puts(sb, "<section id=\"compare\"><h2>Comparison</h2><table class=\"compare\"><thead>"
		  "<tr><th>target</th><th>latency over time</th><th>p99</th><th>verdict share</th>"
		  "</tr></thead><tbody>");
	for (size_t i = 0; i < r->n; i++) {
		const struct hr_target *tg = &r->t[i];
		size_t ncols = tg->ncols + (tg->acc.periods ? 1 : 0);
		bool slow = worst && i == slowest;

		sbuf_printf(sb, "<tr class=\"cmp%s\" data-target=\"%zu\"><td><a href=\"#target-%zu\">",
			    slow ? " slowest" : "", i, i);
		hr_target_name(sb, tg);
		sbuf_printf(sb, "</a>%s</td><td><svg class=\"heatmap small\" viewBox=\"0 0 300 60\" "
			    "width=\"300\">", slow ? " <strong class=\"badge\">slowest</strong>" : "");
		hr_heatmap(sb, tg, span, 0, 0, 300, 60, (ncols + 59) / 60, 12, false);
		sbuf_printf(sb, "</svg></td><td class=\"p99\" data-ns=\"%llu\">",
			    (unsigned long long)stats_percentile(&tg->total.valid, 99));
		hr_lat(sb, stats_percentile(&tg->total.valid, 99));
		sbuf_puts(sb, "</td><td>");
		hr_share(sb, tg);
		sbuf_puts(sb, "</td></tr>");
	}
	sbuf_puts(sb, "</tbody></table></section>");
}

static const char hr_css[] =
	":root{--fg:#1b1b1b;--bg:#fff;--mute:#666;--grid:#e2e2e2;--frame:#bbb;--heat:#1d4fc4;"
	"--p50:#0b8a3a;--p99:#d0021b;--p999:#8b3fbf;--line:#1d4fc4;--asked:#777;--skip:#e08a00;"
	"--ok:#2e9d4a;--short:#d0021b;--other:#e08a00;--queue:#c9b200;--none:#9a9a9a}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#15171b;--mute:#9a9a9a;"
	"--grid:#30333a;--frame:#555;--heat:#7fb0ff;--p50:#4cd97b;--p99:#ff5c5c;--p999:#d09cf5;"
	"--line:#7fb0ff;--asked:#bbb;--skip:#ffb347;--ok:#4cc46a;--short:#ff5c5c;"
	"--other:#ffb347;--queue:#e8d44d;--none:#777}}\n"
	"@media print{:root{--fg:#000;--bg:#fff;--mute:#555;--grid:#ddd;--frame:#999;--heat:#1d4fc4;"
	"--p50:#0b8a3a;--p99:#d0021b;--line:#1d4fc4;--asked:#777}section,svg,table{break-inside:"
	"avoid}body{max-width:none}}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
	"background:var(--bg);max-width:1080px;margin:1em auto;padding:0 1em}\n"
	"h1{font-size:1.5em}h2{border-bottom:1px solid var(--frame);padding-bottom:.2em}"
	"code,pre{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}\n"
	"svg{display:block;max-width:100%;height:auto}svg text{fill:var(--fg);font-size:11px}\n"
	".mute{color:var(--mute)}.frame{fill:none;stroke:var(--frame)}.grid{stroke:var(--grid)}"
	".axis>line{stroke:var(--frame)}.axis-label{font-size:12px;font-weight:600}\n"
	".cell{fill:var(--heat);shape-rendering:crispEdges}.c1{fill-opacity:.1}.c2{fill-opacity:.2}.c3{fill-opacity:.3}"
	".c4{fill-opacity:.4}.c5{fill-opacity:.5}.c6{fill-opacity:.6}.c7{fill-opacity:.7}"
	".c8{fill-opacity:.85}.c9{fill-opacity:1}\n"
	".pline{fill:none;stroke-width:1.5}.pline.p50{stroke:var(--p50)}.pline.p99{stroke:var(--p99)}"
	".small .pline{stroke-width:1}\n"
	".bar{fill:var(--heat);fill-opacity:.75}.marker{stroke-width:1.5;stroke-dasharray:4 2}"
	".marker.p50{stroke:var(--p50)}.marker.p99{stroke:var(--p99)}.marker.p999{stroke:var(--p999)}"
	"text.marker-label.p50{fill:var(--p50)}text.marker-label.p99{fill:var(--p99)}"
	"text.marker-label.p999{fill:var(--p999)}\n"
	".achieved,.series{fill:none;stroke:var(--line);stroke-width:1.5}"
	".asked{stroke:var(--asked);stroke-dasharray:6 3}.skipped{fill:var(--skip);fill-opacity:.6}\n"
	".v-keeps-up{fill:var(--ok)}.v-falls-short{fill:var(--short)}.v-other-io{fill:var(--other)}"
	".v-queue-building{fill:var(--queue)}.v-none{fill:var(--none)}\n"
	".key{display:inline-block;width:1.4em;height:.7em;margin:0 .3em 0 1em;vertical-align:middle}"
	".key.heat{background:var(--heat)}.key.p50{background:var(--p50)}"
	".key.p99{background:var(--p99)}.key.achieved{background:var(--line)}"
	".key.asked{border-top:2px dashed var(--asked)}.key.skipped{background:var(--skip)}\n"
	"table{border-collapse:collapse}th,td{padding:.25em .7em;text-align:left;"
	"border-bottom:1px solid var(--grid)}table.percentiles td{text-align:right;"
	"font-variant-numeric:tabular-nums}dl{display:grid;grid-template-columns:max-content auto;"
	"gap:.2em 1em}dt{color:var(--mute)}dd{margin:0}\n"
	"tr.slowest{background:color-mix(in srgb,var(--short) 12%,transparent)}"
	".series.s0,.step.s0{stroke:var(--line)}.step.kept.s0{fill:var(--line)}"
	".series.s1,.step.s1{stroke:#d0021b}.step.kept.s1{fill:#d0021b}"
	".series.s2,.step.s2{stroke:#0b8a3a}.step.kept.s2{fill:#0b8a3a}"
	".series.s3,.step.s3{stroke:#8b3fbf}.step.kept.s3{fill:#8b3fbf}"
	".series.s4,.step.s4{stroke:#e08a00}.step.kept.s4{fill:#e08a00}"
	".series.s5,.step.s5{stroke:#008b8b}.step.kept.s5{fill:#008b8b}"
	".series.s6,.step.s6{stroke:#a0522d}.step.kept.s6{fill:#a0522d}"
	".series.s7,.step.s7{stroke:#c71585}.step.kept.s7{fill:#c71585}"
	".step{stroke-width:1.5}.step.short{fill:var(--bg)}"
	"circle.knee,circle.best,circle.limit{fill:none;stroke:var(--fg);stroke-width:2}"
	"text.mark-label{font-weight:600}tr.knee,tr.best,tr.limit{background:color-mix(in srgb,"
	"var(--ok) 14%,transparent)}table.sweep td{font-variant-numeric:tabular-nums;white-space:nowrap}"
	"table.sweep td:last-child{white-space:normal}"
	".key.s0{background:var(--line)}.key.s1{background:#d0021b}.key.s2{background:#0b8a3a}"
	".key.s3{background:#8b3fbf}.key.s4{background:#e08a00}.key.s5{background:#008b8b}"
	".key.s6{background:#a0522d}.key.s7{background:#c71585}\n"
	".badge{color:var(--short)}\n";

static void hr_header(struct sbuf *sb, const struct hr_run *r)
{
	char when[64] = "";
	time_t secs = (time_t)(r->real / 1000000000ull);
	struct tm tm;

	if (r->real && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	sbuf_puts(sb, "<section id=\"run\"><h1>ioprobe report</h1><dl><dt>command</dt><dd><code "
		  "class=\"cmdline\">");
	for (size_t k = 0; k < r->argc; k++) {
		if (k)
			sbuf_putc(sb, ' ');
		hr_esc(sb, r->argv[k]);
	}
	sbuf_puts(sb, "</code></dd><dt>host</dt><dd class=\"host\">");
	hr_esc(sb, r->host);
	sbuf_puts(sb, "</dd><dt>kernel</dt><dd class=\"kernel\">");
	hr_esc(sb, r->kernel);
	sbuf_puts(sb, "</dd><dt>ioprobe</dt><dd class=\"version\">");
	hr_esc(sb, r->version);
	sbuf_puts(sb, "</dd><dt>started</dt><dd>");
	hr_esc(sb, when);
	sbuf_puts(sb, "</dd><dt>engine</dt><dd>");
	hr_esc(sb, r->engine);
	sbuf_printf(sb, "</dd><dt>requests</dt><dd>%llu bytes, ", (unsigned long long)r->size);
	hr_esc(sb, r->mode);
	if (r->asked > 0)
		sbuf_printf(sb, ", %.4g/s asked", r->asked);
	else
		sbuf_puts(sb, ", unpaced");
	sbuf_printf(sb, "</dd><dt>targets</dt><dd>%zu</dd></dl></section>", r->n);
}

int htmlreport_write(struct sbuf *sb, const struct hr_run *r)
{
	uint64_t span = hr_span(r);

	sbuf_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		  "<meta name=\"color-scheme\" content=\"light dark\"><title>ioprobe report");
	if (r->n) {
		sbuf_puts(sb, ": ");
		hr_esc(sb, r->t[0].path);
		if (r->n > 1)
			sbuf_printf(sb, " and %zu more", r->n - 1);
	}
	sbuf_printf(sb, "</title><style>\n%s</style></head><body>\n", hr_css);
	hr_header(sb, r);
	if (r->n > 1)
		hr_compare(sb, r, span);
	for (size_t i = 0; i < r->n; i++) {
		const struct hr_target *tg = &r->t[i];

		sbuf_printf(sb, "\n<section class=\"target\" id=\"target-%zu\"><h2>", i);
		hr_target_name(sb, tg);
		sbuf_puts(sb, "</h2>");
		if (tg->fold > 1)
			sbuf_printf(sb, "<p class=\"mute\">%llu periods a column.</p>",
				    (unsigned long long)tg->fold);
		hr_heat_section(sb, tg, i, span);
		hr_histogram(sb, tg, i);
		hr_pct_table(sb, tg, i);
		hr_rate(sb, r, tg, i, span);
		if (tg->nsteps)
			hr_sweep_section(sb, tg, i);
		if (tg->ndev) {
			sbuf_printf(sb, "<section class=\"devices\" id=\"devices-%zu\"><h3>Devices "
				    "(--iostat)</h3><p class=\"legend\">verdict: ", i);
			for (size_t s = 0; s < HR_STATES; s++)
				sbuf_printf(sb, "<svg class=\"swatch\" viewBox=\"0 0 12 12\" width=\"12\" "
					    "style=\"display:inline\"><rect class=\"v-%s\" width=\"12\" "
					    "height=\"12\"/></svg> %s ", hr_state_class[s],
					    verdict_state_text(s));
			sbuf_puts(sb, "</p>");
			for (size_t d = 0; d < tg->ndev; d++)
				hr_device_plot(sb, &tg->dev[d], i, span);
			sbuf_puts(sb, "</section>");
		}
		sbuf_puts(sb, "</section>\n");
	}
	sbuf_puts(sb, "<footer class=\"mute\"><p>Written by ioprobe --report: one file, no script, "
		  "nothing fetched.</p></footer></body></html>\n");
	return sb->error ? -ENOMEM : 0;
}
