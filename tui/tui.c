/*
 * tui: the entry point of the full-screen view, its view_ops: the checks
 * before anything is prepared, the preparation screen, and the run — the
 * view of N >= 1 targets (tui_multi.c: one target's screen, or the overview
 * of several), the sweep on one (tui_sweep.c), a step of --qualify
 * (tui_qualify.c) — and a recording's replay (tui_replay.c: a driver of the
 * same view).
 */
#include "config.h"

#include "tui.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tui_int.h"
#include "tui_prep.h"
#include "tui_term.h"

static void *tui_noop(void *arg)
{
	return arg;
}

/* Before any preparation: a terminal the view can drive, and a thread for the probe. */
static int tui_check(char *msg, size_t msglen)
{
	pthread_t th;
	int ret;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(msg, msglen, "--tui needs a terminal on standard input and output");
		return -ENOTTY;
	}
	ret = tui_term_check(msg, msglen);
	if (ret)
		return ret;
	ret = pthread_create(&th, NULL, tui_noop, NULL);
	if (ret) {
		snprintf(msg, msglen, "--tui cannot start a thread for the probe: %s",
			 strerror(ret));
		return -ret;
	}
	pthread_join(th, NULL);
	return 0;
}

/* A --qualify step or the sweep on one target; else the view of n >= 1 targets. */
static int tui_run(const struct view_params *vp, size_t n, char *msg, size_t msglen)
{
	if (n == 1 && vp->qualify)
		return tui_qualify_run(vp, msg, msglen);
	if (n == 1 && vp->cfg->sweep)
		return tui_sweep_run(vp, msg, msglen);
	return tui_multi_run(vp, n, msg, msglen);
}

const struct view_ops tui_view = {
	.name = "tui",
	.check = tui_check,
	.run = tui_run,
	.prepare = tui_prep_open,
	.replay = tui_replay_run,
	.emergency = tui_term_emergency,
};
