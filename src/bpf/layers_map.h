/*
 * layers_map: where a regular file's bytes lie on its file system's block
 * device (FIEMAP), so that --layers can tell the probe's request's bios from
 * others' by their sectors when a kernel worker queues them (the cgroup
 * blk-throttle does) — as it does on a block device target, whose offsets
 * are its sectors.
 */
#ifndef IOPROBE_LAYERS_MAP_H
#define IOPROBE_LAYERS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAYERS_EXTENTS 256 /* extents kept at most (the first ones of the range) */

struct layers_extent {
	uint64_t logical;  /* file offset, bytes */
	uint64_t physical; /* offset on the device, bytes */
	uint64_t length;   /* bytes */
};

struct layers_map {
	uint32_t dev;      /* the file system's block device, kernel encoding (layers_dev) */
	size_t n;          /* extents, sorted by logical offset */
	struct layers_extent ext[LAYERS_EXTENTS];
};

/*
 * Map bytes [start, start + len) of the regular file fd: its file system's
 * device (which must be a block device: /sys/dev/block/MAJ:MIN) and the
 * extents whose place is known (delayed, inline, encoded and unknown ones are
 * left out; FIEMAP_FLAG_SYNC writes delayed ones first). Returns 0, or
 * -errno (-ENOTBLK: no block device under the file system, -EOPNOTSUPP: no
 * FIEMAP); *m is then empty (dev 0).
 */
int layers_map_file(struct layers_map *m, int fd, uint64_t start, uint64_t len);

/*
 * Where the size bytes at file offset off start on the device: true with
 * *dev_off the device offset of off, *dev_len how many of the bytes follow it
 * in the same extent; false when no extent holds off. Pure.
 */
bool layers_map_find(const struct layers_map *m, uint64_t off, uint64_t size, uint64_t *dev_off,
		     uint64_t *dev_len);

#endif
