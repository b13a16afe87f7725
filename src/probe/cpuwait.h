/*
 * cpuwait: whether a prober waited for a CPU, measured — the kernel's own
 * accounts of the probing thread and its surroundings, read between two
 * moments (no privilege needed):
 *   - the thread's run delay (/proc/PID/schedstat, 2nd field): time it was
 *     runnable but not running, whatever held it (other tasks, a CPU quota);
 *   - its CPU cgroup's quota throttling (cpu.stat throttled_time, v1 or v2);
 *   - the host's CPU pressure (/proc/pressure/cpu "some" total: the share of
 *     time some task waited for a CPU).
 * Each is 'unknown' where the kernel does not offer it.
 */
#ifndef IOPROBE_CPUWAIT_H
#define IOPROBE_CPUWAIT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* What one interval held: deltas between two reads. */
struct cpuwait_delta {
	bool have_wait;        /* the thread's run delay was read at both ends */
	uint64_t wait_ns;      /* ... its run delay in the interval */
	bool have_throttle;    /* its CPU cgroup has a quota account */
	uint64_t throttled_ns; /* ... time the group was throttled in the interval */
	bool have_host;        /* the host has PSI */
	uint64_t host_some_ns; /* ... time some task waited for a CPU in the interval */
};

/* One watched thread (the prober's child) and the last reads. */
struct cpuwait {
	pid_t pid;             /* 0: none yet */
	char cpustat[PATH_MAX];/* its CPU cgroup's cpu.stat, "" when unknown */
	bool have_wait, have_throttle, have_host;
	uint64_t wait_ns, throttled_ns, host_some_us;
};

/*
 * The CPUs the CPU cgroup of this process may use by its CFS quota (v1
 * cpu.cfs_quota_us / cpu.cfs_period_us, v2 cpu.max), 0 when it has none or it
 * cannot be read. Reads procfs and cgroupfs.
 */
double cpuwait_quota(void);

/* Nothing watched yet. */
void cpuwait_init(struct cpuwait *c);

/*
 * Read pid's accounts now (pid 0: none) and fill d with what happened since
 * the previous read: for a pid read for the first time, its run delay since
 * it was born (pid is a new prober's) and its group's throttling unknown; the
 * host's pressure since the previous read of any pid (a first read with pid 0
 * sets its start). Never fails: what cannot be read is unknown. The files
 * every thread shares (the group's cpu.stat, the host's PSI) are read once
 * for the calls one thread makes within 50 ms (a judging tick's targets).
 */
void cpuwait_read(struct cpuwait *c, pid_t pid, struct cpuwait_delta *d);

#endif
