/*
 * htmlsweep: a --sweep's part of the report (htmlreport.h): the steps kept
 * as they are replayed, then drawn as the operators' table and a plot of
 * the achieved rate against the asked one on log scales (one series per
 * size and depth, the line where achieved = asked, the knee — or a grid's
 * best point and limit — marked), with the conclusions in the sweep's own
 * words. Pure: no I/O.
 */
#include "config.h"

#include "htmlreport.h"
#include "htmlreport_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

#define HS_SERIES 8 /* series colours; more series reuse them */

int hr_sweep_step(struct hr_run *r, size_t i, const struct sweep_row *w, bool grid)
{
	struct hr_target *tg;
	struct hr_step *s;

	if (i >= r->n)
		return 0;
	tg = &r->t[i];
	if (tg->nsteps >= HR_STEPS)
		return 0; /* beyond what a report draws */
	if (!tg->steps) {
		tg->steps = calloc(HR_STEPS, sizeof(*tg->steps));
		if (!tg->steps)
			return -ENOMEM;
	}
	s = &tg->steps[tg->nsteps++];
	tg->grid = grid;
	s->size = w->size;
	s->depth = w->depth ? w->depth : 1;
	s->asked = w->asked;
	s->achieved = w->achieved;
	s->expected = w->expected;
	s->dev_rate = w->dev_rate;
	s->aqu = w->aqu;
	s->await_ms = w->await_ms;
	s->util = w->util;
	s->dev_mbs = w->dev_mbs;
	s->p50 = w->p50_ns;
	s->p99 = w->p99_ns;
	s->kept_up = w->kept_up;
	snprintf(s->verdict, sizeof(s->verdict), "%s", w->verdict ? w->verdict : "");
	return 0;
}

int hr_sweep_end(struct hr_run *r, size_t i, const char *text, long knee, long best, long limit)
{
	struct hr_target *tg;

	if (i >= r->n)
		return 0;
	tg = &r->t[i];
	free(tg->conclusions);
	tg->conclusions = strdup(text ? text : "");
	tg->knee = knee;
	tg->best = best;
	tg->limit = limit;
	return tg->conclusions ? 0 : -ENOMEM;
}

/* A size as the sweep's table writes it ("4 KiB", "1.56 MiB"). */
static void hs_size(struct sbuf *sb, uint64_t b)
{
	char buf[FMT_BUFSZ];

	sbuf_puts(sb, fmt_value(buf, sizeof(buf), b, FMT_SIZE));
}

/* The marks of step k, in order: "knee", "best", "limit"; NULL after the last. */
static const char *hs_mark(const struct hr_target *tg, size_t k, size_t nth)
{
	const long at[3] = { tg->knee, tg->best, tg->limit };
	static const char *const name[3] = { "knee", "best", "limit" };

	for (size_t m = 0; m < 3; m++)
		if (at[m] == (long)k && nth-- == 0)
			return name[m];
	return NULL;
}

/*
 * The series of each step into ser[0 .. nsteps): steps of one size and depth, numbered in
 * the order they first ran. Returns the number of series.
 */
static size_t hs_series(const struct hr_target *tg, size_t *ser)
{
	size_t n = 0;

	for (size_t k = 0; k < tg->nsteps; k++) {
		size_t j;

		for (j = 0; j < k; j++)
			if (tg->steps[j].size == tg->steps[k].size &&
			    tg->steps[j].depth == tg->steps[k].depth)
				break;
		ser[k] = j < k ? ser[j] : n++;
	}
	return n;
}

struct hs_axis {
	double lo, hi;      /* requests/s at the ends (log scale) */
	double a0, a1;      /* the ends on the page */
};

static double hs_pos(const struct hs_axis *a, double v)
{
	if (v < a->lo)
		v = a->lo;
	return a->a0 + (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) * (a->a1 - a->a0);
}

/* Ticks at 1, 2 and 5 times the powers of ten within the axis; x or y. */
static void hs_ticks(struct sbuf *sb, const struct hs_axis *a, bool x, double o0, double o1)
{
	static const double m[] = { 1, 2, 5 };

	for (double d = pow(10, floor(log10(a->lo))); d <= a->hi; d *= 10)
		for (size_t k = 0; k < 3; k++) {
			double v = d * m[k], p;

			if (v < a->lo || v > a->hi)
				continue;
			p = hs_pos(a, v);
			if (x)
				sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					    "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
					    "%g</text>", p, o0, p, o1, p, o1 + 14, v);
			else
				sbuf_printf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					    "y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
					    "%g</text>", o0, p, o1, p, o0 - 4, p + 4, v);
		}
}

/* The plot: achieved against asked, log-log, a series per size and depth. */
static void hs_plot(struct sbuf *sb, const struct hr_target *tg, size_t i)
{
	const double y0 = 16, y1 = 330;
	struct hs_axis ax = { 0, 0, X0, X1 }, ay = { 0, 0, y1, y0 };
	double lo = 0, hi = 0;
	size_t *ser = malloc((tg->nsteps ? tg->nsteps : 1) * sizeof(*ser)), nseries;

	if (!ser) {
		sb->error = -ENOMEM;
		return;
	}
	nseries = hs_series(tg, ser);

	for (size_t k = 0; k < tg->nsteps; k++) {
		const struct hr_step *s = &tg->steps[k];
		double v[2] = { s->asked, s->achieved };

		for (size_t j = 0; j < 2; j++) {
			if (v[j] <= 0)
				continue;
			lo = lo == 0 || v[j] < lo ? v[j] : lo;
			hi = v[j] > hi ? v[j] : hi;
		}
	}
	if (hi <= 0)
		lo = hi = 1;
	ax.lo = ay.lo = lo / 1.25;
	ax.hi = ay.hi = hi * 1.25;
	sbuf_printf(sb, "<svg class=\"sweep\" id=\"sweepplot-%zu\" viewBox=\"0 0 %.0f 380\" "
		    "width=\"%.0f\" role=\"img\"><rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\"/>", i, W, W, X0, y0, X1 - X0, y1 - y0);
	sbuf_puts(sb, "<g class=\"axis y\">");
	hs_ticks(sb, &ay, false, X0, X1);
	hr_ylabel(sb, "achieved (requests/s, log)", X0 - 52, (y0 + y1) / 2);
	sbuf_printf(sb, "</g><g class=\"axis x\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>", X0, y1, X1, y1);
	hs_ticks(sb, &ax, true, y0, y1);
	sbuf_printf(sb, "<text class=\"axis-label x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		    "asked (requests/s, log)</text></g>", (X0 + X1) / 2, y1 + 32);
	sbuf_printf(sb, "<line class=\"asked\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		    hs_pos(&ax, ax.lo), hs_pos(&ay, ay.lo), hs_pos(&ax, ax.hi), hs_pos(&ay, ay.hi));
	for (size_t se = 0; se < nseries; se++) {
		sbuf_printf(sb, "<polyline class=\"series s%zu\" points=\"", se % HS_SERIES);
		for (size_t k = 0; k < tg->nsteps; k++)
			if (ser[k] == se && tg->steps[k].asked > 0)
				sbuf_printf(sb, "%.1f,%.1f ", hs_pos(&ax, tg->steps[k].asked),
					    hs_pos(&ay, tg->steps[k].achieved));
		sbuf_puts(sb, "\"/>");
	}
	for (size_t k = 0; k < tg->nsteps; k++) {
		const struct hr_step *s = &tg->steps[k];
		const char *mark;
		double x = hs_pos(&ax, s->asked), y = hs_pos(&ay, s->achieved);

		sbuf_printf(sb, "<circle class=\"step s%zu %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			    "data-step=\"%zu\" data-asked=\"%.3f\" data-achieved=\"%.3f\"><title>",
			    ser[k] % HS_SERIES, s->kept_up ? "kept" : "short", x, y, k,
			    s->asked, s->achieved);
		hs_size(sb, s->size);
		sbuf_printf(sb, ", depth %u: asked %.4g/s, got %.4g/s, ", s->depth, s->asked,
			    s->achieved);
		hr_esc(sb, s->verdict);
		sbuf_puts(sb, "</title></circle>");
		for (size_t m = 0; (mark = hs_mark(tg, k, m)); m++)
			sbuf_printf(sb, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\" "
				    "data-step=\"%zu\"/><text class=\"mark-label %s\" x=\"%.1f\" "
				    "y=\"%.1f\">%s %.4g/s</text>", mark, x, y, 8.0 + 4 * m, k, mark,
				    x + 12, y - 8 + 14 * m, mark, s->asked);
	}
	sbuf_puts(sb, "</svg><p class=\"legend\">");
	for (size_t se = 0; se < nseries; se++)
		for (size_t k = 0; k < tg->nsteps; k++)
			if (ser[k] == se) {
				sbuf_printf(sb, "<span class=\"key s%zu\"></span> ", se % HS_SERIES);
				hs_size(sb, tg->steps[k].size);
				sbuf_printf(sb, ", depth %u ", tg->steps[k].depth);
				break;
			}
	sbuf_puts(sb, "<span class=\"key asked\"></span> achieved = asked; filled: kept up, "
		  "hollow: fell short</p>");
	free(ser);
}

/* The operators' table. */
static void hs_table(struct sbuf *sb, const struct hr_target *tg, size_t i)
{
	sbuf_printf(sb, "<table class=\"sweep\" id=\"sweeptab-%zu\"><thead><tr><th>size</th>"
		    "<th>depth</th><th>asked/s</th><th>asked B/s</th><th>got/s</th>"
		    "<th>dev expected/s</th><th>dev/s</th><th>aqu-sz</th><th>await (ms)</th>"
		    "<th>%%util</th><th>dev MB/s</th><th>p50</th><th>p99</th><th>verdict</th>"
		    "</tr></thead><tbody>", i);
	for (size_t k = 0; k < tg->nsteps; k++) {
		const struct hr_step *s = &tg->steps[k];
		const char *mark;

		sbuf_puts(sb, "<tr");
		for (size_t m = 0; (mark = hs_mark(tg, k, m)); m++)
			sbuf_printf(sb, "%s%s", m ? " " : " class=\"", mark);
		sbuf_puts(sb, hs_mark(tg, k, 0) ? "\"><td>" : "><td>");
		hs_size(sb, s->size);
		sbuf_printf(sb, "</td><td>%u</td><td>%.4g</td><td>", s->depth, s->asked);
		hs_size(sb, (uint64_t)llround(s->asked * (double)s->size));
		sbuf_printf(sb, "/s</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.2f</td>"
			    "<td>%.2f</td><td>%.1f</td><td>%.2f</td><td>", s->achieved, s->expected,
			    s->dev_rate, s->aqu, s->await_ms, s->util, s->dev_mbs);
		hr_lat(sb, s->p50);
		sbuf_puts(sb, "</td><td>");
		hr_lat(sb, s->p99);
		sbuf_puts(sb, "</td><td>");
		for (size_t m = 0; (mark = hs_mark(tg, k, m)); m++)
			sbuf_printf(sb, "<b>%s</b> ", mark);
		hr_esc(sb, s->verdict);
		sbuf_puts(sb, "</td></tr>");
	}
	sbuf_puts(sb, "</tbody></table>");
}

void hr_sweep_section(struct sbuf *sb, const struct hr_target *tg, size_t i)
{
	sbuf_printf(sb, "<section class=\"sweep\" id=\"sweep-%zu\"><h3>%s</h3>", i,
		    tg->grid ? "Sweep across sizes and depths" : "Sweep");
	hs_plot(sb, tg, i);
	hs_table(sb, tg, i);
	if (tg->conclusions && *tg->conclusions) {
		const char *l = tg->conclusions;

		sbuf_puts(sb, "<pre class=\"conclusions\">");
		while (*l) { /* line by line: hr_esc makes a newline a space */
			const char *nl = strchr(l, '\n');
			size_t len = nl ? (size_t)(nl - l) : strlen(l);
			char *one = strndup(l, len);

			if (!one) {
				sb->error = -ENOMEM;
				break;
			}
			hr_esc(sb, one);
			free(one);
			sbuf_putc(sb, '\n');
			l += len + (nl ? 1 : 0);
		}
		sbuf_puts(sb, "</pre>");
	}
	sbuf_puts(sb, "</section>");
}
