/*
 * tui_int: what the view's front modules share — tui_screen.c's single-target
 * screen, driven by tui.c (the entry point: one target), tui_multi.c (several
 * targets on an overview) and tui_sweep.c (--sweep). Only for tui/; struct
 * tui stays private to tui_screen.c. Calls go one way: tui.c -> tui_multi.c,
 * tui_sweep.c -> tui_screen.c.
 */
#ifndef IOPROBE_TUI_INT_H
#define IOPROBE_TUI_INT_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "sample.h"
#include "tui_iostat.h"
#include "tui_model.h"
#include "tui_term.h"
#include "tui_verdict.h"
#include "view.h"

struct tui;

/* The view's timing, one set for the screen, the overview and the sweep. */
#define TUI_FRAME_NS 100000000ull      /* at most 10 frames a second */
#define TUI_TICK_NS 1000000000ull      /* clock, periods, rows and iostat refresh */
#define TUI_BUSY_NS 20000000ull        /* drain this often while records pour in */
#define TUI_NOTE_NS 3000000000ull      /* how long a footer note stays */
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

/* One step of --qualify under the view (vp->qualify): 0 or -errno, msg (tui_qualify.c). */
int tui_qualify_run(const struct view_params *vp, char *msg, size_t msglen);
/* One target's whole run on its screen (view_ops.run without --sweep): 0 or -errno, msg. */
int tui_screen_run(const struct view_params *vp, char *msg, size_t msglen);
/* A target's screen before the terminal opens; NULL when out of memory. */
struct tui *tui_new(const struct view_params *vp, const struct tui_term_opts *to);
/* Free it (after tui_finish()). */
void tui_free(struct tui *t);
/* Start its probe thread, the clock at now. Returns 0 or -errno. */
int tui_one_start(struct tui *t);
/* Stop the probe thread (asks, interrupts, waits) and drain what is left. */
void tui_finish(struct tui *t);
/* Move waiting records into the model; returns how many there were. */
uint64_t tui_drain(struct tui *t);
/* Once per wake-up: periods, notes, the iostat sample once a second. */
void tui_tick(struct tui *t, uint64_t mono);
/* A key for the single-target screen (KEY_RESIZE lays it out again). */
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

/* view_ops.run with several targets: the overview (tui_multi.c). */
int tui_multi_run(const struct view_params *vp, size_t n, char *msg, size_t msglen);
/* view_ops.replay: a recording on the screens (tui_replay.c). */
int tui_replay_run(const struct view_replay *vr, char *msg, size_t msglen);
/* view_ops.run with --sweep (tui_sweep.c). */
int tui_sweep_run(const struct view_params *vp, char *msg, size_t msglen);

#endif
