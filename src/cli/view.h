/*
 * view: the interface between the command-line front end and an optional
 * full-screen view (tui/). The CLI prepares the target, engine and probe;
 * the view runs the probe in its own thread and shows it, then hands back
 * so the CLI prints the normal text summary; with --replay FILE -X it shows
 * a recording instead (view_ops.replay, the replay source in recplay.h).
 * No curses type appears here.
 */
#ifndef IOPROBE_VIEW_H
#define IOPROBE_VIEW_H

#include <signal.h>
#include <stddef.h>

#include <stdbool.h>
#include <stdint.h>

#include "iostat.h"
#include "probe.h"
#include "recplay.h"
#include "report.h"
#include "sbuf.h"
#include "verdict.h"

/* What the view needs to know of the command line (the CLI fills it from struct opts). */
struct view_cfg {
	const char *path;              /* the target as given */
	const char *name;              /* its short name (NAME=PATH, --name), or NULL */
	bool ascii, no_color;          /* --ascii, --no-color */
	bool write, read_write;        /* the mode: writes, -G ping-pong */
	bool direct, cached, sync, dsync;
	uint64_t burst;                /* -b, 0 = off */
	uint64_t print_count;          /* -p, 0 = off */
	uint64_t print_interval;       /* -P ns, 0 = off */
	double rate_limit;             /* -r, requests/s the interval came from, 0 = none */
	uint64_t speed_limit;          /* -l, bytes/s the interval came from, 0 = none */
	uint64_t work_size;            /* -S as the target resolved it, bytes */
	double asked_rate;             /* requests/s asked (opts_asked_rate), 0 = unpaced */
	uint64_t interval;             /* ns between starts (opts_interval), 0 = unpaced */
	bool sweep;                    /* --sweep: run() steps the rate (see view_params) */
	const char *sweep_rates;       /* its argument (NULL, "auto" or a list; checked) */
	uint64_t sweep_step;           /* ns each step runs (-w, else 5 s) */
	bool response;                 /* -Q or --response: response percentiles in the table */
	unsigned depth;                /* -Q, requests in flight at once */
};

struct sweepgrid;

/*
 * --qualify in the view: the battery (qualify.h) as it runs. Each step is one run; its
 * view_params carry this. The view shows the steps (names; done ones passed or failed), the
 * step under way (what it is, its progress and time left, the live rate and latency), and the
 * report so far (text: the CLI's own, each finished step's figures, device numbers and
 * thresholds, then the final QUALIFY line). When the step's probe has ended (its tally
 * complete) the view calls done(): the CLI judges the step and appends its block (and after
 * the last step the final line) to text. After the last step the view waits for q; q or a
 * signal earlier sets *stop, which ends the battery as a signal does on the command line.
 */
struct view_qualify {
	const char *profile;           /* its name */
	const char *const *names;      /* each step's name */
	const char *const *abouts;     /* each step's words ("" when none) */
	size_t nsteps, step;           /* how many; the one under way (0-based) */
	const bool *pass;              /* pass[i] for each step before step (and step after done) */
	uint64_t deadline;             /* the step's -w, ns (0: none) */
	uint64_t count;                /* its -c (0: none) */
	struct sbuf *text;             /* the report so far */
	bool final;                    /* text ends with the final QUALIFY line */
	/* The step's probe ended with result ret (0 or -errno); set by the CLI for each step. */
	void (*done)(void *ctx, int ret);
	void *done_ctx;
};

struct view_params {
	struct probe *probe;           /* initialised (probe_init), not yet running */
	const struct report_cfg *rc;   /* target description, sizes, formats */
	const struct view_cfg *cfg;    /* mode, pacing, display options */
	const char *engine;            /* engine name */
	struct sbuf *deferred_stderr;  /* gets what reached stderr while the screen was up */
	volatile sig_atomic_t *stop;   /* set by the CLI's SIGINT/TERM/HUP handler */
	/* Print one message ("ioprobe: " is added); only once the screen is given back. */
	void (*message)(const char *text);
	/* --sweep: run() appends the table (header, a row per finished step, knee) here */
	struct sbuf *sweep_out;
	/*
	 * --sweep across sizes and depths: this sweep is one cell of that grid. run() adds
	 * its rows to it and appends them to sweep_out in the grid's form (no header, no
	 * knee), shows the whole grid so far with its best point and limit, waits for q only
	 * after the grid's last cell, and on q marks the grid over (grid->done).
	 */
	struct sweepgrid *sweep_grid;
	/* --qualify: this run is a step of the battery (see struct view_qualify), else NULL */
	struct view_qualify *qualify;
	/* several targets: this target's probe result (0 or -errno) goes here when not NULL */
	int *result;
	/*
	 * --record under the view (NULL: nothing to record): called from the view's thread each
	 * time this target's iostat panel judged an interval. seq numbers the panel's device
	 * samples from 0 (the k-th sample of every target is its k-th second), real is the
	 * CLOCK_REALTIME ns of the device read, rows[0 .. n) the watched devices' rows (top
	 * first), p the probe's side of the interval and v the verdict; none is kept.
	 */
	void (*judged)(void *ctx, uint64_t seq, uint64_t real, const struct iostat_dev_row *rows,
		       size_t n, const struct verdict_probe *p, const struct verdict *v);
	/* Optional: the probe ended (the view shows it until q), told once; judged_ctx. */
	void (*ended)(void *ctx);
	void *judged_ctx;
};

/* --replay FILE -X: a recording shown in the view (nothing is probed, nothing written). */
struct view_replay {
	const struct recplay *rp;      /* the whole recording, loaded (recplay_finish done) */
	const struct report_cfg *rc;   /* rp->n of them: each target's description */
	const struct view_cfg *cfg;    /* rp->n of them: each target's settings, as recorded */
	const char *damage;            /* the file stops early here (said after), or NULL */
	bool ascii, no_color;          /* --ascii, --no-color */
	struct sbuf *deferred_stderr;  /* gets what reached stderr while the screen was up */
	volatile sig_atomic_t *stop;   /* set by the CLI's SIGINT/TERM/HUP handler */
};

struct view_ops {
	const char *name;
	/*
	 * Can the view run here? Called before any preparation. 0, or -errno
	 * with msg filled: -ENOTTY for the terminal (not one, unknown TERM: the
	 * CLI exits 1), another -errno when the view cannot work (exit 2).
	 */
	int (*check)(char *msg, size_t msglen);
	/*
	 * Run the probes of vp[0 .. n-1] and show them until the user quits or
	 * *stop is set; restore the terminal before returning. One target (n = 1)
	 * gets its screen (with --sweep, the sweep on it) and never the overview:
	 * the return is its probe's result, 0 or -errno with msg filled. Several
	 * get the overview (a view thread, a probe per target): each target's
	 * result goes to *vp[i].result, its failure message through
	 * vp[i].message, and the return is 0, or -errno with msg filled when the
	 * view itself failed. Each probe->acct.total is complete either way.
	 */
	int (*run)(const struct view_params *vp, size_t n, char *msg, size_t msglen);
	/*
	 * Optional (NULL: none): take the screen before the target is prepared,
	 * so that filling the working set shows progress. Only cfg->path,
	 * ascii and no_color are read; stop is the CLI's flag (the view's quit
	 * keys set it, which ends the preparation). Returns 0 with *fn and *arg
	 * set to the progress callback for target_open, or -errno (nothing
	 * changed). run() takes over the open screen; when no run follows (the
	 * preparation failed) the screen is given back at exit, with what
	 * reached stderr meanwhile.
	 */
	int (*prepare)(const struct view_cfg *cfg, volatile sig_atomic_t *stop,
		       void (**fn)(void *arg, uint64_t done, uint64_t total), void **arg);
	/*
	 * Optional (NULL: the view cannot replay): show the recording vr->rp with
	 * the screens of a live run — one target's screen, the overview for
	 * several — at a cursor the user moves (play, pause, step a period, jump,
	 * speed), until the user quits or *stop is set; restore the terminal
	 * before returning. 0, or -errno with msg filled (the view failed).
	 */
	int (*replay)(const struct view_replay *vr, char *msg, size_t msglen);
	/*
	 * Async-signal-safe: give the terminal back at once. The CLI calls it
	 * from its signal handler before _exit() while run() is active.
	 */
	void (*emergency)(void);
};

#endif
