/*
 * tui_ovrow: one row of the overview made from what a target's screen holds
 * — its model, iostat panel, verdict and the overview's windows — the same
 * for a live target (tui_multi.c, through tui_peek) and a replayed one
 * (tui_replay.c), and the selection moved in the rows shown. Pure: no
 * curses, no clocks.
 */
#ifndef IOPROBE_TUI_OVROW_H
#define IOPROBE_TUI_OVROW_H

#include <stddef.h>
#include <stdint.h>

#include "tui_graph.h"
#include "tui_iostat.h"
#include "tui_model.h"
#include "tui_overview.h"
#include "tui_verdict.h"

/* What a row is made of. */
struct tui_ov_input {
	const char *target;               /* the path as given (control characters escaped) */
	const char *name;                 /* its short name, or NULL */
	uint64_t interval;                /* ns asked between starts, 0 unpaced */
	const struct tui_model *m;
	const struct tui_iostat *io;
	const struct tui_verdict *verdict; /* its panel's; NULL: no block device */
	const struct tui_ov_win *win;     /* the latencies of the three windows */
	uint64_t now;                     /* run ns */
	uint64_t startup;                 /* run ns before which the sparkline shows nothing */
	uint64_t last;                    /* the latest request's latency */
	const char *state;                /* "failed", "ended", "paused", or NULL (running) */
};

/*
 * Fill row from in over the window w; hist and cols (TUI_OV_SPARK_MAX entries) are
 * scratch. The rate got is the model's last period's; the device is the stack's top.
 */
void tui_ov_row_fill(struct tui_ov_row *row, const struct tui_ov_input *in,
		     enum tui_ov_window w, struct tui_ov_hist *hist, struct tui_col *cols);

/*
 * The selection moved d rows (negative: up) in order[0 .. nshow), clamped to the ends,
 * from target sel (one not shown starts from the first row). Returns the target selected
 * (sel when nothing is shown).
 */
size_t tui_ov_move(const size_t *order, size_t nshow, size_t sel, long d);

#endif
