/*
 * tui_qlive: what the --qualify view shows of the step under way — its live
 * rate and service-time percentiles over the last second of finished
 * requests (reads and writes apart too), and how far the step has come
 * (its -w deadline, its -c count, whichever ends it first) with the time
 * left. Fixed memory: a ring of the last TUI_QLIVE_N requests. Pure: no
 * curses, no clocks; times are ns since the step started.
 */
#ifndef IOPROBE_TUI_QLIVE_H
#define IOPROBE_TUI_QLIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TUI_QLIVE_N 4096
#define TUI_QLIVE_SPAN 1000000000ull /* the live window: the last second */

struct tui_qlive {
	uint64_t end[TUI_QLIVE_N];   /* when each request finished */
	uint64_t lat[TUI_QLIVE_N];   /* its service time */
	bool write[TUI_QLIVE_N];
	size_t head, n;              /* the next slot; how many are held */
	uint64_t requests;           /* every request added so far */
	uint64_t scratch[TUI_QLIVE_N]; /* tui_qlive_window's sorting room */
};

/* The live figures of one direction (or all) over the window. */
struct tui_qlive_fig {
	size_t n;                    /* requests in the window */
	double rate;                 /* of them per second */
	uint64_t p50, p99;           /* service time, ns (0 when n is 0) */
};

/* Start empty. */
void tui_qlive_init(struct tui_qlive *q);

/* A request finished at end (ns since the step started) after lat ns. */
void tui_qlive_add(struct tui_qlive *q, uint64_t end, uint64_t lat, bool write);

/*
 * The requests that finished in (now - span, now]: all, reads, writes. When
 * the ring holds fewer than the window had (it is full and its oldest is
 * inside the window), the rate is over the span the ring covers. Only q's
 * scratch room changes.
 */
void tui_qlive_window(struct tui_qlive *q, uint64_t now, uint64_t span,
		      struct tui_qlive_fig *all, struct tui_qlive_fig *rd, struct tui_qlive_fig *wr);

/*
 * How far the step is, 0 .. 1, after elapsed ns and requests made, for a
 * step that ends at deadline ns (0: none) or count requests (0: none),
 * whichever comes first; *left_ns the time left (by the deadline, or by the
 * count at the rate so far; UINT64_MAX when unknown).
 */
double tui_qlive_progress(uint64_t elapsed, uint64_t deadline, uint64_t requests,
			  uint64_t count, uint64_t *left_ns);

#endif
