/*
 * cli_int: what the command-line front end's modules (cli.c, cli_multi.c)
 * share. Not for other modules: messages and exit codes live only here.
 */
#ifndef IOPROBE_CLI_INT_H
#define IOPROBE_CLI_INT_H

#include <signal.h>

#include "engine.h"
#include "opts.h"
#include "probe.h"
#include "report.h"
#include "target.h"

/* Set by SIGINT/TERM/HUP (a second one exits 4): every probe's stop flag. */
extern volatile sig_atomic_t cli_stop;

/* One "ioprobe: ..." line on stderr, control characters escaped. */
/* A request in flight this long gets a warning on stderr (then at 2x, 4x, ...). */
#define CLI_HANG_WARN_NS 5000000000ull

void cli_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit code for a stdout error (-EPIPE ends quietly with 0, others say so and give 3). */
int cli_out_error(int err);

/* The probe's settings from the command line. */
void cli_probe_cfg(const struct opts *o, struct probe_cfg *pc);

/* The report's settings for target t opened from o (o->path is its name). */
void cli_report_cfg(const struct opts *o, const struct target *t, struct report_cfg *rc);

/*
 * Start an engine of ops over t with a zeroed aligned buffer of t->size
 * (*buf, freed by the caller after engine_stop()). Returns 0, or -errno with
 * the message printed.
 */
int cli_engine_start(const struct opts *o, const struct target *t,
		     const struct engine_ops *ops, struct engine *eng, void **buf);

#endif
