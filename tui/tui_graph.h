/*
 * tui_graph: the rolling latency plot, composed into a grid of cells that
 * the drawing code only has to copy to the screen. Pure: no curses.
 *
 * Input: 2 * width sub-columns (tui_model_columns), oldest first. Each
 * sub-column with samples is drawn as a vertical span from its minimum to
 * its maximum latency: in braille (UTF-8) every cell holds 2 x 4 dots, so
 * 4 levels per row and two sub-columns per cell; in ASCII a cell holds one
 * merged column of 2 levels per row ('.' lower half, '\'' upper half, ':'
 * both). A cell holding a slow request's maximum gets the SLOW class; a
 * sub-column whose maximum lies above the scale gets '^' (CLIP) in the top
 * row. Below the plot a marks row shows 'x' for failed requests (ERROR),
 * 's' for schedule slots the probe skipped (SKIP), '!' for slow requests
 * (SLOW) and '-' for time spent paused (PAUSED), in that order of
 * precedence, so nothing that happened is a silent gap.
 *
 * Scales: logarithmic (whole decades: lo and hi are powers of ten) or linear
 * from 0 to a 1/2/2.5/5 x 10^k top. The top follows the data but ignores
 * outliers: above 4 x (linear) or 10^4 x (log) the 95th percentile of the
 * sub-columns' maxima, the top is set from that percentile and the
 * outliers are clipped.
 */
#ifndef IOPROBE_TUI_GRAPH_H
#define IOPROBE_TUI_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui_model.h"

#define TUI_GRAPH_LABEL_W 7  /* y-axis label cells, then one axis column */
#define TUI_LABEL_LEN 16     /* bytes per label, NUL included */
#define TUI_GRAPH_MAX_W 1024 /* widest plot in cells (2 sub-columns each) */

/* What a cell means; the drawing code picks colour and attributes from it. */
enum tui_cls {
	TUI_CLS_EMPTY,
	TUI_CLS_DATA,
	TUI_CLS_SLOW,
	TUI_CLS_ERROR,
	TUI_CLS_CLIP,
	TUI_CLS_PAUSED,
	TUI_CLS_SKIP,
	TUI_CLS_HEAT,     /* a heatmap cell on the character ramp; + 1 .. 5: colour levels */
	TUI_CLS_HEAT1, TUI_CLS_HEAT2, TUI_CLS_HEAT3, TUI_CLS_HEAT4, TUI_CLS_HEAT5,
	TUI_CLS_P99,      /* the heatmap's p99 line */
};

struct tui_cell {
	uint32_t ch;      /* a Unicode code point; ' ' when empty */
	uint8_t cls;      /* enum tui_cls */
};

struct tui_scale {
	bool log;
	double lo, hi;    /* ns at the bottom and the top of the plot */
	bool clipped;     /* some sub-column's maximum is above hi */
};

/* Choose the scale for nsub sub-columns (default 10 µs..1 ms log, 0..1 ms linear if empty). */
void tui_graph_scale(const struct tui_col *cols, int nsub, bool log, struct tui_scale *out);

/*
 * The dot level of ns on a plot dots high: 0 (bottom) .. dots - 1, or dots
 * when ns is above the scale (clipped). Values at or below lo give 0.
 */
int tui_graph_level(const struct tui_scale *sc, uint64_t ns, int dots);

/*
 * Compose the plot: plot[row * width + x] for height rows (row 0 at the top)
 * and marks[x] for the marks row, from cols[0 .. 2 * width - 1].
 */
void tui_graph_compose(const struct tui_col *cols, int width, int height,
		       const struct tui_scale *sc, bool ascii, struct tui_cell *plot,
		       struct tui_cell *marks);

/*
 * The y-axis labels for a plot of height rows: labels[row] is "" or a value
 * such as "10 ms", "100 µs", "2.5 ms" (at most TUI_GRAPH_LABEL_W cells). The
 * top row carries hi, the bottom row lo (0 for linear); log plots label
 * every decade that has a row of its own, linear plots the middle.
 */
void tui_graph_ylabels(const struct tui_scale *sc, int height, bool ascii,
		       char labels[][TUI_LABEL_LEN]);

/* A compact value label: "1 ms", "100 µs", "2.5 ms", else three digits ("1.23 ms"). */
char *tui_graph_label(char *buf, size_t len, uint64_t ns, bool ascii);

/*
 * The time axis under a plot width cells wide showing window ns: "now" at the
 * right end, "-1 min" (the window) at the left, the middle and, from 48
 * cells, the quarters ("-30 s", "-45 s"), each only where it fits. buf gets
 * exactly width bytes of ASCII plus a NUL (len >= width + 1).
 */
void tui_graph_xaxis(char *buf, size_t len, int width, uint64_t window_ns);

/* The same with now (ASCII) at the right end in place of "now" (a replay's cursor time). */
void tui_graph_xaxis_at(char *buf, size_t len, int width, uint64_t window_ns, const char *now);

/* UTF-8 encode code point cp into out (>= 5 bytes); returns the byte count. */
size_t tui_graph_utf8(uint32_t cp, char *out);

#endif
