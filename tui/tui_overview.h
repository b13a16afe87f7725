/*
 * tui_overview: the pure parts of the overview the view opens on with
 * several targets — one row per target, the rule that picks out the
 * slowest one and says why, the verdict column's short words, the sort
 * orders and the path filter, the columns that fit the width, scrolling,
 * the number keys, the sparkline on one scale for every row and the
 * windows the rows' percentiles cover. No curses, no clocks, no I/O (times
 * are passed in as run ns).
 */
#ifndef IOPROBE_TUI_OVERVIEW_H
#define IOPROBE_TUI_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verdict.h"

#define TUI_OV_SPARK_MAX 60            /* sparkline cells at most: one a second, a minute */
#define TUI_OV_SPARK_MIN 8             /* ... and at least, when the column shows */
#define TUI_OV_SEC_NS 1000000000ull    /* a sparkline cell, a window slice */
#define TUI_OV_NONE ((size_t)-1)

/* ---- rows and the slowest one ----------------------------------------------------------- */

/* One target's row, as the overview shows it (0 where unknown). */
struct tui_ov_row {
	char target[128];            /* the path, control characters escaped */
	char name[48];               /* its short name (NAME=PATH, --name), "" none */
	char dev[64];                /* the top device of its stack (DEVSTACK_NAME_LEN), "" none */
	double asked, achieved;      /* requests/s; asked 0 = unpaced */
	uint64_t last;               /* ns: the last request (the instant column) */
	uint64_t p50, p99, max;      /* ns, over the window */
	uint64_t count;              /* valid requests in the window */
	uint64_t failed, skipped;    /* since the start (or the last reset) */
	bool have_io;                /* busy and await are known */
	double busy, await;          /* %util, ms */
	bool have_verdict;           /* v is the target's latest saturation verdict */
	struct verdict v;
	/* the sparkline, one cell a second, oldest first: the highest latency that ended in
	 * the second (0: none, or the start-up second), and bit i of spark_fail: cell i had
	 * failed requests */
	uint64_t spark[TUI_OV_SPARK_MAX];
	uint64_t spark_fail;
	const char *state;           /* "paused", "failed", "ended", or NULL (running) */
};

/* What a row's verdict says about where the time goes. */
enum tui_ov_vclass {
	TUI_OV_VC_NONE,   /* no verdict (yet, unpaced, no block device) */
	TUI_OV_VC_OK,     /* keeps up */
	TUI_OV_VC_PROBE,  /* falls short on the probe's side only: probe or depth limited */
	TUI_OV_VC_DEVICE, /* the device is the limit (falls short: device saturated), has other
			   * load (other I/O, queue building) or the wait is above it */
};

/* The class of r's verdict. */
enum tui_ov_vclass tui_ov_vclass(const struct tui_ov_row *r);

/*
 * The verdict column's words (at most 10 cells): "keeps up", "other I/O", "queue bld",
 * "saturated", "wait above", "depth lim", "probe lim", "no verdict".
 */
const char *tui_ov_vshort(const struct tui_ov_row *r);

/*
 * The slowest target, by the rule tui_ov_rule_text() states: among the
 * running rows (state NULL) with requests in the window or a device-side
 * verdict, those of class TUI_OV_VC_DEVICE first, then the highest p99
 * over the window (ties: the one given first). A target that is only probe
 * or depth limited ranks by its p99 like one that keeps up. TUI_OV_NONE when
 * no row qualifies.
 */
size_t tui_ov_slowest(const struct tui_ov_row *rows, size_t n);

/* The rule tui_ov_slowest() applies, in words for the help overlay. */
const char *tui_ov_rule_text(void);

/*
 * Why r is the slowest, short: "other I/O: dev 340/s for the probe's 100/s,
 * aqu-sz 3.23, busy 100 %, p99 228 µs", "device saturated: got 141/200,
 * busy 99 %, aqu-sz 0.99, p99 7.31 ms", ..., else "highest p99 7.31 ms
 * (keeps up)". Returns buf.
 */
char *tui_ov_reason(const struct tui_ov_row *r, bool ascii, char *buf, size_t len);

/*
 * Shorten s in place to at most width cells (a UTF-8 character is one
 * cell) by leaving out whole clauses from the end: it is cut before the
 * last ", ", "; " or " (" that leaves it short enough. A text with no such
 * place is left as it is (the caller clips it).
 */
void tui_ov_fit_clauses(char *s, int width);

/* ---- sort and filter -------------------------------------------------------------------- */

enum tui_ov_sort {
	TUI_OV_SORT_GIVEN,   /* the order given on the command line */
	TUI_OV_SORT_P99,     /* highest p99 first */
	TUI_OV_SORT_VERDICT, /* device side first, then probe side, no verdict, keeps up */
	TUI_OV_SORT_BUSY,    /* busiest device first */
	TUI_OV_SORT_AWAIT,   /* highest await first */
	TUI_OV_SORT_RATE,    /* highest achieved rate first */
	TUI_OV_NSORTS
};

/* "given order", "p99", "verdict", "busy", "await", "rate". */
const char *tui_ov_sort_name(enum tui_ov_sort s);

/* What the row is called on screen: its name, else its path. */
const char *tui_ov_label(const struct tui_ov_row *r);

/* Whether r's path or name contains filter (NULL or "" matches every row). */
bool tui_ov_match(const struct tui_ov_row *r, const char *filter);

/*
 * The rows to show, in the order sort gives (stable: ties keep the given
 * order; rows without the key's value last): out[0 .. return) holds their
 * indexes, only rows that match filter. out needs n entries.
 */
size_t tui_ov_order(const struct tui_ov_row *rows, size_t n, enum tui_ov_sort sort,
		    const char *filter, size_t *out);

/* ---- columns, scrolling, number keys ---------------------------------------------------- */

enum tui_ov_col {
	TUI_OV_NUM, TUI_OV_TARGET, TUI_OV_DEV, TUI_OV_RATE, TUI_OV_LAST, TUI_OV_P50,
	TUI_OV_P99, TUI_OV_MAX, TUI_OV_FAIL, TUI_OV_SKIP, TUI_OV_VERDICT, TUI_OV_BUSY,
	TUI_OV_AWAIT, TUI_OV_SPARKC, TUI_OV_NCOLS
};

struct tui_ov_cols {
	int x[TUI_OV_NCOLS], w[TUI_OV_NCOLS]; /* w 0: the column is left out */
};

/* The column's heading ("p99", "got/asked"). */
const char *tui_ov_col_name(enum tui_ov_col c);

/*
 * Lay the columns out over width cells, whole columns only: every column
 * when it fits, else the least needed ones are left out (max, dev, skip,
 * await, busy, then below 80 cells the sparkline, fail, verdict, last, p50,
 * got/asked) until the rest fits; the number, target and p99 columns stay.
 * Width left over goes to the target column up to target_need cells (the
 * widest path; at most 48), then to the sparkline up to TUI_OV_SPARK_MAX
 * cells; what is still left stays blank at the right. Each column's width
 * includes one blank cell that separates it from the next.
 */
void tui_ov_columns(int width, int target_need, struct tui_ov_cols *out);

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

/* ---- the sparkline ---------------------------------------------------------------------- */

/*
 * Widen [*lo, *hi] to the latencies of r's last n sparkline cells (start
 * with *lo = UINT64_MAX, *hi = 0: both stay so when no cell has one).
 */
void tui_ov_spark_range(const struct tui_ov_row *r, int n, uint64_t *lo, uint64_t *hi);

/*
 * r's last n sparkline cells on the log scale from lo (lowest block) to hi
 * (highest), the same for every row: eighth blocks, or ".:-=+*#@" in ASCII;
 * a space where no request ended, 'x' where only failed ones did. out needs
 * 3 * n + 1 bytes (it is cut, NUL-terminated, to len).
 */
void tui_ov_spark(const struct tui_ov_row *r, int n, uint64_t lo, uint64_t hi, bool ascii,
		  char *out, size_t len);

/* ---- the latency windows ---------------------------------------------------------------- */

/*
 * A latency histogram small enough to keep one per second: 32 linear
 * buckets per power of two (a value is reported within 1.6 %), exact below
 * 64 ns; from 2^36 ns (69 s) up one bucket, reported as the maximum.
 */
#define TUI_OV_HIST_N 1024
struct tui_ov_hist {
	uint64_t count, min, max;    /* min UINT64_MAX, max 0 when empty */
	uint32_t b[TUI_OV_HIST_N];
};

void tui_ov_hist_init(struct tui_ov_hist *h);
void tui_ov_hist_add(struct tui_ov_hist *h, uint64_t ns);
/* Add n values ns at once. */
void tui_ov_hist_add_n(struct tui_ov_hist *h, uint64_t ns, uint64_t n);
/* Add every value of src into dst. */
void tui_ov_hist_merge(struct tui_ov_hist *dst, const struct tui_ov_hist *src);
/* The p-th percentile (0 < p <= 100), nearest rank, clamped to [min, max]; 0 when empty. */
uint64_t tui_ov_hist_pct(const struct tui_ov_hist *h, double p);

/* What the rows' p50, p99 and max cover (w cycles them: 60 s, all, 10 s). */
enum tui_ov_window { TUI_OV_W10, TUI_OV_W60, TUI_OV_WALL, TUI_OV_NWINDOWS };

/* "last 10 s", "last 60 s", "all". */
const char *tui_ov_window_label(enum tui_ov_window w);

#define TUI_OV_SECS 11     /* 1 s slices: the last 10 whole seconds and the current one */
#define TUI_OV_BLOCK_S 5   /* the minute is kept in 5 s blocks ... */
#define TUI_OV_BLOCKS 13   /* ... the last 12 whole ones and the current one */

/*
 * One target's latencies for the three windows, in fixed memory (about
 * 100 KiB, all of it written by tui_ov_win_init()). Samples that ended
 * before from (the start-up, or before a reset) are left out.
 *   10 s: the last 10 whole seconds;
 *   60 s: the last 12 whole 5 s blocks and the whole seconds since (60 to 64 s);
 *   all:  everything since from.
 */
struct tui_ov_win {
	struct tui_ov_hist sec[TUI_OV_SECS], blk[TUI_OV_BLOCKS], all;
	uint64_t sec_id[TUI_OV_SECS], blk_id[TUI_OV_BLOCKS]; /* its second / block + 1; 0 none */
	uint64_t from;           /* run ns the windows count from */
};

/* Start empty, counting samples that end from run ns from on. */
void tui_ov_win_init(struct tui_ov_win *w, uint64_t from);

/* Add a latency (ns) of a request that ended at run ns end. */
void tui_ov_win_add(struct tui_ov_win *w, uint64_t end, uint64_t ns);

/* Add n latencies ns that ended at run ns end (a replayed period's histogram bucket). */
void tui_ov_win_add_n(struct tui_ov_win *w, uint64_t end, uint64_t ns, uint64_t n);

/* Window which at run ns now into out. */
void tui_ov_win_get(const struct tui_ov_win *w, enum tui_ov_window which, uint64_t now,
		    struct tui_ov_hist *out);

#endif
