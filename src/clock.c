#include "config.h"

#include "clock.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

/* Sleeps end this long before the deadline; the rest is spun. */
#define CLOCK_SPIN_NS 50000ull
/*
 * Longest single sleep: a signal caught by another thread (the --iostat
 * ticker) does not interrupt this one's sleep, so *stop is looked at least
 * this often.
 */
#define CLOCK_SLICE_NS 50000000ull

/* This thread's spin (clock_set_spin()). */
static _Thread_local uint64_t clock_spin = CLOCK_SPIN_NS;

void clock_set_spin(uint64_t ns)
{
	clock_spin = ns;
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
	uint64_t now = clock_now();

	while (now + clock_spin < deadline) {
		uint64_t wake = deadline - clock_spin;
		struct timespec ts;

		if (wake - now > CLOCK_SLICE_NS)
			wake = now + CLOCK_SLICE_NS;
		ts.tv_sec = (time_t)(wake / 1000000000ull);
		ts.tv_nsec = (long)(wake % 1000000000ull);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			if (stop && *stop)
				return -EINTR;
		if (stop && *stop)
			return -EINTR;
		now = clock_now();
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
