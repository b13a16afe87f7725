/*
 * tui_panes: one target's screen laid out and painted — the layout for the
 * terminal's size (the iostat panel as tall as its devices and its verdict's
 * text need), the graph's scratch grown with it, and the frame handed to
 * tui_draw with that scratch. The live screen (tui_screen.c) and the replayed
 * one (tui_replay.c) each keep one and fill the same frame. Curses (COLS, LINES).
 */
#ifndef IOPROBE_TUI_PANES_H
#define IOPROBE_TUI_PANES_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_draw.h"
#include "tui_graph.h"
#include "tui_iostat.h"
#include "tui_layout.h"
#include "tui_verdict.h"

struct tui_panes {
	struct tui_layout lay;
	struct tui_col cols[2 * TUI_GRAPH_MAX_W];
	double *heat;             /* ncells: the heatmap's folded columns */
	struct tui_cell *cells;
	size_t ncells;
	int verdict_rows;         /* rows the last layout kept for the verdict's text */
};

/*
 * Lay p out for the terminal's size with io's devices (no_blockdev: a two-row note) and
 * the verdict v's text (at least 3 rows, more for a compound one); grows the scratch.
 */
void tui_panes_layout(struct tui_panes *p, const struct tui_iostat *io,
		      const struct tui_verdict *v);

/* Whether v's text now wraps into another number of rows than the layout kept. */
bool tui_panes_stale(const struct tui_panes *p, const struct tui_verdict *v);

/* Paint frame f (its scratch fields are set here) in p's layout. */
void tui_panes_draw(struct tui_panes *p, struct tui_frame *f);

/* Free the scratch (p stays usable: the next layout grows it again). */
void tui_panes_free(struct tui_panes *p);

#endif
