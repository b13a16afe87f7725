#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "devwatch.h"
#include "engine.h"
#include "esc.h"
#include "fmt.h"
#include "msg.h"
#include "opts.h"
#include "out.h"
#include "prober.h"
#include "sbuf.h"
#include "sweep.h"
#include "target.h"
#include "usage.h"
#include "view.h"
#include "watchdog.h"

/* Largest request Linux transfers in one call. */
#define CLI_MAX_RW 0x7ffff000ull


static void cli_on_signal(int sig)
{
	(void)sig;
	if (cli_stop) {
		void (*restore)(void) = cli_view_emergency;

		if (restore)
			restore();
		_exit(CLI_EXIT_SIGNAL);
	}
	atomic_store(&cli_stop_at, clock_now()); /* clock_gettime: async-signal-safe */
	cli_stop = 1;
	prober_notify_stop(); /* every probe's reader wakes */
}

static void cli_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cli_on_signal; /* no SA_RESTART: a signal ends the sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}


/* Preparation progress on a terminal: when it began and when the line was last drawn. */
struct cli_progress {
	uint64_t start, last;
};

/*
 * The working set being filled: a "\r" line on stderr, redrawn at most ten
 * times a second, erased at the end (only installed when stderr is a terminal).
 */
static void cli_on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct cli_progress *pg = arg;
	uint64_t now = clock_now();
	char a[FMT_BUFSZ], b[FMT_BUFSZ], r[FMT_BUFSZ], line[192];
	double secs;
	int n;

	if (!pg->start)
		pg->start = now;
	if (done >= total) {
		out_write(STDERR_FILENO, "\r\033[K", 4);
		return;
	}
	if (pg->last && now - pg->last < 100000000ull)
		return;
	pg->last = now;
	secs = (double)(now - pg->start) / NS_PER_S;
	fmt_value(r, sizeof(r), secs > 0 ? fmt_trunc((double)done / secs) : 0, FMT_SIZE);
	n = snprintf(line, sizeof(line), "\rioprobe: preparing the working set: %s of %s (%s/s)"
		     "\033[K", fmt_value(a, sizeof(a), done, FMT_SIZE),
		     fmt_value(b, sizeof(b), total, FMT_SIZE), r);
	out_write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/*
 * Who hears how the working set fills: the view, which then shows it (its
 * screen opens here, before the target is prepared), else the \r line on a
 * terminal, else nobody.
 */
static const struct target_progress *cli_progress_for(const struct opts *o,
						      const struct view_ops *tui,
						      const struct target_progress *line,
						      struct target_progress *view)
{
	struct view_cfg vc = { .path = o->path, .ascii = o->ascii, .no_color = o->no_color };

	if (o->tui && tui && tui->prepare && !tui->prepare(&vc, &cli_stop, &view->fn, &view->arg)) {
		cli_view_emergency = tui->emergency;
		return view;
	}
	return isatty(STDERR_FILENO) ? line : NULL;
}


static const struct engine_ops *cli_engine(const struct opts *o, int *code)
{
	const char *name = o->engine ? o->engine : "sync";
	const struct engine_ops *ops = engine_find(name);
	size_t len = strcspn(name, ":");
	char names[128];
	uint64_t deepest = o->depth_auto ? OPTS_AUTO_DEPTH_MAX : o->depth;

	if (ops && name[len] == ':' && !ops->takes_arg) {
		cli_msg("the %s engine takes no argument: \"%s\"", ops->name, name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	for (unsigned i = 0; i < o->ndepths; i++) /* a sweep across depths: its deepest */
		deepest = o->depths[i] > deepest ? o->depths[i] : deepest;
	if (ops && o->poisson && !engine_async(ops)) {
		cli_msg("--arrivals poisson: the %s engine cannot start a request while one is in "
			"flight; use -A (libaio), -U (io_uring) or --engine=null", ops->name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	if (ops && deepest > 1 && !engine_async(ops)) {
		cli_msg("-Q %llu: the %s engine keeps one request in flight; use -A (libaio), "
			"-U (io_uring) or --engine=null for a queue depth",
			(unsigned long long)deepest, ops->name);
		*code = CLI_EXIT_USAGE;
		return NULL;
	}
	if (ops)
		return ops;
	if (engine_known(name)) {
		cli_msg("the %.*s engine is not available in this build", (int)len, name);
		*code = CLI_EXIT_PREPARE;
		return NULL;
	}
	cli_msg("unknown engine \"%s\" (%s)", name, engine_names(names, sizeof(names), ", ", false));
	*code = CLI_EXIT_USAGE;
	return NULL;
}

/* Parse the command line; returns -1 to go on, or the exit code. */
static int cli_parse(int argc, char *argv[], struct opts *o)
{
	char msg[OPTS_MSG_MAX];
	enum opts_status st = opts_parse(argc, argv, o, msg, sizeof(msg));

	if (st == OPTS_ERR_USAGE) {
		cli_msg("%s", msg);
		out_write(STDERR_FILENO, "\n", 1);
		out_write(STDERR_FILENO, usage_text(), strlen(usage_text()));
		return CLI_EXIT_USAGE;
	}
	if (st != OPTS_OK) {
		cli_msg("%s", msg);
		return CLI_EXIT_USAGE;
	}
	switch (o->action) {
	case OPTS_HELP:
	case OPTS_USAGE: {
		int err = out_write(STDOUT_FILENO, usage_text(), strlen(usage_text()));

		if (err && err != -EPIPE)
			return cli_out_error(err);
		return o->action == OPTS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	case OPTS_VERSION: {
		char line[64];
		int err;

		snprintf(line, sizeof(line), "%s\n", usage_version());
		err = out_write(STDOUT_FILENO, line, strlen(line));
		return err ? cli_out_error(err) : CLI_EXIT_OK;
	}
	case OPTS_RUN:
		break;
	}
	return -1;
}

/* The checks of a run that need the engine or the view: -1 to go on, or the exit code. */
static int cli_check_run(const struct opts *o, const struct view_ops *tui)
{
	char msg[MSG_MAX];
	uint64_t largest = opts_request_size(o);
	int ret;

	if (o->sweep) {
		struct sweep_plan plan;

		if (sweep_parse(o->sweep_rates, &plan, msg, sizeof(msg))) {
			cli_msg("%s", msg);
			return CLI_EXIT_USAGE;
		}
	}
	if (o->tui) {
		if (!tui) {
			cli_msg("this ioprobe was built without the full-screen view (--tui)");
			return CLI_EXIT_PREPARE;
		}
		ret = tui->check(msg, sizeof(msg));
		if (ret) {
			cli_msg("%s", msg);
			return ret == -ENOTTY ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
		}
		if (o->json || o->batch) {
			cli_msg("--tui cannot be combined with -J or -B");
			return CLI_EXIT_USAGE;
		}
	}
	if (o->nowait && !o->cached && !o->direct)
		cli_msg("nowait without cached or direct I/O is supposed to fail");
	for (unsigned i = 0; i < o->nsizes; i++) /* a sweep across sizes: its largest */
		largest = o->sizes[i] > largest ? o->sizes[i] : largest;
	if (largest > CLI_MAX_RW) {
		/* ioping warns and goes on, then counts bytes that were never moved */
		cli_msg("this platform supports requests %llu bytes at most", CLI_MAX_RW);
		return CLI_EXIT_PREPARE;
	}
	return -1;
}

/*
 * The run: the working set's fill shown (one target at a time: the view's screen, or a
 * line on a terminal) and the run of the targets. Returns the exit code.
 */
static int cli_targets(const struct opts *o, const struct engine_ops *ops,
		       const struct view_ops *view)
{
	struct cli_progress pg = { 0 };
	const struct target_progress progress = { cli_on_progress, &pg };
	struct target_progress view_progress;
	const struct target_progress *shown = NULL;

	if (o->npaths == 1 || o->sweep) /* several sweeps run one target at a time */
		shown = cli_progress_for(o, view, &progress, &view_progress);
	if (o->qualify)
		return cli_qualify(o, view, shown);
	if (opts_sweep_grid(o))
		return cli_sweep_grid(o, ops, view, shown);
	return cli_run(o, ops, view, shown);
}

/* Parse, check, prepare and run; returns the exit code. */
static int cli_start(int argc, char *argv[], const struct view_ops *tui)
{
	struct opts o;
	const struct engine_ops *ops;
	int code;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN); /* over ulimit -f a write fails with EFBIG and is reported */
	if (out_guard_std_fds())
		return CLI_EXIT_PREPARE;
	code = cli_parse(argc, argv, &o);
	cli_check_wanted = (o.check || (code >= 0 && cli_argv_check(argc, argv))) &&
			   o.action == OPTS_RUN;
	if (code >= 0)
		return code;
	if ((code = cli_layers_check(&o)) >= 0)
		return code;
	if (o.replay && o.tui) {
		cli_signals(); /* the view's stop flag: every stop signal ends it */
		return cli_replay_view(&o, tui);
	}
	if (o.replay) {
		cli_signals(); /* a stop ends the reading: what was replayed, and exit 0 */
		return cli_replay(&o);
	}
	if ((code = cli_fleet_setup(&o)) >= 0)
		return code;
	code = CLI_EXIT_OK;
	if (o.qualify && (code = cli_qualify_check(&o)) >= 0)
		return code;
	if ((code = cli_run_check(&o)) >= 0 || (code = cli_sweep_grid_check(&o)) >= 0)
		return code;
	code = CLI_EXIT_OK;
	if (o.fio_job) {
		cli_signals();
		return cli_fio_job(&o);
	}
	ops = cli_engine(&o, &code);
	if (!ops)
		return code;
	if ((code = cli_check_run(&o, tui)) >= 0 || (code = cli_mem_check(&o)) >= 0)
		return code;
	cli_signals(); /* a signal during a long preparation ends it cleanly */
	return cli_targets(&o, ops, o.tui ? tui : NULL);
}

int cli_main(int argc, char *argv[], const struct view_ops *tui)
{
	return cli_check_unknown(cli_start(argc, argv, tui));
}
