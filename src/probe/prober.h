/*
 * prober: a probe run in a child process, so that a request that never
 * returns never holds the process that owns stdout, the exit code and the
 * signal handling.
 *
 * Why a process: a thread whose read sits in a FUSE server that took the
 * request and never answers (or in a dead device's queue) is in
 * uninterruptible sleep, and stays there after SIGKILL; a process cannot
 * finish exiting, nor release its descriptors (stdout among them), while one
 * of its threads is there. So the request is issued by a child that holds
 * none of the caller's descriptors but the target's: the caller stays free
 * to write its closing output and exit, and the child, if it is stuck, is
 * left to die when its request ends.
 *
 * The probe itself (struct probe, its account and control block) lives in a
 * mapping shared with the child, so the caller reads the totals as usual
 * once the run ended — or was given up. The child tells every finished
 * request, closed period (with its tally), burst end, skipped slots and
 * warning through a ring in the same mapping; the caller's sink hears them,
 * in order, on the calling thread, exactly as from probe_run(). A full ring
 * makes the child wait (nothing is dropped while the caller reads), as a
 * slow stdout made the probe wait before.
 *
 * The child never writes to the terminal: its stdin, stdout and stderr are
 * /dev/null, every other descriptor but the target's is closed, it ignores
 * SIGINT, SIGTERM and SIGHUP (the caller decides) and dies with its parent
 * (PR_SET_PDEATHSIG). Its engine is started anew in the child from the
 * caller's (a libaio context does not survive fork); the request buffers
 * must be shared (engine_buffers_alloc) so that nothing is copied.
 */
#ifndef IOPROBE_PROBER_H
#define IOPROBE_PROBER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "probe.h"

/*
 * How long after a stop (the caller's flag, or a sink's error) the caller
 * waits for the child's request before giving it up: under the 1 s every
 * stop signal must end a run in.
 */
#define PROBER_GRACE_NS 500000000ull

/*
 * The capacity of one of probers' rings (a power of two): full for up to all / full
 * probers, halved while probers of that size would hold more than all records together,
 * least at the smallest. Pure.
 */
uint64_t prober_ring_size(uint64_t full, uint64_t least, uint64_t all, unsigned probers);

/*
 * A struct probe in memory shared with the child prober_run() starts, with a
 * control block of its own (prober_ctl), one of probers (>= 1) that one run
 * drains: its rings shrink as probers grow (4096 records and 16 period tallies
 * for one, 512 and 4 from 64 on), so that a caller that stalls (a terminal that
 * blocks) holds about 30 MiB of them whatever the number of targets, instead
 * of 1.5 MiB a target — a full ring makes the child wait, nothing is lost.
 * NULL when out of memory. Initialise it with probe_init() as any probe.
 */
struct probe *prober_alloc(unsigned probers);

/* Release what prober_alloc() gave (p may be NULL). Not while a child may still write it. */
void prober_free(struct probe *p);

/* The shared control block of p (from prober_alloc): give it as p->ctl when none is shared. */
struct probe_ctl *prober_ctl(struct probe *p);

/*
 * The pid of p's child while prober_run() runs it (its one thread issues the
 * requests: /proc/PID/schedstat is its CPU wait), 0 when none runs. Any thread.
 */
pid_t prober_pid(struct probe *p);

/*
 * The run delay (time runnable but not running) of the child of p's last
 * prober_run() over its whole life, read by the child at its end, into *ns:
 * true, or false when it was not read (the child was given up or died).
 */
bool prober_cpu_wait(struct probe *p, uint64_t *ns);

/*
 * probe_run() for p (from prober_alloc, p->ctl NULL or in shared memory) in a
 * child process, the sink called on this thread. Ends when the child's run
 * ends (its result: 0, a sink's negative return, or -errno with msg filled),
 * or PROBER_GRACE_NS after *stop was set or a sink failed while the child
 * still had a request in flight: then the child is killed, p->acct holds the
 * totals up to that request, and the result is -ETIMEDOUT with msg saying how
 * many requests were in flight and for how long ("... did not complete").
 * -ECHILD (msg filled) when the child could not be started or died.
 */
int prober_run(struct probe *p, const struct probe_sink *sink, const volatile sig_atomic_t *stop,
	       char *msg, size_t msglen);

/*
 * A stop was asked (the flag a prober_run() watches is set): wake every prober_run() of the
 * process now, whichever thread the signal reached (they sleep up to a second when idle).
 * Async-signal-safe; call it after setting the flag.
 */
void prober_notify_stop(void);

/*
 * Whether p's last prober_run() started its child: false when it failed before (its ring,
 * its eventfd — out of descriptors —, its fork): a failure to prepare, not of the run.
 */
bool prober_started(struct probe *p);

#endif
