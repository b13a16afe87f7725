/*
 * Tests for tui/tui_iostat.c (its pure part): which devices of a stack the
 * panel shows, and the per-device states and columns from successive
 * /proc/diskstats texts (initializing, ok, reset, stale), plus the probe's
 * rate over the same interval.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "tui_iostat.h"

#define SEC UINT64_C(1000000000)

/* loop0 over a file on vda1, a partition of vda. */
static void make_stack(struct devstack *ds)
{
	memset(ds, 0, sizeof(*ds));
	ds->major = 7;
	ds->ndev = 3;
	ds->dev[0] = (struct devstack_dev){ .major = 7, .minor = 0, .name = "loop0",
					    .kind = DEVSTACK_LOOP, .rotational = 0,
					    .max_sectors_kb = 127, .parent = -1 };
	snprintf(ds->dev[0].backing_file, sizeof(ds->dev[0].backing_file), "/var/img/disk.img");
	ds->dev[1] = (struct devstack_dev){ .major = 254, .minor = 1, .name = "vda1",
					    .kind = DEVSTACK_PARTITION, .rotational = 1,
					    .depth = 1, .parent = 0 };
	ds->dev[2] = (struct devstack_dev){ .major = 254, .minor = 0, .name = "vda",
					    .kind = DEVSTACK_DISK, .rotational = 1,
					    .max_sectors_kb = 1280, .depth = 2, .parent = 1 };
	ds->nleaves = 1;
	ds->leaf[0] = 2;
}

/* A /proc/diskstats text: loop0 with reads r, sectors 8r, ticks t; vda idle. */
static void text(char *buf, size_t len, unsigned long r, unsigned long ticks, bool with_vda)
{
	snprintf(buf, len,
		 "   7       0 loop0 %lu 0 %lu %lu 0 0 0 0 1 %lu %lu 0 0 0 0 0 0\n"
		 " 254       1 vda1 5 0 40 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
		 "%s",
		 r, 8 * r, ticks, ticks, ticks,
		 with_vda ? " 254       0 vda 10 0 80 2 4 0 32 4 0 5 6 0 0 0 0 0 0\n" : "");
}

Test(tui_iostat, top_and_leaves)
{
	static struct devstack ds;
	static struct tui_iostat io;

	make_stack(&ds);
	tui_iostat_setup(&io, &ds);
	cr_assert_not(io.no_blockdev);
	cr_assert_eq(io.ndev, 2, "top and leaf, not the partition in between");
	cr_assert_str_eq(io.dev[0].name, "loop0");
	cr_assert(io.dev[0].top);
	cr_assert_not(io.dev[0].leaf);
	cr_assert_str_eq(io.dev[0].kind, "loop");
	cr_assert_str_eq(io.dev[0].detail, "/var/img/disk.img");
	cr_assert_str_eq(io.dev[1].name, "vda");
	cr_assert(io.dev[1].leaf);
	cr_assert_eq(io.dev[1].max_sectors_kb, 1280);
	cr_assert_eq(io.dev[1].rotational, 1);
	cr_assert_eq(io.dev[1].state, TUI_IO_INIT);
	cr_assert_not_null(strstr(io.stack, "loop0"), "%s", io.stack);
	cr_assert_not_null(strstr(io.stack, "vda"), "%s", io.stack);
	cr_assert_eq(tui_iostat_selected(&io), &io.dev[0]);
	tui_iostat_next(&io);
	cr_assert_eq(tui_iostat_selected(&io), &io.dev[1]);
	tui_iostat_next(&io);
	cr_assert_eq(tui_iostat_selected(&io), &io.dev[0], "wraps around");
}

Test(tui_iostat, single_disk_is_top_and_leaf)
{
	static struct devstack ds;
	static struct tui_iostat io;

	make_stack(&ds);
	ds.ndev = 1;
	ds.dev[0] = ds.dev[2];
	ds.dev[0].parent = -1;
	ds.leaf[0] = 0;
	tui_iostat_setup(&io, &ds);
	cr_assert_eq(io.ndev, 1);
	cr_assert(io.dev[0].top && io.dev[0].leaf);
}

Test(tui_iostat, no_block_device)
{
	static struct devstack ds;
	static struct tui_iostat io;

	memset(&ds, 0, sizeof(ds));
	ds.no_blockdev = true;
	snprintf(ds.fstype, sizeof(ds.fstype), "tmpfs");
	snprintf(ds.source, sizeof(ds.source), "tmpfs");
	snprintf(ds.mount_point, sizeof(ds.mount_point), "/tmp");
	tui_iostat_setup(&io, &ds);
	cr_assert(io.no_blockdev);
	cr_assert_eq(io.ndev, 0);
	cr_assert_null(tui_iostat_selected(&io));
	cr_assert_not_null(strstr(io.stack, "no block device"), "%s", io.stack);
	tui_iostat_next(&io);
	tui_iostat_update(&io, "   7 0 loop0 1 0 8 1 0 0 0 0 0 1 1\n", SEC, 0);
	tui_iostat_setup(&io, NULL);
	cr_assert(io.no_blockdev);
	cr_assert_str_eq(io.stack, "no block device");
}

Test(tui_iostat, states_and_columns)
{
	static struct devstack ds;
	static struct tui_iostat io;
	char t[1024];

	make_stack(&ds);
	tui_iostat_setup(&io, &ds);
	text(t, sizeof(t), 100, 10, true);
	tui_iostat_update(&io, t, 100 * SEC, 0);
	cr_assert_eq(io.dev[0].state, TUI_IO_INIT, "one sample: initializing");
	cr_assert_eq(io.dev[1].state, TUI_IO_INIT);
	cr_assert_str_eq(tui_iostat_state_text(io.dev[0].state), "initializing");

	text(t, sizeof(t), 200, 20, true);
	tui_iostat_update(&io, t, 101 * SEC, 50);
	cr_assert_eq(io.dev[0].state, TUI_IO_OK);
	cr_assert_str_eq(tui_iostat_state_text(io.dev[0].state), "ok");
	cr_assert_float_eq(io.dev[0].row.r_s, 100.0, 1e-9);
	cr_assert_float_eq(io.dev[0].row.rkb_s, 400.0, 1e-9);
	cr_assert_float_eq(io.dev[0].row.r_await, 0.1, 1e-9);
	cr_assert_float_eq(io.dev[0].row.util, 1.0, 1e-9);
	cr_assert_float_eq(io.dev[0].row.avgrq_sz, 8.0, 1e-9);
	cr_assert_eq(io.dev[0].row.interval_ns, SEC);
	cr_assert_eq(io.dev[1].state, TUI_IO_OK);
	cr_assert_float_eq(io.dev[1].row.r_s, 0.0, 1e-9, "vda was idle");
	cr_assert_float_eq(io.probe_tps, 50.0, 1e-9);

	/* counters went backwards (device re-created): reset, values withheld */
	text(t, sizeof(t), 3, 1, true);
	tui_iostat_update(&io, t, 102 * SEC, 100);
	cr_assert_eq(io.dev[0].state, TUI_IO_RESET);
	cr_assert_str_eq(tui_iostat_state_text(io.dev[0].state), "reset");
	cr_assert_float_eq(io.dev[0].row.r_s, 0.0, 1e-9);
	cr_assert_eq(io.dev[1].state, TUI_IO_OK);

	/* the next interval is measured from the new counters */
	text(t, sizeof(t), 13, 2, true);
	tui_iostat_update(&io, t, 104 * SEC, 100);
	cr_assert_eq(io.dev[0].state, TUI_IO_OK);
	cr_assert_float_eq(io.dev[0].row.r_s, 5.0, 1e-9, "10 reads in 2 s");
	cr_assert_float_eq(io.probe_tps, 0.0, 1e-9);

	/* vda vanished from /proc/diskstats: stale */
	text(t, sizeof(t), 14, 2, false);
	tui_iostat_update(&io, t, 105 * SEC, 100);
	cr_assert_eq(io.dev[1].state, TUI_IO_STALE);
	cr_assert_str_eq(tui_iostat_state_text(io.dev[1].state), "stale");
	cr_assert_eq(io.dev[0].state, TUI_IO_OK);

	/* no text at all (the read failed): everything stale */
	tui_iostat_update(&io, NULL, 106 * SEC, 100);
	cr_assert_eq(io.dev[0].state, TUI_IO_STALE);
}

Test(tui_iostat, old_sample_turns_stale)
{
	static struct devstack ds;
	static struct tui_iostat io;
	char t[1024];

	make_stack(&ds);
	tui_iostat_setup(&io, &ds);
	text(t, sizeof(t), 100, 10, true);
	tui_iostat_update(&io, t, 100 * SEC, 0);
	text(t, sizeof(t), 101, 10, false);
	tui_iostat_update(&io, t, 100 * SEC + 5 * SEC + 1, 0);
	cr_assert_eq(io.dev[1].state, TUI_IO_STALE);
	cr_assert_eq(io.dev[0].state, TUI_IO_OK);
}
