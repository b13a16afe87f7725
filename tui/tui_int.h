/*
 * tui_int: what the view's front modules share — tui_screen.c's single-target
 * screen (live, or fed by a recording), tui_multi.c's view over N targets (the
 * overview and the target screens; live, or moved by a driver: tui_replay.c's
 * cursor), the view's one loop, and the entry points tui.c calls. Only for
 * tui/; struct tui stays private to tui_screen.c. Calls go one way: tui.c ->
 * tui_replay.c -> tui_multi.c -> tui_screen.c; tui_sweep.c, tui_qualify.c ->
 * tui_step.c -> the loop (tui_screen.c). Every screen runs in that one loop.
 */
#ifndef IOPROBE_TUI_INT_H
#define IOPROBE_TUI_INT_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "sample.h"
#include "session.h"
#include "tui_draw.h"
#include "tui_iostat.h"
#include "tui_model.h"
#include "tui_overview.h"
#include "tui_term.h"
#include "tui_verdict.h"
#include "view.h"

struct tui;

/* The view's timing, one set for the screen, the overview and the sweep. */
#define TUI_FRAME_NS 100000000ull      /* at most 10 frames a second */
#define TUI_TICK_NS 1000000000ull      /* clock, periods, rows and iostat refresh */
#define TUI_BUSY_NS 20000000ull        /* drain this often while records pour in */
#define TUI_NOTE_NS 3000000000ull      /* how long a footer note stays */
#define TUI_BUSY_RECS (SESSION_RING / 16) /* a drain this big means "pouring in" */
#define TUI_FRAME_MS (TUI_FRAME_NS / 1000000) /* a poll's timeout, when a frame is the limit */
#define TUI_WAKE_SIG SIGURG            /* interrupts a session's wait at quit (tui_wake_install) */

/* Room for a target's path before a message that names it ("PATH: text"; longer is cut). */
#define TUI_NAMED_PATH_LEN 1100

/* What the overview reads of one target's screen (pointers into its state). */
struct tui_peek {
	const struct tui_model *m;    /* the live model */
	const struct tui_iostat *io;
	const struct tui_verdict *verdict; /* its iostat panel's verdict; NULL: no block device */
	uint64_t now;                 /* run ns at the monotonic time given */
	int state;                    /* SESSION_* */
	bool paused, dirty, busy;
	bool help;                    /* its help overlay is up */
	uint64_t interval, last_draw;
	int wake_fd;
	const char *target;           /* the path as given */
	const char *name;             /* its short name, or NULL */
};

/*
 * The view's one event loop, for one target's screen and for the overview: it
 * sleeps in poll() on stdin (pfd[0]) and the sessions' wake fds (the rest of
 * the array ops give), leaves when the terminal hangs up, *stop is set or
 * done() says so, and otherwise lets ops take what woke it (acks, drains,
 * ticks), the keys, and paint what is due.
 */
struct tui_loop_ops {
	void *ctx;
	bool (*done)(void *ctx);
	struct pollfd *(*fds)(void *ctx, size_t *n);        /* the array to poll, stdin first */
	int (*sleep_ms)(void *ctx, uint64_t mono);          /* ms it may sleep */
	void (*woke)(void *ctx, int r, uint64_t mono);      /* poll's result r: ack, drain, tick */
	void (*key)(void *ctx, int ch, uint64_t mono);
	void (*paint)(void *ctx, uint64_t mono);            /* paint if dirty and a frame is due */
};
void tui_loop_run(const struct tui_loop_ops *ops, const volatile sig_atomic_t *stop);

/*
 * A screen fed by a recording (tui_replay.c) shows this in place of a probe's: one for all
 * the replay's targets, kept up to date by the replay.
 */
struct tui_feed {
	uint64_t now;             /* run ns at the cursor: the graph's right edge */
	const char *now_label;    /* the cursor's clock, at the time axis' right end */
	const char *state;        /* the header's state: where the cursor is */
	enum tui_state_cls cls;
	uint64_t realtime_base;   /* CLOCK_REALTIME ns of run time 0 */
	bool own_periods;         /* the recorder cut the periods (rows show their end) */
	bool heatmap;             /* the graph opens as the heatmap (no request records) */
	const char *note;         /* the footer's standing note (damage, no requests), or NULL */
	const char *flash;        /* the last cursor key's note while it shows, or NULL */
};

/* The parts of a fed screen the replay fills (tui_fed_parts()). */
struct tui_fed {
	struct tui_model *m;
	struct tui_iostat *io;
	struct tui_verdict *verdict;
};

/* One target as a driver feeds it: its screen and the overview's windows of it. */
struct tui_driven {
	struct tui *t;
	struct tui_ov_win *win;   /* the overview's windows (several targets) */
	uint64_t *last;           /* the overview's "last" (the latest request's latency) */
};

/*
 * What moves the view's screens when nothing is probed live: a recording's cursor
 * (tui_replay.c). The view is the live one — one target's screen, or the overview of
 * several — and calls the driver to feed its fed screens and to take its keys first.
 */
struct tui_driver {
	void *ctx;
	const struct tui_feed *feed; /* the screens' (tui_new_fed) */
	/* Feed every target's screen up to mono (tg[0 .. n)); true when something changed. */
	bool (*advance)(void *ctx, struct tui_driven *tg, size_t n, uint64_t mono);
	/* A key taken before the view's own (on the overview or a target's screen): true when
	 * it was one (the screens are fed again by the next advance). */
	bool (*key)(void *ctx, int ch, bool overview);
	/* Milliseconds the view may sleep for the driver (playing: a frame). */
	int (*sleep_ms)(void *ctx, uint64_t mono);
	const char *window_help;     /* the overview's help on its windows */
	const char *ov_note;         /* the overview's standing note, or NULL */
};

/* A probe step with a screen of its own (--sweep, --qualify): what the view's loop calls. */
struct tui_step {
	void *ctx;
	void (*paint)(void *ctx);                     /* the whole screen, each frame */
	void (*drain)(void *ctx, struct session *ss); /* take the step's records (acked) */
	bool quit;                                    /* q, a stop signal, the terminal gone */
};
/*
 * Run the step of session ss (started) in the view's loop (tui_step.c) until it ends, or
 * q, *stop or the terminal's end set st->quit; its last records drained. The caller stops
 * the session.
 */
void tui_step_run(struct tui_step *st, struct session *ss, const volatile sig_atomic_t *stop);
/* After the last step: the screen shown until q, *stop or the terminal's end (st->quit). */
void tui_step_hold(struct tui_step *st, const volatile sig_atomic_t *stop);

/* One step of --qualify under the view (vp->qualify): 0 or -errno, msg (tui_qualify.c). */
int tui_qualify_run(const struct view_params *vp, char *msg, size_t msglen);
/* A target's screen before the terminal opens; NULL when out of memory. */
struct tui *tui_new(const struct view_params *vp, const struct tui_term_opts *to);
/*
 * A screen fed by a recording: vp without a probe (cfg, rc and engine are read; cfg->interval
 * is the recorded one), feed the replay's (outlives it). Nothing is started or sampled:
 * the replay fills its parts (tui_fed_parts()) and calls tui_fed_changed(). NULL: no memory.
 */
struct tui *tui_new_fed(const struct view_params *vp, const struct tui_term_opts *to,
			const struct tui_feed *feed);
/* A fed screen's model, iostat panel and verdict, to fill. */
void tui_fed_parts(struct tui *t, struct tui_fed *out);
/* The replay changed them: repainted, laid out again when the verdict's rows changed. */
void tui_fed_changed(struct tui *t);
/* Free it (after tui_finish()). */
void tui_free(struct tui *t);
/* Start its probe thread, the clock at now, one of screens (>= 1) the view drains (its ring
 * shrinks with them: session_ring_size). Returns 0 or -errno. */
int tui_one_start(struct tui *t, unsigned screens);
/* Stop the probe thread (asks, interrupts, waits) and drain what is left. */
void tui_finish(struct tui *t);
/* Move waiting records into the model; returns how many there were (a fed screen: 0). */
uint64_t tui_drain(struct tui *t);
/* Once per wake-up: periods, notes, the iostat sample once a second (fed: the notes). */
void tui_tick(struct tui *t, uint64_t mono);
/* A key for the single-target screen (KEY_RESIZE lays it out again); a fed screen takes its
 * display keys only (the probe's are its replay's cursor keys, taken before). */
void tui_key(struct tui *t, int ch);
/* Lay out for the current terminal size. */
void tui_relayout(struct tui *t);
/* Paint its screen now. */
void tui_paint(struct tui *t, uint64_t mono);
/* Milliseconds its screen may sleep. */
int tui_timeout(struct tui *t, uint64_t mono);
/* Hand its kept warnings to the CLI. */
void tui_report_warnings(struct tui *t);
/* Fill p for monotonic ns mono. */
void tui_peek(struct tui *t, uint64_t mono, struct tui_peek *p);
void tui_set_busy(struct tui *t, bool busy);
/* Whether the terminal has colours (the heatmap's ramp); set once the terminal is open. */
void tui_set_color(struct tui *t, bool color);
/* Acknowledge a wake-up of its session's fd. */
void tui_ack(struct tui *t);
/* The footer's note when no other is shown (NULL: none); text must outlive the screen. */
void tui_set_sticky(struct tui *t, const char *text);
/* Call fn(ctx, sample, notice, run ns it ended) for every sample drained. */
void tui_set_hook(struct tui *t, void (*fn)(void *, const struct sample *, enum notice, uint64_t),
		  void *ctx);
/* The probe's result: 0 or -errno with *why. */
int tui_result(struct tui *t, const char **why);
/* The handler of the signal that interrupts a probe's sleep; restore the old one after. */
void tui_wake_install(struct sigaction *old);
void tui_wake_restore(const struct sigaction *old);

/*
 * view_ops.run without --sweep or --qualify (tui_multi.c): the view over n >= 1 probes —
 * one target's screen (its result the return, msg filled), or the overview of several.
 */
int tui_multi_run(const struct view_params *vp, size_t n, char *msg, size_t msglen);
/*
 * The same view over n fed screens (vp without probes) moved by driver d: one target's
 * screen (n = 1), or the overview. Until q or *vp[0].stop; 0, or -errno with msg filled.
 */
int tui_multi_drive(const struct view_params *vp, size_t n, const struct tui_driver *d,
		    char *msg, size_t msglen);
/* view_ops.replay: a recording on the screens (tui_replay.c). */
int tui_replay_run(const struct view_replay *vr, char *msg, size_t msglen);
/* view_ops.run with --sweep (tui_sweep.c). */
int tui_sweep_run(const struct view_params *vp, char *msg, size_t msglen);

#endif
