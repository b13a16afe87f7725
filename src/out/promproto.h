/*
 * promproto: metric snapshots as Prometheus' protobuf exposition, the
 * "delimited" stream of io.prometheus.client.MetricFamily messages (each
 * after its length as a varint), which Prometheus asks for first when its
 * native histograms are on. The families, names, HELP texts, labels and
 * values are text 0.0.4's (promfmt): counters named with _total, the info
 * families as gauges of value 1, seconds the same doubles a text parser
 * reads. The two latency histograms carry the classic 1-2-5 buckets (the
 * same le bounds, the +Inf one implied by the count, as the Go client sends
 * them) and, beside them, the native buckets of the snapshot (schema
 * METRICS_NATIVE_SCHEMA, zero threshold 2^METRICS_NATIVE_ZERO_LOG2 s,
 * positive spans and deltas). Encoded by protobuf-c from client_model.proto
 * (a build without protobuf-c has only promproto_spans). Pure: no I/O.
 */
#ifndef IOPROBE_PROMPROTO_H
#define IOPROBE_PROMPROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "sbuf.h"

/* Can this build write the protobuf exposition (was protobuf-c found)? */
bool promproto_available(void);

/*
 * Append every family for the n snapshots in the protobuf exposition;
 * version goes into ioprobe_build_info. A snapshot with native buckets
 * (metrics_snapshot_native) gets native histograms, one without them only
 * the classic buckets. Returns 0, -ENOMEM, or -ENOTSUP when
 * !promproto_available().
 */
int promproto_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n,
		    const char *version);

/*
 * Append the native buckets of h as Prometheus' spans and deltas: each span's
 * offset (the first: the index of its first bucket; later ones: the empty
 * buckets since the previous span) and length go to offset[]/length[], each
 * bucket's count minus the previous bucket's to delta[]. Runs of up to two
 * empty buckets stay inside a span (cheaper than a new span), as the Go
 * client does. The arrays hold METRICS_NATIVE_BUCKETS entries. Returns the
 * number of spans; *ndelta gets the number of deltas.
 */
size_t promproto_spans(const struct metrics_native *h, int32_t *offset, uint32_t *length,
		       int64_t *delta, size_t *ndelta);

#endif
