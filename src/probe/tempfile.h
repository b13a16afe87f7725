/*
 * tempfile: the file a directory target is probed through, created inside
 * the directory without ever following what an attacker may have planted:
 *
 *  - unnamed (O_TMPFILE), or when the filesystem has none a randomly named
 *    file created with O_CREAT|O_EXCL|O_NOFOLLOW and unlinked at once;
 *  - with -k, the kept file DIR/ioprobe.tmp: created with O_EXCL|O_NOFOLLOW,
 *    or, when it exists, reused only if it is a regular file (not a symbolic
 *    link, device, FIFO...) with one link, owned by the effective uid, on the
 *    directory's filesystem. The checks are made on the descriptor (O_PATH,
 *    then reopened through /proc/self/fd, or compared by inode), so swapping
 *    the name between check and use changes nothing. The kept file is then
 *    locked (flock, exclusive, waiting at most 0.5 s) for the whole run: a second run
 *    is refused ("in use by another ioprobe"), so it can never truncate or
 *    remove the file a first run is using or filling.
 *
 * Every name is resolved relative to the directory's descriptor, never by
 * path again. Nothing is written here; nothing is ever truncated.
 */
#ifndef IOPROBE_TEMPFILE_H
#define IOPROBE_TEMPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define TEMPFILE_KEEP_NAME "ioprobe.tmp"

struct tempfile {
	int fd;        /* open O_RDWR, or -1 */
	bool created;  /* -k: this run created the kept file (remove it if preparation fails) */
};

/*
 * Open the temporary file in the directory dirfd (whose fstat is dir_st and
 * whose name, for messages, is dir). flags are extra open flags (O_SYNC,
 * O_DSYNC). keep selects the kept file. Returns 0 with *tf filled, or a
 * negative errno with msg filled (exit 2). With keep, the lock lives as long
 * as tf->fd (and its copies) stay open.
 */
int tempfile_open(int dirfd, const struct stat *dir_st, const char *dir, int flags, bool keep,
		  struct tempfile *tf, char *msg, size_t msglen);

/*
 * Undo a -k creation after a failed preparation: unlink DIR/ioprobe.tmp if
 * the name still refers to tf's file (another run's file is never removed).
 */
void tempfile_discard(int dirfd, const struct tempfile *tf);

#endif
