#include "config.h"

#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "layers_map.h"
#include "msg.h"

void probe_init(struct probe *p, const struct probe_cfg *cfg, struct target *t,
		struct engine *e, void *buf)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->target = t;
	p->engine = e;
	p->buf = buf;
	if (p->cfg.poisson && !p->cfg.depth)
		p->cfg.depth = 1; /* random arrivals run on the open loop, one slot at least */
	rng_seed(&p->rng, cfg->seed ? cfg->seed : clock_now());
	account_init(&p->acct, &cfg->account);
}

/* Offset of the next request inside the target. */
static uint64_t probe_offset(struct probe *p)
{
	const struct target *t = p->target;
	uint64_t w;

	if (p->cfg.linear) {
		if (p->woffset + t->size > t->work_size)
			p->woffset = 0;
		w = p->woffset;
		p->woffset += t->size;
	} else {
		w = rng_below(&p->rng, t->work_size / t->size) * t->size;
	}
	return t->work_offset + w;
}

static void probe_warn(const struct probe_sink *sink, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void probe_warn(const struct probe_sink *sink, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (!sink->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sink->warn(sink->ctx, text);
}

/*
 * Add what a failed request's errno most likely means here: no polled I/O
 * for -H; for -D on a target whose alignment the kernel does not state
 * (target_dio_align() found none), the kernel's refusal of this size/offset.
 */
static void probe_fail_hint(const struct probe *p, const struct sample *s, char *msg,
			    size_t msglen)
{
	size_t used = strlen(msg);
	int fl;

	if (s->result == -EOPNOTSUPP && p->engine->params.hipri) {
		snprintf(msg + used, msglen - used,
			 " (the device does not support polled I/O: drop -H)");
	} else if (s->result == -EINVAL && !p->target->align &&
		   (fl = fcntl(p->target->fd, F_GETFL)) >= 0 && (fl & O_DIRECT)) {
		snprintf(msg + used, msglen - used,
			 " (-D: the kernel refused %llu bytes at offset %llu; this target does "
			 "not state its direct-I/O alignment, try a -s and -o that are "
			 "multiples of 4096)",
			 (unsigned long long)s->size, (unsigned long long)s->offset);
	}
}

/* The fatal text for a failed request (as ioping HEAD prints it), with its hint. */
static int probe_fail_msg(const struct probe *p, const struct sample *s, char *msg, size_t msglen)
{
	char ebuf[32];
	int ret = err_set(msg, msglen, (int)s->result, "request failed: %s: %s",
			  errno_name((int)s->result, ebuf, sizeof(ebuf)),
			  strerror((int)-s->result));

	probe_fail_hint(p, s, msg, msglen);
	return ret;
}

/*
 * Fill s for the next request (number, read or write, offset, size) and
 * prepare it: drop its range from the page cache unless -C, fill buf with
 * random data for a write. Returns 0 or a fatal -errno with msg filled.
 */
static int probe_prepare(struct probe *p, struct sample *s, void *buf, char *msg, size_t msglen)
{
	const struct probe_cfg *c = &p->cfg;
	const struct target *t = p->target;
	bool write = c->write || (c->read_write && (p->requests + 1) % 2 == 1);
	int err;

	memset(s, 0, sizeof(*s));
	s->request = ++p->requests;
	s->op = write ? OP_WRITE : OP_READ;
	s->offset = probe_offset(p);
	s->size = t->size;
	if (!c->cached && (err = posix_fadvise(t->fd, (off_t)s->offset, (off_t)t->size,
					       POSIX_FADV_DONTNEED))) {
		snprintf(msg, msglen, "fadvise(DONTNEED) failed, please retry with option -C");
		return -err;
	}
	if (write)
		rng_fill(&p->rng, buf, t->size);
	return 0;
}

/*
 * Apply the controller's requests before the next request: wait out a pause
 * (the schedule restarts afterwards, so a pause is not counted as skipped
 * slots), switch the interval, restart the statistics.
 */
static void probe_obey(struct probe *p, const volatile sig_atomic_t *stop, unsigned *reset_seen,
		       uint64_t *period_start)
{
	struct probe_ctl *ctl = p->ctl;
	uint64_t iv = atomic_load_explicit(&ctl->interval, memory_order_relaxed);
	unsigned reset = atomic_load_explicit(&ctl->reset, memory_order_relaxed);

	if (atomic_load_explicit(&ctl->pause, memory_order_relaxed)) {
		uint64_t skipped = p->pacer.skipped;

		while (atomic_load_explicit(&ctl->pause, memory_order_relaxed) && !*stop)
			clock_wait_until(clock_now() + 20000000ull, stop);
		pacer_init(&p->pacer, clock_now(), p->pacer.interval, p->cfg.burst);
		p->pacer.skipped = skipped; /* slots missed before the pause still count */
	}
	if (iv && iv != p->pacer.interval) {
		uint64_t now = clock_now();

		p->pacer.interval = iv;
		if (p->pacer.due > now + iv)
			p->pacer.due = now + iv;
	}
	if (reset != *reset_seen) {
		*reset_seen = reset;
		account_init(&p->acct, &p->cfg.account);
		*period_start = clock_now();
	}
}

/* a + b, saturating at UINT64_MAX (an interval of -r 1e-11 is UINT64_MAX). */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Does the request that ended make a period end? -p: the period's valid
 * count reached N; -P: the next start is at or after the period's deadline.
 */
static bool probe_period_due(const struct probe *p, uint64_t period_due)
{
	const struct probe_cfg *c = &p->cfg;

	return (c->print_count && p->acct.period.valid.count >= c->print_count) ||
	       (c->print_interval && p->pacer.due >= period_due);
}

/*
 * Close the current period at now and hand it to the sink. Whichever
 * condition closed it, the -P deadline restarts at now + T (ioping 1.3), so a
 * period is never due more than once and no empty periods follow a slow
 * request or a long interval.
 */
static int probe_period(struct probe *p, const struct probe_sink *sink, uint64_t now,
			uint64_t *period_start, uint64_t *period_due, uint64_t *skipped_mark)
{
	struct tally t;

	account_period_end(&p->acct, now - *period_start, p->pacer.skipped - *skipped_mark, &t);
	*period_start = now;
	*period_due = sat_add(now, p->cfg.print_interval);
	*skipped_mark = p->pacer.skipped;
	return sink->period ? sink->period(sink->ctx, &t) : 0;
}

/* The slots the last pacer_next() skipped enter the response times (account, then sink). */
static void probe_skipped(struct probe *p, const struct probe_sink *sink, uint64_t end)
{
	uint64_t hi = end - p->pacer.skip_first;

	account_add_skipped(&p->acct, hi, p->pacer.interval, p->pacer.last_skipped);
	if (sink->skipped)
		sink->skipped(sink->ctx, hi, p->pacer.interval, p->pacer.last_skipped);
}

/* Longest single wait of the depth loop: a stop or a controller request is seen this soon. */
#define PROBE_DEPTH_SLICE 50000000ull

/* One request slot of the depth loop. */
struct probe_slot {
	struct sample s;
	uint64_t due;  /* scheduled start */
	uint64_t t0;   /* actual start */
	bool busy;
};

/* State of one run at depth > 1. */
struct probe_depth {
	struct probe *p;
	const struct probe_sink *sink;
	struct probe_slot *slots;
	struct engine_done *done;
	uint64_t period_start, period_due, skipped_mark;
	unsigned reset_seen;
	bool issuing;  /* false once the count, the deadline, a stop or a failure ended starts */
	int ret;       /* first fatal error or sink return */
};

/* Prepare and submit the next request at now. Returns 0 or a fatal -errno. */
static int probe_depth_start(struct probe_depth *d, uint64_t now, char *msg, size_t msglen)
{
	struct probe *p = d->p;
	struct probe_slot *sl = d->slots;
	unsigned i = 0;
	int err;

	while (sl[i].busy)
		i++;
	sl += i;
	if ((err = probe_prepare(p, &sl->s, engine_buf(p->engine, i), msg, msglen)))
		return err;
	sl->due = openloop_start(&p->ol, now);
	sl->t0 = clock_now();
	sl->busy = true;
	err = engine_submit(p->engine, i, sl->s.op == OP_WRITE, sl->s.offset);
	if (err) { /* completes at once, failed */
		sl->s.result = err;
		sl->s.time = 0;
	}
	return 0;
}

/* The controller's requests (the view): pause, interval, reset. */
static void probe_depth_obey(struct probe_depth *d, uint64_t now)
{
	struct probe *p = d->p;
	struct probe_ctl *ctl = p->ctl;
	uint64_t iv = atomic_load_explicit(&ctl->interval, memory_order_relaxed);
	unsigned reset = atomic_load_explicit(&ctl->reset, memory_order_relaxed);

	if (atomic_load_explicit(&ctl->pause, memory_order_relaxed)) {
		openloop_rebase(&p->ol, UINT64_MAX, p->ol.interval); /* nothing due while paused */
		return;
	}
	if (p->ol.anchor == UINT64_MAX || (iv && iv != p->ol.interval))
		openloop_rebase(&p->ol, now, iv ? iv : p->ol.interval);
	if (reset != d->reset_seen) {
		d->reset_seen = reset;
		account_init(&p->acct, &p->cfg.account);
		d->period_start = now;
	}
}

/* Start every request that may start now. Returns 0 or a fatal -errno. */
static int probe_depth_issue(struct probe_depth *d, const volatile sig_atomic_t *stop, char *msg,
			     size_t msglen)
{
	struct probe *p = d->p;
	const struct probe_cfg *c = &p->cfg;
	uint64_t now = clock_now();
	int ret;

	if (p->ctl)
		probe_depth_obey(d, now);
	while (d->issuing) {
		/* -w: no start at or after first + deadline, neither due nor late */
		if (*stop || (c->count && p->requests >= c->count) ||
		    (c->deadline && (now >= sat_add(p->first_start, c->deadline) ||
				     (c->interval && openloop_due(&p->ol) >=
						     sat_add(p->first_start, c->deadline))))) {
			d->issuing = false;
			break;
		}
		if (openloop_wait(&p->ol, now))
			break;
		if ((ret = probe_depth_start(d, now, msg, msglen)))
			return ret;
		now = clock_now();
	}
	return 0;
}

/* One more request finished: told in the shared control before the sink hears of it. */
static void probe_finished(struct probe *p)
{
	if (p->ctl)
		atomic_fetch_add_explicit(&p->ctl->finished, 1, memory_order_release);
}

/* Publish the oldest start in flight (0 = idle) and the count (the watchdog, the exporters). */
static void probe_depth_inflight(struct probe_depth *d)
{
	uint64_t oldest = 0;

	if (!d->p->ctl)
		return;
	for (unsigned i = 0; i < d->p->cfg.depth; i++)
		if (d->slots[i].busy && (!oldest || d->slots[i].t0 < oldest))
			oldest = d->slots[i].t0;
	atomic_store_explicit(&d->p->ctl->inflight_n, d->p->ol.inflight, memory_order_relaxed);
	atomic_store_explicit(&d->p->ctl->inflight, oldest, memory_order_relaxed);
}

/* After starts: the count, and the oldest start when the probe was idle. */
static void probe_depth_started(struct probe_depth *d)
{
	struct probe_ctl *ctl = d->p->ctl;

	atomic_store_explicit(&ctl->inflight_n, d->p->ol.inflight, memory_order_relaxed);
	if (!atomic_load_explicit(&ctl->inflight, memory_order_relaxed))
		probe_depth_inflight(d);
}

/* One request completed at t1 with result: account it, tell the sink, close periods. */
static int probe_depth_complete(struct probe_depth *d, struct probe_slot *sl, int64_t result,
				uint64_t t1, char *msg, size_t msglen)
{
	struct probe *p = d->p;
	const struct probe_cfg *c = &p->cfg;
	struct sample *s = &sl->s;
	bool burst_done;
	enum notice n;
	int ret;

	sl->busy = false;
	burst_done = openloop_complete(&p->ol);
	if (d->ret) /* draining after a failure: not reported */
		return 0;
	s->result = s->result < 0 ? s->result : result;
	if (s->op == OP_WRITE && !c->cached && s->result > 0 && fdatasync(p->target->fd)) {
		s->result = -errno;
		t1 = clock_now();
		if (!c->ignore_error) {
			snprintf(msg, msglen, "fdatasync failed, please retry with option -C: %s",
				 strerror(errno));
			return (int)s->result;
		}
	}
	s->time = t1 - sl->t0;
	s->start = sl->t0 - p->first_start;
	s->lateness = sl->t0 > sl->due ? sl->t0 - sl->due : 0;
	s->response = t1 - (sl->due < sl->t0 ? sl->due : sl->t0);
	if (s->result < 0 && !c->ignore_error && !(c->nowait && s->result == -EAGAIN))
		return probe_fail_msg(p, s, msg, msglen);
	if (s->result >= 0 && (uint64_t)s->result < s->size)
		probe_warn(d->sink, "request returned less than expected: %lld",
			   (long long)s->result);
	n = c->nowait && s->result == -EAGAIN ? NOTICE_ERROR : account_add(&p->acct, s);
	probe_finished(p);
	if (d->sink->request && (ret = d->sink->request(d->sink->ctx, s, n)))
		return ret;
	if (burst_done && d->sink->burst_end && (ret = d->sink->burst_end(d->sink->ctx)))
		return ret;
	if ((c->print_count && p->acct.period.valid.count >= c->print_count) ||
	    (c->print_interval && t1 >= d->period_due))
		return probe_period(p, d->sink, t1, &d->period_start, &d->period_due,
				    &d->skipped_mark);
	return 0;
}

/*
 * One completion handled; a fatal return becomes the run's first error, so that the
 * completions after it (already taken from the engine) are drained, not lost.
 */
static void probe_depth_done(struct probe_depth *d, struct probe_slot *sl, int64_t result,
			     uint64_t t1, char *msg, size_t msglen)
{
	int ret = probe_depth_complete(d, sl, result, t1, msg, msglen);

	if (ret && !d->ret)
		d->ret = ret;
}

/*
 * Wait for completions (at most until the next start is due, in slices) and handle every
 * one the engine gave (a failure among them ends the run; those after it still free their
 * slots: the drain would otherwise wait for requests the kernel has already finished).
 * Returns 0 or a fatal -errno / sink return (also kept in d->ret).
 */
static int probe_depth_reap(struct probe_depth *d, char *msg, size_t msglen)
{
	struct probe *p = d->p;
	uint64_t now = clock_now(), wait = PROBE_DEPTH_SLICE, w;
	uint64_t t1;
	int n;

	for (unsigned i = 0; i < p->cfg.depth; i++) /* failed submits complete at once */
		if (d->slots[i].busy && d->slots[i].s.result < 0)
			probe_depth_done(d, &d->slots[i], 0, now, msg, msglen);
	if (!p->ol.inflight)
		return d->ret;
	if (d->issuing && (w = openloop_wait(&p->ol, now)) != UINT64_MAX)
		wait = w <= now ? 0 : w - now < wait ? w - now : wait;
	n = engine_reap(p->engine, d->done, p->cfg.depth, wait);
	if (n == -EINTR || n == -ETIME)
		return d->ret;
	if (n < 0)
		return err_set(msg, msglen, n, "waiting for completions failed: %s", strerror(-n));
	t1 = clock_now();
	for (int i = 0; i < n; i++)
		probe_depth_done(d, &d->slots[d->done[i].slot], d->done[i].result, t1, msg, msglen);
	probe_depth_inflight(d);
	return d->ret;
}

/*
 * The run at depth > 1 (or with random arrivals at any depth): start on the open-loop
 * schedule, reap, until done; then drain.
 */
static int probe_run_depth(struct probe *p, const struct probe_sink *sink,
			   const volatile sig_atomic_t *stop, char *msg, size_t msglen)
{
	const struct probe_cfg *c = &p->cfg;
	struct probe_depth d = { .p = p, .sink = sink, .issuing = true };
	int ret;

	d.slots = calloc(c->depth, sizeof(*d.slots));
	d.done = calloc(c->depth, sizeof(*d.done));
	if (!d.slots || !d.done) {
		free(d.slots);
		free(d.done);
		return err_set(msg, msglen, -ENOMEM, "out of memory");
	}
	d.reset_seen = p->ctl ? atomic_load(&p->ctl->reset) : 0;
	p->first_start = d.period_start = clock_now();
	d.period_due = sat_add(p->first_start, c->print_interval);
	openloop_init(&p->ol, p->first_start, c->interval, c->burst, c->depth);
	if (c->poisson) /* the gaps apart from the offsets: the same -e, the same offsets */
		openloop_poisson(&p->ol, (c->seed ? c->seed : clock_now()) ^ 0x9e3779b97f4a7c15ull);
	while (d.issuing || p->ol.inflight) {
		if (!d.ret && (ret = probe_depth_issue(&d, stop, msg, msglen)))
			d.ret = ret;
		if (p->ctl) /* the starts are seen before any wait; they are the newest */
			probe_depth_started(&d);
		if (d.ret)
			d.issuing = false;
		if (!p->ol.inflight && d.issuing) { /* idle until the next start, in slices */
			uint64_t now = clock_now(), due = openloop_due(&p->ol);

			clock_wait_until(due > now && due - now > PROBE_DEPTH_SLICE ?
					 now + PROBE_DEPTH_SLICE : due, stop);
			continue;
		}
		if ((ret = probe_depth_reap(&d, msg, msglen)) && !d.ret)
			d.ret = ret;
	}
	if (p->ctl) {
		atomic_store_explicit(&p->ctl->inflight, 0, memory_order_relaxed);
		atomic_store_explicit(&p->ctl->inflight_n, 0, memory_order_relaxed);
	}
	p->acct.total.wall = clock_now() - p->first_start;
	p->acct.total.skipped = 0;
	free(d.slots);
	free(d.done);
	return d.ret;
}

/*
 * --layers: this process's requests on the target's device — a block device's own offsets,
 * or where a regular file lies on its file system's block device (layers_map); else (a
 * file system without one, no FIEMAP) only its own bios are known.
 */
static void probe_layers_setup(struct probe *p)
{
	const struct target *t = p->target;
	uint32_t dev = 0;
	struct stat st;

	p->layers_map = NULL;
	if (!fstat(t->fd, &st) && S_ISBLK(st.st_mode)) {
		dev = layers_dev(st.st_rdev);
	} else if ((p->layers_map = malloc(sizeof(*p->layers_map))) &&
		   !layers_map_file(p->layers_map, t->fd, t->work_offset, t->work_size)) {
		dev = p->layers_map->dev;
	} else {
		free(p->layers_map);
		p->layers_map = NULL;
	}
	layers_setup(p->layers, (uint32_t)getpid(), dev);
	/* getpid() is this PID namespace's number: a probe in a container is known by it */
	if (!stat("/proc/self/ns/pid", &st))
		layers_pidns(p->layers, st.st_dev, st.st_ino);
}

/* --layers: publish request s (its sectors on the device when known) before it starts. */
static void probe_layers_begin(struct probe *p, const struct sample *s)
{
	uint64_t off = s->offset, len = s->size;

	if (p->layers_map && !layers_map_find(p->layers_map, s->offset, s->size, &off, &len))
		off = len = 0; /* no sectors: only its own bios are known */
	layers_begin(p->layers, s->request, off, len);
}

/* State of one run at depth 1: one request at a time on the pacer's schedule. */
struct probe_serial {
	struct probe *p;
	const struct probe_sink *sink;
	const volatile sig_atomic_t *stop;
	uint64_t period_start, period_due, skipped_mark;
	unsigned reset_seen;
	bool done;     /* the count or the deadline is reached: no next request */
};

/*
 * When request (just prepared) is due: the schedule and the periods start
 * with the first one; the controller's requests (the view) apply before
 * each.
 */
static uint64_t probe_serial_due(struct probe_serial *st, uint64_t request)
{
	struct probe *p = st->p;
	const struct probe_cfg *c = &p->cfg;

	if (request == 1) {
		p->first_start = clock_now();
		pacer_init(&p->pacer, p->first_start, c->interval, c->burst);
		st->period_start = p->first_start;
		st->period_due = sat_add(p->first_start, c->print_interval);
	}
	if (p->ctl)
		probe_obey(p, st->stop, &st->reset_seen, &st->period_start);
	return p->pacer.due;
}

/*
 * Classify a timed request's result: 0 when it is to be counted (a failure
 * too under -Z, and -N's EAGAIN), or the fatal -errno with msg filled.
 * sync_err is fdatasync's -errno after a write, or 0.
 */
static int probe_serial_check(struct probe_serial *st, struct sample *s, int sync_err, char *msg,
			      size_t msglen)
{
	const struct probe_cfg *c = &st->p->cfg;

	if (sync_err && !c->ignore_error) {
		snprintf(msg, msglen, "fdatasync failed, please retry with option -C: %s",
			 strerror(-sync_err));
		return sync_err;
	}
	if (sync_err)
		s->result = sync_err;
	if (s->result < 0 && !c->ignore_error && !(c->nowait && s->result == -EAGAIN))
		return probe_fail_msg(st->p, s, msg, msglen);
	if (s->result >= 0 && (uint64_t)s->result < s->size)
		probe_warn(st->sink, "request returned less than expected: %lld",
			   (long long)s->result);
	return 0;
}

/*
 * Count the request that ended at t1 and tell the sink; step the schedule
 * (skipped slots), end a burst and a period. Sets st->done after the last
 * request (-c) or at the deadline (-w). Returns 0 or the sink's error.
 */
static int probe_serial_account(struct probe_serial *st, const struct sample *s, uint64_t t1)
{
	struct probe *p = st->p;
	const struct probe_cfg *c = &p->cfg;
	const struct probe_sink *sink = st->sink;
	uint64_t end; /* when the run ends: slots due from then on are not missed */
	bool last, burst_done;
	enum notice n;
	int ret;

	if (c->nowait && s->result == -EAGAIN)
		n = NOTICE_ERROR; /* it would have blocked: shown, counted nowhere (ioping) */
	else
		n = account_add(&p->acct, s);
	probe_finished(p);
	if (sink->request && (ret = sink->request(sink->ctx, s, n)))
		return ret;
	last = c->count && p->requests >= c->count;
	burst_done = pacer_next(&p->pacer, t1);
	/* the run ends with its last request (-c) or at the deadline (-w) */
	end = last ? 0 : c->deadline ? sat_add(p->first_start, c->deadline) : UINT64_MAX;
	pacer_forget_after(&p->pacer, end);
	if (p->pacer.last_skipped && n != NOTICE_WARMUP)
		probe_skipped(p, sink, t1);
	/* ioping prints the burst's blank line before the period's line */
	if (burst_done && sink->burst_end && (ret = sink->burst_end(sink->ctx)))
		return ret;
	if (probe_period_due(p, st->period_due) &&
	    (ret = probe_period(p, sink, t1, &st->period_start, &st->period_due,
				&st->skipped_mark)))
		return ret;
	st->done = last || (c->deadline && p->pacer.due >= p->first_start + c->deadline);
	return 0;
}

/*
 * The run at depth 1: prepare a request, wait for its slot, time it (the two
 * clock reads stay here, around the request alone), check and count it;
 * until the count, the deadline, a stop or a failure.
 */
static int probe_run_serial(struct probe *p, const struct probe_sink *sink,
			    const volatile sig_atomic_t *stop, char *msg, size_t msglen)
{
	const struct probe_cfg *c = &p->cfg;
	struct probe_serial st = { .p = p, .sink = sink, .stop = stop };
	uint64_t end = 0;
	int ret = 0;

	st.reset_seen = p->ctl ? atomic_load(&p->ctl->reset) : 0;
	while (!*stop) {
		struct sample s;
		uint64_t t0, t1, due;
		bool write;
		int sync_err = 0;

		if ((ret = probe_prepare(p, &s, p->buf, msg, msglen)))
			break;
		write = s.op == OP_WRITE;
		due = probe_serial_due(&st, s.request);
		if (clock_wait_until(due, stop))
			break;

		if (p->ctl)
			atomic_store_explicit(&p->ctl->inflight, clock_now(), memory_order_relaxed);
		if (p->layers)
			probe_layers_begin(p, &s);
		t0 = clock_now();
		s.result = engine_io(p->engine, write, s.offset);
		if (write && !c->cached && s.result > 0 && fdatasync(p->target->fd))
			sync_err = -errno;
		t1 = clock_now();
		end = t1;
		if (p->layers)
			layers_end(p->layers, t0, &s.layers);
		if (p->ctl)
			atomic_store_explicit(&p->ctl->inflight, 0, memory_order_relaxed);

		s.time = t1 - t0;
		s.start = t0 - p->first_start;
		s.lateness = t0 > due ? t0 - due : 0;
		s.skipped = p->pacer.skipped;
		s.response = t1 - (due < t0 ? due : t0);
		if (s.result == -EINTR && *stop)
			break;
		if ((ret = probe_serial_check(&st, &s, sync_err, msg, msglen)) ||
		    (ret = probe_serial_account(&st, &s, t1)) || st.done)
			break;
	}
	if (!p->first_start) /* stopped before the first request */
		p->first_start = clock_now();
	p->acct.total.wall = (*stop ? clock_now() : (end ? end : clock_now())) - p->first_start;
	p->acct.total.skipped = p->pacer.skipped;
	return ret;
}

int probe_run(struct probe *p, const struct probe_sink *sink, const volatile sig_atomic_t *stop,
	      char *msg, size_t msglen)
{
	const struct probe_cfg *c = &p->cfg;
	const struct target *t = p->target;

	if (!(c->linear && c->cached) &&
	    posix_fadvise(t->fd, (off_t)t->work_offset, (off_t)t->work_size, POSIX_FADV_RANDOM))
		probe_warn(sink, "fadvise(RANDOM) failed, operations might perform unneeded "
			   "readahead");
	if (c->depth > 1 || c->poisson)
		return probe_run_depth(p, sink, stop, msg, msglen);
	if (p->layers) {
		int ret;

		probe_layers_setup(p);
		ret = probe_run_serial(p, sink, stop, msg, msglen);
		free(p->layers_map);
		p->layers_map = NULL;
		return ret;
	}
	return probe_run_serial(p, sink, stop, msg, msglen);
}
