/*
 * procstat: the kernel's accounts of CPU wait, parsed from text as this machine's kernel
 * (Linux 6.18) writes it.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "procstat.h"

Test(procstat, schedstat)
{
	uint64_t run, wait;

	cr_assert_eq(procstat_schedstat("147564 2391778 2\n", &run, &wait), 0);
	cr_assert_eq(run, 147564);
	cr_assert_eq(wait, 2391778);
	cr_assert_eq(procstat_schedstat("147564\n", &run, &wait), -EINVAL);
	cr_assert_eq(procstat_schedstat("", &run, &wait), -EINVAL);
	cr_assert_eq(procstat_schedstat(NULL, &run, &wait), -EINVAL);
}

Test(procstat, psi_some)
{
	uint64_t t = 0;

	cr_assert_eq(procstat_psi_some("some avg10=14.55 avg60=14.92 avg300=10.24 total=156229913\n"
				       "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &t), 0);
	cr_assert_eq(t, 156229913);
	cr_assert_eq(procstat_psi_some("full avg10=0.00 total=5\n", &t), -EINVAL);
	cr_assert_eq(procstat_psi_some("some avg10=1.0 total=\n", &t), -EINVAL);
	cr_assert_eq(procstat_psi_some("", &t), -EINVAL);
}

Test(procstat, cpu_throttled_v1_and_v2)
{
	uint64_t ns = 0;

	cr_assert_eq(procstat_cpu_throttled("nr_periods 120\nnr_throttled 98\n"
					    "throttled_time 8812345678\n", &ns), 0);
	cr_assert_eq(ns, 8812345678ull);
	cr_assert_eq(procstat_cpu_throttled("usage_usec 5\nnr_throttled 3\nthrottled_usec 1500\n",
					    &ns), 0);
	cr_assert_eq(ns, 1500000);
	cr_assert_eq(procstat_cpu_throttled("usage_usec 5\n", &ns), -ENOENT);
}

Test(procstat, cgroup_path)
{
	static const char *cg = "9:name=systemd:/\n4:memory:/process_api/9f77\n"
				"2:cpuacct:/\n1:cpu,cpuacct:/ioq\n0::/user.slice\n";
	char out[64];

	cr_assert_eq(procstat_cgroup_path(cg, "cpu", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/ioq");
	cr_assert_eq(procstat_cgroup_path(cg, "memory", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/process_api/9f77");
	cr_assert_eq(procstat_cgroup_path(cg, NULL, out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/user.slice");
	cr_assert_eq(procstat_cgroup_path(cg, "blkio", out, sizeof(out)), -ENOENT);
	cr_assert_eq(procstat_cgroup_path(cg, "cpu", out, 3), -ENAMETOOLONG);
	/* "cpu" is not "cpuacct": a whole item of the list */
	cr_assert_eq(procstat_cgroup_path("2:cpuacct:/a\n", "cpu", out, sizeof(out)), -ENOENT);
}

Test(procstat, cgroup_mount)
{
	static const char *mi =
		"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
		"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
	char out[64];

	cr_assert_eq(procstat_cgroup_mount(mi, "cpu", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/sys/fs/cgroup/cpu");
	cr_assert_eq(procstat_cgroup_mount(mi, NULL, out, sizeof(out)), 0);
	cr_assert_str_eq(out, "/sys/fs/cgroup/unified");
	cr_assert_eq(procstat_cgroup_mount(mi, "blkio", out, sizeof(out)), -ENOENT);
	cr_assert_eq(procstat_cgroup_mount(mi, "cpu", out, 8), -ENAMETOOLONG);
}

Test(procstat, cpu_quota)
{
	cr_assert_float_eq(procstat_cpu_quota("1500\n", "100000\n"), 0.015, 1e-12);
	cr_assert_float_eq(procstat_cpu_quota("-1\n", "100000\n"), 0, 1e-12, "v1: no quota");
	cr_assert_float_eq(procstat_cpu_quota(NULL, "200000 100000\n"), 2.0, 1e-12);
	cr_assert_float_eq(procstat_cpu_quota(NULL, "max 100000\n"), 0, 1e-12, "v2: no quota");
	cr_assert_lt(procstat_cpu_quota(NULL, "junk\n"), 0);
	cr_assert_lt(procstat_cpu_quota("5\n", "0\n"), 0);
	cr_assert_lt(procstat_cpu_quota("5\n", NULL), 0);
}
