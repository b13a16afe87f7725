/*
 * procstat: the kernel's own accounts of a task's CPU wait, read from text
 * the caller brings (procfs, cgroupfs). Pure: no I/O.
 *
 *   /proc/PID/task/TID/schedstat  "RUN_NS WAIT_NS SLICES": time on a CPU and
 *                                 time runnable but waiting for one (the run
 *                                 delay), in ns (sched/stats.c; no
 *                                 sched_schedstats needed for these two)
 *   /proc/pressure/cpu, a cgroup's cpu.pressure (PSI)
 *                                 "some avg10=… avg60=… avg300=… total=US":
 *                                 total µs during which some task waited
 *   cgroup v1 cpu.stat            "throttled_time NS" (CFS quota throttling)
 *   cgroup v2 cpu.stat            "throttled_usec US"
 *   /proc/PID/cgroup              "ID:CONTROLLERS:PATH" lines (v1), "0::PATH" (v2)
 *   /proc/self/mountinfo          where the cgroup hierarchies are mounted
 */
#ifndef IOPROBE_PROCSTAT_H
#define IOPROBE_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

/* A schedstat line into its run time and run delay (ns). 0, or -EINVAL when malformed. */
int procstat_schedstat(const char *text, uint64_t *run_ns, uint64_t *wait_ns);

/* PSI text: the "some" line's total (µs). 0, or -EINVAL when there is none. */
int procstat_psi_some(const char *text, uint64_t *total_us);

/*
 * A cpu.stat text: the time the group was throttled by its CFS quota, in ns
 * (v1 "throttled_time" in ns, v2 "throttled_usec" in µs). 0, or -ENOENT when
 * neither key is there.
 */
int procstat_cpu_throttled(const char *text, uint64_t *ns);

/*
 * The CPUs a group's CFS quota allows, from v2 cpu.max text ("max 100000" or
 * "QUOTA PERIOD", quota_text NULL) or v1 cpu.cfs_quota_us and
 * cpu.cfs_period_us texts ("-1" is no quota). 0 when there is no quota, or
 * -EINVAL when malformed.
 */
double procstat_cpu_quota(const char *quota_text, const char *period_text);

/*
 * /proc/PID/cgroup text: the path of the group of the v1 hierarchy that has
 * controller (e.g. "cpu"; one of a comma list such as "cpu,cpuacct"), or
 * with controller NULL the v2 group ("0::PATH"). Copies at most len bytes
 * (NUL included) to out. 0, -ENOENT when there is no such line, -ENAMETOOLONG.
 */
int procstat_cgroup_path(const char *text, const char *controller, char *out, size_t len);

/*
 * mountinfo text: the mount point of the v1 cgroup hierarchy whose options
 * hold controller, or with controller NULL of the cgroup2 file system. The
 * first match wins. 0, -ENOENT, -ENAMETOOLONG.
 */
int procstat_cgroup_mount(const char *mountinfo, const char *controller, char *out, size_t len);

#endif
