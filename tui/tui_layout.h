/*
 * tui_layout: where each panel of the full-screen view goes for a terminal
 * of cols x rows. Pure arithmetic: no curses.
 *
 * The screen is a header (1 or 2 rows), the panels, and a footer row. The
 * main column stacks graph, stats and recent requests; the iostat panel is
 * a side column on wide terminals (cols >= TUI_SIDE_MIN_COLS) and a bottom
 * panel otherwise. Each panel has a minimum and a comfortable height; rows
 * go first to the minimums in priority order (graph, stats, recent,
 * iostat) — a panel whose minimum no longer fits is hidden together with
 * every panel after it — then one row at a time round-robin up to the
 * comfortable heights, then to the graph (up to TUI_GRAPH_MAX) and the
 * recent requests. Below TUI_MIN_COLS x TUI_MIN_ROWS only too_small is set.
 */
#ifndef IOPROBE_TUI_LAYOUT_H
#define IOPROBE_TUI_LAYOUT_H

#include <stdbool.h>

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12
#define TUI_SIDE_MIN_COLS 110 /* the iostat panel becomes a side column from here */
#define TUI_SIDE_W 36         /* its width (a separator column sits left of it) */

/* Panel heights, title row included. */
#define TUI_GRAPH_MIN 6       /* title, 3 plot rows, marks row, time axis */
#define TUI_GRAPH_COMFORT 14
#define TUI_GRAPH_MAX 30
#define TUI_STATS_MIN 4       /* title, column heads, total row, percentile row */
#define TUI_STATS_COMFORT 11
#define TUI_RECENT_MIN 3
#define TUI_RECENT_COMFORT 9
#define TUI_IOSTAT_MIN 7       /* title, the selected device in two lines, rates, verdict in three */

enum tui_panel { TUI_HEADER, TUI_GRAPH, TUI_STATS, TUI_RECENT, TUI_IOSTAT, TUI_FOOTER,
		 TUI_NPANELS };

/* A rectangle in screen cells; h == 0 means the panel is hidden. */
struct tui_rect {
	int y, x, h, w;
};

struct tui_layout_req {
	int cols, rows;
	int iostat_want; /* rows a bottom iostat panel would like (title included); 0 = none */
	int iostat_need; /* rows it must have when shown (a whole verdict), at least
			  * TUI_IOSTAT_MIN; 0 = TUI_IOSTAT_MIN */
};

struct tui_layout {
	int cols, rows;
	bool too_small;  /* below the minimum: show only the "too small" screen */
	bool side;       /* the iostat panel is the side column */
	int sep_x;       /* column of the separator left of the side panel, -1 without */
	struct tui_rect r[TUI_NPANELS];
};

/* Compute the layout for req into out (every field written). */
void tui_layout_compute(const struct tui_layout_req *req, struct tui_layout *out);

/* A table column: its width (the separating space included) and priority (0 = most needed). */
struct tui_colspec {
	int width;
	int prio;
};

/*
 * Choose which of the n columns fit in avail cells: the most important first
 * (lowest prio, ties by position), each only if it still fits; shown[i] is
 * set accordingly. Returns the width used.
 */
int tui_layout_columns(const struct tui_colspec *cols, int n, int avail, bool *shown);

/* A w x h rectangle centred in cols x rows, shrunk to fit. */
struct tui_rect tui_layout_center(int cols, int rows, int w, int h);

#endif
