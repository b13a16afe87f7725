/*
 * memlimit: the memory cgroup's path and the limit and usage files, parsed from text as
 * this machine's kernel (Linux 6.x, cgroup v1 and v2) writes them; memlimit_read on this host.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "memlimit.h"

Test(memlimit, v1_memory_line_wins)
{
	char p[64];
	bool v2 = true;

	cr_assert_eq(memlimit_cgroup_path("12:pids:/\n5:cpu,cpuacct:/x\n4:memory:/ioprobe-m64\n"
					  "0::/init.scope\n", p, sizeof(p), &v2), 0);
	cr_assert_str_eq(p, "/ioprobe-m64");
	cr_assert_not(v2);
	/* the v2 line first, the v1 controller after: still v1's */
	cr_assert_eq(memlimit_cgroup_path("0::/a\n3:blkio,memory:/b\n", p, sizeof(p), &v2), 0);
	cr_assert_str_eq(p, "/b");
	cr_assert_not(v2);
}

Test(memlimit, v2_unified_line)
{
	char p[64];
	bool v2 = false;

	cr_assert_eq(memlimit_cgroup_path("0::/system.slice/ioprobe.service\n", p, sizeof(p), &v2),
		     0);
	cr_assert_str_eq(p, "/system.slice/ioprobe.service");
	cr_assert(v2);
	/* "memoryx" is not "memory"; a v1 hierarchy without it and no v2 line: none */
	cr_assert_eq(memlimit_cgroup_path("4:memoryx:/a\n5:cpu:/b\n", p, sizeof(p), &v2), -ENOENT);
	cr_assert_eq(memlimit_cgroup_path("", p, sizeof(p), &v2), -ENOENT);
	cr_assert_eq(memlimit_cgroup_path("4:memory:/a-long-name\n", p, 8, &v2), -ENAMETOOLONG);
}

Test(memlimit, keys)
{
	uint64_t v = 0;
	const char *stat = "cache 6074368\nrss 0\ntotal_active_file 2162688\n"
			   "total_inactive_file 3911680\nhierarchical_memory_limit 67108864\n";

	cr_assert(memlimit_key(stat, "hierarchical_memory_limit", false, &v));
	cr_assert_eq(v, 67108864);
	cr_assert(memlimit_key(stat, "total_active_file", false, &v));
	cr_assert_eq(v, 2162688);
	cr_assert_not(memlimit_key(stat, "active_file", false, &v), "a key's tail is not a key");
	cr_assert(memlimit_key("file 12\nfile_mapped 3\n", "file", false, &v));
	cr_assert_eq(v, 12);
	cr_assert(memlimit_key("MemTotal:  4000 kB\nMemAvailable:    1536 kB\n", "MemAvailable",
			       true, &v));
	cr_assert_eq(v, 1536 * 1024);
	cr_assert_not(memlimit_key("rss x\n", "rss", false, &v));
}

Test(memlimit, limits)
{
	uint64_t v = 0;

	cr_assert(memlimit_parse_limit("max\n", &v));
	cr_assert_eq(v, UINT64_MAX);
	cr_assert(memlimit_parse_limit("9223372036854771712\n", &v), "v1's unlimited");
	cr_assert_eq(v, UINT64_MAX);
	cr_assert(memlimit_parse_limit("67108864\n", &v));
	cr_assert_eq(v, 67108864);
	cr_assert_not(memlimit_parse_limit("64M\n", &v));
	cr_assert_not(memlimit_parse_limit("", &v));
}

/* This host: a limit at most what the host has, and free within both. */
Test(memlimit, read_this_host)
{
	struct memlimit m;

	cr_assert_eq(memlimit_read(&m), 0);
	cr_assert_gt(m.available, 0);
	cr_assert_leq(m.free, m.available);
	if (m.limit != UINT64_MAX)
		cr_assert_leq(m.free, m.limit);
}
