#include "config.h"

#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "child.h"
#include "mountinfo.h"
#include "msg.h"
#include "readfile.h"
#include "rng.h"
#include "tempfile.h"

#define DIR_WORK_SIZE (1ull << 20)
#define RAPID_WORK_SIZE (64ull << 20)

/*
 * fstype and device of the filesystem holding dev (from mountinfo), and its
 * size (fstatvfs of fd, an open file or directory on it), as ioping shows them.
 */
static void target_describe_fs(struct target *t, dev_t dev, int fd)
{
	struct mountinfo_entry *e = calloc(1, sizeof(*e));
	int err;
	char *text = readfile_text("/proc/self/mountinfo", &err);
	struct statvfs vfs;

	if (e && text && !mountinfo_find_dev(text, major(dev), minor(dev), e)) {
		char real[PATH_MAX];

		snprintf(t->fstype, sizeof(t->fstype), "%s", e->fstype);
		if (e->source[0] == '/' && realpath(e->source, real))
			snprintf(t->device, sizeof(t->device), "%s", real);
		else
			snprintf(t->device, sizeof(t->device), "%s", e->source);
	}
	free(text);
	free(e);
	if (!fstatvfs(fd, &vfs))
		t->device_size = (uint64_t)vfs.f_frsize * vfs.f_blocks;
}

/*
 * The offset and size alignment O_DIRECT needs on t->fd, as the kernel
 * states it: statx STATX_DIOALIGN (Linux 6.1+, for block devices and the
 * filesystems that report it), else the logical block size of a block device
 * (BLKSSZGET), else 0: unknown (tmpfs, most character devices, network and
 * FUSE filesystems), and then the first request shows what the kernel takes.
 */
static unsigned target_dio_align(const struct target *t)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (!statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
#endif
	if (t->kind == TARGET_BLOCK) {
		int lbs = 0;

		if (!ioctl(t->fd, BLKSSZGET, &lbs) && lbs > 0)
			return (unsigned)lbs;
	}
	return 0;
}

/*
 * Refuse, before any I/O, only what the kernel would refuse: a request size
 * or working-set offset that is not a multiple of the direct-I/O alignment.
 * Every offset is the working-set offset plus a multiple of the request size,
 * so the working-set size needs no alignment (its unaligned tail is never
 * used).
 */
static int target_check_align(struct target *t, const char *path, char *msg, size_t msglen)
{
	unsigned a = target_dio_align(t);

	t->align = a;
	if (!a)
		return 0;
	if (t->size % a)
		return err_set(msg, msglen, -EDOM,
			     "-D: request size %llu is not a multiple of %u, the direct-I/O "
			     "block size of \"%s\"", (unsigned long long)t->size, a, path);
	if (t->work_offset % a)
		return err_set(msg, msglen, -EDOM,
			     "-D: working set offset %llu is not a multiple of %u, the direct-I/O "
			     "block size of \"%s\"", (unsigned long long)t->work_offset, a, path);
	return 0;
}

/* O_SYNC / O_DSYNC as asked (-Y, -y). */
static int target_sync_flags(const struct target_cfg *cfg)
{
	return (cfg->sync ? O_SYNC : 0) | (cfg->dsync ? O_DSYNC : 0);
}

static int target_set_direct(struct target *t, const struct target_cfg *cfg, char *msg,
			     size_t msglen)
{
	int fl;

	if (!cfg->direct)
		return 0;
	fl = fcntl(t->fd, F_GETFL);
	if (fl < 0 || fcntl(t->fd, F_SETFL, fl | O_DIRECT) < 0)
		return err_set(msg, msglen, -errno,
			       "fcntl(O_DIRECT) failed, please retry without option -D: %s",
			       strerror(errno));
	return 0;
}

/*
 * Write all len bytes at off. A short write is continued, so the reason it
 * stopped (ENOSPC, EFBIG over ulimit -f, EIO) is the one reported; a write
 * that moves nothing is ENOSPC. Returns 0 or -errno.
 */
static int target_pwrite_all(int fd, const char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Fill [offset, offset + work_size) of the temp file with random data, then fsync. */
static int target_fill(struct target *t, const struct target_cfg *cfg,
		       const volatile sig_atomic_t *stop, const struct target_progress *pg,
		       char *msg, size_t msglen)
{
	uint64_t end = t->work_offset + t->work_size;
	struct stat st;
	struct rng rng;
	void *buf;
	int err = 0;

	if (cfg->keep && !fstat(t->fd, &st) && (uint64_t)st.st_size >= end &&
	    (uint64_t)st.st_blocks >= (end + 511) / 512)
		goto sync; /* already full: reuse it */
	if (posix_memalign(&buf, 4096, t->size))
		return err_set(msg, msglen, -ENOMEM, "buffer allocation failed");
	rng_seed(&rng, cfg->seed ^ 0x696f70726f6265ull);
	for (uint64_t off = t->work_offset; off < end && !err; off += t->size) {
		if (stop && *stop) {
			free(buf);
			return err_set(msg, msglen, -EINTR, "interrupted while preparing the "
				     "working set; nothing was measured");
		}
		size_t len = (size_t)(end - off < t->size ? end - off : t->size);

		rng_fill(&rng, buf, len);
		err = target_pwrite_all(t->fd, buf, len, off);
		if (pg && pg->fn && !err)
			pg->fn(pg->arg, off + len - t->work_offset, t->work_size);
	}
	free(buf);
	if (err)
		return err_set(msg, msglen, err, "preparation write failed: %s", strerror(-err));
sync:
	if (fsync(t->fd))
		return err_set(msg, msglen, -errno, "fsync failed: %s", strerror(errno));
	return 0;
}

/*
 * Fill the temp file through the page cache even with -D: the fill is not
 * measured, and its last chunk may be shorter than a request (an unaligned
 * -S), which O_DIRECT would refuse. O_DIRECT is set again afterwards.
 */
static int target_fill_buffered(struct target *t, const struct target_cfg *cfg,
				const volatile sig_atomic_t *stop, const struct target_progress *pg,
				char *msg, size_t msglen)
{
	int fl = fcntl(t->fd, F_GETFL), ret;
	bool direct = fl >= 0 && (fl & O_DIRECT);

	if (direct && fcntl(t->fd, F_SETFL, fl & ~O_DIRECT) < 0)
		return err_set(msg, msglen, -errno, "fcntl failed: %s", strerror(errno));
	ret = target_fill(t, cfg, stop, pg, msg, msglen);
	if (direct && fcntl(t->fd, F_SETFL, fl) < 0 && !ret)
		ret = err_set(msg, msglen, -errno,
			      "fcntl(O_DIRECT) failed, please retry without option -D: %s",
			      strerror(errno));
	return ret;
}

/*
 * End of the working set of a target with no size of its own (a directory's
 * temp file, a character device): -S, else 1 MiB (64 MiB with -R) or the
 * request size if larger, after the offset.
 */
static uint64_t target_default_end(const struct target *t, const struct target_cfg *cfg)
{
	uint64_t size = cfg->work_size ? cfg->work_size :
			(cfg->rapid ? RAPID_WORK_SIZE : DIR_WORK_SIZE);

	if (!cfg->work_size && t->size > size)
		size = t->size;
	return size + t->work_offset;
}

/* Working set and request size checks, ioping's order and texts. */
static int target_check_sizes(struct target *t, const struct target_cfg *cfg, uint64_t size,
			      char *msg, size_t msglen)
{
	if (cfg->work_size && (t->work_offset > size || cfg->work_size > size - t->work_offset))
		return err_set(msg, msglen, -ERANGE, "target is too small for this");
	if (!cfg->work_size && t->work_offset > size)
		return err_set(msg, msglen, -ERANGE, "target is too small for this");
	t->work_size = cfg->work_size ? cfg->work_size : size - t->work_offset;
	if (t->size > t->work_size)
		return err_set(msg, msglen, -ERANGE, "request size is too big for this target");
	return 0;
}

/* The kind of target st describes, or -1 for what ioprobe does not probe (FIFO, socket). */
static int target_kind_of(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return TARGET_DIR;
	if (S_ISREG(st->st_mode))
		return TARGET_FILE;
	if (S_ISBLK(st->st_mode))
		return TARGET_BLOCK;
	if (S_ISCHR(st->st_mode))
		return TARGET_CHAR;
	return -1;
}

/*
 * The message for a failed open of the destination, with ioping's texts: a
 * stat() here only chooses the words (nothing is decided from it).
 */
static int target_open_failed(const struct target_cfg *cfg, int err, char *msg, size_t msglen)
{
	struct stat st;

	if (stat(cfg->path, &st))
		return err_set(msg, msglen, -errno, "stat \"%s\" failed: %s", cfg->path,
			       strerror(errno));
	if (target_kind_of(&st) < 0)
		return err_set(msg, msglen, -EINVAL, "unsupported destination: \"%s\"", cfg->path);
	if (err == EBUSY)
		return err_set(msg, msglen, -EBUSY,
			       "failed to open \"%s\": device is busy (mounted or in use), "
			       "refusing to write to it", cfg->path);
	return err_set(msg, msglen, -err, "failed to open \"%s\": %s", cfg->path, strerror(err));
}

/*
 * Open the destination once and fstat that descriptor: everything after this
 * is decided from what was really opened, so swapping the path (a rename or a
 * changing symbolic link) cannot turn a file into a mounted device. With
 * -WWW the open is O_RDWR|O_EXCL: Linux ignores O_EXCL without O_CREAT except
 * on block devices, where it claims the device (EBUSY when mounted or in
 * use). A directory is opened O_PATH when it cannot be read. O_NONBLOCK keeps
 * the open of a FIFO from waiting; it is cleared before any I/O.
 */
static int target_open_once(struct target *t, const struct target_cfg *cfg, struct stat *st,
			    char *msg, size_t msglen)
{
	bool shred = cfg->write >= 3;
	int base = O_CLOEXEC | O_NOCTTY | O_NONBLOCK | target_sync_flags(cfg);
	int fd = open(cfg->path, base | (shred ? O_RDWR | O_EXCL : O_RDONLY));
	int err = fd < 0 ? errno : 0;

	if (fd < 0 && (err == EISDIR || err == EACCES))
		fd = open(cfg->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return target_open_failed(cfg, err, msg, msglen);
	t->fd = fd;
	if (fstat(fd, st))
		return err_set(msg, msglen, -errno, "stat \"%s\" failed: %s", cfg->path,
			       strerror(errno));
	if (target_kind_of(st) < 0)
		return err_set(msg, msglen, -EINVAL, "unsupported destination: \"%s\"", cfg->path);
	t->kind = (enum target_kind)target_kind_of(st);
	if (t->kind != TARGET_DIR && cfg->write > 0 && cfg->write < 3)
		return err_set(msg, msglen, -EPERM,
			       "think twice, then use -WWW to shred this target");
	if (t->kind != TARGET_DIR &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		return err_set(msg, msglen, -errno, "failed to open \"%s\": %s", cfg->path,
			       strerror(errno));
	return 0;
}

/* A directory: check sizes, create and fill the temporary file inside it. */
static int target_open_dir(struct target *t, const struct target_cfg *cfg, const struct stat *st,
			   const volatile sig_atomic_t *stop, const struct target_progress *pg,
			   char *msg, size_t msglen)
{
	struct tempfile tf;
	int dirfd = t->fd, ret;

	t->fd = -1;
	ret = target_check_sizes(t, cfg, target_default_end(t, cfg), msg, msglen);
	if (!ret) {
		target_describe_fs(t, st->st_dev, dirfd);
		ret = tempfile_open(dirfd, st, cfg->path, target_sync_flags(cfg), cfg->keep, &tf,
				    msg, msglen);
	}
	if (ret) {
		close(dirfd);
		return ret;
	}
	t->fd = tf.fd;
	ret = target_set_direct(t, cfg, msg, msglen);
	if (!ret && cfg->direct)
		ret = target_check_align(t, cfg->path, msg, msglen);
	if (!ret)
		ret = target_fill_buffered(t, cfg, stop, pg, msg, msglen);
	if (ret)
		tempfile_discard(dirfd, &tf);
	close(dirfd);
	return ret;
}

/* A file or a device, already open as t->fd: sizes and description. */
static int target_open_node(struct target *t, const struct target_cfg *cfg, const struct stat *st,
			    char *msg, size_t msglen)
{
	uint64_t size;
	int ret;

	switch (t->kind) {
	case TARGET_FILE:
		if ((ret = target_check_sizes(t, cfg, (uint64_t)st->st_size, msg, msglen)))
			return ret;
		target_describe_fs(t, st->st_dev, t->fd);
		break;
	case TARGET_BLOCK:
		if (ioctl(t->fd, BLKGETSIZE64, &size))
			return err_set(msg, msglen, -errno, "block get size ioctl failed: %s",
				       strerror(errno));
		snprintf(t->fstype, sizeof(t->fstype), "block device");
		t->device_size = size;
		if ((ret = target_check_sizes(t, cfg, size, msg, msglen)))
			return ret;
		break;
	default:
		/* a character device has no size to read: a working set as for a directory */
		snprintf(t->fstype, sizeof(t->fstype), "character device");
		if ((ret = target_check_sizes(t, cfg, target_default_end(t, cfg), msg, msglen)))
			return ret;
		break;
	}
	if ((ret = target_set_direct(t, cfg, msg, msglen)))
		return ret;
	return cfg->direct ? target_check_align(t, cfg->path, msg, msglen) : 0;
}

int target_open(struct target *t, const struct target_cfg *cfg, const volatile sig_atomic_t *stop,
		const struct target_progress *progress, char *msg, size_t msglen)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->size = cfg->size;
	t->work_offset = cfg->work_offset;
	t->writable = cfg->write > 0;
	ret = target_open_once(t, cfg, &st, msg, msglen);
	if (!ret)
		ret = t->kind == TARGET_DIR ?
			      target_open_dir(t, cfg, &st, stop, progress, msg, msglen) :
			      target_open_node(t, cfg, &st, msg, msglen);
	if (ret)
		target_close(t);
	return ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

void target_close_apart(struct target *t)
{
	if (t->fd >= 0)
		child_close_apart(&t->fd, 1);
	t->fd = -1;
}
