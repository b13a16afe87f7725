#include "config.h"

#include "cli_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "cli.h"
#include "msg.h"
#include "devwatch.h"
#include "exporters.h"
#include "iostat.h"
#include "layerstat.h"
#include "opts.h"
#include "outw.h"
#include "prober.h"
#include "recorder.h"
#include "report.h"
#include "sbuf.h"
#include "stats.h"
#include "ticker.h"
#include "verdict.h"

/* the --iostat block waits this long at most (and half its period) for the probe's requests */
#define CLI_IV_WAIT_NS 500000000ull
#define CLI_IV_WAIT_STEP_NS 1000000L

/*
 * The boottime of monotonic ns mono (the sample s's start; 0: unknown, then its completion is
 * taken as now): the two clocks differ by a constant while the machine does not sleep.
 */
static uint64_t cli_iv_boottime(uint64_t mono, const struct sample *s)
{
	uint64_t boot = clock_boottime(), now = clock_now();

	if (!mono || mono > now)
		return boot > s->time ? boot - s->time : boot;
	return boot - (now - mono);
}

/* Count a finished request into the --iostat interval (brief: never waits on stdout). */
void cli_iv_add(struct cli_target *tg, const struct sample *s, enum notice n)
{
	int to;

	pthread_mutex_lock(&tg->iv_lock);
	/* finished after the device's counters were read: the next interval's */
	to = tg->iv_cut && s->start + s->time > tg->iv_cut ? tg->iv_cur ^ 1 : tg->iv_cur;
	if (!tg->iv_first) /* when it started, on the boottime clock (heard of late or not) */
		tg->iv_first = cli_iv_boottime(tg->p ? tg->p->first_start + s->start : 0, s);
	if (s->result >= 0)
		stats_add(tg->iv_lat[to], s->time);
	else
		tg->iv_failed[to]++;
	if (tg->iv_lay[0])
		layer_tally_add(tg->iv_lay[to], s, n);
	tg->iv_added++;
	if (s->lateness > tg->iv_late_max)
		tg->iv_late_max = s->lateness;
	tg->iv_skipped = s->skipped;
	pthread_mutex_unlock(&tg->iv_lock);
}

/* The age of tg's request in flight (its probe's shared control), 0 when none. */
static uint64_t cli_iv_inflight(const struct cli_target *tg)
{
	uint64_t since = tg->p && tg->p->ctl ?
			 atomic_load_explicit(&tg->p->ctl->inflight, memory_order_relaxed) : 0;
	uint64_t now = clock_now();

	return since && now > since ? now - since : 0;
}

/* The interval's --layers tally (NULL: none) into tg->vp, then emptied. */
static void cli_iv_layers(struct cli_target *tg, struct layer_tally *lay)
{
	double ns[LAYERS_N];

	if (!lay) {
		verdict_probe_layers(&tg->vp, tg->run->layers_tried, 0, 0, NULL, 0);
		return;
	}
	for (int i = 0; i < LAYERS_N; i++) /* each layer's stats hold the requests with a device */
		ns[i] = lay->layer[i].count ? lay->layer[i].mean : 0;
	verdict_probe_layers(&tg->vp, false, lay->requests, lay->no_device, ns,
			     layer_tally_pieces(lay));
	layer_tally_init(lay);
}

/*
 * The prober's child gone before the interval's reading (the run's end): its run delay from
 * what the child read of itself at its end, less what the last reading had.
 */
static void cli_iv_cpu_end(struct cli_target *tg, const struct cpuwait *prev,
			   struct cpuwait_delta *cd)
{
	uint64_t end;

	if (cd->have_wait || !prev->pid || !prev->have_wait || !prober_cpu_wait(tg->p, &end) ||
	    end < prev->wait_ns)
		return;
	cd->have_wait = true;
	cd->wait_ns = end - prev->wait_ns;
}

/*
 * Close tg's interval at boottime now: swap the latency buffers and fill
 * tg->vp's per-interval fields, then clear the closed buffer. The ticker's.
 */
static void cli_iv_close(struct cli_target *tg, uint64_t now)
{
	struct stats *lat;
	struct layer_tally *lay;
	struct cpuwait_delta cd;
	struct cpuwait prev;
	uint64_t skipped, first, from, late, failed;

	pthread_mutex_lock(&tg->iv_lock);
	lat = tg->iv_lat[tg->iv_cur];
	lay = tg->iv_lay[tg->iv_cur];
	failed = tg->iv_failed[tg->iv_cur];
	tg->iv_failed[tg->iv_cur] = 0;
	tg->iv_cur ^= 1;
	tg->iv_cut = 0;
	skipped = tg->iv_skipped;
	first = tg->iv_first;
	late = tg->iv_late_max;
	tg->iv_late_max = 0;
	pthread_mutex_unlock(&tg->iv_lock);
	/* the probe's interval starts with its first request, not with the sampler */
	from = first > tg->iv_prev ? first : tg->iv_prev;
	verdict_probe_interval(&tg->vp, first && now > from ? now - from : 0, lat,
			       skipped - tg->iv_skip_mark,
			       tg->iv_have_need ? tg->iv_inflight : cli_iv_inflight(tg));
	/* the prober's CPU wait over the same interval, measured (read at the ticker's moment:
	 * the interval's first one, before its first request, reads no delta) */
	prev = tg->cpu;
	cpuwait_read(&tg->cpu, prober_pid(tg->p), &cd);
	cli_iv_cpu_end(tg, &prev, &cd);
	verdict_probe_cpu(&tg->vp, cd.have_wait, cd.wait_ns, cd.have_throttle, cd.throttled_ns,
			  cd.have_host ? (int64_t)cd.host_some_ns : -1);
	tg->vp.late_max_ns = late;
	tg->vp.failed = failed;
	if (tg->iv_have_need && tg->iv_need >= tg->iv_need_prev) /* the probe's own count */
		verdict_probe_finished(&tg->vp, tg->iv_need - tg->iv_need_prev);
	if (tg->iv_have_need)
		tg->iv_need_prev = tg->iv_need;
	cli_iv_layers(tg, lay);
	tg->iv_skip_mark = skipped;
	tg->iv_prev = now;
	stats_init(lat);
}

/* The interval's verdict on tg's stack (top first). */
static void cli_iv_judge(struct cli_target *tg, struct verdict *v)
{
	struct verdict_dev dev[DEVWATCH_MAX];
	size_t n = devwatch_verdict_devs(tg->watch, dev, DEVWATCH_MAX);

	verdict_judge(&tg->vhist, &tg->vp, dev, n, v);
}

void cli_iostat_time(struct sbuf *sb, bool iso, uint64_t realtime)
{
	time_t now = (time_t)(realtime / 1000000000ull);
	struct tm tm;
	char buf[64];

	localtime_r(&now, &tm);
	if (iso) {
		strftime(buf, sizeof(buf), "%FT%T%z", &tm);
		sbuf_printf(sb, "%s\n", buf);
		return;
	}
	/* iostat's "%x %X" in the C locale the CLI runs in: 11/23/26 00:13:20 */
	sbuf_printf(sb, "%02d/%02d/%02d %02d:%02d:%02d\n", tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_year % 100, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * tg's probe's finished requests now (its shared control): the count at its device's read,
 * and the age of its request in flight then (the interval's, though it may finish while the
 * cut waits for the count: it is the next interval's when done).
 */
static void cli_iv_need(struct cli_target *tg)
{
	tg->iv_need = 0;
	tg->iv_have_need = false;
	if (tg->state != CLI_TARGET_RUNNING || !tg->iv_lat[0] || !tg->p || !tg->p->ctl)
		return;
	tg->iv_need = atomic_load_explicit(&tg->p->ctl->finished, memory_order_acquire);
	tg->iv_inflight = cli_iv_inflight(tg);
	tg->iv_have_need = true;
}

/*
 * Sample every watch of the run from one read of /proc/diskstats (dated by itself: 0.16 ms a
 * read of 188 lines here, so a read per watch made 16 idle targets cost 0.5 % of a core); 0
 * or -errno.
 */
static int cli_iostat_sample(struct cli_run *r)
{
	const struct devwatch *any = r->watch;
	uint64_t boot = 0, mono = 0;
	char *text = NULL;
	int err;

	for (size_t i = 0; !any && i < r->n; i++)
		if (r->tg[i].state == CLI_TARGET_RUNNING)
			any = r->tg[i].watch;
	if (!any)
		return 0;
	err = devwatch_read_dated(any, &text, &boot, &mono);
	if (!err && r->watch)
		err = devwatch_sample_dated(r->watch, text, boot, mono);
	for (size_t i = 0; !err && i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state == CLI_TARGET_RUNNING && tg->watch && tg->watch != r->watch)
			err = devwatch_sample_dated(tg->watch, text, boot, mono);
		cli_iv_need(tg); /* the probe's own count as close to its device's read as can be */
	}
	free(text);
	return err;
}

/*
 * Cut each running target's interval where its device's counters were read (what finished
 * after counts in the next), then wait, at most wait_ns, until the requests its probe had
 * finished by then have been added: a process held off its CPU hears of them late, and
 * counting them in the next interval showed the probe's own requests as other I/O.
 */
static void cli_iv_cut(struct cli_run *r, uint64_t wait_ns)
{
	uint64_t until = clock_now() + wait_ns;
	const struct timespec step = { 0, CLI_IV_WAIT_STEP_NS };
	bool all;

	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];
		uint64_t read = tg->watch ? tg->watch->read_mono_ns : 0, first;

		if (!tg->iv_have_need)
			continue;
		first = tg->p->first_start;
		pthread_mutex_lock(&tg->iv_lock);
		tg->iv_cut = first && read > first ? read - first : 0;
		pthread_mutex_unlock(&tg->iv_lock);
	}
	do {
		all = true;
		for (size_t i = 0; all && i < r->n; i++) {
			struct cli_target *tg = &r->tg[i];

			pthread_mutex_lock(&tg->iv_lock);
			all = tg->state != CLI_TARGET_RUNNING || tg->iv_added >= tg->iv_need;
			pthread_mutex_unlock(&tg->iv_lock);
		}
	} while (!all && clock_now() < until && !nanosleep(&step, NULL));
}

void cli_iostat_target(struct sbuf *sb, const char *path, const struct verdict *v)
{
	if (path)
		sbuf_printf(sb, "%s: ", path);
	verdict_format_probe(sb, v);
	sbuf_putc(sb, '\n');
	if (path)
		sbuf_printf(sb, "%s: ", path);
	verdict_format(sb, v);
	sbuf_putc(sb, '\n');
}

/* --record: the block's rows and each running target's side (its own rows when n > 1). */
static void cli_iostat_record(struct cli_run *r, const struct iostat_dev_row *rows, size_t n,
			      const struct verdict *v)
{
	struct iostat_dev_row (*own)[DEVWATCH_MAX] = calloc(r->n, sizeof(*own));
	struct rec_side *side = calloc(r->n, sizeof(*side));
	size_t ns = 0;

	for (size_t i = 0; own && side && i < r->n; i++) {
		const struct cli_target *tg = &r->tg[i];
		size_t k = 0;

		if (tg->state != CLI_TARGET_RUNNING || !tg->iv_lat[0]) /* not judged */
			continue;
		if (r->n > 1)
			k = devwatch_rows(tg->watch, own[i], DEVWATCH_MAX);
		side[ns++] = (struct rec_side){ i, r->n > 1 ? own[i] : NULL, k, &tg->vp, &v[i] };
	}
	if (own && side)
		recorder_block(r->rec, 0, rows, n, side, ns);
	else
		recorder_warning(r->rec, -1, "--record: out of memory: an --iostat block left out");
	free(own);
	free(side);
}

/* With -J: one "iostat" object per target, its own stack's rows, its probe and verdict. */
static void cli_iostat_json(struct cli_run *r, const struct verdict *v, struct sbuf *sb)
{
	struct iostat_dev_row own[DEVWATCH_MAX];

	for (size_t i = 0; i < r->n; i++) {
		const struct cli_target *tg = &r->tg[i];
		size_t k;

		if (tg->state != CLI_TARGET_RUNNING ||
		    !(k = devwatch_rows(tg->watch, own, DEVWATCH_MAX)))
			continue;
		outw_json_sep(&r->out, sb);
		report_json_iostat(sb, &tg->rc, own, k, &v[i], clock_realtime());
		if (r->o->json_lines)
			sbuf_putc(sb, '\n');
	}
}

/*
 * Sample the devices, close each judged target's interval and judge it into v[i]; the
 * exporters hear each verdict. Returns 0 or the sample's -errno (said once).
 */
static int cli_iostat_judge(struct cli_run *r, struct verdict *v)
{
	uint64_t period = r->o->print_interval ? r->o->print_interval : OPTS_IOSTAT_PERIOD;
	int err = cli_iostat_sample(r);

	if (!err)
		cli_iv_cut(r, period / 2 < CLI_IV_WAIT_NS ? period / 2 : CLI_IV_WAIT_NS);
	for (size_t i = 0; i < r->n; i++)
		if (r->tg[i].state == CLI_TARGET_RUNNING && r->tg[i].iv_lat[0])
			cli_iv_close(&r->tg[i], r->tg[i].watch->prev_ns);
	if (err) {
		if (!r->iostat_failed) /* say it once, the probe goes on */
			cli_msg("%s: cannot read /proc/diskstats: %s",
				r->o->iostat ? "--iostat" : "the verdict", strerror(-err));
		r->iostat_failed = true;
		return err;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_RUNNING || !tg->iv_lat[0])
			continue;
		cli_iv_judge(tg, &v[i]);
		/* --check's text: a verdict to say (none when nothing could be compared) */
		if (v[i].state == VERDICT_NONE)
			tg->vwords[0] = '\0';
		else
			verdict_words(&v[i], tg->vwords, sizeof(tg->vwords));
		if (r->x)
			exporters_verdict(r->x, tg->xi, &v[i], tg->vp.period_ns);
	}
	return 0;
}

/*
 * One --iostat block (every second, or every -P period): the time, sysstat's
 * `iostat -dx` header and a row per device (the union of the targets'
 * stacks), as `iostat -dx -t` prints them, then for each target the probe's
 * line for the same interval and the verdict on its own stack, and a blank
 * line; with -J an "iostat" object per target with sysstat's JSON keys,
 * "probe" and "verdict". Without --iostat (the fleet outputs' verdict) only the judging.
 */
static void cli_iostat_tick(void *arg)
{
	struct cli_run *r = arg;
	struct sbuf sb = SBUF_INIT;
	struct iostat_dev_row rows[DEVWATCH_MAX];
	struct verdict *v = calloc(r->n, sizeof(*v));
	size_t n;

	if (!v || cli_iostat_judge(r, v)) {
		free(v);
		return;
	}
	if (!r->watch) { /* quiet: nothing printed, the verdicts recorded (one target: its rows) */
		const struct devwatch *w = r->n == 1 ? r->tg[0].watch : NULL;

		n = w ? devwatch_rows(w, rows, DEVWATCH_MAX) : 0;
		if (r->rec && (n || r->n > 1))
			cli_iostat_record(r, n ? rows : NULL, n, v);
		free(v);
		return;
	}
	if (!(n = devwatch_rows(r->watch, rows, DEVWATCH_MAX))) {
		free(v);
		return;
	}
	if (r->rec)
		cli_iostat_record(r, rows, n, v);
	pthread_mutex_lock(&r->out.lock);
	if (r->o->json) {
		cli_iostat_json(r, v, &sb);
	} else {
		cli_iostat_time(&sb, r->iso_time, clock_realtime());
		iostat_format_table(&sb, rows, n);
		for (size_t i = 0; i < r->n; i++) {
			const struct opts *to = &r->tg[i].o;

			if (r->tg[i].state == CLI_TARGET_RUNNING)
				cli_iostat_target(&sb, r->n > 1 ? to->name ? to->name : to->path
							      : NULL, &v[i]);
		}
		sbuf_putc(&sb, '\n');
	}
	if (outw_flush(&r->out, &sb)) {
		cli_stop = 1; /* stdout is gone (or full): end the run like a signal would */
		prober_notify_stop(); /* every probe's reader wakes */
	}
	pthread_mutex_unlock(&r->out.lock);
	sbuf_free(&sb);
	free(v);
}

/* Watch path's stack (or the devices --iostat names) in *w, baseline taken; 0 or exit code. */
static int cli_iostat_watch(const struct opts *o, const char *const *paths, size_t n,
			    struct devwatch **w)
{
	char msg[MSG_MAX];
	int ret;

	*w = malloc(sizeof(**w));
	if (!*w) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	ret = n == 1 ? devwatch_for_path(*w, paths[0], o->iostat_devices, msg, sizeof(msg)) :
		       devwatch_for_paths(*w, paths, n, o->iostat_devices, msg, sizeof(msg));
	if (!ret && (ret = devwatch_sample(*w, NULL, 0)))
		err_set(msg, sizeof(msg), ret, "--iostat: cannot read /proc/diskstats: %s",
			strerror(-ret));
	if (ret) {
		cli_msg("%s", msg);
		free(*w);
		*w = NULL;
		return CLI_EXIT_PREPARE;
	}
	return 0;
}

/*
 * Without --iostat (the fleet outputs' and --check's verdict): each prepared target's own
 * stack, quietly; a target with no block device under it (tmpfs, a network file system) or
 * probed by an engine that reaches no device (null) is not judged.
 */
static void cli_iostat_prepare_quiet(struct cli_run *r)
{
	char msg[MSG_MAX];

	for (size_t i = 0; !r->ops->no_device && i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY || !(tg->watch = malloc(sizeof(*tg->watch))))
			continue;
		if (devwatch_for_path(tg->watch, tg->o.path, NULL, msg, sizeof(msg)) ||
		    devwatch_sample(tg->watch, NULL, 0)) {
			free(tg->watch);
			tg->watch = NULL;
		}
	}
}

int cli_iostat_prepare(struct cli_run *r, bool quiet)
{
	const char **paths;
	size_t n = 0;
	int code;

	if (quiet) {
		cli_iostat_prepare_quiet(r);
		return 0;
	}
	paths = calloc(r->n, sizeof(*paths));
	if (!paths) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->tg[i].state == CLI_TARGET_READY)
			paths[n++] = r->tg[i].o.path;
	code = cli_iostat_watch(r->o, paths, n, &r->watch);
	free(paths);
	for (size_t i = 0; !code && i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY)
			continue;
		if (r->n == 1)
			tg->watch = r->watch; /* one stack: the rows shown are the verdict's */
		else
			code = cli_iostat_watch(r->o, &tg->o.path, 1, &tg->watch);
	}
	return code;
}

/* tg's two interval layer tallies; 0 or -ENOMEM. */
static int cli_iv_lay_alloc(struct cli_target *tg)
{
	for (int i = 0; i < 2; i++) {
		tg->iv_lay[i] = malloc(sizeof(*tg->iv_lay[i]));
		if (!tg->iv_lay[i])
			return -ENOMEM;
		layer_tally_init(tg->iv_lay[i]);
	}
	return 0;
}

int cli_iostat_start(struct cli_run *r)
{
	const struct opts *o = r->o;
	struct cpuwait_delta cd;
	const char *tf = getenv("S_TIME_FORMAT");
	int ret;

	r->iso_time = tf && !strcmp(tf, "ISO");
	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_READY || !tg->watch)
			continue;
		tg->iv_lat[0] = malloc(sizeof(struct stats));
		tg->iv_lat[1] = malloc(sizeof(struct stats));
		if (!tg->iv_lat[0] || !tg->iv_lat[1]) {
			cli_msg("out of memory");
			return CLI_EXIT_PREPARE;
		}
		stats_init(tg->iv_lat[0]);
		stats_init(tg->iv_lat[1]);
		if (tg->lay && cli_iv_lay_alloc(tg)) {
			cli_msg("out of memory");
			return CLI_EXIT_PREPARE;
		}
		verdict_hist_init(&tg->vhist);
		cpuwait_init(&tg->cpu);
		cpuwait_read(&tg->cpu, 0, &cd); /* the host's pressure from here on */
		verdict_probe_settings(&tg->vp, opts_asked_rate(o), tg->t.size, o->write > 0,
				       o->read_write, o->cached, (unsigned)o->depth);
		tg->iv_prev = tg->watch->prev_ns;
	}
	ret = ticker_start(&r->iostat, o->print_interval ? o->print_interval : OPTS_IOSTAT_PERIOD,
			   cli_iostat_tick, r);
	if (ret) {
		cli_msg("%s: cannot start its thread: %s", o->iostat ? "--iostat" : "the verdict",
			strerror(-ret));
		return CLI_EXIT_PREPARE;
	}
	return 0;
}

void cli_iostat_final(struct cli_run *r)
{
	struct verdict *v;
	bool any = false;

	for (size_t i = 0; i < r->n; i++) {
		struct cli_target *tg = &r->tg[i];

		if (tg->state != CLI_TARGET_RUNNING || !tg->iv_lat[0])
			continue;
		pthread_mutex_lock(&tg->iv_lock);
		/* the open interval's requests, done or failed */
		any |= tg->iv_lat[tg->iv_cur]->count || tg->iv_failed[tg->iv_cur];
		pthread_mutex_unlock(&tg->iv_lock);
	}
	if (!any || !(v = calloc(r->n, sizeof(*v))))
		return;
	cli_iostat_judge(r, v);
	free(v);
}

void cli_iostat_release(struct cli_run *r)
{
	for (size_t i = 0; r->tg && i < r->n; i++) {
		if (r->tg[i].watch != r->watch)
			free(r->tg[i].watch);
		r->tg[i].watch = NULL;
	}
	free(r->watch);
	r->watch = NULL;
}
