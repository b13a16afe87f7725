/*
 * tui_qualify: --qualify in the view (struct view_qualify). One call runs one
 * step of the battery: its probe on a session, the screen showing the steps
 * (passed, failed, under way, to come), the step under way (what it is, its
 * progress and time left, the live rate and service times over the last
 * second, reads and writes apart: tui_qlive), and below it the report so far
 * as the CLI writes it (each finished step's figures, read and write
 * percentiles, the device's aqu-sz, await and %util, each threshold's PASS or
 * FAIL with its margin, then the final QUALIFY line). When the probe ends the
 * CLI judges the step (view_qualify.done); after the last step the screen
 * stays until q. q, Ctrl-C or a signal during a step stops the probe (a hung
 * request is given up after 0.5 s) and sets *stop: the battery ends as a
 * signal ends it on the command line (NOT RUN, what it created removed).
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "prober.h"
#include "session.h"
#include "tui_fmt.h"
#include "tui_int.h"
#include "tui_keys.h"
#include "tui_qlive.h"
#include "tui_text.h"

struct tq {
	const struct view_params *vp;
	struct view_qualify *q;
	struct tui_term_opts to;
	bool ascii, quit, over;
	struct tui_step step;     /* the step in the view's loop (tui_step.c) */
	uint64_t t0;             /* the step's start, monotonic ns */
	uint64_t failed;         /* failed requests so far */
	struct tui_qlive live;
};

/* ---- painting --------------------------------------------------------------------------- */

/* "dsync-write PASS  randrw running  third -" : each step's state, from x on row y. */
static void tq_paint_steps(const struct tq *t, int y)
{
	const struct view_qualify *q = t->q;
	int x = tui_text_put(y, 0, COLS, TA_LABEL, "steps: ");

	for (size_t i = 0; i < q->nsteps && x < COLS; i++) {
		bool done = i < q->step || (i == q->step && t->over);
		const char *state = done ? (q->pass[i] ? "PASS" : "FAIL") : i == q->step ?
				    "running" : "-";
		char buf[96];

		snprintf(buf, sizeof(buf), "%s ", q->names[i]);
		x += tui_text_put(y, x, COLS - x, i == q->step && !t->over ? TA_BOLD : TA_DATA, buf);
		x += tui_text_put(y, x, COLS - x, !done ? (i == q->step ? TA_WARN : TA_DIM) :
				  q->pass[i] ? TA_OK : TA_BAD, state);
		x += 2;
	}
}

/* The step's progress and the live figures (rows 1, 2 and, reads and writes apart, 3). */
static void tq_paint_live(struct tq *t)
{
	const struct view_qualify *q = t->q;
	uint64_t el = clock_now() - t->t0, left;
	double f = tui_qlive_progress(el, q->deadline, t->live.requests, q->count, &left);
	struct tui_qlive_fig a, r, w;
	char bar[4 * 40 + 1], e[32], l[32], d[32], buf[400], v1[32], v2[32], v3[32];
	int bw = COLS >= 100 ? 30 : 16, x;

	tui_fmt_bar(bar, sizeof(bar), bw, f, t->ascii);
	x = tui_text_put(1, 0, COLS, TA_WARN, "running ");
	x += tui_text_put(1, x, bw, TA_OK, bar);
	if (q->deadline)
		snprintf(d, sizeof(d), " of %s", tui_fmt_span(v1, sizeof(v1), q->deadline, t->ascii));
	else
		d[0] = '\0';
	snprintf(buf, sizeof(buf), " %3.0f %%  %s%s, %s left, %llu requests%s%s", f * 100,
		 tui_fmt_elapsed(e, sizeof(e), el), d,
		 left == UINT64_MAX ? "?" : tui_fmt_span(l, sizeof(l), left, t->ascii),
		 (unsigned long long)t->live.requests, q->count ? " of " : "",
		 q->count ? tui_fmt_count(v2, sizeof(v2), q->count) : "");
	tui_text_put(1, x, COLS - x, TA_DATA, buf);
	tui_qlive_window(&t->live, el, TUI_QLIVE_SPAN, &a, &r, &w);
	snprintf(buf, sizeof(buf), "live (last 1 s): %s/s  p50 %s  p99 %s", tui_fmt_rate(v1,
		 sizeof(v1), a.rate), tui_fmt_time(v2, sizeof(v2), a.p50, t->ascii),
		 tui_fmt_time(v3, sizeof(v3), a.p99, t->ascii));
	if (t->failed) {
		size_t len = strlen(buf);

		snprintf(buf + len, sizeof(buf) - len, "  failed %llu",
			 (unsigned long long)t->failed);
	}
	tui_text_put(2, 0, COLS, t->failed ? TA_BAD : TA_DATA, buf);
	if (r.n && w.n) { /* reads and writes apart, a row of their own */
		char p1[32], p2[32], p3[32], p4[32];

		snprintf(buf, sizeof(buf), "  read %s/s p50 %s p99 %s   write %s/s p50 %s p99 %s",
			 tui_fmt_rate(v1, sizeof(v1), r.rate),
			 tui_fmt_time(p1, sizeof(p1), r.p50, t->ascii),
			 tui_fmt_time(p2, sizeof(p2), r.p99, t->ascii),
			 tui_fmt_rate(v3, sizeof(v3), w.rate),
			 tui_fmt_time(p3, sizeof(p3), w.p50, t->ascii),
			 tui_fmt_time(p4, sizeof(p4), w.p99, t->ascii));
		tui_text_put(3, 0, COLS, TA_DATA, buf);
	}
}

/* The attribute of a report line: thresholds by their result, the final line bold. */
static enum tui_attr tq_line_attr(const char *line)
{
	if (!strncmp(line, "QUALIFY ", 8))
		return strstr(line, ": PASS") ? TA_OK : TA_BAD;
	if (strstr(line, ": PASS"))
		return TA_OK;
	if (strstr(line, ": FAIL"))
		return TA_BAD;
	return TA_DATA;
}

/* The report so far in rows [y, end): the last lines that fit. */
static void tq_paint_report(const struct tq *t, int y, int end)
{
	const char *p = sbuf_str(t->q->text);
	size_t lines = 0, skip;

	for (const char *c = p; *c; c++)
		lines += *c == '\n' || !c[1]; /* a line per newline, and an unended last one */
	skip = end > y && lines > (size_t)(end - y) ? lines - (size_t)(end - y) : 0;
	for (size_t i = 0; *p && y < end; i++) {
		size_t len = strcspn(p, "\n");
		char line[512];

		if (i >= skip) {
			snprintf(line, sizeof(line), "%.*s",
				 (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
			tui_text_put(y++, 0, COLS, tq_line_attr(line), line);
		}
		p += len + (p[len] == '\n');
	}
}

static void tq_paint(void *ctx)
{
	struct tq *t = ctx;
	const struct view_qualify *q = t->q;
	char buf[512];
	const char *about = q->abouts[q->step];

	erase();
	snprintf(buf, sizeof(buf), "ioprobe --qualify %s: %s, step %zu of %zu: %s", q->profile,
		 t->vp->cfg->path, q->step + 1, q->nsteps, q->names[q->step]);
	tui_text_put(0, 0, COLS, TA_TITLE, buf);
	if (t->over) {
		tui_text_put(1, 0, COLS, TA_OK, "battery finished, q quits (the report follows)");
	} else {
		tq_paint_live(t);
		if (about && *about) {
			snprintf(buf, sizeof(buf), "%s: %s", q->names[q->step], about);
			tui_text_put(4, 0, COLS, TA_LABEL, buf);
		}
	}
	tq_paint_steps(t, 5);
	tui_text_fill(6, 0, COLS, TA_DIM, tui_text_hline(t->ascii));
	tq_paint_report(t, 7, LINES - 1);
	tui_text_put(LINES - 1, 0, COLS, TA_KEY, t->over ? "q quit (the report is printed)" :
		     "q quit (stops the battery: not run; what finished is printed)");
	refresh();
}

/* ---- the step --------------------------------------------------------------------------- */

/* The step's finished requests into the live window. */
static void tq_drain(void *ctx, struct session *ss)
{
	struct tq *t = ctx;
	struct session_rec rec;

	session_ack(ss);
	while (session_next(ss, &rec)) {
		const struct sample *s = &rec.sample;

		if (rec.kind != SESSION_SAMPLE)
			continue;
		if (s->result < 0)
			t->failed++;
		else if (rec.notice != NOTICE_WARMUP)
			tui_qlive_add(&t->live, s->start + s->time, s->time, s->op == OP_WRITE);
	}
}

/* Run the step's probe to its end (or q); then the CLI judges it. 0 or -errno (msg). */
static int tq_step(struct tq *t, char *msg, size_t msglen)
{
	struct session ss;
	const char *why;
	int ret;

	t->t0 = clock_now();
	ret = session_start(&ss, t->vp->probe, 1);
	if (ret) {
		snprintf(msg, msglen, "cannot start the probe: %s", strerror(-ret));
		return ret;
	}
	tui_step_run(&t->step, &ss, t->vp->stop); /* the view's loop: drained, painted, q */
	t->quit = t->step.quit;
	session_stop(&ss); /* q: the probe stops (a hung request is given up after 0.5 s) */
	ret = session_result(&ss, &why);
	if (ret)
		snprintf(msg, msglen, "%s", why);
	if (t->quit) {
		*t->vp->stop = 1; /* the battery ends: not run */
		prober_notify_stop(); /* every probe's reader wakes */
		return ret;
	}
	if (t->q->done)
		t->q->done(t->q->done_ctx, ret); /* the CLI judges it: its block in the text */
	return ret;
}

int tui_qualify_run(const struct view_params *vp, char *msg, size_t msglen)
{
	struct tq *t = calloc(1, sizeof(*t));
	int ret;

	if (!t) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	t->vp = vp;
	t->q = vp->qualify;
	t->step = (struct tui_step){ t, tq_paint, tq_drain, false };
	t->to = (struct tui_term_opts){ vp->cfg->ascii, vp->cfg->no_color };
	t->ascii = tui_term_want_ascii(&t->to);
	tui_qlive_init(&t->live);
	ret = tui_term_open(&t->to, vp->stop, msg, msglen);
	if (ret) {
		free(t);
		return ret;
	}
	tui_text_setup(tui_term_color());
	ret = tq_step(t, msg, msglen);
	if (!ret && !t->quit && t->q->final) { /* the battery's end: shown until q */
		t->over = true;
		tui_step_hold(&t->step, vp->stop); /* shown until q */
	}
	tui_term_close(vp->deferred_stderr);
	free(t);
	return ret;
}
