/*
 * check: the --check verdict of a run as a monitoring plugin (Nagios,
 * Icinga, Checkmk, Sensu, Zabbix agents) reports it, per the
 * monitoring-plugins development guidelines: one line
 *   IOPROBE OK - p99 3.2 ms, avg 2.1 ms, 10 requests, 0 failed | 'p99'=3.2ms;10;50;0 ...
 * and the state as exit code (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).
 * Thresholds are the guidelines' ranges: a plain latency threshold alerts
 * above it, a plain iops threshold below it (written "W:" in the perfdata);
 * "[@]lo:hi" as the guidelines define; any failed request is CRITICAL; a run without
 * a single request, or one that could not run, is UNKNOWN. Pure: no I/O.
 */
#ifndef IOPROBE_CHECK_H
#define IOPROBE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "sbuf.h"

enum check_state { CHECK_OK, CHECK_WARNING, CHECK_CRITICAL, CHECK_UNKNOWN };

/*
 * A threshold range of the monitoring-plugins guidelines, [@]lo:hi: the value raises the
 * alert outside [lo, hi], or inside it with @. "10" is 0:10 (above 10), "10:" is 10:inf
 * (below 10), "~:10" is -inf:10.
 */
struct check_range {
	double lo, hi;
	bool inside;
};

/* Does v raise r's alert? */
bool check_range_alert(const struct check_range *r, double v);

/* Append r as the guidelines write it ("10", "10:", "~:10", "@10:20"), values times scale
 * with decimals digits after the point. */
void check_range_put(struct sbuf *sb, const struct check_range *r, double scale, int decimals);

struct check_cfg {
	struct check_range warn, crit;           /* p99 ranges, ns */
	bool iops;                               /* iops thresholds given */
	struct check_range iops_warn, iops_crit; /* requests per second */
};

/*
 * Append the verdict line (with its newline) for the run's total tally and
 * return the state. problem (NULL when the run went fine) makes it UNKNOWN
 * with that text.
 */
enum check_state check_report(struct sbuf *sb, const struct check_cfg *cfg, const struct tally *t,
			      const char *problem);

/*
 * The same, a problem judged CRITICAL instead of UNKNOWN when critical: a request still in
 * flight at --check-timeout is the disk not answering, not a plugin that could not tell. The
 * line then gives the problem, then the figures and perfdata of what did complete (t may be
 * NULL: nothing ran); a latency or rate not measured is "U" in the perfdata, the
 * guidelines' unknown, never 0.
 */
enum check_state check_report_as(struct sbuf *sb, const struct check_cfg *cfg,
				 const struct tally *t, const char *problem, bool critical);

/*
 * check_report_as(), with the device's saturation verdict (its first words: "keeps up",
 * "falls short: device saturated"; NULL: none) after the figures. It is said, not judged:
 * the state comes from the thresholds alone.
 */
enum check_state check_report_verdict(struct sbuf *sb, const struct check_cfg *cfg,
				      const struct tally *t, const char *problem, bool critical,
				      const char *verdict);

/* One target of a --check run over several targets. */
struct check_target {
	const char *name;          /* the target as given */
	const struct tally *tally; /* its run's total, or NULL (ignored when problem is set,
				    * unless critical) */
	const char *problem;       /* why it could not run or ended early, or NULL */
	bool critical;             /* the problem is CRITICAL (a request hung), not UNKNOWN */
	const char *verdict;       /* its device's saturation verdict (first words), or NULL */
};

/*
 * Several targets: each is judged as check_report() judges one, the state is
 * the worst (CRITICAL > WARNING > UNKNOWN > OK, the monitoring-plugins'
 * max_state_alt); the text lists the targets worst first, each with its
 * state and figures; the perfdata has every figure of every target with the
 * target in its label ('/dev/sdb p99'=...; a quote doubled, '=' made '_').
 * Appends one line with its newline; returns the state.
 */
enum check_state check_report_multi(struct sbuf *sb, const struct check_cfg *cfg,
				    const struct check_target *t, size_t n);

/* "OK", "WARNING", "CRITICAL", "UNKNOWN". */
const char *check_state_name(enum check_state st);

#endif
