/*
 * opener: target_open() in a child process, so that preparing a target on a
 * disk that hangs (an open, a stat, the working set's fill or fsync that
 * never returns) never holds the process that owns stdout, the exit code and
 * the signal handling. The child sends its progress and, at the end, the
 * target with its descriptor (SCM_RIGHTS) over a socket pair; the caller
 * waits on its own thread, polling its stop flag.
 */
#ifndef IOPROBE_OPENER_H
#define IOPROBE_OPENER_H

#include <signal.h>
#include <stddef.h>

#include "target.h"

/* After a stop, how long a preparation still in a request is waited for (ns). */
#define OPENER_GRACE_NS 500000000ull

/*
 * target_open(t, cfg, ...) run in a child: the same result, t and msg, with
 * progress heard on this thread (at most every 50 ms, and at the end). When
 * *stop is set the child is told to stop (target_open's -EINTR, nothing left
 * behind); when it still has not answered OPENER_GRACE_NS later — a request
 * that hangs — the preparation is given up: -ETIMEDOUT with msg saying so,
 * and the child, still blocked in the kernel, finishes its clean-up (the
 * directory's temp file removed) whenever the request returns. -ECHILD (msg
 * filled) when the child could not be started or died.
 */
int opener_open(struct target *t, const struct target_cfg *cfg, const volatile sig_atomic_t *stop,
		const struct target_progress *progress, char *msg, size_t msglen);

#endif
