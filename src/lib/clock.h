/*
 * clock: the probe's time source. All durations are uint64_t nanoseconds on
 * CLOCK_MONOTONIC (wall-clock time appears only in report timestamps; the
 * iostat samplers use CLOCK_BOOTTIME, as sysstat's /proc/uptime does).
 */
#ifndef IOPROBE_CLOCK_H
#define IOPROBE_CLOCK_H

#include <signal.h>
#include <stdint.h>

/* CLOCK_MONOTONIC now, in ns. */
uint64_t clock_now(void);

/* CLOCK_REALTIME now, in ns since the epoch (report timestamps only). */
uint64_t clock_realtime(void);

/* CLOCK_BOOTTIME now, in ns (iostat intervals: it counts suspend time, as /proc/uptime). */
uint64_t clock_boottime(void);

/*
 * Wait until CLOCK_MONOTONIC reaches deadline (ns): an absolute
 * clock_nanosleep() for the bulk, then a short spin for the last stretch so
 * the start is not late by timer slack. Returns 0 at the deadline, or -EINTR
 * as soon as *stop becomes non-zero (a signal handler sets it; the sleep is
 * interrupted because handlers are installed without SA_RESTART, and it is
 * cut into slices of at most 50 ms (clock_set_slice), so a signal taken by
 * another thread is seen within 50 ms too). Any deadline works, UINT64_MAX included.
 */
int clock_wait_until(uint64_t deadline, const volatile sig_atomic_t *stop);

/*
 * Spin at most ns before each deadline in this thread (default 50 us). Many
 * probe threads on few cores spin each other off the CPU: they sleep the
 * whole wait instead (0).
 */
void clock_set_spin(uint64_t ns);

/*
 * This thread's longest single sleep in clock_wait_until() (default 50 ms: a signal another
 * thread took is seen that late at most). A thread that is woken by a signal of its own when
 * it must stop (the prober's child: its caller's kick) sleeps longer and wakes less.
 */
void clock_set_slice(uint64_t ns);

/*
 * Many probe threads on few cores, without spinning each other off the CPU:
 * each sleep in this thread ends early by the sleeps' own overshoot as measured
 * so far (a running average of how late clock_nanosleep() returned, plus 5 us),
 * and only that stretch is spun. A start is then late by the overshoot's
 * jitter, not by its mean (about 50 us in a VM), at a few us of spin a wait.
 */
void clock_set_adaptive(void);

/*
 * The next overshoot estimate from the current one and one measured overshoot
 * (ns): a running average with weight 1/8, each sample capped at 100 us (a
 * preemption is not the timer's lateness). Pure; exposed for tests.
 */
uint64_t clock_adapt_update(uint64_t estimate, uint64_t overshoot);

/* Lower this thread's timer slack so sleeps end close to their deadline. */
void clock_tighten_slack(void);

#endif
