/*
 * recorder: --record FILE, the run written as JSON lines (recfmt.h) while it
 * runs. An output like the exporters: the probes' threads and the --iostat
 * ticker only add to memory under a short lock (a request into the open
 * period's tally, a composed line into the pending text); a writer thread of
 * its own hands the pending text to the file's own process (filechild.h: the
 * file is created, written, flushed and closed there; a ".gz" name: zlib,
 * Z_SYNC_FLUSH after each piece, so a stream cut by kill -9 still reads up to
 * its last flush), so a slow or hung file never makes a probe wait, and a
 * disk that hangs holds that process, never the caller: after a stop the
 * file is given up cfg.grace later (recorder_close). The
 * pending text is bounded (RECORDER_PENDING_MAX): beyond it lines are dropped
 * and counted, said once. Periods are the probe's own when it has them (-P,
 * -p: recorder_period), else the recorder closes one every cfg.period on a
 * ticker (recorder_request/_skipped feed it).
 */
#ifndef IOPROBE_RECORDER_H
#define IOPROBE_RECORDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "filechild.h"
#include "iostat.h"
#include "recfmt.h"
#include "sample.h"
#include "sbuf.h"
#include "ticker.h"
#include "verdict.h"
#include "watchdog.h"

#define RECORDER_PENDING_MAX (64u << 20) /* bytes waiting for the writer at most */
#define RECORDER_FLUSH_NS 200000000ull   /* the writer looks at least this often */

struct recorder_cfg {
	const char *path;          /* the file to create (O_EXCL: never an existing one) */
	bool requests;             /* --record-requests: a line per request */
	uint64_t period;           /* ns: the recorder closes periods (0: the probe's, recorder_period) */
	void (*warn)(const char *text); /* a problem worth a line on stderr (thread-safe) */
	const volatile sig_atomic_t *stop; /* the run's stop flag (NULL: none) */
	const _Atomic uint64_t *stop_at;   /* monotonic ns of the stop signal, 0 before (NULL) */
	uint64_t grace;            /* after a stop, how long the file's process is waited for */
};

struct recorder_tgt {
	struct tally cur;          /* the open period (when the recorder closes them) */
	struct rec_errors err;     /* failures since the last period line */
	struct rec_errors err_all; /* failures of the run (the summary's) */
	uint64_t seq;              /* periods written */
	uint64_t skip_seen;        /* the run's skipped slots as of its last request */
	uint64_t opened;           /* monotonic ns the open period began */
	uint64_t steps;            /* --sweep steps written */
	const struct probe_ctl *ctl; /* its probe's request in flight, watched (recorder_watch) */
	struct watchdog_seen seen;
	bool running;              /* periods are written for it */
};

struct recorder {
	struct recorder_cfg cfg;
	struct filechild fc;       /* the file's process */
	bool open;                 /* fc runs (recorder_close not yet called) */
	int err;                   /* the file's first failure (-errno; its text in fc.msg) */
	pthread_mutex_t lock;      /* guards tgt[] */
	pthread_mutex_t out_lock;  /* guards pending, stopping, dropped */
	pthread_cond_t wake;
	struct sbuf pending;
	struct sbuf batch;         /* the writer's: what it hands to the file's process now */
	bool stopping, writer_started, failed, dropped_said;
	uint64_t dropped;          /* lines dropped (pending full) */
	pthread_t writer;
	struct ticker ticker;      /* closes the periods (cfg.period) */
	size_t n;
	struct recorder_tgt *tgt;
	uint64_t start;            /* monotonic ns of recorder_start */
	uint64_t hang_warn;        /* recorder_watch: the first hang warning after this many ns */
	uint64_t iostat_seq;
	bool wrote;                /* the header went out */
};

/*
 * Create cfg->path for n targets (in the file's process: O_CREAT|O_EXCL|
 * O_NOFOLLOW, a regular file checked with fstat). Returns 0, or -errno with
 * msg filled (-EEXIST: it exists and is refused; -ETIMEDOUT: a stop came and
 * the creation hung).
 */
int recorder_open(struct recorder *rc, const struct recorder_cfg *cfg, size_t n, char *msg,
		  size_t msglen);

/* Mark target i as running (its periods are written). Before recorder_start. */
void recorder_running(struct recorder *rc, size_t i);

/* Queue the header and start the writer (and the period ticker). 0 or -errno (msg filled). */
int recorder_start(struct recorder *rc, const struct rec_header *h, char *msg, size_t msglen);

/* Probe side, target i: a finished request with its notice (brief: never waits on the file). */
void recorder_request(struct recorder *rc, size_t i, const struct sample *s, enum notice n);

/* Probe side: n skipped slots of target i (account_add_skipped's rule). */
void recorder_skipped(struct recorder *rc, size_t i, uint64_t hi, uint64_t step, uint64_t n);

/* Probe side: target i's probe closed a period t (-P, -p; cfg.period 0). */
void recorder_period(struct recorder *rc, size_t i, const struct tally *t);

/* One target's side of an --iostat block: its verdict (own: its stack's rows when the run has
 * several targets, else NULL). */
struct rec_side {
	size_t i;
	const struct iostat_dev_row *own;
	size_t nown;
	const struct verdict_probe *p;
	const struct verdict *v;
};

/*
 * One --iostat block (the CLI's ticker or the view's device sampler): its rows (the table),
 * read at CLOCK_REALTIME real ns (0: now), and the sides of the targets judged on it, queued
 * as one piece so that no other line comes between them.
 */
void recorder_block(struct recorder *rc, uint64_t real, const struct iostat_dev_row *rows,
		    size_t n, const struct rec_side *side, size_t nside);

/* A warning (i -1: the run's) or a failure (errno err, positive) of target i. */
void recorder_warning(struct recorder *rc, long i, const char *text);
void recorder_failure(struct recorder *rc, long i, int err, const char *text);

/*
 * Watch target i's request in flight (ctl, on a page the probe shares) and
 * record the hang warnings the watchdog says on stderr ("request in flight
 * for 5.0 s", first after first_warn ns, then each time the wait doubles:
 * watchdog_due), looked at by the writer every RECORDER_FLUSH_NS. ctl must
 * stay mapped until recorder_unwatch or recorder_close.
 */
void recorder_watch(struct recorder *rc, size_t i, const struct probe_ctl *ctl,
		    uint64_t first_warn);

/* Stop watching every target (before their control pages go away). */
void recorder_unwatch(struct recorder *rc);

/*
 * --sweep: target i finished a step (its row r, with r->verdict; line: the table row as
 * printed, no newline; grid: a cell of a grid). Returns the step's number (0, 1, ...).
 */
uint64_t recorder_step(struct recorder *rc, size_t i, bool grid, const struct sweep_row *r,
		       const char *line);

/* --sweep's conclusions for target i (recfmt_knee: text, the step numbers or -1). */
void recorder_knee(struct recorder *rc, size_t i, bool grid, const char *text, long knee,
		   long best, long limit);

/*
 * Target i's probe ended while the run goes on (the view stays until q): its last, partial
 * period is written when something happened in it, and no more periods for it.
 */
void recorder_target_ended(struct recorder *rc, size_t i);

/*
 * After the probes stopped: close every open period (cfg.period), then
 * target i's summary (recorder_summary, each in turn: with -G its reads and
 * writes, with --layers its layers' tally, else NULL) and recorder_end.
 */
void recorder_finish_periods(struct recorder *rc);
void recorder_summary(struct recorder *rc, size_t i, int ret, const char *msg,
		      const struct tally *total, const struct stats *read, const struct stats *write,
		      const struct layer_tally *lt);
void recorder_end(struct recorder *rc, int code);

/*
 * Stop the writer after it handed everything to the file's process, and wait
 * for that process to close the file (a recorder that never started, no
 * header: it removes its empty file). Waits until then, or cfg.grace after a
 * stop (the disk hangs: the process is given up and finishes, or not, when
 * its request returns). Idempotent. Returns 0, or -errno when the recording
 * is not whole (a write failed: said through warn as it happened; -ETIMEDOUT:
 * given up); the reason is in rc->fc.msg.
 */
int recorder_close(struct recorder *rc);

#endif
