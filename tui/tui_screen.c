/*
 * tui_screen: one target's screen, the component the entry point (tui.c), the
 * overview (tui_multi.c) and the sweep (tui_sweep.c) build on, and its main
 * loop. The probe runs apart (a session: its requests in a child process,
 * its records taken by a thread); this (UI) thread alone touches curses. It
 * sleeps in poll() on stdin and the session's wake fd, drains the session
 * ring in batches into the model, samples /proc/diskstats once a second
 * and repaints at most TUI_FRAME_NS apart, only when something changed.
 */
#include "config.h"

#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "prefault.h"
#include "esc.h"
#include "session.h"
#include "tui_describe.h"
#include "tui_draw.h"
#include "tui_int.h"
#include "tui_fmt.h"
#include "tui_iostat.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_model.h"
#include "tui_panes.h"
#include "tui_prep.h"
#include "tui_term.h"
#include "tui_text.h"
#include "tui_verdict.h"
#include "warnlog.h"

#define TUI_IDLE_MS 500                /* longest sleep while the probe runs */
#define TUI_INFLIGHT_NS 1000000000ull  /* a request older than this is shown */
#define TUI_MAX_INTERVAL 3600000000000ull
#define TUI_JUDGE_WAIT_NS 500000000ull /* a verdict waits this long at most for its requests */

/* An interval cut at the device's read, judged once the probe's requests up to it are in. */
struct tui_pending {
	bool on;
	uint64_t need;           /* requests the probe had finished just after the read */
	uint64_t until;          /* monotonic ns: judged then at the latest (records lost) */
	uint64_t period, inflight;
	uint64_t seq;            /* the device sample it is judged on (vp->judged) */
};

struct tui {
	struct tui_pending pend;
	const struct view_params *vp;
	const struct tui_feed *feed; /* a screen fed by a recording (NULL: a live probe's) */
	struct warnlog warns;    /* kept for after the screen, each text once */
	struct session s;
	struct tui_model live, frozen;
	struct tui_iostat io, io_frozen;
	struct tui_verdict verdict, verdict_frozen;
	struct cpuwait cpu;           /* the probe's measured CPU wait, read with each iostat sample */
	struct tui_panes panes;   /* the layout and the graph's scratch */
	bool ascii, color, frozen_on, help, paused, quit;
	struct tui_show show;     /* the display keys' settings */
	uint64_t t0;             /* monotonic ns when the view started */
	uint64_t base;           /* monotonic ns of run time 0 */
	bool have_base;
	uint64_t realtime_base;
	uint64_t frozen_now;
	uint64_t interval;
	bool interval_changed;
	uint64_t last_draw;
	uint64_t next_tick;
	uint64_t io_next;        /* boottime ns of the next iostat sample */
	uint64_t io_seq;         /* iostat samples taken (vp->judged's seq) */
	bool ended_told;         /* vp->ended was called */
	bool dirty;
	bool busy;               /* the last drain was big: drain again soon */
	uint64_t note_until;
	char note[96];
	char target[1024], mode[96], pace[96], period_label[48], state[640];
	enum tui_state_cls state_cls;
	/* several targets (tui_multi.c) */
	const char *sticky;      /* the footer's note when there is no other */
	void (*on_sample)(void *ctx, const struct sample *s, enum notice n, uint64_t now);
	void *hook_ctx;
	struct pollfd pfd[2];    /* the loop's: stdin, the session's wake fd */
};

/* Run time (the probe's clock since its first start) at monotonic ns mono. */
static uint64_t tui_run_ns(const struct tui *t, uint64_t mono)
{
	uint64_t base = t->have_base ? t->base : t->t0;

	return mono > base ? mono - base : 0;
}

static void tui_note(struct tui *t, const char *text)
{
	snprintf(t->note, sizeof(t->note), "%s", text);
	t->note_until = clock_now() + TUI_NOTE_NS;
	t->dirty = true;
}

/* ---- set-up ----------------------------------------------------------------------------- */

static void tui_describe(struct tui *t)
{
	const struct view_params *vp = t->vp;

	tui_describe_target(t->target, sizeof(t->target), &vp->rc->target);
	tui_describe_mode(t->mode, sizeof(t->mode), vp->cfg, vp->engine);
	tui_describe_period(t->period_label, sizeof(t->period_label), vp->cfg, TUI_TICK_NS,
			    t->ascii);
}

/* Replace the UTF-8 arrows of a devstack description with "->" (in place). */
static void tui_ascii_arrows(char *s)
{
	char *p, *q;

	while ((p = strstr(s, "→"))) {
		p[0] = '-';
		p[1] = '>';
		for (q = p + 2; q[1]; q++)
			q[0] = q[1];
		q[0] = '\0';
	}
}

/* The pace text of the header: the interval, or the limit it came from. */
static void tui_pace(struct tui *t)
{
	tui_describe_pace(t->pace, sizeof(t->pace), t->vp->cfg, t->interval, t->interval_changed,
			  t->ascii);
}

void tui_relayout(struct tui *t)
{
	tui_panes_layout(&t->panes, &t->io, &t->verdict);
	t->dirty = true;
}

/* ---- session records -------------------------------------------------------------------- */

/* Move every waiting session record into the model; returns how many there were. */
uint64_t tui_drain(struct tui *t)
{
	struct session_rec rec;
	uint64_t n = 0;

	while (!t->feed && session_next(&t->s, &rec)) {
		n++;
		switch (rec.kind) {
		case SESSION_SAMPLE:
			if (!t->have_base) {
				uint64_t now = clock_now();

				t->base = session_first_start(&t->s);
				t->have_base = true;
				t->realtime_base = clock_realtime() -
						   (now > t->base ? now - t->base : 0);
			}
			tui_model_add(&t->live, &rec.sample, rec.notice);
			tui_verdict_add(&t->verdict, &rec.sample);
			if (t->on_sample)
				t->on_sample(t->hook_ctx, &rec.sample, rec.notice,
					     rec.sample.start + rec.sample.time);
			break;
		case SESSION_PERIOD_END:
			tui_model_period_end(&t->live);
			break;
		case SESSION_BURST_END:
			tui_model_burst_end(&t->live);
			break;
		case SESSION_WARNING:
			tui_model_warning(&t->live, rec.text);
			warnlog_add(&t->warns, rec.text);
			break;
		}
		t->dirty = true;
	}
	return n;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* The rate the verdict compares with: the options' (opts_asked_rate), or the new interval's. */
static double tui_asked(const struct tui *t)
{
	const struct view_cfg *o = t->vp->cfg;

	if (t->paused)
		return 0; /* nothing asked while paused: no verdict */
	if (!t->interval_changed)
		return o->asked_rate;
	return (double)(o->burst > 1 ? o->burst : 1) * NS_PER_S / (double)t->interval;
}

static void tui_set_interval(struct tui *t, uint64_t iv)
{
	char a[TUI_FMT_LEN], note[64];

	if (iv > TUI_MAX_INTERVAL)
		iv = TUI_MAX_INTERVAL;
	if (!iv)
		iv = 1; /* probe_ctl cannot express 0; 1 ns is flooding */
	t->interval = iv;
	t->interval_changed = true;
	session_set_interval(&t->s, iv);
	tui_model_set_interval(&t->live, iv);
	tui_verdict_set_asked(&t->verdict, tui_asked(t));
	tui_pace(t);
	snprintf(note, sizeof(note), "interval %s", tui_fmt_span(a, sizeof(a), iv, t->ascii));
	tui_note(t, note);
}

void tui_key(struct tui *t, int ch)
{
	const char *note;
	uint64_t now = tui_run_ns(t, clock_now());
	enum tui_action act = tui_key_action(ch == KEY_F(1) ? '?' : ch);

	if (act == TUI_ACT_QUIT) {
		t->quit = true;
		return;
	}
	if (ch == KEY_RESIZE) {
		tui_relayout(t);
		return;
	}
	t->dirty = true;
	if (t->help && act != TUI_ACT_REDRAW) {
		t->help = false;
		return;
	}
	if (tui_show_key(&t->show, act, &note)) {
		if (note)
			tui_note(t, note);
		return;
	}
	if (t->feed && act != TUI_ACT_REDRAW && act != TUI_ACT_DEVICE && act != TUI_ACT_HELP)
		return; /* a recording is not probed: its cursor keys were taken before */
	switch (act) {
	case TUI_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case TUI_ACT_FREEZE:
		t->frozen_on = !t->frozen_on;
		if (t->frozen_on) {
			t->frozen = t->live;
			t->io_frozen = t->io;
			t->verdict_frozen = t->verdict;
			t->frozen_now = now;
		}
		tui_note(t, t->frozen_on ? "display frozen (probe continues)" : "display live");
		break;
	case TUI_ACT_PAUSE:
		t->paused = !t->paused;
		session_pause(&t->s, t->paused);
		tui_model_pause(&t->live, t->paused, now);
		tui_verdict_set_asked(&t->verdict, tui_asked(t));
		tui_note(t, t->paused ? "probing paused" : "probing resumed");
		break;
	case TUI_ACT_FASTER:
		tui_set_interval(t, t->interval / 2);
		break;
	case TUI_ACT_SLOWER:
		tui_set_interval(t, t->interval ? t->interval * 2 : 1000);
		break;
	case TUI_ACT_RESET:
		tui_drain(t); /* what finished before the key counts before the reset */
		session_reset_stats(&t->s);
		tui_model_reset(&t->live, tui_run_ns(t, clock_now()));
		tui_note(t, "statistics reset");
		break;
	case TUI_ACT_DEVICE:
		tui_iostat_next(&t->io);
		tui_iostat_next(&t->io_frozen);
		break;
	case TUI_ACT_HELP:
		t->help = true;
		break;
	case TUI_ACT_QUIT:
	case TUI_ACT_NONE:
	case TUI_ACT_SCALE: /* the display keys: tui_show_key(), above */
	case TUI_ACT_WINDOW:
	case TUI_ACT_RESPONSE:
	case TUI_ACT_HEATMAP:
	case TUI_ACT_HISTOGRAM:
	case TUI_ACT_OPEN: /* the overview's (tui_multi.c), which takes them first */
	case TUI_ACT_UP:
	case TUI_ACT_DOWN:
	case TUI_ACT_ALL:
	case TUI_ACT_BACK:
	case TUI_ACT_SORT:
	case TUI_ACT_FILTER:
	case TUI_ACT_PLAY: /* a replay's (tui_replay.c) */
	case TUI_ACT_STEP_FWD:
	case TUI_ACT_STEP_BACK:
	case TUI_ACT_START:
	case TUI_ACT_END:
		break;
	}
}

/* ---- state and drawing ------------------------------------------------------------------ */

static uint64_t tui_inflight(struct tui *t, uint64_t mono)
{
	uint64_t since = t->feed ? 0 : session_inflight_since(&t->s);

	if (!since || mono <= since || mono - since < TUI_INFLIGHT_NS)
		return 0;
	return mono - since;
}

static void tui_state(struct tui *t, uint64_t inflight)
{
	int st = t->feed ? SESSION_RUNNING : session_state(&t->s);
	const struct tally *tot = &t->live.total;
	char a[TUI_FMT_LEN];
	const char *why;

	t->state_cls = TUI_STATE_OK;
	if (t->feed) { /* a replay: where its cursor is */
		snprintf(t->state, sizeof(t->state), "%s", t->feed->state);
		t->state_cls = t->feed->cls;
		return;
	}
	if (st == SESSION_FAILED) {
		session_result(&t->s, &why);
		snprintf(t->state, sizeof(t->state), "failed: %s", why);
		t->state_cls = TUI_STATE_BAD;
	} else if (inflight) {
		snprintf(t->state, sizeof(t->state), "request in flight for %s",
			 tui_fmt_time(a, sizeof(a), inflight, t->ascii));
		t->state_cls = TUI_STATE_BAD;
	} else if (st == SESSION_DONE) {
		snprintf(t->state, sizeof(t->state), "finished, q quits");
		t->state_cls = TUI_STATE_WARN;
	} else if (t->paused) {
		snprintf(t->state, sizeof(t->state), "paused");
		t->state_cls = TUI_STATE_WARN;
	} else if (tot->failed) {
		snprintf(t->state, sizeof(t->state), "running, errors: %" PRIu64 " failed",
			 tot->failed);
		t->state_cls = TUI_STATE_BAD;
	} else {
		snprintf(t->state, sizeof(t->state), "running");
	}
}

void tui_paint(struct tui *t, uint64_t mono)
{
	struct tui_frame f;
	uint64_t inflight = tui_inflight(t, mono);
	const struct tui_model *m = t->frozen_on ? &t->frozen : &t->live;
	uint64_t now = t->feed ? t->feed->now : t->frozen_on ? t->frozen_now : tui_run_ns(t, mono);

	tui_state(t, inflight);
	memset(&f, 0, sizeof(f));
	f.target = t->target;
	f.mode = t->mode;
	f.pace = t->pace;
	f.size = t->vp->rc->size;
	f.work_size = t->vp->cfg->work_size;
	f.elapsed = t->feed ? now : mono - t->t0;
	f.state = t->state;
	f.state_cls = t->state_cls;
	f.frozen = t->frozen_on;
	f.m = m;
	f.io = t->frozen_on ? &t->io_frozen : &t->io;
	f.verdict = t->io.no_blockdev ? NULL : t->frozen_on ? &t->verdict_frozen : &t->verdict;
	f.response = t->show.response;
	f.heatmap = t->show.heatmap;
	f.histogram = t->show.histogram;
	f.color = t->color;
	f.rc = t->vp->rc;
	f.realtime_base = t->feed ? t->feed->realtime_base : t->realtime_base;
	f.now = now;
	f.now_label = t->feed ? t->feed->now_label : NULL;
	/* a replay's periods are the recorded ones: the total covers their walls */
	f.total_wall = t->feed ? m->total.wall : now > m->total_start ? now - m->total_start : 0;
	f.period_label = t->period_label;
	f.own_periods = t->feed ? t->feed->own_periods : t->live.cfg.own_period != 0;
	f.win = t->show.win;
	f.log = t->show.log;
	f.ascii = t->ascii;
	f.help = t->help;
	f.write = t->vp->rc->write;
	f.inflight = inflight;
	f.dropped = t->feed ? 0 : session_dropped(&t->s);
	f.note = mono < t->note_until ? t->note : t->sticky;
	if (t->feed) { /* a replay's: its warnings first, then which target, then its own */
		f.keys = TUI_KEYS_REPLAY;
		f.work_size = 0; /* not in the recording */
		f.note = mono < t->note_until ? t->note : t->feed->flash ? t->feed->flash :
			 m->warnings ? NULL : t->sticky ? t->sticky : t->feed->note;
	}
	tui_panes_draw(&t->panes, &f);
	t->last_draw = mono;
	t->dirty = false;
}

/* Milliseconds poll() may sleep. */
int tui_timeout(struct tui *t, uint64_t mono)
{
	uint64_t due = t->next_tick;

	if (t->dirty && t->last_draw + TUI_FRAME_NS < due)
		due = t->last_draw + TUI_FRAME_NS;
	if (t->note_until && t->note_until < due)
		due = t->note_until;
	if (tui_inflight(t, mono) && mono + TUI_FRAME_NS < due)
		due = mono + TUI_FRAME_NS;
	if (t->busy && mono + TUI_BUSY_NS < due)
		due = mono + TUI_BUSY_NS;
	if (due <= mono)
		return 0;
	if ((due - mono) / 1000000 >= TUI_IDLE_MS && session_state(&t->s) == SESSION_RUNNING)
		return TUI_IDLE_MS;
	return (int)((due - mono + 999999) / 1000000);
}

/* --record under the view: the judged interval handed to the CLI with its device rows. */
static void tui_judged(struct tui *t, const struct tui_pending *pd)
{
	struct iostat_dev_row rows[DEVWATCH_MAX];
	uint64_t mono = clock_now(), real = clock_realtime();
	uint64_t read = t->io.watch.read_mono_ns;

	if (!t->vp->judged)
		return;
	if (read && read < mono && mono - read < real)
		real -= mono - read; /* dated by the device read, as the interval was cut */
	t->vp->judged(t->vp->judged_ctx, pd->seq, real, rows,
		      devwatch_rows(&t->io.watch, rows, DEVWATCH_MAX), &t->verdict.p,
		      &t->verdict.v);
}

/* The pending interval's verdict, once its requests are in (or at its deadline, or forced). */
static void tui_judge_pending(struct tui *t, uint64_t mono, bool force)
{
	struct tui_pending *pd = &t->pend;

	if (!pd->on || (!force && t->verdict.added < pd->need && mono < pd->until))
		return;
	pd->on = false;
	if (tui_verdict_judge(&t->verdict, &t->io.watch, pd->period, pd->inflight))
		tui_judged(t, pd);
	if (tui_panes_stale(&t->panes, &t->verdict))
		tui_relayout(t); /* a longer or shorter verdict: the panel follows it */
	t->dirty = true;
}

/*
 * Read the device's counters and cut the probe's interval there (tui_verdict_cut()); the
 * verdict waits until every request the probe had finished by then has reached the view.
 */
static void tui_io_sample(struct tui *t, uint64_t mono)
{
	uint64_t prev = t->io.last, run = t->have_base ? tui_run_ns(t, mono) : 0;
	uint64_t since, need;
	struct cpuwait_delta cd;

	tui_judge_pending(t, mono, true); /* a verdict still waiting: judged before the next cut */
	tui_iostat_sample(&t->io, t->live.samples);
	if (session_state(&t->s) != SESSION_RUNNING)
		return; /* the probe ended: the device's rows go on, no more verdicts on it */
	need = atomic_load_explicit(&t->s.ctl->finished, memory_order_acquire);
	if (t->have_base && t->io.watch.read_mono_ns > t->base)
		tui_verdict_cut(&t->verdict, t->io.watch.read_mono_ns - t->base);
	/* the probe's interval: since the last sample, or since its first start */
	since = session_inflight_since(&t->s);
	cpuwait_read(&t->cpu, session_prober_pid(&t->s), &cd);
	tui_verdict_cpu(&t->verdict, &cd);
	t->pend = (struct tui_pending){
		.on = true, .need = need, .seq = t->io_seq++, .until = mono + TUI_JUDGE_WAIT_NS,
		.period = t->io.last > prev && prev ? (t->io.last - prev < run ? t->io.last - prev : run) : 0,
		.inflight = since && mono > since ? mono - since : 0,
	};
	tui_drain(t); /* what finished before the read and is on its way */
	tui_judge_pending(t, clock_now(), false);
}

/* Once a second: periods, the clock, and the iostat sample (CLOCK_BOOTTIME). */
void tui_tick(struct tui *t, uint64_t mono)
{
	uint64_t bt;

	if (t->feed) { /* a replay feeds it: only its note ends */
		if (t->note_until && mono >= t->note_until) {
			t->note_until = 0;
			t->dirty = true;
		}
		return;
	}
	tui_model_tick(&t->live, tui_run_ns(t, mono));
	tui_judge_pending(t, mono, false);
	if (!t->ended_told && session_state(&t->s) != SESSION_RUNNING) {
		t->ended_told = true;
		if (t->vp->ended)
			t->vp->ended(t->vp->judged_ctx);
	}
	if (t->note_until && mono >= t->note_until) {
		t->note_until = 0;
		t->dirty = true;
	}
	if (tui_inflight(t, mono))
		t->dirty = true;
	if (mono < t->next_tick)
		return;
	while (t->next_tick <= mono)
		t->next_tick += TUI_TICK_NS;
	t->dirty = true;
	bt = clock_boottime();
	if (bt >= t->io_next) {
		tui_io_sample(t, mono);
		t->io_next = bt + TUI_IO_PERIOD_NS - TUI_IO_PERIOD_NS / 20;
	}
}

/* ---- run -------------------------------------------------------------------------------- */

static void tui_on_wake(int sig)
{
	(void)sig;
}

/* Start the session with the signals the UI waits for blocked in the probe thread. */
static int tui_start(struct tui *t, unsigned sessions)
{
	sigset_t block, old;
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	sigaddset(&block, SIGTSTP);
	tui_term_sigset(&block); /* they reach the UI thread, which restores the terminal */
	pthread_sigmask(SIG_BLOCK, &block, &old);
	ret = session_start(&t->s, t->vp->probe, sessions);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * Stop the probe: ask, interrupt its sleep, wait for its thread. A request
 * stuck in the kernel cannot be interrupted: the session gives it up after
 * PROBER_GRACE_NS (its process is left to end with the request); the screen
 * is already given back then, so say what we wait for — only when a request
 * really is in flight (a probe busy elsewhere is not waiting for one).
 */
void tui_finish(struct tui *t)
{
	bool told = false;

	while (session_state(&t->s) == SESSION_RUNNING) {
		struct pollfd p = { session_wake_fd(&t->s), POLLIN, 0 };

		session_interrupt(&t->s, TUI_WAKE_SIG);
		poll(&p, 1, 20);
		session_ack(&t->s);
		if (!told && tui_inflight(t, clock_now())) {
			t->vp->message("waiting for the request in flight to finish (0.5 s at most)");
			told = true;
		}
	}
	tui_drain(t);
	session_stop(&t->s);
}

void tui_loop_run(const struct tui_loop_ops *ops, const volatile sig_atomic_t *stop)
{
	while (!ops->done(ops->ctx) && !*stop) {
		size_t n;
		struct pollfd *pfd = ops->fds(ops->ctx, &n);
		uint64_t mono = clock_now();
		int ch, r = poll(pfd, n, ops->sleep_ms(ops->ctx, mono));

		if (*stop || (r < 0 && errno != EINTR))
			break;
		if (r > 0 && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
			break; /* the terminal went away */
		ops->woke(ops->ctx, r, clock_now());
		while (!ops->done(ops->ctx) && (ch = getch()) != ERR)
			ops->key(ops->ctx, ch, clock_now());
		ops->paint(ops->ctx, clock_now());
	}
}

/* Hand the kept warnings to the CLI, each text once with its count. */
void tui_report_warnings(struct tui *t)
{
	char line[WARNLOG_LINE_LEN], named[WARNLOG_LINE_LEN + TUI_NAMED_PATH_LEN];

	for (size_t i = 0; i < warnlog_lines(&t->warns); i++) {
		warnlog_line(&t->warns, i, t->ascii, line, sizeof(line));
		/* one of several targets (tui_multi.c): say which */
		snprintf(named, sizeof(named), "%s%s%s", t->sticky ? t->vp->cfg->path : "",
			 t->sticky ? ": " : "", line);
		t->vp->message(named);
	}
}

void tui_free(struct tui *t)
{
	tui_panes_free(&t->panes);
	free(t);
}

/* The view's state before the screen opens; NULL when out of memory. */
struct tui *tui_new(const struct view_params *vp, const struct tui_term_opts *to)
{
	struct tui *t = calloc(1, sizeof(*t));
	struct tui_model_cfg mc = { 0 };
	const struct view_cfg *o = vp->cfg;
	struct verdict_probe vc;
	struct cpuwait_delta cd;

	if (!t)
		return NULL;
	prefault(t, sizeof(*t)); /* the models fill over a minute: resident from the start */
	t->vp = vp;
	warnlog_init(&t->warns);
	t->ascii = tui_term_want_ascii(to);
	t->show.log = true;
	t->interval = vp->probe->cfg.interval;
	tui_describe(t);
	tui_pace(t);
	mc.size = vp->rc->size;
	mc.split = o->read_write; /* -G: reads and writes apart */
	if (vp->rc->pcts)
		mc.pcts = *vp->rc->pcts;
	mc.interval = t->interval;
	mc.own_period = vp->probe->cfg.print_count || vp->probe->cfg.print_interval ?
			0 : 1000000000ull;
	tui_model_init(&t->live, &mc);
	tui_model_init(&t->frozen, &mc); /* touched now, not at the first freeze */
	tui_iostat_open(&t->io, vp->cfg->path);
	if (t->ascii)
		tui_ascii_arrows(t->io.stack);
	verdict_probe_settings(&vc, o->asked_rate, vp->rc->size, o->write, o->read_write,
			       o->cached, o->depth);
	tui_verdict_init(&t->verdict, &vc);
	cpuwait_init(&t->cpu);
	cpuwait_read(&t->cpu, 0, &cd); /* the host's pressure from here on */
	tui_iostat_sample(&t->io, 0);
	t->io_next = clock_boottime() + TUI_IO_PERIOD_NS - TUI_IO_PERIOD_NS / 20;
	return t;
}

struct tui *tui_new_fed(const struct view_params *vp, const struct tui_term_opts *to,
			const struct tui_feed *feed)
{
	struct tui *t = calloc(1, sizeof(*t));
	struct tui_model_cfg mc = { 0 };

	if (!t)
		return NULL;
	t->vp = vp;
	t->feed = feed;
	warnlog_init(&t->warns);
	t->ascii = tui_term_want_ascii(to);
	t->show.log = true;
	t->show.heatmap = feed->heatmap;
	t->interval = vp->cfg->interval;
	tui_describe_target(t->target, sizeof(t->target), &vp->rc->target);
	tui_describe_mode(t->mode, sizeof(t->mode), vp->cfg, vp->engine);
	tui_describe_pace(t->pace, sizeof(t->pace), vp->cfg, t->interval, false, t->ascii);
	tui_describe_period(t->period_label, sizeof(t->period_label), vp->cfg,
			    vp->cfg->print_count || vp->cfg->print_interval ? 0 : TUI_TICK_NS,
			    t->ascii);
	mc.size = vp->rc->size;
	mc.split = vp->cfg->read_write;
	if (vp->rc->pcts)
		mc.pcts = *vp->rc->pcts;
	mc.interval = t->interval;
	mc.own_period = 0; /* the recorded periods close the rows */
	tui_model_init(&t->live, &mc);
	t->io.no_blockdev = true;
	return t;
}

void tui_fed_parts(struct tui *t, struct tui_fed *out)
{
	out->m = &t->live;
	out->io = &t->io;
	out->verdict = &t->verdict;
}

void tui_fed_changed(struct tui *t)
{
	if (tui_panes_stale(&t->panes, &t->verdict))
		tui_relayout(t); /* a longer or shorter verdict: the panel follows it */
	t->dirty = true;
}

/* ---- for several targets and the sweep (tui_int.h) ---------------------------------------- */

int tui_one_start(struct tui *t, unsigned screens)
{
	t->t0 = clock_now();
	t->next_tick = t->t0 + TUI_TICK_NS;
	return tui_start(t, screens);
}

void tui_peek(struct tui *t, uint64_t mono, struct tui_peek *p)
{
	p->m = &t->live;
	p->io = &t->io;
	p->verdict = t->io.no_blockdev ? NULL : &t->verdict;
	p->now = t->feed ? t->feed->now : tui_run_ns(t, mono);
	p->state = t->feed ? SESSION_RUNNING : session_state(&t->s);
	p->paused = t->paused;
	p->help = t->help;
	p->interval = t->interval;
	p->wake_fd = t->feed ? -1 : session_wake_fd(&t->s);
	p->dirty = t->dirty;
	p->busy = t->busy;
	p->last_draw = t->last_draw;
	p->target = t->vp->cfg->path;
	p->name = t->vp->cfg->name;
}

void tui_set_color(struct tui *t, bool color)
{
	t->color = color;
}

void tui_set_busy(struct tui *t, bool busy)
{
	t->busy = busy;
}

void tui_ack(struct tui *t)
{
	session_ack(&t->s);
}

void tui_set_sticky(struct tui *t, const char *text)
{
	t->sticky = text;
	t->dirty = true;
}

void tui_set_hook(struct tui *t, void (*fn)(void *, const struct sample *, enum notice, uint64_t),
		  void *ctx)
{
	t->on_sample = fn;
	t->hook_ctx = ctx;
}

int tui_result(struct tui *t, const char **why)
{
	return session_result(&t->s, why);
}

void tui_wake_install(struct sigaction *old)
{
	struct sigaction wake;

	memset(&wake, 0, sizeof(wake));
	wake.sa_handler = tui_on_wake;
	sigemptyset(&wake.sa_mask);
	sigaction(TUI_WAKE_SIG, &wake, old);
}

void tui_wake_restore(const struct sigaction *old)
{
	sigaction(TUI_WAKE_SIG, old, NULL);
}
