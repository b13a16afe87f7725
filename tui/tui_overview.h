/*
 * tui_overview: the pure parts of the overview the view opens on with
 * several targets — one row per target, the slowest one picked out, the
 * columns that fit the width, scrolling, the number keys, the latency
 * sparkline and the sliding window the row's percentiles cover. No curses,
 * no clocks, no I/O (times are passed in as ns).
 */
#ifndef IOPROBE_TUI_OVERVIEW_H
#define IOPROBE_TUI_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tui_model.h"

#define TUI_OV_SPARK 8                 /* sparkline cells */
#define TUI_OV_HALF_NS 30000000000ull  /* the window is two halves: 30 to 60 s */
#define TUI_OV_NONE ((size_t)-1)

/* One target's row, as the overview shows it (0 where unknown). */
struct tui_ov_row {
	char target[128];            /* the path, control characters escaped */
	char dev[64];                /* the top device of its stack (DEVSTACK_NAME_LEN), "" none */
	double asked, achieved;      /* requests/s; asked 0 = unpaced */
	uint64_t last, p50, p99, max; /* ns: the last request, and over the window */
	uint64_t count;              /* valid requests in the window */
	uint64_t failed, skipped;    /* since the start (or the last reset) */
	char spark[TUI_OV_SPARK * 3 + 1]; /* UTF-8 or ASCII */
	bool have_io;                /* busy and await are known */
	double busy, await;          /* %util, ms */
	bool bad_verdict;            /* the verdict says "falls short" or "queue building" */
	char verdict[48];            /* then its first words ("falls short: device saturated") */
	const char *state;           /* "paused", "failed", "ended", or NULL (running) */
};

/*
 * The slowest target: among rows whose verdict is bad the one with the
 * highest p99, else the highest p99 of all; TUI_OV_NONE when no row has a
 * request in its window (or only one row is there to compare with none).
 */
size_t tui_ov_slowest(const struct tui_ov_row *rows, size_t n);

enum tui_ov_col {
	TUI_OV_NUM, TUI_OV_TARGET, TUI_OV_DEV, TUI_OV_RATE, TUI_OV_LAST, TUI_OV_P50,
	TUI_OV_P99, TUI_OV_MAX, TUI_OV_FAIL, TUI_OV_SKIP, TUI_OV_SPARKC, TUI_OV_BUSY,
	TUI_OV_AWAIT, TUI_OV_NCOLS
};

struct tui_ov_cols {
	int x[TUI_OV_NCOLS], w[TUI_OV_NCOLS]; /* w 0: the column is left out */
};

/* The column's heading ("p99", "got/asked"). */
const char *tui_ov_col_name(enum tui_ov_col c);

/*
 * Lay the columns out over width cells: every column when it fits, else
 * the least needed ones are left out (last, max, dev, skip, await, busy,
 * sparkline, in that order) until the target column keeps its minimum.
 * The target column takes what is left (up to its maximum).
 */
void tui_ov_columns(int width, struct tui_ov_cols *out);

/* The first row shown so that row sel is within the rows visible (n rows in all). */
size_t tui_ov_scroll(size_t top, size_t sel, size_t n, size_t rows);

/*
 * A number key (digit 0-9) typed in the overview of n targets: *acc holds
 * the digits so far. Returns the target (0-based) to open when the number
 * cannot grow any more, -1 while more digits may follow (Enter opens
 * tui_ov_digits_target() then), -2 when the number names no target (acc cleared).
 */
int tui_ov_digit(unsigned *acc, int digit, size_t n);

/* The target the digits so far name (0-based), or -1. Clears *acc. */
int tui_ov_digits_target(unsigned *acc, size_t n);

/*
 * The sparkline of n graph columns (tui_model_columns' output): one cell
 * each, the column's highest latency on a log scale from the lowest to the
 * highest of the line, a space where no request ended; eighth blocks, or
 * ".:-=+*#@" in ASCII. out needs 3 * n + 1 bytes.
 */
void tui_ov_spark(const struct tui_col *c, int n, bool ascii, char *out, size_t len);

/* The sliding window of valid latencies (two halves of TUI_OV_HALF_NS). */
struct tui_ov_win {
	struct stats half[2];
	uint64_t start;          /* run ns the current half started */
	unsigned cur;
};

void tui_ov_win_init(struct tui_ov_win *w);

/* Add a latency (ns) that ended at run ns now. */
void tui_ov_win_add(struct tui_ov_win *w, uint64_t now, uint64_t ns);

/* The window's latencies at run ns now (the last 30 to 60 s) into out. */
void tui_ov_win_get(struct tui_ov_win *w, uint64_t now, struct stats *out);

#endif
