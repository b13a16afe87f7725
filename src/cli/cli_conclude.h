/*
 * cli_conclude: the end of a run of N >= 1 targets, one for a live run (cli_run) and
 * its replay (cli_replay): each target's closing output in the order given (-J's total
 * and the array's close, -B's raw line, the summary with its layers), the N-dependent
 * rules (after a failed request one target ends with the message alone, several always
 * print), the worst exit code, and --check's one plugin line over the targets.
 */
#ifndef IOPROBE_CLI_CONCLUDE_H
#define IOPROBE_CLI_CONCLUDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layerstat.h"
#include "opts.h"
#include "outw.h"
#include "report.h"
#include "sbuf.h"
#include "stats.h"

/* One target's end as the conclusion sees it. */
struct cli_end {
	const struct report_cfg *rc;
	const char *path;             /* as given: --check names it */
	bool ran;                     /* it ran (else it could not be prepared) */
	bool started;                 /* its probe process started (a failure before: exit 2) */
	bool steps;                   /* a --sweep table was printed in place of its summary */
	int ret;                      /* its probe's result, 0 or -errno */
	const char *msg;              /* its message when ret != 0 ("" none) */
	bool critical;                /* --check: still in flight at --check-timeout */
	const struct tally *total;
	const struct stats *read, *write; /* -G: reads and writes apart, else NULL */
	const struct layer_tally *layers; /* --layers' tally, or NULL */
	const char *verdict;          /* --check: its device's last verdict (words), or NULL */
};

/*
 * The closing output of targets t[0 .. n) in order, each appended to sb (after -J's
 * separator as out has it) and handed to flush(ctx, sb) (which empties it; nonzero: stdout
 * failed, the rest is left out); real is -J's timestamp (CLOCK_REALTIME ns). Nothing with --check or --influx (their lines
 * are all they print). Returns the worst exit code: 0, 2 (a probe that never started
 * failed), 3 (a failed run or request).
 */
int cli_conclude(const struct opts *o, const struct cli_end *t, size_t n, uint64_t real,
		 struct outw *out, struct sbuf *sb, int (*flush)(void *ctx, struct sbuf *sb),
		 void *ctx);

/*
 * --check over t[0 .. n): one target's own line (timed_out: --check-timeout ended the
 * run), or one line over several (one that could not run or failed is its problem).
 * Prints the plugin line; returns its state (the exit code).
 */
int cli_conclude_check(const struct opts *o, const struct cli_end *t, size_t n,
		       bool timed_out);

#endif
