/* Unit tests for src/lib/clock.c: waits end at or after their deadline, with or without the spin. */
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

Test(clock, adaptive_wait_reaches_the_deadline)
{
	clock_set_adaptive();
	for (int i = 0; i < 20; i++)
		wait_ms();
	clock_set_spin(50000ull);
}

Test(clock, adapt_update_is_a_running_average_of_weight_one_eighth)
{
	cr_assert_eq(clock_adapt_update(80000, 80000), 80000);
	cr_assert_eq(clock_adapt_update(80000, 0), 70000);
	cr_assert_eq(clock_adapt_update(0, 80000), 10000);
	/* converges on a steady overshoot */
	uint64_t e = 0;
	for (int i = 0; i < 200; i++)
		e = clock_adapt_update(e, 40000);
	cr_assert(e > 39900 && e <= 40000, "%llu", (unsigned long long)e);
}

Test(clock, adapt_update_caps_a_preemption_at_100_us)
{
	cr_assert_eq(clock_adapt_update(0, 10000000ull), 12500);
	cr_assert_eq(clock_adapt_update(100000, UINT64_MAX), 100000);
}
