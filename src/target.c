#include "config.h"

#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountinfo.h"
#include "readfile.h"
#include "rng.h"

#define TEMP_NAME "ioprobe.tmp"
#define DIR_WORK_SIZE (1ull << 20)
#define RAPID_WORK_SIZE (64ull << 20)

static int failf(char *msg, size_t msglen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Write the message into msg and return err (a negative errno). */
static int failf(char *msg, size_t msglen, int err, const char *fmt, ...)
{
	va_list ap;

	if (msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return err;
}

/*
 * fstype and device of the filesystem holding dev (from mountinfo), and its
 * size (statvfs of path), as ioping shows them.
 */
static void target_describe_fs(struct target *t, dev_t dev, const char *path)
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
	if (!statvfs(path, &vfs))
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
		return failf(msg, msglen, -EDOM,
			     "-D: request size %llu is not a multiple of %u, the direct-I/O "
			     "block size of \"%s\"", (unsigned long long)t->size, a, path);
	if (t->work_offset % a)
		return failf(msg, msglen, -EDOM,
			     "-D: working set offset %llu is not a multiple of %u, the direct-I/O "
			     "block size of \"%s\"", (unsigned long long)t->work_offset, a, path);
	return 0;
}

/* Open flags for a file or device. */
static int target_flags(const struct opts *o, bool write)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOCTTY;

	if (o->sync)
		flags |= O_SYNC;
	if (o->dsync)
		flags |= O_DSYNC;
	return flags;
}

static int target_set_direct(struct target *t, const struct opts *o, char *msg, size_t msglen)
{
	int fl;

	if (!o->direct)
		return 0;
	fl = fcntl(t->fd, F_GETFL);
	if (fl < 0 || fcntl(t->fd, F_SETFL, fl | O_DIRECT) < 0)
		return failf(msg, msglen, -errno,
			     "fcntl(O_DIRECT) failed, please retry without option -D: %s",
			     strerror(errno));
	return 0;
}

/* Create the directory's temporary file: unnamed (O_TMPFILE), or named and unlinked. */
static int target_create_temp(struct target *t, const struct opts *o, const char *dir,
			      char *msg, size_t msglen)
{
	int flags = target_flags(o, true) & ~O_RDWR;
	char *name;
	int err;

	if (o->keep) {
		if (asprintf(&name, "%s/%s", dir, TEMP_NAME) < 0)
			return failf(msg, msglen, -ENOMEM, "out of memory");
		t->fd = open(name, flags | O_RDWR | O_CREAT | O_EXCL, 0600);
		if (t->fd >= 0)
			t->created = name; /* removed again if preparation fails */
		else if (errno == EEXIST)
			t->fd = open(name, flags | O_RDWR, 0600);
		err = errno;
		if (!t->created)
			free(name);
		if (t->fd < 0)
			return failf(msg, msglen, -err,
				     "failed to create temporary file at \"%s\": %s", dir,
				     strerror(err));
		return 0;
	}
	t->fd = open(dir, flags | O_RDWR | O_TMPFILE, 0600);
	if (t->fd >= 0)
		return 0;
	if (asprintf(&name, "%s/%s.XXXXXX", dir, TEMP_NAME) < 0)
		return failf(msg, msglen, -ENOMEM, "out of memory");
	t->fd = mkostemp(name, flags);
	if (t->fd < 0) {
		err = errno;
		free(name);
		return failf(msg, msglen, -err, "failed to create temporary file at \"%s\": %s",
			     dir, strerror(err));
	}
	if (unlink(name)) {
		err = errno;
		failf(msg, msglen, -err, "unlink \"%s\" failed: %s", name, strerror(err));
		free(name);
		return -err;
	}
	free(name);
	return 0;
}

/* Fill [offset, offset + work_size) of the temp file with random data, then fsync. */
static int target_fill(struct target *t, const struct opts *o, const volatile sig_atomic_t *stop,
		       char *msg, size_t msglen)
{
	uint64_t end = t->work_offset + t->work_size;
	struct stat st;
	struct rng rng;
	void *buf;
	int err = 0;

	if (o->keep && !fstat(t->fd, &st) && (uint64_t)st.st_size >= end &&
	    (uint64_t)st.st_blocks >= (end + 511) / 512)
		goto sync; /* already full: reuse it */
	if (posix_memalign(&buf, 4096, t->size))
		return failf(msg, msglen, -ENOMEM, "buffer allocation failed");
	rng_seed(&rng, o->seed ^ 0x696f70726f6265ull);
	for (uint64_t off = t->work_offset; off < end && !err; off += t->size) {
		if (stop && *stop) {
			free(buf);
			return failf(msg, msglen, -EINTR, "interrupted while preparing the "
				     "working set; nothing was measured");
		}
		size_t len = (size_t)(end - off < t->size ? end - off : t->size);
		ssize_t n;

		rng_fill(&rng, buf, len);
		n = pwrite(t->fd, buf, len, (off_t)off);
		if (n < 0)
			err = -errno;
		else if ((size_t)n != len)
			err = -ENOSPC;
	}
	free(buf);
	if (err)
		return failf(msg, msglen, err, "preparation write failed: %s", strerror(-err));
sync:
	if (fsync(t->fd))
		return failf(msg, msglen, -errno, "fsync failed: %s", strerror(errno));
	return 0;
}

/*
 * Fill the temp file through the page cache even with -D: the fill is not
 * measured, and its last chunk may be shorter than a request (an unaligned
 * -S), which O_DIRECT would refuse. O_DIRECT is set again afterwards.
 */
static int target_fill_buffered(struct target *t, const struct opts *o,
				const volatile sig_atomic_t *stop, char *msg, size_t msglen)
{
	int fl = fcntl(t->fd, F_GETFL), ret;
	bool direct = fl >= 0 && (fl & O_DIRECT);

	if (direct && fcntl(t->fd, F_SETFL, fl & ~O_DIRECT) < 0)
		return failf(msg, msglen, -errno, "fcntl failed: %s", strerror(errno));
	ret = target_fill(t, o, stop, msg, msglen);
	if (direct && fcntl(t->fd, F_SETFL, fl) < 0 && !ret)
		ret = failf(msg, msglen, -errno,
			    "fcntl(O_DIRECT) failed, please retry without option -D: %s",
			    strerror(errno));
	return ret;
}

/*
 * End of the working set of a target with no size of its own (a directory's
 * temp file, a character device): -S, else 1 MiB (64 MiB with -R) or the
 * request size if larger, after the offset.
 */
static uint64_t target_default_end(const struct target *t, const struct opts *o)
{
	uint64_t size = o->work_size ? o->work_size : (o->rapid ? RAPID_WORK_SIZE : DIR_WORK_SIZE);

	if (!o->work_size && t->size > size)
		size = t->size;
	return size + t->work_offset;
}

/* Working set and request size checks, ioping's order and texts. */
static int target_check_sizes(struct target *t, const struct opts *o, uint64_t size,
			      char *msg, size_t msglen)
{
	if (o->work_size && (t->work_offset > size || o->work_size > size - t->work_offset))
		return failf(msg, msglen, -ERANGE, "target is too small for this");
	if (!o->work_size && t->work_offset > size)
		return failf(msg, msglen, -ERANGE, "target is too small for this");
	t->work_size = o->work_size ? o->work_size : size - t->work_offset;
	if (t->size > t->work_size)
		return failf(msg, msglen, -ERANGE, "request size is too big for this target");
	return 0;
}

static int target_open_path(struct target *t, const struct opts *o, bool write, char *msg,
			    size_t msglen)
{
	t->fd = open(o->path, target_flags(o, write) | (write && t->kind == TARGET_BLOCK ?
							 O_EXCL : 0));
	if (t->fd >= 0)
		return 0;
	if (errno == EBUSY)
		return failf(msg, msglen, -EBUSY,
			     "failed to open \"%s\": device is busy (mounted or in use), "
			     "refusing to write to it", o->path);
	return failf(msg, msglen, -errno, "failed to open \"%s\": %s", o->path, strerror(errno));
}

int target_open(struct target *t, const struct opts *o, const volatile sig_atomic_t *stop,
		char *msg, size_t msglen)
{
	struct stat st;
	bool write = o->write > 0;
	uint64_t size;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->size = opts_request_size(o);
	t->work_offset = o->work_offset;
	if (stat(o->path, &st))
		return failf(msg, msglen, -errno, "stat \"%s\" failed: %s", o->path,
			     strerror(errno));
	if (S_ISDIR(st.st_mode))
		t->kind = TARGET_DIR;
	else if (S_ISREG(st.st_mode))
		t->kind = TARGET_FILE;
	else if (S_ISBLK(st.st_mode))
		t->kind = TARGET_BLOCK;
	else if (S_ISCHR(st.st_mode))
		t->kind = TARGET_CHAR;
	else
		return failf(msg, msglen, -EINVAL, "unsupported destination: \"%s\"", o->path);
	if (t->kind != TARGET_DIR && o->write > 0 && o->write < 3)
		return failf(msg, msglen, -EPERM, "think twice, then use -WWW to shred this target");
	t->writable = write;

	switch (t->kind) {
	case TARGET_DIR:
		size = target_default_end(t, o);
		if ((ret = target_check_sizes(t, o, size, msg, msglen)))
			return ret;
		target_describe_fs(t, st.st_dev, o->path);
		if ((ret = target_create_temp(t, o, o->path, msg, msglen)))
			return ret;
		if ((ret = target_set_direct(t, o, msg, msglen)))
			goto fail;
		if (o->direct && (ret = target_check_align(t, o->path, msg, msglen)))
			goto fail;
		if ((ret = target_fill_buffered(t, o, stop, msg, msglen)))
			goto fail;
		break;
	case TARGET_FILE:
		if ((ret = target_check_sizes(t, o, (uint64_t)st.st_size, msg, msglen)))
			return ret;
		if ((ret = target_open_path(t, o, write, msg, msglen)))
			return ret;
		target_describe_fs(t, st.st_dev, o->path);
		break;
	case TARGET_BLOCK:
		if ((ret = target_open_path(t, o, write, msg, msglen)))
			return ret;
		if (ioctl(t->fd, BLKGETSIZE64, &size)) {
			ret = failf(msg, msglen, -errno, "block get size ioctl failed: %s",
				    strerror(errno));
			goto fail;
		}
		snprintf(t->fstype, sizeof(t->fstype), "block device");
		t->device_size = size;
		if ((ret = target_check_sizes(t, o, size, msg, msglen)))
			goto fail;
		break;
	case TARGET_CHAR:
		/* no size to read: a working set as for a directory */
		snprintf(t->fstype, sizeof(t->fstype), "character device");
		size = target_default_end(t, o);
		if ((ret = target_check_sizes(t, o, size, msg, msglen)))
			return ret;
		if ((ret = target_open_path(t, o, write, msg, msglen)))
			return ret;
		break;
	}
	if (t->kind != TARGET_DIR) {
		if ((ret = target_set_direct(t, o, msg, msglen)))
			goto fail;
		if (o->direct && (ret = target_check_align(t, o->path, msg, msglen)))
			goto fail;
	}
	return 0;
fail:
	if (t->created)
		unlink(t->created);
	target_close(t);
	return ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->created);
	t->created = NULL;
}
