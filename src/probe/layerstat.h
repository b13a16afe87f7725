/*
 * layerstat: the layers (layers.h) of many requests — a run's or a
 * period's — as one tally: per layer the statistics of stats.h (mean,
 * percentiles), the mean count of pieces and the requests served without
 * the device. Pure: no I/O. Keep one per run and, for per-period outputs, one
 * per period (layer_tally_init at each period's end, layer_tally_merge to
 * combine).
 */
#ifndef IOPROBE_LAYERSTAT_H
#define IOPROBE_LAYERSTAT_H

#include <stdint.h>

#include "sample.h"
#include "stats.h"

enum layer { LAYER_SUBMIT, LAYER_THROTTLE, LAYER_QUEUE, LAYER_DEVICE, LAYERS_N };

struct layer_tally {
	struct stats layer[LAYERS_N]; /* ns, of the requests that reached the device */
	uint64_t requests;            /* valid requests with layers measured */
	uint64_t pieces;              /* block requests issued for them in all */
	uint64_t no_device;           /* of them, served without a block event */
};

/* Layer l's name as outputs show it: "submit", "throttle", "queue", "device". */
const char *layer_name(enum layer l);

/*
 * Whether a tally counts the request of s, which the account classified n: a valid one
 * (NOTICE_NONE, NOTICE_FAST, NOTICE_SLOW) with its layers measured.
 */
bool layer_counted(const struct sample *s, enum notice n);

/* An empty tally. */
void layer_tally_init(struct layer_tally *t);

/*
 * Count the request of s, which the account classified n, into t: only a
 * valid one (NOTICE_NONE, NOTICE_FAST, NOTICE_SLOW: the requests the
 * summary's latencies are of) with s->layers.measured. A request without a
 * device request adds to no_device only; the others to every layer and to
 * pieces.
 */
void layer_tally_add(struct layer_tally *t, const struct sample *s, enum notice n);

/* Add every request of src into dst. */
void layer_tally_merge(struct layer_tally *dst, const struct layer_tally *src);

/* Mean pieces per request that reached the device; 0 when none did. */
double layer_tally_pieces(const struct layer_tally *t);

#endif
