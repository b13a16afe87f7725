/*
 * cli_replay_view: --replay FILE -X. The recording is read whole (recread)
 * into the replay source (recplay) before the screen is taken — a file that
 * is no recording or of a later version is refused then (exit 2) — and the
 * view shows it (view_ops.replay). Nothing is probed and nothing written;
 * damage found while reading is said once the screen is given back (exit 3,
 * as the printed replay does).
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "out.h"
#include "recplay.h"
#include "recread.h"
#include "view.h"

struct rv {
	const struct opts *o;
	struct cli_recin in;
	struct recplay rp;
	bool have_rp, have_end;
};

/* Options the view's replay cannot honour: -1 when fine, else the exit code (said). */
static int rv_check_opts(const struct opts *o, const struct view_ops *view)
{
	const char *what = o->json ? "-J" : o->batch ? "-B" : o->check ? "--check" :
			   o->report ? "--report" : o->prometheus ? "--prometheus" :
			   o->print_count ? "-p" : o->print_interval ? "-P" : NULL;
	char msg[MSG_MAX];
	int ret;

	if ((ret = cli_replay_check_opts(o)) >= 0)
		return ret;
	if (what) {
		cli_msg("--replay -X: %s does not apply to the view; drop it (or -X)", what);
		return CLI_EXIT_USAGE;
	}
	if (!view || !view->replay) {
		cli_msg("this ioprobe was built without the full-screen view (--tui)");
		return CLI_EXIT_PREPARE;
	}
	ret = view->check(msg, sizeof(msg));
	if (ret) {
		cli_msg("%s", msg);
		return ret == -ENOTTY ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	return -1;
}

/* cli_recin_read's each: every event into the replay source (the header starts it). */
static int rv_each(void *arg, const struct rec_event *ev)
{
	struct rv *v = arg;
	int ret;

	if (ev->kind == REC_HEADER) {
		ret = recplay_init(&v->rp, &v->in.rd.h);
		v->have_rp = !ret;
	} else {
		if (ev->kind == REC_END)
			v->have_end = true;
		ret = recplay_add(&v->rp, ev);
	}
	if (ret) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	return -1;
}

/* Read the whole recording into the replay source; -1 (loaded, maybe damaged: v->in.damage
 * says so) or the exit code (said). */
static int rv_load(struct rv *v)
{
	int code = cli_recin_read(&v->in, rv_each, v);

	if (code >= 0)
		return code;
	if (!v->in.damage[0] && !v->have_end)
		snprintf(v->in.damage, sizeof(v->in.damage), "--replay: %s: the recording stops "
			 "before the run's end (was it killed?)", v->in.path);
	if (recplay_finish(&v->rp)) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	return -1;
}

/* Target i's description, as the printed replay makes it, with --percentiles. */
static void rv_report_cfg(const struct rv *v, size_t i, struct report_cfg *rc)
{
	cli_replay_report_cfg(v->o, v->rp.h, i, rc);
	rc->pcts = v->o->pcts_set ? &v->o->pcts : NULL;
}

/* Show the loaded recording; the exit code. */
static int rv_show(struct rv *v, const struct view_ops *view)
{
	struct report_cfg *rc = calloc(v->rp.n ? v->rp.n : 1, sizeof(*rc));
	struct view_cfg *vc = calloc(v->rp.n ? v->rp.n : 1, sizeof(*vc));
	struct sbuf deferred = SBUF_INIT;
	struct view_replay vr;
	char msg[MSG_MAX] = "";
	int ret;

	if (!rc || !vc) {
		cli_msg("out of memory");
		free(rc);
		free(vc);
		return CLI_EXIT_PREPARE;
	}
	for (size_t i = 0; i < v->rp.n; i++) {
		rv_report_cfg(v, i, &rc[i]);
		cli_view_cfg_recorded(v->o, v->rp.h, i, &vc[i]);
	}
	vr = (struct view_replay){
		.rp = &v->rp, .rc = rc, .cfg = vc, .damage = v->in.damage[0] ? v->in.damage : NULL,
		.ascii = v->o->ascii, .no_color = v->o->no_color, .deferred_stderr = &deferred,
		.stop = &cli_stop,
	};
	cli_view_emergency = view->emergency;
	ret = view->replay(&vr, msg, sizeof(msg));
	cli_view_emergency = NULL;
	if (deferred.len)
		out_write(STDERR_FILENO, sbuf_str(&deferred), deferred.len);
	sbuf_free(&deferred);
	free(rc);
	free(vc);
	if (ret) {
		cli_msg("%s", msg);
		return CLI_EXIT_PREPARE;
	}
	if (v->in.damage[0]) {
		cli_msg("%s", v->in.damage);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

int cli_replay_view(const struct opts *o, const struct view_ops *view)
{
	struct rv v = { .o = o };
	int code;

	if ((code = rv_check_opts(o, view)) >= 0)
		return code;
	if ((code = cli_recin_open(&v.in, o->replay)) >= 0)
		return code;
	v.in.stop = &cli_stop;
	code = rv_load(&v);
	if (code < 0)
		code = rv_show(&v, view);
	if (v.have_rp)
		recplay_free(&v.rp);
	cli_recin_close(&v.in); /* after the replay source: it points at the header */
	return code;
}
