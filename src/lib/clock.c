#include "config.h"

#include "clock.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <time.h>

/* Sleeps end this long before the deadline; the rest is spun. */
#define CLOCK_SPIN_NS 50000ull
/*
 * Longest single sleep by default: a signal caught by another thread (the
 * --iostat ticker) does not interrupt this one's sleep, so *stop is looked at
 * least this often.
 */
#define CLOCK_SLICE_NS 50000000ull

/* Adaptive mode: the first guess at a sleep's overshoot, its cap, and the margin spun beyond it. */
#define CLOCK_ADAPT_FIRST_NS 50000ull
#define CLOCK_ADAPT_MAX_NS 100000ull
#define CLOCK_ADAPT_MARGIN_NS 5000ull

/* This thread's spin (clock_set_spin()), and its adaptive state (clock_set_adaptive()). */
static _Thread_local uint64_t clock_spin = CLOCK_SPIN_NS;
static _Thread_local uint64_t clock_slice = CLOCK_SLICE_NS; /* clock_set_slice() */
static _Thread_local bool clock_adapt;
static _Thread_local uint64_t clock_overshoot = CLOCK_ADAPT_FIRST_NS;

void clock_set_slice(uint64_t ns)
{
	clock_slice = ns ? ns : CLOCK_SLICE_NS;
}

void clock_set_spin(uint64_t ns)
{
	clock_spin = ns;
	clock_adapt = false;
}

void clock_set_adaptive(void)
{
	clock_adapt = true;
	clock_overshoot = CLOCK_ADAPT_FIRST_NS;
}

uint64_t clock_adapt_update(uint64_t estimate, uint64_t overshoot)
{
	if (overshoot > CLOCK_ADAPT_MAX_NS)
		overshoot = CLOCK_ADAPT_MAX_NS; /* a preemption, not the timer: counts capped */
	return estimate - estimate / 8 + overshoot / 8;
}

/* How long before a deadline this thread's last sleep ends. */
static uint64_t clock_lead(void)
{
	return clock_adapt ? clock_overshoot + CLOCK_ADAPT_MARGIN_NS : clock_spin;
}

static uint64_t clock_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clock_now(void)
{
	return clock_read(CLOCK_MONOTONIC);
}

uint64_t clock_realtime(void)
{
	return clock_read(CLOCK_REALTIME);
}

uint64_t clock_boottime(void)
{
	return clock_read(CLOCK_BOOTTIME);
}

int clock_wait_until(uint64_t deadline, const volatile sig_atomic_t *stop)
{
	uint64_t now = clock_now(), lead = clock_lead();

	while (now + lead < deadline) {
		uint64_t wake = deadline - lead;
		bool last = wake - now <= clock_slice;
		struct timespec ts;

		if (!last)
			wake = now + clock_slice;
		ts.tv_sec = (time_t)(wake / 1000000000ull);
		ts.tv_nsec = (long)(wake % 1000000000ull);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			if (stop && *stop)
				return -EINTR;
		if (stop && *stop)
			return -EINTR;
		now = clock_now();
		if (clock_adapt && last)
			clock_overshoot = clock_adapt_update(clock_overshoot,
							     now > wake ? now - wake : 0);
	}
	while (clock_now() < deadline)
		if (stop && *stop)
			return -EINTR;
	return 0;
}

void clock_tighten_slack(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}
