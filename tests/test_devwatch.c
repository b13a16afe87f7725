/*
 * Tests for src/disk/devwatch.c: which devices are watched (a stack, named
 * extras, duplicates, limits), and the sampler over the shared diskstats
 * fixture — baseline, rows equal to iostat_compute's, a device vanishing
 * and coming back, counters going backwards.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "devwatch.h"

#include "fixture_diskstats.h"

#define CS 10000000ull /* ns per centisecond */

/* The fixture's first sample in a temporary file (devwatch_init reads names from it). */
static char proc_path[64];

static void write_fixture(void)
{
	int fd;

	snprintf(proc_path, sizeof(proc_path), "/tmp/ioprobe-devwatch.XXXXXX");
	fd = mkstemp(proc_path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, P_DISKSTATS[0], strlen(P_DISKSTATS[0])),
		     (ssize_t)strlen(P_DISKSTATS[0]));
	close(fd);
}

static void remove_fixture(void)
{
	unlink(proc_path);
}

TestSuite(devwatch, .init = write_fixture, .fini = remove_fixture);

static void stack_of(struct devstack *ds, const char *top, unsigned major, unsigned minor)
{
	memset(ds, 0, sizeof(*ds));
	ds->ndev = 1;
	snprintf(ds->dev[0].name, sizeof(ds->dev[0].name), "%s", top);
	ds->dev[0].major = major;
	ds->dev[0].minor = minor;
	ds->dev[0].max_sectors_kb = 256;
	ds->dev[0].write_cache = 1;
}

Test(devwatch, stack_then_named_devices_without_duplicates)
{
	static struct devstack ds;
	static struct devwatch w;
	char msg[256] = "";

	stack_of(&ds, "vda", 254, 0);
	cr_assert_eq(devwatch_init(&w, &ds, "loop0,,vda,zram0", proc_path, msg, sizeof(msg)), 0,
		     "%s", msg);
	cr_assert_eq(w.ndev, 3);
	cr_assert_str_eq(w.dev[0].name, "vda");
	cr_assert_eq(w.dev[0].max_sectors_kb, 256, "queue attributes come from the stack");
	cr_assert_eq(w.dev[0].write_cache, 1);
	cr_assert_str_eq(w.dev[1].name, "loop0");
	cr_assert_eq(w.dev[1].max_sectors_kb, 0, "a named device's are unknown");
	cr_assert_eq(w.dev[1].write_cache, -1);
	cr_assert_eq(w.dev[1].major, 7);
	cr_assert_str_eq(w.dev[2].name, "zram0");
	cr_assert_eq(w.dev[2].state, DEVWATCH_INIT);
}

Test(devwatch, unknown_name_and_nothing_to_watch_are_refused)
{
	static struct devwatch w;
	char msg[256] = "";

	cr_assert_eq(devwatch_init(&w, NULL, "sdz", proc_path, msg, sizeof(msg)), -ENOENT);
	cr_assert_not_null(strstr(msg, "no device \"sdz\""), "%s", msg);
	cr_assert_eq(devwatch_init(&w, NULL, NULL, proc_path, msg, sizeof(msg)), -EINVAL);
	cr_assert_not_null(strstr(msg, "no block device"), "%s", msg);
}

Test(devwatch, watch_one_by_one_up_to_the_limit)
{
	static struct devwatch w;
	char name[16];

	devwatch_reset(&w, NULL);
	cr_assert_str_eq(w.proc_path, "/proc/diskstats");
	cr_assert_eq(devwatch_watch(&w, "vda", 254, 0), 0);
	cr_assert_eq(devwatch_watch(&w, "loop0", 7, 0), 1);
	cr_assert_eq(devwatch_watch(&w, "vda", 254, 0), 0, "known name: its index");
	for (int i = 2; i < DEVWATCH_MAX; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		cr_assert_eq(devwatch_watch(&w, name, 1, (unsigned)i), i);
	}
	cr_assert_eq(devwatch_watch(&w, "one-too-many", 1, 99), -1);
}

Test(devwatch, rows_are_iostat_compute_over_the_sample_interval)
{
	static struct devwatch w;
	struct disk_counters a, b;
	struct iostat_row want;

	devwatch_reset(&w, proc_path);
	devwatch_watch(&w, "vda", 254, 0);
	devwatch_watch(&w, "loop0", 7, 0);
	cr_assert_eq(devwatch_sample(&w, P_DISKSTATS[0], P_UPTIME_CS[0] * CS), 0);
	cr_assert_eq(w.dev[0].state, DEVWATCH_INIT, "the first sample is the baseline");
	cr_assert_eq(devwatch_sample(&w, P_DISKSTATS[1], P_UPTIME_CS[1] * CS), 0);
	cr_assert_eq(w.dev[0].state, DEVWATCH_OK);
	cr_assert_eq(w.dev[1].state, DEVWATCH_OK);
	diskstats_find_name(P_DISKSTATS[0], "vda", &a);
	diskstats_find_name(P_DISKSTATS[1], "vda", &b);
	iostat_compute(&a, &b, (P_UPTIME_CS[1] - P_UPTIME_CS[0]) * CS, &want);
	cr_assert_eq(memcmp(&w.dev[0].row, &want, sizeof(want)), 0);
	cr_assert_eq(w.dev[0].row.interval_ns, 1000000000ull);
	cr_assert_eq(devwatch_sample(&w, P_DISKSTATS[2], P_UPTIME_CS[2] * CS), 0);
	cr_assert_gt(w.dev[0].row.r_s, 500, "the dd's reads: %f", w.dev[0].row.r_s);
	cr_assert_eq(w.dev[1].row.r_s, 0, "loop0 idle");
}

Test(devwatch, a_read_of_its_own_is_dated_between_the_clocks_around_it)
{
	static struct devwatch w;
	uint64_t m0, b0, m1, b1;

	devwatch_reset(&w, proc_path);
	devwatch_watch(&w, "vda", 254, 0);
	cr_assert_eq(devwatch_sample(&w, P_DISKSTATS[0], 5 * CS), 0);
	cr_assert_eq(w.read_mono_ns, 0, "given text: no read of its own, no read time");
	m0 = clock_now();
	b0 = clock_boottime();
	cr_assert_eq(devwatch_sample(&w, NULL, 0), 0);
	b1 = clock_boottime();
	m1 = clock_now();
	cr_assert(w.read_mono_ns >= m0 && w.read_mono_ns <= m1, "%llu not in [%llu, %llu]",
		  (unsigned long long)w.read_mono_ns, (unsigned long long)m0,
		  (unsigned long long)m1);
	cr_assert(w.prev_ns >= b0 && w.prev_ns <= b1, "the boottime too");
	cr_assert_eq(w.dev[0].state, DEVWATCH_OK, "the read file's counters made a row");
	cr_assert_eq(devwatch_sample(&w, NULL, 7 * CS), 0);
	cr_assert_eq(w.prev_ns, 7 * CS, "a given time is kept");
	cr_assert(w.read_mono_ns > m1, "... and the read still dated");
}

Test(devwatch, missing_device_starts_again_and_backwards_counters_reset)
{
	static struct devwatch w;
	static const char gone[] = "   7       0 loop0 1 0 8 1 0 0 0 0 0 1 1\n";
	static const char small[] = " 254       0 vda 1 0 8 1 0 0 0 0 0 1 1\n";
	static const char small2[] = " 254       0 vda 11 0 88 2 0 0 0 0 0 2 2\n";

	devwatch_reset(&w, proc_path);
	devwatch_watch(&w, "vda", 254, 0);
	devwatch_sample(&w, P_DISKSTATS[0], 100 * CS);
	devwatch_sample(&w, gone, 200 * CS);
	cr_assert_eq(w.dev[0].state, DEVWATCH_MISSING);
	devwatch_sample(&w, P_DISKSTATS[1], 300 * CS);
	cr_assert_eq(w.dev[0].state, DEVWATCH_INIT, "back: a new baseline");
	devwatch_sample(&w, small, 400 * CS);
	cr_assert_eq(w.dev[0].state, DEVWATCH_RESET, "counters went backwards");
	cr_assert(w.dev[0].row.reset);
	devwatch_sample(&w, small2, 500 * CS);
	cr_assert_eq(w.dev[0].state, DEVWATCH_OK);
	cr_assert_eq(w.dev[0].row.r_s, 10, "10 reads in 1 s");
}

/* Plain rows: only the devices with a row this interval (OK or RESET), in watch order. */
Test(devwatch, rows_leave_out_devices_without_an_interval)
{
	static struct devwatch w;
	static const char only_vda[] = " 254       0 vda 1 0 8 1 0 0 0 0 0 1 1\n";
	struct iostat_dev_row rows[DEVWATCH_MAX];

	devwatch_reset(&w, proc_path);
	devwatch_watch(&w, "loop0", 7, 0);
	devwatch_watch(&w, "vda", 254, 0);
	devwatch_sample(&w, P_DISKSTATS[0], 100 * CS);
	cr_assert_eq(devwatch_rows(&w, rows, DEVWATCH_MAX), 0, "baseline only: no rows");
	devwatch_sample(&w, P_DISKSTATS[1], 200 * CS);
	cr_assert_eq(devwatch_rows(&w, rows, DEVWATCH_MAX), 2);
	cr_assert_str_eq(rows[0].name, "loop0");
	cr_assert_eq(rows[1].row, &w.dev[1].row, "rows point into the watch");
	cr_assert_eq(devwatch_rows(&w, rows, 1), 1, "at most max");
	devwatch_sample(&w, only_vda, 300 * CS);
	cr_assert_eq(w.dev[0].state, DEVWATCH_MISSING);
	cr_assert_eq(w.dev[1].state, DEVWATCH_RESET);
	cr_assert_eq(devwatch_rows(&w, rows, DEVWATCH_MAX), 1, "missing left out, reset kept");
	cr_assert_str_eq(rows[0].name, "vda");
	cr_assert(rows[0].row->reset);
}

Test(devwatch, unreadable_file_is_an_error)
{
	static struct devwatch w;

	devwatch_reset(&w, "/nonexistent/diskstats");
	devwatch_watch(&w, "vda", 254, 0);
	cr_assert_eq(devwatch_sample(&w, NULL, 0), -ENOENT);
}

/* Several targets, none on a block device and no names: refused like one such target. */
Test(devwatch, for_paths_without_devices_is_refused)
{
	static struct devwatch w;
	static const char *const paths[] = { "/proc", "/sys" };
	char msg[256] = "";

	cr_assert_eq(devwatch_for_paths(&w, paths, 2, NULL, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "--iostat: "), "%s", msg);
	cr_assert_eq(w.ndev, 0);
}
