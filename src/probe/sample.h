/*
 * sample: what flows out of the probe — one finished request (struct
 * sample), the direction it went (enum op) and how ioping's bookkeeping
 * classified it (enum notice). The "samples" of the README's arrow
 * options -> target -> probe -> samples -> {CLI | view}: account tallies
 * them, report prints them, session carries them to the view.
 */
#ifndef IOPROBE_SAMPLE_H
#define IOPROBE_SAMPLE_H

#include <stdint.h>

#include "layers.h"

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
	uint64_t skipped;  /* schedule slots missed in the run so far, when it finished */
	uint64_t response; /* ns from the scheduled start to the completion */
	struct layer_times layers; /* --layers: where it spent its time (layers.measured) */
};

#endif
