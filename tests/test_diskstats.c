#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"

#include "fixture_diskstats.h"

/* Real lines: a 6.18 kernel (20 columns) and the doc's worked example. */
#define L20_VDA " 254       0 vda 130715 9986 6548419 47933 50391 10888 173927488 563912 0 55484 " \
		"622494 8327 70 173361640 10510 3612 138"
#define L20_SDA "254 0 sda 207719 8031 13925634 17324 12877 7247 2578304 8419 0 13364 26053 " \
		"4054 51 672048 264 1466 44"
/* 4.18 - 5.4: discard fields, no flush (18 columns). */
#define L18_NVME " 259       0 nvme0n1 411020 2412 25431288 95348 1522416 716280 61034512 " \
		 "2245108 0 1001324 2361700 10250 0 230844144 1288"
/* 2.6.25 - 4.17: 14 columns. */
#define L14_SDA1 "   8       1 sda1 19383 1431 1109150 36204 3520 4396 63672 20352 0 29176 56556"
/* Before 2.6.25, partitions: 7 columns (iostats.rst's example). */
#define L7_HDA1 "   3    1 hda1 35486 38030 38030 38030"

/* The /proc/diskstats iostat read on the development VM (the shared fixture's first sample). */
#define PROC_TEXT P_DISKSTATS[0]

static void expect_fields(const struct disk_counters *c, const uint64_t *want, unsigned n)
{
	for (unsigned i = 0; i < DISKSTATS_NFIELDS; i++)
		cr_expect_eq(c->v[i], i < n ? want[i] : 0, "field %u: %llu", i + 1,
			     (unsigned long long)c->v[i]);
}

Test(diskstats, line_20_columns)
{
	static const uint64_t want[] = { 130715, 9986, 6548419, 47933, 50391, 10888, 173927488,
					 563912, 0, 55484, 622494, 8327, 70, 173361640, 10510,
					 3612, 138 };
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line(L20_VDA, &c), 0);
	cr_assert_eq(c.major, 254);
	cr_assert_eq(c.minor, 0);
	cr_assert_str_eq(c.name, "vda");
	cr_assert_eq(c.nfields, 17);
	expect_fields(&c, want, 17);
	cr_assert_eq(c.v[DS_FL_IOS], 3612);
	cr_assert_eq(c.v[DS_TIME_IN_QUEUE], 622494);
}

Test(diskstats, line_18_columns)
{
	static const uint64_t want[] = { 411020, 2412, 25431288, 95348, 1522416, 716280,
					 61034512, 2245108, 0, 1001324, 2361700, 10250, 0,
					 230844144, 1288 };
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line(L18_NVME, &c), 0);
	cr_assert_eq(c.major, 259);
	cr_assert_str_eq(c.name, "nvme0n1");
	cr_assert_eq(c.nfields, 15);
	expect_fields(&c, want, 15);
}

Test(diskstats, line_14_columns)
{
	static const uint64_t want[] = { 19383, 1431, 1109150, 36204, 3520, 4396, 63672, 20352,
					 0, 29176, 56556 };
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line(L14_SDA1, &c), 0);
	cr_assert_eq(c.major, 8);
	cr_assert_eq(c.minor, 1);
	cr_assert_str_eq(c.name, "sda1");
	cr_assert_eq(c.nfields, 11);
	expect_fields(&c, want, 11);
}

Test(diskstats, line_7_columns_old_partition)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line(L7_HDA1, &c), 0);
	cr_assert_eq(c.major, 3);
	cr_assert_eq(c.minor, 1);
	cr_assert_str_eq(c.name, "hda1");
	cr_assert_eq(c.nfields, 4);
	cr_assert_eq(c.v[DS_RD_IOS], 35486);
	cr_assert_eq(c.v[DS_RD_SECTORS], 38030);
	cr_assert_eq(c.v[DS_WR_IOS], 38030);
	cr_assert_eq(c.v[DS_WR_SECTORS], 38030);
	cr_assert_eq(c.v[DS_RD_MERGES], 0);
	cr_assert_eq(c.v[DS_RD_TICKS], 0);
	cr_assert_eq(c.v[DS_WR_MERGES], 0);
	cr_assert_eq(c.v[DS_IO_TICKS], 0);
}

Test(diskstats, in_between_counts_fill_the_tail_with_zero)
{
	struct disk_counters c;

	/* 16 statistics (19 columns): flush count without its time */
	cr_assert_eq(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &c), 0);
	cr_assert_eq(c.nfields, 16);
	cr_assert_eq(c.v[DS_FL_IOS], 16);
	cr_assert_eq(c.v[DS_FL_TICKS], 0);
	/* 12 statistics */
	cr_assert_eq(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12", &c), 0);
	cr_assert_eq(c.nfields, 12);
	cr_assert_eq(c.v[DS_DC_IOS], 12);
	cr_assert_eq(c.v[DS_DC_SECTORS], 0);
}

Test(diskstats, extra_columns_of_a_future_kernel_are_ignored)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line(L20_SDA " 99 98 97", &c), 0);
	cr_assert_eq(c.nfields, 17);
	cr_assert_eq(c.v[DS_FL_TICKS], 44);
	cr_assert_eq(c.v[DS_RD_IOS], 207719);
}

Test(diskstats, blanks_newline_and_carriage_return)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line("\t 8\t0   sda 1 2 3 4 5 6 7 8 9 10 11  \r\n", &c), 0);
	cr_assert_str_eq(c.name, "sda");
	cr_assert_eq(c.nfields, 11);
	cr_assert_eq(c.v[DS_TIME_IN_QUEUE], 11);
	/* parsing stops at the first newline: the next line is not read */
	cr_assert_eq(diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n12 13 14 15", &c), 0);
	cr_assert_eq(c.nfields, 11);
}

Test(diskstats, full_range_numbers)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_line("4095 1048575 sdzz 18446744073709551615 0 0 4294967295 "
					  "0 0 0 4294967295 4294967295 4294967295 4294967295",
					  &c), 0);
	cr_assert_eq(c.major, 4095);
	cr_assert_eq(c.minor, 1048575);
	cr_assert_eq(c.v[DS_RD_IOS], UINT64_MAX);
	cr_assert_eq(c.v[DS_RD_TICKS], 4294967295u);
	cr_assert_eq(c.v[DS_TIME_IN_QUEUE], 4294967295u);
}

Test(diskstats, malformed_lines_are_rejected_and_zeroed)
{
	static const char *const bad[] = {
		"",
		"   \n",
		"8 0",
		"8 0 sda",                                   /* 3 columns */
		"8 0 sda 1 2 3",                             /* 6 */
		"8 0 sda 1 2 3 4 5",                         /* 8 */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10",              /* 13 */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 x",            /* non-digit */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 -1",           /* negative */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 1.5",
		"8 0 sda 18446744073709551616 2 3 4 5 6 7 8 9 10 11", /* u64 overflow */
		"4294967296 0 sda 1 2 3 4 5 6 7 8 9 10 11",  /* major overflow */
		"8 -1 sda 1 2 3 4 5 6 7 8 9 10 11",
		"a 0 sda 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 1 2 3 4 5 6 7 8 9 10 11",               /* name missing: 13 columns */
		"8 0 sda 0x1 2 3 4 5 6 7 8 9 10 11",
		"8 0 sda +1 2 3 4 5 6 7 8 9 10 11",
	};
	struct disk_counters c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0x5a, sizeof(c));
		cr_expect_eq(diskstats_parse_line(bad[i], &c), -EINVAL, "accepted \"%s\"", bad[i]);
		cr_expect_eq(c.nfields, 0, "\"%s\" left nfields", bad[i]);
		cr_expect_eq(c.name[0], '\0');
		cr_expect_eq(c.v[0], 0);
	}
	cr_assert_eq(diskstats_parse_line(NULL, &c), -EINVAL);
	cr_assert_eq(diskstats_parse_line(L20_SDA, NULL), -EINVAL);
}

Test(diskstats, name_length_limit)
{
	char line[256], name[DISKSTATS_NAME_LEN + 1];
	struct disk_counters c;

	memset(name, 'n', DISKSTATS_NAME_LEN - 1);
	name[DISKSTATS_NAME_LEN - 1] = '\0';
	snprintf(line, sizeof(line), "8 0 %s 1 2 3 4 5 6 7 8 9 10 11", name);
	cr_assert_eq(diskstats_parse_line(line, &c), 0);
	cr_assert_str_eq(c.name, name);
	memset(name, 'n', DISKSTATS_NAME_LEN);
	name[DISKSTATS_NAME_LEN] = '\0';
	snprintf(line, sizeof(line), "8 0 %s 1 2 3 4 5 6 7 8 9 10 11", name);
	cr_assert_eq(diskstats_parse_line(line, &c), -EINVAL);
}

Test(diskstats, parse_whole_proc_text)
{
	struct disk_counters c[16];

	cr_assert_eq(diskstats_parse(PROC_TEXT, c, 16), 10);
	cr_assert_str_eq(c[0].name, "loop0");
	cr_assert_eq(c[0].v[DS_RD_SECTORS], 2117418);
	cr_assert_str_eq(c[7].name, "loop7");
	cr_assert_str_eq(c[8].name, "vda");
	cr_assert_eq(c[8].major, 254);
	cr_assert_eq(c[8].v[DS_WR_SECTORS], 173927488);
	cr_assert_str_eq(c[9].name, "zram0");
	cr_assert_eq(c[9].major, 253);
	for (int i = 0; i < 10; i++)
		cr_assert_eq(c[i].nfields, 17);
}

Test(diskstats, parse_into_a_small_array_reports_the_total)
{
	struct disk_counters *c = malloc(3 * sizeof(*c)); /* exact size: ASan sees overruns */

	cr_assert_not_null(c);
	cr_assert_eq(diskstats_parse(PROC_TEXT, c, 3), 10);
	cr_assert_str_eq(c[2].name, "loop2");
	cr_assert_eq(diskstats_parse(PROC_TEXT, NULL, 0), 10);
	cr_assert_eq(diskstats_parse("", c, 3), 0);
	cr_assert_eq(diskstats_parse(NULL, c, 3), -EINVAL);
	free(c);
}

static int count_cb(const struct disk_counters *c, void *arg)
{
	(void)c;
	(*(int *)arg)++;
	return 0;
}

static int stop_at_vda(const struct disk_counters *c, void *arg)
{
	(*(int *)arg)++;
	return strcmp(c->name, "vda") == 0 ? 42 : 0;
}

Test(diskstats, foreach_skips_blank_and_malformed_lines)
{
	const char *text = "\n" L20_SDA "\n  \ngarbage here\n" L7_HDA1 "\n8 1 sda1 1 2\n" L14_SDA1;
	size_t nbad = 99;
	int n = 0;

	cr_assert_eq(diskstats_foreach(text, count_cb, &n, &nbad), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(nbad, 2);
	cr_assert_eq(diskstats_foreach(text, count_cb, &n, NULL), 0);
	cr_assert_eq(diskstats_foreach(NULL, count_cb, &n, &nbad), -EINVAL);
	cr_assert_eq(diskstats_foreach(text, NULL, &n, &nbad), -EINVAL);
}

Test(diskstats, foreach_callback_stops_the_walk)
{
	int n = 0;

	cr_assert_eq(diskstats_foreach(PROC_TEXT, stop_at_vda, &n, NULL), 42);
	cr_assert_eq(n, 9);
}

Test(diskstats, find_by_devno_and_name)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_find(PROC_TEXT, 254, 0, &c), 0);
	cr_assert_str_eq(c.name, "vda");
	cr_assert_eq(c.v[DS_RD_IOS], 130715);
	cr_assert_eq(diskstats_find(PROC_TEXT, 7, 3, &c), 0);
	cr_assert_str_eq(c.name, "loop3");
	cr_assert_eq(diskstats_find_name(PROC_TEXT, "zram0", &c), 0);
	cr_assert_eq(c.major, 253);
	cr_assert_eq(diskstats_find(PROC_TEXT, 8, 0, &c), -ENOENT);
	cr_assert_eq(diskstats_find_name(PROC_TEXT, "vd", &c), -ENOENT);
	cr_assert_eq(diskstats_find_name(PROC_TEXT, "vdaa", &c), -ENOENT);
	cr_assert_eq(diskstats_find_name(PROC_TEXT, NULL, &c), -EINVAL);
	cr_assert_eq(diskstats_find(NULL, 8, 0, &c), -EINVAL);
}

Test(diskstats, find_first_match_wins_and_last_line_without_newline)
{
	const char *text = "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 0 sda 9 2 3 4 5 6 7 8 9 10 11\n"
			   "8 16 sdb 5 40 0 0";
	struct disk_counters c;

	cr_assert_eq(diskstats_find(text, 8, 0, &c), 0);
	cr_assert_eq(c.v[DS_RD_IOS], 1);
	cr_assert_eq(diskstats_find_name(text, "sdb", &c), 0);
	cr_assert_eq(c.nfields, 4);
	cr_assert_eq(c.v[DS_RD_SECTORS], 40);
}

Test(diskstats, sysfs_stat_17_fields_real)
{
	static const uint64_t want[] = { 131315, 9986, 6625219, 47992, 50753, 10988, 174236808,
					 564157, 0, 55644, 622798, 8329, 70, 173361656, 10511,
					 3613, 138 };
	struct disk_counters c;

	memset(&c, 0x5a, sizeof(c));
	cr_assert_eq(diskstats_parse_sysfs_stat("  131315     9986  6625219    47992    50753    "
						"10988 174236808   564157        0    55644   "
						"622798     8329       70 173361656    10511     "
						"3613      138\n", &c), 0);
	cr_assert_eq(c.nfields, 17);
	cr_assert_eq(c.major, 0);
	cr_assert_eq(c.minor, 0);
	cr_assert_str_eq(c.name, "");
	expect_fields(&c, want, 17);
}

Test(diskstats, sysfs_stat_11_15_and_4_fields)
{
	struct disk_counters c;

	cr_assert_eq(diskstats_parse_sysfs_stat("1 2 3 4 5 6 7 8 9 10 11\n", &c), 0);
	cr_assert_eq(c.nfields, 11);
	cr_assert_eq(c.v[DS_TIME_IN_QUEUE], 11);
	cr_assert_eq(diskstats_parse_sysfs_stat("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &c), 0);
	cr_assert_eq(c.nfields, 15);
	cr_assert_eq(c.v[DS_DC_TICKS], 15);
	cr_assert_eq(c.v[DS_FL_IOS], 0);
	cr_assert_eq(diskstats_parse_sysfs_stat("  35486  38030  38030  38030\n", &c), 0);
	cr_assert_eq(c.nfields, 4);
	cr_assert_eq(c.v[DS_WR_IOS], 38030);
	cr_assert_eq(c.v[DS_RD_MERGES], 0);
}

Test(diskstats, sysfs_stat_malformed)
{
	static const char *const bad[] = {
		"", "\n", "1 2 3 4 5 6 7 8 9 10\n", "1 2 3\n", "1 2 3 4 5\n",
		"1 2 3 4 5 6 7 8 9 10 x\n", "1 2 3 4 5 6 7 8 9 10 11\n12\n",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
	};
	struct disk_counters c;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(diskstats_parse_sysfs_stat(bad[i], &c), -EINVAL, "accepted \"%s\"", bad[i]);
		cr_expect_eq(c.nfields, 0);
	}
	cr_assert_eq(diskstats_parse_sysfs_stat(NULL, &c), -EINVAL);
	cr_assert_eq(diskstats_parse_sysfs_stat("1 2 3 4", NULL), -EINVAL);
}

/* Read a whole fixture file (tests run with tests/ as the working directory). */
static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "cannot open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

Test(diskstats, sysfs_stat_fixture_files_disk_and_partition)
{
	const char *disk = "fixtures/sysfs-sata/devices/pci0000:00/0000:00:1f.2/ata1/host0/"
			   "target0:0:0/0:0:0:0/block/sda";
	char path[512];
	struct disk_counters c;

	snprintf(path, sizeof(path), "%s/stat", disk);
	cr_assert_eq(diskstats_parse_sysfs_stat(slurp(path), &c), 0);
	cr_assert_eq(c.nfields, 17);
	cr_assert_eq(c.v[DS_RD_IOS], 207719);
	cr_assert_eq(c.v[DS_FL_TICKS], 44);
	snprintf(path, sizeof(path), "%s/sda1/stat", disk);
	cr_assert_eq(diskstats_parse_sysfs_stat(slurp(path), &c), 0);
	cr_assert_eq(c.v[DS_RD_SECTORS], 12562);
	cr_assert_eq(c.v[DS_FL_IOS], 0);  /* flushes are not tracked for partitions */
}

Test(diskstats, u32_field_classification)
{
	static const unsigned u32[] = { DS_RD_TICKS, DS_WR_TICKS, DS_IN_FLIGHT, DS_IO_TICKS,
					DS_TIME_IN_QUEUE, DS_DC_TICKS, DS_FL_TICKS };
	unsigned n = 0;

	for (unsigned f = 0; f < DISKSTATS_NFIELDS; f++)
		n += diskstats_field_is_u32(f);
	cr_assert_eq(n, 7);
	for (size_t i = 0; i < sizeof(u32) / sizeof(u32[0]); i++)
		cr_assert(diskstats_field_is_u32(u32[i]));
	cr_assert_not(diskstats_field_is_u32(DS_RD_SECTORS));
	cr_assert_not(diskstats_field_is_u32(DS_FL_IOS));
	cr_assert_eq(DS_FL_TICKS, 16);
}
