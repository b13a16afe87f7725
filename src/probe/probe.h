/*
 * probe: the measuring loop. Picks offsets, drops the page cache, waits for
 * each request's due time, times the request (and its fdatasync for writes),
 * classifies it and hands it to a sink. It knows nothing about output
 * formats: the CLI and the TUI are sinks.
 */
#ifndef IOPROBE_PROBE_H
#define IOPROBE_PROBE_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "engine.h"
#include "openloop.h"
#include "pacer.h"
#include "rng.h"
#include "target.h"

struct probe_cfg {
	uint64_t count;          /* stop after this many requests; 0 = never */
	uint64_t deadline;       /* no start at or after first start + deadline; 0 = none */
	uint64_t interval;       /* ns between starts */
	uint64_t burst;          /* -b */
	uint64_t print_count;    /* period every N valid requests; 0 = off */
	uint64_t print_interval; /* period every T ns; 0 = off */
	uint64_t seed;           /* PRNG seed; 0 = from the clock */
	bool linear;             /* sequential offsets */
	bool cached;             /* no DONTNEED, no fdatasync */
	bool write;              /* every request writes */
	bool read_write;         /* odd requests write, even ones read */
	bool ignore_error;       /* count failed requests and go on */
	bool nowait;             /* EAGAIN is an expected failure */
	unsigned depth;          /* -Q: requests in flight at most; 0 or 1 = one at a time */
	bool poisson;            /* --arrivals poisson: exponential gaps of mean interval, on
				  * the open-loop schedule even at depth 1 (an async engine) */
	struct account_cfg account;
};

/* Where results go. Callbacks return 0, or a negative errno to end the run. */
struct probe_sink {
	void *ctx;
	int (*request)(void *ctx, const struct sample *s, enum notice n);
	int (*period)(void *ctx, const struct tally *t);
	int (*burst_end)(void *ctx);
	/* A non-fatal problem worth a line on stderr (text without "ioprobe: "). */
	void (*warn)(void *ctx, const char *text);
	/*
	 * Optional: n schedule slots passed while the probe waited; their
	 * response times are hi, hi - step, ... (account_add_skipped's rule,
	 * told right after the account got them).
	 */
	void (*skipped)(void *ctx, uint64_t hi, uint64_t step, uint64_t n);
	/*
	 * Optional, prober_run only (probe_run never calls it): called on the
	 * caller's thread every time it looks at the child (at least every
	 * second, every 20 ms after a stop; also while a request hangs), for
	 * what the caller looks after meanwhile (the hang watchdog's process:
	 * watchdog_check).
	 */
	void (*idle)(void *ctx);
};

/*
 * Live control of a running probe from another thread (the TUI), and what it
 * can read back while a request is in flight. All fields are atomics.
 */
struct probe_ctl {
	atomic_bool pause;             /* set: no new request starts */
	_Atomic uint64_t interval;     /* non-zero: switch to this interval (ns) */
	atomic_uint reset;             /* bump to restart the statistics */
	_Atomic uint64_t inflight;     /* monotonic ns the current (oldest) request started; 0 = idle */
	_Atomic unsigned inflight_n;   /* requests in flight; kept by the depth > 1 loop only */
	_Atomic uint64_t finished;     /* requests finished so far, counted before the sink hears
	                                * of each: a consumer that has heard of fewer has some on
	                                * their way */
};

struct probe {
	struct probe_cfg cfg;
	struct probe_ctl *ctl;   /* optional (NULL from the CLI) */
	struct target *target;
	struct engine *engine;
	void *buf;               /* the engine's buffer */
	struct rng rng;
	struct pacer pacer;
	struct openloop ol;      /* the schedule at depth > 1 */
	struct account acct;     /* acct.total is the run's result */
	uint64_t first_start;    /* monotonic ns of the first start */
	uint64_t requests;       /* requests issued */
	uint64_t woffset;        /* next sequential offset within the working set */
	/*
	 * Optional, set after probe_init: a second sink a front end that runs the
	 * probe elsewhere (session.c) also tells of requests and skipped slots
	 * (the exporters beside the view). Only request and skipped are used.
	 */
	const struct probe_sink *tap;
	/*
	 * Optional, set after probe_init (--layers, depth 1 only): the record the
	 * eBPF programs share (layers_load.h). Each request's sample then carries
	 * its layers; probe_run() makes it the running process's.
	 */
	struct layers_area *layers;
	struct layers_map *layers_map; /* a file's place on its device (probe_run's own) */
};

/* Prepare a probe over an open target and started engine (buf is the engine's buffer). */
void probe_init(struct probe *p, const struct probe_cfg *cfg, struct target *t,
		struct engine *e, void *buf);

/*
 * Run until the count, the deadline or *stop. At depth > 1 (an engine with
 * submit/reap, buffers engine_buf(e, 0..depth-1)) requests start on the
 * open-loop schedule (openloop.h) and are handed to the sink in completion
 * order; at the end every request in flight is waited for. Returns 0 (also when stopped),
 * a sink's negative return, or -errno for a fatal request error with msg
 * filled (the CLI exits 3). acct.total holds the tallies either way.
 */
int probe_run(struct probe *p, const struct probe_sink *sink, const volatile sig_atomic_t *stop,
	      char *msg, size_t msglen);

#endif
