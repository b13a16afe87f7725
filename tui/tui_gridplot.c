/*
 * tui_gridplot: the sweep grid's achieved-against-asked curves, their axes,
 * legend and screen layout (see tui_gridplot.h). Pure: no curses, no I/O.
 */
#include "config.h"

#include "tui_gridplot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_fmt.h"

void tui_gridplot_layout(int lines, int cols, struct tui_gp_layout *out)
{
	int avail;

	memset(out, 0, sizeof(*out));
	out->ends_y = lines - 3;
	out->plot = lines >= 18 && cols >= 40;
	if (!out->plot) {
		out->table_y = 3;
		out->table_end = out->ends_y > 3 ? out->ends_y : 3;
		return;
	}
	out->title_y = 2;
	out->plot_y = 3;
	out->legend_lines = lines >= 40 ? 2 : 1;
	avail = out->ends_y - out->plot_y - 1 - out->legend_lines; /* plot and table */
	out->plot_h = avail * 3 / 5;
	if (out->plot_h > avail - 3)
		out->plot_h = avail - 3; /* the table's header and two rows */
	if (out->plot_h > TUI_GP_MAX_H)
		out->plot_h = TUI_GP_MAX_H;
	out->plot_x = TUI_GP_LABEL_W + 1;
	out->plot_w = cols - out->plot_x;
	if (out->plot_w > TUI_GP_MAX_W)
		out->plot_w = TUI_GP_MAX_W;
	out->xaxis_y = out->plot_y + out->plot_h;
	out->legend_y = out->xaxis_y + 1;
	out->table_y = out->legend_y + out->legend_lines;
	out->table_end = out->ends_y;
}

void tui_gridplot_scale(const struct sweepgrid *g, struct tui_gp_scale *sc)
{
	double lo = 0, hi = 0;

	for (size_t i = 0; i < g->nrows; i++) {
		double v[2] = { g->rows[i].r.asked, g->rows[i].r.achieved };

		for (int k = 0; k < 2; k++) {
			if (!(v[k] > 0) || !isfinite(v[k]))
				continue;
			if (!lo || v[k] < lo)
				lo = v[k];
			if (v[k] > hi)
				hi = v[k];
		}
	}
	if (!lo) {
		sc->lo = 1;
		sc->hi = 1000;
		return;
	}
	/* a hair of slack so that 100 is the top of 10 .. 100, not the bottom of 100 .. 1000 */
	sc->lo = pow(10, floor(log10(lo) + 1e-9));
	sc->hi = pow(10, ceil(log10(hi) - 1e-9));
	if (sc->hi <= sc->lo)
		sc->hi = sc->lo * 10;
}

int tui_gridplot_pos(const struct tui_gp_scale *sc, double v, int n)
{
	double f;
	long p;

	if (n <= 1 || !(v > 0) || !(sc->hi > sc->lo) || !(sc->lo > 0))
		return 0;
	f = (log10(v) - log10(sc->lo)) / (log10(sc->hi) - log10(sc->lo));
	p = lround(f * (n - 1));
	return p < 0 ? 0 : p > n - 1 ? n - 1 : (int)p;
}

uint32_t tui_gridplot_glyph(size_t c, bool ascii)
{
	static const uint32_t uni[TUI_GP_NGLYPHS] = { 0x25CF, 0x25A0, 0x25B2, 0x25C6,
						       0x25CB, 0x25A1, 0x25B3, 0x25C7 };
	static const char asc[TUI_GP_NGLYPHS] = { 'o', 'x', '+', '*', '#', '@', '%', '&' };

	return ascii ? (uint32_t)asc[c % TUI_GP_NGLYPHS] : uni[c % TUI_GP_NGLYPHS];
}

/* Put a cell unless a stronger kind holds it already. */
static void gp_put(struct tui_gp_cell *plot, int width, int height, int x, int row, uint32_t ch,
		   enum tui_gp_kind kind, size_t curve)
{
	struct tui_gp_cell *c;

	if (x < 0 || x >= width || row < 0 || row >= height)
		return;
	c = &plot[(size_t)row * (size_t)width + (size_t)x];
	if (c->kind > kind)
		return;
	c->ch = ch;
	c->kind = (uint8_t)kind;
	c->curve = (uint16_t)curve;
}

/* The screen position of row i: x and the row from the top. */
static void gp_at(const struct sweepgrid *g, const struct tui_gp_scale *sc, size_t i, int width,
		  int height, int *x, int *row)
{
	*x = tui_gridplot_pos(sc, g->rows[i].r.asked, width);
	*row = height - 1 - tui_gridplot_pos(sc, g->rows[i].r.achieved, height);
}

/* Sort the row indices idx[0 .. n) by their asked rate (insertion: a cell has a few rows). */
static void gp_sort_by_asked(const struct sweepgrid *g, size_t *idx, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		size_t v = idx[i], j = i;

		while (j > 0 && g->rows[idx[j - 1]].r.asked > g->rows[v].r.asked) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

/* Join (x0, y0) to (x1, y1) with dots, the ends left alone. */
static void gp_line(struct tui_gp_cell *plot, int width, int height, int x0, int y0, int x1,
		    int y1, bool ascii, size_t curve)
{
	int n = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);

	for (int k = 1; k < n; k++) {
		int x = (int)lround(x0 + (double)(x1 - x0) * k / n);
		int y = (int)lround(y0 + (double)(y1 - y0) * k / n);

		gp_put(plot, width, height, x, y, ascii ? '.' : 0x00B7, TUI_GP_LINE, curve);
	}
}

void tui_gridplot_compose(const struct sweepgrid *g, const struct tui_gp_scale *sc, int width,
			  int height, bool ascii, struct tui_gp_cell *plot)
{
	size_t *idx;
	long best, limit;
	int bx = 0, by = 0;

	if (width < 1 || height < 1 || width > TUI_GP_MAX_W || height > TUI_GP_MAX_H)
		return;
	for (size_t i = 0; i < (size_t)width * (size_t)height; i++)
		plot[i] = (struct tui_gp_cell){ ' ', TUI_GP_EMPTY, 0 };
	/* got = asked: at each column the rate there, on the same scale upwards */
	for (int x = 0; x < width; x++) {
		double f = width > 1 ? (double)x / (width - 1) : 0;
		double v = sc->lo * pow(sc->hi / sc->lo, f);

		gp_put(plot, width, height, x, height - 1 - tui_gridplot_pos(sc, v, height),
		       ascii ? '/' : 0x2571, TUI_GP_IDEAL, 0);
	}
	idx = g->nrows ? malloc(g->nrows * sizeof(*idx)) : NULL;
	if (idx) {
		for (size_t c = 0; c < g->cells; c++) {
			size_t n = 0;

			for (size_t i = 0; i < g->nrows; i++)
				if (g->rows[i].cell == c)
					idx[n++] = i;
			gp_sort_by_asked(g, idx, n);
			for (size_t k = 0; k + 1 < n; k++) {
				int x0, y0, x1, y1;

				gp_at(g, sc, idx[k], width, height, &x0, &y0);
				gp_at(g, sc, idx[k + 1], width, height, &x1, &y1);
				gp_line(plot, width, height, x0, y0, x1, y1, ascii, c);
			}
			for (size_t k = 0; k < n; k++) {
				int x, y;

				gp_at(g, sc, idx[k], width, height, &x, &y);
				gp_put(plot, width, height, x, y, tui_gridplot_glyph(c, ascii),
				       TUI_GP_POINT, c);
			}
		}
		free(idx);
	}
	best = sweepgrid_best(g);
	limit = sweepgrid_limit(g, NULL);
	if (best >= 0)
		gp_at(g, sc, (size_t)best, width, height, &bx, &by);
	if (limit >= 0) {
		int x, y;

		gp_at(g, sc, (size_t)limit, width, height, &x, &y);
		if (best >= 0 && x == bx && y == by) /* one cell: beside the best, right or left */
			x += x + 1 < width ? 1 : -1;
		gp_put(plot, width, height, x, y, 'L', TUI_GP_LIMIT, g->rows[limit].cell);
	}
	if (best >= 0) {
		struct tui_gp_cell *c = &plot[(size_t)by * (size_t)width + (size_t)bx];

		*c = (struct tui_gp_cell){ 'B', TUI_GP_BEST, (uint16_t)g->rows[best].cell };
	}
}

char *tui_gridplot_label(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G" };
	double e = v > 0 ? log10(v) : -1;

	if (e >= 0 && fabs(e - round(e)) < 1e-9 && round(e) < 12) {
		int d = (int)round(e);

		snprintf(buf, len, "%.0f%s", pow(10, d % 3), sfx[d / 3]);
		return buf;
	}
	return tui_fmt_rate(buf, len, v);
}

void tui_gridplot_ylabels(const struct tui_gp_scale *sc, int height,
			  char labels[][TUI_GP_LABEL_LEN])
{
	for (int r = 0; r < height; r++)
		labels[r][0] = '\0';
	if (height < 1)
		return;
	tui_gridplot_label(labels[0], TUI_GP_LABEL_LEN, sc->hi);
	if (height < 2)
		return;
	tui_gridplot_label(labels[height - 1], TUI_GP_LABEL_LEN, sc->lo);
	for (double v = sc->lo * 10; v < sc->hi * 0.999; v *= 10) {
		int r = height - 1 - tui_gridplot_pos(sc, v, height);

		if (r <= 1 || r >= height - 2 || labels[r - 1][0] || labels[r + 1][0])
			continue; /* touches the top, the bottom or a neighbour */
		tui_gridplot_label(labels[r], TUI_GP_LABEL_LEN, v);
	}
}

void tui_gridplot_xaxis(const struct tui_gp_scale *sc, int width, char *buf, size_t len)
{
	int next = 0; /* the first column free for a label */

	if (width < 0 || len < (size_t)width + 1) {
		if (len)
			buf[0] = '\0';
		return;
	}
	memset(buf, ' ', (size_t)width);
	buf[width] = '\0';
	for (double v = sc->lo; v < sc->hi * 1.001; v *= 10) {
		char l[TUI_GP_LABEL_LEN];
		int x = tui_gridplot_pos(sc, v, width), w;

		tui_gridplot_label(l, sizeof(l), v);
		w = (int)strlen(l);
		if (x + w > width)
			x = width - w; /* the last ends at the right edge */
		if (x < next || x < 0)
			continue;
		memcpy(buf + x, l, (size_t)w);
		next = x + w + 1;
	}
}

/* A size in whole KiB, MiB or GiB when it is one, as "256 KiB" (unit "KiB") or "256K". */
static void gp_size(char *buf, size_t len, uint64_t size, bool shorter)
{
	static const char *const units[] = { "GiB", "MiB", "KiB" };

	for (int i = 0; i < 3; i++) {
		uint64_t u = UINT64_C(1) << (10 * (3 - i));

		if (size >= u && size % u == 0) {
			if (shorter)
				snprintf(buf, len, "%llu%c", (unsigned long long)(size / u), units[i][0]);
			else
				snprintf(buf, len, "%llu %s", (unsigned long long)(size / u), units[i]);
			return;
		}
	}
	if (shorter) {
		char b[32], *sp;

		tui_fmt_bytes(b, sizeof(b), (double)size); /* "1.50 MiB" -> "1.50M" */
		sp = strchr(b, ' ');

		if (sp && sp[1] && sp[1] != 'B')
			snprintf(buf, len, "%.*s%c", (int)(sp - b), b, sp[1]);
		else
			snprintf(buf, len, "%lluB", (unsigned long long)size);
		return;
	}
	tui_fmt_bytes(buf, len, (double)size);
}

char *tui_gridplot_cell_label(char *buf, size_t len, uint64_t size, unsigned depth, bool shorter)
{
	char s[32];

	gp_size(s, sizeof(s), size, shorter);
	snprintf(buf, len, shorter ? "%s/%u" : "%s Q%u", s, depth);
	return buf;
}

/* Cell c's size and depth: from its first row, or the cell under way; false when unknown. */
static bool gp_cell(const struct sweepgrid *g, size_t c, uint64_t *size, unsigned *depth)
{
	for (size_t i = 0; i < g->nrows; i++)
		if (g->rows[i].cell == c) {
			*size = g->rows[i].r.size;
			*depth = g->rows[i].r.depth;
			return true;
		}
	if (c + 1 == g->cells && g->size_i < g->cfg.nsizes) {
		*size = g->cfg.sizes[g->size_i];
		*depth = g->depth;
		return true;
	}
	return false;
}

/* The display width of UTF-8 text (each code point one cell: the glyphs here are). */
static int gp_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Encode cp as UTF-8 into out (>= 5 bytes). */
static void gp_utf8(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		out[1] = '\0';
	} else if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		out[2] = '\0';
	} else {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		out[3] = '\0';
	}
}

/*
 * Lay the entries out with the long or short labels (reserve: room for "+N more" on the last
 * line; need_key: the marks' key must fit too). Returns SIZE_MAX when everything fit, else how
 * many cells were left out.
 */
static size_t gp_lay(const struct sweepgrid *g, int width, int lines, bool ascii, bool shorter,
		     struct tui_gp_entry *out, size_t max, size_t *nout, bool reserve, bool need_key)
{
	int line = 0, x = 0;
	size_t n = 0, fitted = 0, named = 0;
	const char *key = "B best  L limit";
	const int more_w = 10; /* "+NNN more" */

	for (size_t c = 0; c < g->cells; c++) {
		uint64_t size;
		unsigned depth;
		char glyph[8], label[32], text[48];
		int w;

		if (!gp_cell(g, c, &size, &depth))
			continue;
		gp_utf8(tui_gridplot_glyph(c, ascii), glyph);
		tui_gridplot_cell_label(label, sizeof(label), size, depth, shorter);
		snprintf(text, sizeof(text), "%s %s", glyph, label);
		w = gp_width(text);
		if (x && x + w > width) {
			line++;
			x = 0;
		}
		/* the last line keeps room for "+N more" when asked to */
		if (line >= lines || x + w > width ||
		    (reserve && line == lines - 1 && x + w + 2 + more_w > width))
			break;
		if (n < max) {
			out[n] = (struct tui_gp_entry){ line, x, c, "" };
			snprintf(out[n].text, sizeof(out[n].text), "%s", text);
			n++;
		}
		fitted++;
		x += w + 2;
	}
	named = 0; /* every cell with a name, also those after the break */
	for (size_t c = 0; c < g->cells; c++) {
		uint64_t size;
		unsigned depth;

		named += gp_cell(g, c, &size, &depth);
	}
	if (fitted == named) { /* the key to the marks, where it fits */
		int w = (int)strlen(key);

		if (x && x + w > width) {
			line++;
			x = 0;
		}
		if (line < lines && x + w <= width && n < max)
			out[n++] = (struct tui_gp_entry){ line, x, SIZE_MAX, "B best  L limit" };
		else if (need_key)
			fitted--; /* not all of it fits */
	}
	*nout = n;
	return fitted == named ? SIZE_MAX : named - fitted;
}

size_t tui_gridplot_legend(const struct sweepgrid *g, int width, int lines, bool ascii,
			   struct tui_gp_entry *out, size_t max)
{
	size_t n, left;

	if (width < 1 || lines < 1 || !max)
		return 0;
	if (gp_lay(g, width, lines, ascii, false, out, max, &n, false, true) == SIZE_MAX)
		return n;
	if (gp_lay(g, width, lines, ascii, true, out, max, &n, false, false) == SIZE_MAX)
		return n;
	left = gp_lay(g, width, lines, ascii, true, out, max, &n, true, false);
	if (left != SIZE_MAX && n < max) {
		int x = 0, line = lines - 1;

		for (size_t i = 0; i < n; i++)
			if (out[i].line == line && out[i].x + gp_width(out[i].text) + 2 > x)
				x = out[i].x + gp_width(out[i].text) + 2;
		out[n] = (struct tui_gp_entry){ line, x, SIZE_MAX, "" };
		snprintf(out[n].text, sizeof(out[n].text), "+%zu more", left);
		n++;
	}
	return n;
}
