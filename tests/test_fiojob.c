/* Unit tests for src/disk/fiojob.c: iostat numbers → fio job parameters and text. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "fiojob.h"

static struct fiojob_dev mixed(void)
{
	struct fiojob_dev d = { .name = "sdb", .max_sectors_kb = 1280 };

	d.row.r_s = 139.99;
	d.row.rkb_s = 2239.92;
	d.row.w_s = 60.0;
	d.row.wkb_s = 479.98;
	d.row.aqu_sz = 3.6;
	return d;
}

Test(fiojob, mixed_load_parameters)
{
	struct fiojob_dev d = mixed();
	struct fiojob_params p;

	cr_assert_eq(fiojob_derive(&d, &p), 0);
	cr_assert_eq(p.rbs, 16384);
	cr_assert_eq(p.wbs, 8192);
	cr_assert_eq(p.rwmixread, 70);
	cr_assert_eq(p.rate_r, 140);
	cr_assert_eq(p.rate_w, 60);
	cr_assert_eq(p.iodepth, 8, "aqu-sz 3.6 on a device with idle time: twice, rounded up");
	cr_assert_eq(p.fdatasync, 0);
}

Test(fiojob, flushes_counted_as_empty_writes_are_removed)
{
	/* 70 writes/s of 256 KiB with fdatasync on a write-back cache: w/s 140, f/s 70 */
	struct fiojob_dev d = { .name = "loop0" };
	struct fiojob_params p;

	d.row.w_s = 140;
	d.row.wkb_s = 70 * 256;
	d.row.f_s = 70;
	d.row.aqu_sz = 0.9;
	cr_assert_eq(fiojob_derive(&d, &p), 0);
	cr_assert_float_eq(p.writes, 70, 1e-9);
	cr_assert_eq(p.wbs, 256 * 1024, "the data size, not the halved mean");
	cr_assert_eq(p.fdatasync, 1);
	cr_assert_eq(p.rwmixread, 0);
	cr_assert_eq(p.iodepth, 2, "aqu-sz 0.9 on a device with idle time: twice, rounded up");
}

Test(fiojob, idle_device_has_nothing_to_imitate)
{
	struct fiojob_dev d = { .name = "sdc" };
	struct fiojob_params p;
	struct sbuf sb = SBUF_INIT;

	d.row.r_s = 0.2;
	d.row.rkb_s = 0.8;
	cr_assert_eq(fiojob_derive(&d, &p), -ENODATA);
	cr_assert_eq(fiojob_section(&sb, &d), -ENODATA);
	cr_assert_eq(sb.len, 0);
}

Test(fiojob, sizes_round_to_sectors)
{
	struct fiojob_dev d = { .name = "sdb" };
	struct fiojob_params p;

	d.row.r_s = 100;
	d.row.rkb_s = 100 * 4.1; /* 4.1 kB mean: 4198 bytes, 8 sectors */
	cr_assert_eq(fiojob_derive(&d, &p), 0);
	cr_assert_eq(p.rbs, 4096);
	d.row.rkb_s = 100 * 0.1; /* below one sector: one sector */
	cr_assert_eq(fiojob_derive(&d, &p), 0);
	cr_assert_eq(p.rbs, 512);
}

Test(fiojob, writes_never_target_the_observed_device)
{
	struct fiojob_dev d = mixed();
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(fiojob_section(&sb, &d), 0);
	cr_assert(strstr(sbuf_str(&sb), "filename=" FIOJOB_PLACEHOLDER "\n"));
	cr_assert(!strstr(sbuf_str(&sb), "/dev/sdb"));
	cr_assert(strstr(sbuf_str(&sb), "[sdb]\n"));
	cr_assert(strstr(sbuf_str(&sb), "rw=randrw\nrwmixread=70\nbs=16384,8192\n"
			 "rate_iops=140,60\niodepth=8\n"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(fiojob, read_only_job_reads_the_device)
{
	struct fiojob_dev d = { .name = "nvme0n1" };
	struct sbuf sb = SBUF_INIT;

	d.row.r_s = 500;
	d.row.rkb_s = 500 * 4;
	d.row.aqu_sz = 0.4;
	cr_assert_eq(fiojob_section(&sb, &d), 0);
	cr_assert(strstr(sbuf_str(&sb), "fio --readonly JOBFILE to have fio refuse any\n; write\n"
			 "filename=/dev/nvme0n1\nrw=randread\n"
			 "bs=4096\nrate_iops=500\niodepth=1\n"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* A device busy all the time with a queue ran at its own limit: a rate_iops there lets the
 * copy's queue drain (measured: aqu-sz 3.44 for 3.99, r_await 17.5 for 20.3 ms), so the job is
 * unpaced and the rate a comment; a busy device without a queue, or one with idle time, keeps
 * its pace. */
Test(fiojob, saturated_device_is_unpaced)
{
	static const struct { double aqu, util; bool unpaced; } cases[] = {
		{ 3.98, 100, true }, { 0.97, 99, true }, { 0.75, 90, true },
		{ 0.6, 95, false }, { 3.6, 89, false }, { 0.67, 50, false },
	};
	struct fiojob_dev d = { .name = "loop13" };
	struct fiojob_params p;
	struct sbuf sb = SBUF_INIT;

	d.row.r_s = 193.4;
	d.row.rkb_s = 193.4 * 16;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d.row.aqu_sz = cases[i].aqu;
		d.row.util = cases[i].util;
		cr_assert_eq(fiojob_derive(&d, &p), 0);
		cr_assert_eq(p.unpaced, cases[i].unpaced, "aqu-sz %.2f at %.0f %%", cases[i].aqu,
			     cases[i].util);
	}
	d.row.aqu_sz = 3.98;
	d.row.util = 100;
	cr_assert_eq(fiojob_section(&sb, &d), 0);
	cr_assert(strstr(sbuf_str(&sb), "rw=randread\nbs=16384\n; rate_iops=193\niodepth=4\n"),
		  "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "so the job is unpaced"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	d.row.util = 60;
	cr_assert_eq(fiojob_section(&sb, &d), 0);
	cr_assert(strstr(sbuf_str(&sb), "\nrate_iops=193\niodepth=8\n"), "%s", sbuf_str(&sb));
	cr_assert(!strstr(sbuf_str(&sb), "unpaced"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(fiojob, caveats_follow_the_numbers)
{
	struct fiojob_dev d = mixed();
	struct sbuf sb = SBUF_INIT;

	d.row.wrqm_pct = 60;
	d.max_sectors_kb = 16;
	d.row.f_s = 30;
	d.row.w_s = 90; /* 60 data writes + 30 empty flush writes */
	cr_assert_eq(fiojob_section(&sb, &d), 0);
	cr_assert(strstr(sbuf_str(&sb), "were merged"));
	cr_assert(strstr(sbuf_str(&sb), "near max_sectors_kb (16)"));
	cr_assert(strstr(sbuf_str(&sb), "fdatasync=2\n"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(fiojob, global_section)
{
	struct sbuf sb = SBUF_INIT;

	fiojob_global(&sb, 4.6, "ioprobe 9");
	cr_assert(strstr(sbuf_str(&sb), "[global]\nioengine=libaio\ndirect=1\ntime_based=1\n"
			 "runtime=5\n"));
	cr_assert(strstr(sbuf_str(&sb), "4.6 s, written by ioprobe 9 --fio-job"));
	sbuf_free(&sb);
}

/* The queue the copy reproduces (issue 24): on a device busy all the time, a saturated serial
 * device (aqu-sz 0.97-1.01) and a saturated depth 4 (3.9-4.05) keep their depth (twice aqu-sz
 * doubled the queue and await); with idle time, twice aqu-sz leaves room for overlaps. */
Test(fiojob, iodepth_is_the_observed_queue)
{
	static const struct { double aqu, util; unsigned depth; } cases[] = {
		{ 0, 100, 1 }, { 0.3, 95, 1 }, { 0.97, 99, 1 }, { 1.01, 100, 1 }, { 1.24, 100, 1 },
		{ 1.46, 100, 2 }, { 3.6, 100, 4 }, { 3.9, 100, 4 }, { 4.05, 100, 4 },
		{ 4.5, 100, 5 }, { 31.9, 100, 32 },
		{ 0.02, 2, 1 }, { 0.67, 50, 2 }, { 0.9, 89, 2 }, { 3.6, 60, 8 },
	};
	struct fiojob_dev d = { .name = "loop0" };
	struct fiojob_params p;

	d.row.r_s = 100;
	d.row.rkb_s = 400;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d.row.aqu_sz = cases[i].aqu;
		d.row.util = cases[i].util;
		cr_assert_eq(fiojob_derive(&d, &p), 0);
		cr_assert_eq(p.iodepth, cases[i].depth, "aqu-sz %.2f at %.0f %%: iodepth %u, want %u",
			     cases[i].aqu, cases[i].util, p.iodepth, cases[i].depth);
	}
}
