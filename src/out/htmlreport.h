/*
 * htmlreport: --report FILE.html, a run drawn as one self-contained HTML file
 * (inline CSS and SVG, no script, nothing fetched; light and dark through
 * prefers-color-scheme; printable). Fed the run's header, each target's
 * periods, its --iostat device rows with the verdict and its totals (struct
 * hr_run), it writes into an sbuf: the command line and environment; for
 * several targets a comparison first (a small heatmap, p99 and verdict share
 * per target, the slowest marked); per target a latency heatmap over time
 * (columns = periods, rows = log-latency buckets folded from the histogram's
 * buckets, cells shaded by count) with p50/p99 lines, the run's histogram
 * with p50/p99/p99.9 markers, the percentile table (service and response),
 * achieved vs asked rate with skipped slots, and per watched device r/s,
 * w/s, f/s, areq-sz, aqu-sz, await and %util on a shared time axis under a
 * band of verdicts.
 *
 * Bounded: a target keeps at most HR_COLS columns (beyond, neighbours are
 * folded two into one, so a column covers 1, 2, 4, ... periods) and a device
 * HR_DEV_PTS points (folded alike, values averaged); a heatmap draws at most
 * HR_HEAT_ROWS rows and only its non-empty cells. A target's part stays under
 * about 1 MB whatever the run's length (a 1-hour run: under 2 MB, checked by
 * the unit suite). Ids and classes for a reader (and the tests): section#run,
 * section#compare, section.target#target-I, svg.heatmap#heatmap-I (g.col
 * with data-t0/data-t1 in s, rect.cell with data-lo/data-hi in ns and
 * data-n), svg.histogram#histogram-I (rect.bar, line.marker.pNN with
 * data-ns), table.percentiles#pct-I, svg.rate#rate-I, svg.device#dev-I-NAME
 * (rect.verdict with data-state, g.metric with data-metric and a polyline
 * whose data-v holds the values), text.axis-label on every axis; a --sweep's
 * section.sweep#sweep-I with svg.sweep#sweepplot-I (circle.step with
 * data-asked, data-achieved and data-step; circle.knee, .best, .limit) and
 * table.sweep#sweeptab-I (tr.knee, .best, .limit), pre.conclusions.
 * Pure: no I/O, no clocks.
 */
#ifndef IOPROBE_HTMLREPORT_H
#define IOPROBE_HTMLREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "iostat.h"
#include "sbuf.h"
#include "sweep.h"
#include "verdict.h"

#define HR_SUB 8          /* fine latency rows per octave */
#define HR_LO_SHIFT 7     /* fine row 0 starts at 2^7 ns */
#define HR_HI_SHIFT 40    /* the last fine row ends at 2^40 ns (18 min) */
#define HR_FINE ((HR_HI_SHIFT - HR_LO_SHIFT) * HR_SUB)
#define HR_COLS 240       /* columns of a target at most */
#define HR_HEAT_ROWS 32   /* rows of a heatmap at most */
#define HR_DEV_PTS 240    /* points of a device at most */
#define HR_DEVS 8         /* devices of a target drawn */
#define HR_METRICS 7      /* r/s w/s f/s areq-sz aqu-sz await %util */
#define HR_STATES 5       /* enum verdict_state */
#define HR_STEPS 1024     /* --sweep steps of a target drawn at most */

/* One column of a target's time axis: one period or several folded. */
struct hr_col {
	uint64_t t0, t1;           /* ns since the run's start */
	uint64_t periods;
	uint64_t requests, skipped;
	uint64_t fine[HR_FINE];    /* valid requests per fine latency row */
};

struct hr_devpt {
	uint64_t t0, t1;           /* ns since the run's start */
	double v[HR_METRICS];      /* sums until the point closes, then means */
	uint64_t n;                /* blocks in it */
	int state;                 /* the worst verdict state of its blocks (enum verdict_state) */
};

struct hr_dev {
	char name[64];
	size_t npts;
	uint64_t fold;             /* blocks per point */
	struct hr_devpt acc;       /* the point being filled */
	struct hr_devpt pt[HR_DEV_PTS];
};

/* One --sweep step (a row of the operators' table). */
struct hr_step {
	uint64_t size;
	unsigned depth;
	double asked, achieved;    /* requests/s */
	double expected, dev_rate, aqu, await_ms, util, dev_mbs;
	uint64_t p50, p99;         /* ns */
	bool kept_up;
	char verdict[160];
};

struct hr_target {
	const char *path, *fstype, *device;
	const char *name;          /* NAME=PATH, --name: shown before the path ("" or NULL none) */
	size_t ncols;
	uint64_t fold;             /* periods per column */
	struct hr_col acc;         /* the column being filled */
	struct hr_col *col;        /* HR_COLS */
	struct tally total;        /* the run's (hr_total) */
	bool have_total;
	uint64_t states[HR_STATES];/* --iostat blocks per verdict state */
	size_t ndev;
	struct hr_dev *dev;        /* HR_DEVS */
	size_t nsteps;             /* --sweep: its steps (at most HR_STEPS kept) */
	struct hr_step *steps;
	bool grid;                 /* a size x depth grid */
	char *conclusions;         /* the lines after the table, or NULL */
	long knee, best, limit;    /* step numbers, -1 none */
};

struct hr_run {
	const char *version, *host, *kernel, *engine;
	size_t argc;
	const char *const *argv;
	uint64_t real;             /* CLOCK_REALTIME ns at the start */
	uint64_t size;             /* bytes per request */
	double asked;              /* requests/s asked, 0 unpaced */
	const char *mode;          /* "read", "write", "read-write" */
	size_t n;
	struct hr_target *t;
};

/* Make room for n targets (the header's fields are set by the caller). 0 or -ENOMEM. */
int hr_init(struct hr_run *r, size_t n);

/* Release what hr_init took. */
void hr_free(struct hr_run *r);

/* A period of target i ending at end ns since the start (its wall time in t). */
void hr_period(struct hr_run *r, size_t i, uint64_t end, const struct tally *t);

/*
 * An --iostat block of target i ending at end ns since the start, covering
 * interval ns: device name's row and the verdict state of the block.
 */
void hr_device(struct hr_run *r, size_t i, uint64_t end, uint64_t interval, const char *name,
	       const struct iostat_row *row, enum verdict_state state);

/* Count one --iostat block's verdict state for target i. */
void hr_verdict(struct hr_run *r, size_t i, enum verdict_state state);

/* Target i's totals (the summary's, or its periods merged). */
void hr_total(struct hr_run *r, size_t i, const struct tally *t);

/* --sweep: target i's next step w (grid: a cell of a size x depth grid). 0 or -ENOMEM. */
int hr_sweep_step(struct hr_run *r, size_t i, const struct sweep_row *w, bool grid);

/*
 * --sweep's end for target i: its conclusions' lines and the step numbers of
 * the knee (a sweep), the best point and the limit (a grid), -1 for none.
 * 0 or -ENOMEM.
 */
int hr_sweep_end(struct hr_run *r, size_t i, const char *text, long knee, long best, long limit);

/* The report: a whole HTML document. 0 or -ENOMEM. */
int htmlreport_write(struct sbuf *sb, const struct hr_run *r);

/* The fine latency row of ns (clamped to [0, HR_FINE)), and its bounds in ns. */
size_t hr_fine_row(uint64_t ns);
uint64_t hr_fine_low(size_t row);

#endif
