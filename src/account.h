/*
 * account: ioping 1.3's bookkeeping of each finished request — warmup,
 * too fast / too slow, the (fast)/(slow) notices, failed requests, and the
 * per-period and whole-run tallies behind the summary and the raw lines.
 * Pure: no clocks, no I/O.
 */
#ifndef IOPROBE_ACCOUNT_H
#define IOPROBE_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

enum op { OP_READ, OP_WRITE };

enum notice {
	NOTICE_NONE,
	NOTICE_WARMUP,
	NOTICE_TOO_FAST,
	NOTICE_TOO_SLOW,
	NOTICE_FAST,
	NOTICE_SLOW,
	NOTICE_ERROR,   /* failed request: the notice text is the errno name */
	NOTICE_EMPTY,   /* returned 0 bytes: shown, counted nowhere (as ioping) */
};

/* One finished request, as the probe loop measured it. */
struct sample {
	uint64_t request;  /* 1-based index */
	enum op op;
	uint64_t offset;   /* file or device offset, bytes */
	uint64_t size;     /* requested bytes */
	int64_t result;    /* bytes returned, or -errno */
	uint64_t time;     /* latency, ns */
	uint64_t start;    /* start, ns since the run's first start */
	uint64_t lateness; /* ns the start came after its due time */
};

/* What one period, or the whole run, adds up to. */
struct tally {
	struct stats valid;  /* latencies of valid requests */
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

/* Start with empty tallies. */
void account_init(struct account *a, const struct account_cfg *cfg);

/* Classify one request, add it to the period and the total; returns its notice. */
enum notice account_add(struct account *a, const struct sample *s);

/*
 * Close the current period: store its wall time and skipped slots, copy it
 * to *out (if out is not NULL) and start a new one.
 */
void account_period_end(struct account *a, uint64_t wall, uint64_t skipped, struct tally *out);

/* The notice text ("warmup", "slow", ...); NULL for NOTICE_NONE/ERROR/EMPTY. */
const char *account_notice_text(enum notice n);

#endif
