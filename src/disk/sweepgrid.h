/*
 * sweepgrid: the operators' saturation table across request sizes and queue
 * depths. For each size x depth (a "cell") the asked rate steps as in one
 * --sweep (sweep.h); every step becomes a row of one table — size, depth,
 * asked rate and bytes/s, measured and computed device tps with the pieces
 * and flushes that make the computed one (computed = asked x (pieces +
 * flushes)), aqu-sz, await, %util, MB/s, p50/p99, verdict — and two
 * conclusions are drawn from all the rows:
 *
 *   best:  the step that moves the most bytes/s while the device keeps up
 *          with aqu-sz near best_aqu (at most best_aqu + SWEEPGRID_BEST_SLACK):
 *          the disk busy all the time and nothing waiting;
 *   limit: the step that moves the most bytes/s while the device keeps up
 *          with aqu-sz at most limit_aqu: the most load it bears.
 *
 * Ties go to the earlier row (smaller size, then lower depth, then the
 * order run). Depths may be a list or automatic: 1, 2, 4, ... for each size
 * while the device's aqu-sz follows the depth (the cell's highest aqu-sz at
 * least SWEEPGRID_FOLLOW times the previous depth's: a doubled depth grows
 * the queue; the pieces of a split request are in it from depth 1) and the
 * depth still buys throughput (the cell's knee at least SWEEPGRID_GAIN above
 * the previous depth's), up to SWEEPGRID_AUTO_DEPTH_MAX. Pure: no I/O; the
 * CLI runs the cells.
 */
#ifndef IOPROBE_SWEEPGRID_H
#define IOPROBE_SWEEPGRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"
#include "sweep.h"

#define SWEEPGRID_MAX_SIZES 16
#define SWEEPGRID_MAX_DEPTHS 16
/* the default thresholds (--best-aqu, --limit-aqu) */
#define SWEEPGRID_BEST_AQU 1.0
#define SWEEPGRID_LIMIT_AQU 4.0
/* "aqu-sz approaches best_aqu": at most this much above it */
#define SWEEPGRID_BEST_SLACK 0.1
/* -Q auto: the depths tried, 1 doubling up to this */
#define SWEEPGRID_AUTO_DEPTH_MAX 64u
/* -Q auto: the queue follows a doubled depth while the cell's highest aqu-sz is this many
 * times the previous depth's */
#define SWEEPGRID_FOLLOW 1.5
/* -Q auto: ... and the knee rises at least this share over the previous depth's */
#define SWEEPGRID_GAIN 0.10
/* a grid planned to run longer than this needs --yes (10 minutes) */
#define SWEEPGRID_BOUND_NS 600000000000ull

struct sweepgrid_cfg {
	uint64_t sizes[SWEEPGRID_MAX_SIZES];   /* request sizes, bytes, in order */
	size_t nsizes;
	unsigned depths[SWEEPGRID_MAX_DEPTHS]; /* queue depths, in order (ignored when automatic) */
	size_t ndepths;
	bool depth_auto;                       /* -Q auto */
	double best_aqu, limit_aqu;            /* the thresholds */
};

/* One row: a step's row with its verdict line and words kept. */
struct sweepgrid_row {
	struct sweep_row r;      /* r.verdict points at verdict */
	char verdict[200];
	char words[80];          /* the verdict's state and reason only */
	size_t cell;             /* the cell (0, 1, ... in the order run) */
};

struct sweepgrid {
	struct sweepgrid_cfg cfg;
	struct sweepgrid_row *rows;
	size_t nrows, cap;
	size_t cells;            /* cells started so far */
	size_t size_i;           /* the current cell's size (index) */
	size_t depth_i;          /* list: its depth's index */
	unsigned depth;          /* its depth */
	size_t cell_first;       /* its first row */
	double prev_knee;        /* auto: the knee of the previous depth at this size (0: none) */
	double prev_aqu;         /* auto: its highest aqu-sz */
	bool started, done;
};

/* The duration of a grid, planned: every cell at most steps steps of step_ns. */
struct sweepgrid_plan {
	size_t sizes, depths;    /* depths: at most, when automatic */
	size_t cells;            /* sizes x depths */
	size_t steps;            /* rate steps a cell takes: the list's, else at most SWEEP_MAX_STEPS */
	bool rates_auto, depth_auto;
	uint64_t step_ns;
	uint64_t total_ns;       /* at most: cells x steps x step_ns */
};

/* Start a grid over cfg (copied). Always succeeds; rows grow on demand. */
void sweepgrid_init(struct sweepgrid *g, const struct sweepgrid_cfg *cfg);

/* Release the rows. */
void sweepgrid_free(struct sweepgrid *g);

/*
 * The next cell: its size and depth; false when the grid is over. Sizes in
 * order, for each its depths (the list, or automatic: 1, then double while
 * the previous cell at this size followed, see above). Call after the
 * previous cell's rows were added.
 */
bool sweepgrid_next_cell(struct sweepgrid *g, uint64_t *size, unsigned *depth);

/* Would sweepgrid_next_cell() give another cell now (g unchanged)? */
bool sweepgrid_more(const struct sweepgrid *g);

/*
 * Add a finished step of the current cell: r (its verdict pointer is not
 * kept: the text verdict is copied), words the verdict's state and reason.
 * Returns the row's index, or -ENOMEM (or -EINVAL without a cell).
 */
long sweepgrid_add(struct sweepgrid *g, const struct sweep_row *r, const char *verdict,
		   const char *words);

/* The index of the best row, or -1 when no step qualifies. */
long sweepgrid_best(const struct sweepgrid *g);

/*
 * The index of the limit row, or -1; *beyond (may be NULL) the next higher
 * rate of its cell (the lowest asked above it), -1 when none was asked.
 */
long sweepgrid_limit(const struct sweepgrid *g, long *beyond);

/*
 * Plan a grid: cfg's sizes and depths, nrates rate steps per cell (0: the
 * automatic plan, at most SWEEP_MAX_STEPS), step_ns a step.
 */
void sweepgrid_plan(const struct sweepgrid_cfg *cfg, size_t nrates, uint64_t step_ns,
		    struct sweepgrid_plan *out);

/*
 * The plan in one line, newline included: "plan: 3 sizes x 2 depths = 6
 * sweeps x 5 rates x 1.50 s = 45.0 s" ("x at most 32 rates (auto) ... = at
 * most 8.00 min", "depths 1, 2, 4, ... (auto, at most 7)").
 */
void sweepgrid_format_plan(struct sbuf *sb, const struct sweepgrid_plan *p);

/* Does the plan need --yes (may run longer than SWEEPGRID_BOUND_NS)? */
bool sweepgrid_plan_too_long(const struct sweepgrid_plan *p);

/* The table's header, newline included. */
void sweepgrid_format_header(struct sbuf *sb);

/*
 * Row i, newline included (the verdict last, whole). A -G row (split) carries "read P50 P99
 * write P50 P99" (ms) before its verdict: reads and writes apart.
 */
void sweepgrid_format_row(struct sbuf *sb, const struct sweepgrid *g, size_t i);

/*
 * The two conclusions, each a line: "best: 256 KiB at 35.0 MiB/s (140/s,
 * aqu-sz 0.95, keeps up)" and "limit: 1.5 MiB at 150 MiB/s, depth 4 (aqu-sz
 * 3.80, keeps up; beyond it falls short: device saturated)" (", depth N"
 * when N > 1), or "best: none: no step kept up with aqu-sz <= 1.1" and the
 * like. Nothing when the grid has no row.
 */
void sweepgrid_format_best(struct sbuf *sb, const struct sweepgrid *g);
void sweepgrid_format_limit(struct sbuf *sb, const struct sweepgrid *g);

/*
 * Whether the probe's own CPU moved the grid's conclusions, measured: steps whose CPU wait
 * was material (VERDICT_CPU_SHARE of each second or more), the most of it, and the cells
 * whose last step fell short for the probe's side (probe limited) — their knees are the
 * probe's, not the device's.
 */
struct sweepgrid_cpu {
	size_t steps, waited;
	double max_ms_s;
	size_t cells_probe_side;
};
void sweepgrid_cpu(const struct sweepgrid *g, struct sweepgrid_cpu *c);

/*
 * "cpu: the probe waited for a CPU 50 ms of each second or more in 12 of 40 steps (up to
 * 952 ms, measured); 2 cells stopped at the probe's limit, not the device's: best and
 * limit are lower bounds of the device's" — a line, only when a step waited so or a cell
 * stopped so (sweepgrid_format_limit() ends with it; a limit found beyond which the probe
 * fell short says ": the probe's limit, not the device's").
 */
void sweepgrid_format_cpu(struct sbuf *sb, const struct sweepgrid *g);

/* Row i as a JSON object: sweep_json_row()'s keys and depth, pieces, flushes (-G: read
 * and write, each {p50, p99} in ns). */
void sweepgrid_json_row(struct sbuf *sb, const struct sweepgrid *g, size_t i);

/*
 * The grid's end as JSON members (no braces): "\"best\": {...}, \"limit\":
 * {...}" each with the row's index, size, depth, asked, asked_bps, aqu_sz and
 * its line (null when none), and the thresholds.
 */
void sweepgrid_json_end(struct sbuf *sb, const struct sweepgrid *g);

#endif
