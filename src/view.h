/*
 * view: the interface between the command-line front end and an optional
 * full-screen view (tui/). The CLI prepares the target, engine and probe;
 * the view runs the probe in its own thread and shows it, then hands back
 * so the CLI prints the normal text summary. No curses type appears here.
 */
#ifndef IOPROBE_VIEW_H
#define IOPROBE_VIEW_H

#include <signal.h>
#include <stddef.h>

#include "opts.h"
#include "probe.h"
#include "report.h"
#include "sbuf.h"

struct view_params {
	struct probe *probe;           /* initialised (probe_init), not yet running */
	const struct report_cfg *rc;   /* target description, sizes, formats */
	const struct opts *opts;       /* the parsed command line (mode, -D/-C, ...) */
	const char *engine;            /* engine name */
	const struct target *target;   /* the open target (kind, device, sizes) */
	struct sbuf *deferred_stderr;  /* complete "ioprobe: ..." lines to print after the screen */
	volatile sig_atomic_t *stop;   /* set by the CLI's SIGINT/TERM/HUP handler */
};

struct view_ops {
	const char *name;
	/* Can the view run here? 0, or -errno with msg filled (e.g. not a terminal: exit 1). */
	int (*check)(char *msg, size_t msglen);
	/*
	 * Run the probe and show it until the user quits or *stop is set; restore
	 * the terminal before returning. Returns 0, or -errno with msg filled.
	 * probe->acct.total is complete either way.
	 */
	int (*run)(const struct view_params *vp, char *msg, size_t msglen);
};

#endif
