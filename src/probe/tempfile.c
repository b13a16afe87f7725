#include "config.h"

#include "tempfile.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "newfile.h"

/* a kept file held by another run: looked at again every 20 ms for 0.5 s */
#define TEMPFILE_LOCK_STEP_NS 20000000L
#define TEMPFILE_LOCK_TRIES 25

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Why the existing kept file st must not be used, or NULL when it may. */
static const char *tempfile_unsafe(const struct stat *st, const struct stat *dir_st, char *why,
				   size_t len)
{
	if (S_ISLNK(st->st_mode))
		return "it is a symbolic link";
	if (!S_ISREG(st->st_mode))
		return "it is not a regular file";
	if (st->st_nlink != 1) {
		snprintf(why, len, "it has %ju hard links", (uintmax_t)st->st_nlink);
		return why;
	}
	if (st->st_uid != geteuid()) {
		snprintf(why, len, "it is owned by uid %ju, not by uid %ju", (uintmax_t)st->st_uid,
			 (uintmax_t)geteuid());
		return why;
	}
	if (st->st_dev != dir_st->st_dev)
		return "it is on another filesystem than the directory";
	return NULL;
}

/* Reopen the file behind the O_PATH descriptor pfd (checked as *st) for reading and writing. */
static int tempfile_reopen(int dirfd, int pfd, const struct stat *st, int flags)
{
	char proc[64];
	struct stat now;
	int fd, err;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, flags | O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) /* no /proc: by name, then compare inodes */
		fd = openat(dirfd, TEMPFILE_KEEP_NAME,
			    flags | O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &now)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!same_file(&now, st) || !S_ISREG(now.st_mode)) {
		close(fd);
		return -ESTALE;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * Lock the kept file fd for this run (flock, exclusive; held by another, tried again for at
 * most TEMPFILE_LOCK_TRIES steps of 20 ms, a signal ending the tries), then check that the
 * name still refers to it with one link: a run that locked a file another run just unlinked
 * must not go on with it. Returns 0, or -EBUSY (another run holds it) or -ESTALE (replaced).
 */
static int tempfile_lock(int dirfd, int fd)
{
	struct timespec step = { 0, TEMPFILE_LOCK_STEP_NS };
	struct stat mine, named;
	int tries = TEMPFILE_LOCK_TRIES;

	/* a run that just ended may still hold it for a moment (its closes are made apart) */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return -errno;
		if (--tries <= 0 || nanosleep(&step, NULL))
			return -EBUSY; /* still held, or a signal: refused */
	}
	if (fstat(fd, &mine) || fstatat(dirfd, TEMPFILE_KEEP_NAME, &named, AT_SYMLINK_NOFOLLOW) ||
	    !same_file(&mine, &named) || mine.st_nlink != 1)
		return -ESTALE;
	return 0;
}

/* The existing kept file, opened after the checks on what the name refers to. */
static int tempfile_reuse(int dirfd, const struct stat *dir_st, const char *dir, int flags,
			  char *msg, size_t msglen)
{
	struct stat st;
	char why[128];
	const char *bad;
	int pfd, fd;

	pfd = openat(dirfd, TEMPFILE_KEEP_NAME, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st)) {
		int err = errno;

		if (pfd >= 0)
			close(pfd);
		return err_set(msg, msglen, -err, "failed to open \"%s/%s\": %s", dir,
			       TEMPFILE_KEEP_NAME, strerror(err));
	}
	bad = tempfile_unsafe(&st, dir_st, why, sizeof(why));
	if (bad) {
		close(pfd);
		return err_set(msg, msglen, -EPERM,
			       "refusing to use \"%s/%s\" kept by -k: %s; nothing was written",
			       dir, TEMPFILE_KEEP_NAME, bad);
	}
	fd = tempfile_reopen(dirfd, pfd, &st, flags);
	close(pfd);
	if (fd == -ESTALE)
		return err_set(msg, msglen, -EPERM,
			       "refusing to use \"%s/%s\" kept by -k: it was replaced while it "
			       "was being opened; nothing was written", dir, TEMPFILE_KEEP_NAME);
	if (fd < 0)
		return err_set(msg, msglen, fd, "failed to open \"%s/%s\": %s", dir,
			       TEMPFILE_KEEP_NAME, strerror(-fd));
	return fd;
}

/* The kept file DIR/ioprobe.tmp: created, or an existing one that passes the checks; locked. */
static int tempfile_keep(int dirfd, const struct stat *dir_st, const char *dir, int flags,
			 struct tempfile *tf, char *msg, size_t msglen)
{
	int fd, err;

	fd = openat(dirfd, TEMPFILE_KEEP_NAME,
		    flags | O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd >= 0) {
		tf->created = true;
	} else if (errno != EEXIST) {
		return err_set(msg, msglen, -errno, "failed to create temporary file at \"%s\": %s",
			       dir, strerror(errno));
	} else {
		fd = tempfile_reuse(dirfd, dir_st, dir, flags, msg, msglen);
		if (fd < 0)
			return fd;
	}
	err = tempfile_lock(dirfd, fd);
	if (err) {
		close(fd);
		tf->created = false; /* another run has it now: never remove it */
		if (err == -EBUSY)
			return err_set(msg, msglen, err,
				       "refusing to use \"%s/%s\" kept by -k: it is in use by another "
				       "ioprobe; nothing was written", dir, TEMPFILE_KEEP_NAME);
		if (err == -ESTALE)
			return err_set(msg, msglen, -EPERM,
				       "refusing to use \"%s/%s\" kept by -k: it was removed or "
				       "replaced while it was being opened; nothing was written",
				       dir, TEMPFILE_KEEP_NAME);
		return err_set(msg, msglen, err, "failed to lock \"%s/%s\": %s", dir,
			       TEMPFILE_KEEP_NAME, strerror(-err));
	}
	tf->fd = fd;
	return 0;
}

/* A named file when the filesystem has no O_TMPFILE: random name, O_EXCL, unlinked at once. */
static int tempfile_named(int dirfd, const char *dir, int flags, struct tempfile *tf, char *msg,
			  size_t msglen)
{
	char name[64];
	int fd, err;

	fd = newfile_create(dirfd, TEMPFILE_KEEP_NAME, flags | O_RDWR, 0600, name, sizeof(name));
	if (fd < 0)
		return err_set(msg, msglen, fd, "failed to create temporary file at \"%s\": %s",
			       dir, strerror(-fd));
	if (unlinkat(dirfd, name, 0)) {
		err = errno;
		close(fd);
		return err_set(msg, msglen, -err, "unlink \"%s/%s\" failed: %s", dir, name,
			       strerror(err));
	}
	tf->fd = fd;
	return 0;
}

int tempfile_open(int dirfd, const struct stat *dir_st, const char *dir, int flags, bool keep,
		  struct tempfile *tf, char *msg, size_t msglen)
{
	tf->fd = -1;
	tf->created = false;
	if (keep)
		return tempfile_keep(dirfd, dir_st, dir, flags, tf, msg, msglen);
	tf->fd = openat(dirfd, ".", flags | O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);
	if (tf->fd >= 0)
		return 0;
	return tempfile_named(dirfd, dir, flags, tf, msg, msglen);
}

void tempfile_discard(int dirfd, const struct tempfile *tf)
{
	struct stat mine, named;

	if (!tf->created || tf->fd < 0 || fstat(tf->fd, &mine))
		return;
	if (!fstatat(dirfd, TEMPFILE_KEEP_NAME, &named, AT_SYMLINK_NOFOLLOW) &&
	    same_file(&mine, &named))
		unlinkat(dirfd, TEMPFILE_KEEP_NAME, 0);
}
