#include "config.h"

#include "layers_map.h"

#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "layers.h"

#define LAYERS_MAP_BATCH 64 /* extents asked of the kernel at a time */

/* The extent flags whose place on the device is not (yet, or at all) a plain offset. */
#define LAYERS_MAP_SKIP (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
			 FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_INLINE | \
			 FIEMAP_EXTENT_DATA_ENCRYPTED | FIEMAP_EXTENT_NOT_ALIGNED)

/* Whether dev is a block device (not a file system's anonymous device: btrfs, tmpfs...). */
static bool layers_map_blockdev(dev_t dev)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return access(path, F_OK) == 0;
}

/* Keep the usable extents of one FIEMAP answer; false when the last one was seen. */
static bool layers_map_take(struct layers_map *m, const struct fiemap *fm, uint64_t *next)
{
	for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];

		*next = e->fe_logical + e->fe_length;
		if (!(e->fe_flags & LAYERS_MAP_SKIP) && m->n < LAYERS_EXTENTS)
			m->ext[m->n++] = (struct layers_extent){ e->fe_logical, e->fe_physical,
								 e->fe_length };
		if (e->fe_flags & FIEMAP_EXTENT_LAST)
			return false;
	}
	return fm->fm_mapped_extents > 0 && m->n < LAYERS_EXTENTS;
}

int layers_map_file(struct layers_map *m, int fd, uint64_t start, uint64_t len)
{
	size_t sz = sizeof(struct fiemap) + LAYERS_MAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm;
	uint64_t next = start, end = start + len;
	struct stat st;
	int err = 0;

	m->dev = 0;
	m->n = 0;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || !layers_map_blockdev(st.st_dev))
		return -ENOTBLK;
	fm = malloc(sz);
	if (!fm)
		return -ENOMEM;
	do {
		memset(fm, 0, sz);
		fm->fm_start = next;
		fm->fm_length = end - next;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = LAYERS_MAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			err = errno == ENOTTY ? -EOPNOTSUPP : -errno;
			break;
		}
	} while (layers_map_take(m, fm, &next) && next < end);
	free(fm);
	if (err)
		m->n = 0;
	else
		m->dev = layers_dev(st.st_dev);
	return err;
}

bool layers_map_find(const struct layers_map *m, uint64_t off, uint64_t size, uint64_t *dev_off,
		     uint64_t *dev_len)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) { /* the first extent that ends after off */
		size_t mid = lo + (hi - lo) / 2;

		if (m->ext[mid].logical + m->ext[mid].length <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->n || m->ext[lo].logical > off)
		return false;
	*dev_off = m->ext[lo].physical + (off - m->ext[lo].logical);
	*dev_len = m->ext[lo].logical + m->ext[lo].length - off;
	if (*dev_len > size)
		*dev_len = size;
	return true;
}
