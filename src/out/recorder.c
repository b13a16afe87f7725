#include "config.h"

#include "recorder.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "msg.h"
#include "out.h"
#include "probe.h"

static void rec_say(struct recorder *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rec_say(struct recorder *rc, const char *fmt, ...)
{
	char text[MSG_MAX];
	va_list ap;

	if (!rc->cfg.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	rc->cfg.warn(text);
}

static bool rec_gz_name(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

int recorder_open(struct recorder *rc, const struct recorder_cfg *cfg, size_t n, char *msg,
		  size_t msglen)
{
	struct filechild_cfg fcfg = { .path = cfg->path, .what = "--record", .noun = "a recording",
				      .gz = rec_gz_name(cfg->path), .stop = cfg->stop,
				      .stop_at = cfg->stop_at, .grace = cfg->grace };
	int ret;

	memset(rc, 0, sizeof(*rc));
	rc->cfg = *cfg;
	rc->n = n;
	rc->tgt = calloc(n ? n : 1, sizeof(*rc->tgt));
	if (!rc->tgt)
		return err_set(msg, msglen, -ENOMEM, "out of memory");
	ret = filechild_open(&rc->fc, &fcfg, msg, msglen);
	if (ret) {
		free(rc->tgt);
		rc->tgt = NULL;
		return ret;
	}
	rc->open = true;
	for (size_t i = 0; i < n; i++)
		tally_init(&rc->tgt[i].cur);
	pthread_mutex_init(&rc->lock, NULL);
	pthread_mutex_init(&rc->out_lock, NULL);
	pthread_cond_init(&rc->wake, NULL);
	return 0;
}

void recorder_running(struct recorder *rc, size_t i)
{
	if (rc && i < rc->n)
		rc->tgt[i].running = true;
}

/* Append the composed line(s) in sb to the pending text (or drop them when it is full). */
static void rec_queue(struct recorder *rc, struct sbuf *sb, bool wake)
{
	pthread_mutex_lock(&rc->out_lock);
	if (rc->pending.len + sb->len > RECORDER_PENDING_MAX || sb->error) {
		rc->dropped++;
	} else {
		sbuf_append(&rc->pending, sb->buf ? sb->buf : "", sb->len);
		if (wake)
			pthread_cond_signal(&rc->wake);
	}
	pthread_mutex_unlock(&rc->out_lock);
	sbuf_reset(sb);
}

/* The file's first failure (ret): kept, said unless it is the stop's give-up. */
static void rec_failed(struct recorder *rc, int ret)
{
	if (rc->failed)
		return;
	rc->failed = true;
	rc->err = ret;
	if (ret != -ETIMEDOUT)
		rec_say(rc, "%s; the run goes on without it", rc->fc.msg);
}

/* The hang warnings due now into rc->pending; caller holds rc->out_lock. */
static void rec_hangs(struct recorder *rc)
{
	uint64_t now = clock_now();

	for (size_t i = 0; i < rc->n; i++) {
		struct recorder_tgt *t = &rc->tgt[i];
		uint64_t since;
		char text[64];

		if (!t->ctl)
			continue;
		since = atomic_load_explicit(&t->ctl->inflight, memory_order_relaxed);
		if (!watchdog_due(&t->seen, since, now, rc->hang_warn))
			continue;
		snprintf(text, sizeof(text), "request in flight for %.1f s",
			 (double)(now - since) / NS_PER_S);
		recfmt_text(&rc->pending, "warning", (long)i, clock_realtime(), 0, text);
	}
}

void recorder_watch(struct recorder *rc, size_t i, const struct probe_ctl *ctl,
		    uint64_t first_warn)
{
	if (i >= rc->n)
		return;
	pthread_mutex_lock(&rc->out_lock);
	rc->tgt[i].ctl = ctl;
	rc->tgt[i].seen = (struct watchdog_seen){ 0 };
	rc->hang_warn = first_warn;
	pthread_mutex_unlock(&rc->out_lock);
}

void recorder_unwatch(struct recorder *rc)
{
	pthread_mutex_lock(&rc->out_lock);
	for (size_t i = 0; i < rc->n; i++)
		rc->tgt[i].ctl = NULL;
	pthread_mutex_unlock(&rc->out_lock);
}

static void *rec_writer(void *arg)
{
	struct recorder *rc = arg;
	struct sbuf *batch = &rc->batch, swap;
	bool done = false;
	sigset_t all;
	int ret;

	/* the run's signals go to other threads (the waits on the file's process poll) */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (!done) {
		pthread_mutex_lock(&rc->out_lock);
		while (!rc->pending.len && !rc->stopping) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (long)RECORDER_FLUSH_NS;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&rc->wake, &rc->out_lock, &ts);
			if (rc->hang_warn && !rc->stopping)
				rec_hangs(rc);
		}
		done = rc->stopping;
		swap = rc->pending;
		rc->pending = *batch;
		*batch = swap;
		if (rc->dropped && !rc->dropped_said) {
			rc->dropped_said = true;
			rec_say(rc, "--record: %s: the file does not keep up; lines are dropped",
				rc->cfg.path);
		}
		pthread_mutex_unlock(&rc->out_lock);
		if (!rc->failed && batch->len && (ret = filechild_write(&rc->fc, batch->buf, batch->len)))
			rec_failed(rc, ret);
		else if (!rc->failed && (ret = filechild_failed(&rc->fc)))
			rec_failed(rc, ret);
		sbuf_reset(batch);
	}
	sbuf_free(batch);
	if ((ret = filechild_close(&rc->fc)))
		rec_failed(rc, ret);
	return NULL;
}

/* Close target i's open period at monotonic now and queue its line; caller holds rc->lock. */
static void rec_close_period(struct recorder *rc, size_t i, uint64_t now, struct sbuf *sb)
{
	struct recorder_tgt *t = &rc->tgt[i];

	t->cur.wall = now - t->opened;
	recfmt_period(sb, i, t->seq++, now - rc->start, clock_realtime(), &t->cur, &t->err);
	tally_init(&t->cur);
	memset(&t->err, 0, sizeof(t->err));
	t->opened = now;
}

static void rec_tick(void *arg)
{
	struct recorder *rc = arg;
	struct sbuf sb = SBUF_INIT;
	uint64_t now = clock_now();

	for (size_t i = 0; i < rc->n; i++) {
		if (!rc->tgt[i].running)
			continue;
		pthread_mutex_lock(&rc->lock);
		rec_close_period(rc, i, now, &sb);
		pthread_mutex_unlock(&rc->lock);
	}
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

int recorder_start(struct recorder *rc, const struct rec_header *h, char *msg, size_t msglen)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	rc->start = clock_now();
	for (size_t i = 0; i < rc->n; i++)
		rc->tgt[i].opened = rc->start;
	recfmt_header(&sb, h);
	rec_queue(rc, &sb, false);
	sbuf_free(&sb);
	rc->wrote = true;
	ret = -pthread_create(&rc->writer, NULL, rec_writer, rc);
	if (ret)
		return err_set(msg, msglen, ret, "--record: cannot start its thread: %s",
			       strerror(-ret));
	rc->writer_started = true;
	if (rc->cfg.period && (ret = ticker_start(&rc->ticker, rc->cfg.period, rec_tick, rc)))
		return err_set(msg, msglen, ret, "--record: cannot start its thread: %s",
			       strerror(-ret));
	return 0;
}

void recorder_request(struct recorder *rc, size_t i, const struct sample *s, enum notice n)
{
	struct sbuf sb = SBUF_INIT;

	if (i >= rc->n)
		return;
	pthread_mutex_lock(&rc->lock);
	if (rc->cfg.period) {
		tally_add(&rc->tgt[i].cur, s, n);
		if (s->skipped > rc->tgt[i].skip_seen) /* the run's skipped slots so far */
			rc->tgt[i].cur.skipped += s->skipped - rc->tgt[i].skip_seen;
		rc->tgt[i].skip_seen = s->skipped;
	}
	if (n == NOTICE_ERROR) {
		rec_errors_add(&rc->tgt[i].err, s->result);
		rec_errors_add(&rc->tgt[i].err_all, s->result);
	}
	pthread_mutex_unlock(&rc->lock);
	if (rc->cfg.requests) {
		recfmt_request(&sb, i, clock_realtime(), s, n);
		rec_queue(rc, &sb, false);
		sbuf_free(&sb);
	}
}

void recorder_skipped(struct recorder *rc, size_t i, uint64_t hi, uint64_t step, uint64_t n)
{
	struct sbuf sb = SBUF_INIT;

	if (i >= rc->n)
		return;
	if (rc->cfg.requests) {
		recfmt_skipped(&sb, i, hi, step, n);
		rec_queue(rc, &sb, false);
		sbuf_free(&sb);
	}
	if (!rc->cfg.period)
		return;
	pthread_mutex_lock(&rc->lock);
	tally_add_skipped(&rc->tgt[i].cur, hi, step, n);
	pthread_mutex_unlock(&rc->lock);
}

void recorder_period(struct recorder *rc, size_t i, const struct tally *t)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t now = clock_now();

	if (i >= rc->n || rc->cfg.period)
		return;
	pthread_mutex_lock(&rc->lock);
	recfmt_period(&sb, i, rc->tgt[i].seq++, now - rc->start, clock_realtime(), t,
		      &rc->tgt[i].err);
	memset(&rc->tgt[i].err, 0, sizeof(rc->tgt[i].err));
	pthread_mutex_unlock(&rc->lock);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_block(struct recorder *rc, uint64_t real, const struct iostat_dev_row *rows,
		    size_t n, const struct rec_side *side, size_t nside)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t seq;

	pthread_mutex_lock(&rc->lock);
	seq = rc->iostat_seq++;
	pthread_mutex_unlock(&rc->lock);
	recfmt_iostat(&sb, seq, real ? real : clock_realtime(), rows, n);
	for (size_t k = 0; k < nside; k++)
		recfmt_verdict(&sb, seq, side[k].i, side[k].own, side[k].nown, side[k].p, side[k].v);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_warning(struct recorder *rc, long i, const char *text)
{
	struct sbuf sb = SBUF_INIT;

	recfmt_text(&sb, "warning", i, clock_realtime(), 0, text);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_failure(struct recorder *rc, long i, int err, const char *text)
{
	struct sbuf sb = SBUF_INIT;

	recfmt_text(&sb, "failure", i, clock_realtime(), err, text);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

uint64_t recorder_step(struct recorder *rc, size_t i, bool grid, const struct sweep_row *r,
		       const char *line)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t k;

	if (i >= rc->n)
		return 0;
	pthread_mutex_lock(&rc->lock);
	k = rc->tgt[i].steps++;
	pthread_mutex_unlock(&rc->lock);
	recfmt_step(&sb, i, k, clock_realtime(), grid, r, line);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
	return k;
}

void recorder_knee(struct recorder *rc, size_t i, bool grid, const char *text, long knee,
		   long best, long limit)
{
	struct sbuf sb = SBUF_INIT;

	if (i >= rc->n)
		return;
	recfmt_knee(&sb, i, clock_realtime(), grid, text, knee, best, limit);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_target_ended(struct recorder *rc, size_t i)
{
	struct sbuf sb = SBUF_INIT;
	struct recorder_tgt *t;

	if (!rc || i >= rc->n || !rc->cfg.period)
		return;
	t = &rc->tgt[i];
	pthread_mutex_lock(&rc->lock);
	if (t->running && (t->cur.requests || t->cur.skipped || t->cur.response.count))
		rec_close_period(rc, i, clock_now(), &sb);
	t->running = false;
	pthread_mutex_unlock(&rc->lock);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_finish_periods(struct recorder *rc)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t now;

	if (!rc->cfg.period)
		return;
	ticker_stop(&rc->ticker);
	now = clock_now();
	pthread_mutex_lock(&rc->lock);
	for (size_t i = 0; i < rc->n; i++) {
		struct recorder_tgt *t = &rc->tgt[i];

		/* the last, partial period: only when something happened in it */
		if (t->running && (t->cur.requests || t->cur.skipped || t->cur.response.count))
			rec_close_period(rc, i, now, &sb);
	}
	pthread_mutex_unlock(&rc->lock);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_summary(struct recorder *rc, size_t i, int ret, const char *msg,
		      const struct tally *total, const struct stats *read, const struct stats *write,
		      const struct layer_tally *lt)
{
	struct sbuf sb = SBUF_INIT;

	pthread_mutex_lock(&rc->lock);
	recfmt_summary(&sb, i, clock_realtime(), ret, msg, total,
		       i < rc->n ? &rc->tgt[i].err_all : NULL, read, write, lt);
	pthread_mutex_unlock(&rc->lock);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

void recorder_end(struct recorder *rc, int code)
{
	struct sbuf sb = SBUF_INIT;

	recfmt_end(&sb, clock_realtime(), code);
	rec_queue(rc, &sb, true);
	sbuf_free(&sb);
}

int recorder_close(struct recorder *rc)
{
	int ret;

	if (!rc->open)
		return rc->err;
	ticker_stop(&rc->ticker);
	if (rc->writer_started) {
		pthread_mutex_lock(&rc->out_lock);
		rc->stopping = true;
		pthread_cond_signal(&rc->wake);
		pthread_mutex_unlock(&rc->out_lock);
		pthread_join(rc->writer, NULL); /* it gives the file up cfg.grace after a stop */
	} else if ((ret = filechild_close(&rc->fc))) { /* nothing sent: the file is removed */
		rc->failed = true;
		rc->err = ret;
	}
	rc->open = false;
	sbuf_free(&rc->pending);
	sbuf_free(&rc->batch);
	free(rc->tgt);
	rc->tgt = NULL;
	pthread_mutex_destroy(&rc->lock);
	pthread_mutex_destroy(&rc->out_lock);
	pthread_cond_destroy(&rc->wake);
	return rc->err;
}
