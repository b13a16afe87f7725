#include "config.h"

#include "cpuwait.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "procstat.h"
#include "readfile.h"

/*
 * A file every watched thread shares (its CPU cgroup's cpu.stat, the host's PSI) is read once
 * for the targets a judging tick reads one after another: a read this young is used again.
 */
#define CPUWAIT_SHARED_NS 50000000ull

struct cpuwait_seen {
	uint64_t at;        /* when it was read (0: never) */
	char path[256];     /* a longer path is read each time (it never compares equal) */
	bool ok;
	uint64_t v;
};

void cpuwait_init(struct cpuwait *c)
{
	memset(c, 0, sizeof(*c));
}

/* The cpu.stat of pid's CPU cgroup (v1 "cpu" hierarchy, else v2) into c->cpustat, or "". */
static void cpuwait_find_group(struct cpuwait *c, pid_t pid)
{
	char path[64], group[PATH_MAX], mnt[PATH_MAX];
	char *cg, *mi;
	int err, r = -ENOENT;

	c->cpustat[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	cg = readfile_text(path, &err);
	mi = readfile_text("/proc/self/mountinfo", &err);
	if (cg && mi) {
		r = procstat_cgroup_path(cg, "cpu", group, sizeof(group));
		if (!r)
			r = procstat_cgroup_mount(mi, "cpu", mnt, sizeof(mnt));
		if (r && !(r = procstat_cgroup_path(cg, NULL, group, sizeof(group))))
			r = procstat_cgroup_mount(mi, NULL, mnt, sizeof(mnt));
	}
	if (!r && (size_t)snprintf(c->cpustat, sizeof(c->cpustat), "%s%s/cpu.stat", mnt,
				   strcmp(group, "/") ? group : "") >= sizeof(c->cpustat))
		c->cpustat[0] = '\0';
	free(cg);
	free(mi);
}

double cpuwait_quota(void)
{
	struct cpuwait c;
	char q[PATH_MAX + 32], per[PATH_MAX + 32];
	char *qt = NULL, *pt;
	size_t n;
	int err;
	double cpus;

	cpuwait_find_group(&c, getpid()); /* .../cpu.stat: the files beside it */
	n = strlen(c.cpustat);
	if (n < 9)
		return 0;
	c.cpustat[n - 9] = '\0';
	snprintf(q, sizeof(q), "%s/cpu.cfs_quota_us", c.cpustat);
	snprintf(per, sizeof(per), "%s/cpu.cfs_period_us", c.cpustat);
	pt = readfile_text(per, &err);
	if (pt) {
		qt = readfile_text(q, &err);
	} else { /* v2 */
		snprintf(per, sizeof(per), "%s/cpu.max", c.cpustat);
		pt = readfile_text(per, &err);
	}
	cpus = pt ? procstat_cpu_quota(qt, pt) : 0;
	free(qt);
	free(pt);
	return cpus > 0 ? cpus : 0;
}

/* Read a file and parse it with fn into *v; false when either fails. */
static bool cpuwait_get(const char *path, int (*fn)(const char *, uint64_t *), uint64_t *v)
{
	int err;
	char *t = path[0] ? readfile_text(path, &err) : NULL;
	bool ok = t && !fn(t, v);

	free(t);
	return ok;
}

/* cpuwait_get for a file the watched threads share, through slot (one per file kind). */
static bool cpuwait_get_shared(struct cpuwait_seen *slot, const char *path,
			       int (*fn)(const char *, uint64_t *), uint64_t *v)
{
	uint64_t now = clock_now();

	if (slot->at && now - slot->at < CPUWAIT_SHARED_NS && !strcmp(slot->path, path)) {
		*v = slot->v;
		return slot->ok;
	}
	slot->ok = cpuwait_get(path, fn, &slot->v);
	slot->at = now;
	snprintf(slot->path, sizeof(slot->path), "%s", path);
	*v = slot->v;
	return slot->ok;
}

static int cpuwait_schedstat_wait(const char *text, uint64_t *wait)
{
	uint64_t run;

	return procstat_schedstat(text, &run, wait);
}

void cpuwait_read(struct cpuwait *c, pid_t pid, struct cpuwait_delta *d)
{
	static __thread struct cpuwait_seen group, host; /* the judging thread's */
	char path[64];
	uint64_t wait = 0, thr = 0, some = 0;
	bool same = pid && pid == c->pid, hw, ht, hh;

	memset(d, 0, sizeof(*d));
	if (pid && pid != c->pid)
		cpuwait_find_group(c, pid);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	hw = pid && cpuwait_get(path, cpuwait_schedstat_wait, &wait);
	ht = pid && cpuwait_get_shared(&group, c->cpustat, procstat_cpu_throttled, &thr);
	hh = cpuwait_get_shared(&host, "/proc/pressure/cpu", procstat_psi_some, &some);
	/* a new thread's run delay starts at 0 when it is born: all of it is new */
	d->have_wait = hw && (!same || (c->have_wait && wait >= c->wait_ns));
	d->wait_ns = d->have_wait ? wait - (same ? c->wait_ns : 0) : 0;
	d->have_throttle = same && ht && c->have_throttle && thr >= c->throttled_ns;
	d->throttled_ns = d->have_throttle ? thr - c->throttled_ns : 0;
	d->have_host = hh && c->have_host && some >= c->host_some_us;
	d->host_some_ns = d->have_host ? (some - c->host_some_us) * 1000 : 0;
	c->pid = pid;
	c->have_wait = hw;
	c->wait_ns = wait;
	c->have_throttle = ht;
	c->throttled_ns = thr;
	c->have_host = hh;
	c->host_some_us = some;
}
