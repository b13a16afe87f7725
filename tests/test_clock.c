/* Unit tests for src/clock.c: waits end at or after their deadline, with or without the spin. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>

#include "clock.h"

static void wait_ms(void)
{
	uint64_t due = clock_now() + 2000000ull;

	cr_assert_eq(clock_wait_until(due, NULL), 0);
	cr_assert_geq(clock_now(), due);
}

Test(clock, wait_reaches_the_deadline_spinning_or_not)
{
	wait_ms();
	clock_set_spin(0);
	wait_ms();
	clock_set_spin(1000000ull); /* a spin longer than the wait */
	wait_ms();
}

Test(clock, stop_ends_the_wait)
{
	volatile sig_atomic_t stop = 1;

	clock_set_spin(0);
	cr_assert_eq(clock_wait_until(clock_now() + 1000000000ull, &stop), -EINTR);
}
