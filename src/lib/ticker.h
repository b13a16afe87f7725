/*
 * ticker: call a function every period from a thread of its own, on absolute
 * CLOCK_MONOTONIC deadlines, and stop at once when asked (a condition
 * variable, not a sleep, so stopping never waits out a period).
 */
#ifndef IOPROBE_TICKER_H
#define IOPROBE_TICKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ticker {
	uint64_t period;              /* ns */
	void (*tick)(void *arg);      /* called every period, outside the lock */
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t wake;          /* signalled by ticker_stop() */
	bool done;
	bool running;
	pthread_t thread;
};

/*
 * Start calling tick(arg) every period ns (the first call one period from
 * now). Returns 0 or -errno (then nothing runs).
 */
int ticker_start(struct ticker *t, uint64_t period, void (*tick)(void *arg), void *arg);

/* Stop and wait for the thread; a tick in progress finishes first. Idempotent. */
void ticker_stop(struct ticker *t);

#endif
