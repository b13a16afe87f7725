/*
 * devstack: which block devices sit under a target, read from sysfs.
 *
 * Given the MAJ:MIN that stat() named (st_dev for a file or directory,
 * st_rdev for a block-device node, which is then its own top), resolve
 * <sysfs_root>/dev/block/MAJ:MIN to its device directory and walk down:
 *   partition -> its whole disk (the parent directory; queue attributes
 *                live only there),
 *   dm-N, mdN -> every entry of slaves/, recursively (dm name from dm/name),
 *   loopN     -> loop/backing_file -> the device holding that file,
 *   major 0   -> (btrfs, FUSE, overlay, tmpfs, NFS: no /sys/dev/block entry)
 *                the mountinfo line with that MAJ:MIN (or, from
 *                devstack_resolve_path, the mount holding the path); a
 *                /dev/... mount source is stat()ed for its st_rdev;
 *                otherwise the result says "no block device".
 * Nothing is guessed from names (no digit stripping).
 *
 * I/O: only files under sysfs_root are read, and paths outside sysfs (loop
 * backing files, mount sources) are examined only through the caller's
 * stat callback, so tests run on fixture trees with a fake callback. The
 * attribute parsers (devstack_parse_*) are pure.
 *
 * The walk is bounded: at most DEVSTACK_MAX devices and DEVSTACK_MAX_DEPTH
 * levels; a device met again is not listed twice, and one that is its own
 * ancestor (a cycle) stops that branch. Either sets truncated / cycle.
 */
#ifndef IOPROBE_DEVSTACK_H
#define IOPROBE_DEVSTACK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define DEVSTACK_MAX 16
#define DEVSTACK_MAX_DEPTH 8
#define DEVSTACK_NAME_LEN 64

enum devstack_kind {
	DEVSTACK_DISK,      /* a whole disk (sda, nvme0n1, vda, zram0, ...) */
	DEVSTACK_PARTITION, /* has a "partition" attribute */
	DEVSTACK_DM,        /* device mapper: LVM, dm-crypt, multipath */
	DEVSTACK_MD,        /* md RAID */
	DEVSTACK_LOOP,      /* loopN */
};

struct devstack_dev {
	unsigned major, minor;
	char name[DEVSTACK_NAME_LEN];       /* kernel name: sda1, nvme0n1p2, dm-0 */
	enum devstack_kind kind;
	char dm_name[128];                  /* dm/name, "" unless DM */
	char md_level[32];                  /* md/level (raid1, ...), "" unless MD */
	char backing_file[PATH_MAX];        /* loop/backing_file, "" unless a bound LOOP */
	bool no_blockdev_below;             /* LOOP whose backing file has no block device */
	uint64_t size_bytes;                /* size attribute * 512; 0 unknown */
	/* From queue/ (the whole disk's for a partition); 0, -1 or "" when absent. */
	unsigned logical_block_size;
	unsigned physical_block_size;
	int rotational;                     /* 1 spinning, 0 not, -1 unknown */
	char scheduler[32];                 /* the active one, e.g. "mq-deadline", "none" */
	unsigned max_sectors_kb;
	unsigned max_segments;     /* queue/max_segments: segments (pages, for user buffers) a request holds */
	int write_cache;                    /* queue/write_cache: 1 "write back", 0 "write through", -1 unknown */
	unsigned nr_requests;
	unsigned depth;                     /* 0 for the top */
	int parent;                         /* index of the device above, -1 for the top */
};

struct devstack {
	unsigned major, minor;              /* what was asked for */
	bool via_mountinfo;                 /* major 0 resolved through a mount source */
	bool no_blockdev;                   /* nothing to show: ndev == 0 */
	char fstype[64];                    /* from mountinfo when it was consulted, else "" */
	char source[256];                   /* mount source, same */
	char mount_point[256];              /* same */
	bool truncated;                     /* DEVSTACK_MAX or DEVSTACK_MAX_DEPTH reached */
	bool cycle;                         /* a device was its own ancestor */
	bool incomplete;                    /* some lower device could not be read */
	size_t ndev;
	struct devstack_dev dev[DEVSTACK_MAX]; /* dev[0] is the top; parents come first */
	size_t nleaves;
	size_t leaf[DEVSTACK_MAX];          /* indices of the devices with nothing below */
};

/* What the stat callback reports about a path. */
struct devstack_stat {
	unsigned dev_major, dev_minor;      /* st_dev: the filesystem holding the path */
	unsigned rdev_major, rdev_minor;    /* st_rdev: meaningful when is_blkdev */
	bool is_blkdev;                     /* S_ISBLK(st_mode) */
};

/* stat(path) (following symlinks) into st; returns 0 or -errno. */
typedef int (*devstack_stat_fn)(void *arg, const char *path, struct devstack_stat *st);

/* The real stat(2); arg is unused. For production callers. */
int devstack_stat_path(void *arg, const char *path, struct devstack_stat *st);

/*
 * Resolve major:minor under sysfs_root (e.g. "/sys"). mountinfo_text (the
 * contents of /proc/self/mountinfo; may be NULL) serves the major-0
 * fallback; statfn/arg (may be NULL: loop backing files and mount sources
 * then stay unresolved) examine paths outside sysfs.
 * Returns 0 with out filled (out->no_blockdev set, ndev 0, when major 0 has
 * no block device behind it), -ENOENT when major:minor (non-zero major) has
 * no entry under <sysfs_root>/dev/block, -EINVAL for NULL sysfs_root/out,
 * or another -errno from reading the top device (on any error out holds
 * only major, minor and no_blockdev = true). A major-0 mount source that
 * sysfs does not know gives 0 with no_blockdev and incomplete set.
 */
int devstack_resolve(const char *sysfs_root, const char *mountinfo_text,
		     unsigned major, unsigned minor,
		     devstack_stat_fn statfn, void *arg, struct devstack *out);

/*
 * As devstack_resolve for the target path: statfn(path) gives st_rdev for a
 * block-device node (its own top) and st_dev otherwise. For major 0 with no
 * mountinfo line carrying that MAJ:MIN, the mount whose mount point is the
 * longest prefix of path is tried (path should then be absolute and
 * normalised, e.g. realpath()'s). -EINVAL when statfn is NULL, or statfn's
 * error.
 */
int devstack_resolve_path(const char *sysfs_root, const char *mountinfo_text, const char *path,
			  devstack_stat_fn statfn, void *arg, struct devstack *out);

/*
 * Append a one-line description, no newline: the devices level by level,
 * levels joined by " → " and devices of one level by ", "; a dm device
 * shows its name in parentheses, a loop device its backing file:
 *   "dm-0 (vg-root) → md0 → sda, sdb"
 *   "loop0 (/var/img/disk.img) → sda1 → sda"
 * a loop whose file lives on no block device reads
 * "loop1 (/mnt/fuse/img: no block device)"; " (truncated)" / " (cycle)"
 * follow when the walk was cut. A stack with no device
 * reads "no block device", followed by " (fstype source on mount_point)"
 * when mountinfo knew the mount. Returns 0 or -ENOMEM.
 */
int devstack_describe(const struct devstack *ds, struct sbuf *sb);

/* Pure attribute parsers (text as read from a sysfs file, trailing newline allowed). */

/* "8:0\n" -> 8, 0. Returns 0 or -EINVAL. */
int devstack_parse_devno(const char *text, unsigned *major, unsigned *minor);

/* One decimal number ("536870912\n") -> *v. Returns 0 or -EINVAL. */
int devstack_parse_u64(const char *text, uint64_t *v);

/*
 * The active scheduler of a queue/scheduler text: the bracketed word of
 * "none [mq-deadline] kyber bfq", or the only word when there are no
 * brackets ("none"). Copied into out (truncated to len - 1). Returns 0 or
 * -EINVAL (empty text, several words without brackets, unbalanced brackets).
 */
int devstack_parse_scheduler(const char *text, char *out, size_t len);

/*
 * A one-line text attribute (dm/name, loop/backing_file, md/level): copy
 * text without its trailing newline into out (truncated to len - 1).
 * Returns 0, or -EINVAL when the result would be empty.
 */
int devstack_parse_line(const char *text, char *out, size_t len);

#endif
