#include "config.h"

#include "tui_overview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

#define OV_TARGET_MIN 12
#define OV_TARGET_MAX 48

/* Heading and width (a separating space included) of each column; target's is its minimum. */
static const struct {
	const char *name;
	int w;
} ov_cols[TUI_OV_NCOLS] = {
	[TUI_OV_NUM] = { "#", 6 },
	[TUI_OV_TARGET] = { "target", OV_TARGET_MIN },
	[TUI_OV_DEV] = { "dev", 9 },
	[TUI_OV_RATE] = { "got/asked", 12 },
	[TUI_OV_LAST] = { "last", 8 },
	[TUI_OV_P50] = { "p50", 8 },
	[TUI_OV_P99] = { "p99", 8 },
	[TUI_OV_MAX] = { "max", 8 },
	[TUI_OV_FAIL] = { "fail", 5 },
	[TUI_OV_SKIP] = { "skip", 5 },
	[TUI_OV_SPARKC] = { "latency", TUI_OV_SPARK + 1 },
	[TUI_OV_BUSY] = { "busy", 6 },
	[TUI_OV_AWAIT] = { "await", 8 },
};

/* Left out first when the width is short. */
static const enum tui_ov_col ov_drop[] = {
	TUI_OV_LAST, TUI_OV_MAX, TUI_OV_DEV, TUI_OV_SKIP, TUI_OV_AWAIT, TUI_OV_BUSY,
	TUI_OV_SPARKC,
};

size_t tui_ov_slowest(const struct tui_ov_row *rows, size_t n)
{
	size_t best = TUI_OV_NONE;

	for (size_t i = 0; i < n; i++) {
		const struct tui_ov_row *r = &rows[i];

		if (!r->count && !r->bad_verdict)
			continue;
		if (best == TUI_OV_NONE || r->bad_verdict > rows[best].bad_verdict ||
		    (r->bad_verdict == rows[best].bad_verdict && r->p99 > rows[best].p99))
			best = i;
	}
	return best;
}

const char *tui_ov_col_name(enum tui_ov_col c)
{
	return c < TUI_OV_NCOLS ? ov_cols[c].name : "";
}

void tui_ov_columns(int width, struct tui_ov_cols *out)
{
	bool shown[TUI_OV_NCOLS];
	int need = 0, x = 0;

	for (int c = 0; c < TUI_OV_NCOLS; c++) {
		shown[c] = true;
		need += ov_cols[c].w;
	}
	for (size_t k = 0; k < ARRAY_SIZE(ov_drop) && need > width; k++) {
		shown[ov_drop[k]] = false;
		need -= ov_cols[ov_drop[k]].w;
	}
	for (int c = 0; c < TUI_OV_NCOLS; c++) {
		int w = shown[c] ? ov_cols[c].w : 0;

		if (c == TUI_OV_TARGET && width > need) {
			w += width - need;
			if (w > OV_TARGET_MAX)
				w = OV_TARGET_MAX;
		}
		out->x[c] = x;
		out->w[c] = w;
		x += w;
	}
}

size_t tui_ov_scroll(size_t top, size_t sel, size_t n, size_t rows)
{
	if (!rows || n <= rows)
		return 0;
	if (sel < top)
		top = sel;
	if (sel >= top + rows)
		top = sel - rows + 1;
	if (top > n - rows)
		top = n - rows;
	return top;
}

int tui_ov_digit(unsigned *acc, int digit, size_t n)
{
	unsigned v = *acc * 10 + (unsigned)digit;

	if (digit < 0 || digit > 9 || v == 0 || v > n) {
		*acc = 0;
		return -2;
	}
	if ((size_t)v * 10 > n) { /* no second digit can follow */
		*acc = 0;
		return (int)v - 1;
	}
	*acc = v;
	return -1;
}

int tui_ov_digits_target(unsigned *acc, size_t n)
{
	unsigned v = *acc;

	*acc = 0;
	return v >= 1 && v <= n ? (int)v - 1 : -1;
}

void tui_ov_spark(const struct tui_col *c, int n, bool ascii, char *out, size_t len)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ramp[] = ".:-=+*#@";
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t o = 0;

	for (int i = 0; i < n; i++) {
		if (!c[i].n)
			continue;
		lo = c[i].max < lo ? c[i].max : lo;
		hi = c[i].max > hi ? c[i].max : hi;
	}
	for (int i = 0; i < n; i++) {
		int level = 0;

		if (o + (ascii || !c[i].n ? 1 : 3) + 1 > len)
			break;

		if (c[i].n && hi > lo && lo > 0)
			level = (int)(log((double)c[i].max / (double)lo) /
				      log((double)hi / (double)lo) * 7.0 + 0.5);
		if (!c[i].n) {
			out[o++] = ' ';
		} else if (ascii) {
			out[o++] = ramp[level];
		} else {
			memcpy(out + o, blocks[level], 3);
			o += 3;
		}
	}
	if (len)
		out[o < len ? o : len - 1] = '\0';
}

void tui_ov_win_init(struct tui_ov_win *w)
{
	stats_init(&w->half[0]);
	stats_init(&w->half[1]);
	w->start = 0;
	w->cur = 0;
}

/* Move the halves on to run ns now. */
static void ov_win_roll(struct tui_ov_win *w, uint64_t now)
{
	if (now < w->start + TUI_OV_HALF_NS)
		return;
	if (now >= w->start + 2 * TUI_OV_HALF_NS) { /* both halves are older than the window */
		stats_init(&w->half[0]);
		stats_init(&w->half[1]);
		w->start = now - now % TUI_OV_HALF_NS;
		return;
	}
	w->cur ^= 1;
	stats_init(&w->half[w->cur]);
	w->start += TUI_OV_HALF_NS;
}

void tui_ov_win_add(struct tui_ov_win *w, uint64_t now, uint64_t ns)
{
	ov_win_roll(w, now);
	stats_add(&w->half[w->cur], ns);
}

void tui_ov_win_get(struct tui_ov_win *w, uint64_t now, struct stats *out)
{
	ov_win_roll(w, now);
	*out = w->half[w->cur];
	stats_merge(out, &w->half[w->cur ^ 1]);
}
