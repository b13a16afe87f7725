/*
 * tui_model: the full-screen view's own picture of the run, built from the
 * session's records — graph history, periods, recent request lines, the
 * totals since the last reset — in fixed-size memory (no allocation; the
 * whole model is one plain struct, so a frozen display is a copy of it).
 * Pure: no curses, no clocks, no I/O; times are passed in as "run ns", the
 * probe's monotonic time since its first start (sample.start's base).
 *
 * Graph history: per window (1 min, 10 min, 1 h) a ring of TUI_BUCKETS time
 * buckets of window / TUI_BUCKETS each, holding min/max latency, counts of
 * plotted, slow and failed requests. Every plottable sample (not warmup,
 * not empty) lands in one bucket of each window by its end time (start +
 * time). tui_model_columns() merges buckets into the graph's sub-columns.
 *
 * Every plotted sample's service time is also counted in the window's
 * heat ring (tui_heat.h), the heatmap's and the histogram's source.
 *
 * Each bucket also keeps the response times (sample.response) and the
 * skipped slots; a run of n skipped slots enters the response times as the
 * probe's account does (account_add_skipped: the slots due at D, D + I, ...
 * while the probe waited on a request that ended at E get E - D, E - D - I,
 * ...), so the response graph and percentiles agree with the summary's.
 *
 * Periods: with the probe's -p/-P (cfg.own_period 0) a period closes at each
 * SESSION_PERIOD_END; otherwise the model cuts run time into own_period
 * slices, closing one when a sample ends past its boundary or
 * tui_model_tick() is called past boundary + grace. Each sample is counted
 * by account's tally_add(), from the notice the probe gave it. Skipped slots are rebuilt
 * from each sample's due time (start - lateness) as pacer.c counts them;
 * the first samples after a pause or an interval change are not compared.
 */
#ifndef IOPROBE_TUI_MODEL_H
#define IOPROBE_TUI_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "tui_heat.h"

#define TUI_BUCKETS 2048
#define TUI_ROWS 64       /* closed periods kept */
#define TUI_LINES 128     /* recent request lines kept */
#define TUI_PAUSES 32     /* pause spans kept for the graph */
#define TUI_PERIOD_GRACE 300000000ull /* ns a period stays open past its end for late records */

enum tui_window { TUI_WIN_1MIN, TUI_WIN_10MIN, TUI_WIN_1H, TUI_WINDOWS };

/* The span of a window, ns. */
uint64_t tui_model_window_ns(enum tui_window w);

struct tui_bucket {
	uint64_t tag;       /* bucket number + 1; 0 = empty */
	uint64_t min, max;  /* latency of plotted samples, ns */
	uint32_t n;         /* plotted samples (valid, fast, slow, too fast, too slow) */
	uint32_t slow;      /* of those: slow or too slow */
	uint32_t err;       /* failed requests */
	uint32_t skipped;   /* schedule slots missed, counted where the probe noticed them */
	uint64_t rmin, rmax; /* response times (from the scheduled start), skipped slots too */
};

struct tui_series {
	uint64_t width;     /* ns per bucket */
	struct tui_bucket b[TUI_BUCKETS];
};

/* One graph sub-column (half a braille cell), as tui_model_columns() makes it. */
#define TUI_COL_PAUSED 1u
struct tui_col {
	uint64_t min, max;  /* valid when n > 0 */
	uint64_t rmin, rmax; /* response times, valid when n > 0 */
	uint32_t n, slow, err;
	uint32_t flags;     /* TUI_COL_* */
	uint32_t skipped;   /* schedule slots missed */
};

/* One closed period: ioprobe's raw line, with percentiles and counters. */
struct tui_row {
	uint64_t index;     /* 1-based since the start or the last reset */
	uint64_t end;       /* run ns when it closed */
	uint64_t count;     /* valid requests */
	uint64_t sum;       /* their total time (ioping's "run time"), ns */
	uint64_t min, max;
	double avg, mdev;   /* ns */
	double iops, bps;   /* ioping's: count * 1e9 / sum, iops * size */
	uint64_t requests;  /* every counted request */
	uint64_t wall;      /* ns */
	uint64_t failed, skipped, too_fast, too_slow;
	unsigned npct;             /* the percentiles shown (the model's pcts) */
	uint64_t pct[PCTS_MAX];    /* their values (p50 p90 p99 p99.9 by default), ns */
	uint64_t rpct[PCTS_MAX];   /* the same of the response times, ns */
	uint64_t p99;              /* p99, ns (the table's column, whatever the list) */
};

/* A recent request line (or a blank line after a burst). */
struct tui_line {
	struct sample s;
	enum notice n;
	bool gap;           /* burst separator: s and n unused */
};

struct tui_model_cfg {
	uint64_t size;       /* request size, bytes */
	uint64_t interval;   /* ns between starts at the start */
	uint64_t own_period; /* ns; 0 = the probe closes periods (-p / -P) */
	struct pcts pcts;    /* the percentiles rows carry (--percentiles); n 0: the default */
	bool split;          /* -G: reads' and writes' service times kept apart (read, write) */
};

struct tui_model {
	struct tui_model_cfg cfg;
	/* statistics (reset by tui_model_reset) */
	struct tally period;      /* the open period */
	uint64_t period_start;    /* run ns */
	uint64_t period_index;    /* number of the open period, 1-based */
	struct tally total;       /* since the start or the last reset */
	struct stats read, write; /* cfg.split: total's valid requests by direction */
	uint64_t total_start;     /* run ns of the last reset */
	struct tui_row rows[TUI_ROWS];
	uint64_t nrows;           /* rows closed since the reset (ring index = n % TUI_ROWS) */
	/* history (kept over resets) */
	struct tui_series series[TUI_WINDOWS];
	struct tui_heat_ring heat[TUI_WINDOWS]; /* the heatmap's and histogram's bins */
	struct tui_line lines[TUI_LINES];
	uint64_t nlines;
	struct { uint64_t from, to; } pauses[TUI_PAUSES]; /* to == 0: still paused */
	uint64_t npauses;
	/* skipped-slot reconstruction */
	uint64_t interval;        /* current ns between starts */
	uint64_t last_due;        /* due time of the previous sample, run ns */
	unsigned no_compare;      /* samples left that are not compared (pause, interval) */
	bool have_due;
	/* counters */
	uint64_t samples;         /* sample records seen (all kinds) */
	uint64_t last_end;        /* run ns when the last sample ended */
	uint64_t last_request;    /* its request number */
	uint64_t warnings;
	char warning[96];         /* the last warning's text */
};

/* Start an empty model (memset and configure). */
void tui_model_init(struct tui_model *m, const struct tui_model_cfg *cfg);

/* Add one finished request with the notice the probe gave it. */
void tui_model_add(struct tui_model *m, const struct sample *s, enum notice n);

/*
 * A replay (--replay FILE -X): a recorded request in the graph and the recent
 * lines only — its period's tally counts it (tui_model_replay_period(), plotted).
 */
void tui_model_replay_request(struct tui_model *m, const struct sample *s, enum notice n);

/*
 * A replay: a recorded period that ended at run ns end with tally t joins the
 * totals and closes a row (as the probe's -p/-P periods do: cfg.own_period 0).
 * plotted: its requests went to the graph already (tui_model_replay_request);
 * else the graph gets them from the tally at the period's middle (end - wall / 2):
 * one bucket of each window with its min, max and counts, and the heat rings its
 * histogram's buckets (each at its midpoint).
 */
void tui_model_replay_period(struct tui_model *m, uint64_t end, const struct tally *t,
			     bool plotted);

/* The probe closed a period (-p/-P); ignored when the model makes its own. */
void tui_model_period_end(struct tui_model *m);

/* A burst ended: a blank line in the recent requests. */
void tui_model_burst_end(struct tui_model *m);

/* Remember a warning's text (already without "ioprobe: "). */
void tui_model_warning(struct tui_model *m, const char *text);

/*
 * Time passes (run ns): close own periods that ended before now - grace.
 * Cheap when nothing is due; call on every UI wake-up.
 */
void tui_model_tick(struct tui_model *m, uint64_t now);

/* Statistics restart at run ns now (totals, periods; graph and lines stay). */
void tui_model_reset(struct tui_model *m, uint64_t now);

/* Probing paused (paused = true) or resumed at run ns now. */
void tui_model_pause(struct tui_model *m, bool paused, uint64_t now);

/* The interval between starts changed to ns. */
void tui_model_set_interval(struct tui_model *m, uint64_t ns);

/*
 * Fill out[0 .. nsub-1] with the window's sub-columns ending at run ns now,
 * oldest first (out[nsub - 1] holds now). Sub-column boundaries are
 * multiples of window / nsub in run time, so they stay put between calls.
 */
void tui_model_columns(const struct tui_model *m, enum tui_window w, uint64_t now,
		       struct tui_col *out, int nsub);

/* The closed period k rows back (0 = the latest), or NULL when there is none. */
const struct tui_row *tui_model_row(const struct tui_model *m, uint64_t back);

/* The recent line k back (0 = the latest), or NULL. */
const struct tui_line *tui_model_line(const struct tui_model *m, uint64_t back);

/* Summarise a tally as a row (index 0, end 0), with wall, size and its percentiles (NULL or
 * none: the default) given. */
void tui_model_tally_row(const struct tally *t, uint64_t wall, uint64_t size,
			 const struct pcts *pcts,
			 struct tui_row *out);

#endif
