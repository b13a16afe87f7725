#include "config.h"

#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "clock.h"
#include "prober.h"

/* Wake the consumer, at most every SESSION_WAKE_NS unless forced. */
static void session_wake(struct session *s, bool force)
{
	uint64_t now = clock_now(), one = 1;
	uint64_t last = atomic_load_explicit(&s->last_wake, memory_order_relaxed);

	if (!force && now - last < SESSION_WAKE_NS)
		return;
	atomic_store_explicit(&s->last_wake, now, memory_order_relaxed);
	if (write(s->wake_fd, &one, sizeof(one)) < 0) {
		/* the counter is saturated: the consumer will wake anyway */
	}
}

static int session_on_request(void *ctx, const struct sample *smp, enum notice n)
{
	struct session *s = ctx;
	struct session_rec rec = { .kind = SESSION_SAMPLE, .notice = n, .sample = *smp };
	const struct probe_sink *tap = s->probe->tap;

	if (tap && tap->request)
		tap->request(tap->ctx, smp, n); /* the exporters: brief, never a wait */
	ring_push(&s->ring, &rec);
	session_wake(s, false);
	return 0;
}

static int session_on_period(void *ctx, const struct tally *t)
{
	struct session *s = ctx;
	struct session_rec rec = { .kind = SESSION_PERIOD_END };
	(void)t;

	ring_push(&s->ring, &rec);
	return 0;
}

static int session_on_burst_end(void *ctx)
{
	struct session *s = ctx;
	struct session_rec rec = { .kind = SESSION_BURST_END };

	ring_push(&s->ring, &rec);
	return 0;
}

static void session_on_warn(void *ctx, const char *text)
{
	struct session *s = ctx;
	struct session_rec rec = { .kind = SESSION_WARNING };

	snprintf(rec.text, sizeof(rec.text), "%s", text);
	ring_push(&s->ring, &rec);
	session_wake(s, true);
}

static void session_on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	struct session *s = ctx;
	const struct probe_sink *tap = s->probe->tap;

	if (tap && tap->skipped)
		tap->skipped(tap->ctx, hi, step, n);
}

static void *session_main(void *arg)
{
	struct session *s = arg;
	struct probe_sink sink = { s, session_on_request, session_on_period,
				   session_on_burst_end, session_on_warn, session_on_skipped, NULL };

	clock_tighten_slack(); /* the probe's process, forked from this thread, inherits it */
	s->result = prober_run(s->probe, &sink, &s->stop, s->msg, sizeof(s->msg));
	atomic_store(&s->state, s->result ? SESSION_FAILED : SESSION_DONE);
	session_wake(s, true);
	return NULL;
}

uint64_t session_ring_size(unsigned sessions)
{
	uint64_t cap = SESSION_RING;

	while (cap > SESSION_RING_MIN && sessions > 1 && cap * sessions > SESSION_RING_ALL)
		cap /= 2;
	return cap;
}

int session_start(struct session *s, struct probe *p, unsigned sessions)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->probe = p;
	s->ctl = p->ctl ? p->ctl : prober_ctl(p); /* the exporters may have given it one */
	p->ctl = s->ctl;
	atomic_init(&s->state, SESSION_RUNNING);
	ret = ring_init(&s->ring, sizeof(struct session_rec), session_ring_size(sessions));
	if (ret)
		return ret;
	s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->wake_fd < 0) {
		ret = -errno;
		ring_free(&s->ring);
		return ret;
	}
	ret = pthread_create(&s->thread, NULL, session_main, s);
	if (ret) {
		close(s->wake_fd);
		ring_free(&s->ring);
		return -ret;
	}
	s->started = true;
	return 0;
}

bool session_next(struct session *s, struct session_rec *rec)
{
	return ring_pop(&s->ring, rec);
}

void session_ack(struct session *s)
{
	uint64_t v;

	if (read(s->wake_fd, &v, sizeof(v)) < 0) {
		/* EAGAIN: nothing was pending */
	}
}

int session_state(struct session *s)
{
	return atomic_load(&s->state);
}

void session_stop(struct session *s)
{
	if (!s->started)
		return;
	s->stop = 1;
	atomic_store(&s->ctl->pause, false);
	pthread_join(s->thread, NULL);
	close(s->wake_fd);
	ring_free(&s->ring);
	s->started = false;
}

int session_wake_fd(const struct session *s)
{
	return s->wake_fd;
}

uint64_t session_first_start(const struct session *s)
{
	/* safe: the ring's release/acquire orders first_start before the first sample */
	return s->probe->first_start;
}

void session_pause(struct session *s, bool paused)
{
	atomic_store(&s->ctl->pause, paused);
}

void session_set_interval(struct session *s, uint64_t ns)
{
	atomic_store(&s->ctl->interval, ns);
}

void session_reset_stats(struct session *s)
{
	atomic_fetch_add(&s->ctl->reset, 1);
}

uint64_t session_inflight_since(const struct session *s)
{
	return atomic_load_explicit(&s->ctl->inflight, memory_order_relaxed);
}

pid_t session_prober_pid(const struct session *s)
{
	return s->probe ? prober_pid(s->probe) : 0;
}

uint64_t session_dropped(const struct session *s)
{
	return atomic_load_explicit(&s->ring.dropped, memory_order_relaxed);
}

int session_result(const struct session *s, const char **msg)
{
	if (msg)
		*msg = s->msg;
	return s->result;
}

void session_interrupt(struct session *s, int sig)
{
	s->stop = 1;
	atomic_store(&s->ctl->pause, false);
	if (s->started)
		pthread_kill(s->thread, sig);
}
