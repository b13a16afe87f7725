#include "config.h"

#include "tui_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_fmt.h"
#include "common.h"

#define TUI_BRAILLE 0x2800u

/* Braille dot bits, [sub-column][dot row from the top]. */
static const uint8_t tui_braille_bit[2][4] = {
	{ 0x01, 0x02, 0x04, 0x40 },
	{ 0x08, 0x10, 0x20, 0x80 },
};

static int tui_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The smallest 1, 2, 2.5 or 5 x 10^k at or above v (v > 0). */
static double tui_nice_ceil(double v)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

void tui_graph_scale(const struct tui_col *cols, int nsub, bool log, struct tui_scale *out)
{
	uint64_t maxes[2 * TUI_GRAPH_MAX_W];
	uint64_t vmin = UINT64_MAX, vmax = 0, p95, top;
	int n = 0;

	memset(out, 0, sizeof(*out));
	out->log = log;
	for (int i = 0; i < nsub; i++) {
		if (!cols[i].n)
			continue;
		if (cols[i].min < vmin)
			vmin = cols[i].min;
		if (cols[i].max > vmax)
			vmax = cols[i].max;
		if (n < (int)ARRAY_SIZE(maxes))
			maxes[n++] = cols[i].max;
	}
	if (!n) {
		out->lo = log ? 1e4 : 0;
		out->hi = 1e6;
		return;
	}
	qsort(maxes, (size_t)n, sizeof(maxes[0]), tui_cmp_u64);
	p95 = maxes[(size_t)((n - 1) * 95 / 100)];
	if (p95 < 1)
		p95 = 1;
	top = vmax;
	if (log) {
		if ((double)vmax > 1e4 * (double)p95)
			top = p95 * 10000;
		if (vmin < 100)
			vmin = 100;
		out->lo = pow(10, floor(log10((double)vmin)));
		out->hi = pow(10, ceil(log10((double)(top > vmin ? top : vmin))));
		if (out->hi < out->lo * 10 * (1 - 1e-9))
			out->hi = out->lo * 10;
		/* a value exactly on a power of ten is at the top edge, not above it */
		if (out->hi <= out->lo * (1 + 1e-9))
			out->hi = out->lo * 10;
	} else {
		if (n >= 10 && (double)vmax > 4.0 * (double)p95)
			top = p95 * 2;
		out->lo = 0;
		out->hi = tui_nice_ceil(top > 0 ? (double)top : 1.0);
	}
	out->clipped = (double)vmax > out->hi * (1 + 1e-9);
}

int tui_graph_level(const struct tui_scale *sc, uint64_t ns, int dots)
{
	double f, v = (double)ns;
	int l;

	if (dots <= 0)
		return 0;
	if (v > sc->hi * (1 + 1e-9))
		return dots;
	if (sc->log) {
		if (v <= sc->lo)
			return 0;
		f = (log10(v) - log10(sc->lo)) / (log10(sc->hi) - log10(sc->lo));
	} else {
		if (sc->hi <= sc->lo)
			return 0;
		f = (v - sc->lo) / (sc->hi - sc->lo);
	}
	l = (int)floor(f * dots);
	if (l >= dots)
		l = dots - 1;
	if (l < 0)
		l = 0;
	return l;
}

/* Level span of a sub-column: [*from, *to] (to = dots when clipped); false when empty. */
static bool tui_graph_span(const struct tui_col *c, const struct tui_scale *sc, int dots,
			   int *from, int *to)
{
	if (!c->n)
		return false;
	*from = tui_graph_level(sc, c->min, dots);
	*to = tui_graph_level(sc, c->max, dots);
	if (*from > *to)
		*from = *to;
	if (*from >= dots)
		*from = dots - 1;
	return true;
}

void tui_graph_compose(const struct tui_col *cols, int width, int height,
		       const struct tui_scale *sc, bool ascii, struct tui_cell *plot,
		       struct tui_cell *marks)
{
	int dpc = ascii ? 2 : 4, dots = height * dpc;

	for (int i = 0; i < width * height; i++)
		plot[i] = (struct tui_cell){ ' ', TUI_CLS_EMPTY };
	for (int x = 0; x < width; x++) {
		const struct tui_col *sub[2] = { &cols[2 * x], &cols[2 * x + 1] };
		uint32_t err = sub[0]->err + sub[1]->err, slow = sub[0]->slow + sub[1]->slow;
		uint32_t skipped = sub[0]->skipped + sub[1]->skipped;
		bool paused = (sub[0]->flags | sub[1]->flags) & TUI_COL_PAUSED;
		bool clipped = false;

		for (int k = 0; k < 2; k++) {
			int from, to;

			if (!tui_graph_span(sub[k], sc, dots, &from, &to))
				continue;
			if (to >= dots) {
				clipped = true;
				to = dots - 1;
			}
			for (int l = from; l <= to; l++) {
				int row = height - 1 - l / dpc, dot = dpc - 1 - l % dpc;
				struct tui_cell *c = &plot[row * width + x];

				if (ascii) {
					/* dot 0 = upper half, 1 = lower half */
					uint32_t bits = c->ch == ':' ? 3 : c->ch == '\'' ? 1 :
							c->ch == '.' ? 2 : 0;

					bits |= dot ? 2u : 1u;
					c->ch = bits == 3 ? ':' : bits == 1 ? '\'' : '.';
				} else {
					if (c->ch == ' ')
						c->ch = TUI_BRAILLE;
					c->ch |= tui_braille_bit[k][dot];
				}
				if (c->cls == TUI_CLS_EMPTY)
					c->cls = TUI_CLS_DATA;
			}
			if (sub[k]->slow) {
				int row = height - 1 - to / dpc;

				plot[row * width + x].cls = TUI_CLS_SLOW;
			}
		}
		if (clipped && height > 0)
			plot[x] = (struct tui_cell){ '^', TUI_CLS_CLIP };
		if (err)
			marks[x] = (struct tui_cell){ 'x', TUI_CLS_ERROR };
		else if (skipped)
			marks[x] = (struct tui_cell){ 's', TUI_CLS_SKIP };
		else if (slow)
			marks[x] = (struct tui_cell){ '!', TUI_CLS_SLOW };
		else if (paused)
			marks[x] = (struct tui_cell){ '-', TUI_CLS_PAUSED };
		else
			marks[x] = (struct tui_cell){ ' ', TUI_CLS_EMPTY };
	}
}

char *tui_graph_label(char *buf, size_t len, uint64_t ns, bool ascii)
{
	static const struct {
		double mult;
		const char *name, *ascii;
	} units[] = {
		{ 3600e9, "h", "h" }, { 60e9, "min", "min" }, { 1e9, "s", "s" },
		{ 1e6, "ms", "ms" },  { 1e3, "µs", "us" },   { 1, "ns", "ns" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		double x = (double)ns / units[i].mult;

		if (x < 1 && i + 1 < ARRAY_SIZE(units))
			continue;
		if (x >= 1000 && i > 0)
			break;
		if (fabs(x - round(x)) < 1e-9) {
			snprintf(buf, len, "%.0f %s", x, ascii ? units[i].ascii : units[i].name);
			return buf;
		}
		if (fabs(x * 10 - round(x * 10)) < 1e-6 && x < 100) {
			snprintf(buf, len, "%.1f %s", x, ascii ? units[i].ascii : units[i].name);
			return buf;
		}
		break;
	}
	return tui_fmt_time(buf, len, ns, ascii);
}

void tui_graph_ylabels(const struct tui_scale *sc, int height, bool ascii,
		       char labels[][TUI_LABEL_LEN])
{
	int dpc = ascii ? 2 : 4, dots = height * dpc;

	for (int r = 0; r < height; r++)
		labels[r][0] = '\0';
	if (height <= 0)
		return;
	tui_graph_label(labels[0], TUI_LABEL_LEN, (uint64_t)llround(sc->hi), ascii);
	if (height < 2)
		return;
	if (sc->log) {
		tui_graph_label(labels[height - 1], TUI_LABEL_LEN, (uint64_t)llround(sc->lo),
				ascii);
		for (double d = sc->lo * 10; d < sc->hi * (1 - 1e-9); d *= 10) {
			int lvl = tui_graph_level(sc, (uint64_t)llround(d), dots);
			int row = height - 1 - lvl / dpc;

			if (row > 0 && row < height - 1 && !labels[row][0] && !labels[row - 1][0] &&
			    !labels[row + 1][0])
				tui_graph_label(labels[row], TUI_LABEL_LEN, (uint64_t)llround(d),
						ascii);
		}
	} else {
		snprintf(labels[height - 1], TUI_LABEL_LEN, "0");
		if (height >= 5) {
			int row = height - 1 - tui_graph_level(sc, (uint64_t)llround(sc->hi / 2),
								dots) / dpc;

			if (row > 0 && row < height - 1)
				tui_graph_label(labels[row], TUI_LABEL_LEN,
						(uint64_t)llround(sc->hi / 2), ascii);
		}
	}
}

/* "-30 s", "-7.5 min", "-1 h" for a time ns before now. */
static void tui_graph_ago(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 3600000000000ull && ns % 3600000000000ull == 0)
		snprintf(buf, len, "-%llu h", (unsigned long long)(ns / 3600000000000ull));
	else if (ns >= 60000000000ull && ns % 60000000000ull == 0)
		snprintf(buf, len, "-%llu min", (unsigned long long)(ns / 60000000000ull));
	else if (ns >= 60000000000ull)
		snprintf(buf, len, "-%.1f min", (double)ns / 60e9);
	else
		snprintf(buf, len, "-%llu s", (unsigned long long)(ns / 1000000000ull));
}

/* Write label at [at, at + strlen) when it lies inside width and over blanks only. */
static void tui_graph_put(char *buf, int width, int at, const char *label)
{
	int n = (int)strlen(label);

	if (at < 0 || at + n > width)
		return;
	for (int i = at - 1; i <= at + n; i++)
		if (i >= 0 && i < width && buf[i] != ' ')
			return;
	memcpy(buf + at, label, (size_t)n);
}

void tui_graph_xaxis(char *buf, size_t len, int width, uint64_t window_ns)
{
	tui_graph_xaxis_at(buf, len, width, window_ns, "now");
}

void tui_graph_xaxis_at(char *buf, size_t len, int width, uint64_t window_ns, const char *now)
{
	char label[24];
	int nl = (int)strlen(now);

	if (!len)
		return;
	if (width < 0)
		width = 0;
	if ((size_t)width >= len)
		width = (int)len - 1;
	memset(buf, ' ', (size_t)width);
	buf[width] = '\0';
	if (width >= nl)
		memcpy(buf + width - nl, now, (size_t)nl);
	tui_graph_ago(label, sizeof(label), window_ns);
	tui_graph_put(buf, width, 0, label);
	for (int q = 1; q <= 3; q++) {
		int at;

		if (q != 2 && width < 48)
			continue;
		tui_graph_ago(label, sizeof(label), window_ns / 4 * (uint64_t)(4 - q));
		at = width * q / 4 - (int)strlen(label) / 2;
		tui_graph_put(buf, width, at, label);
	}
}

size_t tui_graph_utf8(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}
