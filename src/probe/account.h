/*
 * account: ioping 1.3's bookkeeping of each finished request — warmup,
 * too fast / too slow, the (fast)/(slow) notices, failed requests, and the
 * per-period and whole-run tallies behind the summary and the raw lines.
 * The tally_* functions are the one place a classified request is counted:
 * the probe (through account_add) and the view's model both use them.
 * Pure: no clocks, no I/O.
 */
#ifndef IOPROBE_ACCOUNT_H
#define IOPROBE_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "sample.h"
#include "stats.h"

/* What one period, or the whole run, adds up to. */
struct tally {
	struct stats valid;  /* latencies (service times) of valid requests */
	struct stats response; /* response times of valid requests and of skipped slots */
	uint64_t requests;   /* every counted request: warmup, too fast/slow, failed included */
	uint64_t too_fast;
	uint64_t too_slow;
	uint64_t failed;
	uint64_t skipped;    /* schedule slots missed (filled in by the probe) */
	uint64_t wall;       /* ns covered (filled in when the period or run ends) */
};

struct account_cfg {
	uint64_t warmup;     /* requests with index <= warmup are warmup */
	uint64_t min_time;   /* faster is "too fast" */
	uint64_t max_time;   /* slower is "too slow" */
	bool split;          /* keep read and write statistics apart (-G) */
};

struct account {
	struct account_cfg cfg;
	struct tally period;
	struct tally total;
	struct stats read;   /* valid reads of the run (when cfg.split) */
	struct stats write;  /* valid writes of the run (when cfg.split) */
};

/* A list of percentiles to show (--percentiles): 1 to PCTS_MAX, each in (0, 100]. */
#define PCTS_MAX 8
struct pcts {
	unsigned n;
	double p[PCTS_MAX];
};
extern const struct pcts pcts_default; /* what outputs show by default: p50 p90 p99 p99.9 */
#define TALLY_PCTS 4                   /* pcts_default.n */
#define tally_pcts (pcts_default.p)

/* "p99.9", "p95": percentile p as outputs name it (%g after a "p"). Returns buf. */
char *pcts_label(double p, char *buf, size_t len);

/* "p999", "p95": the same without a dot (an InfluxDB field key). Returns buf. */
char *pcts_key(double p, char *buf, size_t len);

/* An empty tally. */
void tally_init(struct tally *t);

/*
 * Count one request that got notice n into t, as ioping 1.3 does: every
 * notice but NOTICE_EMPTY is a request; failed, too fast and too slow have
 * their counters; only NONE/FAST/SLOW add the latency to t->valid and the
 * response time (s->response: from the scheduled start) to t->response.
 */
void tally_add(struct tally *t, const struct sample *s, enum notice n);

/*
 * Count n skipped schedule slots into t's response times: hi, hi - step, ...
 * (see account_add_skipped). Nothing else changes.
 */
void tally_add_skipped(struct tally *t, uint64_t hi, uint64_t step, uint64_t n);

/* Add every count and sample of src into dst (stats_merge; wall times add up). */
void tally_merge(struct tally *dst, const struct tally *src);

/* ioping's "iops": valid requests * 1e9 / their summed time (1 / mean latency); 0 when none. */
double tally_iops(const struct tally *t);

/* Requests per second of wall time (requests * 1e9 / wall); 0 without wall time. */
double tally_load_iops(const struct tally *t);

/* Start with empty tallies. */
void account_init(struct account *a, const struct account_cfg *cfg);

/* Classify one request, add it to the period and the total; returns its notice. */
enum notice account_add(struct account *a, const struct sample *s);

/*
 * The expected-interval correction (HdrHistogram's rule): the probe waited on
 * a request that ended at E while n schedule slots due at D, D + I, ...,
 * D + (n - 1) * I passed unused. Each enters the response times of the period
 * and the run with the response it would have had if it had started the
 * moment the probe was free and completed at once: E - D, E - D - I, ...
 * hi = E - D, step = I. Service times and counters do not change.
 */
void account_add_skipped(struct account *a, uint64_t hi, uint64_t step, uint64_t n);

/*
 * Close the current period: store its wall time and skipped slots, copy it
 * to *out (if out is not NULL) and start a new one.
 */
void account_period_end(struct account *a, uint64_t wall, uint64_t skipped, struct tally *out);

/* The notice text ("warmup", "slow", ...); NULL for NOTICE_NONE/ERROR/EMPTY. */
const char *account_notice_text(enum notice n);

#endif
