#include "config.h"

#include "ticker.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "clock.h"

static void *ticker_main(void *arg)
{
	struct ticker *t = arg;
	uint64_t due = clock_now() + t->period;

	pthread_mutex_lock(&t->lock);
	while (!t->done) {
		struct timespec ts = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };

		if (pthread_cond_timedwait(&t->wake, &t->lock, &ts) != ETIMEDOUT)
			continue; /* woken (stop) or spurious: re-check done and wait again */
		if (t->done)
			break;
		pthread_mutex_unlock(&t->lock);
		t->tick(t->arg);
		pthread_mutex_lock(&t->lock);
		due += t->period;
		if (due < clock_now()) /* fell behind (a slow tick): no burst of ticks */
			due = clock_now() + t->period;
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int ticker_start(struct ticker *t, uint64_t period, void (*tick)(void *arg), void *arg)
{
	pthread_condattr_t attr;
	int ret;

	memset(t, 0, sizeof(*t));
	t->period = period ? period : 1;
	t->tick = tick;
	t->arg = arg;
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &attr);
	pthread_condattr_destroy(&attr);
	ret = pthread_create(&t->thread, NULL, ticker_main, t);
	if (ret) {
		pthread_cond_destroy(&t->wake);
		pthread_mutex_destroy(&t->lock);
		return -ret;
	}
	t->running = true;
	return 0;
}

void ticker_stop(struct ticker *t)
{
	if (!t->running)
		return;
	pthread_mutex_lock(&t->lock);
	t->done = true;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	t->running = false;
}
