/*
 * metrics: what the fleet exporters publish, per target — a latency
 * histogram with fixed fleet-wide buckets, errors by errno, bytes, skipped
 * slots, the last completion, and with --layers each request's layers (a histogram
 * per layer, pieces, requests without a device) — fed by the probe thread one request at a time
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
 *
 * Beside the fleet buckets, both histograms keep native (sparse exponential)
 * buckets for the protobuf exposition (Prometheus' native histograms): schema
 * METRICS_NATIVE_SCHEMA, bucket i holding the values in
 * (2^((i-1)/16), 2^(i/16)] seconds, so each bucket is 2^(1/16) = 4.4 % wider than
 * the one below (a quantile read from them is within that of the exact one;
 * schema 3's 9 % is too coarse, schema 5 doubles the buckets for no need). A
 * fixed array per histogram covers every index from just above the zero
 * threshold (2^-30 s, 0.93 ns: only a 0 ns value is "zero") to 2^35 s (beyond
 * UINT64_MAX ns), so no value is ever clamped: METRICS_NATIVE_BUCKETS (1040)
 * counters of 8 bytes, 8.1 KiB per histogram, 32.5 KiB per target (latency and
 * response time, read and write). They live beside the counts, not in them,
 * so the text formats' snapshots stay small; metrics_snapshot_native() copies
 * both under the same lock.
 */
#ifndef IOPROBE_METRICS_H
#define IOPROBE_METRICS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "layerstat.h"
#include "verdict.h"

/* Finite buckets: 1-2-5 per decade from 10 us to 10 s; one more counts the rest (+Inf). */
#define METRICS_BUCKETS 19
/* Distinct errno values kept per operation (slot 0 is EIO from the start); others go to "other". */
#define METRICS_ERRNOS 8
#define METRICS_OPS 2 /* enum op: OP_READ, OP_WRITE */

/*
 * Native buckets: schema 4 (2^4 buckets per power of two), the zero bucket
 * [0, 2^-30 s], indices METRICS_NATIVE_MIN..METRICS_NATIVE_MAX kept.
 */
#define METRICS_NATIVE_SCHEMA 4
#define METRICS_NATIVE_PER_POW2 (1 << METRICS_NATIVE_SCHEMA)
#define METRICS_NATIVE_ZERO_LOG2 (-30) /* zero threshold 2^-30 s: below 1 ns */
#define METRICS_NATIVE_MIN (METRICS_NATIVE_ZERO_LOG2 * METRICS_NATIVE_PER_POW2 + 1)
#define METRICS_NATIVE_MAX (35 * METRICS_NATIVE_PER_POW2) /* 2^35 s > UINT64_MAX ns */
#define METRICS_NATIVE_BUCKETS (METRICS_NATIVE_MAX - METRICS_NATIVE_MIN + 1)

/* Upper bounds (ns, inclusive, as Prometheus' le) of the finite buckets. */
extern const uint64_t metrics_bucket_ns[METRICS_BUCKETS];
/* The same bounds as OpenMetrics canonical numbers ("1e-05" ... "10.0"). */
extern const char *const metrics_bucket_le[METRICS_BUCKETS];

/* What a target is: fixed once the probe starts. Strings are owned by the caller. */
struct metrics_info {
	const char *target;   /* the path as given */
	const char *name;     /* its short name (NAME=PATH, --name): a "name" label; or NULL */
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
	bool layers;          /* the requests' layers are measured (--layers): published */
	bool verdict;         /* the run judges this target (its device watched): published */
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

/* One histogram's native buckets. */
struct metrics_native {
	uint64_t zero;                                /* values in the zero bucket (0 ns) */
	uint64_t bucket[METRICS_NATIVE_BUCKETS];      /* [i]: index METRICS_NATIVE_MIN + i */
};

/* A target's native buckets: the latency and the response-time histogram of each operation. */
struct metrics_natives {
	struct metrics_native latency[METRICS_OPS];
	struct metrics_native response[METRICS_OPS];
};

/*
 * --layers: where the probe's requests spent their time, measured in the kernel (the
 * requests layer_tally_add() counts: valid, with their layers measured).
 */
struct metrics_layers {
	struct metrics_hist layer[LAYERS_N];  /* ns per layer, of the requests that reached the device */
	uint64_t requests;                    /* requests with their layers measured */
	uint64_t pieces;                      /* block requests those that reached the device became */
	uint64_t no_device;                   /* requests served without a block request */
};

/* The saturation verdict on the target's device (metrics_judged), published when info.verdict. */
struct metrics_verdict {
	bool judged;                          /* an interval was judged */
	enum verdict_state state;             /* the last interval's state */
	enum verdict_reason reason;           /* ... and its reason (verdict_reason_of) */
	uint64_t state_ns[VERDICT_STATES];    /* the judged intervals' time in each state */
	uint64_t intervals;                   /* intervals judged */
};

/* One target's live counters (metrics_record) and its copy (metrics_snapshot). */
struct metrics_counts {
	struct metrics_op op[METRICS_OPS];
	uint64_t skipped;                     /* schedule slots missed so far */
	struct metrics_layers layers;         /* published when info.layers */
	struct metrics_verdict verdict;       /* published when info.verdict */
};

struct metrics_target {
	struct metrics_info info;
	pthread_mutex_t lock;                 /* guards counts and native */
	struct metrics_counts counts;
	struct metrics_natives native;        /* guarded by lock too */
	const _Atomic uint64_t *inflight;     /* probe_ctl.inflight, or NULL */
	const _Atomic unsigned *inflight_n;   /* probe_ctl.inflight_n, or NULL */
	enum op last_op;                      /* operation of the last request (the probe's) */
};

/* A consistent copy of one target, with the in-flight state at the copy's time. */
struct metrics_snap {
	const struct metrics_info *info;
	struct metrics_counts counts;
	const struct metrics_natives *native; /* the native buckets copied with counts, or NULL */
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

/*
 * Exporter side, without a copy of the counts: the requests in flight at now (CLOCK_MONOTONIC
 * ns; probe_ctl.inflight_n, or 1 while only a start is published) and how long the oldest has
 * been in flight (0 when none), as metrics_snapshot() gives them.
 */
void metrics_in_flight(const struct metrics_target *t, uint64_t now, unsigned *n,
		       uint64_t *oldest);

/*
 * The judging side (the run's verdict ticker or the view): one judged interval of period_ns
 * ended in v's state with verdict_reason_of(v): it becomes the current one and its time is
 * added to that state's (under t's lock).
 */
void metrics_judged(struct metrics_target *t, const struct verdict *v, uint64_t period_ns);

/* Exporter side: the last verdict and the time in each state (under t's lock). */
struct metrics_verdict metrics_verdict_get(struct metrics_target *t);

/* Exporter side: the schedule slots missed so far (under t's lock). */
uint64_t metrics_skipped(struct metrics_target *t);

/*
 * Exporter side: metrics_snapshot(), and t's native buckets copied into
 * native under the same lock (out->native points to it; native must outlive
 * the use of out).
 */
void metrics_snapshot_native(struct metrics_target *t, uint64_t now, struct metrics_snap *out,
			     struct metrics_natives *native);

/*
 * Pure counting, no lock: add s to c (what metrics_record does under the lock), its layers
 * too when measured (layer_tally_add()'s rule: valid requests only).
 */
void metrics_count(struct metrics_counts *c, const struct sample *s, enum notice n,
		   uint64_t now_real);

/* Pure: add the n values hi, hi - step, ..., hi - (n - 1) * step (all > 0) to h. */
void metrics_hist_add_series(struct metrics_hist *h, uint64_t hi, uint64_t step, uint64_t n);

/* Index of the bucket that holds ns (METRICS_BUCKETS for over 10 s). */
size_t metrics_bucket_index(uint64_t ns);

/*
 * Pure counting, no lock: add s to nv by metrics_count()'s rules (the
 * latency and response time of the requests the fleet histograms count).
 */
void metrics_count_native(struct metrics_natives *nv, const struct sample *s, enum notice n);

/*
 * Native index of ns > 0 ns (METRICS_NATIVE_MIN..METRICS_NATIVE_MAX): the
 * smallest i with ns / 1e9 <= 2^(i/16) in double arithmetic, exactly as
 * Prometheus' Go client places an observation of ns / 1e9 seconds.
 */
int metrics_native_index(uint64_t ns);

/*
 * The largest ns whose native index is at most i (METRICS_NATIVE_MIN <= i <=
 * METRICS_NATIVE_MAX; 0 when no ns above 0 is): the bucket's inclusive upper bound in ns.
 */
uint64_t metrics_native_upper(int i);

/* Pure: add one value of ns to h (0 ns goes to the zero bucket). */
void metrics_native_add(struct metrics_native *h, uint64_t ns);

/* Pure: metrics_hist_add_series() for native buckets (the same values, n cut the same way). */
void metrics_native_add_series(struct metrics_native *h, uint64_t hi, uint64_t step, uint64_t n);

#endif
