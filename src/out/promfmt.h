/*
 * promfmt: metric snapshots as Prometheus text exposition 0.0.4 (what
 * node_exporter's textfile collector and every scraper read) or OpenMetrics
 * 1.0 text (# TYPE/# UNIT/# HELP per family, counters named without _total in
 * their TYPE line, info type, closing # EOF). The same families and series in
 * both; `le` uses OpenMetrics' canonical numbers in both, so series keep
 * their identity whatever format a scraper negotiates. No timestamps, no
 * _created. The HELP texts are an interface: node_exporter drops a family
 * whose HELP differs between files, so they never change. Pure: no I/O.
 */
#ifndef IOPROBE_PROMFMT_H
#define IOPROBE_PROMFMT_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "sbuf.h"

/* The expositions of /metrics: promfmt writes the two text ones, promproto the protobuf one. */
enum promfmt_format { PROMFMT_TEXT, PROMFMT_OPENMETRICS, PROMFMT_PROTOBUF };

#define PROMFMT_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define PROMFMT_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define PROMFMT_PROTOBUF_TYPE \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

enum promfmt_type { PROMFMT_COUNTER, PROMFMT_GAUGE, PROMFMT_HISTOGRAM, PROMFMT_INFO };

/* One metric family: its OpenMetrics name (text 0.0.4 adds _total/_info to it). */
struct promfmt_fam {
	const char *name;
	enum promfmt_type type;
	const char *unit; /* OpenMetrics UNIT, or NULL */
	const char *help;
};

/* The families, in the order every format writes them. */
enum promfmt_fam_id {
	PROMFMT_FAM_DURATION, PROMFMT_FAM_RESPONSE, PROMFMT_FAM_ERRORS, PROMFMT_FAM_BYTES,
	PROMFMT_FAM_LAST, PROMFMT_FAM_IN_FLIGHT, PROMFMT_FAM_OLDEST, PROMFMT_FAM_SKIPPED,
	PROMFMT_FAM_INTERVAL, PROMFMT_FAM_SIZE, PROMFMT_FAM_START,
	/* --layers only (targets whose info.layers is set) */
	PROMFMT_FAM_LAYER, PROMFMT_FAM_LAYER_REQUESTS, PROMFMT_FAM_LAYER_PIECES,
	PROMFMT_FAM_LAYER_NO_DEVICE,
	/* judged targets only (info.verdict): the current verdict, the time in each state */
	PROMFMT_FAM_VERDICT, PROMFMT_FAM_VERDICT_SECONDS,
	PROMFMT_FAM_PROBE_INFO, PROMFMT_FAM_BUILD_INFO, PROMFMT_FAMS
};

/* Names, types, units and HELP texts of the families (an interface: they never change). */
extern const struct promfmt_fam promfmt_fams[PROMFMT_FAMS];

/*
 * Append every family for the n snapshots (one series set per target, the
 * target label on every series) in format f (PROMFMT_TEXT or
 * PROMFMT_OPENMETRICS); version goes into ioprobe_build_info. Returns
 * sb->error (0 or -ENOMEM), -EINVAL for PROMFMT_PROTOBUF (promproto_write's).
 */
int promfmt_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n, const char *version,
		  enum promfmt_format f);

/* The Content-Type header value of format f (any of the three). */
const char *promfmt_content_type(enum promfmt_format f);

/*
 * Append s as a label value body (no quotes): backslash, double quote and
 * newline escaped; bytes that are not valid UTF-8 become U+FFFD, so the
 * exposition always parses.
 */
void promfmt_label_value(struct sbuf *sb, const char *s);

/* Append ns as seconds in plain decimal ("0.0813", "2.0"): exact, valid in both formats. */
void promfmt_seconds(struct sbuf *sb, uint64_t ns);

#endif
