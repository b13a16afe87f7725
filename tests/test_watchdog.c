/*
 * Tests for src/probe/watchdog.c's rule: when a hung request is warned about
 * (first after first_warn, then each time the wait doubles, a new request
 * counting again) and how long the watchdog may nap before one can be due
 * (so a warning is on time and an idle run wakes it seldom).
 */
#include <criterion/criterion.h>

#include "watchdog.h"

#define S 1000000000ull

Test(watchdog, warnings_double)
{
	struct watchdog_seen w = { 0, 0 };

	cr_assert(!watchdog_due(&w, 0, 100 * S, 5 * S), "nothing in flight");
	cr_assert(!watchdog_due(&w, 10 * S, 14 * S, 5 * S));
	cr_assert(watchdog_due(&w, 10 * S, 15 * S, 5 * S), "5 s in flight");
	cr_assert(!watchdog_due(&w, 10 * S, 19 * S, 5 * S));
	cr_assert(watchdog_due(&w, 10 * S, 20 * S, 5 * S), "10 s");
	cr_assert(watchdog_due(&w, 10 * S, 30 * S, 5 * S), "20 s");
	cr_assert(!watchdog_due(&w, 31 * S, 32 * S, 5 * S), "a new request counts again");
	cr_assert(watchdog_due(&w, 31 * S, 36 * S, 5 * S));
}

Test(watchdog, nap_until_the_next_can_be_due)
{
	struct watchdog_seen w = { 0, 0 };

	watchdog_due(&w, 0, 100 * S, 5 * S);
	cr_assert_eq(watchdog_wait(&w, 0, 100 * S, 5 * S), 5 * S,
		     "none in flight: one starting now is due 5 s on at the earliest");
	watchdog_due(&w, 99 * S, 100 * S, 5 * S);
	cr_assert_eq(watchdog_wait(&w, 99 * S, 100 * S, 5 * S), 4 * S, "in flight 1 s of 5");
	cr_assert(watchdog_due(&w, 99 * S, 104 * S, 5 * S));
	cr_assert_eq(watchdog_wait(&w, 99 * S, 104 * S, 5 * S), 5 * S, "next at 10 s in flight");
	cr_assert_eq(watchdog_wait(&w, 99 * S, 110 * S, 5 * S), 0, "overdue: look now");
	cr_assert_eq(watchdog_wait(&w, 120 * S, 120 * S, 5 * S), 5 * S,
		     "a request not seen yet: 5 s from its start at least");
}
