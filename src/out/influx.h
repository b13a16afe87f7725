/*
 * influx: InfluxDB line protocol for Telegraf's inputs.execd (--influx): one
 * line per target and operation per period,
 *   ioprobe,target=/mnt/a\ b,operation=read,device=sda requests=10i,errors=0i,
 *     bytes=40960i,in_flight=0i,oldest_in_flight_ms=0,skipped=0i,min_ms=0.1,avg_ms=0.2,
 *     p50_ms=...,max_ms=0.4[,resp_min_ms=...] 1700000000000000000
 * Escaping follows the line protocol reference: measurement commas and
 * spaces, tag key/value commas, equals signs and spaces, string field double
 * quotes and backslashes; in a measurement or tag a backslash before one of
 * those or before another backslash is doubled (two contiguous backslashes
 * read as one), elsewhere it is literal. The protocol cannot carry a newline in a tag, nor a
 * tag ending in a backslash: such bytes (and bytes that are not UTF-8) become
 * U+FFFD; an empty tag is left out. Pure: no I/O.
 */
#ifndef IOPROBE_INFLUX_H
#define IOPROBE_INFLUX_H

#include <stdint.h>

#include "account.h"
#include "layerstat.h"
#include "sbuf.h"
#include "stats.h"

enum influx_part { INFLUX_MEASUREMENT, INFLUX_TAG, INFLUX_FIELD_STRING };

/* Append s escaped for part (a string field gains its double quotes). */
void influx_escape(struct sbuf *sb, const char *s, enum influx_part part);

struct influx_point {
	const char *target;
	const char *name;       /* NULL = no name tag */
	const char *operation;  /* "read", "write" */
	const char *device;     /* "" = no device tag */
	uint64_t requests;      /* every request of the period: valid, warmup, failed... */
	uint64_t errors;
	uint64_t bytes;
	unsigned in_flight;     /* requests in flight at the end of the period */
	double oldest_ms;       /* how long the oldest of them has been in flight, ms (0: none) */
	uint64_t skipped;       /* schedule slots missed in the period */
	const struct stats *valid; /* latencies of the period's valid requests */
	const struct stats *response; /* their response times and skipped slots', or NULL */
	const struct layer_tally *layers; /* --layers: the period's measured layers, or NULL */
	const char *verdict;    /* the last judged interval's state key (verdict_state_key), or
				 * NULL: the target is not judged or not yet */
	const char *reason;     /* ... its reason key ("" for none) */
	uint64_t time;          /* CLOCK_REALTIME ns at the end of the period */
	const struct pcts *pcts; /* the percentile fields; NULL: p50 p90 p99 p999 */
};

/*
 * Append one line (with its newline): requests, errors, bytes, in_flight,
 * oldest_in_flight_ms and skipped always (a hung target's line says so).
 * Latency fields (min_ms avg_ms p50_ms
 * p90_ms p99_ms p999_ms max_ms; the percentiles those of pcts, "p" and the percentile
 * without its dot: p95_ms, p9999_ms) are left out when the period had no valid
 * request; with response times the same seven with a resp_ prefix follow
 * (resp_min_ms ... resp_max_ms), left out when they are empty. With layers:
 * layer_requests, layer_no_device (integers) and, when a measured request reached
 * the device, layer_pieces (block requests per request) and per layer
 * layer_submit_avg_ms, layer_submit_p99_ms, ... throttle, queue, device. With a verdict:
 * the string fields verdict and reason last. Returns sb->error.
 */
int influx_line(struct sbuf *sb, const struct influx_point *p);

#endif
