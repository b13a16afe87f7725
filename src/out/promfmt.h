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

enum promfmt_format { PROMFMT_TEXT, PROMFMT_OPENMETRICS };

#define PROMFMT_TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define PROMFMT_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/*
 * Append every family for the n snapshots (one series set per target, the
 * target label on every series) in format f; version goes into
 * ioprobe_build_info. Returns sb->error (0 or -ENOMEM).
 */
int promfmt_write(struct sbuf *sb, const struct metrics_snap *snap, size_t n, const char *version,
		  enum promfmt_format f);

/* The Content-Type header value of format f. */
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
