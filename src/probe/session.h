/*
 * session: a probe running apart, for front ends that must never block on
 * I/O (the TUI): its requests are issued by a child process (prober.h, so a
 * request that never returns cannot hold the view's process), whose records
 * a thread of the session takes. Every finished request, closed period and
 * warning becomes a record in a lock-free ring; an eventfd wakes the consumer at most
 * every SESSION_WAKE_NS (and at once when the run ends). The consumer steers
 * the probe through session.ctl (pause, interval, reset) and reads
 * ctl.inflight to show a request stuck in the kernel.
 */
#ifndef IOPROBE_SESSION_H
#define IOPROBE_SESSION_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "account.h"
#include "msg.h"
#include "probe.h"
#include "ring.h"

#define SESSION_WAKE_NS 100000000ull /* 10 wake-ups a second at most */
#define SESSION_RING 65536           /* records buffered for a slow consumer (one session) */
#define SESSION_RING_MIN 4096        /* ... at least, however many run beside it */
#define SESSION_RING_ALL (8u * SESSION_RING) /* ... the sessions of one view together at most */

enum session_rec_kind { SESSION_SAMPLE, SESSION_PERIOD_END, SESSION_WARNING, SESSION_BURST_END };

struct session_rec {
	enum session_rec_kind kind;
	enum notice notice;         /* SESSION_SAMPLE */
	union {
		struct sample sample; /* SESSION_SAMPLE */
		char text[72];        /* SESSION_WARNING (a record stays small: one per request) */
	};
};

enum session_state { SESSION_RUNNING, SESSION_DONE, SESSION_FAILED };

struct session {
	struct probe *probe;
	struct probe_ctl *ctl;        /* the probe's: the caller's, or prober_ctl()'s */
	struct ring ring;
	int wake_fd;                  /* eventfd: readable when records or the end arrived */
	pthread_t thread;
	bool started;
	volatile sig_atomic_t stop;   /* set by session_stop() or a signal handler */
	_Atomic int state;            /* enum session_state */
	_Atomic uint64_t last_wake;   /* monotonic ns of the last eventfd write */
	int result;                   /* probe_run()'s return, valid once state != RUNNING */
	char msg[MSG_MAX];            /* its message when it failed */
};

/*
 * The ring of one session among sessions (>= 1) that one consumer drains: SESSION_RING
 * records for up to 8, fewer beyond (a power of two, SESSION_RING_MIN at least), so that a
 * consumer that stalls (a terminal that blocks) holds SESSION_RING_ALL records of 128 B,
 * 64 MiB, however many targets it shows (64 targets of 65,536 would hold 512 MiB).
 */
uint64_t session_ring_size(unsigned sessions);

/*
 * Start p (from prober_alloc(), initialised with probe_init()), one of sessions (>= 1)
 * drained by one consumer (its ring: session_ring_size): a new thread
 * runs it with prober_run(). The session steers p through p->ctl: the one
 * already set (shared memory: the exporters read it too), else the
 * prober's. p->tap, when set, hears every request and skipped slot on the
 * session's thread. A request still in flight PROBER_GRACE_NS after a stop
 * is given up: the session then ends SESSION_FAILED with -ETIMEDOUT.
 * Returns 0 or -errno.
 */
int session_start(struct session *s, struct probe *p, unsigned sessions);

/* Consumer: take the next record; false when none is waiting. */
bool session_next(struct session *s, struct session_rec *rec);

/* Consumer: clear the eventfd after a wake-up (call before draining). */
void session_ack(struct session *s);

/* Current state (enum session_state). */
int session_state(struct session *s);

/* ---- accessors: what a consumer may read and steer (it never touches the fields) ---- */

/* The eventfd to poll for records (readable when records or the end arrived). */
int session_wake_fd(const struct session *s);

/* Monotonic ns of the probe's first start; valid once a SESSION_SAMPLE was taken. */
uint64_t session_first_start(const struct session *s);

/* Pause (true) or resume probing; no new request starts while paused. */
void session_pause(struct session *s, bool paused);

/* Switch the probe to interval ns between starts (non-zero). */
void session_set_interval(struct session *s, uint64_t ns);

/* Restart the probe's statistics before its next request. */
void session_reset_stats(struct session *s);

/* Monotonic ns the request in flight started, 0 when none is in flight. */
uint64_t session_inflight_since(const struct session *s);

/* Records lost because the consumer was too slow. */
uint64_t session_dropped(const struct session *s);

/* The pid of the child that runs the probe (prober_pid()), 0 when none runs. Any thread. */
pid_t session_prober_pid(const struct session *s);

/* probe_run()'s result (0 or -errno) and its message ("" when none); valid once not RUNNING. */
int session_result(const struct session *s, const char **msg);

/*
 * Ask the probe to stop without waiting: unpause it and interrupt its sleep
 * with signal sig (whose handler the caller installed without SA_RESTART).
 * Call again while session_state() is SESSION_RUNNING: a request in flight
 * cannot be interrupted.
 */
void session_interrupt(struct session *s, int sig);

/* Ask the probe to stop, wait for its thread, free the session's resources. */
void session_stop(struct session *s);

#endif
