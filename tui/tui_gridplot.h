/*
 * tui_gridplot: the size x depth sweep grid (sweepgrid.h) drawn — one curve
 * of achieved against asked requests/s per cell (a size at a depth), each
 * with its own glyph (and colour, picked by the drawing code from the curve
 * number), the line got = asked for reference, and the grid's two
 * conclusions marked on their curves: 'B' the best point, 'L' the limit.
 * Both axes are logarithmic over whole decades (the rates of a sweep double),
 * the same scale on each. Also the screen's layout for the grid (rows for the
 * plot, its axis, its legend and the table below it), the axis labels and
 * the legend's text, abbreviated when the width is short. Pure: no curses.
 */
#ifndef IOPROBE_TUI_GRIDPLOT_H
#define IOPROBE_TUI_GRIDPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sweepgrid.h"

#define TUI_GP_LABEL_W 7     /* y-axis label cells; the axis column follows */
#define TUI_GP_LABEL_LEN 16  /* bytes per label, NUL included */
#define TUI_GP_MAX_W 512     /* widest plot, cells */
#define TUI_GP_MAX_H 128     /* tallest plot, rows */
#define TUI_GP_NGLYPHS 8     /* distinct curve glyphs before they repeat */
#define TUI_GP_NCOLORS 6     /* distinct curve colours the drawing code has */

/* What a plot cell holds. */
enum tui_gp_kind {
	TUI_GP_EMPTY,
	TUI_GP_IDEAL,  /* the line got = asked */
	TUI_GP_LINE,   /* between two points of one curve */
	TUI_GP_POINT,  /* a step: the curve's glyph */
	TUI_GP_BEST,   /* 'B' */
	TUI_GP_LIMIT,  /* 'L' */
};

struct tui_gp_cell {
	uint32_t ch;     /* a Unicode code point; ' ' when empty */
	uint8_t kind;    /* enum tui_gp_kind */
	uint16_t curve;  /* the cell (curve) a LINE, POINT, BEST or LIMIT belongs to */
};

/* Both axes: requests/s from lo (bottom, left) to hi (top, right), powers of ten. */
struct tui_gp_scale {
	double lo, hi;
};

/* Where the grid's parts go on a screen of lines x cols (rows from the top). */
struct tui_gp_layout {
	bool plot;            /* false: too small for a plot (the table alone) */
	int title_y;          /* the y axis' title row */
	int plot_y, plot_h;   /* the plot's rows */
	int plot_x, plot_w;   /* its columns (after the labels and the axis column) */
	int xaxis_y;          /* the x axis' labels */
	int legend_y, legend_lines;
	int table_y, table_end; /* the table's header and rows: [table_y, table_end) */
	int ends_y;           /* best and limit lines (two rows) */
};

/*
 * The layout for lines x cols: the title and status rows 0 and 1, the key
 * row last, best and limit above it, the table (header and at least two rows)
 * above those, the plot with its axis and legend in between. The plot takes
 * about 3/5 of what is left (at 24 lines: 9 rows), the legend two lines from
 * 40 lines on. Below 18 lines or 40 columns: no plot.
 */
void tui_gridplot_layout(int lines, int cols, struct tui_gp_layout *out);

/*
 * The scale for g's rows: every asked and achieved rate (> 0) inside
 * [lo, hi], lo and hi powers of ten at least a decade apart; 1 .. 1000
 * when there is no row.
 */
void tui_gridplot_scale(const struct sweepgrid *g, struct tui_gp_scale *sc);

/* The cell 0 .. n-1 of rate v on an axis n cells long (clamped; v <= 0 gives 0). */
int tui_gridplot_pos(const struct tui_gp_scale *sc, double v, int n);

/* Curve c's glyph: ● ■ ▲ ◆ ○ □ △ ◇ (ASCII o x + * # @ % &), repeating after eight. */
uint32_t tui_gridplot_glyph(size_t c, bool ascii);

/*
 * Compose the plot: plot[row * width + x], row 0 at the top, width x height
 * cells (each at most TUI_GP_MAX_W, TUI_GP_MAX_H; larger does nothing). The
 * reference line first, then each cell's curve in the order run (its steps
 * by asked rate, joined by dots: '·', ASCII '.'), then its points, then 'B'
 * and 'L' (on one cell — one row, or two that land together: 'B' there, 'L'
 * in the cell beside it).
 */
void tui_gridplot_compose(const struct sweepgrid *g, const struct tui_gp_scale *sc, int width,
			  int height, bool ascii, struct tui_gp_cell *plot);

/*
 * A rate label of at most TUI_GP_LABEL_W cells: "1", "10", "100", "1k",
 * "10k", "100k", "1M", ... for decades, else tui_fmt_rate's form.
 */
char *tui_gridplot_label(char *buf, size_t len, double v);

/*
 * The y labels for a plot height rows: labels[row] is "" or a decade's label
 * at the row it falls on; the top (hi) and the bottom (lo) always, the
 * decades between where they do not touch another label.
 */
void tui_gridplot_ylabels(const struct tui_gp_scale *sc, int height,
			  char labels[][TUI_GP_LABEL_LEN]);

/*
 * The x axis under a plot width cells wide: each decade's label starting at
 * its column (the last one ending at the right edge), left out where it would
 * touch the one before. buf gets exactly width bytes plus a NUL (len >=
 * width + 1).
 */
void tui_gridplot_xaxis(const struct tui_gp_scale *sc, int width, char *buf, size_t len);

/*
 * A cell's legend label: long "256 KiB Q4" (sizes in whole KiB, MiB, GiB
 * when they are, else tui_fmt_bytes's form), short "256K/4" ("1.5M/4").
 */
char *tui_gridplot_cell_label(char *buf, size_t len, uint64_t size, unsigned depth, bool shorter);

/* One legend entry: text at column x of legend line line (0-based). */
struct tui_gp_entry {
	int line, x;
	size_t curve;         /* its curve; SIZE_MAX for the "B best  L limit" key and "+N more" */
	char text[48];        /* glyph, a space, the label (UTF-8) */
};

/*
 * The legend for g's cells on lines lines of width cells: every cell's glyph
 * and label, two spaces apart, then "B best  L limit". The long labels when
 * all of it fits, else the short ones; when even those do not fit, the cells
 * that do and "+N more" last. Cells are named from their rows; the cell under
 * way (the last) from the grid's current size and depth. Returns the entries
 * written to out[0 .. max).
 */
size_t tui_gridplot_legend(const struct sweepgrid *g, int width, int lines, bool ascii,
			   struct tui_gp_entry *out, size_t max);

#endif
