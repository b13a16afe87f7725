#include "config.h"

#include "cli_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "devwatch.h"
#include "iostat.h"
#include "opts.h"
#include "outw.h"
#include "report.h"
#include "sbuf.h"
#include "stats.h"
#include "ticker.h"
#include "verdict.h"

/* Count a finished request into the --iostat interval (brief: never waits on stdout). */
void cli_iv_add(struct cli_ctx *c, const struct sample *s)
{
	pthread_mutex_lock(&c->iv_lock);
	if (!c->iv_first)
		c->iv_first = clock_boottime() - s->time;
	if (s->result >= 0)
		stats_add(c->iv_lat[c->iv_cur], s->time);
	c->iv_skipped = s->skipped;
	pthread_mutex_unlock(&c->iv_lock);
}

/*
 * Close the probe's interval at boottime now: swap the latency buffers and
 * fill c->vp's per-interval fields. The ticker's; the buffer it returns is
 * the one to clear after use.
 */
static struct stats *cli_iv_close(struct cli_ctx *c, uint64_t now)
{
	struct stats *lat;
	uint64_t skipped, first, from;

	pthread_mutex_lock(&c->iv_lock);
	lat = c->iv_lat[c->iv_cur];
	c->iv_cur ^= 1;
	skipped = c->iv_skipped;
	first = c->iv_first;
	pthread_mutex_unlock(&c->iv_lock);
	/* the probe's interval starts with its first request, not with the sampler */
	from = first > c->iv_prev ? first : c->iv_prev;
	verdict_probe_interval(&c->vp, first && now > from ? now - from : 0, lat,
			       skipped - c->iv_skip_mark);
	c->iv_skip_mark = skipped;
	c->iv_prev = now;
	return lat;
}

/* The interval's verdict on the watched stack (top first). */
static void cli_iv_judge(struct cli_ctx *c, struct verdict *v)
{
	struct verdict_dev dev[DEVWATCH_MAX];
	size_t n = devwatch_verdict_devs(c->watch, dev, DEVWATCH_MAX);

	verdict_judge(&c->vhist, &c->vp, dev, n, v);
}

/* The block's time line, as `iostat -t` prints it (ISO 8601 with S_TIME_FORMAT=ISO). */
static void cli_iostat_time(const struct cli_ctx *c, struct sbuf *sb)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[64];

	localtime_r(&now, &tm);
	if (c->iso_time) {
		strftime(buf, sizeof(buf), "%FT%T%z", &tm);
		sbuf_printf(sb, "%s\n", buf);
		return;
	}
	/* iostat's "%x %X" in the C locale the CLI runs in: 11/23/26 00:13:20 */
	sbuf_printf(sb, "%02d/%02d/%02d %02d:%02d:%02d\n", tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_year % 100, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * One --iostat block (every second, or every -P period): the time, sysstat's
 * `iostat -dx` header and a row per device, as `iostat -dx -t` prints them,
 * then the probe's line for the same interval and the verdict, and a blank
 * line; with -J an "iostat" object with sysstat's JSON keys, "probe" and
 * "verdict".
 */
static void cli_iostat_tick(void *arg)
{
	struct cli_ctx *c = arg;
	struct devwatch *w = c->watch;
	struct sbuf sb = SBUF_INIT;
	struct iostat_dev_row rows[DEVWATCH_MAX];
	struct verdict v;
	struct stats *lat;
	size_t n;
	uint64_t now = clock_boottime();
	int err = devwatch_sample(w, NULL, now);

	lat = cli_iv_close(c, now);
	if (err) {
		if (!c->iostat_failed) /* say it once, the probe goes on */
			cli_msg("--iostat: cannot read /proc/diskstats: %s", strerror(-err));
		c->iostat_failed = true;
		stats_init(lat);
		return;
	}
	n = devwatch_rows(w, rows, DEVWATCH_MAX);
	if (!n) {
		stats_init(lat);
		return;
	}
	cli_iv_judge(c, &v);
	stats_init(lat);
	pthread_mutex_lock(&c->out.lock);
	if (c->o->json) {
		outw_json_sep(&c->out, &sb);
		report_json_iostat(&sb, &c->rc, rows, n, &v, clock_realtime());
		if (c->rc.json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		cli_iostat_time(c, &sb);
		iostat_format_table(&sb, rows, n);
		verdict_format_probe(&sb, &v);
		sbuf_putc(&sb, '\n');
		verdict_format(&sb, &v);
		sbuf_puts(&sb, "\n\n");
	}
	if (outw_flush(&c->out, &sb))
		cli_stop = 1; /* stdout is gone (or full): end the run like a signal would */
	pthread_mutex_unlock(&c->out.lock);
	sbuf_free(&sb);
}

/* What the run asks for, for the verdict of each --iostat interval. */
static void cli_iv_setup(struct cli_ctx *c, const struct target *t)
{
	const struct opts *o = c->o;
	const char *tf = getenv("S_TIME_FORMAT");

	c->iso_time = tf && !strcmp(tf, "ISO");
	verdict_hist_init(&c->vhist);
	verdict_probe_settings(&c->vp, opts_asked_rate(o), t->size, o->write > 0, o->read_write,
			       o->cached, (unsigned)o->depth);
	c->iv_prev = c->watch->prev_ns;
}

/*
 * Start the --iostat sampler (its baseline was taken at start-up). Returns 0
 * or -errno.
 */
int cli_start_iostat(struct cli_ctx *c, const struct target *t)
{
	const struct opts *o = c->o;
	int ret;

	c->iv_lat[0] = malloc(sizeof(struct stats));
	c->iv_lat[1] = malloc(sizeof(struct stats));
	if (!c->iv_lat[0] || !c->iv_lat[1]) {
		cli_msg("out of memory");
		return -ENOMEM;
	}
	stats_init(c->iv_lat[0]);
	stats_init(c->iv_lat[1]);
	cli_iv_setup(c, t);
	ret = ticker_start(&c->iostat, o->print_interval ? o->print_interval : 1000000000ull,
			   cli_iostat_tick, c);

	if (ret)
		cli_msg("--iostat: cannot start its thread: %s", strerror(-ret));
	return ret;
}
