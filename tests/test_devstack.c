#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "devstack.h"
#include "sbuf.h"

/* Fixture trees (tests run with tests/ as the working directory). */
#define SATA "fixtures/sysfs-sata"
#define NVME "fixtures/sysfs-nvme"
#define DMMD "fixtures/sysfs-dm-md"
#define LOOP "fixtures/sysfs-loop"
#define BTRFS "fixtures/sysfs-btrfs"
#define CYCLE "fixtures/sysfs-cycle"

#define ARROW " \xe2\x86\x92 "

/* ------------------------------------------------------------ a fake stat() */

struct fake {
	const char *path;
	unsigned dev_major, dev_minor;
	unsigned rdev_major, rdev_minor;
	bool blk;
};

struct fakes {
	const struct fake *f;
	size_t n;
	int calls;
};

static const struct fake MACHINE[] = {
	{ "/var/img/disk.img", 8, 1, 0, 0, false },   /* a file on sda1 */
	{ "/mnt/fuse/img", 0, 39, 0, 0, false },      /* a file on FUSE */
	{ "/dev/sda1", 0, 6, 8, 1, true },            /* device nodes live on devtmpfs 0:6 */
	{ "/dev/sdb1", 0, 6, 8, 17, true },
	{ "/home/u/notes.txt", 0, 99, 0, 0, false },  /* a btrfs subvolume's own anon dev */
	{ "/tmp/x", 0, 50, 0, 0, false },
};

static int fake_stat(void *arg, const char *path, struct devstack_stat *st)
{
	struct fakes *fk = arg;

	fk->calls++;
	for (size_t i = 0; i < fk->n; i++) {
		if (strcmp(fk->f[i].path, path) == 0) {
			memset(st, 0, sizeof(*st));
			st->dev_major = fk->f[i].dev_major;
			st->dev_minor = fk->f[i].dev_minor;
			st->rdev_major = fk->f[i].rdev_major;
			st->rdev_minor = fk->f[i].rdev_minor;
			st->is_blkdev = fk->f[i].blk;
			return 0;
		}
	}
	return -ENOENT;
}

#define FAKES(tab) { tab, ARRAY_SIZE(tab), 0 }

/* The btrfs fixture's mountinfo text. */
static const char *mountinfo(void)
{
	static char buf[8192];
	FILE *f = fopen(BTRFS "/mountinfo", "r");
	size_t n;

	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* struct devstack is large: keep it off the worker's stack. */
static struct devstack *new_ds(void)
{
	struct devstack *ds = malloc(sizeof(*ds));

	cr_assert_not_null(ds);
	memset(ds, 0x5a, sizeof(*ds));
	return ds;
}

static void expect_describe(const struct devstack *ds, const char *want)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(devstack_describe(ds, &sb), 0);
	cr_expect_str_eq(sbuf_str(&sb), want);
	sbuf_free(&sb);
}

/* ------------------------------------------------------------ fixture trees */

Test(devstack, sata_partition_walks_to_its_disk)
{
	struct devstack *ds = new_ds();
	const struct devstack_dev *p, *d;

	cr_assert_eq(devstack_resolve(SATA, NULL, 8, 1, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 2);
	cr_assert_not(ds->no_blockdev);
	cr_assert_not(ds->truncated || ds->cycle || ds->incomplete || ds->via_mountinfo);
	p = &ds->dev[0];
	d = &ds->dev[1];
	cr_assert_str_eq(p->name, "sda1");
	cr_assert_eq(p->kind, DEVSTACK_PARTITION);
	cr_assert_eq(p->major, 8);
	cr_assert_eq(p->minor, 1);
	cr_assert_eq(p->size_bytes, UINT64_C(1048576) * 512);
	/* queue attributes come from the whole disk */
	cr_assert_eq(p->logical_block_size, 512);
	cr_assert_eq(p->physical_block_size, 4096);
	cr_assert_eq(p->rotational, 1);
	cr_assert_str_eq(p->scheduler, "bfq");
	cr_assert_eq(p->max_sectors_kb, 1280);
	cr_assert_eq(p->write_cache, 0, "the whole disk's write_cache");
	cr_assert_eq(p->nr_requests, 64);
	cr_assert_eq(p->depth, 0);
	cr_assert_eq(p->parent, -1);
	cr_assert_str_eq(d->name, "sda");
	cr_assert_eq(d->kind, DEVSTACK_DISK);
	cr_assert_eq(d->minor, 0);
	cr_assert_eq(d->size_bytes, UINT64_C(500118192) * 512);
	cr_assert_str_eq(d->scheduler, "bfq");
	cr_assert_eq(d->depth, 1);
	cr_assert_eq(d->parent, 0);
	cr_assert_eq(ds->nleaves, 1);
	cr_assert_eq(ds->leaf[0], 1);
	expect_describe(ds, "sda1" ARROW "sda");
	free(ds);
}

Test(devstack, whole_disk_is_its_own_leaf)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(SATA, NULL, 8, 0, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 1);
	cr_assert_str_eq(ds->dev[0].name, "sda");
	cr_assert_eq(ds->nleaves, 1);
	cr_assert_eq(ds->leaf[0], 0);
	expect_describe(ds, "sda");
	free(ds);
}

Test(devstack, nvme_partition_names_are_not_digit_stripped)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(NVME, NULL, 259, 2, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 2);
	cr_assert_str_eq(ds->dev[0].name, "nvme0n1p2");
	cr_assert_eq(ds->dev[0].kind, DEVSTACK_PARTITION);
	cr_assert_eq(ds->dev[0].size_bytes, UINT64_C(999164559) * 512);
	cr_assert_str_eq(ds->dev[1].name, "nvme0n1");
	cr_assert_eq(ds->dev[1].major, 259);
	cr_assert_eq(ds->dev[1].minor, 0);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(ds->dev[i].rotational, 0);
		cr_assert_str_eq(ds->dev[i].scheduler, "none");
		cr_assert_eq(ds->dev[i].max_sectors_kb, 128);
		cr_assert_eq(ds->dev[i].nr_requests, 1023);
		cr_assert_eq(ds->dev[i].logical_block_size, 512);
		cr_assert_eq(ds->dev[i].physical_block_size, 512);
	}
	expect_describe(ds, "nvme0n1p2" ARROW "nvme0n1");
	free(ds);
}

Test(devstack, dm_on_md_on_two_disks)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(DMMD, NULL, 253, 0, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 4);
	cr_assert_str_eq(ds->dev[0].name, "dm-0");
	cr_assert_eq(ds->dev[0].kind, DEVSTACK_DM);
	cr_assert_str_eq(ds->dev[0].dm_name, "vg-root");
	cr_assert_str_eq(ds->dev[0].scheduler, "none");
	cr_assert_str_eq(ds->dev[1].name, "md0");
	cr_assert_eq(ds->dev[1].kind, DEVSTACK_MD);
	cr_assert_str_eq(ds->dev[1].md_level, "raid1");
	cr_assert_eq(ds->dev[1].parent, 0);
	cr_assert_str_eq(ds->dev[2].name, "sda");
	cr_assert_str_eq(ds->dev[3].name, "sdb");
	cr_assert_eq(ds->dev[2].parent, 1);
	cr_assert_eq(ds->dev[3].parent, 1);
	cr_assert_eq(ds->dev[3].depth, 2);
	cr_assert_eq(ds->dev[3].max_sectors_kb, 1024);
	cr_assert_eq(ds->dev[3].major, 8);
	cr_assert_eq(ds->dev[3].minor, 16);
	cr_assert_eq(ds->nleaves, 2);
	cr_assert_eq(ds->leaf[0], 2);
	cr_assert_eq(ds->leaf[1], 3);
	expect_describe(ds, "dm-0 (vg-root)" ARROW "md0" ARROW "sda, sdb");
	free(ds);
}

Test(devstack, md_alone)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(DMMD, NULL, 9, 0, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 3);
	cr_assert_eq(ds->dev[0].rotational, 1);
	cr_assert_eq(ds->dev[0].nr_requests, 128);
	expect_describe(ds, "md0" ARROW "sda, sdb");
	free(ds);
}

Test(devstack, loop_on_a_file_on_a_partition)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(LOOP, NULL, 7, 0, fake_stat, &fk, ds), 0);
	cr_assert_eq(fk.calls, 1);
	cr_assert_eq(ds->ndev, 3);
	cr_assert_eq(ds->dev[0].kind, DEVSTACK_LOOP);
	cr_assert_str_eq(ds->dev[0].backing_file, "/var/img/disk.img");
	cr_assert_eq(ds->dev[0].size_bytes, UINT64_C(2097152) * 512);
	cr_assert_eq(ds->dev[0].write_cache, 1, "queue/write_cache \"write back\"");
	cr_assert_str_eq(ds->dev[1].name, "sda1");
	cr_assert_str_eq(ds->dev[2].name, "sda");
	cr_assert_eq(ds->dev[2].write_cache, 0, "queue/write_cache \"write through\"");
	cr_assert_eq(ds->nleaves, 1);
	cr_assert_eq(ds->leaf[0], 2);
	cr_assert_not(ds->incomplete);
	expect_describe(ds, "loop0 (/var/img/disk.img)" ARROW "sda1" ARROW "sda");
	free(ds);
}

Test(devstack, loop_on_fuse_has_no_block_device_below)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(LOOP, mountinfo(), 7, 1, fake_stat, &fk, ds), 0);
	cr_assert_eq(ds->ndev, 1);
	cr_assert(ds->dev[0].no_blockdev_below);
	cr_assert_not(ds->no_blockdev);
	cr_assert_eq(ds->nleaves, 1);
	expect_describe(ds, "loop1 (/mnt/fuse/img: no block device)");
	free(ds);
}

Test(devstack, loop_on_a_major_0_file_resolves_through_mountinfo)
{
	/* the image lives on btrfs (anon 0:45) whose mount source is /dev/sda1 here */
	static const struct fake tab[] = {
		{ "/var/img/disk.img", 0, 45, 0, 0, false },
		{ "/dev/sdb1", 0, 6, 8, 1, true },
	};
	struct fakes fk = FAKES(tab);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(LOOP, mountinfo(), 7, 0, fake_stat, &fk, ds), 0);
	expect_describe(ds, "loop0 (/var/img/disk.img)" ARROW "sda1" ARROW "sda");
	free(ds);
}

Test(devstack, unbound_loop_and_loop_without_stat_callback)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(LOOP, NULL, 7, 2, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 1);
	cr_assert_str_eq(ds->dev[0].backing_file, "");
	cr_assert_not(ds->incomplete);
	expect_describe(ds, "loop2");

	cr_assert_eq(devstack_resolve(LOOP, NULL, 7, 0, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 1);
	cr_assert(ds->incomplete);
	expect_describe(ds, "loop0 (/var/img/disk.img)");
	free(ds);
}

Test(devstack, btrfs_major_0_through_mountinfo)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 45, fake_stat, &fk, ds), 0);
	cr_assert(ds->via_mountinfo);
	cr_assert_eq(ds->major, 0);
	cr_assert_eq(ds->minor, 45);
	cr_assert_str_eq(ds->fstype, "btrfs");
	cr_assert_str_eq(ds->source, "/dev/sdb1");
	cr_assert_str_eq(ds->mount_point, "/");  /* the first line with 0:45 */
	cr_assert_eq(ds->ndev, 2);
	cr_assert_str_eq(ds->dev[0].name, "sdb1");
	cr_assert_eq(ds->dev[0].minor, 17);
	cr_assert_eq(ds->dev[1].max_sectors_kb, 512);
	expect_describe(ds, "sdb1" ARROW "sdb");
	free(ds);
}

Test(devstack, fuse_tmpfs_overlay_have_no_block_device)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 39, fake_stat, &fk, ds), 0);
	cr_assert(ds->no_blockdev);
	cr_assert_eq(ds->ndev, 0);
	cr_assert_eq(ds->nleaves, 0);
	cr_assert_str_eq(ds->fstype, "fuse.sshfs");
	expect_describe(ds, "no block device (fuse.sshfs u@host:/srv on /mnt/fuse)");

	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 50, fake_stat, &fk, ds), 0);
	expect_describe(ds, "no block device (tmpfs tmpfs on /tmp)");
	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 61, fake_stat, &fk, ds), 0);
	expect_describe(ds, "no block device (overlay overlay on /var/lib/docker/overlay2/9f/merged)");
	free(ds);
}

Test(devstack, major_0_unknown_or_without_mountinfo)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 777, fake_stat, &fk, ds), 0);
	cr_assert(ds->no_blockdev);
	expect_describe(ds, "no block device");
	cr_assert_eq(devstack_resolve(BTRFS, NULL, 0, 45, fake_stat, &fk, ds), 0);
	expect_describe(ds, "no block device");
	/* the mount is known, but nothing may be stat()ed */
	cr_assert_eq(devstack_resolve(BTRFS, mountinfo(), 0, 45, NULL, NULL, ds), 0);
	cr_assert(ds->no_blockdev);
	cr_assert_str_eq(ds->fstype, "btrfs");
	free(ds);
}

Test(devstack, path_on_a_subvolume_falls_back_to_the_longest_mount_prefix)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	/* st_dev 0:99 is on no mountinfo line; /home is the longest prefix */
	cr_assert_eq(devstack_resolve_path(BTRFS, mountinfo(), "/home/u/notes.txt", fake_stat, &fk,
					   ds), 0);
	cr_assert(ds->via_mountinfo);
	cr_assert_str_eq(ds->mount_point, "/home");
	expect_describe(ds, "sdb1" ARROW "sdb");
	cr_assert_eq(devstack_resolve_path(BTRFS, mountinfo(), "/tmp/x", fake_stat, &fk, ds), 0);
	expect_describe(ds, "no block device (tmpfs tmpfs on /tmp)");
	free(ds);
}

Test(devstack, block_device_target_is_its_own_top)
{
	struct fakes fk = FAKES(MACHINE);
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve_path(SATA, NULL, "/dev/sda1", fake_stat, &fk, ds), 0);
	cr_assert_eq(ds->major, 8);
	cr_assert_eq(ds->minor, 1);
	expect_describe(ds, "sda1" ARROW "sda");
	cr_assert_eq(devstack_resolve_path(SATA, NULL, "/nope", fake_stat, &fk, ds), -ENOENT);
	cr_assert_eq(devstack_resolve_path(SATA, NULL, "/dev/sda1", NULL, NULL, ds), -EINVAL);
	free(ds);
}

Test(devstack, cycle_is_cut)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(CYCLE, NULL, 253, 1, NULL, NULL, ds), 0);
	cr_assert(ds->cycle);
	cr_assert_eq(ds->ndev, 2);
	cr_assert_str_eq(ds->dev[1].dm_name, "cyc-b");
	expect_describe(ds, "dm-1 (cyc-a)" ARROW "dm-2 (cyc-b) (cycle)");
	free(ds);
}

Test(devstack, unknown_device_and_bad_arguments)
{
	struct devstack *ds = new_ds();

	cr_assert_eq(devstack_resolve(SATA, NULL, 8, 99, NULL, NULL, ds), -ENOENT);
	cr_assert_eq(ds->ndev, 0);
	cr_assert_eq(devstack_resolve("fixtures/no-such-root", NULL, 8, 0, NULL, NULL, ds), -ENOENT);
	cr_assert_eq(devstack_resolve(NULL, NULL, 8, 0, NULL, NULL, ds), -EINVAL);
	cr_assert_eq(devstack_resolve(SATA, NULL, 8, 0, NULL, NULL, NULL), -EINVAL);
	cr_assert_eq(devstack_describe(NULL, NULL), -EINVAL);
	free(ds);
}

/* ------------------------------------------------------------ generated trees */

static char tmproot[64];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmproot, rel);
	for (slash = strchr(path + strlen(tmproot) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "cannot create %s", path);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char path[512];

	put(rel, "");   /* creates the directories */
	snprintf(path, sizeof(path), "%s/%s", tmproot, rel);
	unlink(path);
	cr_assert_eq(symlink(target, path), 0);
}

/* A virtual block device "name" numbered maj:min, with only a dev file. */
static void vdev(const char *name, unsigned maj, unsigned min)
{
	char rel[256], text[32], target[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/dev", name);
	snprintf(text, sizeof(text), "%u:%u\n", maj, min);
	put(rel, text);
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", maj, min);
	snprintf(target, sizeof(target), "../../devices/virtual/block/%s", name);
	link_to(target, rel);
}

/* Make "lower" a slave of "upper" (both virtual). */
static void slave(const char *upper, const char *lower)
{
	char rel[256], target[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/slaves/%s", upper, lower);
	snprintf(target, sizeof(target), "../../%s", lower);
	link_to(target, rel);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void mk_root(void)
{
	strcpy(tmproot, "/tmp/ioprobe-devstack-XXXXXX");
	cr_assert_not_null(mkdtemp(tmproot));
}

static void rm_root(void)
{
	if (tmproot[0])
		nftw(tmproot, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(devstack_gen, .init = mk_root, .fini = rm_root);

Test(devstack_gen, depth_limit)
{
	struct devstack *ds = new_ds();
	char a[16], b[16];

	for (unsigned i = 0; i < 12; i++) {
		snprintf(a, sizeof(a), "dm-%u", i);
		vdev(a, 253, i);
		if (i) {
			snprintf(b, sizeof(b), "dm-%u", i - 1);
			slave(b, a);
		}
	}
	cr_assert_eq(devstack_resolve(tmproot, NULL, 253, 0, NULL, NULL, ds), 0);
	cr_assert(ds->truncated);
	cr_assert_not(ds->cycle);
	cr_assert_eq(ds->ndev, DEVSTACK_MAX_DEPTH);
	cr_assert_eq(ds->dev[DEVSTACK_MAX_DEPTH - 1].depth, DEVSTACK_MAX_DEPTH - 1);
	cr_assert_str_eq(ds->dev[DEVSTACK_MAX_DEPTH - 1].name, "dm-7");
	/* with no attributes: unknowns */
	cr_assert_eq(ds->dev[0].rotational, -1);
	cr_assert_str_eq(ds->dev[0].scheduler, "");
	cr_assert_eq(ds->dev[0].size_bytes, 0);
	cr_assert_eq(ds->dev[0].max_sectors_kb, 0);
	cr_assert_eq(ds->dev[0].kind, DEVSTACK_DISK);  /* no dm/ directory: nothing claimed */
	free(ds);
}

Test(devstack_gen, width_limit)
{
	struct devstack *ds = new_ds();
	char name[16];

	vdev("md9", 9, 9);
	put("devices/virtual/block/md9/md/level", "raid0\n");
	for (unsigned i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "sd%02u", i);
		vdev(name, 8, i * 16);
		slave("md9", name);
	}
	cr_assert_eq(devstack_resolve(tmproot, NULL, 9, 9, NULL, NULL, ds), 0);
	cr_assert(ds->truncated);
	cr_assert_eq(ds->ndev, DEVSTACK_MAX);
	cr_assert_str_eq(ds->dev[1].name, "sd00");   /* slaves are taken in name order */
	cr_assert_str_eq(ds->dev[DEVSTACK_MAX - 1].name, "sd14");
	cr_assert_eq(ds->nleaves, DEVSTACK_MAX - 1);
	free(ds);
}

Test(devstack_gen, shared_disk_is_listed_once)
{
	struct devstack *ds = new_ds();

	/* md0 on two partitions of the same disk */
	put("devices/pci0/block/sda/dev", "8:0\n");
	put("devices/pci0/block/sda/queue/scheduler", "[none]\n");
	put("devices/pci0/block/sda/sda1/dev", "8:1\n");
	put("devices/pci0/block/sda/sda1/partition", "1\n");
	put("devices/pci0/block/sda/sda2/dev", "8:2\n");
	put("devices/pci0/block/sda/sda2/partition", "2\n");
	link_to("../../devices/pci0/block/sda", "dev/block/8:0");
	link_to("../../devices/pci0/block/sda/sda1", "dev/block/8:1");
	link_to("../../devices/pci0/block/sda/sda2", "dev/block/8:2");
	vdev("md0", 9, 0);
	put("devices/virtual/block/md0/md/level", "raid1\n");
	link_to("../../../../pci0/block/sda/sda1", "devices/virtual/block/md0/slaves/sda1");
	link_to("../../../../pci0/block/sda/sda2", "devices/virtual/block/md0/slaves/sda2");
	cr_assert_eq(devstack_resolve(tmproot, NULL, 9, 0, NULL, NULL, ds), 0);
	cr_assert_eq(ds->ndev, 4);
	cr_assert_eq(ds->nleaves, 1);
	cr_assert_str_eq(ds->dev[ds->leaf[0]].name, "sda");
	cr_assert_str_eq(ds->dev[1].scheduler, "none");  /* sda1's queue is sda's */
	cr_assert_not(ds->cycle);
	expect_describe(ds, "md0" ARROW "sda1, sda2" ARROW "sda");
	free(ds);
}

Test(devstack_gen, unreadable_slave_marks_incomplete)
{
	struct devstack *ds = new_ds();

	vdev("dm-0", 253, 0);
	put("devices/virtual/block/dm-0/dm/name", "vg-x\n");
	vdev("sdq", 65, 0);
	slave("dm-0", "sdq");
	put("devices/virtual/block/dm-0/slaves/sdz/placeholder", "");  /* no dev file */
	cr_assert_eq(devstack_resolve(tmproot, NULL, 253, 0, NULL, NULL, ds), 0);
	cr_assert(ds->incomplete);
	cr_assert_eq(ds->ndev, 2);
	expect_describe(ds, "dm-0 (vg-x)" ARROW "sdq");
	free(ds);
}

/* ------------------------------------------------------------ pure parsers */

Test(devstack, parse_devno)
{
	unsigned ma = 1, mi = 1;

	cr_assert_eq(devstack_parse_devno("8:0\n", &ma, &mi), 0);
	cr_assert_eq(ma, 8);
	cr_assert_eq(mi, 0);
	cr_assert_eq(devstack_parse_devno("259:1048575", &ma, &mi), 0);
	cr_assert_eq(mi, 1048575);
	cr_assert_eq(devstack_parse_devno("8:", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno(":0", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno("8 0", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno("8:0x", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno("4294967296:0", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno("", &ma, &mi), -EINVAL);
	cr_assert_eq(devstack_parse_devno(NULL, &ma, &mi), -EINVAL);
}

Test(devstack, parse_u64_and_line)
{
	uint64_t v = 0;
	char out[8];

	cr_assert_eq(devstack_parse_u64("536870912\n", &v), 0);
	cr_assert_eq(v, 536870912);
	cr_assert_eq(devstack_parse_u64("18446744073709551615", &v), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(devstack_parse_u64("18446744073709551616", &v), -EINVAL);
	cr_assert_eq(devstack_parse_u64("-1", &v), -EINVAL);
	cr_assert_eq(devstack_parse_u64("12 34", &v), -EINVAL);
	cr_assert_eq(devstack_parse_u64("\n", &v), -EINVAL);
	cr_assert_eq(devstack_parse_line("vg-root\n", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "vg-root");
	cr_assert_eq(devstack_parse_line("vg-root-long\n", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "vg-root");   /* truncated to fit */
	cr_assert_eq(devstack_parse_line("\n", out, sizeof(out)), -EINVAL);
	cr_assert_eq(devstack_parse_line("", out, sizeof(out)), -EINVAL);
}

Test(devstack, parse_scheduler)
{
	char s[32];

	cr_assert_eq(devstack_parse_scheduler("none [mq-deadline] kyber bfq\n", s, sizeof(s)), 0);
	cr_assert_str_eq(s, "mq-deadline");
	cr_assert_eq(devstack_parse_scheduler("[none] mq-deadline\n", s, sizeof(s)), 0);
	cr_assert_str_eq(s, "none");
	cr_assert_eq(devstack_parse_scheduler("mq-deadline kyber [bfq] none", s, sizeof(s)), 0);
	cr_assert_str_eq(s, "bfq");
	cr_assert_eq(devstack_parse_scheduler("none\n", s, sizeof(s)), 0);
	cr_assert_str_eq(s, "none");
	cr_assert_eq(devstack_parse_scheduler("", s, sizeof(s)), -EINVAL);
	cr_assert_eq(devstack_parse_scheduler("none mq-deadline", s, sizeof(s)), -EINVAL);
	cr_assert_eq(devstack_parse_scheduler("[none", s, sizeof(s)), -EINVAL);
	cr_assert_eq(devstack_parse_scheduler("none]", s, sizeof(s)), -EINVAL);
	cr_assert_eq(devstack_parse_scheduler("[] x", s, sizeof(s)), -EINVAL);
	cr_assert_eq(devstack_parse_scheduler("[a] [b]", s, sizeof(s)), -EINVAL);
}

/* ------------------------------------------------------------ the real machine */

Test(devstack, real_machine_smoke)
{
	struct devstack *ds = new_ds();
	struct sbuf sb = SBUF_INIT;
	char mi[65536], cwd[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	size_t n = 0;
	int r;

	if (f) {
		n = fread(mi, 1, sizeof(mi) - 1, f);
		fclose(f);
	}
	mi[n] = '\0';
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	r = devstack_resolve_path("/sys", mi, cwd, devstack_stat_path, NULL, ds);
	if (r == -ENOENT)   /* no sysfs in this sandbox */
		cr_skip_test("no /sys/dev/block entry");
	cr_assert_eq(r, 0);
	cr_assert_eq(devstack_describe(ds, &sb), 0);
	cr_assert_gt(sb.len, 0);
	cr_log_info("%s: %s", cwd, sbuf_str(&sb));
	sbuf_free(&sb);
	free(ds);
}
