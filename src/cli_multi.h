/*
 * cli_multi: the command line with several targets (`ioprobe [options]
 * TARGET TARGET...`). Each target gets its own engine, probe (pacer,
 * statistics) and thread, all with the same options; request lines
 * interleave as they complete, each naming its target; at the end one
 * summary (or -B raw line, or -J total) per target in the order given. A
 * target that cannot be prepared is reported and the others go on.
 */
#ifndef IOPROBE_CLI_MULTI_H
#define IOPROBE_CLI_MULTI_H

#include "engine.h"
#include "opts.h"
#include "view.h"

/*
 * Options that do not combine with several targets (--sweep with the view): returns -1
 * when o is fine, else the exit code after the message.
 */
int cli_multi_check(const struct opts *o);

/*
 * Prepare every target of o (o->npaths > 1), probe them all at once, report;
 * returns the exit code: the worst over the targets (a target that could
 * not be prepared counts 2, or 1 for a refused size), 2 when none could
 * start, or an output error's code. With view (--tui) the targets run under
 * its overview instead of printing lines; the summaries follow it.
 */
int cli_multi_run(const struct opts *o, const struct engine_ops *ops,
		  const struct view_ops *view);

#endif
