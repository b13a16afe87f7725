/*
 * metrics: what the fleet exporters publish, per target — a latency
 * histogram with fixed fleet-wide buckets, errors by errno, bytes, skipped
 * slots, the last completion — fed by the probe thread one request at a time
 * and copied out by exporter threads. Each target has its own mutex, held
 * only for a handful of additions or one copy, so neither side ever waits on
 * the other's I/O. Pure: no clocks (callers pass the time), no I/O.
 *
 * The in-flight requests are not recorded here: the probe publishes the
 * start of the oldest (probe_ctl.inflight, monotonic ns) and, at depth > 1,
 * how many are in flight (probe_ctl.inflight_n); metrics_snapshot() reads
 * both, so a hung request shows up as a growing age while no completion
 * arrives. Response times (completion - scheduled start) go into a second
 * histogram with the same buckets, skipped slots included with the response
 * they would have had (account_add_skipped's rule).
 */
#ifndef IOPROBE_METRICS_H
#define IOPROBE_METRICS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"

/* Finite buckets: 1-2-5 per decade from 10 us to 10 s; one more counts the rest (+Inf). */
#define METRICS_BUCKETS 19
/* Distinct errno values kept per operation (slot 0 is EIO from the start); others go to "other". */
#define METRICS_ERRNOS 8
#define METRICS_OPS 2 /* enum op: OP_READ, OP_WRITE */

/* Upper bounds (ns, inclusive, as Prometheus' le) of the finite buckets. */
extern const uint64_t metrics_bucket_ns[METRICS_BUCKETS];
/* The same bounds as OpenMetrics canonical numbers ("1e-05" ... "10.0"). */
extern const char *const metrics_bucket_le[METRICS_BUCKETS];

/* What a target is: fixed once the probe starts. Strings are owned by the caller. */
struct metrics_info {
	const char *target;   /* the path as given */
	const char *device;   /* the device holding it ("loop0", "nvme0n1p1"), or "" */
	const char *disk;     /* its whole disk (what node_exporter's node_disk_* keep), or "" */
	const char *fstype;   /* file system type, or "" for a device */
	const char *engine;   /* sync, libaio, io_uring, null */
	const char *mode;     /* read, write, read-write */
	uint64_t interval;    /* ns between request starts */
	uint64_t size;        /* request size, bytes */
	uint64_t start_real;  /* CLOCK_REALTIME ns the probe started */
	bool op[METRICS_OPS]; /* the operations this probe performs */
	bool response;        /* response times are published (-Q or --response) */
};

/* A histogram over the fleet buckets. */
struct metrics_hist {
	uint64_t bucket[METRICS_BUCKETS + 1]; /* per bucket, not cumulative; last = over 10 s */
	uint64_t count;
	uint64_t sum;                         /* ns, saturating */
};

struct metrics_op {
	uint64_t bucket[METRICS_BUCKETS + 1]; /* per bucket, not cumulative; last = over 10 s */
	uint64_t count;                       /* completed valid (non-warmup) requests */
	uint64_t sum;                         /* their latencies, ns */
	uint64_t bytes;                       /* bytes they transferred */
	int err_no[METRICS_ERRNOS];           /* errno of each slot (positive), 0 = free */
	uint64_t errors[METRICS_ERRNOS];      /* failed requests per slot */
	uint64_t errors_other;                /* failed requests whose errno found no slot */
	uint64_t last_real;                   /* CLOCK_REALTIME ns of the last completion, 0 = none */
	struct metrics_hist response;         /* response times: the valid requests' and skipped slots' */
};

/* One target's live counters (metrics_record) and its copy (metrics_snapshot). */
struct metrics_counts {
	struct metrics_op op[METRICS_OPS];
	uint64_t skipped;                     /* schedule slots missed so far */
};

struct metrics_target {
	struct metrics_info info;
	pthread_mutex_t lock;                 /* guards counts */
	struct metrics_counts counts;
	const _Atomic uint64_t *inflight;     /* probe_ctl.inflight, or NULL */
	const _Atomic unsigned *inflight_n;   /* probe_ctl.inflight_n, or NULL */
	enum op last_op;                      /* operation of the last request (the probe's) */
};

/* A consistent copy of one target, with the in-flight state at the copy's time. */
struct metrics_snap {
	const struct metrics_info *info;
	struct metrics_counts counts;
	unsigned in_flight;                   /* requests in flight */
	uint64_t oldest_in_flight;            /* ns the oldest has been in flight, 0 when none */
};

/*
 * Prepare t for a target described by info (copied; its strings must outlive
 * t). inflight is the probe's in-flight start (may be NULL). Returns 0 or -errno.
 */
int metrics_target_init(struct metrics_target *t, const struct metrics_info *info,
			const _Atomic uint64_t *inflight);

/* Release t's mutex. */
void metrics_target_destroy(struct metrics_target *t);

/*
 * Probe side: add one finished request (its notice from account_add),
 * completed at now_real (CLOCK_REALTIME ns), with skipped slots so far.
 * Valid requests and those outside -t/-T go into the histograms (latency and
 * response time; a stall must show), warmup and empty ones only update the
 * last completion, failed ones count by errno.
 */
void metrics_record(struct metrics_target *t, const struct sample *s, enum notice n,
		    uint64_t now_real, uint64_t skipped);

/*
 * Probe side: n skipped schedule slots whose responses would have been hi,
 * hi - step, ... (account_add_skipped's rule) go into the response
 * histogram of the operation of the last request recorded (the one that
 * stalled the probe).
 */
void metrics_record_skipped(struct metrics_target *t, uint64_t hi, uint64_t step, uint64_t n);

/*
 * Exporter side: copy t at now (CLOCK_MONOTONIC ns) into out: in_flight is
 * probe_ctl.inflight_n, or 1 while only a start is published (depth 1).
 */
void metrics_snapshot(struct metrics_target *t, uint64_t now, struct metrics_snap *out);

/* Pure counting, no lock: add s to c (what metrics_record does under the lock). */
void metrics_count(struct metrics_counts *c, const struct sample *s, enum notice n,
		   uint64_t now_real);

/* Pure: add the n values hi, hi - step, ..., hi - (n - 1) * step (all > 0) to h. */
void metrics_hist_add_series(struct metrics_hist *h, uint64_t hi, uint64_t step, uint64_t n);

/* Index of the bucket that holds ns (METRICS_BUCKETS for over 10 s). */
size_t metrics_bucket_index(uint64_t ns);

#endif
