/*
 * tui_heat: the latency heatmap and the latency histogram panel of the
 * full-screen view. Pure: no curses, no clocks, no I/O, no allocation.
 *
 * Bins: the log-linear buckets of stats.h folded TUI_HEAT_FOLD to one, so
 * every power of two from 2^10 ns (1.02 µs) to 2^36 ns (68.7 s) is split
 * into 4 bins (about 19 % wide); faster requests count in the first bin,
 * slower ones in the last.
 *
 * History: a ring of TUI_HEAT_SLOTS time slots of span / TUI_HEAT_SLOTS
 * each (one ring per graph window), each slot the bin counts of the
 * requests that ended in it. Fixed size: nothing grows with time.
 *
 * Heatmap: one column per graph cell (the graph's time columns), the slots
 * that start inside the cell summed and divided by their number (so cells
 * of one slot and of two shade alike); rows are the graph's log scale, each
 * bin counted in the row of its midpoint; a cell's shade is a level 1 ..
 * levels - 1 on a log scale of its count against the plot's fullest cell
 * (0 = empty). The column's p99 (nearest rank on its bins) marks its row.
 *
 * Histogram: the window's bins from the lowest to the highest holding
 * requests, merged k at a time to fit the rows, each with its count; the
 * rows holding p50, p99 and p99.9 (nearest rank) are marked.
 */
#ifndef IOPROBE_TUI_HEAT_H
#define IOPROBE_TUI_HEAT_H

#include <stdbool.h>
#include <stdint.h>

/* from tui_graph.h (which needs tui_model.h, which holds the rings) */
struct tui_scale;
struct tui_cell;

#define TUI_HEAT_FOLD 16       /* stats.h buckets per bin: 4 per power of two */
#define TUI_HEAT_LO_NS 1024ull /* the first bin's low edge */
#define TUI_HEAT_BINS 104      /* 26 powers of two: up to 2^36 ns */
#define TUI_HEAT_SLOTS 128     /* time slots per window */
#define TUI_HEAT_RAMP " .:-=+*#%@" /* the character ramp, level 0 .. 9 */
#define TUI_HEAT_CHAR_LEVELS 10
#define TUI_HEAT_COLOUR_LEVELS 6   /* empty + 5 colours */
#define TUI_HEAT_HIST_MAX 64   /* histogram rows at most */

struct tui_heat_slot {
	uint64_t tag;                 /* slot number + 1; 0 = empty */
	uint32_t n[TUI_HEAT_BINS];
};

struct tui_heat_ring {
	uint64_t width;               /* ns per slot */
	struct tui_heat_slot s[TUI_HEAT_SLOTS];
};

/* The bin of a latency (ns): 0 .. TUI_HEAT_BINS - 1, clamped at both ends. */
int tui_heat_bin(uint64_t ns);

/* The smallest and the largest latency (ns) of bin b (the first's low edge is 0 when
 * clamping, but its nominal edge TUI_HEAT_LO_NS is returned). */
uint64_t tui_heat_bin_low(int b);
uint64_t tui_heat_bin_high(int b);

/* Empty ring of slots width ns wide (width >= 1). */
void tui_heat_ring_init(struct tui_heat_ring *r, uint64_t width);

/* Count one request of latency ns that ended at run ns end. */
void tui_heat_ring_add(struct tui_heat_ring *r, uint64_t end, uint64_t ns);

/* Count n requests of latency ns that ended at run ns end (a replayed period's bucket). */
void tui_heat_ring_add_n(struct tui_heat_ring *r, uint64_t end, uint64_t ns, uint64_t n);

/*
 * Sum into out[TUI_HEAT_BINS] (overwritten) the slots that start in [t0, t1)
 * and are still held at run ns now (none older than TUI_HEAT_SLOTS slots);
 * when no slot starts there, the slot holding t0. Returns how many slots
 * were summed (0: nothing held).
 */
int tui_heat_ring_sum(const struct tui_heat_ring *r, uint64_t t0, uint64_t t1, uint64_t now,
		      double *out);

/* The bin holding the p-th percentile (nearest rank) of bins; -1 when they are empty. */
int tui_heat_pct_bin(const double *bins, double p);

/*
 * Fold bins into rows (row 0 at the top) on the scale sc: each bin's count
 * goes to the row of its midpoint (above the scale: the top row, below it:
 * the bottom row). out[0 .. rows - 1] is overwritten.
 */
void tui_heat_fold(const double *bins, const struct tui_scale *sc, int rows, double *out);

/* The row (0 at the top) of latency ns on a plot rows high with scale sc. */
int tui_heat_row(const struct tui_scale *sc, int rows, uint64_t ns);

/* The shade level of count against the plot's largest max: 0 for none, else 1 .. levels - 1
 * (log scale; the largest gets levels - 1). */
int tui_heat_shade(double count, double max, int levels);

/* What the heatmap composes for the painter. */
enum tui_heat_ramp { TUI_HEAT_CHARS, TUI_HEAT_COLOURS };

/*
 * One heatmap column: bins (its counts, divided by the slots summed) folded
 * into out[0 .. rows - 1] on the scale sc (tui_heat_fold). Returns the row
 * of its p99 (the midpoint of the bin holding it), -1 when it is empty.
 */
int tui_heat_column(const double *bins, const struct tui_scale *sc, int rows, double *out);

/*
 * Compose the heatmap into plot[row * width + x] (height rows, row 0 at the
 * top) from rowv[x * height + row] (tui_heat_column's) and p99[x]: shades
 * relative to the fullest cell. CHARS: TUI_HEAT_RAMP's character, class
 * TUI_CLS_HEAT; COLOURS: a full block of class TUI_CLS_HEAT + level (1 ..
 * 5). Each column's p99 cell gets class TUI_CLS_P99: '~' when it is empty
 * (CHARS; its ramp character is kept otherwise), '─' (COLOURS).
 */
void tui_heat_compose(const double *rowv, const int *p99, int width, int height,
		      enum tui_heat_ramp ramp, struct tui_cell *plot);

/* One histogram row. */
struct tui_hist_row {
	uint64_t lo, hi;      /* ns */
	uint64_t n;
	unsigned marks;       /* TUI_HIST_P50 | TUI_HIST_P99 | TUI_HIST_P999 */
};
#define TUI_HIST_P50 1u
#define TUI_HIST_P99 2u
#define TUI_HIST_P999 4u

struct tui_hist {
	int nrows;            /* 0: no requests */
	uint64_t total, max;  /* requests, the fullest row's */
	struct tui_hist_row r[TUI_HEAT_HIST_MAX]; /* r[0] the fastest */
};

/* The histogram of bins in at most rows rows (1 .. TUI_HEAT_HIST_MAX). */
void tui_heat_hist(const double *bins, int rows, struct tui_hist *out);

#endif
