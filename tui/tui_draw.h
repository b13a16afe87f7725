/*
 * tui_draw: painting one frame of the full-screen view with curses — header,
 * latency graph, statistics table, recent requests, iostat panel, footer,
 * the help overlay and the "too small" screen. It only reads what the frame
 * points to; every number comes from tui_model / tui_iostat and every text
 * from tui_fmt / tui_graph. The frame is composed with erase() and sent
 * with one refresh(), so curses transmits only the cells that changed.
 */
#ifndef IOPROBE_TUI_DRAW_H
#define IOPROBE_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "tui_graph.h"
#include "tui_iostat.h"
#include "tui_layout.h"
#include "tui_model.h"
#include "tui_verdict.h"

/* How the header shows the run's state. */
enum tui_state_cls { TUI_STATE_OK, TUI_STATE_WARN, TUI_STATE_BAD };

struct tui_frame {
	/* header */
	const char *target;       /* "/dev/loop0 (block device 64 MiB)" */
	const char *mode;         /* "read direct, sync engine" */
	const char *pace;         /* "every 1 s", "rate 100/s", "flood" */
	uint64_t size, work_size; /* bytes; work_size 0: unknown, not shown */
	uint64_t elapsed;         /* ns since the view started */
	const char *state;        /* "running", "paused", "request in flight for 12.3 s" */
	enum tui_state_cls state_cls;
	bool frozen;
	/* panels */
	const struct tui_model *m;
	const struct tui_iostat *io;   /* NULL: no iostat panel */
	const struct tui_verdict *verdict; /* the panel's saturation verdict; NULL: none */
	const struct report_cfg *rc;
	uint64_t realtime_base;   /* CLOCK_REALTIME ns of run time 0 (request line times) */
	uint64_t now;             /* run ns at the graph's right edge */
	const char *now_label;    /* the time axis' right end (ASCII), NULL: "now" */
	uint64_t total_wall;      /* ns covered by the total row */
	const char *period_label; /* "1 s", "-p 100", "-P 10 s" */
	bool own_periods;         /* the view cuts periods (rows show their end), else "#n" */
	enum tui_window win;
	bool log, ascii, help, write;
	bool response;            /* the graph shows response times, not service times */
	bool heatmap;             /* the graph is the heatmap, not the scatter */
	bool histogram;           /* the histogram panel takes the periods' and requests' place */
	bool color;               /* colours: the heatmap's colour ramp (else its characters) */
	uint64_t inflight;        /* ns the current request has been in flight; 0 = not shown */
	uint64_t dropped;         /* session records lost to a full ring */
	const char *note;         /* a short footer message, or NULL */
	unsigned keys;            /* the key table's scope in the footer and help (tui_keys.h);
				   * 0: TUI_KEYS_SCREEN */
	/* scratch owned by the caller */
	struct tui_col *cols;     /* 2 * TUI_GRAPH_MAX_W entries */
	struct tui_cell *cells;   /* ncells entries */
	size_t ncells;
	double *heat;             /* ncells entries: the heatmap's folded columns */
};

/* Paint the whole screen for frame f laid out as lay (which may be too_small). */
void tui_draw(const struct tui_frame *f, const struct tui_layout *lay);

/*
 * The iostat panel of the layout (tui_draw_io.c): the side column with the
 * selected device in detail, the verdict and the stack, or the bottom
 * panel with one line per device (values that do not fit left out, least
 * needed first) and the verdict. Nothing when hidden or f->io is NULL.
 */
void tui_draw_iostat(const struct tui_frame *f, const struct tui_layout *lay);

/*
 * The overview's help overlay (its caller erased and will refresh the
 * screen), centred on a cols x rows screen: the keys of the key table that
 * hold in the overview with their help lines, then the rule that marks the
 * slowest target and what the windows cover, word-wrapped. What does not
 * fit the height is left out from the end; the last row says any key closes it. scope:
 * the keys' (tui_keys.h), 0 the overview's.
 */
void tui_draw_overview_help(int cols, int rows, bool ascii, const char *rule, const char *window,
			    unsigned scope);

/* Cells the graph needs for a layout (plot + marks row); 0 when it is hidden. */
size_t tui_draw_graph_cells(const struct tui_layout *lay);

#endif
